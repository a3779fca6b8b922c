"""The free-reserve relaxation G0 of Alhambra, solved exactly and memoised: a dead-state
test that fires while redeals are left (``free_reserve_relaxation``, issue 19; the design
and the measurements behind it: ``benchmarks/notes/alhambra-loss-proofs-memo.md``).

G0 of a position P (one waste pile, no reinforcement, play after the last pass) keeps P's
*sequence* (the waste bottom to top, then the stock in dealing order), its foundations and
its redeals left, and makes every reserve card *free*: playable to a foundation at any
time. Nothing is built on the waste. It is solved in its *lazy* form: the only card move
is home(x, f), the waste top x onto foundation f together with one free copy of every rank
between f's top and x (each must have a free copy); besides it, deal and redeal as in the
game. G0 is won when the sequence is empty.

Claims, proved below (the proof of ``free_reserve_relaxation``):
if lazy G0(P) is lost, P is lost; laziness, the forced moves and the commitments keep G0's
verdict; the kernel's ``stock_order_blocked`` holds in G0 (free cards are reserve copies).

Three reductions of the search (solver 0.10.0), each keeping G0's verdict: more forced
home moves; a deal goes on while the new top can go nowhere (one move); and
*commitments*: a deal taken after the top x's home moves were refuted bars x from those
foundations while they keep their tops, and, where a foundation took x with no fill, bars
x's other copy in the sequence from the other foundation for good. Commitments follow
physical cards (``gi``: each card's place in the root's sequence), not card codes.

State of a G0 search: a copy of the kernel's waste row and stock row (the same pile
numbers, so ``stock_order_blocked`` reads it as it reads the game), the foundation counts,
the pass, ``free[c]`` (free copies of card code c) and ``seqn[c]`` (copies in the
sequence). Its key hashes the waste and stock cards by position, the foundations and the
pass; the free cards are what the rest leaves (every card is in the sequence, home or
free), so they need no hashing. The keys are G0's own (``_mix``, not the game's Zobrist
tables) and live in their own table, ``memo``: a lost G0 state is lost whatever the
search around it, so the table is kept for a whole solve.

``memo`` is uint64[slots + 1, 2]: slots (a power of two) of (key word 0 | 1, key word 1
with its two low bits a tag: LOST, WON or TRIED, a search from it gave up at its node cap),
then a header row (stored entries, G0 nodes spent).

The proof of ``free_reserve_relaxation`` (its flag: ``solver.alhambra.flags.SAFE_FREE_RESERVE_RELAXATION``)
-----------------------------------------------------------------------------------------------------------

``free_reserve_relaxation`` (one waste pile, no reinforcement, play after the last pass):
a proof of loss that holds while redeals are left. A position P is lost when its
free-reserve relaxation G0(P), solved exactly by ``solver.alhambra.relaxed.g0_solve``, is
lost.

G0(P) keeps P's sequence (the waste bottom to top, then the stock in dealing order), its
foundations and its redeals left; every reserve card is *free*, playable home at any
time; nothing is built. Moves: deal, redeal (P's rule, first deal included), the waste top
home, a free card home. Won when the sequence is empty (every card left is then free, and
each foundation takes its missing ranks in order).

1. *Relaxation: if P can be won, G0(P) can.* Take a winning line L from P and play it in G0
   with every reserve card free, a built card staying free: a build does nothing, a
   reserve card home is a free card home, a deal or redeal is the same deal or redeal,
   and a built card met again in the sequence does not occur (G0 never built it). With one
   waste pile a waste card leaves only for a foundation, and without reinforcement only a
   deal takes a stock card, so G0's waste is always L's waste without the cards built on
   it: where L's waste top is not a built card, the tops agree, and the foundations agree
   throughout. If L plays a waste card home, it is G0's top too (a built card home is a
   free card home). If L redeals while G0's waste is empty, G0's sequence is empty: G0 has
   won. With the first deal part of the redeal, G0 may deal its next card before L does;
   until L deals it, L moves only built or reserve cards, which G0 plays as free cards.
   Without play after the last pass (``stop_at_third_exhaustion``) G0 could go on where L
   may not; so the rule needs play to go on.
2. *Lazy play keeps G0's verdict.* In a winning G0 line, a free card's play can be moved
   to just before the next play onto the same foundation (or to the end): free cards
   cover nothing and nothing covers them. So a card goes home from the waste top with
   the free cards of the ranks between (home(x, f)), and free cards otherwise wait for
   the end, where they all go.
3. *Forced moves keep it.* Let the waste top x be the only copy of its card in the
   sequence, let a foundation f take it (with fills; the other foundation may take it
   too), and let no fill rank have a copy in the sequence. A winning line L puts x and its
   other copy x', which is free or home, on the suit's two foundations, one each. If L
   puts x on f, then f's next cards in L are the fill ranks (only free copies exist, and
   they are interchangeable) and x, so playing them now only takes x off the waste top,
   where L's next waste move would be x's own; the lines agree after. If L puts x' on f
   and x on the other foundation, play x on f now and x' (free) where L plays x. So
   home(x, f) alone is offered. Likewise, when both foundations take x with no fill
   (they have met at x's rank), a winning line puts x on one of them, f, while f stays
   at its top, which waits for x's rank: so x goes home now (on either) and the deal is
   not offered. When the top can go nowhere, the deal is the only move, and the search
   deals on until a top can go somewhere (one move, skipping only checks).
4. *``stock_order_blocked`` holds in G0*: its conditions concern landings, covering,
   foundations, and a reserve copy counted "now"; the free cards are such copies (the
   test reads them as a reserve), and it never reasons about builds.
5. *Commitments keep it.* At a state A with waste top x, let home(x, f) have been
   searched and refuted, and the search take the deal (or redeal) instead. (a) Below it,
   at a state S where x is the top again and f still has A's top, home(x, f) is not
   offered: f took nothing between A and S (foundations only grow), so the line from A
   to S with home(x, f) played first instead is legal (the moves in between never had x
   as the card they moved, their fills come from a free pool that only shrinks, so A's
   pool held x's fills and theirs, and the deals keep their order with x left out, as in
   1) and reaches the same state as S then home(x, f): a winning line from there would
   win from A + home(x, f), which is refuted. (b) If f took x with no fill, x's other
   copy x' in the sequence is never played to the other foundation g below A: a line
   doing so must put x on f (the two copies go one to each), and f, waiting for x's rank,
   takes nothing before, so x could have gone there at A, as in (a). If a forced move of
   3 is barred this way, the state is lost. Each such state really is lost (a refuted
   state is lost whatever path reached it, by induction on the order the search refutes
   them), so the memo may keep it. Commitments follow physical cards, not card codes.
G0 is acyclic (every move removes a card from the sequence or deals, and redeals are
counted), so a state refuted once is lost wherever it is met: the memo (``state.memo``)
keeps the refuted G0 states for the whole solve, and a G0 search stopped at its cap proves
nothing.

Used at the root of a solve (``relaxation_lost``, called by ``solver.driver.solve``): a
deal whose G0 is lost is lost. Measured (benchmarks/notes/alhambra-proofs-of-loss.md, "Alhambra: the free-reserve
relaxation at the root"):
with one redeal G0 is lost at the root of most deals the search cannot decide; with two it
is mostly won (the first pass needs more than freed reserves), so the rule decides little
there yet.
"""

