"""A won deal's difficulty on the command line (``docs/difficulty.md``): ``verify``'s
``difficulty``, ``generate --winnable --difficulty TIER``, and ``export``'s ``tier`` column
and ``--winnable --difficulty TIER``."""

import csv
import io
import json

from click.testing import CliRunner

from solver import difficulty
from solver.cli import main
from solver.difficulty import TIERS
from solver.variants import make_rules


def run(*args):
    return CliRunner().invoke(main, list(args))


def _errors(r):
    return [line for line in r.output.splitlines() if line.startswith("error:")]


def test_generate_keeps_deals_of_the_tier_that_verify_gives(tmp_path):
    pack = tmp_path / "easy.jsonl"
    r = run("generate", "terrace", "--winnable", "--difficulty", "easy", "--count", "2", "--seed", "3",
            "--out", str(pack), "--jobs", "1")
    assert r.exit_code == 0, r.output
    assert "2 easy deals" in r.output and "kept 2 of" in r.output
    assert len(pack.read_text().splitlines()) == 2
    r = run("verify", str(pack), "--json", "--jobs", "1")
    assert r.exit_code == 0, r.output
    docs = [json.loads(x) for x in r.stdout.splitlines()]
    rules_hash = make_rules("terrace").hash()
    assert len(docs) == 2 and all(d["verdict"] == "won" for d in docs)
    for d in docs:
        assert d["difficulty"] == {"nodes": d["nodes"], "tier": "easy"}, d
        assert d["nodes"] <= difficulty.row_bounds(rules_hash)[0]


def test_verify_says_the_tier_of_a_won_deal(tmp_path):
    deal = tmp_path / "deal.json"
    assert run("deal", "algerian", "1", "--out", str(deal)).exit_code == 0
    r = run("verify", str(deal), "--json")
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    want = difficulty.tier(make_rules("algerian").hash(), doc["nodes"])
    assert want in TIERS and doc["difficulty"] == {"nodes": doc["nodes"], "tier": want}
    r = run("verify", str(deal))
    assert r.exit_code == 0 and f"(difficulty: {want})" in r.stdout, r.output


def test_generate_difficulty_errors(tmp_path):
    pack = tmp_path / "p.jsonl"
    r = run("generate", "terrace", "--unwinnable", "--difficulty", "hard", "--count", "1", "--seed", "1",
            "--out", str(pack), "--jobs", "1")
    assert r.exit_code == 2 and len(_errors(r)) == 1, r.output
    assert "--difficulty goes with --winnable" in r.output
    rules = make_rules("terrace", {"redeals": 1})
    assert difficulty.row_bounds(rules.hash()) is None          # no row of the table has these rules
    assert difficulty.row_bounds(make_rules("terrace").hash()) is not None
    r = run("generate", "terrace", "--winnable", "--difficulty", "easy", "--rule", "redeals=1", "--count", "1",
            "--seed", "1", "--out", str(pack), "--jobs", "1")
    assert r.exit_code == 2 and len(_errors(r)) == 1, r.output
    assert r.output == (f"error: {rules.describe()} (rules {rules.hash()}): no difficulty tiers for these rules: "
                        f"the published table has no row of them\n")
    assert not pack.exists() and not list(tmp_path.iterdir())


def test_export_tiers(tmp_path):
    db = str(tmp_path / "r.db")
    r = run("batch", "algerian", "--seeds", "1-30", "--jobs", "1", "--db", db)
    assert r.exit_code == 0, r.output
    # a few games at a tiny budget, so that the store holds records that are not won
    r = run("batch", "algerian", "--seeds", "31-36", "--budget-nodes", "400", "--jobs", "1", "--db", db)
    assert r.exit_code == 0, r.output
    r = run("export", "--db", db, "--format", "csv", "--out", "-")
    assert r.exit_code == 0, r.output
    records = list(csv.DictReader(io.StringIO(r.stdout)))
    assert len(records) == 36 and "tier" in records[0]
    won = [x for x in records if x["verdict"] == "won"]
    assert len(won) >= 30 and len(won) < 36
    for x in records:
        want = difficulty.tier(x["rules_hash"], int(x["nodes"])) if x["verdict"] == "won" else None
        assert x["tier"] == (want or ""), x
        assert (x["tier"] in TIERS) == (x["verdict"] == "won"), x
    games = {t: sorted((x["game"] for x in won if x["tier"] == t), key=int) for t in TIERS}
    assert sum(bool(g) for g in games.values()) >= 2, games          # the games spread over tiers

    def numbers(*args):
        r = run("export", "--db", db, "--out", "-", "--winnable", "--variant", "algerian", *args)
        assert r.exit_code == 0, r.output
        return r.stdout.split()
    assert numbers("--difficulty", "easy") == games["easy"]
    union = []
    for t in TIERS:
        got = numbers("--difficulty", t)
        assert got == games[t], t
        union += got
    assert sorted(union, key=int) == numbers() == sorted((x["game"] for x in won), key=int)
    r = run("export", "--db", db, "--out", "-", "--lost", "--difficulty", "easy")
    assert r.exit_code == 2 and _errors(r) == ["error: --difficulty goes with --winnable"], r.output
