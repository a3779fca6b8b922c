"""The variant catalogue (RULES.md Part I.2) and rule options (Part I.3, Part II section 4).

A variant is a named, immutable set of rule-option values. ``Rules`` is what every
engine, kernel and result works from: the variant plus the full option set, with any
overrides applied and validated. Unknown option names and bad values are errors that list
the valid ones: a misspelt option silently ignored would compute results for another game.
"""

from __future__ import annotations

import difflib
import re
import hashlib
import json
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Iterable, Mapping, Optional

from solver.errors import RulesError


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


def _b(name, help):
    return OptionSpec(name, bool, help)


def _i(name, lo, hi, help):
    return OptionSpec(name, int, help, lo=lo, hi=hi)


def _s(name, choices, help):
    return OptionSpec(name, str, help, choices=tuple(choices))


# Miniature games: fewer ranks or suits, same move rules (RULES.md is for 13 x 4).
_PACK = (
    _i("ranks", 3, 13, "ranks per suit (13 = A..K; fewer makes a miniature game, the top rank plays the King)"),
    _i("suits", 1, 4, "suits in the pack (4 = clubs, spades, hearts, diamonds; fewer makes a miniature game)"),
)

FAMILY_OPTIONS: dict[str, tuple[OptionSpec, ...]] = {
    "alhambra": _PACK + (
        _i("reserves", 1, 12, "number of reserve piles"),
        _i("reserve_size", 1, 24, "cards dealt to each reserve"),
        _i("waste_piles", 1, 4, "number of waste piles (Granada: 4); several allow waste-to-waste moves"),
        _b("empty_waste_accepts_any", "an empty waste pile accepts any reserve (or waste) card (PySolFC)"),
        _i("redeals", 0, 5, "how many times the waste may be turned over to form a new stock"),
        _b("redeal_includes_first_deal", "a redeal deals the first card(s) of the new stock in the same action (PySolFC)"),
        _b("stop_at_third_exhaustion", "the game ends when the stock runs out in the last pass (seed's strict reading)"),
        _b("reinforce", "an empty reserve is refilled from the stock (Grant's Reinforcement)"),
        _s("reinforce_timing", ("after_card_move", "immediate"),
           "when empty reserves are refilled: after each card move (PySolFC) or also right after deals/redeals"),
    ),
    "terrace": _PACK + (
        _i("reserve_size", 0, 40, "cards in the reserve (the terrace)"),
        _i("tableau_piles", 1, 12, "number of tableau piles"),
        _s("base_mode", ("choose", "dealt"), "the base rank is chosen by the player from the first tableau cards, or dealt"),
        _i("base_choices", 1, 12, "with base_mode=choose: how many tableau cards are offered as the base"),
        _s("found_build", ("AC", "SS"), "foundations build up in alternate colours or in suit"),
        _s("tableau_build", ("AC", "SS"), "tableau builds down in alternate colours or in suit"),
        _s("gap_rule", ("auto_waste", "auto_stock", "any_available", "auto_reserve_first", "waste_only"),
           "how empty tableau piles are filled (RULES.md Part II section 2.8)"),
        _b("waste_autofill", "an empty waste is refilled at once from the stock"),
        _b("found_takeback", "a foundation's top card (never the base) may be moved back (PySolFC Queen of Italy)"),
        _i("redeals", 0, 1, "1 = the waste may be turned once; in that pass a card is dealt only onto an empty waste"),
        _s("deal_order", ("pysolfc", "aisleriot"),
           "with base_mode=dealt: reserve, tableau, base (PySolFC) or reserve, base, tableau (AisleRiot)"),
        _b("no_build_on_base_rank", "no card may be placed on a tableau card of the base rank (AisleRiot)"),
        _b("reserve_to_tableau", "the reserve top may also go onto the tableau (and into a gap the player may fill): "
           "the rules a generic solver such as Solvitaire expresses for General's Patience"),
    ),
    "algerian": _PACK + (
        _s("layout", ("A", "B", "C"),
           "A: Kings pre-placed, 8 tableau cards, reserves of 6 (PySolFC); B: none pre-placed, 12 tableau cards; "
           "C: as B with reserves of 4"),
        _i("reserves", 1, 12, "number of reserve piles"),
        _i("reserve_size", 1, 12, "cards dealt to each reserve at the start (layout C: 4)"),
        _i("tableau_piles", 1, 12, "number of tableau piles"),
        _b("tableau_wrap", "tableau building wraps K-A"),
        _s("empty_reserve_as_cell", ("off", "from_tableau", "from_anywhere"),
           "an empty reserve accepts one card: never (seed), from the tableau (PGS), from anywhere (PySolFC)"),
        _b("foundation_to_tableau", "a foundation's top card may move to the tableau (PySolFC)"),
        _b("foundation_transfer", "a foundation's top card may move to the other foundation of its suit"),
    ),
}

