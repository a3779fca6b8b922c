"""``schedule_late_refills`` (issue 19): a position with reinforcement is lost when no line
refills in its current pass and the refill model with no take in that pass has no
schedule. The proof: ``SAFE_SCHEDULE_LATE_REFILLS`` in ``solver.alhambra.kernel``.

The first fact is a search of the game without refills for the kernel goal ``refill_due``
(a reserve empty while the stock holds cards), limited to the current pass; the second is
the schedule model ``late`` (``solver.alhambra.schedule.MODELS``) solved by CP-SAT.
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
