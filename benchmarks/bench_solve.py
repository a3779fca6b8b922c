"""Any variant over a range of PySolFC game numbers: verdict counts and speed, at one or
several node budgets (a decided-rate curve).

    python benchmarks/bench_solve.py --games 1-2000 --budgets 2000000 --jobs 2
    python benchmarks/bench_solve.py --variant alhambra --games 1-1000 --budgets 1000000,10000000 \
        --dominance deal_through_inert
    python benchmarks/bench_solve.py --db results/results.db     # figures of a finished Algerian batch

Prints, per budget, won / lost / unknown counts, median / p90 / p99 / max seconds and nodes,
nodes per second, bytes per stored state and, for the unknown games, the most cards any searched
state had on the foundations. Seconds are kernel search time (certification
by the reference engine is timed apart).
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from concurrent.futures import ProcessPoolExecutor


def _solve(args):
    variant, n, nodes, memory, restarts, dominance, options = args
    from solver.formats import pysolfc_deal
    from solver.driver import Budget, solve
    from solver.variants import make_rules
    t = time.perf_counter()
    r = solve(pysolfc_deal(make_rules(variant, options), n), Budget(nodes=nodes, memory=memory, restarts=restarts),
              dominance)
    total = time.perf_counter() - t
    return n, r.verdict, r.reason, r.nodes, r.states, r.seconds, total, r.table_bytes, r.most_home


def _init():
    os.environ["NUMBA_NUM_THREADS"] = "1"


def pct(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--variant", default="algerian")
    ap.add_argument("--games", default="1-2000")
    ap.add_argument("--budgets", default="2000000", help="Node budgets, comma-separated: one report each.")
    ap.add_argument("--dominance", default="", help="Dominance rules, comma-separated ('all': every rule the variant allows).")
    ap.add_argument("--rule", action="append", default=[], metavar="NAME=VALUE",
                    help="Override a rule option (repeatable), as in 'patience solve --rule'.")
    ap.add_argument("--memory", type=int, default=1 << 30)
    ap.add_argument("--jobs", type=int, default=os.cpu_count())
    ap.add_argument("--no-restarts", action="store_true",
                    help="One plain-order search per game (measures raw nodes per second).")
    ap.add_argument("--db", default=None, help="Report on the --variant records of this results store instead.")
    a = ap.parse_args()
    dominance = tuple(x for x in a.dominance.split(",") if x)
    if a.db:
        report(a, _rows_from_db(a), float("nan"))
        return
    from solver.variants import make_rules, parse_rule_assignments
    options = parse_rule_assignments(tuple(a.rule))
    lo, hi = (int(x) for x in a.games.split("-"))
    from solver.adapter import expand_dominance
    from solver.driver import warm_up
    dominance = expand_dominance(make_rules(a.variant, options), dominance)
    print(f"numba compile/load: {warm_up():.2f} s")
    for budget in (int(b) for b in a.budgets.split(",")):
        t0 = time.perf_counter()
        rows = []
        jobs = [(a.variant, n, budget, a.memory, not a.no_restarts, dominance, options)
                for n in range(lo, hi + 1)]
        with ProcessPoolExecutor(a.jobs, initializer=_init) as ex:
            for row in ex.map(_solve, jobs, chunksize=1 if budget > 5_000_000 else 4):
                rows.append(row)
        a.budget_nodes = budget
        print(f"\n== {make_rules(a.variant, options).describe()}, dominance {list(dominance)}, search "
              f"{'plain' if a.no_restarts else 'restarts'}")
        report(a, rows, time.perf_counter() - t0)


def _rows_from_db(a):
    from solver.store import Store
    from solver.variants import make_rules
    recs = list(Store(a.db, readonly=True).latest(rules_hash=make_rules(a.variant).hash()))
    rows = [(int(r["game"]), r["verdict"], r["reason"], r["nodes"], r["states"], r["seconds"], r["seconds"],
             r["table_bytes"], r.get("most_home")) for r in recs]
    a.games = f"{min(r[0] for r in rows)}-{max(r[0] for r in rows)} (from {a.db})"
    a.budget_nodes = max(r["budget_nodes"] for r in recs)
    a.jobs = 0
    return rows


def report(a, rows, wall):
    counts = {v: sum(1 for r in rows if r[1] == v) for v in ("won", "lost", "unknown")}
    secs = [r[5] for r in rows]
    nodes = [r[3] for r in rows]
    print(f"games {a.games}, budget {a.budget_nodes:,} nodes, table budget {a.memory >> 20} MiB, {a.jobs} jobs, "
          f"wall {wall:.0f} s")
    print(f"won {counts['won']}  lost {counts['lost']}  unknown {counts['unknown']}  "
          f"decided {100 * (counts['won'] + counts['lost']) / len(rows):.1f} %")
    for name, xs in (("seconds", secs), ("nodes", nodes)):
        print(f"{name}: median {statistics.median(xs):,.3f}  p90 {pct(xs, .9):,.3f}  p99 {pct(xs, .99):,.3f}  "
              f"max {max(xs):,.3f}")
    decided = [r for r in rows if r[1] != "unknown"]
    if decided:
        print(f"decided games: median seconds {statistics.median(r[5] for r in decided):.3f}")
    big = [r for r in rows if r[5] > 0.5]
    if big:
        print(f"nodes per second (games over 0.5 s): median {statistics.median(r[3] / r[5] for r in big):,.0f}")
    many = [r[7] / r[4] for r in rows if r[4] > 100_000]
    if many:
        print(f"bytes per stored state (table / states, games over 100k states): median {statistics.median(many):.1f}")
    print(f"certification + overhead: median {statistics.median(r[6] - r[5] for r in rows):.3f} s per game")
    unk = [r[0] for r in rows if r[1] == "unknown"]
    print(f"unknown games (first 30): {unk[:30]}")
    far = sorted(r[8] for r in rows if r[1] == "unknown" and r[8] is not None)
    if far:
        # how far the searches of undecided deals got: near the total, a win may be close
        print(f"unknown games, most cards on the foundations in any state searched: min {far[0]}  "
              f"median {statistics.median(far):g}  p90 {pct(far, .9)}  max {far[-1]}")


if __name__ == "__main__":
    main()
