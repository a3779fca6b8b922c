"""``schedule_late_refills`` (issue 19): a position with reinforcement is lost when no line
refills in its current pass and the refill model with no take in that pass has no
schedule. The proof: below.

The first fact is a search of the game without refills for the kernel goal ``refill_due``
(a reserve empty while the stock holds cards), limited to the current pass; the second is
the schedule model ``late`` (``solver.alhambra.schedule.MODELS``) solved by CP-SAT.

The proof of ``schedule_late_refills`` (its flag: ``solver.alhambra.flags.SAFE_SCHEDULE_LATE_REFILLS``)
-------------------------------------------------------------------------------------------------------

``schedule_late_refills`` (one waste pile, reinforcement): a verdict on position P from
two facts, after a search that ran out of nodes (``root_verdict``) where the refill
model's own rules decided nothing (``solver.alhambra.late_refills``):

(A) *No refill in the current pass.* A search of the game without refills, limited to P's
    current pass (no redeal beyond those P has used), for the goal ``refill_due`` (a
    reserve empty while the stock holds cards), with ``deal_through_inert``, ends without
    reaching it (within ``GOAL_NODES`` nodes; else no verdict).
(B) *No schedule after it.* The bare refill model (``SAFE_SCHEDULE_REFILLS``, *Stages*)
    with no take in the current pass (``MODELS["late"]``) has no schedule (CP-SAT, within
    ``DET_TIME_LATE_REFILLS``).
Then P is lost. A schedule of (B) that plays to a win on the reference engine is a win
(certified like any line); anything else decides nothing.

Proof. Let L be a winning line from P.
1. L refills nothing in the current pass. Else let R be its first refill there. Up to R
   no refill happened, and reinforcement changes the game by its refills only, so L's
   moves up to R (without R) are a line of the game without refills, within the pass.
   R takes the stock's next card into an empty reserve, so the state it starts from has a
   reserve empty and the stock holding a card: the goal, reached by that line (at P
   itself if the line is empty), and (A)'s search would have reached it:
2. (A)'s search is complete for the goal. It expands every state it reaches that is not
   the goal, except where ``refill_out_of_reach`` holds (the stock empty, no redeal
   allowed: the goal needs a stock card, and only a redeal fills the stock). Its
   transposition table skips a state already expanded, which reaches the goal exactly
   when its first visit did (the goal is a property of the state). ``deal_through_inert``
   (``SAFE_DEAL_THROUGH_INERT``, whose proof is followed here with "reaches the goal" for
   "is winnable", by induction on the shortest line to the goal): if the macro's start N
   is not the goal, no reserve of N is empty (its stock is not, as it deals), and the
   macro's states keep N's reserves, so none is the goal; where a shortest line leaves the
   macro at a state Q by a reserve card home m, N + m is a child of N with the same
   deals after it (N + m + deals = Q + m), and a line from Q + m to the goal is one from
   N + m: Q + m's deals are N + m's deals, and if Q + m itself is the goal so is N + m
   (the same reserves, more stock cards).
3. So every take of L lies in a later pass. ``SAFE_SCHEDULE_REFILLS`` maps L's labels to a
   solution of the refill model in which a card's take literal of pass k is true only
   where L takes it first in pass k, so never in pass 0; the bare model keeps a subset of
   the constraints (*Stages*; without forced refills nothing requires a take), so L's
   labels solve it with every take of pass 0 false: they solve ``late``, which is that
   model with those literals left out. No schedule there means no winning line.

Where it runs: only when named (``DominanceRule.all_needs``): (B) takes minutes on a
standard deal. Checked: the goal search against a plain search of the reference engine for
the same goal (every position of the current pass), the verdicts against the unpruned
oracle on miniatures (no position the oracle wins is refuted), with and without the rule
on the solver's verdicts, and on full-size standard deals (``tests/test_late_refills.py``).
Measured (benchmarks/notes/reinforcements-proofs-of-loss.md, "no refill in the first pass"): it refutes The
Reinforcements 978, 368, 374, 44 and 881, which every other rule leaves unknown.
"""

from __future__ import annotations

import time
from typing import Optional

from solver.contract import GoalSearch
from solver.engine import Position, engine_for
from solver.moves import Move
from solver.variants import make_rules

GOAL = "refill_due"
# the goal search's rule: its proof carries over to the goal (``SAFE_SCHEDULE_LATE_REFILLS``)
GOAL_RULES = ("deal_through_inert",)
# The goal search's nodes and table at most: on 40 unknown standard deals of The
# Reinforcements it ended without the goal in 0.1-36 s for 25, reached it for 4 and ran
# out at 20 M nodes for 11 (benchmarks/notes/reinforcements-proofs-of-loss.md, "no refill in the first pass").
GOAL_NODES = 20_000_000
GOAL_MEMORY = 1 << 30
# CP-SAT's deterministic time for the model: it refuted The Reinforcements 348, 368, 881,
# 560, 684, 500, 374, 978 and 44 under the standard rules at 30, 31, 91, 98, 100, 109, 117,
# 126 and 152 units, some 5-35 minutes (benchmarks/notes/reinforcements-proofs-of-loss.md)
DET_TIME_LATE_REFILLS = 200.0


def current_pass_rules(rules, pos: Position):
    """The game without refills, limited to ``pos``'s current pass (no redeal beyond the
    ones it has used): every line of the real game up to its first refill in that pass is
    a line of it."""
    return make_rules(rules.variant, {**rules.as_dict(), "reinforce": False, "redeals": pos.redeals_used})


def refill_in_current_pass(rules, pos: Position, reach: GoalSearch, nodes: int = GOAL_NODES,
                           memory: int = GOAL_MEMORY, deadline: float = float("inf")) -> Optional[bool]:
    """Whether some line from ``pos`` refills a reserve before its pass ends: True, False
    (proved: none does) or None (the search ran out). ``reach``: the driver's goal search
    (``solver.attempts.reaches_goal``)."""
    return reach(current_pass_rules(rules, pos), GOAL, GOAL_RULES, pos, nodes, memory, deadline)


def late_refills_verdict(rules, pos: Position, reach: GoalSearch, seconds: float = float("inf"),
                         det_time: float = DET_TIME_LATE_REFILLS) -> tuple[Optional[str], Optional[list[Move]], str]:
    """``("lost", None, why)`` when no line refills in ``pos``'s current pass and the model
    ``late`` has no schedule; ``("won", moves, why)`` when that model's schedule plays to a
    win on the reference engine; ``("lead", moves, why)`` when it does not play, ``moves``
    its lead (``schedule.schedule_lead``: real play as far as the schedule goes, a place to
    search for wins, no verdict); else ``(None, None, why)``, ``why`` saying which fact
    failed or gave up. ``reach``: the driver's goal search (``solver.attempts.reaches_goal``)."""
    from solver.alhambra import schedule                  # OR-Tools loads only when used
    deadline = time.perf_counter() + seconds         # the driver's clock
    refill = refill_in_current_pass(rules, pos, reach, deadline=deadline)
    if refill is not False:
        return None, None, "a line refills in the current pass" if refill else "the goal search ran out"
    status, moves, lead = schedule.solve_schedule(engine_for(rules), pos, rules, det_time,
                                                  deadline - time.perf_counter(), ("late",))
    if status == "INFEASIBLE":
        return "lost", None, "no refill in the current pass, no schedule after it"
    if moves is not None:
        return "won", moves, "a schedule with late refills plays to a win"
    if lead:
        return "lead", lead, f"a schedule with late refills plays {len(lead)} moves"
    return None, None, f"the model's status: {status}"
