"""The numba kernel of the Alhambra family (Alhambra, Granada, The Reinforcements): packed
state, move generation, make/undo.

The rules are those of ``solver/alhambra/rules.py`` (the reference engine), with every
Alhambra-family option; the cross-check tests compare the two on thousands of miniature
deals.

Kernel piles: reserves ``0..R-1``, waste piles ``R..R+W-1``, stock ``R+W`` (its top is the
next card dealt). Foundations and moves as in ``solver.toolkit`` (kinds ``K_CARD``,
``K_DEAL``, ``K_REDEAL``); ``scal[0]`` counts the redeals used. The functions keep the
numba half of the kernel contract of ``solver.kernels``; the Python half is
``solver.alhambra.hooks``, the dominance flags and their proofs ``solver.alhambra.flags``.
"""

from __future__ import annotations

from numba import njit

import solver.jit  # noqa: F401  (cache folder per kernel version; must precede @njit)

from solver.state import full_hash
from solver.toolkit import (C_RANKS, C_SAFE, C_SIDX0, C_SUITS, K_CARD, K_DEAL, K_REDEAL, PILE0,
                            all_home, card_make, card_undo, deal_card, dst_of, encode,
                            fnd_accepts, foundation_moves, get_bits, is_all_home, kind_of, undeal_card)
from solver.state import set_scalar
from solver.alhambra.dead_waste import waste_blocked
from solver.alhambra.met_foundation import met_safe
from solver.alhambra.projection import next_pass_lost
from solver.alhambra.stock_order import _tops, stock_order_blocked  # noqa: F401

from solver.alhambra import beam_order
from solver.alhambra.slots import (C_ANY, C_FIRSTDEAL, C_NRES, C_NWASTE, C_REDEALS, C_REINF,  # noqa: F401
                                   C_REINF_IMM, C_STOCK, C_STOP3, S_REDEALS)
from solver.alhambra.flags import (SAFE_DEAD_STOCK_ORDER, SAFE_DEAD_WASTE_BLOCK, SAFE_DEAL_THROUGH_INERT,
                                   SAFE_MET_FOUNDATION, SAFE_NEXT_PASS_PROJECTION, STREAM_FOUNDATION_FIRST)

# Undo records. A deal: the cards dealt by its first deal (8 bits), the deals it made
# (8 bits: several with deal_through_inert), the reserves refilled (a bit each). A redeal:
# each waste pile's height (7 bits a pile), the cards of its first deal, the reserves
# refilled. A card move: the reserves refilled.
DEAL_DEALT, DEAL_COUNT, DEAL_REFILLED = 0, 8, 16
REDEAL_PILE_BITS, REDEAL_DEALT, REDEAL_REFILLED = 7, 28, 32


@njit(cache=True, inline="always")
def waste_accepts(cfg, piles, lens, p, c):
    """Waste pile ``p`` takes ``c``: same suit, rank one apart with K-A wrap; an empty
    waste only with ``empty_waste_accepts_any``."""
    d = lens[p]
    if d == 0:
        return cfg[C_ANY] == 1
    t = piles[p, d - 1]
    if t // 13 != c // 13:
        return False
    diff = abs(t % 13 - c % 13)
    return diff == 1 or (diff == cfg[C_RANKS] - 1 and cfg[C_RANKS] > 2)


