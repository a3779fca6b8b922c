"""The refill-aware schedule model (``schedule_refills.patch``) against the unpruned oracle
on The Reinforcements' miniatures (every option varied): no position the oracle wins may
be refuted; counts of refuted, oracle-lost, played and oracle-won positions.

    git apply benchmarks/prototypes/schedule_refills.patch
    PYTHONPATH=. python benchmarks/prototypes/schedule_refills_oracle.py SEED COUNT small|long
"""
import random
import sys
import time

from solver.alhambra.schedule import solve_schedule
from solver.engine import engine_for
from solver.miniature import random_miniature_deal
from solver.oracle import exhaustive_search

# (ranks, suits, reserves, reserve_size), as tests/test_schedule_alhambra.py's long suits
LONG_SUITS = [(8, 1, 2, 3), (7, 1, 2, 3), (9, 1, 2, 3), (8, 1, 3, 2), (5, 3, 3, 2), (6, 2, 2, 3), (5, 2, 2, 2)]


def main() -> None:
    seed, n, small = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3] == "small"
    rng = random.Random(seed)
    c = dict(refuted=0, refuted_lost=0, oracle_lost=0, played=0, oracle_won=0, refuted_won=0)
    t0 = time.time()
    for _ in range(n):
        opts = {"waste_piles": 1, "reinforce": True}
        if not small:
            ranks, suits, reserves, size = rng.choice(LONG_SUITS)
            opts.update(ranks=ranks, suits=suits, reserves=reserves, reserve_size=size)
        deal = random_miniature_deal("reinforcements", rng, options=opts, vary=True, small=small)
        e = engine_for(deal.rules)
        pos = e.initial_position(deal.layout)
        bias = rng.random()
        for _ in range(rng.choice([0, 0, rng.randrange(1, 25)])):     # a few random moves in
            legal = e.legal_moves(pos)
            if not legal:
                break
            home = [m for m in legal if m.dst is not None and m.dst[0] == "f"]
            pos = e.play(pos, rng.choice(home) if home and rng.random() < bias else rng.choice(legal))
        status, moves = solve_schedule(e, pos, deal.rules)
        oracle = exhaustive_search(e, pos, max_states=20_000).verdict
        lost = status == "INFEASIBLE"
        if lost and oracle == "won":
            print("REFUTED A WON POSITION", deal.rules.describe(), pos, flush=True)
        c["refuted_won"] += lost and oracle == "won"
        c["refuted"] += lost
        c["oracle_lost"] += oracle == "lost"
        c["refuted_lost"] += lost and oracle == "lost"
        c["played"] += moves is not None
        c["oracle_won"] += oracle == "won"
    print(seed, n, "small" if small else "long", c, f"{time.time() - t0:.0f} s")


if __name__ == "__main__":
    main()
