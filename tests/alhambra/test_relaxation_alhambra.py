"""Alhambra's free-reserve relaxation (``free_reserve_relaxation``, ``solver.alhambra.relaxed``):
its exact solver against a plain twin, and the dead-state test against the oracle."""

import dataclasses
import random

import numpy as np
import pytest

from solver.alhambra.relaxed import G_LOST, G_TRIED, G_UNKNOWN, G_WON, g0_solve, memo_get, memo_put, memo_stats, new_memo
from solver.adapter import adapter_for, kernel_state
from solver.errors import UnsupportedVariant
from solver.engine import engine_for
from solver.miniature import random_miniature_deal
from solver.oracle import exhaustive_search
from solver.variants import make_rules
from tests.support.kernel_checks import cross_check
from tests.support.oracle_store import position_verdicts

RULE = "free_reserve_relaxation"
PLAY_ON = {"stop_at_third_exhaustion": False}


def flattened(pos):
    """R0, the plain twin of G0: the position with every reserve card in a reserve of its
    own, builds allowed. Every move of the real game is legal in R0, and G0 relaxes R0 by
    the argument of ``SAFE_FREE_RESERVE_RELAXATION`` (1) while R0 has G0's moves: so G0 is
    lost exactly when R0 is, and the oracle decides R0 by brute force."""
    return dataclasses.replace(pos, reserves=tuple((c,) for r in pos.reserves for c in r))


def g0_verdict(ad, pos, memo, cap=10 ** 8, retry=False):
    state = kernel_state(ad, pos)[0]
    return g0_solve(ad.cfg, state.piles, state.lens, state.fnd, state.scal[0], memo, cap, retry)


def twin_positions(seed: int, games: int, small: bool, flat: bool):
    """Every fourth position along ``games`` random games of miniature deals (every option
    varied, play after the last pass), flattened (R0) with ``flat``: ``(deal, engine,
    position)``, a game's positions in turn."""
    rng = random.Random(seed)
    for _ in range(games):
        deal = random_miniature_deal("alhambra", rng, options=PLAY_ON, vary=True, small=small)
        e = engine_for(deal.rules)
        pos = e.initial_position(deal.layout)
        step = 0
        while True:
            if step % 4 == 0:
                yield deal, e, flattened(pos) if flat else pos
            legal = e.legal_moves(pos)
            if not legal:
                break
            pos = e.play(pos, rng.choice(legal))
            step += 1


def _twin_check(seed: int, games: int, small: bool) -> dict:
    """At each of ``twin_positions``, lazy G0's verdict (with its forced moves, macro deals
    and commitments) is R0's by the oracle (its verdicts stored in ``tests/oracle/``), with a
    memo shared along the game and with a fresh one. Returns how many of each verdict were
    compared."""
    args = dict(seed=seed, games=games, small=small)
    _, want = position_verdicts("alhambra", "tests.alhambra.test_relaxation_alhambra:twin_positions", dict(args, flat=True),
                                20_000)
    got = {G_WON: 0, G_LOST: 0}
    game = None
    for (deal, e, pos), w in zip(twin_positions(**args, flat=False), want):
        if deal is not game:                      # a new game: its own memo
            game, ad = deal, adapter_for(deal.rules, (RULE,))
            memo = ad.new_memo()
        shared, _ = g0_verdict(ad, pos, memo)
        fresh, _ = g0_verdict(ad, pos, ad.new_memo())
        assert shared == fresh != G_UNKNOWN, (deal.source, pos)
        if w != "unknown":
            assert (shared == G_LOST) == (w == "lost"), (deal.source, pos, shared, w)
            got[shared] += 1
    return got


def test_lazy_g0_equals_the_flattened_game_on_miniature_positions():
    got = _twin_check(71, 300, small=True)
    assert got[G_WON] > 600 and got[G_LOST] > 100, got


@pytest.mark.slow
def test_lazy_g0_equals_the_flattened_game_on_3000_small_and_300_larger_games():
    got = _twin_check(171, 3000, small=True)
    assert got[G_WON] > 6000 and got[G_LOST] > 1000, got
    got = _twin_check(172, 300, small=False)
    assert got[G_WON] + got[G_LOST] > 300, got


