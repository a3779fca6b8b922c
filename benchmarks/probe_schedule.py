"""Alhambra's schedule model (``solver.alhambra.schedule``) at the start of PySolFC deals,
alone (no search first): the verdict, CP-SAT's status and seconds per game (INFEASIBLE: the
deal is lost; OPTIMAL with a line that plays: won, the line certified on the reference
engine; a schedule that does not play, or UNKNOWN: undecided).

    PYTHONPATH=. python benchmarks/probe_schedule.py --games 1-100
    PYTHONPATH=. python benchmarks/probe_schedule.py --games 1-50 --rule redeals=1
    PYTHONPATH=. python benchmarks/probe_schedule.py --variant reinforcements --games 4 --why

``--why``: one model alone (``--model``: ``full`` by default, or a looser one of
``MODELS``) rather than ``solve_schedule``'s stages; for a schedule that does not play, the
first move the reference engine refuses (``replay_schedule``), and CP-SAT's deterministic
time: where the model is still loose.
"""

from __future__ import annotations

import argparse
import time


def main() -> None:
    from solver.alhambra.schedule import MODELS
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", default="1-10", help="1-10, 1,2,5-9, or unknown:A-B (benchmarks/games.py).")
    ap.add_argument("--variant", default="alhambra")
    ap.add_argument("--det-time", type=float, default=None, help="CP-SAT deterministic time limit per deal.")
    ap.add_argument("--rule", action="append", default=[], metavar="NAME=VALUE")
    ap.add_argument("--why", action="store_true", help="Say where a schedule that does not play goes wrong.")
    ap.add_argument("--model", default="full", choices=tuple(MODELS),
                    help="With --why: the model to solve (schedule.MODELS; stages_for tries them in turn).")
    args = ap.parse_args()
    from benchmarks.games import parse_games
    from solver.alhambra.schedule import build_schedule, cp_sat_solver, replay_schedule, solve_schedule, stage_limit
    from solver.lines import certify
    from solver.engine import engine_for
    from solver.formats import pysolfc_deal
    from solver.variants import make_rules, parse_rule_assignments
    rules = make_rules(args.variant, parse_rule_assignments(args.rule))
    engine = engine_for(rules)
    counts: dict[str, int] = {}
    lost, unknown = [], []
    for g in parse_games(args.games, rules):
        deal = pysolfc_deal(rules, g)
        pos = engine.initial_position(deal.layout)
        t = time.perf_counter()
        why = ""
        if args.why:
            sc = build_schedule(pos, rules, **MODELS[args.model])
            solver = cp_sat_solver(stage_limit(rules, pos, args.det_time or None, args.model))
            status = solver.StatusName(solver.Solve(sc.m))
            moves = None
            if status in ("OPTIMAL", "FEASIBLE"):
                moves, why = replay_schedule(engine, pos, sc, solver.Value)
            why = f" [{solver.deterministic_time:.1f} units] {why}"
        else:
            status, moves, _ = solve_schedule(engine, pos, rules, args.det_time or None)
        verdict = "lost" if status == "INFEASIBLE" else "won" if moves is not None else "unknown"
        if moves is not None:
            certify(deal, moves)                    # raises if the line does not win
        counts[verdict] = counts.get(verdict, 0) + 1
        (lost if verdict == "lost" else unknown if verdict == "unknown" else []).append(g)
        print(f"game {g}: {verdict} ({status}) {time.perf_counter() - t:.1f} s{why}", flush=True)
    print(rules.describe(), counts, "lost:", lost, "unknown:", unknown)


if __name__ == "__main__":
    main()
