"""Miniature games: the same move rules on a smaller pack and fewer or smaller piles, and
a generator of random miniature deals for each variant (used to cross-check solvers
against the exhaustive oracle). Each family declares its shapes (``Family.shapes``)."""

from __future__ import annotations

import random
from typing import Any, Optional

from solver.deals import GameNumber
from solver.formats import Deal, pysolfc_deal
from solver.kernels import family
from solver.variants import get_variant, make_rules


def random_miniature_deal(variant: str, rng: random.Random, options: Optional[dict[str, Any]] = None,
                          vary: bool = False, small: bool = False) -> Deal:
    """A random miniature deal of ``variant``: a random shape of its family (of its small
    shapes with ``small``, where the family has them), the variant's own options
    (each option redrawn at random with ``vary``), then ``options``, and a random game
    number."""
    v = get_variant(variant)
    fam = family(v.family)
    shape = dict(rng.choice(fam.small_shapes or fam.shapes if small else fam.shapes))
    fam.miniature(v.defaults(), shape)
    if vary:
        for name, values in fam.variations.items():
            shape[name] = rng.choice(values)
    shape.update(options or {})
    rules = make_rules(v, shape)
    return pysolfc_deal(rules, GameNumber(rng.randrange(1, 10 ** 9)))