def test_memo_keeps_verdicts_and_upgrades_only_a_search_given_up():
    memo = new_memo(8)
    h = np.array([12345, 678 << 2], dtype=np.uint64)
    assert memo_get(memo, h) == G_UNKNOWN
    memo_put(memo, h, G_TRIED)
    assert memo_get(memo, h) == G_TRIED
    memo_put(memo, h, G_LOST)
    assert memo_get(memo, h) == G_LOST
    memo_put(memo, h, G_WON)                  # a proved verdict never changes
    assert memo_get(memo, h) == G_LOST
    other = np.array([12345, 679 << 2], dtype=np.uint64)       # same first word, other key
    assert memo_get(memo, other) == G_UNKNOWN
    for i in range(20):                       # at three quarters full nothing new is stored
        memo_put(memo, np.array([i * 7919 + 1, i << 2], dtype=np.uint64), G_LOST)
    assert memo_stats(memo)[0] == 6


def test_a_search_stopped_at_its_cap_proves_nothing():
    """Game 1 of Alhambra with one redeal: G0 at the root gives up at a small cap (unknown),
    is not searched again from the same state unless asked, and a larger cap, going on
    from the refuted states the memo kept, proves it lost."""
    from solver.formats import pysolfc_deal
    rules = make_rules("alhambra", {"redeals": 1})
    ad = adapter_for(rules, (RULE,))
    pos = engine_for(rules).initial_position(pysolfc_deal(rules, 1).layout)
    memo = ad.new_memo()
    verdict, nodes = g0_verdict(ad, pos, memo, cap=50)
    assert verdict == G_UNKNOWN and nodes == 50
    assert g0_verdict(ad, pos, memo, cap=50) == (G_UNKNOWN, 0)
    verdict, nodes = g0_verdict(ad, pos, memo, cap=10 ** 7, retry=True)
    assert verdict == G_LOST and 1000 < nodes < 10 ** 7
    assert g0_verdict(ad, pos, memo) == (G_LOST, 0)
    assert g0_verdict(ad, pos, ad.new_memo())[0] == G_LOST


def test_relaxation_says_lost_only_where_the_oracle_does():
    """Along random games of small deals, every position the rule calls lost at the root of
    a solve (``relaxation_lost``) is lost by the oracle's search of the real game."""
    rng = random.Random(72)
    said = decided = 0
    for _ in range(150):
        deal = random_miniature_deal("alhambra", rng, options=PLAY_ON, vary=True, small=True)
        e, ad = engine_for(deal.rules), adapter_for(deal.rules, (RULE,))
        pos = e.initial_position(deal.layout)
        while e.legal_moves(pos):
            lost, _ = ad.k.relaxation_lost(ad.cfg, kernel_state(ad, pos)[0], 10 ** 6, False)
            if lost:
                said += 1
                got = exhaustive_search(e, pos, max_states=20_000)
                assert got.verdict != "won", (deal.source, pos)
                decided += got.verdict == "lost"
                break                      # the rest of this game is lost too
            pos = e.play(pos, rng.choice(e.legal_moves(pos)))
    assert decided > 30, (said, decided)


def test_relaxation_keeps_verdicts_on_2000_miniature_deals():
    """Without the rule, with it, and with every rule, on the same 2,000 deals: the oracle's
    verdicts (stored in ``tests/oracle/``)."""
    for dominance, every in (((), False), ((RULE,), True)):
        counts = cross_check("alhambra", 2000, seed=73, dominance=dominance, small=True, max_states=6_000,
                             options=PLAY_ON, every_rule=every)
        assert counts["won"] > 1900 and counts["lost"] > 10, (dominance, counts)


@pytest.mark.slow
def test_relaxation_keeps_verdicts_on_20000_deals():
    cross_check("alhambra", 20_000, seed=373, dominance=(RULE,), small=True, max_states=20_000, options=PLAY_ON)
    cross_check("alhambra", 1_000, seed=374, dominance=(RULE,), options=PLAY_ON)


