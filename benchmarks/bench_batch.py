"""Batch machinery overhead: `patience batch --jobs 2` against a plain loop over the same seeds.

    python benchmarks/bench_batch.py --seeds 1-300 --budget-nodes 200000

Prints deals per second for the batch (2 workers) and for a plain in-process loop, and
the overhead: batch wall time against the plain loop's time split over 2 workers.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--variant", default="algerian")
    ap.add_argument("--seeds", default="1-300")
    ap.add_argument("--budget-nodes", type=int, default=200_000)
    ap.add_argument("--jobs", type=int, default=2)
    a = ap.parse_args()
    from solver.batch import parse_seeds
    from solver.formats import pysolfc_deal
    from solver.driver import Budget, solve, warm_up
    from solver.variants import make_rules
    warm_up()
    seeds = parse_seeds(a.seeds)
    rules = make_rules(a.variant)
    t = time.perf_counter()
    for g in seeds:
        solve(pysolfc_deal(rules, g), Budget(nodes=a.budget_nodes))
    plain = time.perf_counter() - t
    with tempfile.TemporaryDirectory() as d:
        db = os.path.join(d, "b.db")
        cmd = [sys.executable, "-m", "solver", "batch", a.variant, "--seeds", a.seeds, "--budget-nodes",
               str(a.budget_nodes), "--jobs", str(a.jobs), "--db", db]
        t = time.perf_counter()
        subprocess.run(cmd, check=True, capture_output=True)
        batch = time.perf_counter() - t
    n = len(seeds)
    print(f"{a.variant} seeds {a.seeds} ({n}), budget {a.budget_nodes:,} nodes")
    print(f"plain loop, 1 process: {plain:.1f} s = {n / plain:.2f} deals/s")
    print(f"patience batch --jobs {a.jobs}: {batch:.1f} s wall (process start and compile/load included) "
          f"= {n / batch:.2f} deals/s")
    print(f"overhead against the plain loop split over {a.jobs} workers: {100 * (batch / (plain / a.jobs) - 1):.1f} %")


if __name__ == "__main__":
    main()
