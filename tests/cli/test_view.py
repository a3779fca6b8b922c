"""CLI: ``patience view``, the page that shows a solution step by step. These tests read the
page as text (its embedded positions, its header); ``test_view_browser.py`` drives it in a
real browser."""

import dataclasses
import json
import re

import pytest
from click.testing import CliRunner

from solver import cards
from solver.cli import main
from solver.engine import IllegalMove
from solver.formats import Solution, write_deal, write_solution
from solver.moves import format_move, parse_moves
from solver.playback import replay
from solver.view import script_json, view_html
from tests.test_replay_oracle import HAND_MADE

# The first moves of the line ``patience solve algerian 1`` found (0.33.0): legal on the
# reference engine, whatever a later search finds. Some leave the card out, as a player may.
ALGERIAN_1_START = "r5>f2 r1>t6:7D r1>t4:6H t1>t4:5H r5>t1:3S r2>t1:4S deal"


def run(*args):
    return CliRunner().invoke(main, list(args))


def page_data(page: str) -> dict:
    m = re.search(r'<script type="application/json" id="view-data">(.*?)</script>', page, re.S)
    assert m, "no embedded positions"
    return json.loads(m.group(1))


def shown_positions(data: dict) -> list[dict]:
    """Every position the page can show: the start, then each move's changed piles laid over
    the position before (this test's own reading of the page's data)."""
    out = [dict(data["start"])]
    for step in data["steps"]:
        out.append({**out[-1], **step["set"]})
    return out


def engine_positions(deal, moves) -> list[dict]:
    """The reference engine's position after each number of moves, as the page labels piles."""
    seen = []
    result = replay(deal, moves, lambda i, m, pos: seen.append(pos))
    assert result.error is None
    return [flat(p) for p in [result.start, *seen]]


def flat(pos) -> dict:
    out = {f"{g}{i}": " ".join(cards.text(c) for c in p) for g in "frtw" for i, p in enumerate(pos.group(g))}
    out.update(stock=len(pos.stock), redeals=pos.redeals_used, phase=pos.phase)
    return out


def one_error_line(r) -> str:
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), r.stderr
    assert "Traceback" not in r.output
    return lines[0]


@pytest.mark.parametrize("family", list(HAND_MADE))
def test_view_writes_a_page_of_the_engine_s_positions(tmp_path, family):
    """A solution file of each family: one page whose every position is the reference
    engine's, every move in notation, the verdict, rules and producer in the header."""
    deal, line = HAND_MADE[family]
    moves = parse_moves(line)
    sol = tmp_path / "sol.json"
    write_solution(Solution("won", moves, producer={"solver": "patience-solver 9.9.9", "budget": {"nodes": 12345},
                                                    "nodes": 77}), deal, sol)
    out = tmp_path / "game.html"
    r = run("view", str(sol), "--out", str(out))
    assert r.exit_code == 0, r.output
    assert f"wrote {out}" in r.stderr
    page = out.read_text()
    data = page_data(page)
    assert shown_positions(data) == engine_positions(deal, moves)
    assert [s["move"] for s in data["steps"]] == [format_move(m) for m in moves]
    assert data["groups"] == {g: len(getattr(deal.layout, name)) for g, name in
                              (("f", "foundations"), ("r", "reserves"), ("t", "tableau"), ("w", "waste"))}
    for text in ('class="badge won"', deal.rules.hash(), deal.rules.describe(), "patience-solver 9.9.9",
                 "12,345 nodes", deal.label()):
        assert text in page, text


def test_a_move_list_on_a_pysolfc_deal_and_on_a_deal_file(tmp_path):
    """``VARIANT GAME_NUMBER MOVES`` and ``DEAL_FILE MOVES``: a line that does not win is still
    shown (verdict "not won", a note on stderr); a move written without its card is shown
    with it."""
    import solver
    deal = solver.game("algerian", 1)
    moves = parse_moves(ALGERIAN_1_START)
    out = tmp_path / "game.html"
    r = run("view", "algerian", "1", ALGERIAN_1_START, "--out", str(out))
    assert r.exit_code == 0, r.output
    assert "note: after all 7 moves the game is not won" in r.stderr
    page = out.read_text()
    data = page_data(page)
    assert shown_positions(data) == engine_positions(deal, moves)
    assert data["steps"][0]["move"] == "r5>f2:AH" and data["steps"][0]["src"] == ["r5"]
    assert data["steps"][0]["dst"] == ["f2"] and data["steps"][6]["src"] == ["stock"]
    assert 'class="badge not-won"' in page and "Algerian Patience #1" in page
    deal_file = tmp_path / "deal.json"
    write_deal(deal, deal_file)
    r = run("view", str(deal_file), ALGERIAN_1_START, "--out", str(out))
    assert r.exit_code == 0, r.output
    assert shown_positions(page_data(out.read_text())) == engine_positions(deal, moves)


