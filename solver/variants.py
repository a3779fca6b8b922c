"""The variant catalogue (RULES.md Part I.2) and rule options (Part I.3, Part II section 4).

A variant is a named, immutable set of rule-option values. ``Rules`` is what every
engine, kernel and result works from: the variant plus the full option set, with any
overrides applied and validated. Unknown option names and bad values are errors that list
the valid ones: a misspelt option silently ignored would compute results for another game.
"""

from __future__ import annotations

import difflib
import hashlib
import json
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Iterable, Mapping, Optional

from solver.contract import OptionSpec
from solver.errors import RulesError
from solver.kernels import family


@dataclass(frozen=True)
class Variant:
    """A catalogue entry: a named set of option values over its family's defaults."""

    key: str
    name: str
    family: str
    pysolfc_id: Optional[int]
    budget_nodes: int                     # the node budget of ``solve`` and of the published table
    settings: Mapping[str, Any]
    profiles: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    aliases: tuple[str, ...] = ()
    summary: str = ""

    def defaults(self) -> dict[str, Any]:
        """The full option set of this variant with nothing overridden."""
        d = dict(family(self.family).defaults)
        d.update(self.settings)
        return d


def _v(key, name, family, pid, budget, settings, pysolfc=None, aliases=(), summary=""):
    profiles = {} if pid is None else {"pysolfc": MappingProxyType(dict(pysolfc or {}))}
    return Variant(key, name, family, pid, budget, MappingProxyType(dict(settings)),
                   MappingProxyType(profiles), tuple(aliases), summary)


# Each variant's node budget, stated once: ``patience solve`` and the published table use it.
# The Alhambra family's first two and Algerian decide (nearly) every deal at 1 M; The
# Reinforcements and the Terrace family run searches for wins after the search.
M = 1_000_000

CATALOGUE: tuple[Variant, ...] = (
    _v("alhambra", "Alhambra", "alhambra", 234, M, {}, pysolfc={"empty_waste_accepts_any": True},
       summary="8 reserves of 4, one waste, two redeals; an empty waste accepts nothing"),
    _v("granada", "Granada", "alhambra", 465, M, {"waste_piles": 4, "empty_waste_accepts_any": True},
       summary="Alhambra with four waste piles (PySolFC)"),
    _v("reinforcements", "The Reinforcements (Grant's Reinforcement)", "alhambra", 609,
       2 * M, {"reserves": 4, "reserve_size": 12, "reinforce": True},
       summary="4 reserves of 12, refilled from the stock when emptied (PySolFC timing)"),
    _v("terrace", "Queen of Italy (Terrace)", "terrace", 135, 2 * M, {}, aliases=("queen-of-italy",),
       summary="reserve 11, 9 piles, base chosen from 4, gaps auto-filled from the waste"),
    _v("queen-of-italy-pysolfc", "Queen of Italy as PySolFC plays it", "terrace", 431,
       2 * M, {"gap_rule": "any_available", "found_takeback": True, "waste_autofill": False},
       summary="no auto-fill, gaps take any tableau/waste card, foundation take-back"),
    _v("generals-patience", "General's Patience", "terrace", 136, 2 * M, {"reserve_size": 13, "found_build": "SS"},
       summary="reserve 13, foundations in suit"),
    _v("blondes-and-brunettes", "Blondes and Brunettes", "terrace", 137, 2 * M, {"reserve_size": 10, "base_mode": "dealt"},
       summary="reserve 10, base dealt"),
    _v("falling-star", "Falling Star", "terrace", 138, 2 * M, {"reserve_size": 11, "base_mode": "dealt"},
       summary="reserve 11, base dealt"),
    _v("redheads", "Redheads", "terrace", None,
       2 * M, {"reserve_size": 21, "tableau_piles": 8, "base_mode": "dealt", "gap_rule": "auto_reserve_first",
        "deal_order": "aisleriot"},
       summary="reserve 21, 8 piles, gaps filled from the reserve, then waste, then stock (AisleRiot)"),
    _v("algerian", "Algerian Patience", "algerian", 322, M, {},
       pysolfc={"empty_reserve_as_cell": "from_anywhere", "foundation_to_tableau": True},
       summary="layout A; tableau wraps; foundation transfers; no reserve cells; no foundation-to-tableau"),
)


# The smallest rules to compile the search core with when no rules are given
# (``solver.driver.warm_up``): a miniature Algerian Patience.
WARM_UP = ("algerian", {"ranks": 3, "suits": 1, "reserves": 1, "reserve_size": 1, "tableau_piles": 1})