from __future__ import annotations

import numpy as np
from numba import njit

import solver.jit  # noqa: F401  (cache folder per kernel version; must precede @njit)

from solver.alhambra.slots import C_FIRSTDEAL, C_NRES, C_REDEALS, C_STOCK
from solver.alhambra.stock_order import _tops, stock_order_blocked
from solver.toolkit import C_RANKS, C_SIDX0, C_SUITS

G_UNKNOWN, G_LOST, G_WON, G_TRIED = 0, 1, 2, 3     # G_* also tag the memo's entries

_HOME_UP, _HOME_DOWN, _DEAL, _REDEAL = 0, 1, 2, 3   # G0's moves


HEADER = 1                        # header rows after the slots


def new_memo(slots: int) -> np.ndarray:
    """An empty memo of ``slots`` entries (rounded down to a power of two, at least 2)."""
    n = 1 << (max(2, slots).bit_length() - 1)
    return np.zeros((n + HEADER, 2), dtype=np.uint64)


def memo_stats(memo: np.ndarray) -> tuple[int, int]:
    """(entries stored, G0 nodes spent) of a memo."""
    return int(memo[-HEADER, 0]), int(memo[-HEADER, 1])


@njit(cache=True, inline="always")
def _mix(x):
    """splitmix64's finaliser: a well-spread 64-bit key of a small number."""
    x = x + np.uint64(0x9E3779B97F4A7C15)
    x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return x ^ (x >> np.uint64(31))


