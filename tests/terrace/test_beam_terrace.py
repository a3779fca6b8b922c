"""The Terrace family's searches for wins (``solver.terrace.beam_order``, ``solver.beam.fresh_beam``):
a beam's win is a certified line, its failure no verdict, its score is its plain twin's,
and a fresh beam never keeps a position twice."""

import random

import numpy as np
import pytest

from solver.adapter import adapter_for, expand_dominance, kernel_state
from solver.api import game
from solver.beam import fresh_beam
from solver.dispatch import gen_moves, is_won, make_move
from solver.driver import Budget, solve
from solver.engine import engine_for
from solver.kernels import kernel_module
from solver.layout import foundation_suits
from solver.playback import replay
from solver.state import full_hash
from solver.terrace import beam_order
from solver.terrace.layout import base_rank
from solver.variants import make_rules
from tests.support.kernel_checks import beam_wins_what_the_search_leaves

BUDGET = Budget(nodes=200_000)     # beams 200 states wide


def _rules(variant="terrace"):
    rules = make_rules(variant, {})
    return rules, expand_dominance(rules, ["all"])


def test_a_beam_wins_a_deal_the_search_leaves_unknown(monkeypatch):
    won, plain = beam_wins_what_the_search_leaves(monkeypatch, "terrace", 77, BUDGET, "fresh_beam", beam_order)
    assert (won.verdict, won.proof, plain.verdict) == ("won", "fresh_beam", "unknown")


def test_beams_that_find_no_win_decide_nothing():
    rules, dom = _rules("generals-patience")
    res = solve(game("generals-patience", 12), BUDGET, dom)
    assert (res.verdict, res.reason, res.proof) == ("unknown", "nodes", None)
    assert res.nodes > BUDGET.nodes


def test_a_fresh_beam_keeps_no_position_twice_and_its_line_wins():
    """Its line is legal move by move, wins, and passes through no position twice (a
    plain beam's line on this deal goes round the same positions)."""
    rules, dom = _rules()
    ad = adapter_for(rules, dom)
    state, keys = kernel_state(ad, engine_for(rules).initial_position(game("terrace", 77).layout))
    before = [a.copy() for a in state[:5]]
    plan = ad.k.win_plan(ad.cfg, BUDGET.nodes)
    assert [name for name, *_ in plan] == ["fresh_beam"] * 4
    assert [name for name, *_ in ad.k.win_plan(ad.cfg, 2_000_000)] == ["fresh_beam"] * 4 + ["nested"] * 4
    name, width, noise, weights = plan[0]
    won, path, expansions, most = fresh_beam(ad.kernel, ad.cfg, state, keys, width, noise, weights, 1)
    assert won and expansions > len(path) and most == 103
    assert all(np.array_equal(a, b) for a, b in zip(before, state[:5]))
    moves = np.zeros(256, dtype=np.int32)
    h = np.empty(2, dtype=np.uint64)
    seen = set()
    for m in path:
        k = gen_moves(ad.kernel, ad.cfg, state, moves, 0, -1)
        assert m in moves[:k]
        full_hash(state, keys, h)
        assert (int(h[0]), int(h[1])) not in seen
        seen.add((int(h[0]), int(h[1])))
        make_move(ad.kernel, ad.cfg, state, keys, m)
    assert is_won(ad.kernel, ad.cfg, state)


def _plain_score(rules, pos, weights) -> float:
    """``beam_order.score`` written plainly over a reference position."""
    ranks, b, tags = rules["ranks"], base_rank(pos), foundation_suits(rules)

    def fits(c, f, j):
        tag = tags[f]
        if rules["found_build"] == "SS" or j == 0:
            return c // 13 == tag
        return c // 26 == (tag // 2) ^ (j & 1)

    def distance(c):
        j = (c % 13 + 1 - b) % ranks
        gaps = [j - len(p) for f, p in enumerate(pos.foundations) if len(p) <= j and fits(c, f, j)]
        return min(gaps, default=beam_order.FAR)

    def blocking(pile):
        us = [distance(c) for c in pile]
        return sum(1 for k, u in enumerate(us) if u > min(us[:k], default=beam_order.FAR))

    home = sum(map(len, pos.foundations))
    block = sum(blocking(p) for p in pos.reserves + pos.tableau + pos.waste) if b else 0
    return (weights[0] * home - weights[1] * len(pos.reserves[0]) - weights[2] * block
            - weights[3] * len(pos.waste[0]) + weights[4] * len(pos.stock))


@pytest.mark.parametrize("variant", ["terrace", "generals-patience", "redheads", "queen-of-italy-pysolfc"])
def test_the_score_matches_its_plain_twin_along_random_lines(variant):
    rules, dom = _rules(variant)
    ad = adapter_for(rules)
    kernel = kernel_module(rules.family)
    engine = engine_for(rules)
    rng = random.Random(7)
    weights = np.array([10.0, 3.0, 2.0, 0.5, -1.0])
    checked = 0
    for g in range(1, 5):
        pos = engine.initial_position(game(variant, g).layout)
        for _ in range(120):
            state, _ = kernel_state(ad, pos)
            assert kernel.beam_score(ad.cfg, state, weights) == pytest.approx(_plain_score(rules, pos, weights))
            checked += 1
            legal = engine.legal_moves(pos)
            if not legal:
                break
            pos = engine.apply(pos, rng.choice(legal))
    assert checked > 300


def test_the_plan_widens_with_the_budget_and_narrows_with_take_back():
    widths = {}
    for variant in ("terrace", "queen-of-italy-pysolfc"):
        rules, dom = _rules(variant)
        ad = adapter_for(rules, dom)
        widths[variant] = [{size for name, size, *_ in ad.k.win_plan(ad.cfg, n) if name == "fresh_beam"}
                           for n in (1, 200_000, 2_000_000, 10 ** 8)]
    assert widths["terrace"] == [{10}, {200}, {2_000}, {2_000}]
    assert widths["queen-of-italy-pysolfc"] == [{10}, {25}, {250}, {250}]
    rules, dom = _rules("queen-of-italy-pysolfc")
    ad = adapter_for(rules, dom)
    assert {name for name, *_ in ad.k.win_plan(ad.cfg, 2_000_000)} == {"fresh_beam"}   # no nested search with take-back


def test_a_long_winning_line_is_replaced_by_a_beams_shorter_one(monkeypatch):
    """PySolFC's Queen of Italy 57: the search wins in 17,000 nodes with a line of 1,711
    moves; a beam finds one of a few hundred, which is certified instead. Without the
    beams the search's line stays."""
    import solver.driver as driver
    rules, dom = _rules("queen-of-italy-pysolfc")
    deal = game("queen-of-italy-pysolfc", 57)
    budget = Budget(nodes=2_000_000, shorten=0)
    res = solve(deal, budget, dom)
    assert res.verdict == "won" and res.search_moves > 1_000
    assert len(res.moves) <= driver.LONG_LINE and replay(deal, res.moves).ok
    monkeypatch.setattr(beam_order, "plan", lambda cfg, nodes: [])
    plain = solve(deal, budget, dom)
    assert plain.verdict == "won" and len(plain.moves) > 1_000 and replay(deal, plain.moves).ok


def test_a_nested_search_wins_where_the_beams_do_not():
    """Terrace 19 at 2 M nodes: the search and the four beams find no win; the second
    nested search does (benchmarks/notes/terrace.md)."""
    rules, dom = _rules()
    deal = game("terrace", 19)
    res = solve(deal, Budget(nodes=2_000_000, shorten=0), dom)
    assert (res.verdict, res.proof) == ("won", "nested")
    assert replay(deal, res.moves).ok
