"""patience batch / stats / export: records, resume after SIGKILL, rerun-unknown, Dask."""

import json
import os
import signal
import sqlite3
import statistics
import subprocess
import sys
import time

import pytest
from click.testing import CliRunner

from solver.batch import SeedRangeError, parse_seeds
from solver.cli import main
from solver.formats import pysolfc_deal
from solver.driver import Budget, solve
from solver.stats import unknown_bounds, wilson
from solver.store import Store
from solver.variants import make_rules

MINI = ["--rule", "ranks=5", "--rule", "suits=2", "--rule", "reserves=1", "--rule", "reserve_size=7",
        "--rule", "tableau_piles=1"]
MINI_OPTS = dict(ranks=5, suits=2, reserves=1, reserve_size=7, tableau_piles=1)


def run(*args):
    return CliRunner().invoke(main, list(args))


def rows(db):
    con = sqlite3.connect(db)
    out = con.execute("SELECT game, verdict, reason, nodes, budget_nodes, id FROM results ORDER BY id").fetchall()
    con.close()
    return out


def test_parse_seeds():
    assert parse_seeds("1-3,5,7-8") == ["1", "2", "3", "5", "7", "8"]
    assert parse_seeds("3,1-3") == ["3", "1", "2"]
    assert parse_seeds("100000000000000000000000") == ["100000000000000000000000"]
    assert parse_seeds("ms40000,5") == ["ms40000", "5"]
    assert parse_seeds(" 2 - 3") == ["2", "3"]
    # inside a range digits only (issue 17: 1-5-9 was read as 1-59, 10-1.5 as 10-15)
    for bad in ("", "1-", "a-3", "5-1", "0", "-4", "1,,2", "x", "1-5-9", "10-1.5", "1-2_000", "1-ms5"):
        with pytest.raises(SeedRangeError):
            parse_seeds(bad)


def test_batch_records_equal_solve(tmp_path):
    db = tmp_path / "r.db"
    r = run("batch", "algerian", "--seeds", "1-12", *MINI, "--budget-nodes", "20000", "--jobs", "2", "--db", str(db))
    assert r.exit_code == 0, r.output
    got = rows(db)
    assert sorted(g for g, *_ in got) == sorted(str(n) for n in range(1, 13))
    rules = make_rules("algerian", MINI_OPTS)
    want_home = {}
    for game, verdict, reason, nodes, budget_nodes, _ in got:
        want = solve(pysolfc_deal(rules, game), Budget(nodes=20000))
        assert (verdict, reason, nodes) == (want.verdict, want.reason, want.nodes)
        assert budget_nodes == 20000
        want_home[game] = want.most_home
    store = Store(db, readonly=True)
    assert {x["game"]: x["most_home"] for x in store.latest()} == want_home
    rec = next(store.latest())
    assert json.loads(rec["rules"])["ranks"] == 5 and rec["solver_version"].startswith("patience-solver")
    won = [x for x in store.latest() if x["verdict"] == "won"]
    assert won and all(x["moves"] and x["solution_length"] == len(x["moves"].split()) for x in won)


def test_same_command_skips_stored_seeds(tmp_path):
    db = tmp_path / "r.db"
    args = ["batch", "algerian", "--seeds", "1-5", *MINI, "--budget-nodes", "5000", "--jobs", "1", "--db", str(db)]
    assert run(*args).exit_code == 0
    r = run(*args)
    assert r.exit_code == 0 and "5 already stored, 0 to solve" in r.output
    assert len(rows(db)) == 5


def test_rerun_unknown_touches_only_unknown_seeds(tmp_path):
    db = tmp_path / "r.db"
    assert run("batch", "algerian", "--seeds", "1-8", "--budget-nodes", "3000", "--jobs", "1",
               "--db", str(db)).exit_code == 0
    before = rows(db)
    unknown = {g for g, v, *_ in before if v == "unknown"}
    decided = {g for g, v, *_ in before if v != "unknown"}
    assert unknown and decided
    r = run("batch", "algerian", "--seeds", "1-8", "--budget-nodes", "6000", "--rerun-unknown", "--jobs", "1",
            "--db", str(db))
    assert r.exit_code == 0, r.output
    after = rows(db)
    new = after[len(before):]
    assert {g for g, *_ in new} == unknown and all(b == 6000 for *_, b, _ in new)
    assert after[:len(before)] == before          # history kept
    # a seed never stored is solved, not counted as "already stored" (issue 17 item 12)
    r = run("batch", "algerian", "--seeds", "1-9", "--budget-nodes", "6000", "--rerun-unknown", "--jobs", "1",
            "--db", str(db))
    assert r.exit_code == 0 and "8 already stored" in r.output, r.output
    assert [g for g, *_ in rows(db)[len(after):]] == ["9"]