@njit(cache=True, inline="always")
def _toggle(h, kind, a, b):
    """XOR the key of item (kind, a, b) into ``h``: kind 1 a waste card (a height, b card),
    2 a stock card, 3 a foundation (a index, b count), 4 the pass (a redeals used)."""
    v = np.uint64((kind << 40) | (a << 16) | b)
    h[0] ^= _mix(v)
    h[1] ^= _mix(v ^ np.uint64(0x5DEECE66D0000000))


@njit(cache=True, inline="always")
def _push(gp, gl, h, kind, p, c):
    d = gl[p]
    gp[p, d] = c
    gl[p] = d + 1
    _toggle(h, kind, d, c)


@njit(cache=True, inline="always")
def _pop(gp, gl, h, kind, p):
    d = gl[p] - 1
    c = gp[p, d]
    gl[p] = d
    _toggle(h, kind, d, c)
    return c


@njit(cache=True, inline="always")
def _shift(gp, gi, gl, h, k_from, p_from, k_to, p_to):
    """Move the top card of row ``p_from`` (key kind ``k_from``) onto row ``p_to``, with its
    card id (``gi``: which physical card of the sequence it is)."""
    i = gi[p_from, gl[p_from] - 1]
    _push(gp, gl, h, k_to, p_to, _pop(gp, gl, h, k_from, p_from))
    gi[p_to, gl[p_to] - 1] = i


@njit(cache=True, inline="always")
def _slot_of(memo, h):
    """The slot holding key ``h``, or the empty slot where it would go."""
    k0 = h[0] | np.uint64(1)
    mask = memo.shape[0] - HEADER - 1
    i = np.int64(k0 >> np.uint64(17)) & mask
    while True:
        e = memo[i, 0]
        if e == 0 or (e == k0 and (memo[i, 1] >> np.uint64(2)) == (h[1] >> np.uint64(2))):
            return i
        i = (i + 1) & mask


@njit(cache=True, inline="always")
def memo_get(memo, h):
    """The tag of key ``h`` (``G_UNKNOWN``: not stored)."""
    i = _slot_of(memo, h)
    if memo[i, 0] == 0:
        return G_UNKNOWN
    return np.int64(memo[i, 1] & np.uint64(3))


@njit(cache=True, inline="always")
def memo_put(memo, h, tag):
    """Store key ``h`` with ``tag`` (a stored key changes only from TRIED; at three
    quarters full nothing new is stored: the memo only saves work)."""
    i = _slot_of(memo, h)
    if memo[i, 0] == 0:
        slots = memo.shape[0] - HEADER
        if memo[slots, 0] >= (slots * 3) // 4:
            return
        memo[slots, 0] += 1
        memo[i, 0] = h[0] | np.uint64(1)
    elif (memo[i, 1] & np.uint64(3)) != G_TRIED:
        return
    memo[i, 1] = (h[1] & ~np.uint64(3)) | np.uint64(tag)


@njit(cache=True, inline="always")
def _fills_free(free, s, lo, hi):
    """Every rank lo..hi of suit s has a free copy."""
    for m in range(lo, hi + 1):
        if free[s * 13 + m - 1] == 0:
            return False
    return True


@njit(cache=True, inline="always")
def _fills_unsequenced(seqn, s, lo, hi):
    """No rank lo..hi of suit s has a copy in the sequence."""
    for m in range(lo, hi + 1):
        if seqn[s * 13 + m - 1] != 0:
            return False
    return True


