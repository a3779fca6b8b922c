"""Alhambra's schedule relaxation (``solver.alhambra.schedule``) at the start of PySolFC
deals, alone: CP-SAT's status and seconds per game (INFEASIBLE: the deal is proved lost;
OPTIMAL: a schedule exists, which proves nothing; UNKNOWN: gave up).

    python benchmarks/probe_schedule.py --games 1-100
    python benchmarks/probe_schedule.py --games 1-50 --rule redeals=1
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
    from solver.alhambra.schedule import DET_TIME, schedule_lost
    from solver.engine import engine_for
    from solver.formats import pysolfc_deal
    from solver.variants import make_rules, parse_rule_assignments
    rules = make_rules(args.variant, parse_rule_assignments(args.rule))
    engine = engine_for(rules)
    counts: dict[str, int] = {}
    lost = []
    lo, hi = map(int, args.games.split("-"))
    for g in range(lo, hi + 1):
        pos = engine.initial_position(pysolfc_deal(rules, g).layout)
        t = time.perf_counter()
        is_lost, status = schedule_lost(pos, rules, args.det_time or DET_TIME)
        counts[status] = counts.get(status, 0) + 1
        if is_lost:
            lost.append(g)
        print(f"game {g}: {status} {time.perf_counter() - t:.1f} s", flush=True)
    print(rules.describe(), counts, "lost:", lost)


if __name__ == "__main__":
    main()
