"""Issue 66's audit findings, each reproduced as the audit found it: every case here failed
before its fix (the item's name is in each test's docstring)."""

import json
import os
import resource
import signal
import sqlite3
import subprocess
import sys

import pytest
from click.testing import CliRunner

from solver.__main__ import environment_problem
from solver.cli import main
from solver.formats import MAX_FILE_BYTES, pysolfc_deal, read_solution, write_deal, write_solution_doc
from solver.variants import make_rules


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def one_error_line(r, code, words):
    lines = [x for x in r.output.splitlines() if x.strip()]
    assert r.exit_code == code and words in r.output and lines and lines[-1].startswith("error: "), r.output
    assert r.exception is None or isinstance(r.exception, SystemExit), r.exception


@pytest.fixture
def deal_file(tmp_path):
    p = tmp_path / "alg1.json"
    write_deal(pysolfc_deal(make_rules("algerian"), 1), p)
    return p


def test_a_huge_integer_in_a_deal_file_is_one_line(tmp_path, deal_file):
    """D1: a JSON integer of 5,000 digits was a traceback in ``deal --check`` and exit 4 in
    ``verify``; in a pack line too."""
    big = tmp_path / "big.json"
    big.write_text(deal_file.read_text().replace('"version": 1', '"version": ' + "7" * 5000))
    one_error_line(run("deal", "--check", big), 2, "thousands of digits")
    one_error_line(run("verify", big, "--budget-nodes", 100), 3, "thousands of digits")
    pack = tmp_path / "p.jsonl"
    pack.write_text(json.dumps(json.loads(deal_file.read_text())) + "\n" + big.read_text().replace("\n", "") + "\n")
    one_error_line(run("deal", "--check", pack), 2, "p.jsonl:2: not a deal (a number of thousands of digits)")


def test_verify_never_writes_the_solution_over_its_deal(deal_file):
    """D3: ``verify d.json --out d.json`` replaced the deal with its solution."""
    before = deal_file.read_bytes()
    one_error_line(run("verify", deal_file, "--budget-nodes", 100, "--out", deal_file), 3, f"is the input file {deal_file} itself")
    assert deal_file.read_bytes() == before


def test_a_pipe_as_the_store_is_refused(tmp_path):
    """D5: ``stats --db FIFO`` blocked for ever (SQLite opening a pipe)."""
    fifo = tmp_path / "f.db"
    os.mkfifo(fifo)
    p = subprocess.run([sys.executable, "-m", "solver", "stats", "--db", str(fifo)], capture_output=True, text=True,
                       timeout=120)
    assert p.returncode == 2 and "not a regular file" in p.stderr, p.stderr


