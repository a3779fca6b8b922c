"""CLI: patience solve / patience verify, every exit code and bad input."""

import json
import re

import pytest

from click.testing import CliRunner

from solver.cli import main, parse_bytes
from solver.formats import write_deal
from solver.miniature import random_miniature_deal
from tests.test_replay_oracle import HAND_MADE, KNOWN_LOST


def run(*args):
    return CliRunner().invoke(main, list(args))


def test_solve_algerian_prints_certified_line(tmp_path):
    out = tmp_path / "sol.json"
    r = run("solve", "algerian", "1", "--out", str(out))
    assert r.exit_code == 0, r.output
    assert "won in" in r.output and "certified" in r.output and "nodes" in r.output
    doc = json.loads(out.read_text())
    assert doc["outcome"] == "won" and doc["producer"]["budget"]["nodes"] == 1_000_000   # Algerian's budget
    assert doc["producer"]["budget"]["search"].startswith("restarts(")
    r = run("replay", str(out))
    assert r.exit_code == 0


def test_solve_no_restarts_is_recorded(tmp_path):
    out = tmp_path / "sol.json"
    r = run("solve", "algerian", "7", "--no-restarts", "--out", str(out))
    assert r.exit_code == 0 and "won in" in r.output, r.output
    doc = json.loads(out.read_text())
    assert doc["producer"]["budget"]["search"] == "plain" and doc["producer"]["attempts"] == 1


def test_solve_show_and_unknown_hint():
    r = run("solve", "algerian", "7", "--show")
    assert r.exit_code == 0 and "Foundations" in r.output
    r = run("solve", "algerian", "91", "--budget-nodes", "500")
    assert r.exit_code == 0 and "unknown (nodes)" in r.output and "--budget-nodes 5000" in r.output
    r = run("solve", "algerian", "91", "--memory", "2K")
    # the table grows by doubling: the hint is the next doubling (issue 17 item 18)
    assert "unknown (memory)" in r.output and r.output.splitlines()[-1].endswith("--memory 4K"), r.output
    r = run("solve", "algerian", "91", "--time-limit", "0.001", "--budget-nodes", "100000000000")
    assert "unknown (time)" in r.output


def test_solve_deal_file_and_rules(tmp_path):
    deal, _ = HAND_MADE["algerian"]
    p = tmp_path / "d.json"
    write_deal(deal, p)
    r = run("solve", "--deal", str(p))
    assert r.exit_code == 0 and "won in " in r.output
    r = run("solve", "algerian", "3", "--rule", "layout=B", "--profile", "pysolfc", "--budget-nodes", "1000")
    assert r.exit_code == 0 and "layout=B" in r.output


def test_solve_bad_input():
    for args, text in [(("solve", "algerian", "0"), "game number 0"),
                       (("solve", "algerain", "1"), "did you mean"),
                       (("solve", "algerian", "1", "--memory", "lots"), "bad --memory"),
                       (("solve", "algerian", "1", "--dominance", "magic"), "unknown dominance rule"),
                       (("solve", "granada", "1", "--dominance", "met_foundation"), "needs one waste pile"),
                       (("solve",), "usage")]:
        r = run(*args)
        assert r.exit_code == 2 and text in r.output, (args, r.output)
    r = run("solve", "algerian", "1", "--budget-nodes", "0")
    assert r.exit_code == 2


def test_verify_exit_codes(tmp_path):
    deal, _ = HAND_MADE["algerian"]
    p = tmp_path / "won.json"
    write_deal(deal, p)
    sol = tmp_path / "sol.json"
    r = run("verify", str(p), "--out", str(sol))
    assert r.exit_code == 0 and r.output.startswith(f"{p}: winnable in ") and sol.exists()
    # A proved-unwinnable hand-written deal: the Algerian known-lost position as a deal file.
    from solver.formats import custom_deal
    from solver.layout import Layout
    e, pos = KNOWN_LOST["algerian"]
    lost = custom_deal("algerian", Layout(pos.foundations, pos.reserves, pos.tableau, (), pos.stock),
                       dict(e.rules.as_dict()))
    lp = tmp_path / "lost.json"
    write_deal(lost, lp)
    r = run("verify", str(lp))
    assert r.exit_code == 1 and "unwinnable (proved)" in r.output
    r = run("verify", str(p), "--budget-nodes", "1", "--json")
    doc = json.loads(r.output)
    assert r.exit_code == 2 and doc["verdict"] == "unknown" and doc["reason"] == "nodes"
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    r = run("verify", str(bad))
    assert r.exit_code == 3 and r.output.startswith("error:")
    r = run("verify", str(tmp_path / "missing.json"))
    assert r.exit_code == 3


