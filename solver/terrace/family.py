"""The Terrace family's declaration: Queen of Italy (Terrace), PySolFC's Queen of Italy,
General's Patience, Blondes and Brunettes, Falling Star and Redheads (RULES.md Part II
section 2). Everything the core knows of the family comes from ``FAMILY``."""

from __future__ import annotations

from solver.contract import (PACK_OPTIONS, DominanceRule, Family, bool_option as b, int_option as i,
                             str_option as s)
from solver.errors import RulesError
from solver.terrace import layout

OPTIONS = PACK_OPTIONS + (
    i("reserve_size", 0, 40, "cards in the reserve (the terrace)"),
    i("tableau_piles", 1, 12, "number of tableau piles"),
    s("base_mode", ("choose", "dealt"), "the base rank is chosen by the player from the first tableau cards, or dealt"),
    i("base_choices", 1, 12, "with base_mode=choose: how many tableau cards are offered as the base"),
    s("found_build", ("AC", "SS"), "foundations build up in alternate colours or in suit"),
    s("tableau_build", ("AC", "SS"), "tableau builds down in alternate colours or in suit"),
    s("gap_rule", ("auto_waste", "auto_stock", "any_available", "auto_reserve_first", "waste_only"),
      "how empty tableau piles are filled (docs/rules.md, the values of gap_rule)"),
    b("waste_autofill", "an empty waste is refilled at once from the stock"),
    b("found_takeback", "a foundation's top card (never the base) may be moved back (PySolFC Queen of Italy)"),
    i("redeals", 0, 1, "1 = the waste may be turned once; in that pass a card is dealt only onto an empty waste"),
    s("deal_order", ("pysolfc", "aisleriot"),
      "with base_mode=dealt: reserve, tableau, base (PySolFC) or reserve, base, tableau (AisleRiot)"),
    b("no_build_on_base_rank", "no card may be placed on a tableau card of the base rank (AisleRiot)"),
    b("reserve_to_tableau", "the reserve top may also go onto the tableau (and into a gap the player may fill): "
      "the rules a generic solver such as Solvitaire expresses for General's Patience"),
)

DEFAULTS = dict(ranks=13, suits=4, reserve_size=11, tableau_piles=9, base_mode="choose",
                base_choices=4, found_build="AC", tableau_build="AC", gap_rule="auto_waste",
                waste_autofill=True, found_takeback=False, redeals=0, deal_order="pysolfc",
                no_build_on_base_rank=False, reserve_to_tableau=False)

_RESERVE_HOME_ONLY = ({"found_takeback": False, "reserve_to_tableau": False,
                       "gap_rule": ("auto_waste", "auto_stock", "any_available", "waste_only")},
                      "no foundation take-back and a reserve that empties only to the foundations")

DOMINANCE = (
    DominanceRule("reserve_blocked", *_RESERVE_HOME_ONLY),
    DominanceRule("reserve_order", *_RESERVE_HOME_ONLY),
    DominanceRule("idle_card_home", {"found_takeback": False}, "no foundation take-back"),
    DominanceRule("no_lone_shift"),
)

# Shrunk shapes (2 suits = clubs and hearts); each keeps every move rule.
SHAPES = (
    dict(ranks=4, suits=2, reserve_size=3, tableau_piles=3, base_choices=2),
    dict(ranks=4, suits=2, reserve_size=4, tableau_piles=2, base_choices=2),
    dict(ranks=4, suits=2, reserve_size=5, tableau_piles=2, base_choices=2),
)
# For the default run: a reserve heavy for the pack, where a third or more of the deals are lost.
SMALL_SHAPES = (
    dict(ranks=4, suits=2, reserve_size=7, tableau_piles=2, base_choices=2),
    dict(ranks=4, suits=2, reserve_size=6, tableau_piles=1, base_choices=1),
)
VARIATIONS = dict(gap_rule=("auto_waste", "auto_stock", "any_available", "auto_reserve_first", "waste_only"),
                  waste_autofill=(True, False), found_takeback=(False, True), redeals=(0, 1),
                  found_build=("AC", "SS"), tableau_build=("AC", "SS"), no_build_on_base_rank=(False, True),
                  reserve_to_tableau=(False, True),
                  deal_order=("pysolfc", "aisleriot"))


def check(o: dict) -> None:
    """Alternate colours need two suits; the base is chosen among the piles there are."""
    if "AC" in (o["found_build"], o["tableau_build"]) and o["suits"] < 2:
        raise RulesError("alternate-colour building needs suits >= 2")
    if o["base_mode"] == "choose" and o["base_choices"] > o["tableau_piles"]:
        raise RulesError("base_choices cannot exceed tableau_piles")


FAMILY = Family(
    name="terrace",
    engine="solver.terrace.rules:TerraceEngine",
    kernel="solver.terrace.kernel",
    hooks="solver.terrace.hooks",
    options=OPTIONS,
    defaults=DEFAULTS,
    layout=layout.initial_layout,
    shuffle_hook=layout.shuffle_hook,
    foundation_suits=layout.foundation_suits,
    dealt_foundations=layout.dealt_foundations,
    shapes=SHAPES,
    small_shapes=SMALL_SHAPES,
    variations=VARIATIONS,
    dominance=DOMINANCE,
    check=check,
)
