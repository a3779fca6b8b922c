"""How often is G0 lost at the start of the second pass, after a random first pass of the
real game (standard rules)? Random playouts (foundation moves preferred with probability p).

    PYTHONPATH=. python benchmarks/attic/g0_next_pass_starts.py FIRST LAST TRIES CAP P
    PYTHONPATH=. python benchmarks/attic/g0_next_pass_starts.py 1 4 5 300000 0.9"""
import random, sys, time
from solver.alhambra.relaxed import g0_solve
from solver.driver import adapter_for, kernel_state
from solver.engine import engine_for
from solver.formats import pysolfc_deal
from solver.moves import REDEAL
from solver.variants import make_rules
rules = make_rules("alhambra")
e = engine_for(rules); ad = adapter_for(rules, ("free_reserve_relaxation",))
games = range(int(sys.argv[1]), int(sys.argv[2]) + 1); tries = int(sys.argv[3]); cap = int(sys.argv[4]); pf = float(sys.argv[5])
rng = random.Random(1)
for g in games:
    deal = pysolfc_deal(rules, g)
    res = []
    for t in range(tries):
        pos = e.initial_position(deal.layout)
        while True:
            legal = e.legal_moves(pos)
            if not legal:
                pos = None; break
            rd = [m for m in legal if m.kind == REDEAL]
            if rd:
                pos = e.play(pos, rd[0]); break
            home = [m for m in legal if getattr(m, "dst", None) and m.dst[0] == "f"]
            m = rng.choice(home) if home and rng.random() < pf else rng.choice(legal)
            pos = e.play(pos, m)
        if pos is None:
            res.append("stuck"); continue
        st = kernel_state(ad, pos)[0]
        home_n = sum(map(len, pos.foundations))
        v, n = g0_solve(ad.cfg, st.piles, st.lens, st.fnd, st.scal[0], ad.new_memo(cap), cap, False)
        res.append(f"{['unk','LOST','won'][int(v)]}({home_n},{n})")
    print(f"game {g}: " + " ".join(res), flush=True)