@njit(cache=True, inline="always")
def _takers(cfg, gf, free, x):
    """Whether the up and the down foundation of x's suit take x now (with free fills)."""
    s = x // 13
    r = x % 13 + 1
    u, d = _tops(cfg, gf, cfg[C_SIDX0 + s])
    return r > u and _fills_free(free, s, u + 1, r - 1), r < d and _fills_free(free, s, r + 1, d - 1)


@njit(cache=True, inline="always")
def _barred(ei, ef, et, ne, gf, xi, f):
    """Whether a commitment (``_commit``) bars card id ``xi`` from foundation ``f``."""
    for j in range(ne):
        if ei[j] == xi and ef[j] == f and (et[j] < 0 or et[j] == gf[f]):
            return True
    return False


@njit(cache=True)
def _expand(cfg, gp, gi, gl, gf, gs, free, seqn, out, ei, ef, et, ne):
    """Write G0's moves from this state into ``out``; return how many (0: lost here).
    ``stock_order_blocked`` reads the free cards as a reserve's; the ``ne`` commitments
    ``ei``, ``ef``, ``et`` bar home moves (``_commit``)."""
    w = cfg[C_NRES]
    st = cfg[C_STOCK]
    n0 = 0                                 # the free cards as reserve 0 (not hashed)
    for c in range(52):
        if free[c] > 0:
            gp[0, n0] = c
            n0 += 1
    gl[0] = n0
    dead = stock_order_blocked(cfg, gp, gl, gf, cfg[C_REDEALS] - gs[0])
    gl[0] = 0
    if dead:
        return 0
    n = 0
    if gl[w] > 0:
        x = gp[w, gl[w] - 1]
        s = x // 13
        r = x % 13 + 1
        u, d = _tops(cfg, gf, cfg[C_SIDX0 + s])
        up, down = _takers(cfg, gf, free, x)
        xi = gi[w, gl[w] - 1]
        k = cfg[C_SIDX0 + s]
        up_barred = up and _barred(ei, ef, et, ne, gf, xi, k)
        down_barred = down and _barred(ei, ef, et, ne, gf, xi, cfg[C_SUITS] + k)
        # forced: x the only copy in the sequence and a foundation takes it with no copy of
        # its fills in the sequence, whether or not the other takes it too; if a commitment
        # bars that move, nothing is left (proof: SAFE_FREE_RESERVE_RELAXATION, 3 and 5)
        if seqn[x] == 1:
            if up and _fills_unsequenced(seqn, s, u + 1, r - 1):
                out[0] = _HOME_UP
                return 0 if up_barred else 1
            if down and _fills_unsequenced(seqn, s, r + 1, d - 1):
                out[0] = _HOME_DOWN
                return 0 if down_barred else 1
        if up and not up_barred:
            out[n] = _HOME_UP
            n += 1
        if down and not down_barred:
            out[n] = _HOME_DOWN
            n += 1
        # met at x's rank: both foundations take x with no fill, so x goes home now, up or
        # down, and the deal is not offered (proof: SAFE_FREE_RESERVE_RELAXATION, 3)
        if r == u + 1 and r == d - 1:
            return n
    if gl[st] > 0:
        out[n] = _DEAL
        n += 1
    elif gl[w] > 0 and gs[0] < cfg[C_REDEALS]:
        out[n] = _REDEAL
        n += 1
    return n


