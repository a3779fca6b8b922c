"""Prototype: lazy G0 with subsumption at redeals. A state just redealt (B) is lost if a
state C just redealt and refuted before has: C's sequence ids a subset of B's, C's
foundation counts <= B's, the same first dealt card, C's pass <= B's (C relaxes B)."""
import sys, time
from pathlib import Path
sys.path.insert(0, str(Path(__file__).resolve().parent))
from patched_relaxed import load_patched  # noqa: E402

SUB = '''

@njit(cache=False)
def _seqmask(cfg, gi, gl, mk):
    w = cfg[C_NRES]
    st = cfg[C_STOCK]
    mk[0] = 0
    mk[1] = 0
    for p in (w, st):
        for i in range(gl[p]):
            b = gi[p, i]
            mk[b >> 6] |= np.uint64(1) << np.uint64(b & 63)


@njit(cache=False)
def _rd_dominated(cfg, gi, gl, gf, gs, lm, lf, lp, lfirst, lc, mk, stats):
    w = cfg[C_NRES]
    _seqmask(cfg, gi, gl, mk)
    first = gi[w, 0] if gl[w] > 0 else -1
    nf = gf.shape[0]
    stats[0] += 1
    for k in range(lc[0]):
        if lp[k] > gs[0] or lfirst[k] != first:
            continue
        if (lm[k, 0] & ~mk[0]) != 0 or (lm[k, 1] & ~mk[1]) != 0:
            continue
        ok = True
        for f in range(nf):
            if lf[k, f] > gf[f]:
                ok = False
                break
        if ok:
            stats[1] += 1
            return True
    return False


@njit(cache=False)
def _rd_record(cfg, gi, gl, gf, gs, lm, lf, lp, lfirst, lc, mk):
    if lc[0] >= lm.shape[0]:
        return
    w = cfg[C_NRES]
    _seqmask(cfg, gi, gl, mk)
    k = lc[0]
    lm[k, 0] = mk[0]
    lm[k, 1] = mk[1]
    for f in range(gf.shape[0]):
        lf[k, f] = gf[f]
    lp[k] = gs[0]
    lfirst[k] = gi[w, 0] if gl[w] > 0 else -1
    lc[0] = k + 1
'''

def patched():
    return load_patched('g0_rsub', [("\n\n@njit(cache=False)\ndef g0_solve(", SUB + "\n\n@njit(cache=False)\ndef g0_solve("),
                ("def g0_solve(cfg, piles, lens, fnd, redeals_used, memo, cap, retry):",
                 "def g0_solve(cfg, piles, lens, fnd, redeals_used, memo, cap, retry, stats):"),
                ("    d = 0\n    fh[0, :] = h\n",
                 "    LMAX = 200000\n    lm = np.zeros((LMAX, 2), np.uint64)\n    lf = np.zeros((LMAX, gf.shape[0]), np.int64)\n"
                 "    lp = np.zeros(LMAX, np.int64)\n    lfirst = np.zeros(LMAX, np.int64)\n    lc = np.zeros(1, np.int64)\n"
                 "    mk = np.zeros(2, np.uint64)\n    d = 0\n    fh[0, :] = h\n"),
                ("            if tag == G_LOST:\n",
                 "            if tag == G_UNKNOWN and m == _REDEAL and _rd_dominated(cfg, gi, gl, gf, gs, lm, lf, lp, lfirst, lc, mk, stats):\n"
                 "                memo_put(memo, h, G_LOST)\n                tag = G_LOST\n"
                 "            if tag == G_LOST:\n"),
                ("            memo_put(memo, fh[d], G_LOST)\n            if d == 0:\n",
                 "            memo_put(memo, fh[d], G_LOST)\n"
                 "            if d > 0 and fm[d - 1, fi[d - 1] - 1] == _REDEAL:\n"
                 "                _rd_record(cfg, gi, gl, gf, gs, lm, lf, lp, lfirst, lc, mk)\n"
                 "            if d == 0:\n")])

def main():
    import numpy as np
    from solver.alhambra import relaxed as base
    from solver.driver import adapter_for, kernel_state
    from solver.engine import engine_for
    from solver.formats import pysolfc_deal
    from solver.variants import make_rules, parse_rule_assignments
    alt = patched()
    rules = make_rules("alhambra", parse_rule_assignments(sys.argv[4:]))
    ad = adapter_for(rules, ("free_reserve_relaxation",))
    games = [int(x) for x in sys.argv[1].split(",")] if "," in sys.argv[1] else range(*(lambda a, b: (a, b + 1))(*map(int, sys.argv[1].split("-"))))
    cap = int(sys.argv[2]); do_base = sys.argv[3] == "both"
    for g in games:
        st = kernel_state(ad, engine_for(rules).initial_position(pysolfc_deal(rules, g).layout))[0]
        row = []
        for name in (("base", "sub") if do_base else ("sub",)):
            t = time.perf_counter()
            stats = np.zeros(2, np.int64)
            if name == "base":
                v, n = base.g0_solve(ad.cfg, st.piles, st.lens, st.fnd, st.scal[0], ad.new_memo(cap), cap, False)
            else:
                v, n = alt.g0_solve(ad.cfg, st.piles, st.lens, st.fnd, st.scal[0], ad.new_memo(cap), cap, False, stats)
            row.append((name, int(v), n, time.perf_counter() - t, stats.copy()))
        print(f"game {g}: " + "  ".join(f"{r[0]} v{r[1]} {r[2]:,} {r[3]:.2f}s" for r in row)
              + f"  redeal checks {row[-1][4][0]:,} hits {row[-1][4][1]:,}", flush=True)

main()
