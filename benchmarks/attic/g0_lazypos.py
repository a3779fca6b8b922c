"""Positions along random games of miniature Alhambra deals: where G0-lazy (reserve cards
free, the waste kept whole) says lost, the oracle must not find a win."""
import sys, time, random, collections
sys.path[:0] = [str(__import__("pathlib").Path(__file__).resolve().parents[2]), str(__import__("pathlib").Path(__file__).resolve().parent)]
import numpy as np
from solver.miniature import random_miniature_deal
from solver.engine import engine_for
from solver.oracle import exhaustive_search
from solver.alhambra.kernel import load_foundations
import g0_lazy as lazy
rng = random.Random(int(sys.argv[1])); games = int(sys.argv[2]); small = sys.argv[3] == "small"
cnt = collections.Counter(); t = time.time()
for _ in range(games):
    deal = random_miniature_deal("alhambra", rng, vary=True, small=small)
    r = deal.rules
    if r["stop_at_third_exhaustion"]: continue
    e = engine_for(r); pos = e.initial_position(deal.layout); lazy.setup(None, r)
    while True:
        legal = e.legal_moves(pos)
        if not legal: break
        fnd = np.zeros(2 * r["suits"], np.int32); load_foundations(r, pos.foundations, fnd)
        F = {}
        for res in pos.reserves:
            for c in res: F[c] = F.get(c, 0) + 1
        got = lazy.solve_lazy(list(pos.waste[0]), list(pos.stock), F, fnd, pos.redeals_used, 20000)[0]
        if got == "lost":
            o = exhaustive_search(e, pos, max_states=20000).verdict
            cnt[("G0 lost", o)] += 1
            assert o != "won", (deal.source, pos)
            break
        cnt["G0 " + got] += 1
        pos = e.play(pos, rng.choice(legal))
print(dict(cnt), f"{time.time()-t:.1f}s")
