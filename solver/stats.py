"""Win-rate statistics over a results store.

For each variant and rule set: counts won / lost / unknown, the decided fraction, the win
rate among decided deals with a Wilson 95% interval (scipy), and the interval over all
deals with every unknown counted as a loss for the lower bound and as a win for the upper
bound; mean, median and p99 of seconds and nodes.

The rate among decided deals alone misleads where many deals are undecided (25 won, 0 lost
and 35 unknown is "100 %"), so from ``UNDECIDED_LEAD`` of the games undecided the table's
leading figure is the interval that counts the unknowns both ways.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass
from typing import Iterable, Optional


def wilson(k: int, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """Wilson score interval for k successes in n trials (scipy's implementation)."""
    if n == 0:
        return (0.0, 1.0)
    from scipy.stats import binomtest
    ci = binomtest(k, n).proportion_ci(confidence_level=confidence, method="wilson")
    return (float(ci.low), float(ci.high))


def unknown_bounds(won: int, lost: int, unknown: int, confidence: float = 0.95) -> tuple[float, float]:
    """Lower: Wilson lower bound with unknowns as losses; upper: Wilson upper bound with
    unknowns as wins. Covers every way the unknowns could turn out."""
    n = won + lost + unknown
    if n == 0:
        return (0.0, 1.0)
    return (wilson(won, n, confidence)[0], wilson(won + unknown, n, confidence)[1])


UNDECIDED_LEAD = 0.10     # from this fraction of undecided games the both-ways interval leads


def _pct(xs: list, q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))] if xs else 0.0


@dataclass
class GroupStats:
    variant: str
    rules_hash: str
    rules: str
    games: int
    won: int
    lost: int
    unknown: int
    decided: float                           # the fraction of the games won or lost
    rate: Optional[float]
    rate_low: float
    rate_high: float
    bound_low: float
    bound_high: float
    seconds_mean: float
    seconds_median: float
    seconds_p99: float
    nodes_mean: float
    nodes_median: float
    nodes_p99: float
    budgets: str
    solver_versions: str
    unknown_home_median: Optional[float]     # how far the unknown deals' searches got (cards home)
    unknown_home_max: Optional[int]

    @property
    def lead(self) -> str:
        """The figure to quote first: the both-ways interval when a tenth or more of the
        games are undecided, else the rate among decided deals with its interval."""
        if self.games and self.unknown / self.games >= UNDECIDED_LEAD:
            return f"{_pc(self.bound_low)} - {_pc(self.bound_high)} (unknowns both ways)"
        return f"{_pc(self.rate)} ({_pc(self.rate_low)} - {_pc(self.rate_high)} among decided)"


def group_stats(records: Iterable[dict], game_filter=None) -> list[GroupStats]:
    """Statistics per (variant, rules hash) over the newest record of each game."""
    groups: dict[tuple, list[dict]] = {}
    for r in records:
        if game_filter and not game_filter(r["game"]):
            continue
        groups.setdefault((r["variant"], r["rules_hash"]), []).append(r)
    out = []
    for (variant, rh), rs in sorted(groups.items()):
        won = sum(r["verdict"] == "won" for r in rs)
        lost = sum(r["verdict"] == "lost" for r in rs)
        unk = len(rs) - won - lost
        low, high = wilson(won, won + lost)
        blow, bhigh = unknown_bounds(won, lost, unk)
        secs = [r["seconds"] for r in rs]
        nodes = [r["nodes"] for r in rs]
        # Records written under schema 1 have no most_home (NULL or no column).
        home = [r["most_home"] for r in rs if r["verdict"] == "unknown" and r.get("most_home") is not None]
        out.append(GroupStats(
            variant, rh, rs[0]["rules"], len(rs), won, lost, unk, (won + lost) / len(rs),
            won / (won + lost) if won + lost else None, low, high, blow, bhigh,
            statistics.fmean(secs), statistics.median(secs), _pct(secs, .99),
            statistics.fmean(nodes), statistics.median(nodes), _pct(nodes, .99),
            ",".join(sorted({str(r["budget_nodes"]) for r in rs})),
            ",".join(sorted({r["solver_version"] for r in rs})),
            statistics.median(home) if home else None, max(home) if home else None))
    return out


FIELDS = ["variant", "rules_hash", "games", "won", "lost", "unknown", "decided", "lead", "rate", "rate_low", "rate_high",
          "bound_low", "bound_high", "seconds_mean", "seconds_median", "seconds_p99", "nodes_mean",
          "nodes_median", "nodes_p99", "budgets", "solver_versions", "unknown_home_median", "unknown_home_max",
          "rules"]


def _pc(x: Optional[float]) -> str:
    return "-" if x is None else f"{100 * x:.2f}%"


def render(stats: list[GroupStats], fmt: str) -> str:
    """table, markdown, csv or json."""
    import csv
    import io
    import json
    if fmt == "json":
        return json.dumps([{f: getattr(s, f) for f in FIELDS} for s in stats], indent=1)
    if fmt == "csv":
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(FIELDS)
        for s in stats:
            w.writerow([getattr(s, f) for f in FIELDS])
        return buf.getvalue()
    head = ["variant", "rules", "games", "won", "lost", "unknown", "decided", "win rate",
            "among decided (Wilson 95%)", "all games (unknown as lost / won)", "median s", "p99 s", "median nodes", "budget (nodes)",
            "unknown: cards home (median / max)"]
    rows = [[s.variant, s.rules_hash, str(s.games), str(s.won), str(s.lost), str(s.unknown), _pc(s.decided),
             s.lead, f"{_pc(s.rate)} ({_pc(s.rate_low)} - {_pc(s.rate_high)})", f"{_pc(s.bound_low)} - {_pc(s.bound_high)}",
             f"{s.seconds_median:.3f}", f"{s.seconds_p99:.3f}", f"{s.nodes_median:,.0f}", s.budgets,
             "-" if s.unknown_home_max is None else f"{s.unknown_home_median:g} / {s.unknown_home_max}"]
            for s in stats]
    if fmt == "markdown":
        lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
        lines += ["| " + " | ".join(r) + " |" for r in rows]
        return "\n".join(lines)
    widths = [max(len(h), *(len(r[i]) for r in rows)) if rows else len(h) for i, h in enumerate(head)]
    lines = ["  ".join(h.ljust(w) for h, w in zip(head, widths))]
    lines += ["  ".join(c.ljust(w) for c, w in zip(r, widths)) for r in rows]
    return "\n".join(lines)
