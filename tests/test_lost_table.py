"""The table of lost states handed from search to search in acyclic games (``LostTable``):
deletion from the transposition table, the acyclicity it rests on, and verdicts against the
exhaustive oracle when restarts share it."""

import random

import numpy as np
import pytest

from solver.engine import engine_for
from solver.miniature import random_miniature_deal
from tests.support.oracle_store import oracle_verdicts
from solver.playback import replay
from solver.dispatch import gen_moves, make_move
from solver.search import CTRL_LEN, X_STORED, tt_delete, tt_insert
from solver.adapter import adapter_for, expand_dominance, kernel_state
from solver.driver import Budget, solve
from solver.variants import make_rules


def test_tt_delete_keeps_every_other_key():
    """Keys crowded onto eight home slots (long probe chains, wrapping round the end):
    after deleting some, every other key is still found and each deleted one is not."""
    rng = np.random.default_rng(1)
    for trial in range(30):
        tt = np.zeros((64, 2), np.uint64)
        ctrl = np.zeros(CTRL_LEN, np.int64)
        keys = rng.integers(0, 2 ** 63, size=(45, 2), dtype=np.uint64)
        keys[:, 0] = (keys[:, 0] & np.uint64((0x7 << 17) | (0x38 << 17))) | np.uint64(1)
        for k in keys:
            assert tt_insert(tt, k, ctrl) == 1
        gone = set(random.Random(trial).sample(range(45), 20))
        for i in gone:
            tt_delete(tt, keys[i], ctrl)
        assert ctrl[X_STORED] == 25 == int((tt[:, 0] != 0).sum())
        for i, k in enumerate(keys):
            assert tt_insert(tt, k, ctrl) == (1 if i in gone else 0), (trial, i)


@pytest.mark.parametrize("variant", ["alhambra", "reinforcements"])
def test_one_waste_pile_lines_never_repeat_a_state(variant):
    """What sharing the table rests on: along random lines of play (every option varied,
    every rule on) no state comes back."""
    rng = random.Random(8)
    moves = 0
    for _ in range(60):
        deal = random_miniature_deal(variant, rng, vary=True)
        dominance = expand_dominance(deal.rules, ("all",)) if rng.random() < 0.5 else ()
        ad = adapter_for(deal.rules, dominance)
        assert ad.acyclic
        state, keys = kernel_state(ad, engine_for(deal.rules).initial_position(deal.layout))
        h = state.h
        seen = {(int(h[0]), int(h[1]))}
        buf = np.zeros(4096, np.int32)
        while (n := gen_moves(ad.kernel, ad.cfg, state, buf, 0, -1)) > 0:
            make_move(ad.kernel, ad.cfg, state, keys, buf[rng.randrange(n)])
            key = (int(h[0]), int(h[1]))
            assert key not in seen
            seen.add(key)
            moves += 1
    assert moves > 1000


def test_games_with_cycles_do_not_share():
    assert not adapter_for(make_rules("granada")).acyclic
    assert not adapter_for(make_rules("algerian")).acyclic


def shared_table_verdicts(variant: str, n_deals: int, seed: int) -> dict:
    """Verdicts on the larger miniature deals equal the oracle's; counts the deals decided
    only after several searches (those that used the shared table)."""
    counts = {"won": 0, "lost": 0, "won_later": 0, "lost_later": 0}
    deals, verdicts = oracle_verdicts(variant, n_deals, seed, None, False, 100_000)
    for i, (deal, want) in enumerate(zip(deals, verdicts)):
        if want == "unknown":
            continue
        dominance = expand_dominance(deal.rules, ("all",)) if i % 2 else ()
        got = solve(deal, Budget(nodes=3_000_000, memory=1 << 24, shorten=0), dominance)
        assert got.verdict == want, (i, deal.rules.describe(), deal.source, dominance)
        if got.verdict == "won":
            assert replay(deal, got.moves).ok
        counts[got.verdict] += 1
        if got.attempts > 1:
            counts[got.verdict + "_later"] += 1
    return counts


@pytest.mark.parametrize("variant", ["alhambra", "reinforcements"])
def test_shared_table_keeps_verdicts(variant):
    counts = shared_table_verdicts(variant, 80, seed=5)        # the slow test below: 3,000
    assert counts["lost_later"] >= 10 and counts["won_later"] >= 2, counts


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["alhambra", "reinforcements"])
def test_shared_table_keeps_verdicts_on_3000_deals(variant):
    counts = shared_table_verdicts(variant, 3000, seed=50)
    assert counts["lost_later"] >= 300, counts
