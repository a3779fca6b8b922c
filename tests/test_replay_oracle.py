"""Replay (the certificate check) and the exhaustive oracle, for each family."""

import json
import random

import pytest
from click.testing import CliRunner

from solver.cli import main
from solver.engine import engine_for
from solver.formats import Solution, custom_deal, write_solution
from solver.layout import Layout
from solver.miniature import random_miniature_deal
from solver.moves import format_moves, parse_moves
from solver.oracle import exhaustive_search
from solver.playback import replay
from solver.variants import CATALOGUE
from tests.support.helpers import engine, pile, position


def layout(foundations=(), reserves=(), tableau=(), waste=(), stock=""):
    return Layout(tuple(pile(p) for p in foundations), tuple(pile(p) for p in reserves),
                  tuple(pile(p) for p in tableau), tuple(pile(p) for p in waste), pile(stock))


HAND_MADE = {
    "alhambra": (
        custom_deal("alhambra", layout(["AC", "3C"], ["3C 2C"], [], ["AC"], "2C"),
                    dict(ranks=3, suits=1, reserves=1, reserve_size=2)),
        "r0>f0:2C r0>f0:3C deal w0>f1:2C w0>f1:AC"),
    "terrace": (
        custom_deal("falling-star", layout(["2C", "", "", ""], ["3H"], ["2H", "2C"], ["3C"], "3C AH AC 2H 3H AH AC"),
                    dict(ranks=3, suits=2, reserve_size=1, tableau_piles=2)),
        "r0>f0:3H t0>f2:2H w0>f2:3C w0>f2:AH w0>f0:AC w0>f3:2H t1>f1:2C t0>f3:3C t1>f1:3H t1>f1:AC t0>f3:AH"),
    "algerian": (
        custom_deal("algerian", layout(["", "3C"], ["2C"], ["AC"], [], "3C AC 2C"),
                    dict(ranks=3, suits=1, reserves=1, reserve_size=1, tableau_piles=1)),
        "t0>f0:AC r0>f1:2C deal r0>f1:AC deal t0>f0:2C r0>f0:3C"),
}


@pytest.mark.parametrize("family", list(HAND_MADE))
def test_hand_made_winning_line_replays(family):
    deal, line = HAND_MADE[family]
    r = replay(deal, parse_moves(line))
    assert r.ok, r.message(parse_moves(line))


@pytest.mark.parametrize("family", list(HAND_MADE))
def test_truncated_solution_is_not_won(family):
    deal, line = HAND_MADE[family]
    moves = parse_moves(line)[:-1]
    r = replay(deal, moves)
    assert not r.won and r.error is None
    assert "is not won (1 cards not on the foundations)" in r.message(moves)


def test_illegal_move_named_with_number_and_reason():
    deal, line = HAND_MADE["alhambra"]
    moves = parse_moves("r0>f0:2C r0>f1:3C")
    r = replay(deal, moves)
    assert r.error_index == 1
    assert r.message(moves) == "move 2 (r0>f1:3C) is illegal: 3C cannot go from r0 to f1 (onto 3C)"
    moves = parse_moves("r0>f0:3C")
    assert replay(deal, moves).message(moves) == "move 1 (r0>f0:3C) is illegal: the top of r0 is 2C, not 3C"
    moves = parse_moves("w5>f0:2C")
    assert "there is no pile w5" in replay(deal, moves).message(moves)


def test_oracle_finds_the_hand_made_wins():
    for deal, _ in HAND_MADE.values():
        e = engine_for(deal.rules)
        res = exhaustive_search(e, e.initial_position(deal.layout))
        assert res.verdict == "won"
        assert replay(deal, res.moves).ok


KNOWN_LOST = {
    # 3C on top of the reserve needs a 2C that lies beneath it, or under the AC.
    "alhambra": (engine("alhambra", ranks=3, suits=1, reserves=2, reserve_size=2),
                 position(["AC", "3C"], ["2C AC 3C", "2C"], [], [""], "")),
    # The last AC needs a red 3 on a foundation; the only one left lies beneath it.
    "terrace": (engine("terrace", ranks=3, suits=2, reserve_size=8, tableau_piles=1, base_choices=1),
                position(["2C", "2C", "2H", "2H"], ["3H AC AC AH AH 3H 3C 3C"], [""], [""], "")),
    # 3H needs AH and 2H, which lie beneath it; nothing else can move.
    "algerian": (engine("algerian", ranks=3, suits=2, reserves=1, reserve_size=9, tableau_piles=1),
                 position(["", "", "3C", "3H"], ["AC AC AH AH 2C 2C 2H 2H 3H"], ["3C"], [], "")),
}


@pytest.mark.parametrize("family", list(KNOWN_LOST))
def test_oracle_proves_known_lost_positions_lost(family):
    e, p = KNOWN_LOST[family]
    res = exhaustive_search(e, p)
    assert res.verdict == "lost" and res.moves == []