def test_stats_intervals():
    from scipy.stats import binomtest
    assert wilson(7, 10) == pytest.approx(tuple(binomtest(7, 10).proportion_ci(method="wilson")))
    # Closed form for k=45, n=50 at z=1.959964: centre and half-width.
    z, k, n = 1.959963984540054, 45, 50
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * ((p * (1 - p) / n + z * z / (4 * n * n)) ** 0.5) / (1 + z * z / n)
    assert wilson(k, n) == pytest.approx((centre - half, centre + half))
    lo, hi = unknown_bounds(won=40, lost=50, unknown=10)
    assert lo == pytest.approx(wilson(40, 100)[0]) and hi == pytest.approx(wilson(50, 100)[1])
    assert unknown_bounds(0, 0, 0) == (0.0, 1.0)


def _records(won, lost, unknown):
    verdicts = ["won"] * won + ["lost"] * lost + ["unknown"] * unknown
    return [{"variant": "alhambra", "rules_hash": "h", "rules": "{}", "game": i + 1, "verdict": v,
             "seconds": 1.0, "nodes": 10, "budget_nodes": 10, "solver_version": "x",
             "most_home": 50 if v == "unknown" else 104} for i, v in enumerate(verdicts)]


def test_stats_lead_with_the_both_ways_interval_when_many_are_undecided():
    """25 won, 0 lost, 35 unknown is "100 %" among decided deals: the leading figure is the
    interval counting the unknowns both ways, and the decided fraction is shown; with under
    a tenth undecided the rate among decided deals leads."""
    from solver.stats import group_stats, render
    s = group_stats(_records(25, 0, 35))[0]
    assert s.decided == pytest.approx(25 / 60) and s.rate == 1.0
    lo, hi = unknown_bounds(25, 0, 35)
    assert s.lead == f"{100 * lo:.2f}% - {100 * hi:.2f}% (unknowns both ways)"
    table = render([s], "table")
    assert "41.67%" in table and s.lead in table
    s = group_stats(_records(90, 5, 5))[0]
    lo, hi = wilson(90, 95)
    assert s.lead == f"{100 * 90 / 95:.2f}% ({100 * lo:.2f}% - {100 * hi:.2f}% among decided)"
    doc = json.loads(render([s], "json"))[0]
    assert doc["decided"] == pytest.approx(0.95) and doc["lead"] == s.lead


def test_stats_and_export_commands(tmp_path, monkeypatch):
    db = tmp_path / "r.db"
    assert run("batch", "algerian", "--seeds", "1-6", *MINI, "--budget-nodes", "5000", "--jobs", "1",
               "--db", str(db)).exit_code == 0
    for fmt in ("table", "markdown", "csv", "json"):
        r = run("stats", "--db", str(db), "--format", fmt)
        assert r.exit_code == 0 and "algerian" in r.output
    doc = json.loads(run("stats", "--db", str(db), "--format", "json").output)
    assert doc[0]["games"] == 6 and doc[0]["won"] + doc[0]["lost"] + doc[0]["unknown"] == 6
    assert json.loads(run("stats", "--db", str(db), "--seeds", "1-2", "--format", "json").output)[0]["games"] == 2
    r = run("stats", "--db", str(db), "--variant", "terrace")
    assert r.exit_code == 2 and "no records" in r.output
    for fmt in ("csv", "jsonl"):
        out = tmp_path / f"x.{fmt}"
        assert run("export", "--db", str(db), "--format", fmt, "--out", str(out)).exit_code == 0
        assert "algerian" in out.read_text()
    # --out - is standard output, not a file named "-" (issue 17 item 13)
    monkeypatch.chdir(tmp_path)
    r = run("export", "--db", str(db), "--format", "jsonl", "--out", "-")
    assert r.exit_code == 0 and len([x for x in r.output.splitlines() if '"algerian"' in x]) >= 6, r.output
    assert not (tmp_path / "-").exists()


