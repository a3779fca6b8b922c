"""Algerian games with and without a dominance rule: wins found and nodes per second.

    python benchmarks/bench_dominance.py --games 1-60 --budget-nodes 1000000 --rule no_pile_swap
"""

from __future__ import annotations

import argparse
import time

from solver.formats import pysolfc_deal
from solver.driver import Budget, solve, warm_up
from solver.variants import make_rules


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", default="1-60")
    ap.add_argument("--budget-nodes", type=int, default=1_000_000)
    ap.add_argument("--rule", default="no_pile_swap")
    a = ap.parse_args()
    lo, hi = (int(x) for x in a.games.split("-"))
    warm_up()
    for dom in ((), (a.rule,)):
        won = nodes = 0
        secs = 0.0
        t = time.perf_counter()
        for n in range(lo, hi + 1):
            r = solve(pysolfc_deal(make_rules("algerian"), n), Budget(nodes=a.budget_nodes, memory=1 << 26), dom)
            won += r.verdict == "won"
            nodes += r.nodes
            secs += r.seconds
        print(f"dominance {list(dom)}: won {won} of {hi - lo + 1}, {nodes:,} nodes, "
              f"{nodes / secs / 1e6:.2f} M nodes/s, {time.perf_counter() - t:.1f} s")


if __name__ == "__main__":
    main()
