import sys, time, collections
sys.path[:0] = [str(__import__("pathlib").Path(__file__).resolve().parents[2]), str(__import__("pathlib").Path(__file__).resolve().parent)]
import numpy as np
from tests.oracle_store import oracle_verdicts
from solver.engine import engine_for
from solver.alhambra.kernel import load_foundations
import g0_lazy as lazy
deals, verdicts = oracle_verdicts("alhambra", 2700, 1, None, True, 6000)
cnt = collections.Counter(); t = time.time(); bad = []
for i, (deal, want) in enumerate(zip(deals, verdicts)):
    r = deal.rules
    if r["stop_at_third_exhaustion"] or r["waste_piles"] != 1 or r["reinforce"]:
        cnt["skipped"] += 1; continue
    lazy.setup(None, r)
    pos = engine_for(r).initial_position(deal.layout)
    fnd = np.zeros(2 * r["suits"], np.int32); load_foundations(r, pos.foundations, fnd)
    F = {}
    for res in pos.reserves:
        for c in res: F[c] = F.get(c, 0) + 1
    got = lazy.solve_lazy(list(pos.waste[0]), list(pos.stock), F, fnd, 0, 200000)[0]
    cnt[(want, got)] += 1
    if got == "lost" and want == "won": bad.append(i)
print(dict(cnt), "unsound on", bad[:10], f"{time.time()-t:.1f}s")
