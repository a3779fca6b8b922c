"""Prototype (issue 19): ``stock_order_bounds`` with bounds on the reserve cards too."""
from __future__ import annotations

import numpy as np
from numba import njit

from solver.alhambra.slots import C_NRES, C_STOCK
from solver.alhambra.stock_order import _FAR, _in_window, _slot, _tops
from solver.toolkit import C_RANKS, C_SIDX0, C_SUITS


@njit(cache=False)
def reserve_bounds(cfg, piles, lens, fnd, left, D):
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
    loose = np.zeros(64, np.bool_)             # a copy in a reserve: it counts "now"
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
    ut = np.empty(4, np.int64)                 # foundation tops per suit index
    dt = np.empty(4, np.int64)
    for k in range(cfg[C_SUITS]):
        ut[k], dt[k] = _tops(cfg, fnd, k)
    # a rank's copies can all lie below a card only if none is in a reserve: the last of them
    low = np.full(64, n, np.int64)
    for slot in range(64):
        if not loose[slot] and first[slot] >= 0:
            low[slot] = first[slot] if second[slot] < 0 else second[slot]
    nres = cfg[C_NRES]
    U = np.full((nres, piles.shape[1]), now, np.int64)
    H = np.full((nres, piles.shape[1]), now, np.int64)
    resH = np.full(64, _FAR, np.int64)          # per slot: the smallest bound of its reserve copies
    resU = np.full(64, _FAR, np.int64)
    nH = np.empty(64, np.int64)
    nU = np.empty(64, np.int64)
    for r in range(nres):
        for i in range(lens[r]):
            sl = _slot(cfg, piles[r, i])
            resH[sl] = now
            resU[sl] = now
    land = np.full(64, _FAR, np.int64)          # per slot: the first landing of a sequence copy
    for p in range(n):
        sl = _slot(cfg, seq[p])
        land[sl] = min(land[sl], max(p, now))
    val = np.empty(64, np.int64)
    C = np.empty(n, np.int64)
    up = np.empty(64, np.int64)      # up[16k + m]: max val over ranks u+1..m
    dn = np.empty(64, np.int64)      # dn[16k + m]: max val over ranks m..d-1
    for _ in range(64):                        # rounds; stopping early only weakens the test
        changed = False
        for slot in range(64):
            a = first[slot]
            v = resH[slot]
            if a >= 0:
                v = min(v, D[a])
                b = second[slot]
                if b >= 0:
                    v = min(v, D[b])
            val[slot] = v
        for k in range(cfg[C_SUITS]):
            u, d = ut[k], dt[k]
            m0 = 16 * k
            acc = now
            for m in range(u + 1, ranks + 1):
                acc = max(acc, val[m0 + m])
                up[m0 + m] = acc
            acc = now
            for m in range(d - 1, 0, -1):
                acc = max(acc, val[m0 + m])
                dn[m0 + m] = acc
        # reserve cards: uncovered once every card above has left; a card leaves home (its
        # needs) or onto a same-suit neighbour on the waste top
        for slot in range(64):
            nH[slot] = _FAR
            nU[slot] = _FAR
        for r in range(nres):
            u_cur = now
            for i in range(lens[r] - 1, -1, -1):
                if u_cur > U[r, i]:
                    U[r, i] = u_cur
                    changed = True
                c = piles[r, i]
                k = cfg[C_SIDX0 + c // 13]
                m0 = 16 * k
                rk = c % 13 + 1
                u, d = ut[k], dt[k]
                best = _FAR
                if rk > u:
                    best = min(best, up[m0 + rk - 1] if rk - 1 >= u + 1 else now)
                if rk < d:
                    best = min(best, dn[m0 + rk + 1] if rk + 1 <= d - 1 else now)
                hv = max(U[r, i], best)
                if hv >= never:
                    return True
                if hv > H[r, i]:
                    H[r, i] = hv
                    changed = True
                bld = _FAR
                for e in range(4):
                    if e == 0:
                        nb = rk - 1
                    elif e == 1:
                        nb = rk + 1
                    elif e == 2:
                        nb = ranks if (rk == 1 and ranks > 2) else 0
                    else:
                        nb = 1 if (rk == ranks and ranks > 2) else 0
                    if nb < 1 or nb > ranks:
                        continue
                    bld = min(bld, land[m0 + nb], resU[m0 + nb])
                lv = max(U[r, i], min(hv, bld))
                u_cur = max(u_cur, lv)
                sl = m0 + rk
                nH[sl] = min(nH[sl], H[r, i])
                nU[sl] = min(nU[sl], U[r, i])
        for slot in range(64):
            resH[slot] = nH[slot]
            resU[slot] = nU[slot]
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
                if lands <= need < lands + n:  # all copies of a needed rank below c?
                    for m in range(lo, hi + 1):
                        if low[m0 + m] < q and val[m0 + m] >= lands:
                            need = lands + n
                            break
                best = min(best, need)
            if best > D[q]:
                D[q] = _in_window(best, q, n) if best < never else never
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
                while x < n and x <= cur:
                    cur = max(cur, C[x])
                    if C[x] >= n:
                        break
                    x = C[x] + 1
                v = min(cur, cap)
            else:                              # a later pass: plain scan
                x = p + 1
                while x < n and k0 + x <= cur:
                    if D[x] >= k0 + x:         # x lands on y in this pass
                        cur = max(cur, min(D[x], cap))
                    x += 1
                v = cur
            if v > t:
                D[p] = _in_window(v, p, n) if v < never else never
                changed = True
                if D[p] >= never:
                    return True
            C[p] = max(D[p], cur) if k0 == 0 else max(D[p], smax)
            smax = max(smax, D[p])
        if not changed:
            break
    return False


@njit(cache=False)
def reserve_project(cfg, piles, lens, fnd, left, p2, l2):
    w = cfg[C_NRES]
    st = cfg[C_STOCK]
    nw = lens[w]
    ns = lens[st]
    n = nw + ns
    D = np.empty(max(n, 1), np.int64)
    if reserve_bounds(cfg, piles, lens, fnd, left, D):
        return -1
    l2[:] = 0
    nf = 0
    for r in range(w):
        for i in range(lens[r]):
            p2[0, nf] = piles[r, i]
            nf += 1
    kept = 0
    for q in range(n - 1, -1, -1):
        c = piles[w, q] if q < nw else piles[st, ns - 1 - (q - nw)]
        if D[q] >= n:
            p2[st, kept] = c
            kept += 1
        else:
            p2[0, nf] = c
            nf += 1
    l2[0] = nf
    l2[st] = kept
    return kept
