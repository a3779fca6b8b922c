"""The Python half of the Alhambra family's kernel contract (``solver.kernels``): its
configuration, loading a position, the notation of its moves, and what runs around the
search: the free-reserve relaxation at the root, the searches for wins, the schedule
models' verdicts (CP-SAT) and the leads they hand the driver."""

from __future__ import annotations

import time
from typing import Optional

import numpy as np

from solver import toolkit
from solver.alhambra import beam_order
from solver.alhambra.flags import (  # noqa: F401  (the flags of the registry's rules: solver.kernels)
    SAFE_DEAL_THROUGH_INERT, SAFE_MET_FOUNDATION, SAFE_DEAD_WASTE_BLOCK, SAFE_DEAD_STOCK_ORDER,
    SAFE_FREE_RESERVE_RELAXATION, SAFE_NEXT_PASS_PROJECTION, SAFE_SCHEDULE_RELAXATION, SAFE_SCHEDULE_REFILLS,
    SAFE_SCHEDULE_SKELETON, SAFE_SCHEDULE_LATE_REFILLS, STREAMLINER)
from solver.alhambra.kernel import DEAL_COUNT
from solver.alhambra.late_refills import late_refills_verdict
from solver.alhambra.relaxed import G_LOST, HEADER, g0_solve
from solver.alhambra.slots import (C_ANY, C_FIRSTDEAL, C_NRES, C_NWASTE, C_REDEALS, C_REINF, C_REINF_IMM, C_STOCK,
                                   C_STOP3, CFG_LEN, S_REDEALS)
from solver.contract import GoalSearch, RootVerdict
from solver.engine import engine_for
from solver.toolkit import C_SAFE, fill_common, get_bits, load_foundations, load_piles


MEMO_SLOTS = 1 << 22              # the relaxation's memo: 64 MB per solve, at least ...
MEMO_SLOTS_MAX = 1 << 25          # ... and at most 512 MB (a solve of 8 M nodes or more)
RELAX_MOVES_MANY_REDEALS = 100_000  # the relaxation's moves at most, with two redeals or more


def make_cfg(rules, safe_flags: int) -> np.ndarray:
    """The kernel's configuration (the rule options each dominance rule needs are checked
    by the registry, ``solver.kernels``)."""
    cfg = np.zeros(CFG_LEN, dtype=np.int64)
    fill_common(cfg, rules, safe_flags)
    cfg[C_NRES], cfg[C_NWASTE] = rules["reserves"], rules["waste_piles"]
    cfg[C_STOCK] = rules["reserves"] + rules["waste_piles"]
    cfg[C_ANY] = int(rules["empty_waste_accepts_any"])
    cfg[C_REDEALS] = rules["redeals"]
    cfg[C_FIRSTDEAL] = int(rules["redeal_includes_first_deal"])
    cfg[C_STOP3] = int(rules["stop_at_third_exhaustion"])
    cfg[C_REINF] = int(rules["reinforce"])
    cfg[C_REINF_IMM] = int(rules["reinforce_timing"] == "immediate")
    return cfg


def relaxation_lost(cfg, state, cap: int, retry: bool) -> tuple[bool, int]:
    """Whether the free-reserve relaxation of ``state`` is lost (so the position is), from
    a search of at most ``cap`` relaxed moves, and the moves spent. ``retry``: search again
    from a state whose earlier search gave up (with a larger cap)."""
    if not cfg[C_SAFE] & SAFE_FREE_RESERVE_RELAXATION:
        return False, 0
    verdict, nodes = g0_solve(cfg, state.piles, state.lens, state.fnd, state.scal[S_REDEALS], state.memo, cap,
                              retry)
    return verdict == G_LOST, int(nodes)


def relaxation_moves(cfg, nodes: int) -> int:
    """Relaxed moves the root's relaxation may spend in a solve of ``nodes`` nodes (0 when
    its rule is off): ``nodes`` with at most one redeal; with two or more (the standard
    rules) at most ``RELAX_MOVES_MANY_REDEALS``. There G0, free reserves for three passes,
    has proved no deal lost: on Alhambra games 1-40 it was won or unknown, game 4 still
    unknown at 200 M moves; an unknown G0 spent as much time as the search after it
    (benchmarks/notes/alhambra-proofs-of-loss.md, "the relaxation's budget by redeals", solver 0.11.0)."""
    if not cfg[C_SAFE] & SAFE_FREE_RESERVE_RELAXATION:
        return 0
    return nodes if cfg[C_REDEALS] <= 1 else min(nodes, RELAX_MOVES_MANY_REDEALS)


# Searches from a lead (``solver.driver._search_lead``): The Reinforcements 643 under the
# standard rules is won 963 nodes of complete search from the end of the 145-move lead of
# ``schedule_late_refills``' model, and 744 by a nested search from 3 moves before the end of
# its 137-move lead (benchmarks/notes/reinforcements-searches-for-wins.md, "leads")
LEAD_BACK = (0, 3, 10, 20)            # from the lead's end, and from so many moves before it
LEAD_NODES = 2_000_000                # each complete search from there
LEAD_PLAN_NODES = 1_000_000           # then the family's searches for wins, as for this budget
LEAD_RULE = "schedule_lead"           # the proof a win from a lead is recorded under


