"""What takes what in the Terrace family: a foundation or a tableau card taking a card,
shared by the kernel's move generation and its prunes."""

from __future__ import annotations

from numba import njit

import solver.jit  # noqa: F401  (cache folder per kernel version; must precede @njit)

from solver.terrace.slots import C_FP0, C_FSS, C_NOBASE, C_TSS, S_BASE
from solver.toolkit import C_RANKS, C_SUIT0


@njit(cache=True, inline="always")
def _rank(c):
    return c % 13 + 1


# The helpers called many times a node take arrays, not the state tuple: a call takes a
# tuple's arrays as new references (measured: several times slower on this kernel).
@njit(cache=True)
def foundation_accepts(cfg, piles, lens, scal, f, c):
    """Foundation ``f`` takes card ``c``: on an empty one the base rank of its suit tag; else
    the next rank (K-A wrap) in alternate colours or in suit, up to 13 cards."""
    p = cfg[C_FP0] + f
    n = lens[p]
    ranks = cfg[C_RANKS]
    ok = False
    if n == 0:
        ok = scal[S_BASE] != 0 and _rank(c) == scal[S_BASE] and c // 13 == cfg[C_SUIT0 + f // 2]
    elif n < ranks:
        top = piles[p, n - 1]
        if _rank(c) == _rank(top) % ranks + 1:
            ok = c // 13 == top // 13 if cfg[C_FSS] == 1 else c // 26 != top // 26
    return ok


@njit(cache=True)
def tableau_accepts(cfg, scal, top, c):
    """A tableau card ``top`` takes ``c``: the rank below (A-K wrap), alternate colours or in
    suit; never on a base-rank card with ``no_build_on_base_rank``."""
    ranks = cfg[C_RANKS]
    ok = False
    if not (cfg[C_NOBASE] == 1 and _rank(top) == scal[S_BASE]):
        if _rank(c) == (_rank(top) - 2) % ranks + 1:
            ok = c // 13 == top // 13 if cfg[C_TSS] == 1 else c // 26 != top // 26
    return ok
