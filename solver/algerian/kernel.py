"""The numba kernel of Algerian Patience: packed state, move generation, make/undo.

The rules are the same as ``solver/algerian/rules.py`` (the reference engine), with every
Algerian option; the cross-check tests compare the two on thousands of miniature deals.

Kernel piles: reserves ``0..R-1``, tableau ``R..R+T-1``, stock ``R+T`` (its top is the next
card dealt). Foundations ``0..s-1`` build up from the Ace, ``s..2s-1`` down from the King;
the kernel keeps only their counts. Moves as in ``solver.toolkit`` (kinds ``K_CARD`` and
``K_DEAL``); the functions keep the numba half of the kernel contract of
``solver.kernels``; the Python half is ``solver.algerian.hooks``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

import solver.jit  # noqa: F401  (cache folder per kernel version; must precede @njit)

from solver.algerian.flags import SAFE_NO_PILE_SWAP
from solver.algerian.slots import C_CELL, C_F2T, C_NRES, C_NTAB, C_STOCK, C_TRANSFER, C_WRAP
from solver.state import full_hash
from solver.toolkit import (C_NF, C_RANKS, C_SAFE, K_CARD, K_DEAL, PILE0, card_make, card_undo, deal_card, dst_of,
                            encode, fnd_top, foundation_moves, is_all_home, kind_of, src_of, undeal_card)


@njit(cache=True, inline="always")
def tableau_accepts(cfg, piles, lens, p, c):
    d = lens[p]
    if d == 0:
        return True
    t = piles[p, d - 1]
    if t // 13 != c // 13:
        return False
    a = t % 13
    b = c % 13
    diff = abs(a - b)
    if diff == 1:
        return True
    return cfg[C_WRAP] == 1 and diff == cfg[C_RANKS] - 1 and cfg[C_RANKS] > 2


@njit(cache=True)
def gen_moves(cfg, state, moves, start, last):
    """Write the legal moves at ``moves[start:]``; return how many.

    Order (it only steers which line is found first): reserve and tableau cards to the
    foundations; then onto non-empty tableau piles; then into empty piles and reserve
    cells; then moves of foundation cards; then the deal. ``last`` is not used."""
    piles, lens, fnd = state.piles, state.lens, state.fnd
    nres = cfg[C_NRES]
    ntab = cfg[C_NTAB]
    nf = cfg[C_NF]
    n = start
    nsrc = nf + nres + ntab
    no_swap = (cfg[C_SAFE] & SAFE_NO_PILE_SWAP) != 0 and lens[cfg[C_STOCK]] == 0
    # Each source's card (-1: nothing to move from it); sources are listed piles first
    # (reserves, tableau), foundations last. (Reading them afresh in each phase instead of
    # these two small arrays measured 4 % slower.)
    src_card = np.empty(nsrc, dtype=np.int64)
    src_loc = np.empty(nsrc, dtype=np.int64)
    for i in range(nsrc):
        if i < nres + ntab:
            src_loc[i] = PILE0 + i
            src_card[i] = piles[i, lens[i] - 1] if lens[i] > 0 else -1
        else:
            f = i - nres - ntab
            src_loc[i] = f
            src_card[i] = fnd_top(cfg, fnd, f) if (cfg[C_TRANSFER] == 1 or cfg[C_F2T] == 1) else -1
    for phase in range(4):
        # phase 0: pile cards to foundations; 1: onto non-empty tableau piles;
        # 2: into empty tableau piles and reserve cells; 3: foundation cards anywhere.
        for i in range(nsrc):
            c = src_card[i]
            if c < 0:
                continue
            src = src_loc[i]
            from_fnd = src < PILE0
            if from_fnd != (phase == 3):
                continue
            if phase == 0 or (phase == 3 and cfg[C_TRANSFER] == 1):
                n = foundation_moves(cfg, fnd, src, c, moves, n)
            if phase == 0 or (from_fnd and cfg[C_F2T] == 0):
                continue
            is_tab = (not from_fnd) and src - PILE0 >= nres
            lone = (not from_fnd) and lens[src - PILE0] == 1
            for t in range(nres, nres + ntab):
                if PILE0 + t == src:
                    continue
                empty = lens[t] == 0
                if phase == 1 and empty or phase == 2 and not empty:
                    continue
                if empty and no_swap and lone and is_tab:
                    continue
                if tableau_accepts(cfg, piles, lens, t, c):
                    moves[n] = encode(K_CARD, src, PILE0 + t)
                    n += 1
            if phase != 1 and cfg[C_CELL] != 0 and (cfg[C_CELL] == 2 or is_tab):
                if no_swap and lone and not is_tab and not from_fnd:
                    continue
                for r in range(nres):
                    if lens[r] == 0 and PILE0 + r != src:
                        moves[n] = encode(K_CARD, src, PILE0 + r)
                        n += 1
    if lens[cfg[C_STOCK]] > 0:
        moves[n] = encode(K_DEAL, 0, 0)
        n += 1
    return n - start


@njit(cache=True)
def make_move(cfg, state, keys, m):
    """Play move ``m``; return what undo needs: the cards a deal dealt (negative: dealt to
    the tableau), 0 for a card move."""
    piles, lens, fnd, h = state.piles, state.lens, state.fnd, state.h
    zp, zf = keys.zp, keys.zf
    info = 0
    if kind_of(m) == K_DEAL:
        stock = cfg[C_STOCK]
        ntab = cfg[C_NTAB]
        nres = cfg[C_NRES]
        if lens[stock] == ntab:
            for t in range(ntab):
                deal_card(piles, lens, h, zp, stock, nres + t)
            info = -ntab
        else:
            for _ in range(2):
                for r in range(nres):
                    if lens[stock] > 0:
                        deal_card(piles, lens, h, zp, stock, r)
                        info += 1
    else:
        card_make(cfg, piles, lens, fnd, h, zp, zf, m)
    return info


@njit(cache=True)
def undo_move(cfg, state, keys, m, info):
    piles, lens, fnd, h = state.piles, state.lens, state.fnd, state.h
    zp, zf = keys.zp, keys.zf
    stock = cfg[C_STOCK]
    if kind_of(m) != K_DEAL:
        card_undo(cfg, piles, lens, fnd, h, zp, zf, m)
    elif info < 0:
        for t in range(-info - 1, -1, -1):
            undeal_card(piles, lens, h, zp, stock, cfg[C_NRES] + t)
    else:
        for j in range(info - 1, -1, -1):
            undeal_card(piles, lens, h, zp, stock, j % cfg[C_NRES])


@njit(cache=True)
def hash_state(cfg, state, keys, h):
    """The key of ``state`` from scratch: the positional Zobrist hash of ``solver.state``."""
    full_hash(state, keys, h)


@njit(cache=True)
def is_won(cfg, state):
    return is_all_home(cfg, state)


@njit(cache=True)
def move_class(cfg, m):
    """Win-first ordering class: foundation plays first, the deal last."""
    if kind_of(m) == K_DEAL:
        return 3
    if dst_of(m) < PILE0:
        return 0 if src_of(m) >= PILE0 else 2
    return 1


@njit(cache=True)
def beam_score(cfg, state, weights):
    """Never called: ``win_plan`` is empty in this family."""
    return 0.0
