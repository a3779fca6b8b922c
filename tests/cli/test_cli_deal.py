"""CLI: patience variants / patience deal and their error paths."""

import json

from click.testing import CliRunner

from solver.cli import main


def run(*args):
    return CliRunner().invoke(main, list(args))


def test_variants_table():
    r = run("variants")
    assert r.exit_code == 0
    for key in ("alhambra", "granada", "reinforcements", "terrace", "queen-of-italy-pysolfc", "generals-patience",
                "blondes-and-brunettes", "falling-star", "redheads", "algerian", "234", "empty_waste_accepts_any"):
        assert key in r.output
    r = run("variants", "--options")
    assert r.exit_code == 0 and "gap_rule=auto_waste" in r.output and "valid" not in r.output.split("\n")[0]


def test_deal_alhambra_1_shows_pysolfc_layout():
    r = run("deal", "alhambra", "1")
    assert r.exit_code == 0
    assert "r0: 3D AS QC AD" in r.output
    assert "w0: 2D" in r.output
    assert "6H TH 8C 2S" in r.output and "dealing order" in r.output


def test_deal_json_out_and_check(tmp_path):
    out = tmp_path / "d.json"
    r = run("deal", "algerian", "ms40000", "--rule", "layout=B", "--out", str(out))
    assert r.exit_code == 0 and out.exists()
    doc = json.loads(out.read_text())
    assert doc["rules"]["layout"] == "B" and doc["source"]["game_number"] == "ms40000"
    r = run("deal", "--check", str(out))
    assert r.exit_code == 0 and r.output.startswith("ok:")
    r = run("deal", "terrace", "5", "--json")
    assert json.loads(r.output)["variant"] == "terrace"


def test_deal_profile():
    r = run("deal", "alhambra", "1", "--profile", "pysolfc")
    assert r.exit_code == 0 and "empty_waste_accepts_any=true" in r.output


def one_line_error(r, text):
    assert r.exit_code == 2, r.output
    assert r.exception is None or isinstance(r.exception, SystemExit)
    lines = [l for l in r.output.splitlines() if l.strip()]
    assert len(lines) >= 1 and all(l.startswith("error: ") for l in lines)
    assert text in r.output


def test_deal_errors(tmp_path):
    one_line_error(run("deal", "alhambar", "1"), "did you mean alhambra")
    one_line_error(run("deal", "alhambra", "0"), "game number 0")
    one_line_error(run("deal", "alhambra", "--", "-3"), "negative")
    one_line_error(run("deal", "alhambra", "x1"), "not a game number")
    one_line_error(run("deal", "alhambra", "1", "--rule", "colour=red"), "unknown rule option 'colour'")
    one_line_error(run("deal", "alhambra", "1", "--rule", "redeals"), "name=value")
    one_line_error(run("deal", "alhambra"), "usage")
    one_line_error(run("deal", "--check", str(tmp_path / "none.json")), "cannot read")
    bad = tmp_path / "bad.json"
    bad.write_text("[]")
    one_line_error(run("deal", "--check", str(bad)), "JSON object")
    one_line_error(run("deal", "alhambra", "1", "--out", str(tmp_path / "no" / "dir.json")), "cannot write")
