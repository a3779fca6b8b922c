"""The nested searches for wins (``solver.nested``): a win is a legal, certified line; the
state is left as it came; the search is deterministic; no win is no verdict."""

import numpy as np
import pytest

from solver.alhambra import beam_order
from solver.api import game
from solver.dispatch import gen_moves, is_won, make_move
from solver.adapter import adapter_for, expand_dominance, kernel_state
from solver.driver import Budget, solve
from solver.engine import engine_for
from solver.nested import BUF, MAX_MOVES, _level1, nested, new_seen
from solver.playback import replay
from solver.variants import make_rules

WEIGHTS = beam_order.weighting(0)


def _start(g: int):
    rules = make_rules("reinforcements", {})
    ad = adapter_for(rules, expand_dominance(rules, ["all"]))
    pos = engine_for(rules).initial_position(game("reinforcements", g).layout)
    state, keys = kernel_state(ad, pos)
    return ad, state, keys


def _plays_to_a_win(ad, state, keys, path) -> bool:
    moves = np.zeros(256, dtype=np.int32)
    for m in path:                                      # every move legal where it is played
        k = gen_moves(ad.kernel, ad.cfg, state, moves, 0, -1)
        if m not in moves[:k]:
            return False
        make_move(ad.kernel, ad.cfg, state, keys, m)
    return bool(is_won(ad.kernel, ad.cfg, state))


@pytest.mark.parametrize("level, g", [(1, 3), (2, 33)])
def test_a_nested_search_leaves_the_state_as_it_came_and_its_line_wins(level, g):
    ad, state, keys = _start(g)
    before = [a.copy() for a in state[:5]]
    won, path, expansions, most = nested(ad.kernel, ad.cfg, state, keys, level, 10.0, WEIGHTS, 1)
    assert won and most == 104 and expansions > len(path) > 100
    assert all(np.array_equal(a, b) for a, b in zip(before, state[:5]))
    assert _plays_to_a_win(ad, state, keys, path)


def test_a_nested_search_is_deterministic_and_its_failure_is_no_win():
    ad, state, keys = _start(1)                         # game 1: no level-1 line wins
    runs = [nested(ad.kernel, ad.cfg, state, keys, 1, 10.0, WEIGHTS, 5) for _ in range(2)]
    (won, path, expansions, most), again = runs
    assert not won and len(path) == 0 and 0 < most < 104 and expansions > 0
    assert (again[2], again[3]) == (expansions, most)
    other = nested(ad.kernel, ad.cfg, state, keys, 1, 10.0, WEIGHTS, 6)
    assert (other[2], other[3]) != (expansions, most)   # the seed drives the noise


def test_level_two_looks_further_than_level_one():
    ad, state, keys = _start(1)
    one = nested(ad.kernel, ad.cfg, state, keys, 1, 10.0, WEIGHTS, 1)
    two = nested(ad.kernel, ad.cfg, state, keys, 2, 10.0, WEIGHTS, 1)
    assert two[2] > 20 * one[2] and two[3] >= one[3]


def test_the_solver_certifies_a_nested_win_and_counts_its_moves(monkeypatch):
    deal = game("reinforcements", 16)                   # unknown to the search and the beams at 1 M nodes
    rules = deal.rules
    dom = expand_dominance(rules, ["all"])
    budget = Budget(nodes=20_000)
    monkeypatch.setattr(beam_order, "plan", lambda cfg, nodes: [("nested", 2, 10.0, WEIGHTS)])
    res = solve(deal, budget, dom)
    assert (res.verdict, res.proof) == ("won", "nested")
    assert replay(deal, res.moves).ok
    assert res.nodes > budget.nodes                     # the nested search's moves are counted
    monkeypatch.setattr(beam_order, "plan", lambda cfg, nodes: [])
    plain = solve(deal, budget, dom)
    assert (plain.verdict, plain.reason) == ("unknown", "nodes")


def test_solve_says_a_nested_search_found_the_line(monkeypatch):
    from click.testing import CliRunner
    from solver.cli import main
    monkeypatch.setattr(beam_order, "plan", lambda cfg, nodes: [("nested", 2, 10.0, WEIGHTS)])
    r = CliRunner().invoke(main, ["solve", "reinforcements", "16", "--budget-nodes", "20000"])
    assert r.exit_code == 0, r.output
    assert "won in" in r.output and "found by a nested search" in r.output


def _level_one_with(seen, g: int = 1, seed: int = 5):
    ad, state, keys = _start(g)
    out, count = np.zeros(BUF, np.int32), np.zeros(1, np.int64)
    home, n, won = _level1(ad.kernel, ad.cfg, state, keys, WEIGHTS, 10.0, seed, out, count, seen)
    return int(home), out[:n].tolist(), bool(won), int(count[0]), seen


def test_the_table_of_expanded_states_changes_no_line_and_no_count():
    # the table's slots and entries are ample, far too few states, or room for a few
    # moves only (nearly every rollout state expanded again): the same line, value and
    # move count
    ample = _level_one_with(new_seen(1 << 16, 1 << 18))
    small = _level_one_with(new_seen(1 << 6, 1 << 18))
    short = _level_one_with(new_seen(1 << 16, 40))
    assert ample[:4] == small[:4] == short[:4]
    stored = ample[4].fill[1]
    assert 0 < stored < ample[3] // 3                   # far fewer states than expansions
    assert small[4].fill[1] == 48                       # three quarters of 64 slots, then no more
    assert short[4].fill[0] <= 40


def test_a_level_two_search_stops_after_max_moves_with_its_best_line():
    # game 241's lines are long: unbounded, a level-2 search takes 3.86 M moves there. It
    # stops after the step that passes MAX_MOVES (a step: a level-1 search after each move,
    # well under a tenth of it) and reports the best line found, played out, not the few
    # steps taken (23 cards home at the stop, 88 at the end of the best line)
    ad, state, keys = _start(241)
    won, path, expansions, most = nested(ad.kernel, ad.cfg, state, keys, 2, 10.0, WEIGHTS, 1)
    assert not won and len(path) == 0
    assert MAX_MOVES <= expansions < 1.1 * MAX_MOVES
    assert most > 80
