"""What a game family declares, and the defaults of the kernel contract's Python hooks.

A leaf: it imports nothing of the project but ``solver.errors``, so every family's
declaration (``solver/<family>/family.py``) and the registry (``solver.kernels``) can
import it without a loop.

A family is declared once, as a ``Family``: its rule options and their defaults, the
deal's layout, its reference engine, its numba kernel and the Python half of the kernel
contract (``hooks``), its proved dominance rules, and its miniature shapes for the
cross-checks. The core (variants, layout, formats, miniature, driver, CLI) asks the
registry for these and names no family and no proof.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, NamedTuple, Optional

from solver.errors import RulesError


# ----- rule options -------------------------------------------------------------------------

@dataclass(frozen=True)
class OptionSpec:
    """One rule option: its type, the values it may take and its meaning."""

    name: str
    kind: type                      # bool, int or str
    help: str
    choices: tuple = ()             # allowed values for str options
    lo: int = 0                     # bounds for int options
    hi: int = 0

    def valid_values(self) -> str:
        if self.kind is bool:
            return "true, false"
        if self.kind is int:
            return f"an integer from {self.lo} to {self.hi}"
        return ", ".join(self.choices)

    def parse(self, value: Any) -> Any:
        """Convert ``value`` (text or a Python value) to this option's type, or raise."""
        bad = RulesError(f"bad value {value!r} for rule option {self.name!r}; valid: {self.valid_values()}")
        if self.kind is bool:
            if isinstance(value, bool):
                return value
            t = str(value).strip().lower()
            if t in ("true", "1", "yes", "on"):
                return True
            if t in ("false", "0", "no", "off"):
                return False
            raise bad
        if self.kind is int:
            if isinstance(value, bool):
                raise bad
            t = str(value).strip()
            if not re.fullmatch(r"-?[0-9]{1,18}", t):  # int() would take 1_0, other scripts' digits, 10^5000
                raise bad
            v = int(t)
            if not self.lo <= v <= self.hi:
                raise bad
            return v
        t = str(value).strip()
        if t not in self.choices:
            raise bad
        return t


def bool_option(name: str, help: str) -> OptionSpec:
    return OptionSpec(name, bool, help)


def int_option(name: str, lo: int, hi: int, help: str) -> OptionSpec:
    return OptionSpec(name, int, help, lo=lo, hi=hi)


def str_option(name: str, choices, help: str) -> OptionSpec:
    return OptionSpec(name, str, help, choices=tuple(choices))


# Miniature games: fewer ranks or suits, same move rules (RULES.md is for 13 x 4).
PACK_OPTIONS = (
    int_option("ranks", 3, 13, "ranks per suit (13 = A..K; fewer makes a miniature game, the top rank plays the King)"),
    int_option("suits", 1, 4, "suits in the pack (4 = clubs, spades, hearts, diamonds; fewer makes a miniature game)"),
)


# ----- proofs ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class DominanceRule:
    """A proved reduction of a family's kernel: its name (``--dominance NAME``), the rule
    option values it is proved for (empty: every rule set) and how to say them. Its flag
    is the family hooks module's ``SAFE_<NAME>``. A ``needs`` value that is a tuple lists
    the values allowed. ``all_needs``: where ``--dominance all`` takes the rule (besides
    ``needs``); elsewhere it runs only when named, being too slow for a default budget.
    ``proves``: for a rule that decides a deal outside the search, what its "lost" means,
    in a line the CLI prints (empty: the rule only prunes the search); ``finds``: likewise
    for a line it finds (empty: it finds none)."""
    name: str
    needs: Mapping[str, object] = field(default_factory=dict)
    says: str = ""
    all_needs: Mapping[str, object] = field(default_factory=dict)
    proves: str = ""
    finds: str = ""

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


class RootVerdict(NamedTuple):
    """A verdict from outside the search (``root_verdict``): ``lost`` proved by ``rule``;
    ``won`` with ``moves``, a line the driver certifies (``rule`` found it); or ``lead``:
    no verdict, ``moves`` a line of real play from whose end (and ``lead_back`` moves
    before it) the driver searches for wins, complete searches of ``lead_nodes`` nodes
    then the family's searches for wins as for ``lead_plan_nodes`` (``rule``: the proof a
    win from there is recorded under)."""
    verdict: str
    moves: list
    rule: str
    lead_back: tuple = ()
    lead_nodes: int = 0
    lead_plan_nodes: int = 0