def test_unknown_deals_report_how_far_their_searches_got(tmp_path):
    db = tmp_path / "r.db"
    assert run("batch", "algerian", "--seeds", "1-8", "--budget-nodes", "3000", "--jobs", "1",
               "--db", str(db)).exit_code == 0
    recs = list(Store(db, readonly=True).latest())
    unknown = sorted(r["most_home"] for r in recs if r["verdict"] == "unknown")
    assert unknown and all(0 < h < 104 for h in unknown)
    assert all(r["most_home"] == 104 for r in recs if r["verdict"] == "won")
    doc = json.loads(run("stats", "--db", str(db), "--format", "json").output)[0]
    assert doc["unknown_home_max"] == unknown[-1]
    assert doc["unknown_home_median"] == pytest.approx(statistics.median(unknown))
    assert f"{statistics.median(unknown):g} / {unknown[-1]}" in run("stats", "--db", str(db)).output


def test_schema_1_store_is_read_as_it_is_and_upgraded_for_writing(tmp_path):
    import solver.store as store_mod
    db = tmp_path / "old.db"
    con = sqlite3.connect(db)
    old_schema = store_mod._SCHEMA.replace(
        ",\n    most_home INTEGER               -- most cards on the foundations in any position searched", "")
    assert "most_home" not in old_schema
    con.executescript(old_schema)
    con.execute("INSERT INTO meta VALUES ('schema_version', '1')")
    cols = store_mod.COLUMNS[:-1]
    con.execute(f"INSERT INTO results ({', '.join(cols)}) VALUES ({', '.join('?' * len(cols))})",
                ("algerian", "h", "{}", "1", "unknown", "nodes", 10, 9, 0.1, 4096, None, None,
                 "patience-solver 0.4.0", 10, "{}", "[]", "2026-11-01T00:00:00+00:00"))
    con.commit(); con.close()
    r = run("stats", "--db", str(db), "--format", "json")            # read-only: not upgraded
    assert r.exit_code == 0 and json.loads(r.output)[0]["unknown_home_max"] is None
    con = sqlite3.connect(db)
    assert con.execute("SELECT value FROM meta").fetchone() == ("1",)
    con.close()
    assert run("batch", "algerian", "--seeds", "1-2", *MINI, "--budget-nodes", "5000", "--jobs", "1",
               "--db", str(db)).exit_code == 0
    con = sqlite3.connect(db)
    assert con.execute("SELECT value FROM meta").fetchone() == ("2",)
    assert [h for (h,) in con.execute("SELECT most_home FROM results ORDER BY id")][0] is None
    assert all(h is not None for (h,) in con.execute("SELECT most_home FROM results WHERE id > 1"))
    con.close()


