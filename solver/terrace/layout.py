"""The Terrace family's deal (RULES.md Part II section 2): the reserve (the terrace), then
the tableau and the base card in the order the rules name, or the base-choice phase; the
waste's first card; the rest the stock."""

from __future__ import annotations

from typing import Optional

from solver import cards
from solver.piles import PHASE_CHOOSE_BASE, Layout, need_cards, tuples


def shuffle_hook(rules):
    """No card is dealt first."""
    return None, 0


def foundation_suits(rules) -> list[int]:
    """PySolFC's suit tags, two per suit (C C S S H H D D)."""
    ss = cards.suit_set(rules["suits"])
    return [ss[k // 2] for k in range(2 * len(ss))]


def base_foundation(rules, base: int) -> int:
    """Index of the foundation a dealt or chosen base card goes to: the first of its suit."""
    return foundation_suits(rules).index(cards.suit(base))


def base_rank(layout) -> Optional[int]:
    """The base rank once it is on the foundations (of a ``Layout`` or a ``Position``:
    anything with ``foundations``)."""
    for p in layout.foundations:
        if p:
            return cards.rank(p[0])
    return None


def initial_layout(rules, d: list[int]) -> Layout:
    r, t, s = rules["reserve_size"], rules["tableau_piles"], rules["suits"]
    reserve = [d[:r]]
    foundations: list[list[int]] = [[] for _ in range(2 * s)]
    i = r
    if rules["base_mode"] == "choose":
        n = rules["base_choices"]
        need_cards(r + t + 1, len(d))
        tableau = [[c] for c in d[i:i + n]] + [[] for _ in range(t - n)]
        # The rest of the opening deal (the chosen pile, the other piles, the waste) is
        # dealt by the base-choice action, from the head of the stock.
        return Layout(tuples(foundations), tuples(reserve), tuples(tableau), ((),), tuple(d[i + n:]),
                      PHASE_CHOOSE_BASE)
    need_cards(r + t + 2, len(d))
    if rules["deal_order"] == "aisleriot":
        base = d[i]
        tableau = [[c] for c in d[i + 1:i + 1 + t]]
    else:
        tableau = [[c] for c in d[i:i + t]]
        base = d[i + t]
    i += t + 1
    foundations[base_foundation(rules, base)].append(base)
    waste = [[d[i]]]
    return Layout(tuples(foundations), tuples(reserve), tuples(tableau), tuples(waste), tuple(d[i + 1:]))


def dealt_foundations(rules, layout: Layout) -> Optional[list[str]]:
    """With a dealt base, a hand-made layout's foundations hold exactly one card, on the
    first foundation of its suit (which card is the deal's to say); None where the base
    is chosen (the foundations start empty, as the unshuffled deal shows)."""
    if rules["base_mode"] != "dealt":
        return None
    placed = [(i, p) for i, p in enumerate(layout.foundations) if p]
    if len(placed) != 1 or len(placed[0][1]) != 1:
        return ["foundations: exactly one base card must be dealt to the foundations"]
    i, p = placed[0]
    want = base_foundation(rules, p[0])
    if i != want:
        return [f"foundations[{i}]: base card {cards.text(p[0])} belongs on "
                f"foundations[{want}] (the first of its suit)"]
    return []
