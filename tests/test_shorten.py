"""Shortening a winning line (``solver.search.resplice``, ``solver.lines.shorten_line``),
against a plain twin on the reference engine: after the search of detours of at most d
moves, no state of the line reaches a later one (or a won state) in fewer moves than
the line takes."""

import random

import pytest

from solver import driver
from solver import lines
from solver.lines import expand_line
from solver.driver import Budget, solve
from solver.engine import engine_for
from solver.miniature import random_miniature_deal
from solver.playback import replay


def plain_detours(deal, moves, depth):
    """Detours of at most ``depth`` moves on the reference engine: (i, j, k) where the
    state after move i reaches the state after move j (j - i > k moves later), or a won
    state, in k moves."""
    e = engine_for(deal.rules)
    line = [e.initial_position(deal.layout)]
    for m in moves:
        line.append(e.play(line[-1], e.legal_form(line[-1], m)))
    last = {p: j for j, p in enumerate(line)}          # the latest index of each state
    found = []
    for i, p in enumerate(line[:-1]):
        frontier = [p]
        for k in range(1, depth + 1):
            frontier = [q for f in frontier for _, q in e.successors(f)]
            for q in frontier:
                j = len(line) - 1 if e.is_won(q) else last.get(q, -1)
                if j - i > k:
                    found.append((i, j, k))
            frontier = [q for q in frontier if not e.is_won(q)]
    return found


def won_deals(variant, n, seed):
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        deal = random_miniature_deal(variant, rng, vary=True, small=True)
        res = solve(deal, Budget(nodes=200_000, memory=1 << 22, shorten=0))
        if res.verdict == "won" and len(res.moves) > 8:
            out.append(deal)
    return out


@pytest.mark.parametrize("variant", ["algerian", "terrace", "granada"])
def test_no_one_move_detour_is_left(variant):
    for deal in won_deals(variant, 6, seed=11):
        res = solve(deal, Budget(nodes=200_000, memory=1 << 22, shorten=0))
        assert len(res.moves) <= res.search_moves
        assert replay(deal, res.moves).ok
        assert plain_detours(deal, res.moves, 1) == [], deal.source


@pytest.mark.parametrize("variant", ["algerian", "terrace"])
def test_no_two_move_detour_is_left_with_nodes_to_spare(variant, monkeypatch):
    monkeypatch.setattr(lines, "MAX_DETOUR", 2)
    had = 0
    for deal in won_deals(variant, 8, seed=12):
        one = solve(deal, Budget(nodes=200_000, memory=1 << 22, shorten=0))
        two = solve(deal, Budget(nodes=200_000, memory=1 << 22, shorten=10 ** 9))
        assert replay(deal, two.moves).ok
        assert len(two.moves) <= len(one.moves) and two.search_moves == one.search_moves
        assert plain_detours(deal, two.moves, 2) == [], deal.source
        had += plain_detours(deal, one.moves, 2) != []
    assert had >= 1          # the one-move pass had left two-move detours, and they are gone


def test_the_budget_bounds_the_detour_search():
    """With no nodes for detours the line is the one-move pass's; a won line is never
    longer than the search's own, and the figures say both lengths."""
    from solver.formats import pysolfc_deal
    from solver.variants import make_rules
    deal = pysolfc_deal(make_rules("algerian"), 1)
    none = solve(deal, Budget(nodes=300_000, shorten=0))
    some = solve(deal, Budget(nodes=300_000, shorten=200_000))
    assert none.search_moves == some.search_moves > len(none.moves) > len(some.moves)
    assert some.solution().producer["search_line_moves"] == some.search_moves
    assert some.solution().producer["budget"]["shorten_nodes"] == 200_000


@pytest.mark.parametrize("variant,dominance", [("algerian", ()), ("terrace", ()),
                                               ("alhambra", ("deal_through_inert",))])
def test_search_line_length_counts_the_notation_s_moves(variant, dominance, monkeypatch):
    """``search_moves`` is counted without writing the line (``line_length``) and equals
    the length of the written line, merged deals included."""
    counted = []
    real = driver.line_length

    def checked(ad, start_pos, path):
        n = real(ad, start_pos, path)
        assert n == len(expand_line(ad, start_pos, path))
        counted.append((n, len(path)))
        return n
    monkeypatch.setattr(driver, "line_length", checked)
    rng = random.Random(13)
    for _ in range(30):
        deal = random_miniature_deal(variant, rng, vary=True, small=True)
        solve(deal, Budget(nodes=50_000, memory=1 << 22, shorten=0), dominance)
    assert len(counted) >= 5 and sum(n for n, _ in counted) > 100
    if dominance:
        assert any(n > k for n, k in counted)          # some deal stood for several
