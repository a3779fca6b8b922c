"""Node counts and nodes per second of a fixed set of deals, to compare two versions of the
search core (issue 15: the kernel contract must change neither).

    python benchmarks/bench_contract.py --out new.json
    PYTHONPATH=/path/to/old/tree python benchmarks/bench_contract.py --out old.json
    python benchmarks/bench_contract.py --compare old.json new.json

The set: Alhambra 1-20 and Algerian 1-100 at 200,000 nodes, one plain-order search each
(``--no-restarts``), every dominance rule on, and the same with the restart schedule.
Prints per set the total nodes, kernel seconds and nodes per second; ``--out`` keeps every
deal's verdict and node count; ``--compare`` says whether two files agree deal by deal and
gives the ratio of nodes per second. Run the two versions at the same time (one per core),
since the machine's speed drifts.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

SETS = [("alhambra", range(1, 21)), ("algerian", range(1, 101))]
NODES = 200_000


def measure(repeats: int) -> dict:
    from solver.formats import pysolfc_deal
    from solver.adapter import expand_dominance
    from solver.driver import Budget, solve, warm_up
    from solver.variants import make_rules
    warm_up()
    out = {}
    for variant, games in SETS:
        rules = make_rules(variant)
        dominance = expand_dominance(rules, ("all",))
        for restarts in (False, True):
            name = f"{variant}:{'restarts' if restarts else 'plain'}"
            rows, rates = {}, []
            for _ in range(repeats):
                nodes = seconds = 0.0
                for n in games:
                    r = solve(pysolfc_deal(rules, n), Budget(nodes=NODES, restarts=restarts), dominance)
                    rows[n] = [r.verdict, r.nodes, r.states, r.attempts]
                    nodes += r.nodes
                    seconds += r.seconds
                rates.append(nodes / seconds)
            out[name] = {"deals": rows, "nodes": sum(v[1] for v in rows.values()),
                         "nodes_per_second": statistics.median(rates), "runs": rates}
            print(f"{name:20s} nodes {out[name]['nodes']:>12,}  nodes/s median {statistics.median(rates):>12,.0f}  "
                  f"runs {', '.join(f'{x:,.0f}' for x in rates)}", flush=True)
    return out


def compare(old_path: str, new_path: str) -> int:
    old, new = (json.load(open(p)) for p in (old_path, new_path))
    bad = 0
    for name in old:
        diff = [n for n in old[name]["deals"] if old[name]["deals"][n] != new[name]["deals"].get(n)]
        bad += len(diff)
        ratio = new[name]["nodes_per_second"] / old[name]["nodes_per_second"]
        print(f"{name:20s} deals differing: {len(diff)} {diff[:5]}  nodes/s new/old {ratio:.3f}")
    return 1 if bad else 0


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", help="Write every deal's verdict and node count here (JSON).")
    ap.add_argument("--repeats", type=int, default=3, help="Runs of each set (nodes per second: median).")
    ap.add_argument("--compare", nargs=2, metavar=("OLD", "NEW"), help="Compare two --out files.")
    a = ap.parse_args()
    if a.compare:
        raise SystemExit(compare(*a.compare))
    t = time.perf_counter()
    out = measure(a.repeats)
    print(f"wall {time.perf_counter() - t:.0f} s")
    if a.out:
        with open(a.out, "w") as f:
            json.dump(out, f)


if __name__ == "__main__":
    main()
