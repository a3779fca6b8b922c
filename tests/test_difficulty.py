"""A won deal's difficulty (``solver.difficulty``): the boundaries of the tiers, a deal's
tier, the calibration on a table row, and the shipped ``results/tiers.json`` being the
one the shipped records give."""

import json
import math
import random
from pathlib import Path

import pytest

from solver import difficulty as d
from solver.difficulty import SHARES, TIERS, bounds, calibrate, tier, tier_of, tiers_json

RESULTS = Path(__file__).resolve().parent.parent / "results"


def _kth(values, share_percent):
    """The k-th smallest of ``values`` for k = ceil(share * n), in integer arithmetic."""
    ordered = sorted(values)
    return ordered[max(0, -(-len(ordered) * share_percent // 100)) - 1]


def test_bounds_are_the_kth_smallest_at_the_cumulative_shares():
    assert SHARES == (0.50, 0.30, 0.15, 0.05) and TIERS == ("easy", "medium", "hard", "expert")
    values = list(range(1, 101))
    random.Random(1).shuffle(values)
    assert bounds(values) == [50, 80, 95]
    assert bounds([7]) == [7, 7, 7]
    assert bounds([3, 1]) == [1, 3, 3]                 # k = 1, 2, 2 of 2
    assert bounds([10, 30, 20]) == [20, 30, 30]        # k = 2, 3, 3 of 3
    assert bounds(range(1, 8)) == [4, 6, 7]            # k = ceil(3.5), ceil(5.6), ceil(6.65)
    assert bounds(range(1, 21)) == [10, 16, 19]
    assert bounds(x * 1000 for x in range(1, 101)) == [50_000, 80_000, 95_000]   # any iterable


def test_bounds_of_no_deals_are_none():
    assert bounds([]) == []
    assert bounds(iter(())) == []


def test_bounds_with_ties():
    assert bounds([5] * 40) == [5, 5, 5]
    values = [1] * 60 + [2] * 30 + [3] * 10            # the 50th, 80th and 95th smallest
    random.Random(2).shuffle(values)
    assert bounds(values) == [1, 2, 3]


def test_bounds_are_exact_for_every_size():
    """Whole percents: summed in floating point, 0.5 + 0.3 + 0.15 is 0.9500000000000001 and
    for n = 60, 120, 220, ... the last boundary was one deal too high."""
    wrong = [n for n in range(1, 2001)
             if bounds(range(1, n + 1)) != [_kth(range(1, n + 1), p) for p in (50, 80, 95)]]
    assert not wrong, wrong[:10]


def test_tier_of_boundaries_are_inclusive_and_the_last_tier_is_beyond():
    b = [10, 20, 30]
    assert [tier_of(n, b) for n in (0, 10, 11, 20, 21, 30, 31, 10 ** 12)] == \
        ["easy", "easy", "medium", "medium", "hard", "hard", "expert", "expert"]
    assert tier_of(5, [5, 5, 5]) == "easy" and tier_of(6, [5, 5, 5]) == "expert"
    assert tier_of(1, []) == "easy"                   # no boundaries: the first tier


def _records(rules_hash, variant, nodes, lost=0):
    out = [{"rules_hash": rules_hash, "variant": variant, "verdict": "won", "nodes": n} for n in nodes]
    out += [{"rules_hash": rules_hash, "variant": variant, "verdict": v, "nodes": 1_000_000}
            for v in ("lost", "unknown") for _ in range(lost)]
    return out


def test_calibrate_shares_on_a_large_row():
    rng = random.Random(3)
    nodes = [int(rng.lognormvariate(8, 2)) for _ in range(20_000)]   # ties among the small ones
    assert len(set(nodes)) < len(nodes)
    sets = {"aaaaaaaaaaaa": {"variant": "terrace", "profile": None, "solver_versions": ["patience-solver 9.9.9"]},
            "bbbbbbbbbbbb": {"variant": "algerian", "profile": "pysolfc"},          # no won record: no row
            "cccccccccccc": {"variant": "granada"}}
    records = (_records("aaaaaaaaaaaa", "terrace", nodes, lost=500) + _records("bbbbbbbbbbbb", "algerian", [], lost=3)
               + _records("cccccccccccc", "granada", [4, 4, 4, 9]))
    rng.shuffle(records)
    cal = calibrate(records, sets)
    assert list(cal) == ["aaaaaaaaaaaa", "cccccccccccc"]
    row = cal["aaaaaaaaaaaa"]
    assert row["variant"] == "terrace" and row["profile"] is None and row["won"] == 20_000
    assert row["solver_versions"] == ["patience-solver 9.9.9"]
    assert row["bounds"] == bounds(nodes)
    assert list(row["shares"]) == list(TIERS)
    assert math.isclose(sum(row["shares"].values()), 1, abs_tol=1e-3)
    for t, share in zip(TIERS, SHARES):
        assert abs(row["shares"][t] - share) < 0.005, (t, row["shares"])
        assert row["shares"][t] == round(sum(d.tier_of(n, row["bounds"]) == t for n in nodes) / len(nodes), 4)
    # four wins, three of them tied: the ties share a tier, whatever the stated shares
    small = cal["cccccccccccc"]
    assert small["bounds"] == [4, 9, 9] and small["profile"] is None and small["solver_versions"] is None
    assert small["shares"] == {"easy": 0.75, "medium": 0.25, "hard": 0.0, "expert": 0.0}


def test_tiers_json_is_sorted_and_newline_ended():
    sets = {"h2": {"variant": "b"}, "h1": {"variant": "a"}}
    text = tiers_json(_records("h2", "b", [3, 1, 2]) + _records("h1", "a", [5]), sets)
    assert text.endswith(b"}\n") and list(json.loads(text)) == ["h1", "h2"]
    assert json.loads(text)["h2"]["bounds"] == [2, 3, 3]


@pytest.mark.skipif(not (RESULTS / "records.csv.gz").exists(), reason="no table shipped yet")
def test_the_shipped_tiers_are_those_of_the_shipped_records():
    from solver.report import read_files
    shipped = (RESULTS / d.TIERS_NAME).read_bytes()
    assert shipped == tiers_json(*read_files(RESULTS))
    assert d.TIERS_FILE == RESULTS / "tiers.json"
    rows = json.loads(shipped)
    sets = json.loads((RESULTS / "rule-sets.json").read_text())
    assert set(rows) <= set(sets)
    for rules_hash, row in rows.items():
        assert d.row_bounds(rules_hash) == row["bounds"] and len(row["bounds"]) == len(TIERS) - 1
        assert row["bounds"] == sorted(row["bounds"])
        assert math.isclose(sum(row["shares"].values()), 1, abs_tol=1e-3)


def test_tier_and_difficulty():
    rows = json.loads((RESULTS / d.TIERS_NAME).read_text())
    rules_hash, row = next(iter(rows.items()))
    b = row["bounds"]
    assert d.tier(rules_hash, b[0]) == "easy" and d.tier(rules_hash, b[0] + 1) in ("medium", "hard", "expert")
    assert d.tier(rules_hash, b[-1] + 1) == "expert"
    assert "000000000000" not in rows
    assert d.row_bounds("000000000000") is None and d.tier("000000000000", 1) is None
    assert d.difficulty(rules_hash, "won", b[-1] + 1) == {"nodes": b[-1] + 1, "tier": "expert"}
    assert d.difficulty("000000000000", "won", 5) == {"nodes": 5, "tier": None}
    for verdict in ("lost", "unknown"):
        assert d.difficulty(rules_hash, verdict, 5) is None
        assert d.difficulty("000000000000", verdict, 5) is None


def test_markdown_has_a_line_per_row():
    rows = json.loads((RESULTS / d.TIERS_NAME).read_text())
    text = d.markdown(rows)
    lines = text.splitlines()
    assert len(lines) == 2 + len(rows) and text.endswith("\n")
    for line, row in zip(lines[2:], rows.values()):
        name = row["variant"] + (f" ({row['profile']})" if row["profile"] else "")
        assert line.startswith(f"| {name} | {row['won']:,} | {row['bounds'][0]:,} |"), line


def test_the_measure_leaves_out_the_search_for_a_shorter_line():
    """PySolFC's Queen of Italy #3: the search wins with a line of 1,772 moves after 21,023
    nodes (the table's record), and the searches for a shorter line spend millions more;
    the difficulty is the first figure, as the table's (0.8.0 searched for no shorter line)."""
    import solver
    from solver.pack import PackJob, verify_job
    from solver.formats import deal_to_json
    deal = solver.game("queen-of-italy-pysolfc", 3)
    res = verify_job(PackJob(0, deal_to_json(deal), 2_000_000, 600.0, 1 << 30, True, ("all",), 0))
    assert res["search_moves"] > 500 and res["nodes"] > 1_000_000
    assert res["difficulty"] == {"nodes": 21_023, "tier": tier(deal.rules.hash(), 21_023)}
    assert res["solution"]["producer"]["shorter_line_nodes"] == res["nodes"] - 21_023
