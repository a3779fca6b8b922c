"""Foundation arithmetic and the configuration slots every family kernel shares (numba).

A kernel keeps only each foundation's card count: its contents follow from its suit, its
direction and the count. Foundations ``0..s-1`` build up from the Ace, ``s..2s-1`` down
from the top rank (the King), one of each per suit, in ``cards.suit_set`` order; the
Terrace family, whose foundations differ, keeps its own.

Every kernel's ``cfg`` (an int64 array) starts with the slots below; family slots follow
from ``C_FAMILY0``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

import solver.jit  # noqa: F401  (cache folder per kernel version; must precede @njit)

from solver import cards
from solver.state import pop, push, set_count

C_RANKS, C_SUITS, C_NF, C_SAFE = range(4)
C_SUIT0 = 4                # 4..7: the suit of each suit index (cards.suit_set)
C_SIDX0 = 8                # 8..11: the suit index of each suit (-1 if not in the pack)
C_FAMILY0 = 12             # first family-specific slot
PILE0 = 32                 # move locations: 0..31 foundations, PILE0 + p kernel pile p


def load_piles(piles, lens, groups, stock) -> None:
    """Kernel piles from reference piles: ``groups`` in kernel order, then the stock as the
    last pile (``stock[0]``, dealt next, on top)."""
    lens[:] = 0
    for i, p in enumerate(groups):
        piles[i, :len(p)] = p
        lens[i] = len(p)
    top_first = list(reversed(stock))
    piles[len(groups), :len(top_first)] = top_first
    lens[len(groups)] = len(top_first)


def location_ref(rules, loc: int, second: str):
    """Kernel location -> the notation's pile reference: foundations, reserves, then the
    family's second pile group (``"t"`` tableau or ``"w"`` waste)."""
    if loc < PILE0:
        return ("f", loc)
    p = loc - PILE0
    if p < rules["reserves"]:
        return ("r", p)
    return (second, p - rules["reserves"])


def fill_common(cfg: np.ndarray, rules, safe_flags: int) -> None:
    cfg[C_RANKS], cfg[C_SUITS] = rules["ranks"], rules["suits"]
    cfg[C_NF] = 2 * rules["suits"]
    cfg[C_SAFE] = safe_flags
    cfg[C_SIDX0:C_SIDX0 + 4] = -1
    for i, s in enumerate(cards.suit_set(rules["suits"])):
        cfg[C_SUIT0 + i] = s
        cfg[C_SIDX0 + s] = i


def load_foundations(rules, foundations, fnd) -> None:
    """Foundation counts from a reference ``Position``'s foundations (each must be a run
    from its base)."""
    s, ranks = rules["suits"], rules["ranks"]
    for f, p in enumerate(foundations):
        fnd[f] = len(p)
        want = [cards.make(r, cards.suit_set(s)[f % s]) for r in
                (range(1, ranks + 1) if f < s else range(ranks, 0, -1))][:len(p)]
        if list(p) != want:
            raise ValueError(f"foundation {f} does not hold a run from its base: {p}")


@njit(cache=True, inline="always")
def fnd_accepts(cfg, fnd, f, c):
    """Whether foundation ``f`` takes card ``c`` next (no wrap)."""
    s = cfg[C_SUITS]
    if c // 13 != cfg[C_SUIT0 + f % s]:
        return False
    r = c % 13 + 1
    n = fnd[f]
    if f < s:
        return r == n + 1
    return r == cfg[C_RANKS] - n


@njit(cache=True, inline="always")
def fnd_top(cfg, fnd, f):
    """The top card of foundation ``f`` (-1 if empty)."""
    n = fnd[f]
    if n == 0:
        return -1
    s = cfg[C_SUITS]
    suit = cfg[C_SUIT0 + f % s]
    if f < s:
        return suit * 13 + n - 1
    return suit * 13 + cfg[C_RANKS] - n


@njit(cache=True)
def all_home(cfg, fnd):
    """Every card on the foundations: the game is won."""
    total = 0
    for f in range(cfg[C_NF]):
        total += fnd[f]
    return total == cfg[C_NF] * cfg[C_RANKS]


@njit(cache=True, inline="always")
def take(cfg, piles, lens, fnd, h, zp, zf, loc):
    """Remove and return the top card of location ``loc`` (a foundation or PILE0 + pile)."""
    if loc < PILE0:
        c = fnd_top(cfg, fnd, loc)
        set_count(fnd, h, zf, loc, fnd[loc] - 1)
        return c
    return pop(piles, lens, h, zp, loc - PILE0)


@njit(cache=True, inline="always")
def put(piles, lens, fnd, h, zp, zf, loc, c):
    """Put card ``c`` on location ``loc`` (a foundation takes it as its next card)."""
    if loc < PILE0:
        set_count(fnd, h, zf, loc, fnd[loc] + 1)
    else:
        push(piles, lens, h, zp, loc - PILE0, c)
