"""Do bounds on the reserve cards make the root projection keep more cards, and its G0 lost?

``dead_stock_order`` counts every reserve copy of a rank available "now". Here a reserve
card is uncovered only once every card above it has left, and a card leaves only home
(its needs) or onto the waste onto a same-suit neighbour (the earliest time one can be the
waste top: a sequence copy's first landing, a reserve copy's uncovering). The projection
then keeps the sequence cards whose bound passes this pass.

    PYTHONPATH=. python benchmarks/attic/reserve_bounds.py FIRST LAST CAP
"""
import sys
import time

import numpy as np

sys.path.insert(0, __import__("os").path.dirname(__file__))

from solver.alhambra.projection import project
from solver.alhambra.relaxed import g0_solve
from reserve_bounds_kernel import reserve_project  # noqa: E402  (this folder)
from solver.driver import adapter_for, kernel_state
from solver.engine import engine_for
from solver.formats import pysolfc_deal
from solver.variants import make_rules

rules = make_rules("alhambra")
ad = adapter_for(rules, ("free_reserve_relaxation",))
lo, hi, cap = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
names = {0: "unk", 1: "LOST", 2: "won"}
tot = {}
for g in range(lo, hi + 1):
    st = kernel_state(ad, engine_for(rules).initial_position(pysolfc_deal(rules, g).layout))[0]
    out = []
    for label, fn in (("project", project), ("reserve_project", reserve_project)):
        p2 = np.zeros_like(st.piles)
        l2 = np.zeros_like(st.lens)
        t = time.perf_counter()
        kept = fn(ad.cfg, st.piles, st.lens, st.fnd, rules["redeals"], p2, l2)
        if kept < 0:
            out.append("dead")
            tot[(label, "dead")] = tot.get((label, "dead"), 0) + 1
            continue
        v, n = g0_solve(ad.cfg, p2, l2, st.fnd, 1, ad.new_memo(4 * cap), cap, False)
        out.append(f"kept {kept:2d} {names[int(v)]:4s} {n:8d} {time.perf_counter() - t:5.2f}s")
        tot[(label, names[int(v)])] = tot.get((label, names[int(v)]), 0) + 1
    print(f"game {g:4d}: " + " | ".join(out), flush=True)
print(tot)
