"""The registry of game families, and the contract every family's numba kernel keeps.

Each family declares itself once, as the ``FAMILY`` of its folder's ``family.py`` (a
``solver.contract.Family``: options, defaults, deal layout, reference engine, kernel, hooks,
dominance rules, miniature shapes), and ``FAMILY_PACKAGES`` lists the folders. Everything
else is derived from the entry: the engine of a rule set (``solver.engine.engine_for``),
the kernel module (``kernel_module``) and its Python half (``hooks_module``), the dominance
rules (``dominance_rules``), the numba cache key (every file of each folder,
``kernel_sources``), and the compiled search itself, which resolves its calls through this
registry at compile time (``solver.dispatch``). An unknown family is an error, never a
default.

This module imports no kernel at import time (``solver.jit`` reads it before any function
is compiled): a family's ``family.py`` imports its layout and the contract only.

The kernel contract
-------------------

A family's kernel module (``Family.kernel``) and hooks module (``Family.hooks``) provide,
with exactly these signatures (every family takes every argument, used or not):

numba functions (``@njit(cache=True)``), over the state of ``solver.state``: ``state`` is a
``KernelState`` (piles, lens, fnd, scal, h, memo) and ``keys`` the ``ZobristKeys``. ``memo``
is the family's own table (uint64[n, 2], sized by ``memo_slots``), which the driver keeps for
a whole solve: what is stored in it must hold in every search of the deal (the Alhambra
family's refuted relaxed states):

* ``gen_moves(cfg, state, moves, start, last) -> int``: write the legal moves at
  ``moves[start:]`` and return how many; ``last`` is the move that led here (-1: not
  known). A move is an int32 made by ``solver.toolkit.encode(kind, src, dst)``.
* ``make_move(cfg, state, keys, m) -> int``: play ``m`` with its automatic actions, keep
  ``state.h`` up to date, return the undo record.
* ``undo_move(cfg, state, keys, m, info)``: take ``m`` back exactly.
* ``is_won(cfg, state) -> bool``.
* ``move_class(cfg, m) -> int``: the win-first ordering class (lower first).
* ``beam_score(cfg, state, weights) -> float``: how promising a state looks to the
  searches for wins (``solver.beam``, ``solver.nested``), higher first, with one of
  ``win_plan``'s weight sets (any value where the family has none: it is never called
  there).
* ``hash_state(cfg, state, keys, h)``: the state's key from scratch into ``h`` (uint64[2]),
  which make and undo keep up to date in ``state.h``: the positional Zobrist hash of
  ``solver.state.full_hash``, or a canonical key (the Terrace family's: interchangeable
  piles hashed as a multiset), as long as equal keys mean equal outcomes.

Optionally ``GOALS``: other goals than the win a search may be compiled for
(``solver.dispatch.Kernel``), by name: ``(reached(cfg, state) -> bool, beyond(cfg, state)
-> bool)``, ``beyond`` true where no line from the state reaches the goal (its moves are
not searched). The Alhambra family's ``refill_due`` (``SAFE_SCHEDULE_LATE_REFILLS``).

Python, over a ``solver.variants.Rules``:

* ``make_cfg(rules, safe_flags) -> int64 array`` (shared slots from ``solver.toolkit``);
* ``n_piles(rules) -> int``; ``acyclic(rules) -> bool`` (no line of play repeats a state:
  the restarts may then share a table of lost states); ``memo_slots(cfg, nodes) -> int`` (the
  rows of ``state.memo`` for a solve of ``nodes`` nodes; 0: none); ``relaxation_lost(cfg, state, cap, retry) -> (bool,
  int)``: whether a proved relaxation shows the position lost within ``cap`` of its moves,
  and the moves spent (``(False, 0)`` where the family has none; ``retry``: search again
  where a smaller cap gave up); ``relaxation_moves(cfg, nodes) -> int``: how many relaxed
  moves the root's relaxation may spend in a solve of ``nodes`` nodes (0: it is not run);
  ``win_plan(cfg, nodes) -> list[(search, size, noise, weights)]``: the searches for wins
  run after a search of ``nodes`` nodes that ran out of them, in turn until one wins:
  ``search`` names one of ``solver.driver.WIN_SEARCHES`` (``"beam"``: ``size`` is its
  width; ``"nested"``: its level), ``noise`` the random part of its scores (empty: none;
  such a search proves nothing, its wins are certified like the search's);
  ``root_verdict(cfg, rules, pos, seconds, reach) -> None | RootVerdict``: a verdict
  from outside the search (a model solved by another solver) on the reference position
  ``pos``, run after a search that ran out of nodes, within ``seconds`` of wall clock (inf:
  no limit), ``reach`` the driver's goal search (``solver.attempts.reaches_goal``, handed
  in so that no family imports the driver): ``lost`` proved by its rule, ``won`` with a
  line the driver certifies, ``lead`` a line to search for wins from, or None (always,
  where the family has none; ``solver.contract.RootVerdict``). A family with none of these
  extras (relaxation, root verdict, searches for wins, memo) imports the five default
  hooks from ``solver.contract``;
* ``load_position(rules, pos, state)``: fill the arrays from a reference ``Position``;
* ``to_moves(rules, m, info) -> list[Move]``: the notation's moves for kernel move ``m``
  (``info``: its undo record, or ``None`` before it is played);
* ``SAFE_<RULE>`` for each dominance rule of the registry entry (distinct bits of
  ``cfg[C_SAFE]``, each with its proof in the docstring after it), and ``STREAMLINER``:
  the bit of an unproved win-first pruning (0: none; see ``solver.driver``).

Soundness obligations, each checked for every family by the public conformance suite
(``tests/kernel_checks.py``, run on every registered kernel by ``tests/test_conformance.py``)
and the golden move counts (``tests/perft/``):

1. ``gen_moves`` with no dominance rule equals the reference engine's legal moves, in
   every position (``moves_agree``; the golden counts of move sequences by depth).
2. The incremental hash equals the full hash after every make and undo, and undo restores
   every array (``incremental_hash_holds``).
3. The state and its hash cover everything that can change future moves: two positions
   with one key have the same moves and outcomes (the kernel's arrays are loaded from the
   reference position alone, and rule 1 holds position by position).
4. Every dominance rule keeps the verdict (cross-checked with and without it, and against
   the unpruned oracle on miniature deals, ``cross_check``).

Adding a family
---------------

One folder ``solver/<name>/`` holding its ``family.py`` (the ``Family``), layout, reference
engine, kernel and hooks; one line in ``FAMILY_PACKAGES``; its variants in the catalogue
(``solver.variants``); its tests. The conformance suite and the golden move counts run on
it unchanged.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from types import MappingProxyType, ModuleType
from typing import Mapping

from solver.contract import DominanceRule, Family
from solver.errors import UnsupportedVariant


# The registry's package list: each package's ``family.py`` declares its ``FAMILY``.
FAMILY_PACKAGES = ("solver.alhambra", "solver.terrace", "solver.algerian")

FAMILIES: Mapping[str, Family] = MappingProxyType({
    f.name: f for f in (importlib.import_module(p + ".family").FAMILY for p in FAMILY_PACKAGES)})

# The search core's own files, for the numba cache key beside each family's folder.
CORE_SOURCES = ("jit.py", "kernels.py", "contract.py", "state.py", "toolkit.py", "dispatch.py", "search.py",
                "beam.py", "nested.py")


def family(name: str) -> Family:
    """The registry entry of family ``name``; an unknown name is an error."""
    try:
        return FAMILIES[name]
    except KeyError:
        raise UnsupportedVariant(f"unknown family {name!r} (known: {', '.join(sorted(FAMILIES))})") from None


def kernel_module(name: str) -> ModuleType:
    """The numba kernel module of family ``name``."""
    return importlib.import_module(family(name).kernel)


def hooks_module(name: str) -> ModuleType:
    """The module of family ``name``'s Python hooks (the contract's Python half)."""
    return importlib.import_module(family(name).hooks)


def dominance_rules(name: str) -> dict[str, DominanceRule]:
    """Family ``name``'s proved dominance rules by name, in ``--dominance all`` order."""
    return {r.name: r for r in family(name).dominance}


def dominance_flags(rules, names) -> int:
    """The ``cfg[C_SAFE]`` bits of the dominance rules ``names`` for ``rules``; an unknown
    rule, or one these rules do not allow, is an error."""
    known = dominance_rules(rules.family)
    hooks = hooks_module(rules.family)
    flags = 0
    for name in names:
        if name not in known:
            raise UnsupportedVariant(f"unknown dominance rule {name!r} for {rules.family} "
                                     f"(known: {', '.join(known) or 'none'})")
        why = known[name].refusal(rules)
        if why:
            raise UnsupportedVariant(why)
        flags |= getattr(hooks, known[name].flag_name())
    return flags


def kernel_sources() -> list[str]:
    """Every file whose edit must start a fresh numba cache (paths below ``solver/``): the
    search core's and every Python file of each family's folder."""
    root = Path(__file__).resolve().parent
    out = list(CORE_SOURCES)
    for p in FAMILY_PACKAGES:
        folder = root / p.split(".", 1)[1]
        out += sorted(str(f.relative_to(root)) for f in folder.glob("*.py"))
    return out
