"""The Algerian kernel against the exhaustive oracle, budgets, and full-size deals."""

import pytest

from solver.formats import pysolfc_deal
from solver.playback import replay
from solver.kernels import dominance_rules
from solver.driver import Budget, solve
from solver.variants import make_rules
from tests.support.kernel_checks import PLAIN_BUDGET, cross_check, incremental_hash_holds, moves_agree

HARD = 91     # the game of 1-2000 that needs the most nodes (about 760,000 with restarts)


def test_kernel_matches_oracle_on_2000_miniature_deals():
    """In the plain move order (one complete search a deal): 96 s here, against 284 s with
    restarts, which on these small deals spend their nodes on many short searches
    (2026-12-05); the restarts are checked on 400 deals below and 100,000 in the slow test."""
    counts = cross_check("algerian", 2000, seed=1, budget=PLAIN_BUDGET)
    assert counts["won"] > 100 and counts["lost"] > 100, counts


def test_restarts_match_oracle_on_400_miniature_deals():
    counts = cross_check("algerian", 400, seed=2)
    assert counts["won"] > 30 and counts["lost"] > 30, counts


def test_restart_schedule():
    from solver.attempts import RESTART_FIRST, win_first_schedule
    sched = list(win_first_schedule(2_000_000))
    assert sum(n for _, n in sched) == 2_000_000
    assert sched[0] == (0, RESTART_FIRST)                     # the plain order first
    assert len({s for s, _ in sched}) == len(sched)           # a fresh order each time
    assert all(b[1] > a[1] for a, b in zip(sched, sched[1:]))
    assert list(win_first_schedule(100)) == [(0, 100)]


def test_restarts_win_where_the_plain_order_is_stuck():
    """Game 1 holds the plain order for millions of nodes; restarts win it quickly."""
    deal = pysolfc_deal(make_rules("algerian"), 1)
    plain = solve(deal, Budget(nodes=300_000, restarts=False))
    assert (plain.verdict, plain.reason) == ("unknown", "nodes")
    r = solve(deal, Budget(nodes=300_000))
    assert r.verdict == "won" and r.nodes < 300_000 and r.attempts > 1
    assert replay(deal, r.moves).ok


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(4))
def test_kernel_matches_oracle_on_100000_miniature_deals(chunk):
    """100,000 deals in four chunks of 25,000 (run them in parallel: -k 'chunk' with xdist
    or one pytest per chunk)."""
    counts = cross_check("algerian", 25_000, seed=100 + chunk)
    assert counts["won"] > 1000 and counts["lost"] > 1000, counts


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(dominance_rules("algerian")))
def test_dominance_rule_keeps_verdicts_on_20000_deals(name):
    cross_check("algerian", 20_000, seed=200, dominance=(name,))


@pytest.mark.parametrize("name", sorted(dominance_rules("algerian")))
def test_dominance_rule_keeps_verdicts(name):
    """600 deals in the plain move order (a complete search each, as in the 2,000-deal check
    above; the slow test above has 20,000 with restarts)."""
    counts = cross_check("algerian", 600, seed=3, dominance=(name,), budget=PLAIN_BUDGET)
    assert counts["won"] > 30 and counts["lost"] > 30, counts


@pytest.mark.parametrize("layout", ["A", "B", "C"])
def test_full_size_deals_with_certified_lines(layout):
    won = 0
    for n in range(1, 30):
        r = solve(pysolfc_deal(make_rules("algerian", {"layout": layout}), n), Budget(nodes=300_000, memory=1 << 24))
        if r.verdict == "won":
            won += 1
            assert replay(pysolfc_deal(make_rules("algerian", {"layout": layout}), n), r.moves).ok
        assert r.verdict in ("won", "unknown")
    assert won >= 3


def test_node_budget_gives_unknown_nodes():
    r = solve(pysolfc_deal(make_rules("algerian"), HARD), Budget(nodes=1000))
    assert (r.verdict, r.reason) == ("unknown", "nodes") and r.nodes == 1000


def test_tiny_memory_gives_unknown_memory():
    r = solve(pysolfc_deal(make_rules("algerian"), HARD), Budget(nodes=10_000_000, memory=1024))
    assert (r.verdict, r.reason) == ("unknown", "memory")
    assert r.states <= 48


def test_time_limit_gives_unknown_time():
    r = solve(pysolfc_deal(make_rules("algerian"), HARD), Budget(nodes=10 ** 12, seconds=0.01))
    assert (r.verdict, r.reason) == ("unknown", "time")


def test_incremental_hash_equals_full_hash():
    rules = make_rules("algerian", {"ranks": 5, "suits": 2, "reserves": 2, "reserve_size": 2, "tableau_piles": 3,
                                    "foundation_to_tableau": True, "empty_reserve_as_cell": "from_anywhere"})
    assert incremental_hash_holds(pysolfc_deal(rules, 77)) > 100


def test_kernel_moves_equal_reference_moves_along_random_games():
    """Move generation agrees with the reference engine position by position."""
    assert moves_agree("algerian", seed=9) > 500
