"""The certified wins kept in ``benchmarks/wins/`` (standard deals of The Reinforcements that
the published table leaves unknown): each file's deal is PySolFC's deal of its game number
under the standard rules, and its moves win it on the reference engine."""

from pathlib import Path

import pytest

from solver.lines import certify
from solver.formats import pysolfc_deal, read_solution
from solver.variants import make_rules

WINS = sorted((Path(__file__).resolve().parents[2] / "benchmarks" / "wins").glob("*.json"))


def test_there_are_wins_to_check():
    assert len(WINS) >= 2


@pytest.mark.parametrize("path", WINS, ids=lambda p: p.stem)
def test_a_kept_win_replays_on_pysolfc_s_deal(path):
    solution, deal = read_solution(path)
    rules = make_rules("reinforcements")
    assert deal.rules.as_dict() == rules.as_dict()
    game = int(deal.source["game_number"])
    assert path.stem == f"reinforcements-{game}"
    want = pysolfc_deal(rules, game)
    assert deal.checksum == want.checksum
    assert solution.outcome == "won"
    assert len(certify(want, solution.moves)) == len(solution.moves)
