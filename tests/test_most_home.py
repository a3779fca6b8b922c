"""The "furthest line" statistic: the most cards on the foundations in any state searched."""

import random

import pytest

from solver.engine import engine_for
from solver.miniature import random_miniature_deal
from solver.oracle import exhaustive_search
from solver.adapter import expand_dominance
from solver.driver import Budget, solve

MINI = Budget(nodes=2_000_000, memory=1 << 22, shorten=0)


@pytest.mark.parametrize("variant", ["alhambra", "reinforcements", "algerian"])
def test_most_home_equals_the_oracles_on_lost_deals(variant):
    """A complete search without pruning visits every reachable state, so on a lost deal
    its furthest line is the oracle's, with restarts too; with every proved rule it is never
    further; on a won deal it is every card. (Restarts are left out on won deals: there
    they only find the win, which the verdict checks cover, and on Algerian's small deals
    they spend most of this test's time doing so.)"""
    rng = random.Random(5)
    lost = won = 0
    for _ in range(150):
        deal = random_miniature_deal(variant, rng, vary=True, small=True)
        e = engine_for(deal.rules)
        want = exhaustive_search(e, e.initial_position(deal.layout), max_states=6_000)
        if want.verdict == "unknown":
            continue
        total = 2 * deal.rules["suits"] * deal.rules["ranks"]
        for restarts in (False, True) if want.verdict == "lost" else (False,):
            got = solve(deal, Budget(nodes=MINI.nodes, memory=MINI.memory, restarts=restarts, shorten=0))
            assert got.verdict == want.verdict
            assert got.most_home == (total if want.verdict == "won" else want.most_home), deal.source
        pruned = solve(deal, MINI, expand_dominance(deal.rules, ("all",)))
        assert pruned.most_home <= want.most_home
        if want.verdict == "lost":
            lost += 1
        else:
            won += 1
    assert lost > 20 and won > 20, (lost, won)


def test_unknown_line_names_the_furthest_line():
    from click.testing import CliRunner

    from solver.cli import main
    # The Reinforcements: Alhambra deals are decided by the schedule model after the search
    r = CliRunner().invoke(main, ["solve", "reinforcements", "1", "--budget-nodes", "3000"])
    assert r.exit_code == 0, r.output
    line = r.output.splitlines()[0]
    assert "unknown (nodes); the furthest line searched put " in line and line.endswith("of 104 cards on the foundations")
    n = int(line.split(" put ")[1].split()[0])
    assert 8 < n < 104            # the eight bases start there; 3,000 nodes do not win game 1
