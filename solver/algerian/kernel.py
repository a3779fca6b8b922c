"""The numba kernel of Algerian Patience: packed state, move generation, make/undo.

The rules are the same as ``solver/algerian/rules.py`` (the reference engine), with every
Algerian option; the cross-check tests compare the two on thousands of miniature deals.

Kernel piles: reserves ``0..R-1``, tableau ``R..R+T-1``, stock ``R+T`` (its top is the next
card dealt). Foundations ``0..s-1`` build up from the Ace, ``s..2s-1`` down from the King;
the kernel keeps only their counts. Moves as in ``solver.toolkit`` (kinds ``K_CARD`` and
``K_DEAL``); the functions keep the kernel contract of ``solver.kernels``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

import solver.jit  # noqa: F401  (cache folder per kernel version; must precede @njit)

from solver import toolkit
from solver.contract import (memo_slots, relaxation_lost, relaxation_moves,  # noqa: F401
                                   root_verdict, win_plan)
from solver.state import full_hash
from solver.toolkit import (C_FAMILY0, C_NF, C_RANKS, C_SAFE, K_CARD, K_DEAL, PILE0, card_make,
                            card_undo, deal_card, dst_of, encode, fill_common, fnd_top, foundation_moves,
                            is_all_home, kind_of, load_foundations, load_piles, src_of, undeal_card)

# cfg slots after the shared ones (solver.toolkit)
C_NRES, C_NTAB, C_WRAP, C_CELL, C_F2T, C_TRANSFER, C_STOCK = range(C_FAMILY0, C_FAMILY0 + 7)
CFG_LEN = C_FAMILY0 + 7

CELL_MODES = {"off": 0, "from_tableau": 1, "from_anywhere": 2}
# Dominance flag bits (cfg[C_SAFE]).
SAFE_NO_PILE_SWAP = 1
"""``no_pile_swap``: once the stock is empty, never move the only card of a pile to an
empty pile of the same kind (tableau to tableau, reserve to reserve cell).

Proof: deals are the only actions that depend on a pile's index, so with the stock empty
two positions that differ by exchanging two tableau piles (or two reserves) have the same
outcome: any line from one becomes a line from the other by exchanging the two indices in
every move. Moving the only card of pile i to an empty pile j yields exactly the current
position with i and j exchanged, so skipping that move loses no outcome."""

STREAMLINER = 0                   # no unproved win-first pruning


def make_cfg(rules, safe_flags: int = 0) -> np.ndarray:
    cfg = np.zeros(CFG_LEN, dtype=np.int64)
    fill_common(cfg, rules, safe_flags)
    cfg[C_NRES], cfg[C_NTAB] = rules["reserves"], rules["tableau_piles"]
    cfg[C_WRAP] = int(rules["tableau_wrap"])
    cfg[C_CELL] = CELL_MODES[rules["empty_reserve_as_cell"]]
    cfg[C_F2T] = int(rules["foundation_to_tableau"])
    cfg[C_TRANSFER] = int(rules["foundation_transfer"])
    cfg[C_STOCK] = rules["reserves"] + rules["tableau_piles"]
    return cfg


def acyclic(rules) -> bool:
    """Tableau cards move back and forth: lines of play can repeat states."""
    return False


def n_piles(rules) -> int:
    return rules["reserves"] + rules["tableau_piles"] + 1


def load_position(rules, pos, state) -> None:
    """Fill the kernel arrays from a reference-engine ``Position`` (``scal`` stays zero:
    Algerian has no redeals)."""
    load_piles(state.piles, state.lens, pos.reserves + pos.tableau, pos.stock)
    load_foundations(rules, pos.foundations, state.fnd)


def to_moves(rules, m: int, info):
    """The notation's moves for kernel move ``m`` (Algerian deals are never merged)."""
    return toolkit.to_moves(rules, m, 1, "t")


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
