"""A won deal's difficulty: how much search its win took, and its tier among the published
table's won deals of the same rules (``docs/difficulty.md`` says what it means and what
it does not).

The measure is the nodes the solver spent before it had its winning line (the budget's
searches, and the searches for wins where they ran; not the search for a shorter line:
``SolveResult.found_nodes``). A table record's ``nodes`` are that measure for the versions
that made the table (before 0.32.0 no shorter line was searched for); a store's records
since 0.32.0 count the search for a shorter line too, so ``export`` may place such a deal
a tier too high. It is reproducible: the same deal, rules, budget and solver version
give the same nodes.

The tiers split a row's won deals by that measure: ``easy`` the half that took the fewest
nodes, then ``medium`` (the next 30 %), ``hard`` (15 %) and ``expert`` (the last 5 %). The
boundaries of each row of the table (``results/tiers.json``, written with the table by
``patience report`` from its records) are the nodes at those shares; a deal of the same rules falls in
the first tier whose boundary its nodes do not pass. Deals with equal nodes share a tier,
so a tier's share can differ a little from the stated one (``calibrate`` records the real
shares). Rules that no row of the table has have no tiers (``tier`` says None)."""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Iterable, Optional

TIERS = ("easy", "medium", "hard", "expert")
SHARES = (0.50, 0.30, 0.15, 0.05)          # of a row's won deals, in tier order
TIERS_NAME = "tiers.json"
# The table beside the package (the project is installed from its repository, README):
# an install without it has no tiers, and says so (``tier`` gives None).
TIERS_FILE = Path(__file__).resolve().parent.parent / "results" / TIERS_NAME


def bounds(nodes: Iterable[int]) -> list[int]:
    """The boundaries between the tiers of won deals that took ``nodes``: the nodes of the
    deal at each tier's cumulative share (sorted, the k-th smallest for share k/n)."""
    ordered = sorted(nodes)
    if not ordered:
        return []
    out, percent = [], 0
    for share in SHARES[:-1]:
        percent += round(share * 100)             # whole percents: no rounding error in the sum
        k = -(-percent * len(ordered) // 100)      # ceil(percent / 100 * n), exactly
        out.append(ordered[max(0, k - 1)])
    return out


def tier_of(nodes: int, row_bounds: list[int]) -> str:
    """The tier of a won deal that took ``nodes``, given a row's ``bounds``."""
    for name, bound in zip(TIERS, row_bounds):
        if nodes <= bound:
            return name
    return TIERS[len(row_bounds)]


def calibrate(records: list[dict], rule_sets: dict) -> dict:
    """Each row's tiers from the table's records (``solver.report.read_files``): its variant,
    label, won deals, boundaries and each tier's real share."""
    out = {}
    for rules_hash, rule_set in sorted(rule_sets.items()):
        won = [r["nodes"] for r in records if r["rules_hash"] == rules_hash and r["verdict"] == "won"]
        if not won:
            continue
        b = bounds(won)
        counts = {t: 0 for t in TIERS}
        for n in won:
            counts[tier_of(n, b)] += 1
        out[rules_hash] = {"variant": rule_set["variant"], "profile": rule_set.get("profile"),
                           "solver_versions": rule_set.get("solver_versions"),
                           "budget_nodes": rule_set.get("budget_nodes"), "won": len(won), "bounds": b,
                           "shares": {t: round(c / len(won), 4) for t, c in counts.items()}}
    return out


def games_by_tier(records: list[dict], rules_hash: str, row_bounds: list[int]) -> dict[str, list[int]]:
    """A row's won games by tier (``tier_of`` with the row's boundaries), each list ascending:
    the lists a game ships to deal only winnable games of a chosen difficulty."""
    out: dict[str, list[int]] = {t: [] for t in TIERS}
    for r in records:
        if r["rules_hash"] == rules_hash and r["verdict"] == "won":
            out[tier_of(r["nodes"], row_bounds)].append(int(r["game"]))
    return {t: sorted(games) for t, games in out.items()}


def tiers_json(records: list[dict], rule_sets: dict) -> bytes:
    """``results/tiers.json`` of the table's records and rule sets."""
    return (json.dumps(calibrate(records, rule_sets), indent=1, sort_keys=True) + "\n").encode()


def markdown(tiers: dict) -> str:
    """The tiers' boundaries and shares per row, as a Markdown table (the README's)."""
    head = ("| variant | won deals | easy: nodes up to | medium: up to | hard: up to | shares (easy / medium / "
            "hard / expert) |\n|---|---|---|---|---|---|\n")
    rows = []
    for row in tiers.values():
        name = row["variant"] + (f" ({row['profile']})" if row.get("profile") else "")
        shares = " / ".join(f"{100 * row['shares'][t]:.1f} %" for t in TIERS)
        rows.append(f"| {name} | {row['won']:,} | " + " | ".join(f"{b:,}" for b in row["bounds"]) + f" | {shares} |")
    return head + "\n".join(rows) + "\n"


@functools.lru_cache(maxsize=None)
def _rows() -> dict:
    return json.loads(TIERS_FILE.read_text()) if TIERS_FILE.exists() else {}


def row(rules_hash: str) -> Optional[dict]:
    """The table's row of these rules in ``results/tiers.json`` (its boundaries, budget,
    solver versions), or None."""
    return _rows().get(rules_hash)


def no_tiers_reason(rules_hash: str) -> Optional[str]:
    """Why these rules have no tiers (None when they have): no tiers file beside the
    package, or no row of these rules in it."""
    if not TIERS_FILE.exists():
        return f"no difficulty tiers: {TIERS_FILE} is missing (install the tool from its repository)"
    if row(rules_hash) is None:
        return "no difficulty tiers for these rules: the published table has no row of them"
    return None


def row_bounds(rules_hash: str) -> Optional[list[int]]:
    """The boundaries of the table's row of these rules, or None (no such row)."""
    r = row(rules_hash)
    return r["bounds"] if r else None


def tier(rules_hash: str, nodes: int) -> Optional[str]:
    """The tier of a won deal of these rules that took ``nodes``; None where the table has
    no row of these rules."""
    b = row_bounds(rules_hash)
    return tier_of(nodes, b) if b is not None else None


def difficulty(rules_hash: str, verdict: str, nodes: int) -> Optional[dict]:
    """A record's difficulty (won deals only): ``{"nodes": ..., "tier": ...}``."""
    if verdict != "won":
        return None
    return {"nodes": nodes, "tier": tier(rules_hash, nodes)}
