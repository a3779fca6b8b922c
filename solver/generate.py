"""New random deals, kept only when certified winnable (or proved unwinnable): a publisher's
own shuffles, reproducible from a seed.

Shuffle number i of seed S is the shuffle ``stable_shuffle`` (below) names by the text
"S/i" (SHA-256 draws, defined by this project, not by Python's ``random``), applied to the two
packs (the family's hook cards, e.g. Alhambra's aces and kings, placed as PySolFC places
them), so the same seed gives the same deals on any machine, Python version and number of
workers: the tries are solved in rounds, and within a round kept in shuffle order.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Iterator

from solver.difficulty import TIERS
from solver.errors import DealFileError, RulesError
from solver.files import create_new
from solver.formats import Deal, deal_to_json
from solver.layout import initial_layout, shuffled_sequence
from solver.variants import Rules

WANTED = {"winnable": "won", "unwinnable": "lost", **{t: "won" for t in TIERS}}   # a tier: winnable deals of it


class StableShuffle:
    """What ``shuffled_sequence`` takes as its random generator: ``shuffle`` is
    ``stable_shuffle`` named by ``key``."""

    def __init__(self, key: str):
        self.key = key

    def shuffle(self, items: list) -> None:
        stable_shuffle(items, self.key)


def stable_shuffle(items: list, key: str) -> None:
    """Shuffle ``items`` in place, the same way on every machine and Python version (Python
    does not promise that of ``random.shuffle``): Fisher-Yates from the last place down,
    the place to swap with drawn from SHA-256 of ``key/k`` for draw k = 0, 1, ... (its
    first 8 bytes as a big-endian integer), a draw that would favour some places
    rejected."""
    draws = 0

    def below(m: int) -> int:
        nonlocal draws
        limit = (1 << 64) - (1 << 64) % m          # the largest multiple of m that fits
        while True:
            x = int.from_bytes(hashlib.sha256(f"{key}/{draws}".encode()).digest()[:8], "big")
            draws += 1
            if x < limit:
                return x % m

    for i in range(len(items) - 1, 0, -1):
        j = below(i + 1)
        items[i], items[j] = items[j], items[i]



def shuffled_deal(rules: Rules, seed: int, i: int) -> Deal:
    """Shuffle number ``i`` of ``seed`` under ``rules``."""
    d = shuffled_sequence(rules, StableShuffle(f"{seed}/{i}"))
    return Deal(rules, initial_layout(rules, d), {"kind": "custom", "generated": {"seed": seed, "shuffle": i}})


@dataclass
class GenerateSummary:
    kept: int = 0
    tried: int = 0
    counts: dict = field(default_factory=lambda: {"won": 0, "lost": 0, "unknown": 0})
    interrupted: bool = False


def generate(rules: Rules, want: str, count: int, seed: int, max_tries: int, budget, dominance: tuple,
             jobs: int, out: Path, solutions: Path, run: Callable[[Iterable, int, Callable], Iterator[dict]],
             progress: Callable[[GenerateSummary], None]) -> GenerateSummary:
    """Try shuffles 1, 2, ... of ``seed`` until ``count`` deals have the verdict ``want``
    (``winnable`` / ``unwinnable``, or a difficulty tier: winnable deals of that tier,
    ``solver.difficulty``) or ``max_tries`` were tried. Each kept deal is written
    to ``out`` (one deal a line) and its solution to ``solutions`` (one a line, naming its
    pack line, as ``verify --out`` writes them) as soon as it is known, with the shuffles
    tried since the deal kept before it. ``run(jobs, n, work)`` solves the tries (a process
    pool, results in any order); they are taken in shuffle order, so the deals kept do not
    depend on the number of workers."""
    from solver.batch import draining
    from solver.pack import PackJob, verify_job
    if want not in WANTED:
        raise RulesError(f"unknown kind {want!r} (known: {', '.join(WANTED)})")
    verdict = WANTED[want]
    tier = want if want in TIERS else None
    summary = GenerateSummary()
    tries = (PackJob(i, deal_to_json(shuffled_deal(rules, seed, i)), budget.nodes, budget.seconds, budget.memory,
                     budget.restarts, dominance, budget.shorten) for i in range(1, max_tries + 1))
    waiting: dict[int, dict] = {}          # results that came before an earlier shuffle's
    since = 0
    with create_new(out) as deals_f, create_new(solutions) as sols_f, \
            draining(run(tries, jobs, verify_job), summary) as source:
        for r in source:
            waiting[r["line"]] = r
            while summary.tried + 1 in waiting and summary.kept < count:
                r = waiting.pop(summary.tried + 1)
                summary.tried += 1
                since += 1
                summary.counts[r["verdict"]] += 1
                if r["verdict"] == verdict and (tier is None or (r["difficulty"] or {}).get("tier") == tier):
                    summary.kept += 1
                    _write(deals_f, sols_f, shuffled_deal(rules, seed, r["line"]), since, r, out.name,
                           summary.kept)
                    since = 0
                progress(summary)
            if summary.kept >= count:
                break
    return summary


def _write(deals_f, sols_f, deal: Deal, tries: int, result: dict, name: str, line: int) -> None:
    """One kept deal and its solution, each on its line, on disk at once: the solution
    first, so that a kill or a full disk between the two never leaves a deal without its
    solution."""
    deal.source["generated"]["tries"] = tries
    sol = dict(result["solution"], pack={"file": name, "line": line})
    sol["deal"] = dict(sol["deal"], source=deal.source)
    for f, doc in ((sols_f, sol), (deals_f, deal_to_json(deal))):
        try:
            f.write(json.dumps(doc) + "\n")
            f.flush()
            os.fsync(f.fileno())
        except OSError as e:
            raise DealFileError(f"cannot write {f.name}: {e.strerror}") from None
