"""Alhambra's projection onto the next pass (``next_pass_projection``,
``solver.alhambra.projection``): the positions where it fires beyond ``dead_stock_order``
are lost by the oracle, verdicts are kept with and without it, and the standard deals it
proves lost stay lost."""

import random

import pytest

from solver.alhambra.projection import next_pass_lost
from solver.alhambra.relaxed import new_memo
from solver.alhambra.stock_order import stock_order_blocked
from solver.adapter import adapter_for, expand_dominance, kernel_state
from solver.engine import engine_for
from solver.miniature import random_miniature_deal
from solver.variants import make_rules
from tests.support.kernel_checks import cross_check
from tests.support.oracle_store import position_verdicts

RULE = "next_pass_projection"
PLAY_ON = {"stop_at_third_exhaustion": False}
# (ranks, suits, reserves, reserve_size): on the usual miniature shapes the projection
# hardly ever fires where dead_stock_order does not; on long suits it does.
LONG_SUITS = [(8, 1, 2, 3), (7, 1, 2, 3), (9, 1, 2, 3), (8, 1, 3, 2), (9, 1, 3, 3), (5, 3, 3, 2), (6, 2, 2, 3),
              (10, 1, 2, 4)]


def _fired_beyond_dead_stock_order(seed: int, games: int):
    """Positions along random games (one or two redeals, every other option varied, play
    biased towards the foundations by a random amount) where the projection calls the
    position lost and ``dead_stock_order`` does not; the first of each game."""
    rng = random.Random(seed)
    for _ in range(games):
        ranks, suits, reserves, size = rng.choice(LONG_SUITS)
        options = dict(PLAY_ON, redeals=rng.choice([1, 2]), ranks=ranks, suits=suits, reserves=reserves,
                       reserve_size=size)
        deal = random_miniature_deal("alhambra", rng, options=options, vary=True)
        e, ad = engine_for(deal.rules), adapter_for(deal.rules, (RULE,))
        memo = new_memo(1 << 16)
        pos = e.initial_position(deal.layout)
        bias = rng.random()
        while legal := e.legal_moves(pos):
            left = deal.rules["redeals"] - pos.redeals_used
            st = kernel_state(ad, pos)[0]
            if left >= 1 and next_pass_lost(ad.cfg, st.piles, st.lens, st.fnd, left, memo):
                if not stock_order_blocked(ad.cfg, st.piles, st.lens, st.fnd, left):
                    yield deal, e, pos
                break                      # the rest of this game is lost too
            home = [m for m in legal if m.dst is not None and m.dst[0] == "f"]
            pos = e.play(pos, rng.choice(home) if home and rng.random() < bias else rng.choice(legal))


def _check_fired(seed: int, games: int) -> tuple[int, int]:
    """(fired, lost by the oracle) on the positions above (the oracle's verdicts stored in
    ``tests/oracle/``, ``tests.support.oracle_store``); none is won."""
    made, verdicts = position_verdicts("alhambra", "tests.alhambra.test_projection_alhambra:_fired_beyond_dead_stock_order",
                                       dict(seed=seed, games=games), 100_000)
    for (deal, _, pos), verdict in zip(made, verdicts):
        assert verdict != "won", (deal.source, pos)
    return len(made), verdicts.count("lost")


def test_projection_fires_only_on_lost_positions():
    fired, lost = _check_fired(seed=81, games=3000)
    assert lost > 50 and lost >= 0.95 * fired, (fired, lost)


@pytest.mark.slow
def test_projection_fires_only_on_lost_positions_20000_games():
    fired, lost = _check_fired(seed=381, games=20_000)
    assert lost > 400 and lost >= 0.95 * fired, (fired, lost)


def test_projection_keeps_verdicts_on_2000_miniature_deals():
    """With the rule, on the deals of the relaxation's check (the oracle's verdicts stored in
    ``tests/oracle/``; that check also solves them with every rule, this one included), and
    on 300 deals of long suits."""
    counts = cross_check("alhambra", 2000, seed=73, dominance=(RULE,), small=True, max_states=6_000,
                         options=PLAY_ON)
    assert counts["won"] > 1900 and counts["lost"] > 10, counts
    counts = cross_check("alhambra", 300, seed=82, dominance=(RULE,), max_states=20_000,
                         options=dict(PLAY_ON, ranks=8, suits=1, reserves=2, reserve_size=3))
    assert counts["won"] > 50 and counts["lost"] > 30, counts


@pytest.mark.slow
def test_projection_keeps_verdicts_on_20000_deals():
    cross_check("alhambra", 20_000, seed=383, dominance=(RULE,), small=True, max_states=20_000, options=PLAY_ON)
    cross_check("alhambra", 1_000, seed=384, dominance=(RULE,), options=PLAY_ON)
    cross_check("alhambra", 2_000, seed=385, dominance=(RULE,), max_states=50_000,
                options=dict(PLAY_ON, ranks=8, suits=1, reserves=2, reserve_size=3))


def test_projection_needs_a_redeal_left():
    """With no redeal left there is no next pass: the test never fires."""
    rules = make_rules("alhambra", {"redeals": 0})
    ad = adapter_for(rules, (RULE,))
    from solver.formats import pysolfc_deal
    st = kernel_state(ad, engine_for(rules).initial_position(pysolfc_deal(rules, 7).layout))[0]
    assert not next_pass_lost(ad.cfg, st.piles, st.lens, st.fnd, 0, new_memo(1 << 10))


@pytest.mark.parametrize("game", [7, 279])
def test_standard_alhambra_deals_proved_lost(game):
    """Full size, standard rules (two redeals), named: Alhambra 7 and 279 are lost, proved
    at the root by the projection (solver 0.11.0, under a second each; before it no
    standard deal had been proved lost)."""
    from solver.driver import Budget, solve
    from solver.formats import pysolfc_deal
    rules = make_rules("alhambra")
    res = solve(pysolfc_deal(rules, game), Budget(nodes=1_000_000, shorten=0), expand_dominance(rules, ("all",)))
    assert res.verdict == "lost" and res.states <= 1, (res.verdict, res.nodes, res.states)
