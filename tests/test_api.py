"""The public Python API (``solver.api``, importable from the package root)."""

import subprocess
import sys

import pytest

import solver
from solver.errors import RulesError
from solver.formats import dumps_deal
from solver.moves import format_move


def test_import_solver_is_light_and_names_every_api_function():
    """``import solver`` and a deal do not load numba (every command imports the package);
    every name in ``__all__`` resolves."""
    code = ("import sys, solver; solver.game('terrace', 1); print('numba' in sys.modules); "
            "print(all(getattr(solver, n) is not None for n in solver.__all__))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "True"]


def test_solve_then_replay_the_readme_example():
    deal = solver.game("terrace", 1)
    result = solver.solve(deal, nodes=1_000_000)
    assert result.verdict == "won" and result.base() is not None
    assert result.dominance and "reserve_order" in result.dominance       # "all" by default
    assert solver.replay(deal, result.moves).ok
    text = " ".join(format_move(m) for m in result.moves)
    assert solver.replay(deal, text).ok and solver.replay(deal, text.split()).ok
    bad = solver.replay(deal, result.moves[:-1])
    assert not bad.ok and "not won" in bad.message(result.moves[:-1])


def test_solve_budget_and_rules():
    deal = solver.game("generals-patience", 5)
    assert solver.solve(deal, nodes=20_000).verdict == "lost"
    r = solver.solve(deal, nodes=20_000, dominance=())
    assert (r.verdict, r.reason, r.dominance) == ("unknown", "nodes", ())
    assert solver.rules("generals-patience", reserve_size=11)["reserve_size"] == 11
    assert solver.game(solver.rules("generals-patience"), 5).layout == deal.layout
    with pytest.raises(RulesError):
        solver.rules("no-such-game")
    with pytest.raises(RulesError):
        solver.rules("terrace", no_such_option=1)


def test_verify_a_file_of_deals(tmp_path):
    pack = tmp_path / "pack.jsonl"
    deals = [solver.game("falling-star", n) for n in (5, 8)]
    pack.write_text("".join(dumps_deal(d, indent=None) + "\n" for d in deals))
    got = list(solver.verify(pack, nodes=100_000))
    assert [d.layout for d, _ in got] == [d.layout for d in deals]
    assert [r.verdict for _, r in got] == ["lost", "won"]
    assert solver.replay(got[1][0], got[1][1].moves).ok
    one = tmp_path / "one.json"
    one.write_text(dumps_deal(deals[1]))
    assert solver.read_deal(one).layout == deals[1].layout
    assert [d.layout for d in solver.read_deals(pack)] == [d.layout for d in deals]


def test_hint_a_game_in_play():
    """``solver.hint``: the position after moves given as text, its next move, each legal
    move's verdict, and the line from the position replaying to a win from the opening."""
    deal = solver.game("algerian", 1)
    line = solver.solve(deal).moves
    h = solver.hint(deal, " ".join(str(m) for m in line[:10]), move_nodes=100_000)
    assert h.verdict == "won" and h.next_move() is not None
    assert solver.replay(deal, line[:10] + h.result.moves).ok
    assert any(v.verdict == "won" and str(v.move) == str(h.next_move()) for v in h.moves)
    assert h.where_lost is None