@njit(cache=True)
def _make(cfg, gp, gi, gl, gf, gs, free, seqn, h, m):
    """Play G0 move ``m``; return its undo record."""
    w = cfg[C_NRES]
    st = cfg[C_STOCK]
    if m == _DEAL:                         # and on while the new top can go nowhere
        cnt = 0
        while True:
            _shift(gp, gi, gl, h, 2, st, 1, w)
            cnt += 1
            if gl[st] == 0:
                break
            up, down = _takers(cfg, gf, free, gp[w, gl[w] - 1])
            if up or down:
                break
        return cnt
    if m == _REDEAL:
        cnt = gl[w]
        for _ in range(cnt):               # the waste turned over: its bottom is dealt first
            _shift(gp, gi, gl, h, 1, w, 2, st)
        _toggle(h, 4, gs[0], 0)
        gs[0] += 1
        _toggle(h, 4, gs[0], 0)
        first = 0
        if cfg[C_FIRSTDEAL] == 1 and gl[st] > 0:
            _shift(gp, gi, gl, h, 2, st, 1, w)
            first = 1
        return 2 * cnt + first
    xi = gi[w, gl[w] - 1]
    x = _pop(gp, gl, h, 1, w)
    s = x // 13
    r = x % 13 + 1
    k = cfg[C_SIDX0 + s]
    if m == _HOME_UP:
        f = k
        old = gf[f]
        lo, hi, new = old + 1, r - 1, r
    else:
        f = cfg[C_SUITS] + k
        old = gf[f]
        lo, hi, new = r + 1, cfg[C_RANKS] - old, cfg[C_RANKS] - r + 1
    for q in range(lo, hi + 1):
        free[s * 13 + q - 1] -= 1
    _toggle(h, 3, f, old)
    _toggle(h, 3, f, new)
    gf[f] = new
    seqn[x] -= 1
    return old | (x << 8) | (f << 16) | (xi << 24)


@njit(cache=True)
def _undo(cfg, gp, gi, gl, gf, gs, free, seqn, h, m, info):
    w = cfg[C_NRES]
    st = cfg[C_STOCK]
    if m == _DEAL:
        for _ in range(info):
            _shift(gp, gi, gl, h, 1, w, 2, st)
        return
    if m == _REDEAL:
        if info & 1:
            _shift(gp, gi, gl, h, 1, w, 2, st)
        _toggle(h, 4, gs[0], 0)
        gs[0] -= 1
        _toggle(h, 4, gs[0], 0)
        for _ in range(info >> 1):
            _shift(gp, gi, gl, h, 2, st, 1, w)
        return
    old = info & 0xFF
    x = (info >> 8) & 0xFF
    f = (info >> 16) & 0xFF
    s = x // 13
    r = x % 13 + 1
    if f < cfg[C_SUITS]:
        lo, hi = old + 1, r - 1
    else:
        lo, hi = r + 1, cfg[C_RANKS] - old
    for q in range(lo, hi + 1):
        free[s * 13 + q - 1] += 1
    _toggle(h, 3, f, gf[f])
    _toggle(h, 3, f, old)
    gf[f] = old
    seqn[x] += 1
    _push(gp, gl, h, 1, w, x)
    gi[w, gl[w] - 1] = info >> 24


@njit(cache=True)
def _commit(cfg, gp, gi, gl, gf, moves, k, ei, ef, et, ne):
    """The commitments of a deal or redeal taken after the home moves ``moves[:k]`` of the
    waste top x were refuted (proof: SAFE_FREE_RESERVE_RELAXATION, 5): x never goes to
    such a foundation f while f keeps its top; and where f took x with no fill, x's other
    copy in the sequence, if any, never goes to the other foundation. Written from
    ``ne`` on; returns the new count."""
    w = cfg[C_NRES]
    st = cfg[C_STOCK]
    x = gp[w, gl[w] - 1]
    xi = gi[w, gl[w] - 1]
    s = x // 13
    r = x % 13 + 1
    kk = cfg[C_SIDX0 + s]
    u, d = _tops(cfg, gf, kk)
    for j in range(k):
        if moves[j] == _HOME_UP:
            f, other, adjacent = kk, cfg[C_SUITS] + kk, r == u + 1
        else:
            f, other, adjacent = cfg[C_SUITS] + kk, kk, r == d - 1
        ei[ne], ef[ne], et[ne] = xi, f, gf[f]
        ne += 1
        if adjacent:
            for p in (w, st):
                for i in range(gl[p]):
                    if gp[p, i] == x and gi[p, i] != xi:
                        ei[ne], ef[ne], et[ne] = gi[p, i], other, -1
                        ne += 1
    return ne


