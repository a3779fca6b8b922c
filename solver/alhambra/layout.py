"""The Alhambra family's deal (RULES.md Part II section 1): the Aces and Kings of one deck
on the foundations, the reserves dealt round robin, one card to each waste pile, the rest
the stock."""

from __future__ import annotations

from solver import cards, deals
from solver.errors import RulesError
from solver.piles import Layout, need_cards, round_robin, tuples


def shuffle_hook(rules):
    """PySolFC's hook: one deck's Aces and Kings dealt first."""
    return deals.hook_aces_and_kings(rules["ranks"]), 2 * rules["suits"]


def foundation_suits(rules) -> list[int]:
    """Up foundations, then down foundations, one per suit each."""
    ss = cards.suit_set(rules["suits"])
    return ss + ss


def initial_layout(rules, d: list[int]) -> Layout:
    s, top = rules["suits"], rules["ranks"]
    nres, size, nw = rules["reserves"], rules["reserve_size"], rules["waste_piles"]
    need_cards(2 * s + nres * size + nw, len(d))
    # D[0..2s-1] are the deck-0 Aces then Kings (the shuffle hook puts them first).
    expected = [cards.make(1, k) for k in cards.suit_set(s)] + [cards.make(top, k) for k in cards.suit_set(s)]
    if d[:2 * s] != expected:
        raise RulesError("an Alhambra-family deal sequence must start with the Aces, then the Kings, of each suit")
    foundations = [[c] for c in d[:2 * s]]
    i = 2 * s
    reserves = round_robin(d[i:], nres, size)
    i += nres * size
    waste = [[c] for c in d[i:i + nw]]      # the start's first deal: one card to each waste pile
    i += nw
    return Layout(tuples(foundations), tuples(reserves), (), tuples(waste), tuple(d[i:]))
