"""Prototype (issue 19): ``stock_order_bounds`` with bounds on the reserve cards too, and the
projection built on it (``reserve_project``): ``solver/alhambra/stock_order.py`` and
``projection.py`` patched at load time (``patched_relaxed.load_patched``).

A reserve card is uncovered once every card above it has left; a card leaves home (its
needs) or onto the waste onto a same-suit neighbour, at the earliest when one can be the
waste top (a sequence copy's first landing, a reserve copy's uncovering). A rank's value is
the smallest bound over its sequence copies and its reserve copies (no longer "now")."""
from patched_relaxed import load_patched

VAL_OLD = """            if loose[slot]:
                val[slot] = now
            elif a < 0:
                val[slot] = _FAR
            else:
                b = second[slot]
                val[slot] = D[a] if b < 0 else min(D[a], D[b])"""
VAL_NEW = """            v = resH[slot]
            if a >= 0:
                v = min(v, D[a])
                b = second[slot]
                if b >= 0:
                    v = min(v, D[b])
            val[slot] = v"""
NEEDS = "        for q in range(n):                     # needs, and ways closed in this pass"
RESERVES = """        for slot in range(64):
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
                    nb = (rk - 1, rk + 1, ranks if (rk == 1 and ranks > 2) else 0,
                          1 if (rk == ranks and ranks > 2) else 0)[e]
                    if 1 <= nb <= ranks:
                        bld = min(bld, land[m0 + nb], resU[m0 + nb])
                u_cur = max(u_cur, max(U[r, i], min(hv, bld)))
                sl = m0 + rk
                nH[sl] = min(nH[sl], H[r, i])
                nU[sl] = min(nU[sl], U[r, i])
        for slot in range(64):
            resH[slot] = nH[slot]
            resU[slot] = nU[slot]
"""
INIT_AT = "    val = np.empty(64, np.int64)\n"
INIT = """    nres = cfg[C_NRES]
    U = np.full((nres, piles.shape[1]), now, np.int64)
    H = np.full((nres, piles.shape[1]), now, np.int64)
    resH = np.full(64, _FAR, np.int64)
    resU = np.full(64, _FAR, np.int64)
    nH = np.empty(64, np.int64)
    nU = np.empty(64, np.int64)
    for r in range(nres):
        for i in range(lens[r]):
            sl = _slot(cfg, piles[r, i])
            resH[sl] = now
            resU[sl] = now
    land = np.full(64, _FAR, np.int64)
    for p in range(n):
        sl = _slot(cfg, seq[p])
        land[sl] = min(land[sl], max(p, now))
"""

stock_order = load_patched("reserve_stock_order", [(VAL_OLD, VAL_NEW), (NEEDS, RESERVES + NEEDS),
                                                    (INIT_AT, INIT + INIT_AT)], source="stock_order.py")
projection = load_patched("reserve_projection", [
    ("from solver.alhambra.stock_order import stock_order_bounds",
     "from reserve_stock_order import stock_order_bounds")], source="projection.py")
reserve_bounds = stock_order.stock_order_bounds
reserve_project = projection.project