def test_a_store_name_that_is_not_text_is_still_a_name(tmp_path):
    """D6: ``batch --db $'\\xff\\xfe.db'`` was a traceback (UnicodeEncodeError quoting the path)."""
    name = os.fsdecode(b"\xff\xfe.db")
    p = subprocess.run([sys.executable, "-m", "solver", "batch", "algerian", "--seeds", "1", "--budget-nodes", "100",
                        "--jobs", "1", "--db", name], cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert p.returncode == 0 and "Traceback" not in p.stderr, p.stderr
    assert (tmp_path / name).is_file()


def test_generate_never_writes_through_a_planted_link(tmp_path):
    """D9: ``generate`` wrote through a dangling symbolic link planted as its pack (its check
    was ``Path.exists()``, which follows the link)."""
    target = tmp_path / "elsewhere.jsonl"
    link = tmp_path / "pack.jsonl"
    link.symlink_to(target)
    r = run("generate", "algerian", "--winnable", "--count", 1, "--seed", 1, "--budget-nodes", 1000, "--jobs", 1,
            "--out", link)
    one_error_line(r, 2, "exists")
    assert not target.exists()


def test_numba_settings_that_break_it_are_one_line():
    """D10: ``NUMBA_NUM_THREADS=0`` and ``NUMBA_DISABLE_JIT=1`` were tracebacks."""
    for env, words in [({"NUMBA_NUM_THREADS": "0"}, "NUMBA_NUM_THREADS"), ({"NUMBA_DISABLE_JIT": "1"}, "unset it")]:
        p = subprocess.run([sys.executable, "-m", "solver", "solve", "algerian", "1", "--budget-nodes", "10"],
                           env=dict(os.environ, **env), capture_output=True, text=True, timeout=120)
        assert p.returncode == 2 and p.stderr.startswith("error: ") and words in p.stderr, p.stderr
        assert "Traceback" not in p.stderr
    assert environment_problem({"NUMBA_NUM_THREADS": "2", "NUMBA_DISABLE_JIT": "0"}) is None


def test_a_json_lines_file_of_other_documents_is_no_solutions_file(tmp_path, deal_file):
    """D12: ``verify PACK --out F`` appended to a file whose lines were ``[]`` and ``1``."""
    pack = tmp_path / "p.jsonl"
    pack.write_text(json.dumps(json.loads(deal_file.read_text())) + "\n")
    out = tmp_path / "o.jsonl"
    out.write_text("[]\n1\n")
    one_error_line(run("verify", pack, "--budget-nodes", 100, "--jobs", 1, "--out", out), 3,
                   "not a solutions file (line 1)")
    assert out.read_text() == "[]\n1\n"


def test_a_pipe_named_as_a_solution_is_read_as_a_file(tmp_path):
    """D13: a device given as the solution was taken for a move list ("not a move: ...") or
    said "no such file"; it is read, and what is wrong with it is said."""
    for device, words in [("/dev/zero", "larger than"), ("/dev/null", "/dev/null is not JSON")]:
        r = run("replay", device)
        assert r.exit_code == 2 and words in r.output and "not a move" not in r.output, r.output


def test_contradictory_or_ignored_options_are_refused(tmp_path, deal_file):
    """D14: ``generate --winnable --unwinnable`` kept the last; ``replay SOLUTION --rule``
    ignored the rule; ``--budget-nodes`` in Arabic-Indic digits was read as 5."""
    one_error_line(run("generate", "algerian", "--winnable", "--unwinnable", "--count", 1, "--seed", 1,
                       "--out", tmp_path / "g.jsonl"), 2, "one of them")
    sol = tmp_path / "s.json"
    assert run("solve", "algerian", "1", "--budget-nodes", 100000, "--out", sol).exit_code == 0
    one_error_line(run("replay", sol, "--rule", "ranks=5"), 2, "carries its own rules")
    r = run("solve", "algerian", "1", "--budget-nodes", "\u0665")         # a usage error: click's own form
    assert r.exit_code == 2 and "is not a number written in the digits 0-9" in r.output, r.output


def test_a_report_from_nothing_is_an_error(tmp_path):
    """D15: ``report --no-solve --db typo.db`` wrote an empty table and exited 0."""
    one_error_line(run("report", "--no-solve", "--db", tmp_path / "typo.db", "--out", tmp_path / "r"), 2,
                   "nothing to write a table from")
    assert not (tmp_path / "r" / "win-rates.md").exists()


def _write_with_a_size_cap(args, cwd, cap):
    """Run ``patience ARGS`` where files may not grow past ``cap`` bytes (a disk that fills):
    a write past it fails with EFBIG instead of killing the process."""
    def limit():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (cap, cap))
    return subprocess.run([sys.executable, "-m", "solver", *map(str, args)], cwd=cwd, capture_output=True, text=True,
                          timeout=300, preexec_fn=limit)


@pytest.mark.parametrize("command", [["deal", "algerian", "2"], ["solve", "algerian", "2", "--budget-nodes", "100000"]])
def test_a_failed_write_leaves_the_old_file_whole(tmp_path, command):
    """F0, F2: ``--out`` files were truncated then written: a full disk left an empty file,
    or destroyed the previous one. Now the old file stays as it was, and no other file is
    left behind."""
    old = tmp_path / "out.json"
    old.write_text("the previous file\n")
    p = _write_with_a_size_cap([*command, "--out", old], tmp_path, 1000)
    assert p.returncode == 2 and "cannot write" in p.stderr and "Traceback" not in p.stderr, p.stderr
    assert old.read_text() == "the previous file\n"
    assert sorted(x.name for x in tmp_path.iterdir()) == ["out.json"]
    fresh = tmp_path / "new.json"
    p = _write_with_a_size_cap([*command, "--out", fresh], tmp_path, 1000)
    assert p.returncode == 2 and not fresh.exists(), p.stderr


