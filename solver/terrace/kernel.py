"""The numba kernel of the Terrace family (Queen of Italy / Terrace, PySolFC's Queen of Italy,
General's Patience, Blondes and Brunettes, Falling Star, Redheads): packed state, move
generation, make/undo, with the automatic actions (gap fills, waste refills) inside the
move exactly as ``solver/terrace/rules.py`` performs them.

Kernel piles: the reserve ``0``, tableau ``1..T``, the waste ``T+1``, the stock ``T+2`` (its
top is the next card dealt), then the foundations ``T+3..`` as piles: a foundation's count
does not fix its contents here (alternate colours, take-back), so its cards are in the
state and the hash. ``fnd`` mirrors their heights (``most_home``, ``is_won``). Scalars:
``scal[0]`` redeals used, ``scal[1]`` 1 while the base is still to be chosen, ``scal[2]``
the base rank (0 before it is known). Moves as in ``solver.toolkit`` plus ``K_BASE``
(choose tableau pile ``src``'s card as the base). The functions keep the numba half of the
kernel contract of ``solver.kernels``; the Python half is ``solver.terrace.hooks``, the
slots ``solver.terrace.slots``, the dominance flags ``solver.terrace.flags``, and the prunes
``reserve_blocked``, ``reserve_order`` and ``idle_card_home`` each in a module of its own
with its proof.

The key is canonical: tableau piles and foundations are hashed as multisets (see "the
canonical key" below). Cycles: the search is a reachability search (every reachable
state is expanded once; a state met again, on the current path or elsewhere, is not
expanded again, which loses nothing: whatever it leads to is reached from its first
visit), so repeated positions keep it complete and sound. Proved reductions: ``SAFE_*``
in ``solver.terrace.flags``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

import solver.jit  # noqa: F401  (cache folder per kernel version; must precede @njit)

from solver.terrace import beam_order
from solver.terrace.accepts import _rank, foundation_accepts, tableau_accepts
from solver.terrace.flags import SAFE_IDLE_CARD_HOME, SAFE_NO_LONE_SHIFT, SAFE_RESERVE_BLOCKED, SAFE_RESERVE_ORDER
from solver.terrace.idle_card_home import idle_card_home
from solver.terrace.reserve_blocked import reserve_blocked
from solver.terrace.reserve_order import reserve_order
from solver.terrace.slots import (AUTO, A_REFILL_BEFORE, A_REFILL_LAST, A_SRC, C_AUTOFILL, C_CHOICES, C_FP0, C_GAP,
                                  C_NTAB, C_R2T, C_REDEALS, C_STOCK, C_TAKEBACK, C_WASTE, FROM_RESERVE, FROM_STOCK,
                                  FROM_WASTE, G_AUTO_STOCK, G_AUTO_WASTE, G_RESERVE_FIRST, G_WASTE_ONLY, K_BASE,
                                  S_BASE, S_CHOOSE, S_REDEALS)
from solver.toolkit import (C_NF, C_RANKS, C_SAFE, C_SIDX0, K_CARD, K_DEAL, K_REDEAL, PILE0, all_home, dst_of, encode,
                            kind_of, src_of)


# ----- cards and piles ----------------------------------------------------------------------

@njit(cache=True, inline="always")
def _pile(cfg, loc):
    """The kernel pile of location ``loc`` (foundations are piles here)."""
    return cfg[C_FP0] + loc if loc < PILE0 else loc - PILE0


# ----- the canonical key ----------------------------------------------------------------
# The tableau piles are interchangeable, and so are the foundations (RULES.md Part II §5
# item 18): no rule of this family reads a tableau pile's or a foundation's index once the
# base is known. Automatic gap fills go to the lowest empty pile and a base to the first
# foundation of its suit, but every empty tableau pile is like every other, and every
# empty foundation like every other of its tag, so a position and the same position with
# its tableau piles (or its foundations) permuted have the same moves up to that
# permutation and the same outcome. (Before the base is chosen the candidates' indices
# matter, but that position is only ever the root; two candidates holding the same cards
# give one key after either is chosen, so the second is a table hit: they are one branch.)
# So the key hashes the tableau and the foundations as multisets of piles: each such pile
# gets a Zobrist key of its contents by depth from one shared row of keys (a foundation's
# tag when it is empty), mixed by a bijection that breaks the keys' XOR-linearity
# (``_mix``), and the mixed values are added. The other piles (reserve, waste, stock) and
# the scalars keep positional keys, also added, so that the whole key is one sum that
# every change updates by subtracting and adding.

@njit(cache=True, inline="always")
def _mix(z):
    """A bijection of uint64 (splitmix64's finaliser): two different multisets of piles
    collide only by chance, not through XOR relations between pile keys."""
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@njit(cache=True, inline="always")
def _shared(cfg, p):
    """Whether pile ``p`` is one of an interchangeable group (tableau or foundation)."""
    return (1 <= p <= cfg[C_NTAB]) or p >= cfg[C_FP0]


@njit(cache=True, inline="always")
def _row(cfg, p):
    """The shared row of keys of tableau or foundation pile ``p``."""
    return cfg[C_FP0] if p >= cfg[C_FP0] else 1


@njit(cache=True, inline="always")
def _group_value(cfg, zp, k, p, raw, n):
    """Half ``k`` of the mixed key of tableau or foundation pile ``p`` of height ``n``
    whose contents' keys XOR to ``raw`` (an empty foundation is keyed by its tag)."""
    fp0 = cfg[C_FP0]
    if n == 0 and p >= fp0:
        raw = zp[k, fp0 + 1, 0, (p - fp0) // 2]
    return _mix(raw)


@njit(cache=True)
def _group_key(cfg, piles, lens, zp, k, p):
    """Half ``k`` of the mixed key of tableau or foundation pile ``p``, from its cards."""
    row = _row(cfg, p)
    z = np.uint64(0)
    for d in range(lens[p]):
        z ^= zp[k, row, d, piles[p, d]]
    return _group_value(cfg, zp, k, p, z, lens[p])


@njit(cache=True, inline="always")
def _rekey(cfg, piles, lens, h, zp, p, d, c):
    """Card ``c`` at depth ``d`` of shared pile ``p`` comes or goes (``lens[p]`` is the
    height before): one pass over the pile gives both halves' old keys, and the new ones
    differ by the card's key."""
    row = _row(cfg, p)
    z0 = np.uint64(0)
    z1 = np.uint64(0)
    for e in range(d):
        z0 ^= zp[0, row, e, piles[p, e]]
        z1 ^= zp[1, row, e, piles[p, e]]
    n = lens[p]
    m = d if n > d else d + 1            # the height after
    if n > d:                             # a pop: the old contents include c
        o0, o1 = z0 ^ zp[0, row, d, c], z1 ^ zp[1, row, d, c]
        w0, w1 = z0, z1
    else:                                 # a push
        o0, o1 = z0, z1
        w0, w1 = z0 ^ zp[0, row, d, c], z1 ^ zp[1, row, d, c]
    h[0] += _group_value(cfg, zp, 0, p, w0, m) - _group_value(cfg, zp, 0, p, o0, n)
    h[1] += _group_value(cfg, zp, 1, p, w1, m) - _group_value(cfg, zp, 1, p, o1, n)


@njit(cache=True, inline="always")
def _pop_keyed(cfg, piles, lens, h, zp, p):
    """Take the top card off pile ``p``, keeping the key."""
    d = lens[p] - 1
    c = piles[p, d]
    if _shared(cfg, p):
        _rekey(cfg, piles, lens, h, zp, p, d, c)
    else:
        for k in range(2):
            h[k] -= zp[k, p, d, c]
    lens[p] = d
    return c


@njit(cache=True, inline="always")
def _push_keyed(cfg, piles, lens, h, zp, p, c):
    """Put card ``c`` on pile ``p``, keeping the key."""
    d = lens[p]
    if _shared(cfg, p):
        _rekey(cfg, piles, lens, h, zp, p, d, c)
    else:
        for k in range(2):
            h[k] += zp[k, p, d, c]
    piles[p, d] = c
    lens[p] = d + 1


@njit(cache=True, inline="always")
def _set_scalar(scal, h, zs, i, v):
    for k in range(2):
        h[k] += zs[k, i, v] - zs[k, i, scal[i]]
    scal[i] = v


@njit(cache=True)
def hash_state(cfg, state, keys, h):
    """The key of ``state`` from scratch into ``h`` (what make and undo keep up to date)."""
    piles, lens, scal, zp, zs = state.piles, state.lens, state.scal, keys.zp, keys.zs
    for k in range(2):
        z = np.uint64(0)
        for p in range(lens.shape[0]):
            if _shared(cfg, p):
                z += _group_key(cfg, piles, lens, zp, k, p)
            else:
                for d in range(lens[p]):
                    z += zp[k, p, d, piles[p, d]]
        for i in range(scal.shape[0]):
            z += zs[k, i, scal[i]]
        h[k] = z


@njit(cache=True)
def _shift(cfg, piles, lens, fnd, h, zp, a, b):
    """Move the top card of pile ``a`` onto pile ``b``, keeping the key and the foundation
    counts (which the key does not hash: the foundations' cards say it all)."""
    _push_keyed(cfg, piles, lens, h, zp, b, _pop_keyed(cfg, piles, lens, h, zp, a))
    fp0 = cfg[C_FP0]
    if a >= fp0:
        fnd[a - fp0] = lens[a]
    if b >= fp0:
        fnd[b - fp0] = lens[b]


# ----- move generation ----------------------------------------------------------------------

@njit(cache=True)
def gen_moves(cfg, state, moves, start, last):
    """Write the legal moves at ``moves[start:]``; return how many (none in a dead state).
    ``last``: the move that led here (-1: not known), for when the dead-state test runs.

    Order (it only steers which line is found first): the base choices; cards to the
    foundations; onto the tableau; deal; redeal."""
    piles, lens, scal = state.piles, state.lens, state.scal
    ntab, waste, stock, fp0 = cfg[C_NTAB], cfg[C_WASTE], cfg[C_STOCK], cfg[C_FP0]
    n = start
    if scal[S_CHOOSE] == 1:
        for i in range(min(cfg[C_CHOICES], ntab)):
            if lens[1 + i] > 0:
                moves[n] = encode(K_BASE, PILE0 + 1 + i, 0)
                n += 1
        return n - start
    if (cfg[C_SAFE] & SAFE_RESERVE_BLOCKED and (last < 0 or kind_of(last) == K_BASE
                                                or (kind_of(last) == K_CARD and dst_of(last) < PILE0))
            and reserve_blocked(cfg, piles, lens, scal)):
        return 0
    if (cfg[C_SAFE] & SAFE_RESERVE_ORDER and (last < 0 or kind_of(last) == K_BASE
                                              or (kind_of(last) == K_CARD and dst_of(last) < PILE0))
            and reserve_order(cfg, piles, lens, scal)):
        return 0
    if cfg[C_SAFE] & SAFE_IDLE_CARD_HOME:
        forced = idle_card_home(cfg, piles, lens, scal)
        if forced >= 0:
            moves[n] = forced
            return 1
    nf = cfg[C_NF]
    ranks = cfg[C_RANKS]
    need = np.empty(nf, np.int64)          # the rank each foundation takes next (-1: none)
    for f in range(nf):
        k = lens[fp0 + f]
        need[f] = scal[S_BASE] if k == 0 else -1 if k >= ranks else _rank(piles[fp0 + f, k - 1]) % ranks + 1
    tneed = np.empty(ntab + 1, np.int64)   # the rank each tableau pile takes (0: a gap)
    for j in range(1, ntab + 1):
        tneed[j] = 0 if lens[j] == 0 else (_rank(piles[j, lens[j] - 1]) - 2) % ranks + 1
    for phase in range(2):                 # 0: to the foundations; 1: onto the tableau
        for s in range(ntab + 2 + nf):     # tableau, waste, reserve, then the foundations
            if s < ntab:
                p = 1 + s
            elif s == ntab:
                p = waste
            elif s == ntab + 1:
                p = 0
            else:
                p = fp0 + s - ntab - 2
                if cfg[C_TAKEBACK] == 0 or lens[p] < 2:
                    continue
            if lens[p] == 0:
                continue
            c = piles[p, lens[p] - 1]
            src = p - fp0 if p >= fp0 else PILE0 + p
            if phase == 0:
                for f in range(nf):
                    if need[f] == _rank(c) and fp0 + f != p and foundation_accepts(cfg, piles, lens, scal, f, c):
                        moves[n] = encode(K_CARD, src, f)
                        n += 1
            elif p != 0 or cfg[C_R2T] == 1:   # the reserve onto the tableau only with reserve_to_tableau
                for j in range(1, ntab + 1):
                    if j == p:
                        continue
                    if lens[j] == 0:
                        ok = p == waste if cfg[C_GAP] == G_WASTE_ONLY else True
                        if ok and cfg[C_SAFE] & SAFE_NO_LONE_SHIFT and 1 <= p <= ntab and lens[p] == 1:
                            ok = False     # no_lone_shift: the same position up to pile order
                    else:
                        ok = tneed[j] == _rank(c) and tableau_accepts(cfg, scal, piles[j, lens[j] - 1], c)
                    if ok:
                        moves[n] = encode(K_CARD, src, PILE0 + j)
                        n += 1
    if lens[stock] > 0 and (scal[S_REDEALS] == 0 or lens[waste] == 0):
        moves[n] = encode(K_DEAL, 0, 0)
        n += 1
    if lens[stock] == 0 and lens[waste] > 0 and scal[S_REDEALS] < cfg[C_REDEALS]:
        moves[n] = encode(K_REDEAL, 0, 0)
        n += 1
    return n - start


# ----- make and undo ------------------------------------------------------------------------

@njit(cache=True)
def _gap_source(cfg, k):
    """The ``k``-th place an empty tableau pile is filled from under the gap rule (0: none),
    as FROM_WASTE / FROM_RESERVE / FROM_STOCK."""
    g = cfg[C_GAP]
    src = 0
    if g == G_AUTO_WASTE:
        src = FROM_WASTE if k == 0 else 0
    elif g == G_AUTO_STOCK:
        src = FROM_STOCK if k == 0 else FROM_WASTE if k == 1 else 0
    elif g == G_RESERVE_FIRST:
        src = FROM_RESERVE if k == 0 else FROM_WASTE if k == 1 else FROM_STOCK if k == 2 else 0
    return src


@njit(cache=True, inline="always")
def _from_pile(cfg, src):
    return cfg[C_WASTE] if src == FROM_WASTE else 0 if src == FROM_RESERVE else cfg[C_STOCK]


@njit(cache=True)
def _automatic(cfg, piles, lens, fnd, h, zp):
    """Gap fills (per gap rule) and waste refills until nothing changes; returns their undo
    record (the bits from ``AUTO`` on, shifted down)."""
    ntab, waste, stock = cfg[C_NTAB], cfg[C_WASTE], cfg[C_STOCK]
    out = 0
    refilled = 0
    while True:
        gap = -1
        for j in range(1, ntab + 1):
            if lens[j] == 0:
                gap = j
                break
        src = 0
        if gap > 0:
            for k in range(3):
                s = _gap_source(cfg, k)
                if s != 0 and lens[_from_pile(cfg, s)] > 0:
                    src = s
                    break
        if src != 0:
            _shift(cfg, piles, lens, fnd, h, zp, _from_pile(cfg, src), gap)
            j = gap - 1
            out |= (1 << j) | (src << (A_SRC + 2 * j)) | (refilled << (A_REFILL_BEFORE + j))
            refilled = 0
        elif cfg[C_AUTOFILL] == 1 and lens[waste] == 0 and lens[stock] > 0:
            _shift(cfg, piles, lens, fnd, h, zp, stock, waste)
            refilled = 1
        else:
            break
    return out | (refilled << A_REFILL_LAST)


@njit(cache=True)
def _undo_automatic(cfg, piles, lens, fnd, h, zp, a):
    waste, stock = cfg[C_WASTE], cfg[C_STOCK]
    if (a >> A_REFILL_LAST) & 1:
        _shift(cfg, piles, lens, fnd, h, zp, waste, stock)
    for j in range(cfg[C_NTAB] - 1, -1, -1):
        if (a >> j) & 1:
            _shift(cfg, piles, lens, fnd, h, zp, 1 + j, _from_pile(cfg, (a >> (A_SRC + 2 * j)) & 3))
            if (a >> (A_REFILL_BEFORE + j)) & 1:
                _shift(cfg, piles, lens, fnd, h, zp, waste, stock)


@njit(cache=True)
def make_move(cfg, state, keys, m):
    """Play move ``m`` and its automatic actions; return the undo record (above)."""
    kind = kind_of(m)
    piles, lens, fnd, h = state.piles, state.lens, state.fnd, state.h
    zp = keys.zp
    waste, stock = cfg[C_WASTE], cfg[C_STOCK]
    info = 0
    if kind == K_CARD:
        _shift(cfg, piles, lens, fnd, h, zp, _pile(cfg, src_of(m)), _pile(cfg, dst_of(m)))
    elif kind == K_DEAL:
        _shift(cfg, piles, lens, fnd, h, zp, stock, waste)
    elif kind == K_REDEAL:
        info = lens[waste]
        for _ in range(info):
            _shift(cfg, piles, lens, fnd, h, zp, waste, stock)
        _set_scalar(state.scal, state.h, keys.zs, S_REDEALS, state.scal[S_REDEALS] + 1)
    else:                                  # the base choice, then the rest of the opening deal
        p = src_of(m) - PILE0
        c = piles[p, lens[p] - 1]
        _shift(cfg, piles, lens, fnd, h, zp, p, cfg[C_FP0] + 2 * cfg[C_SIDX0 + c // 13])
        _set_scalar(state.scal, state.h, keys.zs, S_CHOOSE, 0)
        _set_scalar(state.scal, state.h, keys.zs, S_BASE, _rank(c))
        for j in range(1, cfg[C_NTAB] + 1):
            if lens[j] == 0 and lens[stock] > 0:
                _shift(cfg, piles, lens, fnd, h, zp, stock, j)
                info |= 1 << (j - 1)
        if lens[stock] > 0:
            _shift(cfg, piles, lens, fnd, h, zp, stock, waste)
            info |= 1 << 12
    return info | (_automatic(cfg, piles, lens, fnd, h, zp) << AUTO)


@njit(cache=True)
def undo_move(cfg, state, keys, m, info):
    kind = kind_of(m)
    piles, lens, fnd, h = state.piles, state.lens, state.fnd, state.h
    zp = keys.zp
    waste, stock = cfg[C_WASTE], cfg[C_STOCK]
    _undo_automatic(cfg, piles, lens, fnd, h, zp, info >> AUTO)
    if kind == K_CARD:
        _shift(cfg, piles, lens, fnd, h, zp, _pile(cfg, dst_of(m)), _pile(cfg, src_of(m)))
    elif kind == K_DEAL:
        _shift(cfg, piles, lens, fnd, h, zp, waste, stock)
    elif kind == K_REDEAL:
        _set_scalar(state.scal, state.h, keys.zs, S_REDEALS, state.scal[S_REDEALS] - 1)
        for _ in range(info & 0x1FFF):
            _shift(cfg, piles, lens, fnd, h, zp, stock, waste)
    else:
        if (info >> 12) & 1:
            _shift(cfg, piles, lens, fnd, h, zp, waste, stock)
        for j in range(cfg[C_NTAB], 0, -1):
            if (info >> (j - 1)) & 1:
                _shift(cfg, piles, lens, fnd, h, zp, j, stock)
        p = src_of(m) - PILE0
        base = 0
        for f in range(cfg[C_NF]):         # the base is the only foundation card
            if lens[cfg[C_FP0] + f] > 0:
                base = cfg[C_FP0] + f
        _shift(cfg, piles, lens, fnd, h, zp, base, p)
        _set_scalar(state.scal, state.h, keys.zs, S_BASE, 0)
        _set_scalar(state.scal, state.h, keys.zs, S_CHOOSE, 1)


@njit(cache=True)
def is_won(cfg, state):
    return all_home(cfg, state.fnd)


@njit(cache=True)
def move_class(cfg, m):
    """Win-first ordering class: base choices and foundation plays first, the redeal last."""
    kind = kind_of(m)
    if kind == K_BASE:
        return 0
    if kind == K_CARD:
        return 0 if dst_of(m) < PILE0 else 1
    return 2 if kind == K_DEAL else 3


@njit(cache=True)
def beam_score(cfg, state, weights):
    """The beam's score of ``state`` (``solver.terrace.beam_order.score``)."""
    return beam_order.score(cfg, state, weights)
