"""Nodes per second of the plain search alone, to compare two versions of the search core
(no root verdicts, relaxations or searches for wins, which ``bench_contract.py``'s sets now
spend most of their time in): Alhambra 1-20 and The Reinforcements 1-20 at 200,000 nodes,
one plain-order search each, every dominance rule of ``all`` that prunes the search.

    for i in 1 2 3; do
      PYTHONPATH=/path/to/old/tree python benchmarks/bench_plain_speed.py old
      PYTHONPATH=. python benchmarks/bench_plain_speed.py new
    done

Other variants: ``bench_plain_speed.py LABEL VARIANT ...`` (e.g. ``new terrace algerian``).

Prints per variant the label, the total nodes (equal for equal search cores) and nodes per
second. Figures: benchmarks/notes/reinforcements-proofs-of-loss.md, "schedule_late_refills, the pair as a rule".
"""

from __future__ import annotations

import sys
import time

NODES = 200_000
GAMES = range(1, 21)
# rules that run outside the search (their time is not the search's)
OUTSIDE = ("free_reserve_relaxation", "schedule_relaxation", "schedule_skeleton", "schedule_refills",
           "schedule_late_refills")


def main() -> None:
    from solver.adapter import adapter_for, expand_dominance
    from solver.attempts import search_attempt
    from solver.engine import engine_for
    from solver.formats import pysolfc_deal
    from solver.variants import make_rules
    label = sys.argv[1] if len(sys.argv) > 1 else "this tree"
    for variant in sys.argv[2:] or ("alhambra", "reinforcements"):
        rules = make_rules(variant)
        ad = adapter_for(rules, tuple(d for d in expand_dominance(rules, ("all",)) if d not in OUTSIDE))
        e = engine_for(rules)
        start = [e.initial_position(pysolfc_deal(rules, g).layout) for g in GAMES]
        search_attempt(ad, start[0], 1000, 1 << 26, float("inf"))      # compile or load first
        nodes = seconds = 0.0
        for pos in start:
            t = time.perf_counter()
            nodes += search_attempt(ad, pos, NODES, 1 << 28, float("inf")).nodes
            seconds += time.perf_counter() - t
        print(f"{label} {variant} nodes {int(nodes):,} nodes/s {nodes / seconds:,.0f}", flush=True)


if __name__ == "__main__":
    main()
