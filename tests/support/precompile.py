"""Compile most of what the tests of some families compile, into numba's cache:
``python -m tests.support.precompile FAMILY ... [wins:FAMILY ...]``.

With an empty cache (CI), each of the ``pytest -n 2`` workers would compile every kernel
it meets, so both compile nearly all of them (about four minutes each on the CI machine,
2026-12-05). ``tests/conftest.py`` runs this instead before the workers start, the
families split between two processes, and the workers load from the cache."""

from __future__ import annotations

import random
import sys

from solver.adapter import expand_dominance
from solver.driver import Budget, each_search_for_wins, solve
from solver.miniature import random_miniature_deal
from solver.variants import CATALOGUE

DEALS = 4            # a variant; every other one short of nodes, so the searches for wins run too


def precompile(family: str) -> None:
    """Solve random miniature deals of each of ``family``'s variants, with every rule they
    allow and without."""
    rng = random.Random(0)
    for variant in _variants(family):
        for i in range(DEALS):
            deal = random_miniature_deal(variant, rng, vary=True)
            for dominance in ((), expand_dominance(deal.rules, ("all",))):
                solve(deal, Budget(nodes=2_000 if i % 2 else 200_000, memory=1 << 20, seconds=60), dominance)


def searches_for_wins(family: str) -> None:
    """Run once each search for wins that the plans of ``family``'s variants name."""
    rng = random.Random(0)
    searched: set = set()
    for variant in _variants(family):
        deal = random_miniature_deal(variant, rng, vary=True)
        searched |= each_search_for_wins(deal, expand_dominance(deal.rules, ("all",)), frozenset(searched))


def _variants(family: str) -> list[str]:
    return [v.key for v in CATALOGUE if v.family == family]


if __name__ == "__main__":
    for name in sys.argv[1:]:        # a family's solves, or "wins:FAMILY", its searches for wins
        if name.startswith("wins:"):
            searches_for_wins(name[len("wins:"):])
        else:
            precompile(name)
