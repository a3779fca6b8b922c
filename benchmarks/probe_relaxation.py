"""Alhambra's free-reserve relaxation (lazy G0, ``solver.alhambra.relaxed``) at the root of
PySolFC deals, alone: its verdict, relaxed moves and seconds per game.

    python benchmarks/probe_relaxation.py --games 1-10 --cap 2000000 --rule redeals=1
    python benchmarks/probe_relaxation.py --games 11-40 --cap 1000000        # standard rules

Lost means the deal is proved lost; won means G0 proves nothing (the real deal may still be
lost); unknown means G0 gave up at the cap.
"""

from __future__ import annotations

import argparse
import time


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", default="1-10")
    ap.add_argument("--cap", type=int, default=1_000_000, help="Relaxed moves per deal.")
    ap.add_argument("--rule", action="append", default=[], metavar="NAME=VALUE")
    args = ap.parse_args()
    from solver.alhambra.relaxed import g0_solve
    from solver.adapter import adapter_for, kernel_state
    from solver.engine import engine_for
    from solver.formats import pysolfc_deal
    from solver.variants import make_rules, parse_rule_assignments
    rules = make_rules("alhambra", parse_rule_assignments(args.rule))
    ad = adapter_for(rules, ("free_reserve_relaxation",))
    names = {0: "unknown", 1: "lost", 2: "won"}
    counts: dict[str, int] = {}
    lo, hi = map(int, args.games.split("-"))
    for g in range(lo, hi + 1):
        st = kernel_state(ad, engine_for(rules).initial_position(pysolfc_deal(rules, g).layout))[0]
        t = time.perf_counter()
        v, n = g0_solve(ad.cfg, st.piles, st.lens, st.fnd, st.scal[0], ad.new_memo(args.cap), args.cap, False)
        counts[names[int(v)]] = counts.get(names[int(v)], 0) + 1
        print(f"game {g}: {names[int(v)]} in {n:,} relaxed moves, {time.perf_counter() - t:.2f} s", flush=True)
    print(rules.describe(), counts)


if __name__ == "__main__":
    main()
