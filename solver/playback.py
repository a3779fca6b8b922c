"""Replaying a move list on the reference engine: the certificate check for "won"."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Optional

from solver.engine import IllegalMove, Position, engine_for
from solver.formats import Deal
from solver.moves import Move, format_move


@dataclass
class ReplayResult:
    """The first and last positions reached, whether the last one is won, and the first
    illegal move. (Only these are kept: a move list can be long; ``replay``'s ``step``
    sees every position.)"""

    start: Position
    final: Position
    won: bool = False
    error_index: Optional[int] = None          # 0-based index of the illegal move
    error: Optional[str] = None

    @property
    def ok(self) -> bool:
        return self.won and self.error is None

    def message(self, moves: list[Move]) -> str:
        if self.error_index is not None:
            m = moves[self.error_index]
            return f"move {self.error_index + 1} ({format_move(m)}) is illegal: {self.error}"
        if not self.won:
            return f"after all {len(moves)} moves the game is not won ({cards_left(self.final)} cards not on the foundations)"
        return f"won in {len(moves)} moves"


def cards_left(pos: Position) -> int:
    return len(pos.stock) + sum(len(p) for k in "rtw" for p in pos.group(k))


def replay(deal: Deal, moves: list[Move],
           step: Optional[Callable[[int, Move, Position], None]] = None) -> ReplayResult:
    """Play ``moves`` from the deal's initial position on the reference engine; ``step``
    is called with the index, the move and the position after it, for every legal move."""
    engine = engine_for(deal.rules)
    pos = engine.initial_position(deal.layout)
    out = ReplayResult(pos, pos)
    for i, m in enumerate(moves):
        try:
            pos = engine.apply(pos, m)
        except IllegalMove as e:
            out.error_index, out.error = i, str(e)
            return out
        out.final = pos
        if step is not None:
            step(i, m, pos)
    out.won = engine.is_won(pos)
    return out
