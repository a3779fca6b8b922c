"""`patience verify PACK.jsonl`: a publisher's file of many deals, verified in parallel,
one line each, bad lines reported, resumable through the solutions file."""

import json
import re
import signal
import subprocess
import sys
import time

from click.testing import CliRunner

from solver.cli import main
from solver.formats import dumps_deal, pysolfc_deal, solution_from_json
from solver.playback import replay
from solver.variants import make_rules


def run(*args):
    return CliRunner().invoke(main, list(args))


def _pack(tmp_path, deals, bad=()):
    """A pack of ``deals``; ``bad``: (line index, text) put in their place."""
    lines = [dumps_deal(d, indent=None) for d in deals]
    for i, text in bad:
        lines.insert(i, text)
    p = tmp_path / "pack.jsonl"
    p.write_text("\n".join(lines) + "\n")
    return p


FALLING = [pysolfc_deal(make_rules("falling-star"), n) for n in (2, 5, 8)]     # won, lost, won


def test_pack_with_a_bad_line_verifies_the_others(tmp_path):
    bad_card = dumps_deal(pysolfc_deal(make_rules("falling-star"), 3), indent=None).replace(
        '"stock": ["', '"stock": ["ZZ", "', 1)
    p = _pack(tmp_path, FALLING, bad=[(1, bad_card), (3, '{"format": "nope"}')])
    sols = tmp_path / "sols.jsonl"
    r = run("verify", str(p), "--jobs", "2", "--budget-nodes", "200000", "--out", str(sols))
    assert r.exit_code == 3, r.output                  # a bad line outranks every verdict
    assert "pack.jsonl:2: stock: position 0 is not a card" in r.output
    assert "pack.jsonl:4: not a deal file" in r.output
    lines = sorted(re.sub(r" \(difficulty: [a-z]+\)$", "", x) for x in r.stdout.splitlines() if x.startswith(str(p)))
    assert lines == [f"{p}#1: winnable in {_moves(sols, 1)} moves", f"{p}#3: unwinnable (proved)",
                     f"{p}#5: winnable in {_moves(sols, 5)} moves"], r.output
    assert r.stdout.count("(difficulty: ") == 2                    # falling-star has tiers: each win names one
    assert "5 deals: winnable 2, unwinnable 1, unknown 0, bad lines 2" in r.output
    docs = [json.loads(x) for x in sols.read_text().splitlines()]
    assert sorted(d["pack"]["line"] for d in docs) == [1, 3, 5]
    for d in docs:
        solution, deal = solution_from_json(d)
        assert deal.layout == FALLING[[1, 3, 5].index(d["pack"]["line"])].layout
        if solution.outcome == "won":
            assert replay(deal, solution.moves).ok


def _moves(sols, line):
    return next(len(d["moves"]) for d in map(json.loads, sols.read_text().splitlines()) if d["pack"]["line"] == line)


def test_pack_exit_status_is_the_worst_verdict(tmp_path):
    won = _pack(tmp_path, [FALLING[0], FALLING[2]])
    assert run("verify", str(won), "--jobs", "1", "--budget-nodes", "200000").exit_code == 0
    assert run("verify", str(_pack(tmp_path, FALLING)), "--jobs", "2", "--budget-nodes", "200000").exit_code == 1
    r = run("verify", str(_pack(tmp_path, [FALLING[2], pysolfc_deal(make_rules("reinforcements"), 2)])),
            "--jobs", "2", "--budget-nodes", "3000", "--json")
    docs = [json.loads(x) for x in r.stdout.splitlines()]
    assert r.exit_code == 2 and sorted(d["verdict"] for d in docs) == ["unknown", "won"], r.output


def test_pack_resumes_from_its_solutions_file(tmp_path):
    """A second run takes every stored win and unknown from the solutions file (a loss is
    proved again, and not written twice); a last line cut by a killed run is dropped and its
    deal solved again; another budget is another question, solved again."""
    p = _pack(tmp_path, FALLING)
    sols = tmp_path / "sols.jsonl"
    args = ["verify", str(p), "--jobs", "2", "--budget-nodes", "200000", "--out", str(sols)]
    assert run(*args).exit_code == 1
    first = sols.read_text()
    r = run(*args)
    assert r.exit_code == 1 and r.stdout.count("(stored)") == 2 and "(2 from" in r.output, r.output
    assert sols.read_text() == first
    kept = first.splitlines(keepends=True)
    sols.write_text("".join(kept[:2]) + kept[2][:40])          # killed while writing the third
    r = run(*args)
    assert r.exit_code == 1 and r.stdout.count("(stored)") == 1, r.output
    docs = [json.loads(x) for x in sols.read_text().splitlines()]
    assert sorted(d["pack"]["line"] for d in docs) == [1, 2, 3]
    r = run("verify", str(p), "--jobs", "2", "--budget-nodes", "100000", "--out", str(sols))
    assert r.stdout.count("(stored)") == 0 and len(sols.read_text().splitlines()) == 6, r.output


