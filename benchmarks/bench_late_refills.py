"""The two facts of ``schedule_late_refills`` on full-size deals, each timed (issue 19).

    python benchmarks/bench_late_refills.py --games 368,978 [--variant reinforcements]
        [--nodes 20000000] [--det-time 200] [--first-take 1] [--out rows.jsonl]

Per game (the deal's start): the goal search of the game without refills over the current
pass (``refill_in_current_pass``: a refill, never, or ran out) with its seconds; where it
never refills, the refill model ``late`` (``first_take``: the first pass a take may lie in)
with CP-SAT's status, deterministic units and seconds, and for a schedule the reason its
replay fails (or that it wins). ``--out`` appends one JSON line a game, written as each ends
(an interrupted run keeps what it finished). Lost by the rule: "never" and INFEASIBLE.
Figures: benchmarks/notes/reinforcements-proofs-of-loss.md, "schedule_late_refills".
"""

from __future__ import annotations

import argparse
import json
import time


def main() -> None:
    from solver.alhambra import schedule as S
    from solver.alhambra.late_refills import DET_TIME_LATE_REFILLS, GOAL_NODES, refill_in_current_pass
    from solver.attempts import reaches_goal
    from solver.engine import engine_for
    from solver.formats import pysolfc_deal
    from solver.variants import make_rules
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", required=True, help="comma-separated game numbers")
    ap.add_argument("--variant", default="reinforcements")
    ap.add_argument("--nodes", type=int, default=GOAL_NODES, help="the goal search's nodes at most")
    ap.add_argument("--det-time", type=float, default=DET_TIME_LATE_REFILLS, help="CP-SAT's deterministic time limit")
    ap.add_argument("--first-take", type=int, default=1, help="the model's first pass with takes")
    ap.add_argument("--out", help="append a JSON line per game to this file")
    a = ap.parse_args()
    rules = make_rules(a.variant)
    engine = engine_for(rules)
    for g in (int(x) for x in a.games.split(",")):
        pos = engine.initial_position(pysolfc_deal(rules, g).layout)
        row = {"game": g, "variant": a.variant, "nodes": a.nodes, "det_time": a.det_time, "first_take": a.first_take}
        t = time.perf_counter()
        refill = refill_in_current_pass(rules, pos, reaches_goal, nodes=a.nodes)
        row["goal"] = {True: "refill", False: "never", None: "ran out"}[refill]
        row["goal_s"] = round(time.perf_counter() - t, 1)
        if refill is False:
            t = time.perf_counter()
            sc = S.build_schedule(pos, rules, **dict(S.MODELS["late"], first_take=a.first_take))
            solver = S.cp_sat_solver(a.det_time)
            status = solver.StatusName(solver.Solve(sc.m))
            row.update(model=status, units=round(solver.deterministic_time, 1), model_s=round(time.perf_counter() - t))
            if status in ("OPTIMAL", "FEASIBLE"):
                row["replay"] = S.replay_schedule(engine, pos, sc, solver.Value)[1] or "it plays to a win"
        print(json.dumps(row), flush=True)
        if a.out:
            with open(a.out, "a") as f:
                f.write(json.dumps(row) + "\n")


if __name__ == "__main__":
    main()