def test_relaxation_budget_follows_the_redeals():
    """The root's relaxation gets the budget's nodes with at most one redeal, at most
    RELAX_MOVES_MANY_REDEALS with more (where it has proved nothing), none with its rule
    off; the memo is sized by those moves."""
    from solver.alhambra.hooks import MEMO_SLOTS, RELAX_MOVES_MANY_REDEALS
    for redeals, want in ((0, 10 ** 7), (1, 10 ** 7), (2, RELAX_MOVES_MANY_REDEALS), (3, RELAX_MOVES_MANY_REDEALS)):
        ad = adapter_for(make_rules("alhambra", {"redeals": redeals}), (RULE,))
        assert ad.k.relaxation_moves(ad.cfg, 10 ** 7) == want, redeals
        assert ad.k.relaxation_moves(ad.cfg, 5_000) == 5_000
        assert (ad.k.memo_slots(ad.cfg, 10 ** 7) > MEMO_SLOTS + 1) == (redeals <= 1)
    off = adapter_for(make_rules("alhambra", {"redeals": 1}), ())
    assert off.k.relaxation_moves(off.cfg, 10 ** 7) == 0 == off.k.memo_slots(off.cfg, 10 ** 7)


def test_relaxation_refused_where_unproved():
    """It needs one waste pile (Granada's waste piles give to each other), no refills (a
    refill takes a stock card without a deal) and play after the last pass (G0 could play
    on where the game has ended)."""
    for variant, options in [("granada", {}), ("reinforcements", {}), ("alhambra", {"stop_at_third_exhaustion": True})]:
        with pytest.raises(UnsupportedVariant):
            adapter_for(make_rules(variant, options), (RULE,))


def test_no_position_on_a_certified_winning_line_is_called_lost():
    """Full size: along the certified winning lines of Alhambra games 3, 9, 57 and 72
    (standard rules), the relaxation never calls a position lost."""
    from solver.adapter import expand_dominance
    from solver.driver import Budget, solve
    from solver.formats import pysolfc_deal
    rules = make_rules("alhambra")
    e, ad = engine_for(rules), adapter_for(rules, (RULE,))
    checked = 0
    for game in (3, 9, 57, 72):
        deal = pysolfc_deal(rules, game)
        res = solve(deal, Budget(nodes=200_000, shorten=0), expand_dominance(rules, ("all",)))
        assert res.verdict == "won", game
        memo = ad.new_memo()
        pos = e.initial_position(deal.layout)
        for i, move in enumerate(res.moves):
            if i % 5 == 0:
                state = kernel_state(ad, pos, memo)[0]
                assert not ad.k.relaxation_lost(ad.cfg, state, 20_000, False)[0], (game, i)
                checked += 1
            pos = e.play(pos, move)
    assert checked > 150


@pytest.mark.parametrize("game,most", [(4, 40_000), (5, 20_000), (8, 70_000), (11, 700_000)])
def test_alhambra_deals_with_one_redeal_proved_lost(game, most):
    """Full size, named: Alhambra games 4, 5, 8 and 11 with one redeal (`--rule redeals=1`)
    are lost, proved by the relaxation at the root in 32,800, 15,005, 58,685 and 536,871
    relaxed moves (solver 0.10.0, 0.2-4 s; 0.9.0 needed 52,001, 24,286, 85,183 and about
    1.2 M; benchmarks/notes/alhambra-proofs-of-loss.md). Before the relaxation, no Alhambra deal with one redeal
    had been decided (games 1-50 at 1 M nodes)."""
    from solver.adapter import expand_dominance
    from solver.driver import Budget, solve
    from solver.formats import pysolfc_deal
    rules = make_rules("alhambra", {"redeals": 1})
    res = solve(pysolfc_deal(rules, game), Budget(nodes=1_000_000, shorten=0), expand_dominance(rules, ("all",)))
    assert res.verdict == "lost" and res.attempts == 0 and res.nodes < most, (res.verdict, res.nodes)


def test_solve_names_the_relaxation_in_its_verdict():
    """`patience solve` says a deal proved lost by the relaxation is lost by it, not by a
    complete search (Alhambra 5 with one redeal: 15,005 relaxed moves)."""
    from click.testing import CliRunner
    from solver.cli import main
    r = CliRunner().invoke(main, ["solve", "alhambra", "5", "--rule", "redeals=1"])
    assert r.exit_code == 0, r.output
    assert "lost (proved by its relaxation, free_reserve_relaxation" in r.output, r.output
