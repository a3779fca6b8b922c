"""Initial positions: where each card of the deal sequence D goes, per family.

A ``Layout`` lists every pile bottom to top and the stock in dealing order (``stock[0]``
is dealt next). It is what deal files store and what the rules engines start from.
The mappings are RULES.md Part II: Alhambra family section 1, Terrace family section 2,
Algerian section 3.2 and 3.6.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Optional, Sequence

from solver import cards, deals
from solver.variants import Rules, RulesError

Pile = tuple[int, ...]

PHASE_PLAY = "play"
PHASE_CHOOSE_BASE = "choose_base"   # Terrace family: the base card has not been chosen yet


@dataclass(frozen=True)
class Layout:
    """All piles of a position, bottom to top; ``stock`` in dealing order."""

    foundations: tuple[Pile, ...]
    reserves: tuple[Pile, ...]
    tableau: tuple[Pile, ...]
    waste: tuple[Pile, ...]
    stock: Pile
    phase: str = PHASE_PLAY

    def all_cards(self) -> list[int]:
        out = list(self.stock)
        for group in (self.foundations, self.reserves, self.tableau, self.waste):
            for p in group:
                out.extend(p)
        return out

    def shape(self) -> dict[str, list[int]]:
        """Pile sizes, for comparing a hand-made layout with what the variant deals."""
        return {
            "foundations": [len(p) for p in self.foundations],
            "reserves": [len(p) for p in self.reserves],
            "tableau": [len(p) for p in self.tableau],
            "waste": [len(p) for p in self.waste],
            "stock": [len(self.stock)],
        }


def _round_robin(seq: Sequence[int], piles: int, rounds: int) -> list[list[int]]:
    out = [[] for _ in range(piles)]
    for k in range(rounds):
        for i in range(piles):
            out[i].append(seq[k * piles + i])
    return out


def _tuples(piles) -> tuple[Pile, ...]:
    return tuple(tuple(p) for p in piles)


def hook_for(rules: Rules):
    """The PySolFC shuffle hook for this family and layout: (key, ncards) or (None, 0)."""
    if rules.family == "alhambra":
        return deals.hook_aces_and_kings(rules["ranks"]), 2 * rules["suits"]
    if rules.family == "algerian" and rules["layout"] == "A":
        return deals.hook_kings(rules["ranks"]), rules["suits"]
    return None, 0


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
    build = {"alhambra": _alhambra, "terrace": _terrace, "algerian": _algerian}[rules.family]
    layout = build(rules, list(d))
    if Counter(layout.all_cards()) != Counter(d):   # a mapping bug, never a user error
        raise AssertionError("layout lost or duplicated cards")
    return layout


def _need(rules: Rules, used: int, total: int) -> None:
    if used > total:
        raise RulesError(f"the rules lay out {used} cards but the pack has only {total}; "
                         f"use more ranks/suits or fewer or smaller piles")


def _alhambra(rules: Rules, d: list[int]) -> Layout:
    s, top = rules["suits"], rules["ranks"]
    nres, size, nw = rules["reserves"], rules["reserve_size"], rules["waste_piles"]
    _need(rules, 2 * s + nres * size + nw, len(d))
    # D[0..2s-1] are the deck-0 Aces then Kings (the shuffle hook puts them first).
    expected = [cards.make(1, k) for k in cards.suit_set(s)] + [cards.make(top, k) for k in cards.suit_set(s)]
    if d[:2 * s] != expected:
        raise RulesError("an Alhambra-family deal sequence must start with the Aces, then the Kings, of each suit")
    foundations = [[c] for c in d[:2 * s]]
    i = 2 * s
    reserves = _round_robin(d[i:], nres, size)
    i += nres * size
    waste = [[c] for c in d[i:i + nw]]      # the start's first deal: one card to each waste pile
    i += nw
    return Layout(_tuples(foundations), _tuples(reserves), (), _tuples(waste), tuple(d[i:]))


def foundation_suits(rules: Rules) -> list[int]:
    """The suit of each foundation. Alhambra and Algerian: up foundations then down
    foundations, one per suit each. Terrace: PySolFC's suit tags, two per suit (C C S S H H D D)."""
    ss = cards.suit_set(rules["suits"])
    if rules.family == "terrace":
        return [ss[k // 2] for k in range(2 * len(ss))]
    return ss + ss


def terrace_base_foundation(rules: Rules, base: int) -> int:
    """Index of the foundation a dealt or chosen base card goes to: the first of its suit."""
    return foundation_suits(rules).index(cards.suit(base))


def _terrace(rules: Rules, d: list[int]) -> Layout:
    r, t, s = rules["reserve_size"], rules["tableau_piles"], rules["suits"]
    reserve = [d[:r]]
    foundations: list[list[int]] = [[] for _ in range(2 * s)]
    i = r
    if rules["base_mode"] == "choose":
        n = rules["base_choices"]
        _need(rules, r + t + 1, len(d))
        tableau = [[c] for c in d[i:i + n]] + [[] for _ in range(t - n)]
        # The rest of the opening deal (the chosen pile, the other piles, the waste) is
        # dealt by the base-choice action, from the head of the stock.
        return Layout(_tuples(foundations), _tuples(reserve), _tuples(tableau), ((),), tuple(d[i + n:]),
                      PHASE_CHOOSE_BASE)
    _need(rules, r + t + 2, len(d))
    if rules["deal_order"] == "aisleriot":
        base = d[i]
        tableau = [[c] for c in d[i + 1:i + 1 + t]]
    else:
        tableau = [[c] for c in d[i:i + t]]
        base = d[i + t]
    i += t + 1
    foundations[terrace_base_foundation(rules, base)].append(base)
    waste = [[d[i]]]
    return Layout(_tuples(foundations), _tuples(reserve), _tuples(tableau), _tuples(waste), tuple(d[i + 1:]))


def algerian_initial_tableau(rules: Rules) -> int:
    """Cards on the tableau at the start: one per pile (layout A), or half as many again (B, C)."""
    t = rules["tableau_piles"]
    return t if rules["layout"] == "A" else t + t // 2


def _algerian(rules: Rules, d: list[int]) -> Layout:
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
    nt = algerian_initial_tableau(rules)
    _need(rules, i + nt + nres * size, len(d))
    # Tableau first, round robin (B, C: P0..P(t/2-1) get a second card), then the reserves.
    tableau: list[list[int]] = [[] for _ in range(t)]
    for k in range(nt):
        tableau[k % t].append(d[i + k])
    i += nt
    reserves = _round_robin(d[i:], nres, size)
    i += nres * size
    return Layout(_tuples(foundations), _tuples(reserves), _tuples(tableau), (), tuple(d[i:]))


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


def base_rank(layout) -> Optional[int]:
    """Terrace family: the base rank once it is on the foundations (of a ``Layout`` or a
    ``Position``: anything with ``foundations``)."""
    for p in layout.foundations:
        if p:
            return cards.rank(p[0])
    return None
