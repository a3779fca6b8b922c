"""The Terrace-family kernel against the exhaustive oracle (every option redrawn: all gap
rules, both base modes, take-back, the redeal, both build modes), move by move against the
reference engine, and on full-size deals."""

import random

import pytest

from solver.formats import pysolfc_deal
from solver.miniature import random_miniature_deal
from solver.replay import replay
from solver.solve import Budget, solve
from solver.variants import make_rules
from tests.kernel_checks import PLAIN_BUDGET, cross_check, incremental_hash_holds, moves_agree

VARIANTS = ["terrace", "queen-of-italy-pysolfc", "generals-patience", "blondes-and-brunettes",
            "falling-star", "redheads"]
# base_mode is each variant's own (the miniature deals redraw every other option): one
# variant of each mode carries the bulk of the default run.
BULK = {"terrace": 1000, "falling-star": 1000}


@pytest.mark.parametrize("variant", VARIANTS)
def test_kernel_matches_oracle_on_miniature_deals(variant):
    n = BULK.get(variant, 200)
    counts = cross_check(variant, n, seed=1, max_states=20_000)
    assert counts["won"] > n // 4 and counts["skipped"] < n // 5, counts


@pytest.mark.parametrize("variant", ["terrace", "falling-star"])
def test_kernel_matches_oracle_on_small_deals(variant):
    """The small shapes (a heavy reserve) end lost more often."""
    counts = cross_check(variant, 400, seed=2, small=True, max_states=20_000)
    assert counts["lost"] > 60 and counts["won"] > 60, counts


@pytest.mark.parametrize("variant", ["terrace", "blondes-and-brunettes"])
def test_plain_order_matches_oracle(variant):
    cross_check(variant, 200, seed=3, budget=PLAIN_BUDGET, max_states=20_000)


@pytest.mark.parametrize("variant", VARIANTS)
def test_moves_equal_the_reference_engine(variant):
    assert moves_agree(variant, seed=4, games=40, steps=60) > 1000


@pytest.mark.parametrize("variant", ["queen-of-italy-pysolfc", "redheads"])
def test_incremental_hash_and_undo(variant):
    """Take-back (PySolFC's Queen of Italy) brings foundation tops back: the hash must follow
    the foundations' cards, not their counts."""
    rng = random.Random(5)
    made = sum(incremental_hash_holds(random_miniature_deal(variant, rng, vary=True), steps=300)
               for _ in range(40))
    assert made > 3000


def test_takeback_positions_hash_by_foundation_cards():
    """Two positions with the same foundation counts but different foundation cards have
    different keys (with take-back a top comes back, so counts do not fix contents)."""
    from solver.engine import engine_for
    from solver.solve import adapter_for, kernel_state
    rules = make_rules("queen-of-italy-pysolfc", {"ranks": 4, "suits": 2, "reserve_size": 3,
                                                   "tableau_piles": 3, "base_choices": 2})
    rng = random.Random(6)
    seen = {}
    for _ in range(300):
        deal = random_miniature_deal("queen-of-italy-pysolfc", rng, {"ranks": 4, "suits": 2})
        e = engine_for(deal.rules)
        pos = e.initial_position(deal.layout)
        for _ in range(30):
            legal = e.legal_moves(pos)
            if not legal:
                break
            pos = e.play(pos, rng.choice(legal))
            state, _ = kernel_state(adapter_for(deal.rules), pos)
            key = (deal.rules.hash(), int(state.h[0]), int(state.h[1]))
            view = (pos.foundations, pos.reserves, pos.tableau, pos.waste, pos.stock, pos.redeals_used, pos.phase)
            assert seen.setdefault(key, view) == view
    assert rules is not None and len(seen) > 1000


@pytest.mark.parametrize("variant", VARIANTS)
def test_full_size_deals_end_certified_or_unknown(variant):
    """Games 1-10 at 200,000 nodes until one is won (General's Patience: none yet)."""
    rules = make_rules(variant)
    verdicts = []
    for n in range(1, 11):
        deal = pysolfc_deal(rules, n)
        r = solve(deal, Budget(nodes=200_000))
        assert r.verdict in ("won", "unknown"), (variant, n, r.verdict)
        verdicts.append(r.verdict)
        if r.verdict == "won":
            assert replay(deal, r.moves).ok
            break
    assert "won" in verdicts or variant == "generals-patience", verdicts


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("chunk", range(4))
def test_kernel_matches_oracle_on_100000_miniature_deals(variant, chunk):
    """100,000 deals per variant in four chunks of 25,000."""
    counts = cross_check(variant, 25_000, seed=100 + chunk, max_states=20_000)
    assert counts["won"] > 1000, counts
