"""`patience report`: the published win-rate table, recomputed from the records it ships."""

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from solver.cli import main
from solver.report import PLAN, entry_rules, markdown, read_files, table_from_files
from solver.stats import render

RESULTS = Path(__file__).resolve().parents[2] / "results"


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
    first = {str(p.relative_to(out)): p.read_bytes() for p in out.rglob('*') if p.is_file()}
    shutil.rmtree(out)
    r = run(*args)                                      # everything stored: nothing solved again
    assert r.exit_code == 0 and r.output.count("3 already stored, 0 to solve") == 3, r.output
    assert {str(p.relative_to(out)): p.read_bytes() for p in out.rglob('*') if p.is_file()} == first      # the same bytes
    r = run(*args)                                      # everything published: not even looked up
    assert r.exit_code == 0 and r.output.count("3 of 3 games already done") == 3, r.output
    assert "already stored" not in r.output
    assert {str(p.relative_to(out)): p.read_bytes() for p in out.rglob('*') if p.is_file()} == first


def test_report_goes_on_from_the_published_records_without_the_store(tmp_path):
    out = tmp_path / "res"
    first = ["report", "--db", str(tmp_path / "a.db"), "--out", str(out), "--games", "2", "--only", "granada",
             "--jobs", "1"]
    assert run(*first).exit_code == 0
    published = read_files(out)[0]
    # another machine: the published files, no store
    db = tmp_path / "b.db"
    r = run("report", "--db", str(db), "--out", str(out), "--games", "4", "--only", "granada", "--jobs", "1")
    assert r.exit_code == 0, r.output
    assert "2 of 4 games already done" in r.output and "2 seeds, 0 already stored, 2 to solve" in r.output
    from solver.store import Store
    store = Store(db, readonly=True)
    assert sorted(x["game"] for x in store.latest()) == ["3", "4"]          # only the new games were solved
    store.close()
    rows = read_files(out)[0]
    assert [x["game"] for x in rows] == ["1", "2", "3", "4"]
    def untiered(records):             # the tiers are calibrated again on the longer row
        return [{k: v for k, v in x.items() if k != "tier"} for x in records]
    assert untiered(rows[:2]) == untiered(published)                       # the published records kept as they were
    assert table_from_files(out)[0].games == 4
    # records of another solver version are solved again
    sets = json.loads((out / "rule-sets.json").read_text())
    for v in sets.values():
        v["solver_versions"] = ["patience-solver 0.0.1"]
    (out / "rule-sets.json").write_text(json.dumps(sets))
    r = run("report", "--db", str(tmp_path / "c.db"), "--out", str(out), "--games", "4", "--only", "granada",
            "--jobs", "1")
    assert r.exit_code == 0 and "already done" not in r.output and "4 to solve" in r.output, r.output


def test_report_writes_the_published_records_again_with_no_store(tmp_path):
    out = tmp_path / "res"
    assert run("report", "--db", str(tmp_path / "a.db"), "--out", str(out), "--games", "2", "--only", "granada",
               "--jobs", "1").exit_code == 0
    before = {str(p.relative_to(out)): p.read_bytes() for p in out.rglob('*') if p.is_file()}
    r = run("report", "--db", str(tmp_path / "none.db"), "--out", str(out), "--no-solve", "--only", "granada",
            "--games", "2")
    assert r.exit_code == 0, r.output
    assert {str(p.relative_to(out)): p.read_bytes() for p in out.rglob('*') if p.is_file()} == before and not (tmp_path / "none.db").exists()


@pytest.mark.skipif(not (RESULTS / "records.csv.gz").exists(), reason="no table shipped yet")
def test_rows_kept_from_an_earlier_version_are_what_this_version_gives(tmp_path):
    """Each shipped row that a report keeps although an earlier version made it
    (``same_results``): three of its decided games, re-solved now, give the same verdicts
    and node counts (the search is deterministic, so the counts tell a changed search)."""
    from solver.batch import SOLVER_VERSION
    from solver.batch import same_results
    from solver.store import Store
    rows, sets = read_files(RESULTS)
    checked = rows_kept = 0
    for h, s in sets.items():
        older = set(s["solver_versions"]) - {SOLVER_VERSION}
        if not older or not older <= set(same_results(s["variant"], s["budget_nodes"])):
            continue
        rows_kept += 1
        sample = sorted((r for r in rows if r["rules_hash"] == h and r["verdict"] != "unknown" and r["nodes"] > 1000),
                        key=lambda r: r["nodes"])[:3]
        db = str(tmp_path / f"{h}.db")
        r = run("batch", s["variant"], "--seeds", ",".join(x["game"] for x in sample), "--db", db, "--jobs", "1",
                "--budget-nodes", str(s["budget_nodes"]), *(["--profile", s["profile"]] if s["profile"] else []))
        assert r.exit_code == 0, r.output
        store = Store(db, readonly=True)
        got = {x["game"]: x for x in store.latest(rules_hash=h)}
        store.close()
        for x in sample:
            assert (got[x["game"]]["verdict"], got[x["game"]]["nodes"]) == (x["verdict"], x["nodes"]), (s["variant"], x)
            checked += 1
    if not checked:
        pytest.skip("every shipped row is this version's")
    assert checked >= 2 * rows_kept, (checked, rows_kept)


