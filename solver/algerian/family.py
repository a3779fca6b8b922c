"""Algerian Patience's declaration (RULES.md Part II section 3). Everything the core knows
of the family comes from ``FAMILY``."""

from __future__ import annotations

from solver.algerian import layout
from solver.contract import (PACK_OPTIONS, DominanceRule, Family, bool_option as b, int_option as i,
                             str_option as s)

OPTIONS = PACK_OPTIONS + (
    s("layout", ("A", "B", "C"),
      "A: Kings pre-placed, 8 tableau cards, reserves of 6 (PySolFC); B: none pre-placed, 12 tableau cards; "
      "C: as B with reserves of 4"),
    i("reserves", 1, 12, "number of reserve piles"),
    i("reserve_size", 1, 12, "cards dealt to each reserve at the start (layout C: 4)"),
    i("tableau_piles", 1, 12, "number of tableau piles"),
    b("tableau_wrap", "tableau building wraps K-A"),
    s("empty_reserve_as_cell", ("off", "from_tableau", "from_anywhere"),
      "an empty reserve accepts one card: never (seed), from the tableau (PGS), from anywhere (PySolFC)"),
    b("foundation_to_tableau", "a foundation's top card may move to the tableau (PySolFC)"),
    b("foundation_transfer", "a foundation's top card may move to the other foundation of its suit"),
)

DEFAULTS = dict(ranks=13, suits=4, layout="A", reserves=6, reserve_size=6, tableau_piles=8,
                tableau_wrap=True, empty_reserve_as_cell="off", foundation_to_tableau=False,
                foundation_transfer=True)

# Shrunk shapes (2 suits = clubs and hearts); each keeps every move rule.
SHAPES = (
    dict(ranks=4, suits=2, reserves=1, reserve_size=2, tableau_piles=4),
    dict(ranks=5, suits=2, reserves=1, reserve_size=7, tableau_piles=1),
    dict(ranks=6, suits=2, reserves=2, reserve_size=5, tableau_piles=1),
)
VARIATIONS = dict(layout=("A", "B", "C"), tableau_wrap=(True, False),
                  empty_reserve_as_cell=("off", "from_tableau", "from_anywhere"),
                  foundation_to_tableau=(False, True), foundation_transfer=(True, False))


def derive(given: dict, options: dict) -> None:
    """Layout C deals reserves of 4 unless the size is given too."""
    if given.get("layout") == "C" and "reserve_size" not in given:
        options["reserve_size"] = 4


FAMILY = Family(
    name="algerian",
    engine="solver.algerian.rules:AlgerianEngine",
    kernel="solver.algerian.kernel",
    hooks="solver.algerian.hooks",
    options=OPTIONS,
    defaults=DEFAULTS,
    layout=layout.initial_layout,
    shuffle_hook=layout.shuffle_hook,
    foundation_suits=layout.foundation_suits,
    shapes=SHAPES,
    variations=VARIATIONS,
    dominance=(DominanceRule("no_pile_swap"),),
    derive=derive,
)
