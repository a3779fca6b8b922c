"""Prototype: lazy G0 with single-card subsumption: a new state B is lost if the memo holds
LOST the state C_y = B with one sequence card y made free (C_y relaxes B). Interleaved with
the shipped G0 per game."""
import sys, time
from pathlib import Path
sys.path.insert(0, str(Path(__file__).resolve().parent))
from patched_relaxed import load_patched  # noqa: E402

SUB = '''

@njit(cache=False)
def _subsumed(cfg, gp, gl, gf, free, rootfree, memo, h, stats):
    w = cfg[C_NRES]
    st = cfg[C_STOCK]
    h2 = np.zeros(2, np.uint64)
    for p in (w, st):
        kind = 1 if p == w else 2
        for j in range(gl[p]):
            y = gp[p, j]
            if free[y] >= rootfree[y]:
                continue
            s = y // 13
            r = y % 13 + 1
            u, d = _tops(cfg, gf, cfg[C_SIDX0 + s])
            if not (r <= u or r >= d):
                continue
            h2[0] = h[0]
            h2[1] = h[1]
            for i in range(j, gl[p]):
                _toggle(h2, kind, i, gp[p, i])
            for i in range(j + 1, gl[p]):
                _toggle(h2, kind, i - 1, gp[p, i])
            stats[0] += 1
            if memo_get(memo, h2) == G_LOST:
                stats[1] += 1
                return True
    return False
'''

def patched():
    return load_patched('g0_sub', [("\n\n@njit(cache=False)\ndef g0_solve(", SUB + "\n\n@njit(cache=False)\ndef g0_solve("),
                ("def g0_solve(cfg, piles, lens, fnd, redeals_used, memo, cap, retry):",
                 "def g0_solve(cfg, piles, lens, fnd, redeals_used, memo, cap, retry, stats):"),
                ("    for f in range(gf.shape[0]):\n        _toggle(h, 3, f, gf[f])",
                 "    rootfree = free.copy()\n    for f in range(gf.shape[0]):\n        _toggle(h, 3, f, gf[f])"),
                ("            if tag == G_LOST:\n",
                 "            if tag == G_UNKNOWN and _subsumed(cfg, gp, gl, gf, free, rootfree, memo, h, stats):\n"
                 "                memo_put(memo, h, G_LOST)\n                tag = G_LOST\n"
                 "            if tag == G_LOST:\n")])

def main():
    import numpy as np
    from solver.alhambra import relaxed as base
    from solver.driver import adapter_for, kernel_state
    from solver.engine import engine_for
    from solver.formats import pysolfc_deal
    from solver.variants import make_rules, parse_rule_assignments
    alt = patched()
    rules = make_rules("alhambra", parse_rule_assignments(sys.argv[3:]))
    ad = adapter_for(rules, ("free_reserve_relaxation",))
    games = [int(x) for x in sys.argv[1].split(",")] if "," in sys.argv[1] else range(*(lambda a, b: (a, b + 1))(*map(int, sys.argv[1].split("-"))))
    cap = int(sys.argv[2])
    for g in games:
        st = kernel_state(ad, engine_for(rules).initial_position(pysolfc_deal(rules, g).layout))[0]
        row = []
        for name in ("base", "sub"):
            t = time.perf_counter()
            stats = np.zeros(2, np.int64)
            if name == "base":
                v, n = base.g0_solve(ad.cfg, st.piles, st.lens, st.fnd, st.scal[0], ad.new_memo(cap), cap, False)
            else:
                v, n = alt.g0_solve(ad.cfg, st.piles, st.lens, st.fnd, st.scal[0], ad.new_memo(cap), cap, False, stats)
            row.append((int(v), n, time.perf_counter() - t, stats.copy()))
        print(f"game {g}: " + "  ".join(f"{nm} v{r[0]} {r[1]:,} {r[2]:.2f}s" for nm, r in zip(("base", "sub"), row))
              + f"  probes {row[1][3][0]:,} hits {row[1][3][1]:,}" + ("" if row[0][0] == row[1][0] else "  DIFFERENT"), flush=True)

main()
