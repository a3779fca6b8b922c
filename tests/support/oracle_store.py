"""Stored oracle verdicts for the default run's cross-checks (``tests/oracle/*.txt``).

The exhaustive oracle (``solver.oracle``) is most of the cost of a cross-check: on
Alhambra's miniature deals it takes 15 times the kernel's time. As python-chess keeps
golden perft counts, the default run keeps the oracle's verdict on each deal of each
cross-check, and compares the kernel with those. They cannot drift unnoticed:

- each file names the deals it was made from (their parameters) and carries a
  fingerprint of the deals (rules hash and layout checksum of each) and of the reference
  engine's source (``REFERENCE_SOURCES``): a change in either fails the check with the
  command that remakes the files, rather than comparing with stale verdicts;
- ``tests/test_oracle_store.py`` recomputes a sample of every file of deals in the default
  run and every verdict of every file in a slow test.

Remake every file (about 20 minutes on two cores)::

    python -m tests.support.oracle_store

A cross-check with no stored file computes the oracle live; run the default tests with
``PATIENCE_STORE_ORACLE=1`` to store the files of new cross-checks.

Checks of positions (a dead-state test's or a model's verdicts along random games) store
theirs the same way (``position_verdicts``): the file names the test's generator of
positions and its arguments, and fingerprints each position.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import os
import random
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Callable, Optional

from solver.engine import engine_for
from solver.miniature import random_miniature_deal
from solver.oracle import exhaustive_search
from solver.variants import get_variant

ORACLE_DIR = Path(__file__).resolve().parents[1] / "oracle"
SOLVER_DIR = Path(__file__).resolve().parents[2] / "solver"
# The oracle's verdicts depend on these sources (and the family's rules module).
REFERENCE_SOURCES = ("oracle.py", "engine.py", "moves.py", "cards.py", "layout.py", "piles.py")
CODE = {"won": "W", "lost": "L", "unknown": "U"}
VERDICT = {c: v for v, c in CODE.items()}
REMAKE = "python -m tests.support.oracle_store"


class StaleOracle(AssertionError):
    """A stored file does not belong to the deals or the reference engine of today."""


def miniature_deals(variant: str, n: int, seed: int, options: Optional[dict] = None, small: bool = False) -> list:
    """The ``n`` random miniature deals of a cross-check (each variant its own)."""
    rng = random.Random(f"{variant}/{seed}")
    return [random_miniature_deal(variant, rng, options, vary=True, small=small) for _ in range(n)]


def oracle_verdict(deal, max_states: int) -> str:
    e = engine_for(deal.rules)
    return exhaustive_search(e, e.initial_position(deal.layout), max_states=max_states).verdict


def reference_fingerprint(variant: str) -> str:
    family = get_variant(variant).family
    h = hashlib.sha256()
    for rel in (*REFERENCE_SOURCES, f"{family}/rules.py", f"{family}/layout.py"):
        h.update(rel.encode() + b"\0" + (SOLVER_DIR / rel).read_bytes())
    return h.hexdigest()[:16]


def deals_fingerprint(deals) -> str:
    h = hashlib.sha256()
    for d in deals:
        h.update(f"{d.rules.hash()} {d.checksum}\n".encode())
    return h.hexdigest()[:16]


def positions_fingerprint(positions) -> str:
    """Of ``(deal, engine, position)`` triples: each position whole, under its rules."""
    h = hashlib.sha256()
    for deal, _, pos in positions:
        h.update(f"{deal.rules.hash()} {pos!r}\n".encode())
    return h.hexdigest()[:16]


def _params(variant, n, seed, options, small, max_states) -> dict:
    return {"variant": variant, "n": n, "seed": seed, "options": options, "small": small, "max_states": max_states}


def _key(params: dict) -> str:
    return hashlib.sha256(json.dumps(params, sort_keys=True).encode()).hexdigest()[:8]


def path_for(params: dict) -> Path:
    if "positions" in params:          # the count is known only once they are made: not in the name
        key = _key({k: v for k, v in params.items() if k != "n"})
        return ORACLE_DIR / f"{params['variant']}-{params['positions'].split(':')[1].strip('_')}-{key}.txt"
    return ORACLE_DIR / f"{params['variant']}-{params['n']}-s{params['seed']}-{_key(params)}.txt"


def write(path: Path, params: dict, deals, verdicts: list[str]) -> None:
    codes = "".join(CODE[v] for v in verdicts)
    lines = [f"# oracle verdicts (W won, L lost, U unknown within max_states); remake: {REMAKE}",
             json.dumps(params, sort_keys=True),
             f"deals {_fingerprint(params, deals)} reference {reference_fingerprint(params['variant'])}",
             *(codes[i:i + 100] for i in range(0, len(codes), 100))]
    path.parent.mkdir(exist_ok=True)
    path.write_text("\n".join(lines) + "\n")


def read(path: Path) -> tuple[dict, str, str, list[str]]:
    """(parameters, deals fingerprint, reference fingerprint, verdicts) of a stored file."""
    lines = path.read_text().splitlines()
    params = json.loads(lines[1])
    _, deals_fp, _, ref_fp = lines[2].split()
    return params, deals_fp, ref_fp, [VERDICT[c] for c in "".join(lines[3:])]


def _fingerprint(params: dict, items) -> str:
    return positions_fingerprint(items) if "positions" in params else deals_fingerprint(items)


def stored_verdicts(params: dict, items) -> Optional[list[str]]:
    """The stored verdicts of these deals (or positions), None if no file; ``StaleOracle`` if
    the file was made from other deals or another reference engine."""
    path = path_for(params)
    if not path.exists():
        return None
    _, deals_fp, ref_fp, verdicts = read(path)
    if ref_fp != reference_fingerprint(params["variant"]):
        raise StaleOracle(f"{path.name}: the reference engine changed since it was made; remake: {REMAKE}")
    if deals_fp != _fingerprint(params, items) or len(verdicts) != len(items):
        raise StaleOracle(f"{path.name}: made from other deals; remake: {REMAKE}")
    return verdicts


def oracle_verdicts(variant: str, n: int, seed: int, options: Optional[dict], small: bool,
                    max_states: int) -> tuple[list, list[str]]:
    """The cross-check's deals and the oracle's verdict on each: stored, else computed (and
    stored with ``PATIENCE_STORE_ORACLE=1``)."""
    return _stored_or_computed(_params(variant, n, seed, options, small, max_states))


def _made_positions(params: dict) -> list:
    module, function = params["positions"].split(":")
    return list(getattr(importlib.import_module(module), function)(**params["args"]))


def position_verdicts(variant: str, positions: str, args: dict, max_states: int) -> tuple[list, list[str]]:
    """The positions a check makes (``positions``, "module:function", called with ``args``,
    yields ``(deal, engine, position)``, each of ``variant``'s family) and the oracle's
    verdict on each: stored, else computed (and stored with ``PATIENCE_STORE_ORACLE=1``)."""
    return _stored_or_computed({"variant": variant, "positions": positions, "args": args, "max_states": max_states})


def _stored_or_computed(params: dict) -> tuple[list, list[str]]:
    """The deals (or positions) of ``params`` and their verdicts, read from their file, else
    computed by the oracle (and stored with ``PATIENCE_STORE_ORACLE=1``)."""
    items, verdict = _items(params)
    params["n"] = len(items)
    verdicts = stored_verdicts(params, items)
    if verdicts is None:
        verdicts = [verdict(item, params["max_states"]) for item in items]
        if os.environ.get("PATIENCE_STORE_ORACLE") == "1":
            write(path_for(params), params, items, verdicts)
    return items, verdicts


def _position_verdict(item, max_states: int) -> str:
    _, e, pos = item
    return exhaustive_search(e, pos, max_states=max_states).verdict


def _items(params: dict) -> tuple[list, Callable]:
    """A stored file's deals or positions, remade from its parameters, and the oracle on one."""
    if "positions" in params:
        return _made_positions(params), _position_verdict
    deals = miniature_deals(params["variant"], params["n"], params["seed"], params["options"], params["small"])
    return deals, oracle_verdict


def recompute(path: Path, every: int = 1) -> list[str]:
    """Mismatches between a stored file and the oracle, on every ``every``-th deal (or position)."""
    params, _, _, _ = read(path)
    items, verdict = _items(params)
    stored = stored_verdicts(params, items)
    return [f"{path.name} item {i}: stored {stored[i]}, oracle {v}"
            for i in range(0, len(items), every)
            if (v := verdict(items[i], params["max_states"])) != stored[i]]


def _remake(path: Path) -> str:
    params, _, _, _ = read(path)
    items, verdict = _items(params)
    params["n"] = len(items)
    write(path_for(params), params, items, [verdict(item, params["max_states"]) for item in items])
    return path.name


def main() -> None:
    """Remake every stored file from its parameters, in parallel."""
    paths = sorted(ORACLE_DIR.glob("*.txt"))
    with ProcessPoolExecutor() as pool:
        for name in pool.map(_remake, paths):
            print("remade", name, file=sys.stderr)


if __name__ == "__main__":
    main()
