"""Initial positions: where each card of the deal sequence D goes.

A ``Layout`` lists every pile bottom to top and the stock in dealing order (``stock[0]``
is dealt next). It is what deal files store and what the rules engines start from. Each
family maps D to its layout (``Family.layout``, in its folder's ``layout.py``, after
RULES.md Part II); this module holds what they share and asks the registry for the rest.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Sequence

from solver import deals
from solver.errors import RulesError
from solver.kernels import family
from solver.piles import PHASE_CHOOSE_BASE, PHASE_PLAY, Layout, Pile  # noqa: F401  (the layout's names, for its users)

if TYPE_CHECKING:
    from solver.variants import Rules


def hook_for(rules: Rules):
    """The PySolFC shuffle hook for this family and layout: (key, ncards) or (None, 0)."""
    return family(rules.family).shuffle_hook(rules)


def foundation_suits(rules: Rules) -> list[int]:
    """The suit of each foundation, as the family lays them out."""
    return family(rules.family).foundation_suits(rules)


def deal_sequence(rules: Rules, game: deals.GameNumber) -> list[int]:
    """D as card codes for ``rules`` and PySolFC game number ``game``."""
    hook, n = hook_for(rules)
    seq = deals.deal_sequence(game, hook, n, ranks=rules["ranks"], suits=rules["suits"])
    return [code for _, code in seq]


def shuffled_sequence(rules: Rules, rng) -> list[int]:
    """D as card codes for a shuffle of our own (``rng``: a ``random.Random``), not a PySolFC
    game number: the same pack and hook, another order."""
    hook, n = hook_for(rules)
    ids = deals.pack_ids(rules["ranks"], rules["suits"])
    rng.shuffle(ids)
    return [code for _, code in deals.dealing_order(ids, hook, n)]


def initial_layout(rules: Rules, d: Sequence[int]) -> Layout:
    """Map the deal sequence ``d`` (card codes, first dealt first) to the initial layout."""
    n_cards = 2 * rules["ranks"] * rules["suits"]
    if len(d) != n_cards:
        raise RulesError(f"deal sequence has {len(d)} cards, the rules need {n_cards}")
    layout = family(rules.family).layout(rules, list(d))
    if Counter(layout.all_cards()) != Counter(d):   # a mapping bug, never a user error
        raise AssertionError("layout lost or duplicated cards")
    return layout


def pysolfc_layout(rules: Rules, game: deals.GameNumber) -> Layout:
    """The initial layout PySolFC shows for ``game`` (for miniature rules: our own extension)."""
    return initial_layout(rules, deal_sequence(rules, game))


def reference_layout(rules: Rules) -> Layout:
    """The layout of an unshuffled deal: used to learn the variant's pile sizes."""
    hook, n = hook_for(rules)
    ids = deals.pack_ids(rules["ranks"], rules["suits"])
    if hook is not None:
        ids = deals.move_to_top(ids, hook, n)
    return initial_layout(rules, [code for _, code in reversed(ids)])
