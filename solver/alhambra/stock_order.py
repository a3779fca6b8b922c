"""``dead_stock_order``'s test over the order of the waste and the stock (its proof below),
shared by the kernel and the free-reserve relaxation (``solver.alhambra.relaxed``).

The proof of ``dead_stock_order`` (its flag: ``solver.alhambra.flags.SAFE_DEAD_STOCK_ORDER``)
---------------------------------------------------------------------------------------------

``dead_stock_order`` (one waste pile): a dead-state test over the order of the waste and
the stock, in every pass. It extends ``dead_waste_block``; with reinforcement it holds in
the weaker form of the refill clause below.

Write the waste (bottom to top) and then the stock (in dealing order) as one sequence of
n cards, positions 0..n-1. Measure time by deals: in pass k from now (k = 0..left, the
redeals left) the card at position q lands on the waste at time ``k n + q`` if it is
still in play; "now" is ``nw - 1`` (nw waste cards). The test computes lower bounds on the
time each sequence card can go home, starting from "now" (from q for a stock card), as a
fixed point of necessary conditions:

- *needs*: going up, a card needs a copy of every rank between the up top and it on the up
  foundation first (likewise down), so its bound is at least the smaller over its open ways
  of the largest over the ranks it needs of the smallest bound of their copies in play (a
  reserve copy counts "now"); a way with a needed rank that has no copy in play is closed;
- *windows*: a sequence card can go home only while it is in the waste, from its landing in
  a pass to that pass's end, so a bound is moved up to its next landing;
- *cover*: for sequence cards y before x whose bounds are both at least x's landing in pass
  k, both are in play when x lands, so y lies below x: y's bound is at least the smaller of
  x's bound and y's landing in pass k + 1 (the redeal frees it); in the last pass just x's
  bound;
- *closed for a pass*: if all copies (none in a reserve) of a rank a card c needs lie below
  it in this sense from its landing in pass k, that way waits for c's landing in pass k + 1.

The position is lost when some card's bound passes the end of the last pass.

*Refill clause* (reinforcement). A refill takes the stock's next card into an empty
reserve instead of a deal, so only landings before E, a lower bound on the first time a
reserve is empty, are certain: the cover and closed-way steps use landings before E only,
and a card whose slot in the pass before lies at E or later may wait in a reserve, so the
window step does not move its bound up to its landing. E is "now" plus one when a reserve
is empty, else the smallest over the reserves of a bound on when its bottom card leaves:
a reserve card leaves only once every card above it has left, and only home (its needs,
as above) or onto a waste top of its suit one rank apart (K-A wrap), which a sequence copy
of that rank can be at its landing in this pass at the earliest and a reserve copy only
once it has left its own reserve (with ``empty_waste_accepts_any``: "now"). These bounds
are fixed in increasing order (``_first_empty`` in ``solver.alhambra.stock_order``), and
they give the reserve cards home bounds too (needs met and uncovered), which count for
the needs of every card where "now" counted before; a reserve card whose home bound
passes the end of the last pass makes the position lost.

Proof. With one waste pile and no reinforcement, a stock card reaches play only by a deal,
onto the waste top; a waste card leaves only home or by a redeal, which turns the waste
over in order, so every pass deals the cards still in play in sequence order (reserve
cards built onto the waste only add cards between them; the test uses no fact that extra
cards change). Foundations never wrap or give a card back. Each condition holds on every
line of play, so by induction over the fixed-point steps every bound is a true lower bound
on the time the card goes home, and a card whose bound passes the end of the last pass
never goes home. In the last pass (no redeal left) the cover and closed-way steps are the
rule of ``dead_waste_block`` extended to stock cards: a card that lands on all copies of a
rank it needs never goes home. ``stop_at_third_exhaustion`` only removes lines.
With reinforcement, a refill takes the stock's next card while a reserve is empty, so at
a time at or after E, and never a waste card. Before E the play is as above: every stock
card reaches play by a deal onto the waste, so the landings before E that the cover and
closed-way steps use happen as stated (the covered cards lie at earlier slots, also before
E, so none of them was taken). A card taken at its slot is out of the stock from then
on, in its reserve or (built) in the waste; it goes home no earlier than its slot, and no
step above bounds it later than its needs and that slot, except the window step, which
the clause lifts exactly where a take in the pass before was possible. Each leaving bound
is a true lower bound: over the true order of the leavings, the first card to leave
before its bound would have left home (after its needs and the card above it, both
bounded) or onto a sequence copy (after its landing) or onto a reserve copy that left
before it, whose bound holds; and the card's bound is at most that copy's bound (if the
copy's was fixed first, it counted for the card; if not, the card's was fixed first, and
bounds are fixed in increasing order). So E is a lower bound, a reserve card goes home no earlier
than its needs and the leaving of the card above it, and the induction over the
fixed-point steps goes through as before (E only grows with the bounds it is computed
from).

Measured (benchmarks/notes/alhambra.md): Alhambra 1-100 at 1 M nodes with every rule, 15 won when
applied in the last pass only and 32 won in every pass, at about 1/6-1/8 of the nodes per
second (1-1000: 368 won, against 129 without it). Bounds on reserve cards (uncovered only
when each card above has gone home or onto a waste neighbour) were tried: the same 32 won
at half the speed, so they are left out without reinforcement; the refill clause needs them
(without, nearly every rank has a reserve copy that counts "now", and E stays at "now").
With reinforcement the kernel applies the test in the last pass only: The Reinforcements
1-300 at 1 M nodes, 53 won against 49 without the rule, at about half the nodes per
second (a first version won the same 18 of 1-100 in every pass as in the last, at half
the speed again). It proves no full-size deal lost.
"""

