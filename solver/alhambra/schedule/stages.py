"""The solve stages: which models (``MODELS``) are solved on a position, in turn, by CP-SAT
with fixed parameters within a deterministic time limit (``det_time_for``), and the verdict
they give: no schedule (lost), a schedule that plays to a win, or a lead
(``solve_schedule``, ``schedule_lost``)."""

from __future__ import annotations

import time
from typing import Optional

from ortools.sat.python import cp_model

from solver.alhambra.schedule.build import build_schedule
from solver.alhambra.schedule.readback import schedule_lead
from solver.moves import Move

DET_TIME = 60.0                  # CP-SAT's deterministic time limit per position (about seconds)
# with reinforcement (one redeal): The Reinforcements 14 is refuted at 92.5 (solver 0.21.0),
# 9 and 20 at 94.4 and 109.8 (0.22.0), at 51.3 and 80.4 (0.23.0; benchmarks/notes/reinforcements-proofs-of-loss.md); the
# model runs only where the searches end unknown
DET_TIME_REFILLS = 120.0
# with reinforcement and two redeals left (only where the rule is named): The
# Reinforcements 4 under the standard rules is refuted at 217.0 (solver 0.22.0)
DET_TIME_REFILLS_TWO = 400.0
# the skeleton model (``MODELS``) at most: it refutes The Reinforcements 8 and 74 under the
# standard rules at 0.6 and 0.7 units and keeps a schedule for 13, 15 and 28 within 1.4
# (benchmarks/notes/reinforcements-proofs-of-loss.md); the cap bounds what it adds where it decides nothing
DET_TIME_SKELETON = 20.0
# the skeleton alone (``schedule_skeleton``, in ``all`` with two redeals too): on the
# unknown standard deals of The Reinforcements 1-300 it refuted 5 of 165 (8, 74, 212, 259,
# 292) within 0.3-0.9 units, and keeps a schedule for most others by 0.5 (benchmarks/notes/reinforcements-proofs-of-loss.md)
DET_TIME_SKELETON_ALONE = 2.0


def cp_sat_solver(det_time: float, seconds: float = float("inf")) -> cp_model.CpSolver:
    """CP-SAT with one worker, no probing and a deterministic time limit (the same answer on every run;
    a finite ``seconds`` adds a wall-clock limit, the caller's deadline). CP-SAT's own
    Ctrl-C handler is off: it would end the solve as if it gave up, so an interrupted batch
    would store an unknown verdict; Python's then raises KeyboardInterrupt once the solve
    returns (within its time limit)."""
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.max_deterministic_time = det_time
    solver.parameters.catch_sigint_signal = False
    # probing in presolve costs more than it saves here: 2-3 times faster without
    # (benchmarks/notes/alhambra-proofs-of-loss.md), the verdicts unchanged
    solver.parameters.cp_model_probing_level = 0
    if seconds != float("inf"):
        solver.parameters.max_time_in_seconds = max(seconds, 0.0)
    return solver


def det_time_for(rules, pos) -> float:
    """CP-SAT's deterministic time limit for position ``pos`` under ``rules``."""
    if not rules["reinforce"]:
        return DET_TIME
    return DET_TIME_REFILLS if rules["redeals"] - pos.redeals_used <= 1 else DET_TIME_REFILLS_TWO


def stage_limit(rules, pos, det_time: Optional[float], model: str) -> float:
    """The deterministic time limit of ``model`` on ``pos``: ``det_time`` (by default the
    position's, ``det_time_for``), at most the model's own cap (``MODEL_CAPS``)."""
    limit = det_time_for(rules, pos) if det_time is None else det_time
    return min(limit, MODEL_CAPS.get(model, limit))


# The models ``stages_for`` names, by their ``build_schedule`` options. Each leaves out some
# constraints of the next, so it keeps every schedule of the next: no schedule in any of
# them means none in the full model (``SAFE_SCHEDULE_REFILLS``, *Stages*).
MODELS = {
    "skeleton": dict(follow_free=False, force_refills=False, pairs=False),   # bare, no pairs of cards
    "bare": dict(follow_free=False, force_refills=False),   # neither a free card's life nor forced refills
    "loose": dict(follow_free=False),                       # no free card's life in a redealt stock
    "full": dict(),
    # the bare one with no take in the current pass (``SAFE_SCHEDULE_LATE_REFILLS``: only
    # where no line refills in it); not a stage of ``stages_for``
    "late": dict(follow_free=False, force_refills=False, first_take=1),
}
MODEL_CAPS = {"skeleton": DET_TIME_SKELETON}   # a model's own limit, where lower than the position's


def stages_for(rules, pos) -> tuple[str, ...]:
    """The models (``MODELS``) tried in turn on ``pos``. With refills and a redeal left (a
    pass after it), the looser ones first: they keep every schedule of the full model, so
    where one has none the full model has none, and they are often refuted sooner: the
    skeleton (within ``DET_TIME_SKELETON``) refutes some deals in seconds (The
    Reinforcements 8 and 74 under the standard rules), the bare one others soonest (The
    Reinforcements 13 under the standard rules: bare 156 units, the loose one undecided
    at 400; 15: 120, 207 and 343 units; benchmarks/notes/reinforcements-proofs-of-loss.md). A
    tighter one is solved only where a looser one keeps a schedule that does not play or
    gives up. Else the full model alone (without a redeal left the free card's life is
    not modelled anyway)."""
    passes = rules["redeals"] - pos.redeals_used + (0 if rules["stop_at_third_exhaustion"] else 1)
    if rules["reinforce"] and passes > 1:
        return ("skeleton", "bare", "loose", "full")
    return ("full",)


def solve_schedule(engine, pos, rules, det_time: Optional[float] = None,
                   seconds: float = float("inf"),
                   stages: Optional[tuple[str, ...]] = None) -> tuple[str, Optional[list[Move]], list[Move]]:
    """CP-SAT's status for ``pos`` (``INFEASIBLE``: lost; ``OPTIMAL`` or ``FEASIBLE``: a
    schedule; ``UNKNOWN``: gave up at ``det_time`` or ``seconds``), for a schedule that
    plays to a win on the reference engine its moves, and the longest lead (``schedule_lead``)
    of the schedules that do not play ([] if none). The models ``stages`` (by default
    ``stages_for``'s) are solved in turn, each within ``det_time``, all within ``seconds``,
    until one is refuted or gives a schedule that plays; the status is the last one's."""
    deadline = time.monotonic() + seconds
    lead: list[Move] = []
    for model in stages or stages_for(rules, pos):
        sc = build_schedule(pos, rules, **MODELS[model])
        solver = cp_sat_solver(stage_limit(rules, pos, det_time, model), deadline - time.monotonic())
        status = solver.Solve(sc.m)
        if status == cp_model.INFEASIBLE:
            break
        if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            moves, why = schedule_lead(engine, pos, sc, solver.Value)
            if not why:
                return solver.StatusName(status), moves, []
            lead = max(lead, moves, key=len)
    return solver.StatusName(status), None, lead


def schedule_lost(pos, rules, det_time: Optional[float] = None) -> tuple[bool, str]:
    """Whether ``pos`` has no schedule (so it is lost), and CP-SAT's status name (the models
    of ``stages_for`` in turn, until one is refuted)."""
    for model in stages_for(rules, pos):
        solver = cp_sat_solver(stage_limit(rules, pos, det_time, model))
        status = solver.Solve(build_schedule(pos, rules, **MODELS[model]).m)
        if status == cp_model.INFEASIBLE:
            break
    return status == cp_model.INFEASIBLE, solver.StatusName(status)