def test_pack_line_whose_rules_refuse_a_rule_is_a_bad_line(tmp_path):
    """`--dominance reserve_order` holds for Falling Star, not for PySolFC's Queen of Italy
    (take-back): that line is reported, the other verified."""
    p = _pack(tmp_path, [FALLING[1], pysolfc_deal(make_rules("queen-of-italy-pysolfc"), 1)])
    r = run("verify", str(p), "--jobs", "1", "--budget-nodes", "20000", "--dominance", "reserve_order")
    assert r.exit_code == 3 and "pack.jsonl:2: reserve_order needs" in r.output, r.output
    assert f"{p}#1: unwinnable (proved)" in r.stdout


def test_ctrl_c_in_a_pack_keeps_the_finished_deals(tmp_path, reap):
    """Ctrl-C while a pack is verified: 130, the finished deals are in the solutions file
    (whole lines), and the same command resumes with them."""
    algerian = [pysolfc_deal(make_rules("algerian"), n) for n in (1, 2)]
    slow = pysolfc_deal(make_rules("alhambra"), 2)         # unknown: it runs to its time limit
    p = _pack(tmp_path, algerian + [slow, pysolfc_deal(make_rules("algerian"), 3)])
    sols = tmp_path / "sols.jsonl"
    cmd = [sys.executable, "-m", "solver", "verify", str(p), "--jobs", "1", "--budget-nodes", "1000000000",
           "--time-limit", "4", "--out", str(sols)]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    reap(proc)
    deadline = time.time() + 300
    while time.time() < deadline and not (sols.exists() and sols.read_text().count("\n") >= 2):
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    assert "run the same command again to resume" in err and "Traceback" not in err
    docs = [json.loads(x) for x in sols.read_text().splitlines()]
    assert [d["pack"]["line"] for d in docs] == [1, 2]
    again = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert again.returncode == 2 and again.stdout.count("(stored)") == 2, again.stderr
    assert sorted(json.loads(x)["pack"]["line"] for x in sols.read_text().splitlines()) == [1, 2, 3, 4]


def test_a_forged_stored_win_is_solved_again(tmp_path):
    """A stored "won" whose line does not win (edited, or not ours) is not taken."""
    p = _pack(tmp_path, [FALLING[0]])
    sols = tmp_path / "sols.jsonl"
    args = ["verify", str(p), "--jobs", "1", "--budget-nodes", "200000", "--out", str(sols)]
    assert run(*args).exit_code == 0
    doc = json.loads(sols.read_text())
    doc["moves"] = doc["moves"][:-1]
    sols.write_text(json.dumps(doc) + "\n")
    r = run(*args)
    assert r.exit_code == 0 and "(stored)" not in r.stdout and ": winnable in" in r.stdout, r.output


def _generate(tmp_path, name, *args):
    out = tmp_path / f"{name}.jsonl"
    r = run("generate", *args, "--out", str(out))
    return r, out, tmp_path / f"{name}.solutions.jsonl"


def test_generate_winnable_deals_reproducibly(tmp_path):
    """The same seed gives the same pack with one worker or two; every deal kept is won by
    its solution on the reference engine, and records its shuffle and tries; `verify` on the
    pack finds every verdict in the solutions file."""
    common = ["terrace", "--winnable", "--count", "4", "--seed", "11", "--budget-nodes", "100000"]
    r1, out1, sols1 = _generate(tmp_path, "one", *common, "--jobs", "1")
    r2, out2, _ = _generate(tmp_path, "two", *common, "--jobs", "2")
    assert r1.exit_code == 0 and r2.exit_code == 0, r1.output + r2.output
    assert out1.read_text() == out2.read_text()
    deals = [json.loads(x) for x in out1.read_text().splitlines()]
    sols = [json.loads(x) for x in sols1.read_text().splitlines()]
    assert len(deals) == len(sols) == 4
    tried = int(r1.output.split("kept 4 of ")[1].split()[0])
    assert sum(d["source"]["generated"]["tries"] for d in deals) == tried
    assert [d["source"]["generated"]["shuffle"] for d in deals] == sorted(d["source"]["generated"]["shuffle"]
                                                                          for d in deals)
    for s in sols:
        solution, deal = solution_from_json(s)
        assert solution.outcome == "won" and replay(deal, solution.moves).ok
    r = run("verify", str(out1), "--jobs", "1", "--budget-nodes", "100000", "--out", str(sols1))
    assert r.exit_code == 0 and r.stdout.count("(stored)") == 4, r.output
    _, out3, _ = _generate(tmp_path, "other", *common[:-3], "12", "--budget-nodes", "100000", "--jobs", "1")
    assert out3.read_text() != out1.read_text()