def test_verify_bad_input_always_exits_3_and_a_crash_4(tmp_path, monkeypatch):
    """Publishers' scripts read verify's status: usage errors exited 2 ("unknown") and any
    crash 1 ("proved unwinnable") (issue 17 item 2). Every bad input is 3, an internal error 4,
    and --out is checked before the solve."""
    deal, _ = HAND_MADE["algerian"]
    p = tmp_path / "d.json"
    write_deal(deal, p)
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 200_000 + "]" * 200_000)
    big = tmp_path / "big.json"
    big.write_bytes(b"x" * (2 << 20))
    doc = json.loads(p.read_text())
    doc["source"] = {"kind": "pysolfc", "game": "9" * 5000}
    huge = tmp_path / "huge.json"
    huge.write_text(json.dumps(doc))
    for args in [(), (str(p), "extra"), (str(p), "--budget-nodes", "0"), (str(tmp_path),), (str(deep),),
                 (str(big),), (str(huge),), (str(p), "--out", str(tmp_path / "no" / "x.json"))]:
        r = run("verify", *args)
        assert r.exit_code == 3 and "Traceback" not in r.output, (args, r.exit_code, r.output)
    import solver.driver

    def broken(*a, **k):
        raise RuntimeError("a kernel bug")
    monkeypatch.setattr(solver.driver, "solve", broken)
    r = run("verify", str(p))
    assert r.exit_code == 4 and "internal error" in r.output, r.output


def test_verify_terrace_deal(tmp_path):
    """A miniature Terrace deal is decided; a won verdict comes with a line that replays."""
    import random
    p, out = tmp_path / "ter.json", tmp_path / "sol.json"
    write_deal(random_miniature_deal("terrace", random.Random(1)), p)
    r = run("verify", str(p), "--out", str(out))
    assert r.exit_code in (0, 1), r.output
    if r.exit_code == 0:
        assert run("replay", str(p), str(out)).exit_code == 0


def test_parse_bytes():
    assert parse_bytes("1G") == 1 << 30 and parse_bytes("512M") == 512 << 20 and parse_bytes("4096") == 4096


def test_solve_alhambra_family(tmp_path):
    """The same commands for the Alhambra family: Granada #1 is won; Alhambra #41 is won
    with the met_foundation rule (recorded in the solution), and unknown at 2,000 nodes."""
    r = run("solve", "granada", "1")
    assert r.exit_code == 0 and "won in" in r.output and "certified" in r.output, r.output
    out = tmp_path / "alh41.json"
    r = run("solve", "alhambra", "41", "--dominance", "met_foundation", "--budget-nodes", "1000000",
            "--out", str(out))
    assert r.exit_code == 0 and "won in" in r.output, r.output
    doc = json.loads(out.read_text())
    assert doc["producer"]["dominance"] == ["met_foundation"]
    assert run("replay", str(out)).exit_code == 0
    r = run("solve", "alhambra", "41", "--dominance", "none", "--budget-nodes", "2000")
    assert "unknown (nodes)" in r.output and r.exit_code == 0, r.output


def test_dominance_all_names_every_rule_the_rules_allow(tmp_path):
    """'all' is the default; 'none' is the unpruned search."""
    out = tmp_path / "alh.json"
    every = ["deal_through_inert", "met_foundation", "dead_waste_block", "dead_stock_order", "free_reserve_relaxation",
             "next_pass_projection", "schedule_relaxation"]
    for extra in [("--dominance", "all"), ()]:
        r = run("solve", "alhambra", "52", *extra, "--budget-nodes", "300000", "--out", str(out))
        assert r.exit_code == 0 and "won in" in r.output, r.output
        assert json.loads(out.read_text())["producer"]["dominance"] == every
    r = run("solve", "alhambra", "52", "--dominance", "none", "--budget-nodes", "3000", "--out", str(out))
    assert r.exit_code == 0 and "unknown (nodes)" in r.output, r.output
    assert json.loads(out.read_text())["producer"]["dominance"] == []
    r = run("solve", "alhambra", "52", "--dominance", "none", "--dominance", "met_foundation")
    assert r.exit_code == 2 and "cannot be combined" in r.output, r.output
    r = run("solve", "granada", "1", "--dominance", "all", "--out", str(out))
    assert r.exit_code == 0 and json.loads(out.read_text())["producer"]["dominance"] == []
    r = run("solve", "reinforcements", "1", "--dominance", "all", "--budget-nodes", "1000", "--out", str(out))
    # with two redeals the refill model's skeleton, not the whole model (minutes a deal)
    assert json.loads(out.read_text())["producer"]["dominance"] == ["deal_through_inert", "dead_waste_block",
                                                                   "dead_stock_order", "schedule_skeleton"]


def test_verify_alhambra_deal_file(tmp_path):
    import random
    rng = random.Random(3)
    codes = set()
    for i in range(12):
        p = tmp_path / f"alh{i}.json"
        write_deal(random_miniature_deal("alhambra", rng, {"redeals": 0, "stop_at_third_exhaustion": i % 2 == 0},
                                         small=True), p)
        r = run("verify", str(p), "--json")
        doc = json.loads(r.output)
        assert r.exit_code == {"won": 0, "lost": 1, "unknown": 2}[doc["verdict"]]
        codes.add(r.exit_code)
    assert codes >= {0, 1}


