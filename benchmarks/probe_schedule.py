"""Alhambra's schedule model (``solver.alhambra.schedule``) at the start of PySolFC deals,
alone (no search first): the verdict, CP-SAT's status and seconds per game (INFEASIBLE: the
deal is lost; OPTIMAL with a line that plays: won, the line certified on the reference
engine; a schedule that does not play, or UNKNOWN: undecided).

    PYTHONPATH=. python benchmarks/probe_schedule.py --games 1-100
    PYTHONPATH=. python benchmarks/probe_schedule.py --games 1-50 --rule redeals=1
"""

from __future__ import annotations

import argparse
import time


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", default="1-10")
    ap.add_argument("--variant", default="alhambra")
    ap.add_argument("--det-time", type=float, default=None, help="CP-SAT deterministic time limit per deal.")
    ap.add_argument("--rule", action="append", default=[], metavar="NAME=VALUE")
    args = ap.parse_args()
    from solver.alhambra.schedule import solve_schedule
    from solver.driver import certify
    from solver.engine import engine_for
    from solver.formats import pysolfc_deal
    from solver.variants import make_rules, parse_rule_assignments
    rules = make_rules(args.variant, parse_rule_assignments(args.rule))
    engine = engine_for(rules)
    counts: dict[str, int] = {}
    lost, unknown = [], []
    lo, hi = map(int, args.games.split("-"))
    for g in range(lo, hi + 1):
        deal = pysolfc_deal(rules, g)
        pos = engine.initial_position(deal.layout)
        t = time.perf_counter()
        status, moves = solve_schedule(engine, pos, rules, args.det_time or None)
        verdict = "lost" if status == "INFEASIBLE" else "won" if moves is not None else "unknown"
        if moves is not None:
            certify(deal, moves)                    # raises if the line does not win
        counts[verdict] = counts.get(verdict, 0) + 1
        (lost if verdict == "lost" else unknown if verdict == "unknown" else []).append(g)
        print(f"game {g}: {verdict} ({status}) {time.perf_counter() - t:.1f} s", flush=True)
    print(rules.describe(), counts, "lost:", lost, "unknown:", unknown)


if __name__ == "__main__":
    main()
