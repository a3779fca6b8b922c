"""Where lazy G0's moves go: histogram of nodes by (pass, stock cards left, waste height).

    PYTHONPATH=. python benchmarks/attic/g0_profile.py GAME CAP [NAME=VALUE ...]
    PYTHONPATH=. python benchmarks/attic/g0_profile.py 4 4000000"""
import sys, time
from pathlib import Path
import numpy as np
sys.path.insert(0, str(Path(__file__).resolve().parent))
from patched_relaxed import load_patched  # noqa: E402
def patched():
    return load_patched('g0_prof', [("def g0_solve(cfg, piles, lens, fnd, redeals_used, memo, cap, retry):",
                 "def g0_solve(cfg, piles, lens, fnd, redeals_used, memo, cap, retry, hist, hw):"),
                ("            nodes += 1\n", "            nodes += 1\n            hist[gs[0], gl[st]] += 1\n            hw[gs[0], gl[w]] += 1\n")])
from solver.driver import adapter_for, kernel_state
from solver.engine import engine_for
from solver.formats import pysolfc_deal
from solver.variants import make_rules, parse_rule_assignments
mod = patched()
g = int(sys.argv[1]); cap = int(sys.argv[2])
rules = make_rules("alhambra", parse_rule_assignments(sys.argv[3:]))
ad = adapter_for(rules, ("free_reserve_relaxation",))
st = kernel_state(ad, engine_for(rules).initial_position(pysolfc_deal(rules, g).layout))[0]
hist = np.zeros((4, 105), np.int64); hw = np.zeros((4, 105), np.int64)
v, n = mod.g0_solve(ad.cfg, st.piles, st.lens, st.fnd, st.scal[0], ad.new_memo(cap), cap, False, hist, hw)
print("verdict", int(v), "moves", n)
for p in range(3):
    tot = hist[p].sum()
    if tot == 0: continue
    print(f"pass {p}: {tot:,} moves ({tot / n:.0%})")
    print("  stock left (bins of 8):", [int(hist[p, i:i + 8].sum()) for i in range(0, 72, 8)])
    print("  waste height (bins of 8):", [int(hw[p, i:i + 8].sum()) for i in range(0, 72, 8)])
