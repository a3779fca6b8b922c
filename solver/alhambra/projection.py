"""``next_pass_projection``'s test (the rule and its proof: ``SAFE_NEXT_PASS_PROJECTION`` in
``solver.alhambra.kernel``): with a redeal left, the sequence cards that cannot go home in
this pass (their ``dead_stock_order`` bound lies beyond it) are still in the sequence when
the next pass starts. The *projection* is that start with only those cards in the
sequence (in their order), the foundations as they are and every other card free; it
relaxes every next-pass start reachable from here, so if its lazy G0
(``solver.alhambra.relaxed``) is lost, so is this position."""

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