@pytest.mark.parametrize("variant", [v.key for v in CATALOGUE])
def test_oracle_on_random_miniatures_every_win_replays(variant):
    rng = random.Random(hash(variant) & 0xFFFF)
    verdicts = set()
    for _ in range(12):
        deal = random_miniature_deal(variant, rng, vary=True)
        e = engine_for(deal.rules)
        res = exhaustive_search(e, e.initial_position(deal.layout), max_states=20000)
        verdicts.add(res.verdict)
        if res.verdict == "won":
            assert replay(deal, res.moves).ok
    assert "won" in verdicts


def test_oracle_state_limit_gives_unknown():
    deal = random_miniature_deal("terrace", random.Random(3))
    e = engine_for(deal.rules)
    assert exhaustive_search(e, e.initial_position(deal.layout), max_states=1).verdict in ("unknown", "won")


# ----- patience replay ------------------------------------------------------------------

def run(*args, input=None):
    return CliRunner().invoke(main, list(args), input=input)


def test_cli_replay_solution_file_and_move_list(tmp_path):
    deal, line = HAND_MADE["terrace"]
    sol = tmp_path / "sol.json"
    write_solution(Solution("won", parse_moves(line), producer={"by": "hand"}), deal, sol)
    r = run("replay", str(sol))
    assert r.exit_code == 0 and r.output.strip().endswith("won in 11 moves")
    from solver.formats import write_deal
    df = tmp_path / "deal.json"
    write_deal(deal, df)
    r = run("replay", str(df), line, "--show")
    assert r.exit_code == 0 and "Foundations" in r.output
    r = run("replay", str(df), "-", input=line)
    assert r.exit_code == 0


def test_cli_replay_pysolfc_game_and_errors(tmp_path):
    r = run("replay", "alhambra", "1", "deal deal r0>f3:AD")
    assert r.exit_code == 1
    assert "move 3 (r0>f3:AD) is illegal" in r.output
    r = run("replay", "alhambra", "1", "deal")
    assert r.exit_code == 1 and "not won" in r.output
    r = run("replay", "alhambra", "1", "jump")
    assert r.exit_code == 2 and "not a move" in r.output
    r = run("replay", "deal deal")
    assert r.exit_code == 2 and "needs a deal" in r.output
    deal, line = HAND_MADE["alhambra"]
    sol = tmp_path / "s.json"
    write_solution(Solution("won", parse_moves(line)), deal, sol)
    r = run("replay", "alhambra", "1", str(sol))
    assert r.exit_code == 2 and "the solution is for deal" in r.output
    r = run("replay", "alhambra", "1", str(tmp_path / "none.json"))
    assert r.exit_code == 2 and "cannot read" in r.output


def test_solution_file_round_trip(tmp_path):
    from solver.formats import read_solution
    deal, line = HAND_MADE["algerian"]
    p = tmp_path / "s.json"
    write_solution(Solution("won", parse_moves(line), producer={"solver": "x", "nodes": 5}), deal, p)
    sol, d2 = read_solution(p)
    assert format_moves(sol.moves) == line and d2.checksum == deal.checksum and sol.producer["nodes"] == 5
    doc = json.loads(p.read_text())
    assert doc["outcome"] == "won" and doc["rules"]["tableau_piles"] == 1


@pytest.mark.parametrize("variant", [v.key for v in CATALOGUE])
def test_legal_form_agrees_with_legal_moves(variant):
    """apply's one-move legality test names exactly the moves legal_moves lists."""
    from solver.moves import Move, CARD_MOVE, DEAL, REDEAL
    rng = random.Random(11)
    for _ in range(5):
        deal = random_miniature_deal(variant, rng, vary=True)
        e = engine_for(deal.rules)
        pos = e.initial_position(deal.layout)
        for _ in range(30):
            legal = e.legal_moves(pos)
            names = {str(m) for m in legal}
            refs = [r for k in "frtw" for r in pos.refs(k)] + [("w", 9)]
            candidates = [Move(CARD_MOVE, a, b, -1) for a in refs for b in refs] + [Move(DEAL), Move(REDEAL)]
            got = {str(x) for x in (e.legal_form(pos, c) for c in candidates) if x is not None}
            assert got == {n for n in names if not n.startswith("base")}
            if not legal:
                break
            pos = e.play(pos, rng.choice(legal))


def test_cli_replay_long_move_list_and_a_file_named_like_a_move(tmp_path, monkeypatch):
    """A real solution's move text is far longer than a file name may be: it is read as
    moves, not tried as a path (OSError: File name too long). A file named ``deal`` in the
    working directory does not shadow the move list ``deal``, and a note says which was read."""
    r = run("replay", "algerian", "1", " ".join(["deal"] * 52))
    assert r.exit_code == 1 and "move 6 (deal) is illegal" in r.output, r.output
    monkeypatch.chdir(tmp_path)
    (tmp_path / "deal").write_text("not a solution")
    r = run("replay", "alhambra", "1", "deal")
    assert r.exit_code == 1 and "not won" in r.output and "as a move list" in r.output, r.output