def test_rows_of_another_version_stay_until_solved_again(tmp_path):
    """A row made by a version whose results may differ is not kept as finished, but
    ``--no-solve`` leaves it as it is (under its own version) rather than emptying it."""
    out = tmp_path / "res"
    assert run("report", "--db", str(tmp_path / "a.db"), "--out", str(out), "--games", "2", "--only", "granada",
               "--jobs", "1").exit_code == 0
    sets = json.loads((out / "rule-sets.json").read_text())
    for v in sets.values():
        v["solver_versions"] = ["patience-solver 0.0.1"]
    (out / "rule-sets.json").write_text(json.dumps(sets))
    r = run("report", "--db", str(tmp_path / "none.db"), "--out", str(out), "--no-solve", "--only", "granada",
            "--games", "2")
    assert r.exit_code == 0, r.output
    rows, sets = read_files(out)
    assert len(rows) == 2 and [v["solver_versions"] for v in sets.values()] == [["patience-solver 0.0.1"]]


def _as_other_version(out):
    sets = json.loads((out / "rule-sets.json").read_text())
    for v in sets.values():
        v["solver_versions"] = ["patience-solver 0.0.1"]
    (out / "rule-sets.json").write_text(json.dumps(sets))


def test_a_row_solved_again_goes_on_from_its_pending_records_on_another_machine(tmp_path):
    """A row of another version stays as published until the new run covers as many games;
    the new records meanwhile go to pending.csv.gz, and a report without the store goes on
    from them (solving only what is left), then replaces the row and drops the file."""
    out = tmp_path / "res"
    assert run("report", "--db", str(tmp_path / "a.db"), "--out", str(out), "--games", "3", "--only", "granada",
               "--jobs", "1").exit_code == 0
    _as_other_version(out)
    old_rows = read_files(out)[0]
    b = str(tmp_path / "b.db")
    assert run("batch", "granada", "--seeds", "1-2", "--db", b, "--jobs", "1", "--budget-nodes", "1000000").exit_code == 0
    r = run("report", "--db", b, "--out", str(out), "--no-solve", "--games", "3")
    assert r.exit_code == 0 and "2 pending games" in r.output and "granada: 2 new games pending" in r.output, r.output
    rows, sets = read_files(out)
    assert rows == old_rows and [v["solver_versions"] for v in sets.values()] == [["patience-solver 0.0.1"]]
    assert (out / "pending.csv.gz").exists()
    # another machine: no store; games 1-2 are done, only game 3 is solved
    c = tmp_path / "c.db"
    r = run("report", "--db", str(c), "--out", str(out), "--games", "3", "--only", "granada", "--jobs", "1")
    assert r.exit_code == 0 and "2 of 3 games already done" in r.output and "1 seeds, 0 already stored" in r.output, r.output
    from solver.batch import SOLVER_VERSION
    rows, sets = read_files(out)
    assert [x["game"] for x in rows] == ["1", "2", "3"]
    assert [v["solver_versions"] for v in sets.values()] == [[SOLVER_VERSION]]
    assert not (out / "pending.csv.gz").exists()


def test_a_report_of_some_variants_keeps_the_other_rows(tmp_path):
    out = tmp_path / "res"
    assert run("report", "--db", str(tmp_path / "a.db"), "--out", str(out), "--games", "2", "--only", "granada",
               "--jobs", "1").exit_code == 0
    r = run("report", "--db", str(tmp_path / "b.db"), "--out", str(out), "--games", "2", "--only", "algerian",
            "--jobs", "1")
    assert r.exit_code == 0, r.output
    assert [s.variant for s in table_from_files(out)] == ["algerian", "algerian (pysolfc)", "granada"]


def test_an_interrupted_report_still_writes_what_it_solved(tmp_path, monkeypatch):
    """The first row is solved, then the second batch is interrupted: the files hold the
    first row, and the command exits with the interrupted status."""
    import solver.cli.results as cli
    real, calls = cli._batch, []

    def batch_then_interrupt(request):
        calls.append(request.variant)
        if len(calls) > 1:
            raise KeyboardInterrupt
        return real(request)

    monkeypatch.setattr(cli, "_batch", batch_then_interrupt)
    out = tmp_path / "res"
    r = run("report", "--db", str(tmp_path / "a.db"), "--out", str(out), "--games", "2", "--only", "algerian",
            "--jobs", "1")
    assert r.exit_code == cli.EXIT_INTERRUPTED and "run the same command again" in r.output, r.output
    assert calls == ["algerian", "algerian"]
    assert [s.variant for s in table_from_files(out)] == ["algerian"]


class _Store:
    """A store's ``latest`` over given records."""

    def __init__(self, records):
        self.records = records

    def latest(self, rules_hash=None):
        return [r for r in self.records if r["rules_hash"] == rules_hash]


