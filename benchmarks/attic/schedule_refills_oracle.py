"""The refill-aware schedule model (``schedule_refills.patch``) against the unpruned oracle
on The Reinforcements' miniatures (every option varied; the positions of
``tests/test_schedule_alhambra.py``, with reinforcement): no position the oracle wins may
be refuted; counts of refuted, oracle-lost, played and oracle-won positions.

    git worktree add /tmp/sr 4a2c450 && cd /tmp/sr && git apply benchmarks/prototypes/schedule_refills.patch
    PYTHONPATH=. python benchmarks/prototypes/schedule_refills_oracle.py SEED COUNT small|long

The patch no longer applies to the solver and was deleted (issue 64); it is kept in the
history, so run this at commit 4a2c450, where the patch and this script lie in
``benchmarks/prototypes/``.
"""
import sys
import time

from solver.alhambra.schedule import solve_schedule
from solver.oracle import exhaustive_search
from tests.test_schedule_alhambra import _positions


def main() -> None:
    seed, n, small = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3] == "small"
    c = dict(refuted=0, refuted_lost=0, oracle_lost=0, played=0, oracle_won=0, refuted_won=0)
    t0 = time.time()
    fixed = {"waste_piles": 1, "reinforce": True}
    for deal, e, pos in _positions(seed, n, small, variant="reinforcements", fixed=fixed):
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
