"""The exhaustive oracle: a plain depth-first search over the reference engine.

No pruning of any kind, no symmetry reduction, an exact set of visited positions. It is
slow and simple on purpose: it judges the fast solver on miniature deals. A visited
position is never expanded twice; since every position reachable from the start is
expanded once, "lost" means no reachable position is won.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

from solver.engine import Engine, Position
from solver.moves import Move


@dataclass
class OracleResult:
    verdict: str                      # "won", "lost" or "unknown" (state limit hit)
    moves: list[Move] = field(default_factory=list)
    states: int = 0
    most_home: int = 0                # most cards on the foundations in a position visited


def _home(pos: Position) -> int:
    return sum(len(f) for f in pos.foundations)


def exhaustive_search(engine: Engine, start: Position, max_states: Optional[int] = None) -> OracleResult:
    """Search every position reachable from ``start``; a win returns its move list."""
    if engine.is_won(start):
        return OracleResult("won", [], 1, _home(start))
    seen = {start}
    most = _home(start)
    # Each frame: the position and the successors still to try.
    stack = [(start, list(engine.successors(start)))]
    path: list[Move] = []
    while stack:
        pos, todo = stack[-1]
        if not todo:
            stack.pop()
            if path:
                path.pop()
            continue
        move, nxt = todo.pop(0)
        if nxt in seen:
            continue
        if engine.is_won(nxt):
            return OracleResult("won", path + [move], len(seen) + 1, _home(nxt))
        seen.add(nxt)
        most = max(most, _home(nxt))
        if max_states is not None and len(seen) > max_states:
            return OracleResult("unknown", [], len(seen), most)
        path.append(move)
        stack.append((nxt, list(engine.successors(nxt))))
    return OracleResult("lost", [], len(seen), most)