@njit(cache=True)
def g0_solve(cfg, piles, lens, fnd, redeals_used, memo, cap, retry):
    """Solve lazy G0 of the kernel position (``piles``, ``lens``, ``fnd``, redeals used) in
    at most ``cap`` G0 moves: ``G_LOST``, ``G_WON`` or ``G_UNKNOWN`` (gave up, or, unless
    ``retry``, a search from here gave up before: ``G_TRIED``), and the moves made. Every
    state refuted is stored LOST in ``memo``, every state of a won line WON."""
    w = cfg[C_NRES]
    st = cfg[C_STOCK]
    gp = np.zeros((st + 1, piles.shape[1]), np.int8)
    gi = np.zeros((st + 1, piles.shape[1]), np.int64)
    gl = np.zeros(st + 1, np.int32)
    gf = fnd.copy()
    gs = np.zeros(1, np.int64)
    gs[0] = redeals_used
    free = np.zeros(52, np.int64)
    seqn = np.zeros(52, np.int64)
    h = np.zeros(2, np.uint64)
    for r in range(w):
        for i in range(lens[r]):
            free[piles[r, i]] += 1
    for p in (w, st):
        for i in range(lens[p]):
            _push(gp, gl, h, 1 if p == w else 2, p, piles[p, i])
            gi[p, i] = i if p == w else lens[w] + i
            seqn[piles[p, i]] += 1
    for f in range(gf.shape[0]):
        _toggle(h, 3, f, gf[f])
    _toggle(h, 4, gs[0], 0)
    if gl[w] + gl[st] == 0:
        return G_WON, 0
    tag = memo_get(memo, h)
    if tag == G_TRIED and not retry:
        return G_UNKNOWN, 0
    if tag == G_LOST or tag == G_WON:
        return tag, 0
    n = gl[w] + gl[st]
    maxd = n * (cfg[C_REDEALS] + 2) + cfg[C_REDEALS] + 2    # deals per pass, homes, redeals
    fm = np.empty((maxd, 3), np.int64)
    fn = np.empty(maxd, np.int64)
    fi = np.empty(maxd, np.int64)
    finfo = np.empty(maxd, np.int64)
    fh = np.empty((maxd, 2), np.uint64)
    ec = np.zeros(maxd, np.int64)          # commitments in force at each depth
    emax = maxd * 6
    ei = np.empty(emax, np.int64)
    ef = np.empty(emax, np.int64)
    et = np.empty(emax, np.int64)
    d = 0
    fh[0, :] = h
    fn[0] = _expand(cfg, gp, gi, gl, gf, gs, free, seqn, fm[0], ei, ef, et, 0)
    fi[0] = 0
    nodes = 0
    result = G_LOST
    while True:
        if fi[d] < fn[d]:
            if nodes >= cap:
                memo_put(memo, fh[0], G_TRIED)
                result = G_UNKNOWN
                break
            m = fm[d, fi[d]]
            fi[d] += 1
            ne = ec[d]
            if (m == _DEAL or m == _REDEAL) and fi[d] > 1 and ne + 4 <= emax:
                ne = _commit(cfg, gp, gi, gl, gf, fm[d], fi[d] - 1, ei, ef, et, ne)
            finfo[d] = _make(cfg, gp, gi, gl, gf, gs, free, seqn, h, m)
            nodes += 1
            tag = G_WON if gl[w] + gl[st] == 0 else memo_get(memo, h)
            if tag == G_WON:
                for q in range(d + 1):
                    memo_put(memo, fh[q], G_WON)
                result = G_WON
                break
            if tag == G_LOST:
                _undo(cfg, gp, gi, gl, gf, gs, free, seqn, h, m, finfo[d])
                continue
            d += 1
            ec[d] = ne
            fh[d, :] = h
            fn[d] = _expand(cfg, gp, gi, gl, gf, gs, free, seqn, fm[d], ei, ef, et, ne)
            fi[d] = 0
        else:
            memo_put(memo, fh[d], G_LOST)
            if d == 0:
                break
            d -= 1
            _undo(cfg, gp, gi, gl, gf, gs, free, seqn, h, fm[d, fi[d] - 1], finfo[d])
    memo[memo.shape[0] - HEADER, 1] += nodes
    return result, nodes