# What ``root_verdict`` is given to search for a kernel goal (``solver.attempts.reaches_goal``):
# (rules, goal, dominance, pos, nodes, memory, deadline) -> True, False or None (ran out).
GoalSearch = Callable[..., Optional[bool]]


# ----- the family -----------------------------------------------------------------------------

def no_check(options: dict) -> None:
    """No rule of consistency between a family's options."""


def no_derived(given: dict, options: dict) -> None:
    """No option of the family takes its value from another one given."""


def no_miniature_change(defaults: dict, shape: dict) -> None:
    """A variant's miniature shape is its family's, unchanged."""


@dataclass(frozen=True)
class Family:
    """One game family, declared in ``solver/<name>/family.py`` and gathered by the
    registry (``solver.kernels``).

    ``engine``: the reference engine as ``module:class``; ``kernel``: the numba kernel's
    module; ``hooks``: the module of the contract's Python half (``solver.kernels``);
    ``options`` and ``defaults``: the rule options and their values; ``dominance``: the
    proved rules in ``--dominance all`` order; ``relaxation``: the rule whose relaxation
    runs at the root (``relaxation_lost``), if any; ``wins``: the names a line found
    outside the search is recorded under, with what the CLI says of each.

    The deal: ``layout(rules, d)`` maps the deal sequence to a ``solver.layout.Layout``;
    ``shuffle_hook(rules)`` is PySolFC's hook, ``(key, ncards)`` or ``(None, 0)``;
    ``foundation_suits(rules)`` the suit of each foundation; ``dealt_foundations(rules,
    layout)`` checks a hand-made layout's foundations where the deal places cards there
    that the unshuffled deal cannot show (a list of problems), or is None.

    The options: ``derive(given, options)`` sets options that follow from ones given;
    ``check(options)`` raises ``RulesError`` on an inconsistent set.

    The cross-checks: ``shapes`` (miniature option sets keeping every move rule),
    ``small_shapes`` (smaller still, for the default run; empty: ``shapes``),
    ``variations`` (each option's values drawn when rules are varied) and
    ``miniature(defaults, shape)`` adjusting a shape to a variant's defaults."""
    name: str
    engine: str
    kernel: str
    hooks: str
    options: tuple[OptionSpec, ...]
    defaults: Mapping[str, Any]
    layout: Callable
    shuffle_hook: Callable
    foundation_suits: Callable
    shapes: tuple[Mapping[str, Any], ...]
    variations: Mapping[str, tuple]
    dominance: tuple[DominanceRule, ...] = ()
    relaxation: Optional[str] = None
    wins: Mapping[str, str] = field(default_factory=dict)
    small_shapes: tuple[Mapping[str, Any], ...] = ()
    derive: Callable = no_derived
    check: Callable = no_check
    dealt_foundations: Optional[Callable] = None
    miniature: Callable = no_miniature_change

    def option_specs(self) -> dict[str, OptionSpec]:
        return {o.name: o for o in self.options}

    def rule(self, name: str) -> Optional[DominanceRule]:
        """The dominance rule ``name`` of this family, or None."""
        return next((r for r in self.dominance if r.name == name), None)


# ----- the default hooks ----------------------------------------------------------------------
# The kernel contract's Python hooks for a family that has none of the extras: no
# relaxation, no verdict from outside the search, no searches for wins and no per-solve
# memo. A family without them imports these; one that has any defines its own.

def relaxation_lost(cfg, state, cap: int, retry: bool) -> tuple[bool, int]:
    """A relaxation proving the position lost: none in this family."""
    return False, 0


def relaxation_moves(cfg, nodes: int) -> int:
    """Relaxed moves the root's relaxation may spend in a solve of ``nodes`` nodes: none in
    this family."""
    return 0


def root_verdict(cfg, rules, pos, seconds: float, reach: GoalSearch) -> Optional[RootVerdict]:
    """No verdict outside the search in this family: None."""
    return None


def win_plan(cfg, nodes: int) -> list:
    """No searches for wins after the search in this family: its searches decide or run out
    of nodes on deals no beam was measured to win."""
    return []


def memo_slots(cfg, nodes: int) -> int:
    """Rows of a per-solve memo (``state.memo``) for a solve of ``nodes`` nodes: none in
    this family."""
    return 0
