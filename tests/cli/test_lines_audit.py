"""CLI: ``patience lines`` rebuilds the table's winning lines and proofs, ``patience audit``
checks them; a small table of our own (a few games of two rows) in a temporary folder."""

import csv
import gzip
import json
import lzma
from pathlib import Path

from click.testing import CliRunner

from solver.cli import main
from solver.table_lines import lines_path, read_header, read_lines

RESULTS = Path(__file__).resolve().parents[2] / "results"
ALGERIAN, TERRACE = "dfec75ca964d", "e8c84be687d4"


def run(*args):
    return CliRunner().invoke(main, list(args))


def small_table(folder: Path, games: dict[str, range], verdicts: dict = {}) -> None:
    """The shipped table cut down to ``games`` of some rows (``verdicts`` overrides)."""
    folder.mkdir()
    sets = json.loads((RESULTS / "rule-sets.json").read_text())
    (folder / "rule-sets.json").write_text(json.dumps({h: sets[h] for h in games}))
    with gzip.open(RESULTS / "records.csv.gz", "rt") as f:
        rows = [r for r in csv.DictReader(f) if r["rules_hash"] in games and int(r["game"]) in games[r["rules_hash"]]]
    for r in rows:
        r["verdict"] = verdicts.get((r["rules_hash"], int(r["game"])), r["verdict"])
    with gzip.open(folder / "records.csv.gz", "wt", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)


def built_row(out: Path) -> list[dict]:
    """``patience lines`` on Algerian's small row: its file's header and entries."""
    assert run("lines", "--out", str(out)).exit_code == 0
    return [json.loads(t) for t in lzma.open(lines_path(out, ALGERIAN), "rt")]


def rewrite_row(out: Path, docs: list[dict]) -> None:
    lines_path(out, ALGERIAN).write_bytes(lzma.compress("".join(json.dumps(d) + "\n" for d in docs).encode()))


def test_lines_then_audit(tmp_path):
    out = tmp_path / "res"
    small_table(out, {ALGERIAN: range(1, 6), TERRACE: range(55, 61)})    # Terrace 59 is lost
    r = run("lines", "--out", str(out))
    assert r.exit_code == 0, r.output
    assert read_header(lines_path(out, ALGERIAN))["solver"].startswith("patience-solver ")
    entries = {e["game"]: e for e in read_lines(lines_path(out, TERRACE))}
    assert entries[59]["verdict"] == "lost" and entries[59]["proof"] and entries[59]["rules"]
    assert [e["game"] for e in read_lines(lines_path(out, ALGERIAN))] == [1, 2, 3, 4, 5]
    r = run("audit", "--out", str(out), "--sample", "1")
    assert r.exit_code == 0, r.output
    assert "5 of 5 winning lines replayed to a win" in r.output
    assert "1 of 1 lost games sampled proved lost again" in r.output


def test_audit_fails_on_a_line_that_does_not_win(tmp_path):
    out = tmp_path / "res"
    small_table(out, {ALGERIAN: range(1, 4)})
    docs = built_row(out)
    docs[2]["moves"] = " ".join(docs[2]["moves"].split()[:-1])          # game 2 one move short
    rewrite_row(out, docs)
    r = run("audit", "--out", str(out), "--sample", "0")
    assert r.exit_code == 1 and "FAILED: games [2]" in r.output, r.output


def test_a_verdict_that_contradicts_the_table_stops_the_rebuild(tmp_path):
    out = tmp_path / "res"
    small_table(out, {ALGERIAN: range(1, 3)}, verdicts={(ALGERIAN, 2): "lost"})
    r = run("lines", "--out", str(out))
    assert r.exit_code == 2 and "game 2: the table says lost, this version won" in r.output
    assert not lines_path(out, ALGERIAN).exists()          # a row is written only whole


def test_no_table_is_one_line(tmp_path):
    for cmd in ("lines", "audit"):
        r = run(cmd, "--out", str(tmp_path))
        assert r.exit_code == 2 and r.output.startswith("error: no published table"), r.output


def test_the_shipped_lines_are_the_tables_rows():
    """Every shipped row file names its row, and holds decided games of the table only."""
    shipped = sorted((RESULTS / "lines").glob("*.jsonl.xz"))
    assert shipped
    sets = json.loads((RESULTS / "rule-sets.json").read_text())
    for path in shipped:
        h = path.name.split(".")[0]
        head = read_header(path)
        assert head["row"] == h and head["rules"] == sets[h]["rules"] and head["budget_nodes"] == sets[h]["budget_nodes"]


def test_a_finished_row_is_not_solved_again(tmp_path):
    out = tmp_path / "res"
    small_table(out, {ALGERIAN: range(1, 3)})
    assert run("lines", "--out", str(out)).exit_code == 0
    r = run("lines", "--out", str(out))
    assert r.exit_code == 0 and "0 games solved this run" in r.output, r.output


def test_a_partial_file_is_checked_like_a_new_solve(tmp_path):
    """A partial file of this version that contradicts the table stops the rebuild; one of
    another version (or without its header) is solved again from the start."""
    from solver.batch import SOLVER_VERSION
    from solver.table_lines import row_header
    out = tmp_path / "res"
    small_table(out, {ALGERIAN: range(1, 3)})
    sets = json.loads((out / "rule-sets.json").read_text())
    partial = out / "lines" / f"{ALGERIAN}.partial.jsonl"
    partial.parent.mkdir()
    lost = json.dumps({"game": 1, "verdict": "lost", "proof": "search", "rules": []})
    partial.write_text(json.dumps(row_header(ALGERIAN, sets[ALGERIAN], SOLVER_VERSION)) + "\n" + lost + "\n")
    r = run("lines", "--out", str(out))
    assert r.exit_code == 2 and "game 1: the table says won, this version lost" in r.output, r.output
    partial.write_text(json.dumps(row_header(ALGERIAN, sets[ALGERIAN], "patience-solver 0.0.1")) + "\n" + lost + "\n")
    r = run("lines", "--out", str(out))
    assert r.exit_code == 0 and "2 games solved this run" in r.output, r.output
    assert [e["verdict"] for e in read_lines(lines_path(out, ALGERIAN))] == ["won", "won"]


def test_audit_of_a_bad_file(tmp_path):
    """A game entered twice or an entry that is not whole fails; an unreadable file is one line."""
    out = tmp_path / "res"
    small_table(out, {ALGERIAN: range(1, 3)})
    docs = built_row(out)
    docs.append(dict(docs[1]))                               # game 1 again
    docs[2] = {"game": 2, "verdict": "won"}                  # no moves
    rewrite_row(out, docs)
    path = lines_path(out, ALGERIAN)
    r = run("audit", "--out", str(out), "--sample", "0")
    assert r.exit_code == 1 and "1 of 2 winning lines replayed" in r.output and "FAILED: games [1, 2]" in r.output, r.output
    path.write_bytes(b"not xz")
    r = run("audit", "--out", str(out))
    assert r.exit_code == 2 and r.output.startswith("error: cannot read ") and r.output.count("\n") == 1, r.output


def test_two_workers_write_what_one_does(tmp_path):
    one, two = tmp_path / "one", tmp_path / "two"
    for out in (one, two):
        small_table(out, {ALGERIAN: range(1, 7), TERRACE: range(55, 61)})
    assert run("lines", "--out", str(one)).exit_code == 0
    r = run("lines", "--out", str(two), "--jobs", "2")
    assert r.exit_code == 0, r.output
    for h in (ALGERIAN, TERRACE):
        assert lines_path(one, h).read_bytes() == lines_path(two, h).read_bytes()
