"""The Algerian kernel against the pure-Python oracle on the same miniature deals.

    python benchmarks/bench_oracle_ratio.py --deals 300

Both search the same state space without pruning; the figure is the ratio of nodes (states
expanded or generated) per second. Kernel time excludes certification.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from solver.engine import engine_for
from solver.miniature import random_miniature_deal
from solver.oracle import exhaustive_search
from solver.driver import Budget, solve, warm_up


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--deals", type=int, default=300)
    ap.add_argument("--seed", type=int, default=7)
    a = ap.parse_args()
    warm_up()
    rng = random.Random(a.seed)
    o_states = o_time = k_nodes = k_time = 0.0
    ratios = []
    for _ in range(a.deals):
        deal = random_miniature_deal("algerian", rng, vary=True)
        e = engine_for(deal.rules)
        t = time.perf_counter()
        o = exhaustive_search(e, e.initial_position(deal.layout), max_states=300_000)
        ot = time.perf_counter() - t
        k = solve(deal, Budget(nodes=5_000_000, memory=1 << 24))
        o_states += o.states
        o_time += ot
        k_nodes += k.nodes
        k_time += k.seconds
        if o.states > 2000 and k.seconds > 0:
            ratios.append((k.nodes / k.seconds) / (o.states / ot))
    print(f"{a.deals} miniature Algerian deals (all options varied)")
    print(f"oracle: {o_states:,.0f} states in {o_time:.1f} s = {o_states / o_time:,.0f} states/s")
    print(f"kernel: {k_nodes:,.0f} nodes in {k_time:.2f} s = {k_nodes / k_time:,.0f} nodes/s")
    print(f"ratio of totals: {(k_nodes / k_time) / (o_states / o_time):.0f}x")
    if ratios:
        print(f"per-deal ratio (deals over 2000 oracle states, n={len(ratios)}): median {statistics.median(ratios):.0f}x")


if __name__ == "__main__":
    main()
