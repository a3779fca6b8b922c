"""Winning-line lengths before and after shortening (``solver.lines.shorten_line``), per
variant, on the won deals among PySolFC games 1..N:

    python benchmarks/bench_shorten.py --games 200 --budget 100000 --shorten 200000,2000000

Each deal is searched once per shortening budget (the search is deterministic, so the
search's own line is the same each time: checked). Prints, per variant, the median and
90th-percentile length of the search's own line, of the line after the one-move passes
(``--shorten-nodes 0``) and after each budget of detour search, and the median extra
seconds the shortening took.
"""

from __future__ import annotations

import argparse
import statistics

from solver.adapter import expand_dominance
from solver.driver import Budget, solve
from solver.formats import pysolfc_deal
from solver.variants import make_rules, variant_keys


def pct(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))] if xs else 0


def lengths(variant: str, games: int, nodes: int, shortens: list[int]) -> dict:
    rules = make_rules(variant)
    dom = expand_dominance(rules, ("all",))
    rows = {"search": [], 0: [], **{s: [] for s in shortens}}
    secs = {0: [], **{s: [] for s in shortens}}
    for g in range(1, games + 1):
        deal = pysolfc_deal(rules, g)
        first = solve(deal, Budget(nodes=nodes, shorten=0), dom)
        if first.verdict != "won":
            continue
        rows["search"].append(first.search_moves)
        rows[0].append(len(first.moves))
        secs[0].append(first.certify_seconds)
        for s in shortens:
            r = solve(deal, Budget(nodes=nodes, shorten=s), dom)
            assert r.search_moves == first.search_moves and len(r.moves) <= len(first.moves)
            rows[s].append(len(r.moves))
            secs[s].append(r.certify_seconds)
    return {"won": len(rows[0]), "rows": rows, "secs": secs}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--budget", type=int, default=100_000, help="search nodes per deal")
    ap.add_argument("--shorten", default="200000", help="detour budgets (nodes), comma-separated")
    ap.add_argument("--variant", action="append", help="(repeatable; default: every variant)")
    a = ap.parse_args()
    shortens = [int(x) for x in a.shorten.split(",")]
    head = ["variant", "won", "search line", "one-move passes"] + [f"detours {s:,}" for s in shortens]
    print("| " + " | ".join(head) + " | seconds (one-move / " + " / ".join(f"{s:,}" for s in shortens) + ") |")
    print("|" + "---|" * (len(head) + 1))
    for v in a.variant or variant_keys():
        res = lengths(v, a.games, a.budget, shortens)
        cells = [v, str(res["won"])]
        for key in ["search", 0, *shortens]:
            xs = res["rows"][key]
            cells.append(f"{statistics.median(xs):g} (p90 {pct(xs, 0.9)})" if xs else "-")
        s = " / ".join(f"{statistics.median(res['secs'][k]):.3f}" if res["secs"][k] else "-" for k in [0, *shortens])
        print("| " + " | ".join(cells) + f" | {s} |", flush=True)


if __name__ == "__main__":
    main()