def test_resume_after_sigkill(tmp_path, reap):
    db = tmp_path / "r.db"
    cmd = [sys.executable, "-m", "solver", "batch", "algerian", "--seeds", "1-60", "--budget-nodes", "150000",
           "--dominance", "none", "--jobs", "1", "--db", str(db)]
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    reap(p)
    deadline = time.time() + 120
    while time.time() < deadline:
        time.sleep(0.3)
        if db.exists():
            try:
                if len(rows(db)) >= 5:
                    break
            except sqlite3.OperationalError:
                pass
    p.send_signal(signal.SIGKILL)
    p.wait()
    partial = len(rows(db))
    assert 5 <= partial < 60
    r = subprocess.run(cmd, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    con = sqlite3.connect(db)
    assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    games = [g for (g,) in con.execute("SELECT game FROM results")]
    con.close()
    assert sorted(games, key=int) == [str(n) for n in range(1, 61)]      # each exactly once
    assert f"{partial} already stored" in r.stderr


def test_dask_engine_equals_process_pool(tmp_path):
    pytest.importorskip("dask.distributed")
    a, b = tmp_path / "a.db", tmp_path / "b.db"
    common = ["batch", "algerian", "--seeds", "1-8", *MINI, "--budget-nodes", "20000", "--jobs", "2"]
    assert run(*common, "--db", str(a)).exit_code == 0
    r = run(*common, "--db", str(b), "--engine", "dask")
    assert r.exit_code == 0, r.output

    def key(db):
        return sorted((g, v, reason, n) for g, v, reason, n, *_ in rows(db))
    assert key(a) == key(b)


def test_bad_input(tmp_path):
    r = run("batch", "algerian", "--seeds", "5-1", "--db", str(tmp_path / "x.db"))
    assert r.exit_code == 2 and "runs backwards" in r.output
    r = run("batch", "algerain", "--seeds", "1", "--db", str(tmp_path / "x.db"))
    assert r.exit_code == 2 and "did you mean" in r.output
    # A store of another schema version.
    old = tmp_path / "old.db"
    con = sqlite3.connect(old)
    con.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
    con.execute("INSERT INTO meta VALUES ('schema_version', '99')")
    con.commit(); con.close()
    r = run("batch", "algerian", "--seeds", "1", "--db", str(old))
    assert r.exit_code == 2 and "schema version 99" in r.output
    # Not a database at all.
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"hello" * 100)
    r = run("stats", "--db", str(junk))
    assert r.exit_code == 2 and "not a results store" in r.output
    # A locked store: another connection holds a write lock.
    db = tmp_path / "locked.db"
    Store(db).close()
    con = sqlite3.connect(db, isolation_level=None)
    con.execute("BEGIN EXCLUSIVE")
    r = run("batch", "algerian", "--seeds", "1", *MINI, "--db", str(db), "--jobs", "1")
    con.execute("ROLLBACK"); con.close()
    assert r.exit_code == 2 and "locked" in r.output
    # A read-only store.
    ro = tmp_path / "ro.db"
    Store(ro).close()
    os.chmod(ro, 0o444)
    if os.geteuid() != 0:          # root ignores file modes
        r = run("batch", "algerian", "--seeds", "1", *MINI, "--db", str(ro), "--jobs", "1")
        assert r.exit_code == 2 and "read-only" in r.output
    r = run("stats", "--db", str(tmp_path / "missing.db"))
    assert r.exit_code == 2 and "no results store" in r.output


def test_ctrl_c_stops_cleanly_and_says_how_to_resume(tmp_path, reap):
    db = tmp_path / "r.db"
    # enough work that the batch cannot end before the signal, however fast the solver gets
    cmd = [sys.executable, "-m", "solver", "batch", "algerian", "--seeds", "1-2000", "--budget-nodes", "300000",
           "--dominance", "none", "--jobs", "2", "--db", str(db)]
    # As from a terminal: pytest-xdist workers ignore SIGINT, and a child would inherit that.
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    reap(p)
    deadline = time.time() + 600          # a fresh clone on a busy machine compiles for minutes
    while time.time() < deadline:
        time.sleep(0.3)
        try:
            if db.exists() and len(rows(db)) >= 3:
                break
        except sqlite3.OperationalError:
            pass
    assert p.poll() is None, "the batch ended before the signal could be sent"
    p.send_signal(signal.SIGINT)
    _, err = p.communicate(timeout=120)
    assert p.returncode == 130, err
    assert "run the same command again to resume" in err and "Traceback" not in err
    stored = len(rows(db))
    assert 3 <= stored < 2000


TERRACE_MINI = ["--rule", "ranks=4", "--rule", "suits=2", "--rule", "reserve_size=3", "--rule", "tableau_piles=3",
                "--rule", "base_choices=2"]


@pytest.mark.parametrize("variant", ["terrace", "queen-of-italy-pysolfc", "generals-patience",
                                     "blondes-and-brunettes", "falling-star", "redheads"])
def test_batch_and_stats_on_terrace_variants(tmp_path, variant):
    db = str(tmp_path / "t.db")
    r = run("batch", variant, "--seeds", "1-4", *TERRACE_MINI, "--budget-nodes", "20000", "--jobs", "1", "--db", db)
    assert r.exit_code == 0, r.output
    doc = json.loads(run("stats", "--db", db, "--format", "json").output)
    assert doc[0]["variant"] == variant and doc[0]["games"] == 4
    assert doc[0]["won"] + doc[0]["lost"] == 4           # miniature deals are decided


