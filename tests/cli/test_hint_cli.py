"""CLI: `patience hint` on a game in play, position files from `replay --out`, bad input."""

import json

from click.testing import CliRunner

import solver
from solver.cli import main
from solver.moves import format_moves

# Terrace #1: 94 moves after which the game can still be won, then a deal that loses it
# (found with the tool: random play from move 20 of a winning line, then `hint`).
LOSING_LINE = "base:0:8C t0>f6:8D t6>t8:QC w0>f2:8S t6>t5:TD t6>t0:AC t2>t6:6H deal w0>f0:9H t3>f0:TC w0>f3:8S deal w0>f6:9S t5>f6:TD t5>f6:JS w0>f4:8H w0>f0:JH t8>f0:QC t8>f0:KD t0>f0:AC t2>f0:2H deal t1>t5:6C deal w0>f1:8C deal deal w0>f0:3S deal w0>t1:9C t1>f4:9C deal t7>f0:4H deal deal deal deal t5>t7:6C deal t1>f4:TH deal deal deal t7>t5:6C t5>t7:6C deal deal t1>f4:JC deal deal t6>t1:6H t1>t6:6H deal t7>t5:6C deal deal deal deal deal deal deal deal deal deal w0>f2:9D deal deal deal t6>t1:6H deal deal deal deal deal deal deal deal deal deal t5>t7:6C deal w0>f3:9H deal t1>t6:6H w0>t4:3H deal deal deal t7>t5:6C deal deal deal deal t5>t7:6C deal"


def run(*args):
    return CliRunner().invoke(main, list(args))


def test_twenty_moves_of_a_winning_line_are_still_won_and_the_next_move_named():
    deal = solver.game("terrace", 1)
    line = solver.solve(deal).moves
    r = run("hint", "terrace", "1", format_moves(line[:20]), "--move-nodes", "50000")
    assert r.exit_code == 0, r.output
    assert "after 20 moves" in r.output and "won: still winnable" in r.output
    nxt = r.output.split("next move: ")[1].split()[0]
    assert solver.replay(deal, line[:20] + solver.api.parse_moves(nxt)).error is None
    assert "<- the next move of the line" in r.output and "legal moves (" in r.output


def test_the_move_that_lost_it_is_named():
    r = run("hint", "terrace", "1", LOSING_LINE)
    assert r.exit_code == 0, r.output
    assert "after 95 moves (the last: deal): lost: no line from here wins (complete search)" in r.output
    assert "the move that lost it: move 95 (deal); after move 94 the game could still be won" in r.output
    assert run("hint", "terrace", "1", LOSING_LINE, "--steps", "94", "--no-moves").output.count("won: still winnable") == 1


def test_a_position_file_from_replay_out(tmp_path):
    pos = tmp_path / "pos.json"
    r = run("replay", "terrace", "1", LOSING_LINE, "--steps", "94", "--out", str(pos), "-q")
    assert r.exit_code == 0, r.output
    assert json.loads(pos.read_text())["format"] == "patience-position"
    r = run("hint", str(pos), "--json")
    assert r.exit_code == 0, r.output
    doc = json.loads(r.output)
    assert doc["verdict"] == "won" and len(doc["played"]) == 94
    by_move = {m["move"]: m["verdict"] for m in doc["moves"]}
    assert by_move["deal"] == "lost" and doc["next_move"] in by_move and by_move[doc["next_move"]] == "won"
    r = run("replay", str(pos))            # a position file replays like a solution file: not won
    assert r.exit_code == 1


def test_bad_input_is_one_line():
    r = run("hint", "algerian", "1", "r0>f0:KS")
    assert r.exit_code == 2 and r.output.count("\n") == 1 and "move 1 (r0>f0:KS) is illegal" in r.output
    r = run("hint", "nosuchgame", "1")
    assert r.exit_code == 2 and r.output.startswith("error:")


def test_a_missing_position_file_and_a_variant_alone_are_one_line_each():
    r = run("hint", "no/such/pos.json")
    assert r.exit_code == 2 and r.output == "error: cannot read no/such/pos.json: no such file\n"
    r = run("hint", "terrace")
    assert r.exit_code == 2 and r.output.startswith("error: usage: patience hint ")


def test_replay_out_never_replaces_its_input(tmp_path):
    sol = tmp_path / "sol.json"
    assert run("solve", "algerian", "1", "--out", str(sol)).exit_code == 0
    before = sol.read_text()
    r = run("replay", str(sol), "--steps", "3", "--out", str(sol))
    assert r.exit_code == 2 and "is the input file" in r.output and sol.read_text() == before