@njit(cache=True, inline="always")
def _inert_top(cfg, piles, lens, fnd):
    """The top of waste pile 0 can neither go to a foundation nor take a reserve top."""
    w = cfg[C_NRES]
    x = piles[w, lens[w] - 1]
    k = cfg[C_SIDX0 + x // 13]
    if fnd_accepts(cfg, fnd, k, x) or fnd_accepts(cfg, fnd, cfg[C_SUITS] + k, x):
        return False
    for r in range(cfg[C_NRES]):
        if lens[r] > 0 and waste_accepts(cfg, piles, lens, w, piles[r, lens[r] - 1]):
            return False
    return True


@njit(cache=True, inline="always")
def _reserves_deep(cfg, lens):
    """Every reserve holds at least two cards (no card move can trigger a refill)."""
    for r in range(cfg[C_NRES]):
        if lens[r] < 2:
            return False
    return True


@njit(cache=True, inline="always")
def game_over(cfg, lens, fnd, scal):
    """``stop_at_third_exhaustion``: the stock ran out in the last pass."""
    return (cfg[C_STOP3] == 1 and lens[cfg[C_STOCK]] == 0 and scal[S_REDEALS] >= cfg[C_REDEALS]
            and not all_home(cfg, fnd))


@njit(cache=True)
def gen_moves(cfg, state, moves, start, last):
    """Write the legal moves at ``moves[start:]``; return how many. ``last``: the move that
    led here (-1: not known).

    Order (it only steers which line is found first): reserve and waste cards to the
    foundations; onto non-empty waste piles; onto empty waste piles; deal; redeal."""
    piles, lens, fnd, scal = state.piles, state.lens, state.fnd, state.scal
    n = start
    if game_over(cfg, lens, fnd, scal):
        return 0
    if (cfg[C_SAFE] & SAFE_DEAD_WASTE_BLOCK and scal[S_REDEALS] >= cfg[C_REDEALS]
            and waste_blocked(cfg, piles, lens, fnd)):
        return 0
    # Skipping a dead-state test is always sound (it only prunes). A move to a foundation
    # deals nothing and covers nothing, so it seldom makes stock_order_blocked fire where it
    # did not fire before; there the test waits for the next deal or build. Measured on
    # Alhambra 1-100 at 1 M nodes: 1.5 times the nodes per second, 31 won instead of 32.
    # With reinforcement, in the last pass only: in every pass it won the same deals (The
    # Reinforcements 1-100 at 1 M nodes, first version: 18, against 17 without) at half the
    # nodes per second.
    if (cfg[C_SAFE] & SAFE_DEAD_STOCK_ORDER and not (last >= 0 and kind_of(last) == K_CARD and dst_of(last) < PILE0)
            and (cfg[C_REINF] == 0 or scal[S_REDEALS] >= cfg[C_REDEALS])
            and stock_order_blocked(cfg, piles, lens, fnd, cfg[C_REDEALS] - scal[S_REDEALS])):
        return 0
    # The projection only at a deal's start (a search's root in the first pass, at most one
    # card dealt): after every deal it cost 10-60 times the nodes' time for a few earlier
    # wins, and at every search root it slowed the shortening of won lines
    # (benchmarks/notes/alhambra-proofs-of-loss.md).
    if (cfg[C_SAFE] & SAFE_NEXT_PASS_PROJECTION and last < 0 and scal[S_REDEALS] == 0 and lens[cfg[C_NRES]] <= 1
            and next_pass_lost(cfg, piles, lens, fnd, cfg[C_REDEALS] - scal[S_REDEALS], state.memo)):
        return 0
    nres = cfg[C_NRES]
    nw = cfg[C_NWASTE]
    stock = cfg[C_STOCK]
    if cfg[C_SAFE] & SAFE_MET_FOUNDATION:
        for src in range(nres + nw):
            if lens[src] > 0:
                f = met_safe(cfg, fnd, piles[src, lens[src] - 1])
                if f >= 0:
                    moves[n] = encode(K_CARD, PILE0 + src, f)
                    return 1
    for phase in range(3):
        if phase == 1 and n > start and cfg[C_SAFE] & STREAM_FOUNDATION_FIRST:
            return n - start              # the streamliner: not a proved rule
        for src in range(nres + nw):
            if lens[src] == 0:
                continue
            c = piles[src, lens[src] - 1]
            if phase == 0:
                n = foundation_moves(cfg, fnd, PILE0 + src, c, moves, n)
                continue
            if src >= nres and nw == 1:
                continue                  # a lone waste pile gives only to foundations
            for w in range(nres, nres + nw):
                if w == src or (lens[w] == 0) != (phase == 2):
                    continue
                if waste_accepts(cfg, piles, lens, w, c):
                    moves[n] = encode(K_CARD, PILE0 + src, PILE0 + w)
                    n += 1
    if lens[stock] > 0:
        moves[n] = encode(K_DEAL, 0, 0)
        n += 1
    elif scal[S_REDEALS] < cfg[C_REDEALS]:
        for w in range(nres, nres + nw):
            if lens[w] > 0:
                moves[n] = encode(K_REDEAL, 0, 0)
                n += 1
                break
    return n - start


@njit(cache=True, inline="always")
def _deal(cfg, state, keys):
    """One card to each waste pile in order while the stock lasts; return how many."""
    stock = cfg[C_STOCK]
    nres = cfg[C_NRES]
    dealt = 0
    for w in range(nres, nres + cfg[C_NWASTE]):
        if state.lens[stock] > 0:
            deal_card(state.piles, state.lens, state.h, keys.zp, stock, w)
            dealt += 1
    return dealt


@njit(cache=True, inline="always")
def _undeal(cfg, state, keys, dealt):
    for i in range(dealt - 1, -1, -1):
        undeal_card(state.piles, state.lens, state.h, keys.zp, cfg[C_STOCK], cfg[C_NRES] + i)


@njit(cache=True, inline="always")
def _reinforce(cfg, state, keys):
    """Grant's Reinforcement: every empty reserve, in order, takes the stock's next card.
    Returns the bit mask of the reserves filled."""
    if cfg[C_REINF] == 0:
        return 0
    stock = cfg[C_STOCK]
    lens = state.lens
    mask = 0
    for r in range(cfg[C_NRES]):
        if lens[r] == 0 and lens[stock] > 0:
            deal_card(state.piles, state.lens, state.h, keys.zp, stock, r)
            mask |= 1 << r
    return mask


@njit(cache=True, inline="always")
def _unreinforce(cfg, state, keys, mask):
    for r in range(cfg[C_NRES] - 1, -1, -1):
        if (mask >> r) & 1:
            undeal_card(state.piles, state.lens, state.h, keys.zp, cfg[C_STOCK], r)


@njit(cache=True)
def make_move(cfg, state, keys, m):
    """Play move ``m`` and its automatic actions; return what undo needs (the undo records
    above)."""
    kind = kind_of(m)
    imm = cfg[C_REINF_IMM] == 1
    lens = state.lens
    if kind == K_DEAL:
        dealt = _deal(cfg, state, keys)
        mask = _reinforce(cfg, state, keys) if imm else 0
        deals = 1
        if cfg[C_SAFE] & SAFE_DEAL_THROUGH_INERT:      # the registry allows it only for W=1
            while (lens[cfg[C_STOCK]] > 0 and _inert_top(cfg, state.piles, lens, state.fnd)
                   and (cfg[C_REINF] == 0 or (mask == 0 and _reserves_deep(cfg, lens)))):
                _deal(cfg, state, keys)
                deals += 1
        return (dealt << DEAL_DEALT) | (deals << DEAL_COUNT) | (mask << DEAL_REFILLED)
    if kind == K_REDEAL:
        # PySolFC turns W0, W1, ... over onto the stock, each top card first: the new
        # dealing order is W(n-1) bottom to top, ..., W0 bottom to top.
        stock = cfg[C_STOCK]
        nres = cfg[C_NRES]
        counts = 0
        for i in range(cfg[C_NWASTE]):
            k = lens[nres + i]
            counts |= k << (REDEAL_PILE_BITS * i)
            for _ in range(k):
                undeal_card(state.piles, state.lens, state.h, keys.zp, stock, nres + i)
        set_scalar(state.scal, state.h, keys.zs, S_REDEALS, state.scal[S_REDEALS] + 1)
        dealt = _deal(cfg, state, keys) if cfg[C_FIRSTDEAL] == 1 else 0
        mask = _reinforce(cfg, state, keys) if imm else 0
        return counts | (dealt << REDEAL_DEALT) | (mask << REDEAL_REFILLED)
    card_make(cfg, state.piles, state.lens, state.fnd, state.h, keys.zp, keys.zf, m)
    return _reinforce(cfg, state, keys)


@njit(cache=True)
def undo_move(cfg, state, keys, m, info):
    kind = kind_of(m)
    stock = cfg[C_STOCK]
    nres = cfg[C_NRES]
    if kind == K_DEAL:
        for _ in range(get_bits(info, DEAL_COUNT, 8) - 1):      # a macro's later single-card deals
            undeal_card(state.piles, state.lens, state.h, keys.zp, stock, nres)
        _unreinforce(cfg, state, keys, info >> DEAL_REFILLED)
        _undeal(cfg, state, keys, get_bits(info, DEAL_DEALT, 8))
        return
    if kind == K_REDEAL:
        _unreinforce(cfg, state, keys, info >> REDEAL_REFILLED)
        _undeal(cfg, state, keys, get_bits(info, REDEAL_DEALT, 4))
        set_scalar(state.scal, state.h, keys.zs, S_REDEALS, state.scal[S_REDEALS] - 1)
        for i in range(cfg[C_NWASTE] - 1, -1, -1):
            for _ in range(get_bits(info, REDEAL_PILE_BITS * i, REDEAL_PILE_BITS)):
                deal_card(state.piles, state.lens, state.h, keys.zp, stock, nres + i)
        return
    _unreinforce(cfg, state, keys, info)
    card_undo(cfg, state.piles, state.lens, state.fnd, state.h, keys.zp, keys.zf, m)


@njit(cache=True)
def hash_state(cfg, state, keys, h):
    """The key of ``state`` from scratch: the positional Zobrist hash of ``solver.state``."""
    full_hash(state, keys, h)


@njit(cache=True)
def is_won(cfg, state):
    return is_all_home(cfg, state)


@njit(cache=True)
def refill_due(cfg, state):
    """The goal ``refill_due``: a reserve empty while the stock holds cards, where the game
    with reinforcement makes its first refill (searched on the game without refills, which
    every line of it is up to there; ``SAFE_SCHEDULE_LATE_REFILLS``)."""
    if state.lens[cfg[C_STOCK]] == 0:
        return False
    for r in range(cfg[C_NRES]):
        if state.lens[r] == 0:
            return True
    return False


@njit(cache=True)
def refill_out_of_reach(cfg, state):
    """No line from here reaches ``refill_due``: the stock is empty and no redeal is left
    to fill it again."""
    return state.lens[cfg[C_STOCK]] == 0 and state.scal[S_REDEALS] >= cfg[C_REDEALS]


# The goals other than the win that a search may be compiled for (``solver.dispatch.Kernel``):
# name -> (reached, beyond: no line from the state reaches it).
GOALS = {"refill_due": (refill_due, refill_out_of_reach)}


@njit(cache=True)
def move_class(cfg, m):
    """Restart ordering class: foundation plays first, then waste builds and the deal
    shuffled together, the redeal last. With reinforcement, foundation plays and builds
    are shuffled together and the deal comes after them: digging through 12-card reserves
    needs builds the home-first order leaves late (The Reinforcements 1-100 at 1 M nodes:
    17 won against 8; on Alhambra this order halves the search's wins;
    benchmarks/notes/reinforcements-searches-for-wins.md)."""
    kind = kind_of(m)
    if kind == K_REDEAL:
        return 2
    if kind != K_CARD:
        return 1
    return 0 if dst_of(m) < PILE0 or cfg[C_REINF] == 1 else 1


@njit(cache=True)
def beam_score(cfg, state, weights):
    """The beam's score of ``state`` (``solver.alhambra.beam_order.score``)."""
    return beam_order.score(cfg, state, weights)