def budget_nodes(rules: "Rules") -> int:
    """The node budget of ``rules``' variant (``Variant.budget_nodes``)."""
    return get_variant(rules.variant).budget_nodes


def variant_keys() -> list[str]:
    """All variant keys and aliases."""
    out = []
    for v in CATALOGUE:
        out.append(v.key)
        out.extend(v.aliases)
    return out


def first_variant(family: str) -> Variant:
    """The catalogue's first variant of ``family`` (whose defaults the family's list of
    options shows)."""
    return next(v for v in CATALOGUE if v.family == family)


def get_variant(key: str) -> Variant:
    """Look a variant up by key or alias; an unknown name suggests the nearest."""
    k = key.strip().lower().replace("_", "-")
    for v in CATALOGUE:
        if k == v.key or k in v.aliases:
            return v
    near = difflib.get_close_matches(k, variant_keys(), n=3, cutoff=0.4)
    hint = f"; did you mean {', '.join(near)}?" if near else ""
    raise RulesError(f"unknown variant {key!r}{hint} (see 'patience variants')")


@dataclass(frozen=True)
class Rules:
    """A variant with its complete, validated option set."""

    variant: str
    family: str
    options: tuple[tuple[str, Any], ...]

    def __post_init__(self):
        object.__setattr__(self, "_index", dict(self.options))

    def __getitem__(self, name: str) -> Any:
        return self._index[name]

    def as_dict(self) -> dict[str, Any]:
        return dict(self.options)

    @property
    def full_size(self) -> bool:
        return self["ranks"] == 13 and self["suits"] == 4

    def hash(self) -> str:
        """A short hash naming the variant and every option value."""
        blob = json.dumps({"variant": self.variant, "options": self.as_dict()}, sort_keys=True)
        return hashlib.sha256(blob.encode()).hexdigest()[:12]

    def describe(self) -> str:
        """``variant name=value ...`` listing only values that differ from the variant's defaults."""
        base = get_variant(self.variant).defaults()
        diff = [f"{k}={_fmt(v)}" for k, v in self.options if base.get(k) != v]
        return self.variant + (" " + " ".join(diff) if diff else "")


def _fmt(v: Any) -> str:
    return str(v).lower() if isinstance(v, bool) else str(v)


def option_specs(name: str) -> dict[str, OptionSpec]:
    """Family ``name``'s rule options by name."""
    return family(name).option_specs()


def parse_rule_assignments(items: Iterable[str]) -> dict[str, str]:
    """Parse ``name=value`` strings (as given to ``--rule``)."""
    out = {}
    for item in items:
        if "=" not in item:
            raise RulesError(f"bad --rule {item!r}: expected name=value")
        k, v = item.split("=", 1)
        out[k.strip()] = v.strip()
    return out


def make_rules(variant: str | Variant, overrides: Optional[Mapping[str, Any]] = None,
               profile: Optional[str] = None) -> Rules:
    """The full option set of ``variant`` with ``profile`` then ``overrides`` applied.

    Every name and value is checked; errors list what is valid.
    """
    v = variant if isinstance(variant, Variant) else get_variant(variant)
    specs = option_specs(v.family)
    opts = v.defaults()
    if profile:
        if profile not in v.profiles:
            have = ", ".join(v.profiles) or "none"
            raise RulesError(f"variant {v.key!r} has no profile {profile!r} (profiles: {have})")
        opts.update(v.profiles[profile])
    given = {}
    for name, value in (overrides or {}).items():
        if name not in specs:
            near = difflib.get_close_matches(name, list(specs), n=1)
            hint = f" (did you mean {near[0]!r}?)" if near else ""
            raise RulesError(f"unknown rule option {name!r} for {v.key}{hint}; valid: {', '.join(specs)}")
        given[name] = specs[name].parse(value)
    family(v.family).derive(given, opts)
    opts.update(given)
    family(v.family).check(opts)
    return Rules(v.key, v.family, tuple(sorted(opts.items())))


def rules_from_dict(variant: str, options: Mapping[str, Any]) -> Rules:
    """Rules from a stored full option set (e.g. a deal file); every option must be known."""
    v = get_variant(variant)
    specs = option_specs(v.family)
    missing = [k for k in specs if k not in options]
    if missing:
        raise RulesError(f"rule options missing: {', '.join(missing)}")
    return make_rules(v, dict(options))
