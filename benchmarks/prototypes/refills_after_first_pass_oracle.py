"""The pair (A_1) + (B_1) against the unpruned oracle on The Reinforcements' miniatures (an
experiment for issue 19; not a rule).

(A_1): no line refills in the current pass. Shown here by the plain goal search on the
reference engine of the game without refills: every position of the current pass (no
redeal followed), the goal a reserve empty while the stock holds cards.
(B_1): the refill model (bare, no forced refills) with takes only from the next pass on has
no schedule. Where both hold, the pair says lost; it must never say so where the oracle
(the unpruned exhaustive search of the real game) wins. Positions: those of
``tests/test_schedule_alhambra.py`` with reinforcement (every other option varied).

    PYTHONPATH=. python benchmarks/prototypes/refills_after_first_pass_oracle.py SEED COUNT small|long
"""
from __future__ import annotations

import sys
import time

from solver.alhambra import schedule as S
from solver.engine import engine_for
from solver.moves import REDEAL
from solver.oracle import exhaustive_search
from solver.variants import make_rules
from tests.test_schedule_alhambra import _positions


def no_refill_this_pass(rules, pos, max_states: int) -> str:
    """"never", "refill" or "unknown": can a line empty a reserve while the stock holds
    cards before the current pass ends (the game without refills, which every line is up to
    its first refill)?"""
    e = engine_for(make_rules(rules.variant, {**rules.as_dict(), "reinforce": False}))

    def goal(p) -> bool:
        return bool(p.stock) and any(len(r) == 0 for r in p.reserves)

    if goal(pos):
        return "refill"
    seen, todo = {pos}, [pos]
    while todo:
        p = todo.pop()
        for move, nxt in e.successors(p):
            if move.kind == REDEAL or nxt in seen:
                continue
            if goal(nxt):
                return "refill"
            seen.add(nxt)
            if len(seen) > max_states:
                return "unknown"
            todo.append(nxt)
    return "never"


def main() -> None:
    seed, n, small = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3] == "small"
    plain = S._Schedule._refill_literals
    S._Schedule._refill_literals = lambda self, x, passes: plain(self, x, [k for k in passes if k >= 1])
    c = dict(positions=0, a_never=0, b_none=0, fired=0, fired_lost=0, fired_won=0, oracle_lost=0, oracle_won=0)
    t0 = time.time()
    fixed = {"waste_piles": 1, "reinforce": True}
    for deal, e, pos in _positions(seed, n, small, variant="reinforcements", fixed=fixed):
        c["positions"] += 1
        oracle = exhaustive_search(e, pos, max_states=20_000).verdict
        c["oracle_lost"] += oracle == "lost"
        c["oracle_won"] += oracle == "won"
        a = no_refill_this_pass(deal.rules, pos, 200_000)
        c["a_never"] += a == "never"
        if a != "never":
            continue
        sc = S._Schedule(pos, deal.rules, **S.MODELS["bare"])
        solver = S._solver(30.0)
        status = solver.StatusName(solver.Solve(sc.m))
        if status != "INFEASIBLE":
            continue
        c["b_none"] += 1
        c["fired"] += 1
        c["fired_lost"] += oracle == "lost"
        c["fired_won"] += oracle == "won"
        if oracle == "won":
            print("THE PAIR REFUTES A WON POSITION", deal.rules.describe(), pos, flush=True)
    print(seed, n, "small" if small else "long", c, f"{time.time() - t0:.0f} s", flush=True)


if __name__ == "__main__":
    main()