def test_a_hostile_note_is_escaped(tmp_path):
    """A deal's source note is the user's text: it is shown escaped, and no text can close the
    script element that holds the positions."""
    deal, line = HAND_MADE["algerian"]
    hostile = '</script><script>alert("x")</script><img src=x onerror=alert(1)> & \u2028'
    deal = dataclasses.replace(deal, source={"kind": "custom", "note": hostile})
    deal_file, out = tmp_path / "deal.json", tmp_path / "game.html"
    write_deal(deal, deal_file)
    r = run("view", str(deal_file), line, "--out", str(out))
    assert r.exit_code == 0, r.output
    page = out.read_text()
    assert page.count("<script") == 2 and page.count("</script>") == 2      # the data's and the page's own
    assert "<img" not in page and "&lt;/script&gt;&lt;script&gt;alert(&quot;x&quot;)" in page
    assert page_data(page)["steps"]                                          # still read whole
    # The embedded JSON itself: no character that HTML reads inside a script element.
    text = script_json({"note": hostile, "k": "a<b>c&d"})
    assert not set("<>&") & set(text) and json.loads(text) == {"note": hostile, "k": "a<b>c&d"}


def test_the_page_needs_no_network(tmp_path):
    deal, line = HAND_MADE["terrace"]
    page = view_html(deal, parse_moves(line))
    assert not re.search(r"https?:|ftp:|//[\w.-]+\.[a-z]{2,}/", page, re.I)
    for needle in ("<link", "<img", "<iframe", " src=", "url(", "@import", "fetch(", "XMLHttpRequest"):
        assert needle not in page, needle


@pytest.mark.parametrize("args, says", [
    (["algerian", "1", "deal"], "--out FILE is required"),
    (["nothing.json", "--out", "x.html"], "nothing.json: no such file"),
    (["algerian", "1", "q>z", "--out", "x.html"], "q>z"),
    (["no-such-variant", "1", "deal", "--out", "x.html"], "unknown variant"),
    (["a", "b", "c", "d", "--out", "x.html"], "usage: patience view"),
    (["algerian", "1", "deal", "--out", "."], "it is a folder"),
    (["deal", "--out", "x.html"], "a move list needs a deal"),
])
def test_bad_input_is_one_line_and_status_2(tmp_path, monkeypatch, args, says):
    monkeypatch.chdir(tmp_path)
    r = run("view", *args)
    assert r.exit_code == 2, r.output
    assert says in one_error_line(r)
    assert not (tmp_path / "x.html").exists()


def test_out_never_replaces_the_solution_file(tmp_path):
    deal, line = HAND_MADE["alhambra"]
    sol = tmp_path / "sol.json"
    write_solution(Solution("won", parse_moves(line)), deal, sol)
    before = sol.read_text()
    r = run("view", str(sol), "--out", str(sol))
    assert r.exit_code == 2 and "is the input file" in one_error_line(r)
    assert sol.read_text() == before


def test_an_illegal_line_exits_1_and_writes_nothing(tmp_path):
    """As replay: the first illegal move named, status 1; so for a file whose claim its line
    contradicts. ``view_html`` raises ``IllegalMove``."""
    deal, line = HAND_MADE["alhambra"]
    bad = "r0>f0:2C r0>f1:3C"
    deal_file, out = tmp_path / "deal.json", tmp_path / "game.html"
    write_deal(deal, deal_file)
    r = run("view", str(deal_file), bad, "--out", str(out))
    assert r.exit_code == 1
    assert one_error_line(r).startswith("error: move 2 (r0>f1:3C) is illegal: ")
    assert not out.exists()
    with pytest.raises(IllegalMove, match="move 2"):
        view_html(deal, parse_moves(bad))
    sol = tmp_path / "sol.json"
    write_solution(Solution("lost", parse_moves(line)), deal, sol)
    r = run("view", str(sol), "--out", str(out))
    assert r.exit_code == 1 and "claims 'lost', but its line wins" in one_error_line(r)
    assert not out.exists()


def test_a_file_without_a_line_shows_the_deal_and_its_verdict(tmp_path):
    """A "lost" or "unknown" solution file has no line: the page shows the deal, step 0 of 0,
    and the verdict with its reason."""
    deal, _ = HAND_MADE["terrace"]
    sol, out = tmp_path / "sol.json", tmp_path / "game.html"
    write_solution(Solution("unknown", [], reason="nodes"), deal, sol)
    r = run("view", str(sol), "--out", str(out))
    assert r.exit_code == 0, r.output
    page = out.read_text()
    data = page_data(page)
    assert data["steps"] == [] and shown_positions(data) == engine_positions(deal, [])
    assert 'class="badge unknown"' in page and "reason: nodes" in page