@pytest.mark.parametrize("variant", ["terrace", "queen-of-italy-pysolfc", "generals-patience",
                                     "blondes-and-brunettes", "falling-star", "redheads"])
def test_solve_terrace_variants(variant, tmp_path):
    """Full-size deals end with a verdict and its figures (General's Patience #1 is proved
    lost at once); a miniature deal is decided."""
    r = run("solve", variant, "1", "--budget-nodes", "20000")
    verdict = "lost" if variant == "generals-patience" else "(won|unknown)"
    assert r.exit_code == 0 and re.search(rf"#1: {verdict}\b", r.output) and "nodes " in r.output, r.output
    r = run("solve", variant, "2", "--rule", "ranks=4", "--rule", "suits=2", "--rule", "reserve_size=3",
            "--rule", "tableau_piles=3", "--rule", "base_choices=2")
    assert r.exit_code == 0 and ("won" in r.output or "lost" in r.output), r.output


# Terrace game 4 on a miniature shape (found by exhaustive search of each base choice): of the
# four candidate bases AH, 4C, 3C and AC only 3C (tableau pile t2) wins.
ONE_BASE_WINS = ["terrace", "4", "--rule", "ranks=4", "--rule", "suits=2", "--rule", "reserve_size=5",
                 "--rule", "tableau_piles=4", "--rule", "found_build=SS"]


def test_base_choice_where_only_one_choice_wins(tmp_path):
    """The deal is won through the one winning base and says which; with the choice cut to
    the first two candidates (both lost) the deal is proved lost (every choice searched)."""
    from solver.engine import engine_for
    from solver.cli import load_deal
    from solver.oracle import exhaustive_search
    deal = load_deal(ONE_BASE_WINS[0], ONE_BASE_WINS[1], tuple(ONE_BASE_WINS[3::2]), None)
    e = engine_for(deal.rules)
    pos = e.initial_position(deal.layout)
    verdicts = {str(m): exhaustive_search(e, e.play(pos, m), max_states=50_000).verdict for m in e.legal_moves(pos)}
    assert verdicts == {"base:0:AH": "lost", "base:1:4C": "lost", "base:2:3C": "won", "base:3:AC": "lost"}
    r = run("solve", *ONE_BASE_WINS)
    assert r.exit_code == 0 and "won in" in r.output and "with base 3C from t2" in r.output, r.output
    r = run("solve", *ONE_BASE_WINS, "--rule", "base_choices=2")
    assert "lost (complete search)" in r.output, r.output
    p = tmp_path / "deal.json"
    write_deal(deal, p)
    r = run("verify", str(p), "--json")
    doc = json.loads(r.output)
    assert r.exit_code == 0 and doc["verdict"] == "won" and doc["base"] == "3C from t2", doc


def test_non_finite_time_limit_is_refused(tmp_path):
    """nan and inf passed the float range and a NaN budget was written into the store, after
    which every batch on it failed (issue 17 item 7): both are refused with one line."""
    for v in ("nan", "inf"):
        for cmd in (("solve", "algerian", "1"), ("batch", "algerian", "--seeds", "1", "--db", str(tmp_path / "r.db"))):
            r = run(*cmd, "--time-limit", v)
            assert r.exit_code == 2 and "not a finite number" in r.output and "Traceback" not in r.output, (cmd, r.output)
    assert not (tmp_path / "r.db").exists()


def test_unwritable_cache_folder_falls_back_to_a_temporary_one(tmp_path):
    """With no writable cache folder every solve crashed ('cannot cache function', issue 17
    item 10): the cache goes to a temporary folder, with a one-line note. (That folder is
    seeded with this run's cache, so that the solve loads its kernels rather than compiling
    them, 40 s; what is missing is compiled and cached there.)"""
    import os
    import shutil
    import subprocess
    import sys

    from solver.jit import cache_dir
    here = os.environ.get("NUMBA_CACHE_DIR") or str(cache_dir())
    fallback = tmp_path / f"patience-solver-{os.getuid()}" / cache_dir().name
    if os.path.isdir(here):
        shutil.copytree(here, fallback)
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env["XDG_CACHE_HOME"] = "/proc/no-such-folder"          # cannot be created, even by root
    env["TMPDIR"] = str(tmp_path)
    r = subprocess.run([sys.executable, "-m", "solver", "solve", "algerian", "1", "--budget-nodes", "2000"],
                       capture_output=True, text=True, env=env, timeout=600)
    assert r.returncode == 0 and ("unknown" in r.stdout or "won" in r.stdout), r.stderr
    assert f"is not writable; numba's cache is in {fallback}" in r.stderr and "Traceback" not in r.stderr
