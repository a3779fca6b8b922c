"""``next_pass_projection``'s test (its proof below): with a redeal left, the sequence cards that cannot go home in
this pass (their ``dead_stock_order`` bound lies beyond it) are still in the sequence when
the next pass starts. The *projection* is that start with only those cards in the
sequence (in their order), the foundations as they are and every other card free; it
relaxes every next-pass start reachable from here, so if its lazy G0
(``solver.alhambra.relaxed``) is lost, so is this position.

The proof of ``next_pass_projection`` (its flag: ``solver.alhambra.flags.SAFE_NEXT_PASS_PROJECTION``)
-----------------------------------------------------------------------------------------------------

``next_pass_projection`` (one waste pile, no reinforcement, play after the last pass): a
dead-state test with redeals left, at a deal's start (a search's root in the first pass
with at most one card dealt; after every deal it costs far more than it prunes). A
position S with redeals left is lost when its
*projection* onto the next pass's start is lost in lazy G0 (``solver.alhambra.projection``).

Let ``D`` be the bounds ``stock_order_blocked`` reaches on S (``dead_stock_order``: a lower
bound on the time each sequence card can go home, this pass's landings being the times
below n, the sequence's length; if the test fires, S is dead already). The projection
R(S) is the next pass's start (waste empty, one redeal fewer left) whose stock holds, in
S's sequence order, the *kept* cards: those with ``D[q] >= n``; S's foundations; every
other card not home free.

1. *A kept card is in the waste when this pass ends.* It cannot go home before time n
   (``SAFE_DEAD_STOCK_ORDER``), and with one waste pile and no reinforcement a sequence
   card leaves only for a foundation. So S is not won in this pass (R keeps a card), and
   every winning line from S redeals; let P be the position just after that redeal.
2. *R(S) relaxes P in G0.* Within a pass cards go onto the waste only on top and leave only
   from the top, and a redeal turns the waste over into the stock in the same order, so
   P's sequence holds the kept cards in S's order, among others (built cards, cards not
   kept that stayed). P's foundations hold S's and more. So, card code by card code, R
   has no more cards home and no more in the sequence than P: the rest of each code is
   free in R, at least as many copies as P has free, plus one for each copy home or in
   the sequence in P but not in R. Both have the same redeals left.
3. *Monotony of G0: if G0(P) is won, G0(R) is.* From R, first play home from the free
   cards what P has home beyond S (each foundation's missing ranks in order, free by 2).
   Then follow P's winning G0 line, with the non-kept sequence cards free: a deal of a
   kept card is the same deal (R's stock is P's with the other cards left out, in order);
   a deal of another card is no move; P's waste top home is the same move when it is
   kept (R's waste is P's without the other cards, so the tops agree), else that card's
   free copy home; fills are free cards, of which R has at least P's. A redeal of P is
   R's too, unless R's waste is empty: then R's sequence is empty and R is won. Where the
   redeal deals its first card at once and P's first card is not kept, R deals its own
   first card early; R needs nothing of it before P deals it, and P deals it before any
   other redeal (it is in P's stock), after which the two agree again.
4. So G0(R) lost gives G0(P) lost for every P, hence P lost (``SAFE_FREE_RESERVE_RELAXATION``
   1, with its laziness and reductions 2-5), and S lost. A G0 state refuted here is lost
   wherever it is met, so the projections share the solve's memo with the root's
   relaxation; a search stopped at ``PROJECTION_CAP`` moves proves nothing and is not
   retried (its state is kept as tried).

Cheaper forms measured and left out (benchmarks/notes/alhambra-proofs-of-loss.md): ``dead_stock_order`` alone on
the projection never fired where ``dead_stock_order`` on S did not.
"""

from __future__ import annotations

import numpy as np
from numba import njit

import solver.jit  # noqa: F401  (cache folder per kernel version; must precede @njit)

from solver.alhambra.relaxed import G_LOST, g0_solve
from solver.alhambra.slots import C_NRES, C_REDEALS, C_STOCK
from solver.alhambra.stock_order import stock_order_bounds

PROJECTION_CAP = 2_000             # relaxed moves a projection's G0 search may make


@njit(cache=True)
def project(cfg, piles, lens, fnd, left, p2, l2):
    """Write the projection of the position onto the next pass's start into ``p2``, ``l2``
    (the free cards in reserve 0, the kept cards in the stock, the waste empty); return how
    many cards it keeps in the sequence, or -1 when ``stock_order_bounds`` finds the
    position dead already."""
    w = cfg[C_NRES]
    st = cfg[C_STOCK]
    nw = lens[w]
    ns = lens[st]
    n = nw + ns
    D = np.empty(max(n, 1), np.int64)
    if stock_order_bounds(cfg, piles, lens, fnd, left, D):
        return -1
    l2[:] = 0
    nf = 0
    for r in range(w):
        for i in range(lens[r]):
            p2[0, nf] = piles[r, i]
            nf += 1
    kept = 0
    for q in range(n - 1, -1, -1):         # the stock row holds its top (dealt first) last
        c = piles[w, q] if q < nw else piles[st, ns - 1 - (q - nw)]
        if D[q] >= n:                      # no way home in this pass: still there after it
            p2[st, kept] = c
            kept += 1
        else:
            p2[0, nf] = c
            nf += 1
    l2[0] = nf
    l2[st] = kept
    return kept


@njit(cache=True)
def next_pass_lost(cfg, piles, lens, fnd, left, memo):
    """Whether the position, with ``left`` redeals left, is lost by its projection: dead
    by ``stock_order_bounds`` already, or its projection's lazy G0 lost within
    ``PROJECTION_CAP`` moves (refuted states kept in ``memo``, the solve's G0 memo). False
    with no redeal left or nothing kept."""
    if left < 1 or lens[cfg[C_NRES]] + lens[cfg[C_STOCK]] == 0:
        return False
    p2 = np.zeros_like(piles)
    l2 = np.zeros_like(lens)
    kept = project(cfg, piles, lens, fnd, left, p2, l2)
    if kept <= 0:
        return kept < 0
    verdict, _ = g0_solve(cfg, p2, l2, fnd, cfg[C_REDEALS] - left + 1, memo, PROJECTION_CAP, False)
    return verdict == G_LOST
