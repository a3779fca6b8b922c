"""Prototype: lazy G0 that runs stock_order_blocked only after deals/redeals (not after home
moves), against the shipped G0, interleaved per game."""
import sys, time
from pathlib import Path
import numpy as np
sys.path.insert(0, str(Path(__file__).resolve().parent))
from patched_relaxed import load_patched  # noqa: E402

def patched():
    return load_patched('g0_skip', [("def _expand(cfg, gp, gi, gl, gf, gs, free, seqn, out, ei, ef, et, ne):",
                 "def _expand(cfg, gp, gi, gl, gf, gs, free, seqn, out, ei, ef, et, ne, test):"),
                ("    dead = stock_order_blocked(cfg, gp, gl, gf, cfg[C_REDEALS] - gs[0])",
                 "    dead = test and stock_order_blocked(cfg, gp, gl, gf, cfg[C_REDEALS] - gs[0])"),
                ("fm[0], ei, ef, et, 0)", "fm[0], ei, ef, et, 0, True)"),
                ("fm[d], ei, ef, et, ne)", "fm[d], ei, ef, et, ne, m == _DEAL or m == _REDEAL)")])

def main():
    from solver.alhambra import relaxed as base
    from solver.driver import adapter_for, kernel_state
    from solver.engine import engine_for
    from solver.formats import pysolfc_deal
    from solver.variants import make_rules, parse_rule_assignments
    alt = patched()
    rules = make_rules("alhambra", parse_rule_assignments(sys.argv[3:]))
    ad = adapter_for(rules, ("free_reserve_relaxation",))
    lo, hi = map(int, sys.argv[1].split("-")); cap = int(sys.argv[2])
    tot = {"base": [0, 0.0], "skip": [0, 0.0]}
    for g in range(lo, hi + 1):
        st = kernel_state(ad, engine_for(rules).initial_position(pysolfc_deal(rules, g).layout))[0]
        row = []
        for name, mod in (("base", base), ("skip", alt)):
            t = time.perf_counter()
            v, n = mod.g0_solve(ad.cfg, st.piles, st.lens, st.fnd, st.scal[0], ad.new_memo(cap), cap, False)
            dt = time.perf_counter() - t
            row.append((int(v), n, dt))
        same = row[0][0] == row[1][0]
        if row[0][0] and row[1][0]:
            for name, r in zip(("base", "skip"), row):
                tot[name][0] += r[1]; tot[name][1] += r[2]
        print(f"game {g}: " + "  ".join(f"{nm} v{r[0]} {r[1]:,} {r[2]:.2f}s" for nm, r in zip(("base", "skip"), row))
              + ("" if same else "  DIFFERENT"), flush=True)
    print(tot)

main()