def test_export_to_a_full_disk_leaves_no_file(tmp_path):
    """F0: ``export --out`` left an empty file on a full disk."""
    db = tmp_path / "r.db"
    assert run("batch", "algerian", "--seeds", "1-30", "--budget-nodes", 1000, "--jobs", 1, "--db", db).exit_code == 0
    p = _write_with_a_size_cap(["export", "--db", db, "--out", "x.csv"], tmp_path, 1000)
    assert p.returncode == 2 and "cannot write" in p.stderr, p.stderr
    assert not (tmp_path / "x.csv").exists()


def test_a_store_with_a_trigger_is_refused(tmp_path):
    """S4: a trigger planted in a store ran on every insert (it rewrote won to lost)."""
    db = tmp_path / "r.db"
    assert run("batch", "algerian", "--seeds", "1", "--budget-nodes", 1000, "--jobs", 1, "--db", db).exit_code == 0
    con = sqlite3.connect(db)
    con.execute("CREATE TRIGGER t AFTER INSERT ON results BEGIN UPDATE results SET verdict = 'lost'; END")
    con.commit()
    con.close()
    one_error_line(run("batch", "algerian", "--seeds", "2", "--budget-nodes", 1000, "--jobs", 1, "--db", db), 2,
                   "trigger t")
    one_error_line(run("stats", "--db", db), 2, "trigger t")


def test_the_store_lock_is_never_a_planted_link(tmp_path):
    """S1: the store's ``.lock`` followed a link planted in its place."""
    db = tmp_path / "r.db"
    target = tmp_path / "victim"
    (tmp_path / "r.db.lock").symlink_to(target)
    one_error_line(run("batch", "algerian", "--seeds", "1", "--budget-nodes", 1000, "--jobs", 1, "--db", db), 2,
                   "cannot lock")
    assert not target.exists()


