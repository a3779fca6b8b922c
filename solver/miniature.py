"""Miniature games: the same move rules on a smaller pack and fewer or smaller piles, and
a generator of random miniature deals for each variant (used to cross-check solvers
against the exhaustive oracle)."""

from __future__ import annotations

import random
from typing import Any, Optional

from solver.deals import GameNumber
from solver.formats import Deal, pysolfc_deal
from solver.variants import get_variant, make_rules

# Shrunk shapes per family (2 suits = clubs and hearts); each keeps every move rule.
SHAPES: dict[str, list[dict[str, Any]]] = {
    "alhambra": [
        dict(ranks=4, suits=2, reserves=2, reserve_size=3),
        dict(ranks=4, suits=2, reserves=1, reserve_size=6),
        dict(ranks=5, suits=2, reserves=1, reserve_size=8),
    ],
    "terrace": [
        dict(ranks=4, suits=2, reserve_size=3, tableau_piles=3, base_choices=2),
        dict(ranks=4, suits=2, reserve_size=4, tableau_piles=2, base_choices=2),
        dict(ranks=4, suits=2, reserve_size=5, tableau_piles=2, base_choices=2),
    ],
    "algerian": [
        dict(ranks=4, suits=2, reserves=1, reserve_size=2, tableau_piles=4),
        dict(ranks=5, suits=2, reserves=1, reserve_size=7, tableau_piles=1),
        dict(ranks=6, suits=2, reserves=2, reserve_size=5, tableau_piles=1),
    ],
}

# Smaller shapes still, for the default test run's thousands of oracle cross-checks (the
# pure-Python oracle must finish each deal in well under a second).
SMALL_SHAPES: dict[str, list[dict[str, Any]]] = {
    "alhambra": [
        dict(ranks=3, suits=2, reserves=2, reserve_size=2),
        dict(ranks=4, suits=1, reserves=2, reserve_size=2),
        dict(ranks=4, suits=2, reserves=2, reserve_size=2),
        dict(ranks=4, suits=2, reserves=1, reserve_size=4),
    ],
    # Terrace: a reserve heavy for the pack, where a third or more of the deals are lost.
    "terrace": [
        dict(ranks=4, suits=2, reserve_size=7, tableau_piles=2, base_choices=2),
        dict(ranks=4, suits=2, reserve_size=6, tableau_piles=1, base_choices=1),
    ],
}

# Option values drawn at random when a deal's rules are varied (every value of each option).
VARIATIONS: dict[str, dict[str, list]] = {
    "alhambra": dict(redeals=[0, 1, 2], empty_waste_accepts_any=[False, True],
                     stop_at_third_exhaustion=[False, True], reinforce_timing=["after_card_move", "immediate"]),
    "terrace": dict(gap_rule=["auto_waste", "auto_stock", "any_available", "auto_reserve_first", "waste_only"],
                    waste_autofill=[True, False], found_takeback=[False, True], redeals=[0, 1],
                    found_build=["AC", "SS"], tableau_build=["AC", "SS"], no_build_on_base_rank=[False, True],
                    reserve_to_tableau=[False, True],
                    deal_order=["pysolfc", "aisleriot"]),
    "algerian": dict(layout=["A", "B", "C"], tableau_wrap=[True, False],
                     empty_reserve_as_cell=["off", "from_tableau", "from_anywhere"],
                     foundation_to_tableau=[False, True], foundation_transfer=[True, False]),
}


def random_miniature_deal(variant: str, rng: random.Random, options: Optional[dict[str, Any]] = None,
                          vary: bool = False, small: bool = False) -> Deal:
    """A random miniature deal of ``variant``: a random shape of its family (of the
    ``SMALL_SHAPES`` with ``small``, where the family has them), the variant's own options
    (each option redrawn at random with ``vary``), then ``options``, and a random game
    number."""
    v = get_variant(variant)
    shapes = SMALL_SHAPES.get(v.family, SHAPES[v.family]) if small else SHAPES[v.family]
    shape = dict(rng.choice(shapes))
    if v.family == "alhambra" and v.defaults()["waste_piles"] > 1:
        shape["waste_piles"] = 2          # Granada: several waste piles, scaled down
    if vary:
        for name, values in VARIATIONS[v.family].items():
            shape[name] = rng.choice(values)
    shape.update(options or {})
    rules = make_rules(v, shape)
    return pysolfc_deal(rules, GameNumber(rng.randrange(1, 10 ** 9)))