def lead_verdict(moves: list) -> RootVerdict:
    """A lead: no verdict, a line from whose end the driver searches for wins."""
    return RootVerdict("lead", moves, LEAD_RULE, LEAD_BACK, LEAD_NODES, LEAD_PLAN_NODES)


def root_verdict(cfg, rules, pos, seconds: float, reach: GoalSearch) -> Optional[RootVerdict]:
    """The schedule model's verdict on reference position ``pos``
    (``SAFE_SCHEDULE_RELAXATION``; with reinforcement ``SAFE_SCHEDULE_REFILLS``, else its
    skeleton alone, ``SAFE_SCHEDULE_SKELETON``; where these decide nothing,
    ``SAFE_SCHEDULE_LATE_REFILLS``):
    ``("lost", [], rule)`` when it has no schedule,
    ``("won", moves, rule)`` when a schedule plays to a win on the reference engine,
    ``lead_verdict(moves)`` when ``schedule_late_refills``' schedule does not play (its
    lead, ``solver.alhambra.schedule.schedule_lead``: no verdict, a line from whose end the
    driver searches for wins), None when its rule is off, CP-SAT gives up
    (``solver.alhambra.schedule.det_time_for``, or ``seconds`` of wall clock) or the schedule
    found does not play. ``reach``: the driver's goal search, for the late rule's first fact."""
    t0 = time.monotonic()
    verdict = _schedule_verdict(cfg, rules, pos, seconds)
    left = seconds - (time.monotonic() - t0)
    if verdict is None and cfg[C_REINF] and cfg[C_SAFE] & SAFE_SCHEDULE_LATE_REFILLS and left > 0:
        late, moves, _ = late_refills_verdict(rules, pos, reach, left)
        if late == "lead":
            return lead_verdict(moves)
        if late is not None:
            return RootVerdict(late, moves or [], "schedule_late_refills")
    return verdict


def _schedule_verdict(cfg, rules, pos, seconds: float):
    """``root_verdict``'s schedule model, ``schedule_late_refills`` aside."""
    if not cfg[C_REINF]:
        rule, flag, stages = "schedule_relaxation", SAFE_SCHEDULE_RELAXATION, None
    elif cfg[C_SAFE] & SAFE_SCHEDULE_REFILLS:
        rule, flag, stages = "schedule_refills", SAFE_SCHEDULE_REFILLS, None
    else:                                                 # one stage, within its own short limit
        rule, flag, stages = "schedule_skeleton", SAFE_SCHEDULE_SKELETON, ("skeleton",)
    if not cfg[C_SAFE] & flag:
        return None
    from solver.alhambra import schedule                  # OR-Tools loads only when used
    limit = schedule.DET_TIME_SKELETON_ALONE if stages else None
    status, moves, _ = schedule.solve_schedule(engine_for(rules), pos, rules, limit, seconds, stages)
    if status == "INFEASIBLE":
        return RootVerdict("lost", [], rule)
    if moves is not None:
        return RootVerdict("won", moves, rule)
    return None


def win_plan(cfg, nodes: int) -> list:
    """The searches for wins (beams and nested searches) after a search that ran out of
    nodes: with reinforcement only (``solver.alhambra.beam_order``)."""
    return beam_order.plan(cfg, nodes)


def memo_slots(cfg, nodes: int) -> int:
    """Rows of the memo a solve of ``nodes`` nodes keeps (``state.memo``): the slots and
    header of the lazy G0 searches of the relaxation and the projection, when either is
    on. Nearly every relaxed move stores a new state, and the root's searches spend up to
    4/3 of their moves (``relaxation_moves``), so the slots grow with them (a memo three
    quarters full stores nothing more, and the growing caps then search again what they
    had refuted: Alhambra 7 with one redeal was unknown at 16 M relaxed moves in a memo
    of 4 M slots, lost at 6.8 M in one of 16 M)."""
    if not cfg[C_SAFE] & (SAFE_FREE_RESERVE_RELAXATION | SAFE_NEXT_PASS_PROJECTION):
        return 0
    moves = relaxation_moves(cfg, nodes)
    slots = MEMO_SLOTS
    while slots < 2 * moves and slots < MEMO_SLOTS_MAX:
        slots *= 2
    return slots + HEADER


def acyclic(rules) -> bool:
    """With one waste pile no line of play repeats a state: within a pass every move lowers
    2 * stock + reserves - foundation cards (a deal by 2, a build by 1, a card home by 1 or
    2, a refill by 1), and a redeal raises the redeal count. (Waste piles that give to
    each other allow cycles.)"""
    return rules["waste_piles"] == 1


def n_piles(rules) -> int:
    return rules["reserves"] + rules["waste_piles"] + 1


def load_position(rules, pos, state) -> None:
    """Fill the kernel arrays from a reference-engine ``Position``."""
    load_piles(state.piles, state.lens, pos.reserves + pos.waste, pos.stock)
    load_foundations(rules, pos.foundations, state.fnd)
    state.scal[S_REDEALS] = pos.redeals_used


def to_moves(rules, m: int, info):
    """The notation's moves for kernel move ``m``: a deal made with ``deal_through_inert``
    is as many deals as its undo record ``info`` says (one before it is played)."""
    deals = 1 if info is None else get_bits(info, DEAL_COUNT, 8)
    return toolkit.to_moves(rules, m, deals, "w")
