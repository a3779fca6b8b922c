"""A proxy, *not a relaxation*, for how much release times (G0-tau, G0s) could tighten lazy
G0 under the standard rules: reserve cards are locked in the first pass until the deal index
at which ``release_times.py`` frees them (builds only, never uncovered by a card going home,
which makes the lock stricter than any sound release bound); the never-released stay locked
in the first pass; every reserve card is free from the second pass. Lazy G0's fill test
skips locked copies, and its forced moves are off while any card is locked. Built from
``solver/alhambra/relaxed.py`` at run time (a textual patch, so it follows that file).

    PYTHONPATH=. python benchmarks/attic/g0_release_proxy.py 1-10 1000000

If even this stricter game is won, no release-time relaxation can prove the deal lost."""
import importlib.util
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from release_times import release_times  # noqa: E402


def _patched_module():
    s = (HERE.parents[1] / "solver" / "alhambra" / "relaxed.py").read_text()
    s = s.replace("import solver.jit  # noqa: F401  (cache folder per kernel version; must precede @njit)\n", "")
    s = s.replace("cache=True", "cache=False")
    reps = [
        ('def _fills_free(free, s, lo, hi):\n    """Every rank lo..hi of suit s has a free copy."""\n'
         '    for m in range(lo, hi + 1):\n        if free[s * 13 + m - 1] == 0:',
         'def _fills_free(free, s, lo, hi, locked):\n    """Every rank lo..hi of suit s has a free copy."""\n'
         '    for m in range(lo, hi + 1):\n        if free[s * 13 + m - 1] - locked[s * 13 + m - 1] <= 0:'),
        ("def _expand(cfg, gp, gl, gf, gs, free, seqn, out):",
         "def _expand(cfg, gp, gl, gf, gs, free, seqn, out, lk, lt, n0s):"),
        ("    n = 0\n    if gl[w] > 0:\n        x = gp[w, gl[w] - 1]",
         "    n = 0\n    locked = np.zeros(52, np.int64)\n    anyl = False\n    if gs[0] == 0:\n"
         "        k = n0s - gl[st]\n        for j in range(lk.shape[0]):\n            if lt[j] > k:\n"
         "                locked[lk[j]] += 1\n                anyl = True\n"
         "    if gl[w] > 0:\n        x = gp[w, gl[w] - 1]"),
        ("_fills_free(free, s, u + 1, r - 1)", "_fills_free(free, s, u + 1, r - 1, locked)"),
        ("_fills_free(free, s, r + 1, d - 1)", "_fills_free(free, s, r + 1, d - 1, locked)"),
        ("        if seqn[x] == 1:\n", "        if seqn[x] == 1 and not anyl:\n"),
        ("        if r == u + 1 and r == d - 1:\n", "        if r == u + 1 and r == d - 1 and not anyl:\n"),
        ("def g0_solve(cfg, piles, lens, fnd, redeals_used, memo, cap, retry):",
         "def g0_solve(cfg, piles, lens, fnd, redeals_used, memo, cap, retry, lk, lt):"),
        ("_expand(cfg, gp, gl, gf, gs, free, seqn, fm[0])", "_expand(cfg, gp, gl, gf, gs, free, seqn, fm[0], lk, lt, n0s)"),
        ("_expand(cfg, gp, gl, gf, gs, free, seqn, fm[d])", "_expand(cfg, gp, gl, gf, gs, free, seqn, fm[d], lk, lt, n0s)"),
        ("    n = gl[w] + gl[st]\n    maxd", "    n0s = lens[st]\n    n = gl[w] + gl[st]\n    maxd"),
    ]
    for old, new in reps:
        assert old in s, old
        s = s.replace(old, new)
    path = Path(tempfile.mkdtemp()) / "g0_proxy.py"
    path.write_text(s)
    spec = importlib.util.spec_from_file_location("g0_proxy", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def main() -> None:
    from solver.driver import adapter_for, kernel_state
    from solver.engine import engine_for
    from solver.formats import pysolfc_deal
    from solver.variants import make_rules
    g0 = _patched_module()
    rules = make_rules("alhambra")
    ad = adapter_for(rules, ("free_reserve_relaxation",))
    lo, hi = map(int, sys.argv[1].split("-"))
    cap = int(sys.argv[2])
    counts = Counter()
    for g in range(lo, hi + 1):
        deal = pysolfc_deal(rules, g)
        st = kernel_state(ad, engine_for(rules).initial_position(deal.layout))[0]
        times = release_times(deal.layout)
        lk = [c for c, _ in times] + [c for p in deal.layout.reserves for c in p]
        lt = [t for _, t in times]
        # the never-released: whatever is left after removing the released copies
        left = Counter(c for p in deal.layout.reserves for c in p) - Counter(c for c, _ in times)
        lk = [c for c, _ in times] + list(left.elements())
        lt = lt + [10 ** 6] * sum(left.values())
        t = time.perf_counter()
        v, n = g0.g0_solve(ad.cfg, st.piles, st.lens, st.fnd, st.scal[0], ad.new_memo(cap), cap, False,
                           np.array(lk, np.int64), np.array(lt, np.int64))
        verdict = {0: "unknown", 1: "lost", 2: "won"}[int(v)]
        counts[verdict] += 1
        print(f"game {g}: {verdict} in {n:,} moves, {time.perf_counter() - t:.1f} s", flush=True)
    print(dict(counts))


if __name__ == "__main__":
    main()
