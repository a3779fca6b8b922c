"""Game lists for the benchmark scripts (run with ``PYTHONPATH=.``): ``1-10``,
``1,2,5-9`` (``patience batch --seeds``' syntax), or ``unknown:A-B`` (the games from A to
B that the published table, ``results/records.csv.gz``, leaves unknown under the given
rules)."""

from __future__ import annotations

import csv
import gzip

from solver.batch import parse_seeds


def parse_games(text: str, rules) -> list[int]:
    """The game numbers ``text`` names (see the module's docstring)."""
    if text.startswith("unknown:"):
        lo, hi = map(int, text[len("unknown:"):].split("-"))
        with gzip.open("results/records.csv.gz", "rt") as f:
            return sorted(int(r["game"]) for r in csv.DictReader(f) if r["rules_hash"] == rules.hash()
                          and r["verdict"] == "unknown" and lo <= int(r["game"]) <= hi)
    return [int(g) for g in parse_seeds(text)]
