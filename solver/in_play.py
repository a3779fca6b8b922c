"""Positions in play: is a game still winnable after the moves played so far, what to play
next, which legal moves keep it winnable and which move lost it.

Every claim is the solver's own (``solver.driver.solve`` from the position): *won* only
with a line that the reference engine has replayed to a win from the deal's opening
through the moves played, *lost* only from a complete search or a proved rule, *unknown*
otherwise. Two facts of the game make the rest exact:

* a position one of whose moves leads to a won position is won (that move, then its line);
* winnability only falls along a line of play: a position reached from a lost one is lost,
  and a position from which a won one is reached is won. So the positions after 0, 1, ...,
  n moves of a game are won up to some move and not won after it, and a binary search over
  them finds the move that lost the game with about log2(n) solves (``where_lost``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Optional, Sequence

from solver.driver import Budget, SolveResult, position_after, solve
from solver.engine import engine_for
from solver.formats import Deal
from solver.moves import Move, format_move

Say = Callable[[str], None]
FROM_LOST = "from_lost_position"      # the proof of a position reached from one proved lost


@dataclass
class MoveVerdict:
    """A legal move of the position and the verdict on the position it leads to."""

    move: Move
    verdict: str                       # won / lost / unknown
    reason: Optional[str] = None       # for unknown: the budget that ran out
    proof: Optional[str] = None        # what decided it, as in ``SolveResult.proof``


@dataclass
class WhereLost:
    """A position of the game proved winnable whose next one is not (``where_lost``).

    ``won_after``: moves played before that position (-1: not even the opening is proved
    winnable); ``next_verdict``: the verdict on the position one move later. When that is
    "lost", move ``won_after + 1`` lost the game (and every later position is lost)."""

    won_after: int
    next_verdict: str
    next_reason: Optional[str] = None

    @property
    def losing_move(self) -> Optional[int]:
        """The 1-based number of the move that lost the game, when proved."""
        return self.won_after + 1 if self.next_verdict == "lost" and self.won_after >= 0 else None


@dataclass
class Hint:
    """The answer for a position: the verdict on it (``result``: its ``moves`` go on from
    the position), the legal moves with theirs (where asked), and, for a position not
    proved winnable, where the game was lost."""

    deal: Deal
    played: list[Move]
    result: SolveResult
    moves: list[MoveVerdict] = field(default_factory=list)
    where_lost: Optional[WhereLost] = None

    @property
    def verdict(self) -> str:
        return self.result.verdict

    def next_move(self) -> Optional[Move]:
        """The first move of the certified winning line from the position (None unless won,
        or when the position is already won)."""
        return self.result.moves[0] if self.result.verdict == "won" and self.result.moves else None

    def as_dict(self) -> dict:
        """The answer as JSON-ready data (``patience hint --json``)."""
        r = self.result
        out = {"variant": self.deal.rules.variant, "rules": self.deal.rules.as_dict(),
               "rules_hash": self.deal.rules.hash(), "deal": self.deal.checksum, "source": self.deal.source,
               "played": [format_move(m) for m in self.played], "verdict": r.verdict, "reason": r.reason,
               "proof": r.proof, "next_move": format_move(self.next_move()) if self.next_move() else None,
               "line": [format_move(m) for m in r.moves], "nodes": r.nodes, "budget": r.budget.as_dict(),
               "moves": [{"move": format_move(v.move), "verdict": v.verdict, "reason": v.reason, "proof": v.proof}
                         for v in self.moves]}
        if self.where_lost is not None:
            w = self.where_lost
            out["where_lost"] = {"won_after": w.won_after, "next_verdict": w.next_verdict,
                                 "next_reason": w.next_reason, "losing_move": w.losing_move}
        return out


def hint(deal: Deal, played: Sequence[Move], budget: Budget, dominance: tuple = (),
         move_budget: Optional[Budget] = None, look_back: bool = True, say: Optional[Say] = None) -> Hint:
    """The answer for the position after ``played`` (legal from the deal's opening, else
    ``IllegalMove``): the position solved within ``budget``; with ``move_budget``, each
    legal move's position solved within it; with ``look_back``, where a position not
    proved winnable was lost (``where_lost``, positions solved within ``budget``).
    ``say`` is told of each solve as it starts (progress)."""
    played = list(played)
    say = say or (lambda text: None)
    result = solve(deal, budget, dominance, played=played)
    out = Hint(deal, played, result)
    if move_budget is not None and result.verdict != "lost":
        out.moves = judge_moves(deal, played, result, move_budget, dominance, say)
    if look_back and out.verdict != "won" and played:
        out.where_lost = where_lost(deal, played, out.result, budget, dominance, say)
        if out.where_lost.losing_move is not None and out.verdict == "unknown":
            # Reached from a position proved lost, the position is lost (module docstring).
            out.result.verdict, out.result.reason, out.result.proof = "lost", None, FROM_LOST
    return out


def judge_moves(deal: Deal, played: list[Move], result: SolveResult, budget: Budget, dominance: tuple,
                say: Say) -> list[MoveVerdict]:
    """Each legal move of the position after ``played``, in the reference engine's order,
    with the verdict on the position it leads to. The first move of ``result``'s winning
    line is won without a solve: its line is certified already. A won move makes an
    undecided ``result`` won (that move, then the move's certified line)."""
    engine = engine_for(deal.rules)
    pos = position_after(deal, played)
    legal = engine.legal_moves(pos)
    first = result.moves[0] if result.verdict == "won" and result.moves else None
    out = []
    for i, m in enumerate(legal):
        if first is not None and format_move(m) == format_move(first):
            out.append(MoveVerdict(m, "won", None, result.proof))
            continue
        say(f"move {i + 1} of {len(legal)}: {format_move(m)}")
        r = solve(deal, budget, dominance, played=played + [m])
        out.append(MoveVerdict(m, r.verdict, r.reason, r.proof))
        if r.verdict == "won" and result.verdict != "won":
            # A won move makes the position won: that move, then its certified line.
            result.verdict, result.reason, result.proof = "won", None, r.proof
            result.moves = [m] + list(r.moves)
    return out


def where_lost(deal: Deal, played: list[Move], last: SolveResult, budget: Budget, dominance: tuple,
               say: Say) -> WhereLost:
    """Binary search over the positions after 0..len(played) moves for a position proved
    winnable whose next one is not (winnability only falls along a line: module docstring).
    ``last`` is the verdict on the position after all of ``played`` (not won). A position
    found unknown is treated as not won, so a later one might still be winnable; the answer
    is exact about what it names: ``won_after`` is proved winnable, and the position one
    move later has the verdict given."""
    verdicts = {len(played): (last.verdict, last.reason)}
    lo, hi = -1, len(played)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        say(f"looking back: the position after {mid} moves")
        r = solve(deal, budget, dominance, played=played[:mid])
        if r.verdict == "won":
            lo = mid
        else:
            hi = mid
            verdicts[mid] = (r.verdict, r.reason)
    verdict, reason = verdicts[hi]
    return WhereLost(lo, verdict, reason)