def test_generate_unwinnable_deals_and_say_when_too_few(tmp_path):
    r, out, sols = _generate(tmp_path, "lost", "falling-star", "--unwinnable", "--count", "2", "--seed", "3",
                             "--budget-nodes", "100000", "--jobs", "2")
    assert r.exit_code == 0, r.output
    assert [json.loads(x)["outcome"] for x in sols.read_text().splitlines()] == ["lost", "lost"]
    r = run("verify", str(out), "--jobs", "2", "--budget-nodes", "100000")
    assert r.exit_code == 1 and r.stdout.count("unwinnable (proved)") == 2, r.output
    r, out, _ = _generate(tmp_path, "few", "granada", "--unwinnable", "--count", "1", "--seed", "3",
                          "--max-tries", "3", "--budget-nodes", "20000", "--jobs", "1")
    assert r.exit_code == 2 and "only 0 of 1 unwinnable deals in 3 tries" in r.output, r.output
    r, _, _ = _generate(tmp_path, "none", "terrace", "--count", "1", "--seed", "1")
    assert r.exit_code == 2 and "--winnable or --unwinnable" in r.output


def test_solutions_file_repair_and_refusal(tmp_path):
    """A whole last document lacking only its newline is kept (and taken); a file that is
    not JSON lines (e.g. an indented solution file) is refused, untouched."""
    p = _pack(tmp_path, [FALLING[0], FALLING[1]])
    sols = tmp_path / "sols.jsonl"
    args = ["verify", str(p), "--jobs", "1", "--budget-nodes", "200000", "--out", str(sols)]
    assert run(*args).exit_code == 1
    sols.write_text(sols.read_text().rstrip("\n"))
    r = run(*args)
    assert r.exit_code == 1 and r.stdout.count("(stored)") == 1, r.output     # the loss is proved again
    assert sols.read_text().endswith("}\n") and len(sols.read_text().splitlines()) == 2
    single = tmp_path / "one.jsonl"
    assert run("solve", "falling-star", "2", "--budget-nodes", "200000", "--out", str(single)).exit_code == 0
    before = single.read_bytes()
    r = run("verify", str(p), "--jobs", "1", "--budget-nodes", "200000", "--out", str(single))
    assert r.exit_code == 3 and "is not a solutions file (line" in r.output, r.output
    assert single.read_bytes() == before


def test_stored_wins_name_their_base_and_generate_never_overwrites(tmp_path):
    p = _pack(tmp_path, [pysolfc_deal(make_rules("terrace"), 1)])
    sols = tmp_path / "sols.jsonl"
    args = ["verify", str(p), "--jobs", "1", "--budget-nodes", "200000", "--out", str(sols)]
    first = run(*args).stdout.strip()
    again = run(*args).stdout.strip()
    assert " with base " in first and again == first.split(": ", 1)[0] + ": " + first.split(": ", 1)[1] + " (stored)"
    r, out, _ = _generate(tmp_path, "gen", "terrace", "--winnable", "--count", "1", "--seed", "1",
                          "--budget-nodes", "100000", "--jobs", "1")
    assert r.exit_code == 0
    before = out.read_bytes()
    r, _, _ = _generate(tmp_path, "gen", "terrace", "--winnable", "--count", "1", "--seed", "2", "--jobs", "1")
    assert r.exit_code == 2 and "exists" in r.output and out.read_bytes() == before


def test_a_stored_loss_is_proved_again(tmp_path):
    """D11 (issue 66): a "lost" in a solutions file was taken on trust by a resumed
    ``verify --out``: edited into the file of a winnable deal, it made ``verify`` exit 1."""
    p = _pack(tmp_path, [FALLING[0]])
    sols = tmp_path / "sols.jsonl"
    args = ["verify", str(p), "--jobs", "1", "--budget-nodes", "200000", "--out", str(sols)]
    assert run(*args).exit_code == 0
    doc = json.loads(sols.read_text())
    sols.write_text(json.dumps(dict(doc, outcome="lost", moves=[])) + "\n")
    r = run(*args)
    assert r.exit_code == 0 and "(stored)" not in r.stdout and ": winnable in" in r.stdout, r.output
