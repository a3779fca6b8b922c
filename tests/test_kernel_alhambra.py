"""The Alhambra-family kernel (Alhambra, Granada, The Reinforcements) against the
reference engine and the exhaustive oracle, and full-size deals."""

import pytest

from solver.formats import pysolfc_deal
from solver.miniature import random_miniature_deal
from solver.replay import replay
from solver.solve import Budget, solve
from solver.variants import make_rules
from tests.kernel_checks import cross_check, incremental_hash_holds, moves_agree

VARIANTS = ["alhambra", "granada", "reinforcements"]


@pytest.mark.parametrize("variant", VARIANTS)
def test_kernel_moves_equal_reference_moves_along_random_games(variant):
    assert moves_agree(variant, seed=11) > 500


@pytest.mark.parametrize("variant", VARIANTS)
def test_incremental_hash_equals_full_hash(variant):
    import random
    rng = random.Random(3)
    made = 0
    for _ in range(40):
        made += incremental_hash_holds(random_miniature_deal(variant, rng, vary=True), steps=200)
    assert made > 300


@pytest.mark.parametrize("variant", VARIANTS)
def test_kernel_matches_oracle_on_2000_miniature_deals(variant):
    """Small shapes and an oracle cap keep this in the default run; deals the oracle cannot
    finish are skipped, so more are drawn to check at least 2,000."""
    counts = cross_check(variant, 2500, seed=1, small=True, max_states=6_000)
    assert counts["won"] + counts["lost"] >= 2000 and counts["won"] > 100 and counts["lost"] > 100, counts


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(4))
@pytest.mark.parametrize("variant", VARIANTS)
def test_kernel_matches_oracle_on_100000_miniature_deals(variant, chunk):
    """100,000 deals per variant in four chunks of 25,000 (run chunks in parallel)."""
    counts = cross_check(variant, 25_000, seed=100 + chunk, small=True, max_states=20_000)
    assert counts["won"] > 1000 and counts["lost"] > 1000, counts


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS)
def test_kernel_matches_oracle_on_larger_miniature_deals(variant):
    """The larger miniature shapes (more ranks, longer reserves), 1,000 deals each; their
    searches can outgrow the small table of the default checks."""
    counts = cross_check(variant, 1000, seed=7, budget=Budget(nodes=20_000_000, memory=1 << 27))
    assert counts["won"] > 50 and counts["lost"] > 20, counts


@pytest.mark.parametrize("variant", VARIANTS)
def test_full_size_deals_end_certified_or_unknown(variant):
    """Full-size deals run end to end: a won is replayed, an unknown names the budget."""
    rules = make_rules(variant)
    for n in range(1, 4):
        r = solve(pysolfc_deal(rules, n), Budget(nodes=50_000, memory=1 << 24))
        if r.verdict == "won":
            assert replay(pysolfc_deal(rules, n), r.moves).ok
        elif r.verdict == "unknown":
            assert r.reason == "nodes" and r.nodes == 50_000


def test_deal_through_inert_keeps_verdicts():
    """The dominance rule against the oracle (which has no rules) on small Alhambra deals."""
    counts = cross_check("alhambra", 500, seed=21, dominance=("deal_through_inert",), small=True,
                         max_states=6_000)
    assert counts["won"] > 100 and counts["lost"] > 30, counts


@pytest.mark.slow
def test_deal_through_inert_keeps_verdicts_on_20000_deals():
    cross_check("alhambra", 20_000, seed=300, dominance=("deal_through_inert",), small=True, max_states=20_000)
    cross_check("alhambra", 1_000, seed=301, dominance=("deal_through_inert",))


def test_deal_through_inert_make_undo_and_hash():
    import random
    rng = random.Random(4)
    made = sum(incremental_hash_holds(random_miniature_deal("alhambra", rng, vary=True), steps=200,
                                      dominance=("deal_through_inert",)) for _ in range(40))
    assert made > 300


def test_deal_through_inert_needs_one_waste_and_no_reinforcement():
    from solver.solve import UnsupportedVariant, adapter_for
    for variant in ("granada", "reinforcements"):
        with pytest.raises(UnsupportedVariant):
            adapter_for(make_rules(variant), ("deal_through_inert",))


PLAY_ON = {"stop_at_third_exhaustion": False}


def test_met_foundation_keeps_verdicts():
    """A pruning rule can only turn a won into a lost, so the won deals are the test (with
    play after the last pass few small deals are lost)."""
    counts = cross_check("alhambra", 500, seed=31, dominance=("met_foundation",), small=True,
                         max_states=6_000, options=PLAY_ON)
    assert counts["won"] > 400, counts


def test_both_alhambra_rules_together_keep_verdicts():
    counts = cross_check("alhambra", 300, seed=32, dominance=("met_foundation", "deal_through_inert"),
                         small=True, max_states=6_000, options=PLAY_ON)
    assert counts["won"] > 200, counts


@pytest.mark.slow
def test_met_foundation_keeps_verdicts_on_20000_deals():
    cross_check("alhambra", 20_000, seed=310, dominance=("met_foundation",), small=True, max_states=20_000,
                options=PLAY_ON)
    cross_check("alhambra", 1_000, seed=311, dominance=("met_foundation", "deal_through_inert"),
                options=PLAY_ON)


def test_met_foundation_needs_play_after_the_last_pass():
    from solver.solve import UnsupportedVariant, adapter_for
    for variant, opts in (("granada", {}), ("reinforcements", {}), ("alhambra", {"stop_at_third_exhaustion": True})):
        with pytest.raises(UnsupportedVariant):
            adapter_for(make_rules(variant, opts), ("met_foundation",))


def test_met_foundation_forces_only_proven_moves():
    """Hand-made positions: crossed clubs (up at 9, down at 7) force 10C up and 6C down;
    met clubs (up at 6, down at 7) force 7C up and 6C down; a King up is not forced while an
    Ace is in play (the wrap neighbour goes down, and not next); apart (up 5, down 9)
    forces nothing."""
    import numpy as np
    from solver import cards
    from solver.alhambra import kernel as k
    rules = make_rules("alhambra", {"stop_at_third_exhaustion": False})
    cfg = k.make_cfg(rules, k.SAFE_MET_FOUNDATION)
    fnd = np.zeros(8, np.int32)
    fnd[:] = 1
    fnd[0], fnd[4] = 9, 7                 # clubs up A..9, down K..7
    assert k.met_safe(cfg, fnd, cards.parse("TC")) == 0
    assert k.met_safe(cfg, fnd, cards.parse("6C")) == 4
    assert k.met_safe(cfg, fnd, cards.parse("TS")) == -1
    fnd[0], fnd[4] = 6, 7                 # met: up A..6, down K..7
    assert k.met_safe(cfg, fnd, cards.parse("7C")) == 0
    assert k.met_safe(cfg, fnd, cards.parse("6C")) == 4
    assert k.met_safe(cfg, fnd, cards.parse("8C")) == -1
    fnd[0], fnd[4] = 12, 7                # up at Q: K goes up next, but an Ace is still in play
    assert k.met_safe(cfg, fnd, cards.parse("KC")) == -1
    fnd[0], fnd[4] = 5, 5                 # up at 5, down at 9: apart
    assert k.met_safe(cfg, fnd, cards.parse("6C")) == -1
