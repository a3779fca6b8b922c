"""The shared kernel toolkit (numba): what every family kernel does the same way.

* **Moves.** A kernel move is an int32 ``kind << 16 | src << 8 | dst`` (``encode``,
  ``kind_of``, ``src_of``, ``dst_of``); locations ``0..31`` are foundations and
  ``PILE0 + p`` kernel pile ``p``. Kinds shared by the families: ``K_CARD`` (a card from
  ``src`` to ``dst``), ``K_DEAL``, ``K_REDEAL``; a family may add its own above them.
* **Configuration.** Every kernel's ``cfg`` (an int64 array) starts with the slots below;
  family slots follow from ``C_FAMILY0``.
* **Foundations.** A kernel keeps only each foundation's card count: its contents follow
  from its suit, its direction and the count. Foundations ``0..s-1`` build up from the
  Ace, ``s..2s-1`` down from the top rank (the King), one of each per suit, in
  ``cards.suit_set`` order; the Terrace family, whose foundations differ, keeps its own.
* **Card moves, dealing, undo records**: ``card_make`` / ``card_undo``,
  ``foundation_moves``, ``deal_card`` / ``undeal_card``, ``get_bits``.
* **Notation and loading**: ``load_piles``, ``load_foundations``, ``location_ref``,
  ``to_moves``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

import solver.jit  # noqa: F401  (cache folder per kernel version; must precede @njit)

from solver import cards
from solver.moves import DEAL, REDEAL, Move, card_move
from solver.state import pop, push, set_count

C_RANKS, C_SUITS, C_NF, C_SAFE = range(4)
C_SUIT0 = 4                # 4..7: the suit of each suit index (cards.suit_set)
C_SIDX0 = 8                # 8..11: the suit index of each suit (-1 if not in the pack)
C_FAMILY0 = 12             # first family-specific slot
PILE0 = 32                 # move locations: 0..31 foundations, PILE0 + p kernel pile p

K_CARD, K_DEAL, K_REDEAL = 0, 1, 2


@njit(cache=True, inline="always")
def encode(kind, src, dst):
    """The kernel move of ``kind`` from location ``src`` to ``dst``."""
    return (kind << 16) | (src << 8) | dst


@njit(cache=True, inline="always")
def kind_of(m):
    return m >> 16


@njit(cache=True, inline="always")
def src_of(m):
    return (m >> 8) & 0xFF


@njit(cache=True, inline="always")
def dst_of(m):
    return m & 0xFF


@njit(cache=True, inline="always")
def get_bits(info, shift, width):
    """The ``width``-bit field at ``shift`` of an undo record."""
    return (info >> shift) & ((1 << width) - 1)


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


def to_moves(rules, m: int, deals: int, second: str) -> list[Move]:
    """The notation's moves for kernel move ``m`` of a shared kind: ``deals`` deals for a
    deal move (a macro deal is several), one redeal, or one card move (pile groups as in
    ``location_ref``)."""
    kind = kind_of(m)
    if kind == K_DEAL:
        return [Move(DEAL)] * deals
    if kind == K_REDEAL:
        return [Move(REDEAL)]
    if kind != K_CARD:
        raise ValueError(f"kernel move {m:#x} has no notation here")
    return [card_move(location_ref(rules, src_of(m), second), location_ref(rules, dst_of(m), second), -1)]


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
    s = cfg[C_SUITS]
    suit = cfg[C_SUIT0 + f % s]
    c = -1
    if n == 0:
        pass
    elif f < s:
        c = suit * 13 + n - 1
    else:
        c = suit * 13 + cfg[C_RANKS] - n
    return c


@njit(cache=True)
def all_home(cfg, fnd):
    """Every card on the foundations: the game is won."""
    total = 0
    for f in range(cfg[C_NF]):
        total += fnd[f]
    return total == cfg[C_NF] * cfg[C_RANKS]


@njit(cache=True, inline="always")
def take(cfg, piles, lens, fnd, h, zp, zf, loc):
    """Remove and return the top card of location ``loc`` (a foundation or PILE0 + pile).
    (One exit, as in every helper the kernels inline: numba's inliner warns on early
    returns.)"""
    if loc < PILE0:
        c = fnd_top(cfg, fnd, loc)
        set_count(fnd, h, zf, loc, fnd[loc] - 1)
    else:
        c = np.int64(pop(piles, lens, h, zp, loc - PILE0))
    return c


@njit(cache=True, inline="always")
def put(piles, lens, fnd, h, zp, zf, loc, c):
    """Put card ``c`` on location ``loc`` (a foundation takes it as its next card)."""
    if loc < PILE0:
        set_count(fnd, h, zf, loc, fnd[loc] + 1)
    else:
        push(piles, lens, h, zp, loc - PILE0, c)


@njit(cache=True, inline="always")
def card_make(cfg, piles, lens, fnd, h, zp, zf, m):
    """Play card move ``m``: the top of ``src`` onto ``dst``.

    The helpers here take the arrays they touch, not the ``KernelState`` bundle: a kernel
    unpacks the bundle once per contract call (measured on Algerian: reading the bundle's
    fields inside every inlined helper cost 5-7 % of the search's speed)."""
    put(piles, lens, fnd, h, zp, zf, dst_of(m), take(cfg, piles, lens, fnd, h, zp, zf, src_of(m)))


@njit(cache=True, inline="always")
def card_undo(cfg, piles, lens, fnd, h, zp, zf, m):
    """Take card move ``m`` back."""
    put(piles, lens, fnd, h, zp, zf, src_of(m), take(cfg, piles, lens, fnd, h, zp, zf, dst_of(m)))


@njit(cache=True, inline="always")
def foundation_moves(cfg, fnd, src, c, moves, n):
    """Write the moves of card ``c`` from location ``src`` to each foundation of its suit
    (up, then down) that takes it next, except ``src`` itself; return the new end ``n``."""
    up = cfg[C_SIDX0 + c // 13]
    if up != src and fnd_accepts(cfg, fnd, up, c):
        moves[n] = encode(K_CARD, src, up)
        n += 1
    down = cfg[C_SUITS] + up
    if down != src and fnd_accepts(cfg, fnd, down, c):
        moves[n] = encode(K_CARD, src, down)
        n += 1
    return n


@njit(cache=True, inline="always")
def deal_card(piles, lens, h, zp, stock, p):
    """The stock's next card (the top of pile ``stock``) onto pile ``p``."""
    push(piles, lens, h, zp, p, pop(piles, lens, h, zp, stock))


@njit(cache=True, inline="always")
def undeal_card(piles, lens, h, zp, stock, p):
    """Put the top of pile ``p`` back on the stock (``deal_card`` undone)."""
    push(piles, lens, h, zp, stock, pop(piles, lens, h, zp, p))


@njit(cache=True, inline="always")
def is_all_home(cfg, state):
    """The contract's ``is_won`` for families whose foundations hold every card at the end."""
    return all_home(cfg, state.fnd)
