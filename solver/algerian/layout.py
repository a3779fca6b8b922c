"""Algerian Patience's deal (RULES.md Part II sections 3.2 and 3.6): layout A pre-places one
deck's Kings on the down foundations; the tableau is dealt round robin (B and C: the first
half of the piles get a second card), then the reserves; the rest is the stock."""

from __future__ import annotations

from solver import cards, deals
from solver.errors import RulesError
from solver.piles import Layout, need_cards, round_robin, tuples


def shuffle_hook(rules):
    """PySolFC's hook in layout A: one deck's Kings dealt first; none in B and C."""
    if rules["layout"] == "A":
        return deals.hook_kings(rules["ranks"]), rules["suits"]
    return None, 0


def foundation_suits(rules) -> list[int]:
    """Up foundations, then down foundations, one per suit each."""
    ss = cards.suit_set(rules["suits"])
    return ss + ss


def initial_tableau(rules) -> int:
    """Cards on the tableau at the start: one per pile (layout A), or half as many again (B, C)."""
    t = rules["tableau_piles"]
    return t if rules["layout"] == "A" else t + t // 2


def initial_layout(rules, d: list[int]) -> Layout:
    s, top, t = rules["suits"], rules["ranks"], rules["tableau_piles"]
    nres, size = rules["reserves"], rules["reserve_size"]
    foundations: list[list[int]] = [[] for _ in range(2 * s)]
    i = 0
    if rules["layout"] == "A":
        expected = [cards.make(top, k) for k in cards.suit_set(s)]
        if d[:s] != expected:
            raise RulesError("an Algerian layout-A deal sequence must start with the Kings of each suit")
        for k in range(s):
            foundations[s + k].append(d[k])
        i = s
    nt = initial_tableau(rules)
    need_cards(i + nt + nres * size, len(d))
    # Tableau first, round robin (B, C: P0..P(t/2-1) get a second card), then the reserves.
    tableau: list[list[int]] = [[] for _ in range(t)]
    for k in range(nt):
        tableau[k % t].append(d[i + k])
    i += nt
    reserves = round_robin(d[i:], nres, size)
    i += nres * size
    return Layout(tuples(foundations), tuples(reserves), tuples(tableau), (), tuple(d[i:]))