FAMILY_DEFAULTS: dict[str, dict[str, Any]] = {
    "alhambra": dict(ranks=13, suits=4, reserves=8, reserve_size=4, waste_piles=1,
                     empty_waste_accepts_any=False, redeals=2, redeal_includes_first_deal=True,
                     stop_at_third_exhaustion=False, reinforce=False, reinforce_timing="after_card_move"),
    "terrace": dict(ranks=13, suits=4, reserve_size=11, tableau_piles=9, base_mode="choose",
                    base_choices=4, found_build="AC", tableau_build="AC", gap_rule="auto_waste",
                    waste_autofill=True, found_takeback=False, redeals=0, deal_order="pysolfc",
                    no_build_on_base_rank=False, reserve_to_tableau=False),
    "algerian": dict(ranks=13, suits=4, layout="A", reserves=6, reserve_size=6, tableau_piles=8,
                     tableau_wrap=True, empty_reserve_as_cell="off", foundation_to_tableau=False,
                     foundation_transfer=True),
}


@dataclass(frozen=True)
class Variant:
    """A catalogue entry: a named set of option values over its family's defaults."""

    key: str
    name: str
    family: str
    pysolfc_id: Optional[int]
    settings: Mapping[str, Any]
    profiles: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    aliases: tuple[str, ...] = ()
    summary: str = ""

    def defaults(self) -> dict[str, Any]:
        """The full option set of this variant with nothing overridden."""
        d = dict(FAMILY_DEFAULTS[self.family])
        d.update(self.settings)
        return d


def _v(key, name, family, pid, settings, pysolfc=None, aliases=(), summary=""):
    profiles = {} if pid is None else {"pysolfc": MappingProxyType(dict(pysolfc or {}))}
    return Variant(key, name, family, pid, MappingProxyType(dict(settings)),
                   MappingProxyType(profiles), tuple(aliases), summary)


CATALOGUE: tuple[Variant, ...] = (
    _v("alhambra", "Alhambra", "alhambra", 234, {}, pysolfc={"empty_waste_accepts_any": True},
       summary="8 reserves of 4, one waste, two redeals; an empty waste accepts nothing"),
    _v("granada", "Granada", "alhambra", 465, {"waste_piles": 4, "empty_waste_accepts_any": True},
       summary="Alhambra with four waste piles (PySolFC)"),
    _v("reinforcements", "The Reinforcements (Grant's Reinforcement)", "alhambra", 609,
       {"reserves": 4, "reserve_size": 12, "reinforce": True},
       summary="4 reserves of 12, refilled from the stock when emptied (PySolFC timing)"),
    _v("terrace", "Queen of Italy (Terrace)", "terrace", 135, {}, aliases=("queen-of-italy",),
       summary="reserve 11, 9 piles, base chosen from 4, gaps auto-filled from the waste"),
    _v("queen-of-italy-pysolfc", "Queen of Italy as PySolFC plays it", "terrace", 431,
       {"gap_rule": "any_available", "found_takeback": True, "waste_autofill": False},
       summary="no auto-fill, gaps take any tableau/waste card, foundation take-back"),
    _v("generals-patience", "General's Patience", "terrace", 136, {"reserve_size": 13, "found_build": "SS"},
       summary="reserve 13, foundations in suit"),
    _v("blondes-and-brunettes", "Blondes and Brunettes", "terrace", 137, {"reserve_size": 10, "base_mode": "dealt"},
       summary="reserve 10, base dealt"),
    _v("falling-star", "Falling Star", "terrace", 138, {"reserve_size": 11, "base_mode": "dealt"},
       summary="reserve 11, base dealt"),
    _v("redheads", "Redheads", "terrace", None,
       {"reserve_size": 21, "tableau_piles": 8, "base_mode": "dealt", "gap_rule": "auto_reserve_first",
        "deal_order": "aisleriot"},
       summary="reserve 21, 8 piles, gaps filled from the reserve, then waste, then stock (AisleRiot)"),
    _v("algerian", "Algerian Patience", "algerian", 322, {},
       pysolfc={"empty_reserve_as_cell": "from_anywhere", "foundation_to_tableau": True},
       summary="layout A; tableau wraps; foundation transfers; no reserve cells; no foundation-to-tableau"),
)


def variant_keys() -> list[str]:
    """All variant keys and aliases."""
    out = []
    for v in CATALOGUE:
        out.append(v.key)
        out.extend(v.aliases)
    return out


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


def option_specs(family: str) -> dict[str, OptionSpec]:
    return {o.name: o for o in FAMILY_OPTIONS[family]}


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
    # Algerian layout C deals reserves of 4 unless the size is given too.
    if v.family == "algerian" and given.get("layout") == "C" and "reserve_size" not in given:
        opts["reserve_size"] = 4
    opts.update(given)
    _check_consistent(v, opts)
    return Rules(v.key, v.family, tuple(sorted(opts.items())))


def rules_from_dict(variant: str, options: Mapping[str, Any]) -> Rules:
    """Rules from a stored full option set (e.g. a deal file); every option must be known."""
    v = get_variant(variant)
    specs = option_specs(v.family)
    missing = [k for k in specs if k not in options]
    if missing:
        raise RulesError(f"rule options missing: {', '.join(missing)}")
    return make_rules(v, dict(options))


def _check_consistent(v: Variant, o: dict[str, Any]) -> None:
    if v.family == "terrace":
        if "AC" in (o["found_build"], o["tableau_build"]) and o["suits"] < 2:
            raise RulesError("alternate-colour building needs suits >= 2")
        if o["base_mode"] == "choose" and o["base_choices"] > o["tableau_piles"]:
            raise RulesError("base_choices cannot exceed tableau_piles")
