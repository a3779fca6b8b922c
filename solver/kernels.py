"""The registry of game families, and the contract every family's numba kernel keeps.

Each family is declared once, in ``FAMILIES``: its reference engine, its kernel module (or
``None`` while it has none), its proved dominance rules with the rule options each needs,
and its kernel source files (for the numba cache key, ``solver.jit``). Everything else is
derived from the entry: the engine of a rule set (``engine_for``), the kernel module
(``kernel_module``), the dominance rules (``dominance_rules``), and the compiled search
itself, which resolves its calls through this registry at compile time
(``solver.dispatch``). An unknown family is an error, never a default.

This module imports no kernel at import time (``solver.jit`` reads it before any function
is compiled).

The kernel contract
-------------------

A kernel module (``solver/<family>/kernel.py``) provides, with exactly these signatures
(every family takes every argument, used or not):

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
  ``root_verdict(cfg, rules, pos, seconds) -> None | (verdict, moves, rule)``: a verdict
  from outside the search (a model solved by another solver) on the reference position
  ``pos``, run after a search that ran out of nodes, within ``seconds`` of wall clock (inf:
  no limit): ``("lost", [], rule)`` proved by ``rule``,
  ``("won", moves, rule)`` with a line the driver certifies, or None (always, where the
  family has none). A family with none of these extras (relaxation, root verdict, searches
  for wins, memo) imports the five hooks from ``solver.plain_family``;
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

One kernel module in its folder, one registry entry, its tests::

    "mygame": Family(engine="solver.mygame.rules:MyEngine", kernel="solver.mygame.kernel",
                     sources=("mygame/kernel.py",),
                     dominance=(DominanceRule("my_rule", {"waste_piles": 1}, "one waste pile"),)),

and the conformance suite and the golden move counts run on it unchanged.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from types import MappingProxyType, ModuleType
from typing import Mapping, Optional

from solver.errors import UnsupportedVariant


@dataclass(frozen=True)
class DominanceRule:
    """A proved reduction of a family's kernel: its name (``--dominance NAME``), the rule
    option values it is proved for (empty: every rule set) and how to say them. Its flag
    is the kernel module's ``SAFE_<NAME>``. A ``needs`` value that is a tuple lists the
    values allowed. ``all_needs``: where ``--dominance all`` takes the rule (besides
    ``needs``); elsewhere it runs only when named, being too slow for a default budget."""
    name: str
    needs: Mapping[str, object] = field(default_factory=dict)
    says: str = ""
    all_needs: Mapping[str, object] = field(default_factory=dict)

    def flag_name(self) -> str:
        return "SAFE_" + self.name.upper()

    def refusal(self, rules) -> Optional[str]:
        """Why these rules do not allow the rule (None: they do)."""
        if _meets(rules, self.needs):
            return None
        return f"{self.name} needs {self.says} ({', '.join(f'{k}={v}' for k, v in self.needs.items())})"

    def in_all(self, rules) -> bool:
        """Whether ``--dominance all`` takes the rule under these rules."""
        return self.refusal(rules) is None and _meets(rules, self.all_needs)


def _meets(rules, needs: Mapping[str, object]) -> bool:
    return all(rules[k] in v if isinstance(v, tuple) else rules[k] == v for k, v in needs.items())


@dataclass(frozen=True)
class Family:
    """One game family: ``engine`` as ``module:class``; ``kernel`` a module name or None;
    ``sources`` the kernel's files below ``solver/``; ``dominance`` its proved rules in
    the order ``--dominance all`` applies them."""
    engine: str
    kernel: Optional[str]
    sources: tuple[str, ...] = ()
    dominance: tuple[DominanceRule, ...] = ()


_ONE_WASTE = {"waste_piles": 1}
_RESERVE_HOME_ONLY = ({"found_takeback": False, "reserve_to_tableau": False,
                       "gap_rule": ("auto_waste", "auto_stock", "any_available", "waste_only")},
                      "no foundation take-back and a reserve that empties only to the foundations")

FAMILIES: Mapping[str, Family] = MappingProxyType({
    "alhambra": Family(
        engine="solver.alhambra.rules:AlhambraEngine", kernel="solver.alhambra.kernel",
        sources=("alhambra/kernel.py", "alhambra/beam_order.py", "alhambra/relaxed.py", "alhambra/slots.py",
                 "alhambra/stock_order.py", "alhambra/projection.py"),
        dominance=(
            DominanceRule("deal_through_inert", _ONE_WASTE, "one waste pile"),
            DominanceRule("met_foundation",
                          {"waste_piles": 1, "reinforce": False, "stop_at_third_exhaustion": False},
                          "one waste pile, no reinforcement and play after the last pass"),
            DominanceRule("dead_waste_block", _ONE_WASTE, "one waste pile"),
            DominanceRule("dead_stock_order", _ONE_WASTE, "one waste pile"),
            DominanceRule("free_reserve_relaxation",
                          {"waste_piles": 1, "reinforce": False, "stop_at_third_exhaustion": False},
                          "one waste pile, no reinforcement and play after the last pass"),
            DominanceRule("next_pass_projection",
                          {"waste_piles": 1, "reinforce": False, "stop_at_third_exhaustion": False},
                          "one waste pile, no reinforcement and play after the last pass"),
            DominanceRule("schedule_relaxation", {"waste_piles": 1, "reinforce": False},
                          "one waste pile and no reinforcement"),
            DominanceRule("schedule_skeleton", {"waste_piles": 1, "reinforce": True},
                          "one waste pile and reinforcement"),
            # with two redeals a solve takes minutes (benchmarks/README.md, solver 0.22.0)
            DominanceRule("schedule_refills", {"waste_piles": 1, "reinforce": True},
                          "one waste pile and reinforcement", all_needs={"redeals": (0, 1)}),
            # a solve takes minutes on a standard deal (benchmarks/README.md, solver 0.30.0)
            DominanceRule("schedule_late_refills", {"waste_piles": 1, "reinforce": True},
                          "one waste pile and reinforcement", all_needs={"redeals": ()}),
        )),
    "algerian": Family(
        engine="solver.algerian.rules:AlgerianEngine", kernel="solver.algerian.kernel",
        sources=("algerian/kernel.py",),
        dominance=(DominanceRule("no_pile_swap"),)),
    "terrace": Family(
        engine="solver.terrace.rules:TerraceEngine", kernel="solver.terrace.kernel",
        sources=("terrace/kernel.py",),
        dominance=(
            DominanceRule("reserve_blocked", *_RESERVE_HOME_ONLY),
            DominanceRule("reserve_order", *_RESERVE_HOME_ONLY),
            DominanceRule("idle_card_home", {"found_takeback": False}, "no foundation take-back"),
            DominanceRule("no_lone_shift"),
        )),
})

# The search core's own files, for the numba cache key beside each family's ``sources``.
CORE_SOURCES = ("jit.py", "kernels.py", "state.py", "toolkit.py", "dispatch.py", "search.py", "beam.py", "nested.py")


def family(name: str) -> Family:
    """The registry entry of family ``name``; an unknown name is an error."""
    try:
        return FAMILIES[name]
    except KeyError:
        raise UnsupportedVariant(f"unknown family {name!r} (known: {', '.join(sorted(FAMILIES))})") from None


def solvable_families() -> list[str]:
    """The families that have a kernel."""
    return sorted(n for n, f in FAMILIES.items() if f.kernel is not None)


def kernel_module(name: str) -> ModuleType:
    """The kernel module of family ``name``; an error if it has none yet."""
    k = family(name).kernel
    if k is None:
        raise UnsupportedVariant(f"no solver kernel for the {name} family yet "
                                 f"(only {', '.join(solvable_families())})")
    return importlib.import_module(k)


def engine_for(rules):
    """The reference engine of ``rules``' family."""
    mod, cls = family(rules.family).engine.split(":")
    return getattr(importlib.import_module(mod), cls)(rules)


def dominance_rules(name: str) -> dict[str, DominanceRule]:
    """Family ``name``'s proved dominance rules by name, in ``--dominance all`` order."""
    return {r.name: r for r in family(name).dominance}


def dominance_flags(rules, names) -> int:
    """The ``cfg[C_SAFE]`` bits of the dominance rules ``names`` for ``rules``; an unknown
    rule, or one these rules do not allow, is an error."""
    known = dominance_rules(rules.family)
    kernel = kernel_module(rules.family)
    flags = 0
    for name in names:
        if name not in known:
            raise UnsupportedVariant(f"unknown dominance rule {name!r} for {rules.family} "
                                     f"(known: {', '.join(known) or 'none'})")
        why = known[name].refusal(rules)
        if why:
            raise UnsupportedVariant(why)
        flags |= getattr(kernel, known[name].flag_name())
    return flags


def kernel_sources() -> list[str]:
    """Every file whose edit must start a fresh numba cache (paths below ``solver/``)."""
    return list(CORE_SOURCES) + [s for f in FAMILIES.values() for s in f.sources]