from __future__ import annotations

import numpy as np
from numba import njit

import solver.jit  # noqa: F401  (cache folder per kernel version; must precede @njit)

from solver.alhambra.slots import C_ANY, C_NRES, C_REINF, C_STOCK
from solver.toolkit import C_RANKS, C_SIDX0, C_SUITS


@njit(cache=True, inline="always")
def _tops(cfg, fnd, k):
    """Top ranks of suit index ``k``'s foundations: up (0 while empty) and down (ranks + 1
    while empty)."""
    return fnd[k], cfg[C_RANKS] - fnd[cfg[C_SUITS] + k] + 1


_FAR = 1 << 40                    # "never": later than any time
_DEAD = -_FAR                     # ``_first_empty``: a reserve card never goes home


@njit(cache=True, inline="always")
def _slot(cfg, c):
    """Rank slot of card ``c`` in ``stock_order_blocked``: 16 * suit index + rank."""
    return 16 * cfg[C_SIDX0 + c // 13] + c % 13 + 1


@njit(cache=True, inline="always")
def _in_window(t, q, n, E):
    """The first time from ``t`` on at which the card at sequence position ``q`` can be in
    play outside the stock: its landing in the pass ``t`` lies in, or in the next pass.
    A card that a reserve may have taken in the pass before (its slot there at ``E`` or
    later) may be in that reserve at ``t`` already."""
    base = t - t % n
    if t - base < q and (base == 0 or base - n + q < E):
        return base + q
    return t


@njit(cache=True, inline="always")
def _neighbours(cfg, r):
    """The ranks a card of rank ``r`` builds on in the waste (one apart, K-A wrap); 0 for
    none."""
    ranks = cfg[C_RANKS]
    lo = r - 1 if r > 1 else (ranks if ranks > 2 else 0)
    hi = r + 1 if r < ranks else (1 if ranks > 2 else 0)
    return lo, hi


@njit(cache=True)
def _reserve_cards(cfg, piles, lens, now, first):
    """What ``_first_empty`` needs of the reserve cards that stays the same through the
    rounds of one test: per card (reserve by reserve, bottom up) its earliest waste
    neighbour from the sequence (``seqnb``) and the rank slots of its two neighbours
    (``nbs``; -1 for none), and each reserve's first card (``off``)."""
    nres = cfg[C_NRES]
    off = np.zeros(nres + 1, np.int64)     # reserve r's cards: off[r] (bottom) .. off[r + 1] - 1
    for r in range(nres):
        off[r + 1] = off[r] + lens[r]
    total = off[nres]
    seqnb = np.empty(total, np.int64)
    nbs = np.full((total, 2), -1, np.int64)
    j = 0
    for r in range(nres):
        for i in range(lens[r]):
            c = piles[r, i]
            m0 = 16 * cfg[C_SIDX0 + c // 13]
            b = now if cfg[C_ANY] == 1 else _FAR
            x = 0
            for nb in _neighbours(cfg, c % 13 + 1):
                if nb > 0:
                    nbs[j, x] = m0 + nb
                    if first[m0 + nb] >= 0:
                        b = min(b, max(first[m0 + nb], now))
                x += 1
            seqnb[j] = b
            j += 1
    return seqnb, nbs, off


@njit(cache=True)
def _first_empty(cfg, piles, lens, now, never, seqnb, nbs, off, up, dn, ut, dt, hres):
    """With reinforcement: a lower bound E on the first time a reserve is empty (so that a
    refill can take a stock card; it takes one that lands later). ``seqnb``, ``nbs``,
    ``off``: ``_reserve_cards``.

    A reserve card leaves only when uncovered (every card above has left), and only home
    (``up``/``dn``: the needs of its ways) or onto a waste top of its suit one rank apart: a
    sequence copy of that rank is there at its landing in this pass at the earliest, a
    reserve copy only once it has left its own reserve (with ``empty_waste_accepts_any``:
    onto an empty waste, "now"). The leaving bounds are fixed in increasing order, as in
    Dijkstra's algorithm, a reserve copy counting for a build only once its own bound is
    fixed: over the true order of the leavings, the first card to break its bound would
    have left onto a copy that left before it, whose bound holds, so no card breaks its
    bound (a cycle of reserve cards that could only leave onto one another never leaves).

    Also sets ``hres``, per rank slot the smallest lower bound over its reserve copies on
    the time they go home: once their needs are met and they are uncovered (a build onto
    the waste also needs that). Returns E, or ``_DEAD`` when some reserve card's home bound
    passes the end of the last pass (``never``): that card never goes home."""
    nres = cfg[C_NRES]
    total = off[nres]
    home = np.empty(total, np.int64)        # per reserve card, reserve by reserve, bottom up
    leave = np.full(total, _FAR, np.int64)  # fixed leaving bounds (_FAR: not fixed, or never)
    resnb = np.full(64, _FAR, np.int64)     # per rank slot: its first fixed reserve copy's bound
    j = 0
    for r in range(nres):
        for i in range(lens[r]):
            c = piles[r, i]
            k = cfg[C_SIDX0 + c // 13]
            m0 = 16 * k
            rk = c % 13 + 1
            u, d = ut[k], dt[k]
            h = _FAR
            if rk > u:
                h = up[m0 + rk - 1] if rk - 1 > u else now
            if rk < d:
                h = min(h, dn[m0 + rk + 1] if rk + 1 < d else now)
            home[j] = h
            j += 1
    nxt = off[1:] - 1                       # per reserve its topmost card not fixed (below off[r]: none)
    for _ in range(total):                  # fix the smallest tentative bound; only the
        pick, low = -1, _FAR                # topmost card not fixed of each reserve can leave next
        for r in range(nres):
            j = nxt[r]
            if j < off[r]:
                continue
            b = seqnb[j]
            for x in range(2):
                if nbs[j, x] >= 0:
                    b = min(b, resnb[nbs[j, x]])
            t = max(now if j == off[r + 1] - 1 else leave[j + 1], min(home[j], b))
            if t < low:
                pick, low = r, t
        if pick < 0:
            break                           # the rest never leave
        j = nxt[pick]
        leave[j] = low
        nxt[pick] = j - 1
        sl = _slot(cfg, piles[pick, j - off[pick]])
        resnb[sl] = min(resnb[sl], low)
    E = _FAR
    hres[:] = _FAR
    j = 0
    for r in range(nres):
        if lens[r] == 0:
            E = now + 1
        for i in range(lens[r]):
            cover = now if i == lens[r] - 1 else leave[j + 1]
            h = max(cover, home[j])
            if h >= never:
                return _DEAD
            sl = _slot(cfg, piles[r, i])
            hres[sl] = min(hres[sl], h)
            if i == 0:
                E = min(E, leave[j])
            j += 1
    return E


@njit(cache=True)
def stock_order_blocked(cfg, piles, lens, fnd, left):
    """``dead_stock_order``'s test (see its docstring) with ``left`` redeals left."""
    n = lens[cfg[C_NRES]] + lens[cfg[C_STOCK]]
    return stock_order_bounds(cfg, piles, lens, fnd, left, np.empty(max(n, 1), np.int64))


@njit(cache=True)
def stock_order_bounds(cfg, piles, lens, fnd, left, D):
    """``dead_stock_order``'s test with ``left`` redeals left, leaving in ``D[:n]`` the
    lower bounds it reached on the time each sequence card can go home (valid only when it
    returns False: it stops at the first card it finds can never go home).

    Sequence positions: the waste bottom to top, then the stock in dealing order; rank
    slots ``16 * suit index + rank``; ``D`` holds the bounds. Each round recomputes, per
    slot, the smallest bound of its copies (``val``; "now" with a reserve copy) and, per
    suit, the largest ``val`` over the ranks each way needs (``up``, ``dn``), so a card's
    needs cost O(1)."""
    w = cfg[C_NRES]
    st = cfg[C_STOCK]
    nw = lens[w]
    ns = lens[st]
    n = nw + ns
    if n == 0:
        return False
    now = nw - 1
    never = (left + 1) * n
    ranks = cfg[C_RANKS]
    seq = np.empty(n, np.int64)
    for p in range(n):
        seq[p] = piles[w, p] if p < nw else piles[st, ns - 1 - (p - nw)]
        D[p] = max(p, now)
    first = np.full(64, -1, np.int64)
    second = np.full(64, -1, np.int64)
    loose = np.zeros(64, np.bool_)             # a copy in a reserve
    third = np.zeros(64, np.bool_)
    for r in range(cfg[C_NRES]):
        for i in range(lens[r]):
            loose[_slot(cfg, piles[r, i])] = True
    for p in range(n):
        slot = _slot(cfg, seq[p])
        if first[slot] < 0:
            first[slot] = p
        elif second[slot] < 0:
            second[slot] = p
        else:
            loose[slot] = True                 # a third copy: not in two-deck games; safe
            third[slot] = True
    ut = np.empty(4, np.int64)                 # foundation tops per suit index
    dt = np.empty(4, np.int64)
    for k in range(cfg[C_SUITS]):
        ut[k], dt[k] = _tops(cfg, fnd, k)
    # a rank's copies can all lie below a card only if none is in a reserve: the last of them
    low = np.full(64, n, np.int64)
    for slot in range(64):
        if not loose[slot] and first[slot] >= 0:
            low[slot] = first[slot] if second[slot] < 0 else second[slot]
    # with reinforcement a stock card from time E on may be taken by a reserve instead of
    # landing: only landings before E are certain (``dead_stock_order``'s refill clause)
    refill = cfg[C_REINF] == 1
    E = now + 1 if refill else _FAR            # a take takes a card still in the stock
    hres = np.full(64, now, np.int64)          # reserve copies' home bounds ("now" at first)
    if refill:
        seqnb, nbs, off = _reserve_cards(cfg, piles, lens, now, first)
    else:
        seqnb, nbs, off = np.empty(0, np.int64), np.empty((0, 2), np.int64), np.empty(0, np.int64)
    val = np.empty(64, np.int64)
    C = np.empty(n, np.int64)
    up = np.empty(64, np.int64)      # up[16k + m]: max val over ranks u+1..m
    dn = np.empty(64, np.int64)      # dn[16k + m]: max val over ranks m..d-1
    fresh = True                               # up and dn not computed yet
    for _ in range(64):                        # rounds; stopping early only weakens the test
        changed = False
        for slot in range(64):
            a = first[slot]
            if third[slot] or (loose[slot] and not refill):
                val[slot] = now
            elif loose[slot] and a < 0:
                val[slot] = hres[slot]
            elif loose[slot]:
                b = second[slot]
                val[slot] = min(hres[slot], D[a] if b < 0 else min(D[a], D[b]))
            elif a < 0:
                val[slot] = _FAR
            else:
                b = second[slot]
                val[slot] = D[a] if b < 0 else min(D[a], D[b])
        moved = fresh                          # did up or dn change this round?
        fresh = False
        for k in range(cfg[C_SUITS]):
            u, d = ut[k], dt[k]
            m0 = 16 * k
            acc = now
            for m in range(u + 1, ranks + 1):
                acc = max(acc, val[m0 + m])
                moved |= up[m0 + m] != acc
                up[m0 + m] = acc
            acc = now
            for m in range(d - 1, 0, -1):
                acc = max(acc, val[m0 + m])
                moved |= dn[m0 + m] != acc
                dn[m0 + m] = acc
        # _first_empty reads of what changes between rounds only up and dn (their entries
        # written above): with both as they were, it would give the same E and hres again
        # (and it did not find _DEAD then), so the round skips it (about a fifth of the
        # rounds, most of the test's time: benchmarks/notes/reinforcements.md)
        if refill and moved:                   # the reserves' bounds: a change is progress
            before = E + hres.sum()
            e = _first_empty(cfg, piles, lens, now, never, seqnb, nbs, off, up, dn, ut, dt, hres)
            if e == _DEAD:
                return True
            E = max(E, e)
            changed = E + hres.sum() != before
        for q in range(n):                     # needs, and ways closed in this pass
            c = seq[q]
            k = cfg[C_SIDX0 + c // 13]
            m0 = 16 * k
            r = c % 13 + 1
            u, d = ut[k], dt[k]
            lands = D[q] - D[q] % n + q        # c's landing in the pass D[q] lies in
            best = _FAR
            for way in range(2):
                if way == 0:
                    if r <= u:
                        continue
                    lo, hi = u + 1, r - 1
                    need = up[m0 + hi] if hi >= lo else now
                else:
                    if r >= d:
                        continue
                    lo, hi = r + 1, d - 1
                    need = dn[m0 + lo] if hi >= lo else now
                if lands <= need < lands + n and lands < E:  # all copies of a needed rank below c?
                    for m in range(lo, hi + 1):
                        if low[m0 + m] < q and val[m0 + m] >= lands:
                            need = lands + n
                            break
                best = min(best, need)
            if best > D[q]:
                D[q] = _in_window(best, q, n, E) if best < never else never
                changed = True
            if D[q] >= never:
                return True
        # cover, from the top down. C[p]: the largest bound over the cards that land on
        # seq[p] in pass 0 (its closure); a card's closure contains those of the cards it covers
        smax = -1                              # the largest bound above p
        for p in range(n - 1, -1, -1):
            t = D[p]
            cur = t
            k0 = t - t % n                     # the pass seq[p] is waited for in
            cap = k0 + n + p if k0 + n < never else _FAR      # its next landing frees it
            if k0 == 0:                        # pass 0: jump over the closures above
                x = p + 1
                while x < n and x <= cur and x < E:
                    cur = max(cur, C[x])
                    if C[x] >= n:
                        break
                    x = C[x] + 1
                v = min(cur, cap)
            else:                              # a later pass: plain scan
                x = p + 1
                while x < n and k0 + x <= cur:
                    if D[x] >= k0 + x and k0 + x < E:  # x lands on y in this pass
                        cur = max(cur, min(D[x], cap))
                    x += 1
                v = cur
            if v > t:
                D[p] = _in_window(v, p, n, E) if v < never else never
                changed = True
                if D[p] >= never:
                    return True
            C[p] = max(D[p], cur) if k0 == 0 else max(D[p], smax)
            if p < E:
                smax = max(smax, D[p])
        if not changed:
            break
    return False