def _records(entry, games, version, verdict="won"):
    from solver.report import entry_rules
    h = entry_rules(entry).hash()
    return {str(g): {"variant": entry.variant, "rules_hash": h, "game": str(g), "verdict": verdict, "reason": None,
                     "nodes": g, "seconds": 0.5, "most_home": None, "budget_nodes": entry.budget_nodes,
                     "solver_version": version} for g in games}


def test_store_records_of_another_version_neither_replace_nor_drop_this_versions():
    """A store still holding an older version's records (the newest per game) does not turn
    a row back to them, nor drop this version's pending records."""
    from solver.batch import SOLVER_VERSION
    from solver.report import entry_rules, records_for
    e = next(x for x in PLAN if x.variant == "granada")
    h = entry_rules(e).hash()
    mine, stale = _records(e, range(1, 5), SOLVER_VERSION), _records(e, range(1, 5), "patience-solver 0.0.1", "lost")
    # a reusable published row of this version, and a store of old records
    kept = {h: (e.budget_nodes, mine, True)}
    rows, sets, waiting = records_for(_Store(list(stale.values())), [e], SOLVER_VERSION, None, kept, {})
    assert [r["verdict"] for r in rows] == ["won"] * 4 and sets[h]["solver_versions"] == [SOLVER_VERSION]
    # an old published row, this version's pending games 1-2, the same old store
    old_kept = {h: (e.budget_nodes, stale, False)}
    pend = {h: {g: r for g, r in mine.items() if int(g) <= 2}}
    rows, sets, waiting = records_for(_Store(list(stale.values())), [e], SOLVER_VERSION, None, old_kept, pend)
    assert len(rows) == 4 and sets[h]["solver_versions"] == ["patience-solver 0.0.1"]
    assert sorted(r["game"] for r in waiting) == ["1", "2"]
    # with nothing published, a store's own records make the row (`--no-solve` on a store)
    rows, sets, waiting = records_for(_Store(list(stale.values())), [e], SOLVER_VERSION, None, {}, {})
    assert len(rows) == 4 and not waiting


def test_games_never_cuts_or_replaces_a_published_row():
    from solver.batch import SOLVER_VERSION
    from solver.report import entry_rules, records_for
    e = next(x for x in PLAN if x.variant == "granada")
    h = entry_rules(e).hash()
    mine, stale = _records(e, range(1, 3), SOLVER_VERSION), _records(e, range(1, 5), "patience-solver 0.0.1", "lost")
    # not reusable: two new games do not replace a four-game row, even with --games 2
    rows, sets, waiting = records_for(None, [e], SOLVER_VERSION, 2, {h: (e.budget_nodes, stale, False)}, {h: mine})
    assert len(rows) == 4 and len(waiting) == 2 and sets[h]["games"] == "1-4"
    # reusable: --games 2 keeps all four published games
    rows, sets, waiting = records_for(None, [e], SOLVER_VERSION, 2, {h: (e.budget_nodes, _records(e, range(1, 5), SOLVER_VERSION), True)}, {})
    assert len(rows) == 4 and not waiting
    # a published row at another budget stays, under its own budget, until a new run covers it
    rows, sets, waiting = records_for(None, [e], SOLVER_VERSION, None, {h: (123, stale, False)}, {})
    assert len(rows) == 4 and sets[h]["budget_nodes"] == 123


@pytest.mark.skipif(not Path("/proc/self").exists(), reason="needs Linux")
def test_a_report_stopped_by_sigterm_writes_what_it_solved(tmp_path):
    """SIGTERM mid-batch: the report exits with the interrupted status and the files hold
    the games solved so far."""
    import signal
    import sqlite3
    import subprocess
    import sys
    import time
    from solver import errors
    db, out = tmp_path / "r.db", tmp_path / "res"
    p = subprocess.Popen([sys.executable, "-m", "solver", "report", "--db", str(db), "--out", str(out),
                          "--only", "generals-patience", "--games", "10000", "--jobs", "1"],
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        deadline, stored = time.time() + 600, 0        # a fresh clone compiles first
        while time.time() < deadline and stored < 3:
            time.sleep(0.3)
            try:
                stored = sqlite3.connect(db).execute("SELECT COUNT(*) FROM results").fetchone()[0] if db.exists() else 0
            except sqlite3.OperationalError:
                pass
        assert p.poll() is None and stored >= 3
        p.send_signal(signal.SIGTERM)
        _, err = p.communicate(timeout=120)
    finally:
        if p.poll() is None:
            p.kill()
    assert p.returncode == errors.EXIT_INTERRUPTED and "Traceback" not in err, err
    games = {g for (g,) in sqlite3.connect(db).execute("SELECT game FROM results")}
    k = 0
    while str(k + 1) in games:
        k += 1
    [row] = table_from_files(out)
    assert row.games == k >= 3 and not list(out.glob("*.tmp"))


def test_one_budget_per_variant():
    """``patience solve``'s default node budget is the published table's, for every row."""
    from solver.cli.base import make_budget
    from solver.variants import get_variant
    for e in PLAN:
        rules = entry_rules(e)
        assert make_budget(None, None, None, rules=rules).nodes == e.budget_nodes == get_variant(e.variant).budget_nodes