@pytest.mark.parametrize("name", ["q.db?mode=memory", "res#1.db", "p%20q.db"])
def test_db_path_is_a_file_name_not_a_uri(tmp_path, name):
    """--db was spliced into an SQLite URI: 'q.db?mode=memory' stored into memory, 'res#1.db'
    wrote to 'res', 'p%20q.db' to 'p q.db' (issue 17 item 4). The store is the file named."""
    db = tmp_path / name
    r = run("batch", "algerian", "--seeds", "1-2", *MINI, "--budget-nodes", "2000", "--jobs", "1", "--db", str(db))
    assert r.exit_code == 0, r.output
    assert db.is_file() and [p.name for p in tmp_path.iterdir() if not p.name.startswith(name)] == []
    assert len(rows(db)) == 2


def test_second_writer_is_refused(tmp_path):
    """Two batches on one store both ran and stored their overlap twice (issue 17 item 6):
    while one holds the store, a second is refused with one line and stores nothing; after
    the first ends, the store is free again."""
    db = tmp_path / "r.db"
    first = Store(db)
    first.claim_writer()
    r = run("batch", "algerian", "--seeds", "1-2", *MINI, "--budget-nodes", "2000", "--jobs", "1", "--db", str(db))
    assert r.exit_code == 2 and "another batch is writing to" in r.output and "Traceback" not in r.output, r.output
    assert rows(db) == []
    first.close()
    r = run("batch", "algerian", "--seeds", "1-2", *MINI, "--budget-nodes", "2000", "--jobs", "1", "--db", str(db))
    assert r.exit_code == 0 and len(rows(db)) == 2, r.output


def test_export_winnable_and_lost_game_numbers(tmp_path):
    """`export --winnable` / `--lost`: the game numbers whose newest record is won (lost), in
    ascending order, one a line, for one variant and rule set; a store of several rule sets
    asks which."""
    db = str(tmp_path / "t.db")
    heavy = ["--rule", "ranks=4", "--rule", "suits=2", "--rule", "reserve_size=5", "--rule", "tableau_piles=2",
             "--rule", "base_choices=2"]          # a reserve this large loses some deals
    assert run("batch", "generals-patience", "--seeds", "1-12", *heavy, "--budget-nodes", "20000", "--jobs", "1",
               "--db", db).exit_code == 0
    latest = list(Store(db, readonly=True).latest())
    for flag, verdict in (("--winnable", "won"), ("--lost", "lost")):
        out = tmp_path / f"{verdict}.txt"
        r = run("export", "--db", db, flag, "--out", str(out))
        assert r.exit_code == 0, r.output
        want = sorted(int(x["game"]) for x in latest if x["verdict"] == verdict)
        assert want and out.read_text() == "".join(f"{g}\n" for g in want)
    assert run("batch", "falling-star", "--seeds", "1-2", *TERRACE_MINI, "--budget-nodes", "20000", "--jobs", "1",
               "--db", db).exit_code == 0
    r = run("export", "--db", db, "--winnable", "--out", "-")
    assert r.exit_code == 2 and "2 rule sets" in r.output and "--rules-hash" in r.output
    r = run("export", "--db", db, "--winnable", "--variant", "generals-patience", "--out", "-")
    assert r.exit_code == 0 and r.stdout == (tmp_path / "won.txt").read_text()


def test_batch_counts_games_of_an_equivalent_version_as_stored(tmp_path):
    """A game stored by a version ``SAME_RESULTS`` declares equivalent for the variant is not
    solved again; one stored by any other version is."""
    from solver.batch import SAME_RESULTS
    db = str(tmp_path / "r.db")
    args = ["batch", "granada", "--seeds", "1", "--budget-nodes", "100000", "--db", db]
    assert CliRunner().invoke(main, args).exit_code == 0
    for version, stored in ((SAME_RESULTS["granada"][-1], True), ("patience-solver 0.0.1", False)):
        with sqlite3.connect(db) as con:
            con.execute("UPDATE results SET solver_version = ?", (version,))
        out = CliRunner().invoke(main, args)
        assert out.exit_code == 0
        assert ("1 already stored" in out.output) == stored, out.output
        with sqlite3.connect(db) as con:
            con.execute("DELETE FROM results WHERE solver_version != ?", (version,))
