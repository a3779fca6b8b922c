"""`patience report`: the published win-rate table, recomputed from the records it ships."""

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from solver.cli import main
from solver.report import PLAN, markdown, read_files, table_from_files
from solver.stats import render

RESULTS = Path(__file__).resolve().parent.parent / "results"


def run(*args):
    return CliRunner().invoke(main, list(args))


@pytest.mark.skipif(not (RESULTS / "records.csv.gz").exists(), reason="no table shipped yet")
def test_the_shipped_table_is_the_one_its_records_give():
    stats = table_from_files(RESULTS)
    assert render(stats, "csv") == (RESULTS / "win-rates.csv").read_text()
    assert markdown(stats, read_files(RESULTS)[1]) == (RESULTS / "win-rates.md").read_text()
    rows, sets = read_files(RESULTS)
    assert {(v["variant"], v["profile"]) for v in sets.values()} == {(e.variant, e.profile) for e in PLAN}
    assert sum(s.games for s in stats) == len(rows)


def test_report_solves_the_plan_resumably_and_writes_the_table(tmp_path):
    db, out = str(tmp_path / "r.db"), tmp_path / "res"
    args = ["report", "--db", db, "--out", str(out), "--games", "3", "--only", "algerian", "--only", "generals-patience",
            "--jobs", "1"]
    r = run(*args)
    assert r.exit_code == 0, r.output
    rows, sets = read_files(out)
    assert len(rows) == 9 and len(sets) == 3            # algerian, algerian (pysolfc), generals-patience
    stats = table_from_files(out)
    assert [s.variant for s in stats] == ["algerian", "algerian (pysolfc)", "generals-patience"]
    assert all(s.games == 3 for s in stats)
    assert render(stats, "csv") == (out / "win-rates.csv").read_text()
    md = (out / "win-rates.md").read_text()
    assert "| algerian (pysolfc) |" in md and "games 1-3 (the plan: 10,000; not all run yet), 1,000,000 nodes per deal" in md
    assert all(json.loads(json.dumps(v))["rules"] for v in sets.values())
    first = {p.name: p.read_bytes() for p in out.iterdir()}
    r = run(*args)                                      # everything stored: nothing solved again
    assert r.exit_code == 0 and r.output.count("3 already stored, 0 to solve") == 3, r.output
    assert {p.name: p.read_bytes() for p in out.iterdir()} == first      # the same bytes