def test_replay_reads_every_solution_file_the_tool_writes(tmp_path, deal_file):
    """Item 6: ``solve --out`` wrote a 1.9 MB solution that ``replay`` refused (over 1 MiB)."""
    sol = tmp_path / "s.json"
    assert run("solve", "algerian", "1", "--budget-nodes", 100000, "--out", sol).exit_code == 0
    doc = json.loads(sol.read_text())
    doc["moves"] = doc["moves"] * (2 * MAX_FILE_BYTES // (12 * len(doc["moves"])) + 1)
    long = tmp_path / "long.json"
    write_solution_doc(doc, long)
    assert long.stat().st_size > MAX_FILE_BYTES
    solution, _ = read_solution(long)
    assert len(solution.moves) == len(doc["moves"])


def test_a_short_generate_says_its_deals_are_kept_and_how_to_go_on(tmp_path):
    """Item 8: a failed ``generate`` kept k deals, then refused the same command with a
    larger ``--max-tries`` (the pack exists) without saying so."""
    out = tmp_path / "g.jsonl"
    r = run("generate", "algerian", "--winnable", "--count", 3, "--seed", 1, "--max-tries", 1, "--budget-nodes",
            100000, "--jobs", 1, "--out", out)
    one_error_line(r, 2, "they are kept")
    assert "another --out and a larger --max-tries" in r.output


def test_a_slow_warm_up_says_at_once_that_the_kernels_compile(monkeypatch):
    """Item 2: the first solve was silent for 30 s to 2.5 min while numba compiled."""
    import time
    import solver.driver
    monkeypatch.setattr("solver.cli.base.NOTICE_AFTER", 0.1)
    real = solver.driver.warm_up

    def slow(*args, **kwargs):
        time.sleep(0.5)
        return real(*args, **kwargs)

    monkeypatch.setattr(solver.driver, "warm_up", slow)
    r = run("solve", "algerian", "1", "--budget-nodes", 100)
    assert "compiling the solver's kernels" in r.output and "compiled in" in r.output, r.output
    monkeypatch.setattr(solver.driver, "warm_up", real)
    assert "compiling" not in run("solve", "algerian", "1", "--budget-nodes", 100).output


def test_an_unwritable_numba_cache_is_said_and_replaced(tmp_path):
    """Item 7: ``NUMBA_CACHE_DIR`` unwritable made every run compile anew, silently."""
    p = subprocess.run([sys.executable, "-c", "import solver.jit, numba; print(numba.config.CACHE_DIR)"],
                       env=dict(os.environ, NUMBA_CACHE_DIR="/proc/no-such-folder"), capture_output=True, text=True,
                       timeout=120)
    assert p.returncode == 0 and "NUMBA_CACHE_DIR=/proc/no-such-folder cannot be written" in p.stderr, p.stderr
    assert not p.stdout.startswith("/proc")


def test_the_fallback_cache_folder_is_never_one_another_user_can_write(tmp_path, monkeypatch):
    """S2: the fallback cache ``$TMPDIR/patience-solver-<uid>/`` was used if merely writable;
    numba's index files are pickles, so a folder planted there first could run code."""
    import tempfile
    from solver import jit
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    planted = tmp_path / f"patience-solver-{os.getuid()}"
    planted.mkdir(mode=0o777)
    planted.chmod(0o777)
    got = jit.fallback_cache_dir("numba-x")
    assert planted not in got.parents and got.parent == tmp_path and got.name.startswith("patience-solver-numba-")
    planted.chmod(0o700)
    assert jit.fallback_cache_dir("numba-x") == planted / "numba-x"


@pytest.mark.parametrize("edit", ["UPDATE results SET budget = '{not json' WHERE id = 1",
                                  "UPDATE results SET seconds = 'abc' WHERE id = 1"])
def test_a_store_with_a_malformed_record_is_refused(tmp_path, edit):
    """D7, D8: a ``budget`` cell that is not JSON crashed ``batch``'s resume; a text value in
    a REAL column crashed ``stats``."""
    db = tmp_path / "r.db"
    assert run("batch", "algerian", "--seeds", "1-2", "--budget-nodes", 1000, "--jobs", 1, "--db", db).exit_code == 0
    con = sqlite3.connect(db)
    con.execute(edit)
    con.commit()
    con.close()
    one_error_line(run("batch", "algerian", "--seeds", "1-3", "--budget-nodes", 1000, "--jobs", 1, "--db", db), 2,
                   "id 1: a cell of the wrong type")
    one_error_line(run("stats", "--db", db), 2, "id 1: a cell of the wrong type")


def test_nodes_after_the_budget_are_said_apart():
    """Item 5: The Reinforcements reported 17 M nodes on a 2 M budget, the searches for wins'
    nodes counted in with the budget's."""
    import re
    from solver.driver import Budget, solve
    deal = pysolfc_deal(make_rules("terrace"), 6)           # unknown at 20,000 nodes: the beams run
    res = solve(deal, Budget(nodes=20_000))
    assert res.win_nodes > 0 and res.nodes - res.win_nodes <= 20_000, (res.nodes, res.win_nodes)
    assert res.solution().producer["win_nodes"] == res.win_nodes
    r = run("solve", "terrace", "6", "--budget-nodes", 20_000)
    m = re.search(r"nodes ([\d,]+) \(([\d,]+) of the budget, ([\d,]+) after it in searches for wins\)", r.output)
    total, budget, after = (int(x.replace(",", "")) for x in m.groups())
    assert total == budget + after and budget <= 20_000 < total, r.output


def test_a_report_that_cannot_be_written_says_which_file(tmp_path):
    """F4: ``report``'s file-write errors were reported as "cannot write to standard output";
    a failed write leaves no temporary file behind."""
    db = tmp_path / "r.db"
    assert run("batch", "algerian", "--seeds", "1-3", "--budget-nodes", 1000, "--jobs", 1, "--db", db).exit_code == 0
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    one_error_line(run("report", "--no-solve", "--db", db, "--out", blocker / "rep"), 2,
                   f"cannot write the report into {blocker / 'rep'}")
    (tmp_path / "rep").mkdir()
    p = _write_with_a_size_cap(["report", "--no-solve", "--db", db, "--out", "rep"], tmp_path, 300)
    assert p.returncode == 2 and "cannot write rep/" in p.stderr and "standard output" not in p.stderr, p.stderr
    assert list((tmp_path / "rep").iterdir()) == []


def test_generated_shuffles_are_defined_by_the_project():
    """Item 9: ``generate``'s shuffle was ``random.shuffle``, whose algorithm Python does not
    promise to keep. The project's own is pinned here: any change of it changes every pack."""
    from solver.generate import stable_shuffle
    x = list(range(10))
    stable_shuffle(x, "1/1")
    assert x == [7, 0, 5, 3, 8, 1, 6, 9, 2, 4]
    y = list(range(104))
    stable_shuffle(y, "7/3")
    assert y[:12] == [3, 10, 102, 5, 2, 49, 35, 16, 14, 57, 34, 100] and sorted(y) == list(range(104))


def test_solution_files_name_the_libraries_and_workers_are_forked():
    """Item 9: the OR-Tools version was recorded nowhere, though CP-SAT decides verdicts;
    the workers' start method was Python's default, which changes between versions."""
    from solver.batch import pool_context
    from solver.driver import Budget, solve
    producer = solve(pysolfc_deal(make_rules("algerian"), 1), Budget(nodes=1000)).solution().producer
    assert set(producer["versions"]) == {"python", "numpy", "numba", "ortools"} and producer["versions"]["ortools"]
    assert pool_context().get_start_method() == ("fork" if sys.platform.startswith("linux") else "spawn")


@pytest.mark.parametrize("forge", ["other_game", "twice", "lost_other_budget", "other_version", "text_nodes"])
def test_a_record_the_batch_did_not_ask_for_is_refused(tmp_path, monkeypatch, forge):
    """S5: the driver trusted every field a (Dask) worker returned but the won line: a
    hostile worker stored "lost" under another budget, records for games never asked for,
    another version. Each forged record is refused, its seed left to be solved again."""
    import dataclasses
    from solver import batch
    real = batch.solve_job

    def forged(job):
        rec = real(job)
        if job.game != "2":
            return rec
        return {"other_game": lambda: dataclasses.replace(rec, game="9999"),
                "twice": lambda: dataclasses.replace(real(dataclasses.replace(job, game="1")), game="1"),
                "lost_other_budget": lambda: dataclasses.replace(rec, verdict="lost", moves=None, budget_nodes=5),
                "other_version": lambda: dataclasses.replace(rec, solver_version="0.0.1"),
                "text_nodes": lambda: dataclasses.replace(rec, nodes="many")}[forge]()
    monkeypatch.setattr(batch, "solve_job", forged)
    db = tmp_path / "r.db"
    r = run("batch", "algerian", "--seeds", "1-3", "--budget-nodes", 1000, "--jobs", 1, "--db", db)
    assert r.exit_code == 2 and "1 records were not stored" in r.output, r.output
    games = sorted(g for (g,) in sqlite3.connect(db).execute("SELECT game FROM results"))
    assert games == ["1", "3"], games


def test_the_local_dask_cluster_serves_no_pages(monkeypatch):
    """S5: the local cluster served Dask's HTTP pages on 127.0.0.1:8787 with the dashboard off."""
    pytest.importorskip("dask.distributed")
    import dask
    from dask.distributed import LocalCluster
    from solver import batch
    seen = {}

    class Probe(LocalCluster):
        def __init__(self, *args, **kwargs):
            seen["routes"] = (dask.config.get("distributed.scheduler.http.routes"),
                              dask.config.get("distributed.worker.http.routes"))
            raise RuntimeError("probe")

    monkeypatch.setattr("dask.distributed.LocalCluster", Probe)
    with pytest.raises(RuntimeError, match="probe"):
        list(batch.run_dask([], None, 1))
    assert seen["routes"] == ([], [])


def test_out_never_writes_through_a_planted_link(tmp_path):
    """S1: ``deal/solve/export --out`` followed a link planted at the output path; now the
    file is written whole beside it and renamed over the link, which leaves its target as
    it was."""
    victim = tmp_path / "victim"
    victim.write_text("keep me\n")
    out = tmp_path / "out.json"
    out.symlink_to(victim)
    assert run("deal", "algerian", "1", "--out", out).exit_code == 0
    assert victim.read_text() == "keep me\n" and not out.is_symlink() and json.loads(out.read_text())["variant"] == "algerian"


def test_one_progress_display_for_the_long_commands():
    """Item 9: three hand-written progress displays; now one, drawn by tqdm: in a log, plain
    lines (no carriage return) every ``every`` seconds and at the end."""
    import io
    import inspect
    from solver import batch
    from solver.cli import solving
    from solver.progress import Progress
    log = io.StringIO()
    shown = Progress(10, "seeds", every=3600, stream=log)
    shown.update(3, "won 2")                  # within the interval: nothing
    shown.update(10, "won 9", force=True)
    shown.close()
    assert "\r" not in log.getvalue() and log.getvalue().count("\n") == 1 and "10/10" in log.getvalue(), log.getvalue()
    assert "won 9" in log.getvalue()
    for source in (inspect.getsource(batch.BatchProgress), inspect.getsource(solving._generate_progress),
                   inspect.getsource(solving._progress)):
        assert "solver.progress import Progress" in source and "\\r" not in source
