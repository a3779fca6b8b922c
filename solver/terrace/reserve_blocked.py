"""``reserve_blocked`` (no foundation take-back; the reserve empties only to the
foundations: no ``reserve_to_tableau``, no ``auto_reserve_first``): a dead-state test.

Claim: the position is lost if some reserve card A can never go to a foundation, where
"never" is tested as follows. The cards below A in the reserve cannot move before A (the
reserve gives only its top, and only to a foundation). A foundation f of height k can
take A only as its card number j = (rank(A) - base) mod ranks (0 the base), so only if
k <= j (heights never drop without take-back), if A has the suit (in suit, and always for
the base) or the colour (alternate colours: the tag's colour at even places, the other at
odd places) that place j asks, and if every place k..j-1 between can still be filled:
some card of that place's rank and suit (colour) is neither on a foundation (no card
leaves one) nor below A in the reserve. If no foundation passes, A stays in the reserve
for ever and the game is lost.

Only foundation plays make it fire (they alone take cards out of play or change the
reserve and the foundations), so ``gen_moves`` runs it at the root and after a base
choice or a move to a foundation; skipping it elsewhere only prunes less.
"""

from __future__ import annotations

import numpy as np
from numba import njit

import solver.jit  # noqa: F401  (cache folder per kernel version; must precede @njit)

from solver.terrace.accepts import _rank
from solver.terrace.slots import C_FP0, C_FSS, S_BASE
from solver.toolkit import C_NF, C_RANKS, C_SUIT0, C_SUITS


@njit(cache=True)
def reserve_blocked(cfg, piles, lens, scal):
    """``reserve_blocked``'s test (its proof: this module's docstring): some reserve card can never go to a
    foundation. False while the base rank is not known."""
    b = scal[S_BASE]
    ranks, nf, fp0, ns = cfg[C_RANKS], cfg[C_NF], cfg[C_FP0], cfg[C_SUITS]
    free = np.zeros(52, np.int64)          # copies of each card off the foundations and not below A
    for p in range(fp0):
        for d in range(lens[p]):
            free[piles[p, d]] += 1
    dead = False
    for i in range(lens[0] if b != 0 else 0):
        if i > 0:
            free[piles[0, i - 1]] -= 1     # now below the card looked at
        a = piles[0, i]
        j = (_rank(a) - b) % ranks
        reachable = False
        for f in range(nf):
            k = lens[fp0 + f]
            tag = cfg[C_SUIT0 + f // 2]
            if k > j:
                continue
            if cfg[C_FSS] == 1 or j == 0:
                if a // 13 != tag:
                    continue
            elif a // 26 != (tag // 2) ^ (j & 1):
                continue
            fillable = True
            for q in range(k, j):
                r = (b - 1 + q) % ranks
                cnt = 0
                if cfg[C_FSS] == 1 or q == 0:
                    cnt = free[tag * 13 + r]
                else:
                    for si in range(ns):
                        su = cfg[C_SUIT0 + si]
                        if su // 2 == (tag // 2) ^ (q & 1):
                            cnt += free[su * 13 + r]
                if cnt == 0:
                    fillable = False
                    break
            if fillable:
                reachable = True
                break
        if not reachable:
            dead = True
            break
    return dead
