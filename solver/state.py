"""The packed search state shared by every family kernel, and its hashing.

A kernel state is a handful of numpy arrays, mutated in place by make/undo:

* ``piles``  int8[NP, MAXH]: every pile that holds a varying sequence of cards (reserves,
  tableau, waste piles and the stock, each bottom to top; the stock's top is the next card
  to deal), as card codes 0..51 (``solver.cards``);
* ``lens``   int32[NP]: pile heights;
* ``fnd``    int32[NF]: foundation card counts (a foundation's contents follow from its
  base, direction and count, so the count is all that is stored);
* ``h``      uint64[2]: two independent 64-bit Zobrist hashes of all of the above
  plus ``scal``, updated incrementally on every push and pop;
* ``scal``   int64[NSCAL]: small counters (redeals used, phase) with their own keys.

The two copies of a card share a code, so they hash alike: positions that differ only
by which copy lies where are one state.

The arrays travel together as a ``KernelState`` and the random keys as ``ZobristKeys``
(named tuples, which numba passes as one argument and whose fields it reads by name).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

import solver.jit  # noqa: F401  (cache folder per kernel version; must precede @njit)

NSCAL = 4            # scalar slots: 0 redeals used, 1 phase, 2-3 reserved for families
SCAL_VALUES = 16     # each scalar hashes values 0..15
ZOBRIST_SEED = 0x5EED_CA4D


class KernelState(NamedTuple):
    """One search state: the arrays above, mutated in place by make/undo."""
    piles: np.ndarray
    lens: np.ndarray
    fnd: np.ndarray
    scal: np.ndarray
    h: np.ndarray
    memo: np.ndarray     # a family's table kept for a whole solve (``solver.kernels``)


class ZobristKeys(NamedTuple):
    """The random keys of pile cards, foundation counts and scalars (``zobrist_tables``)."""
    zp: np.ndarray
    zf: np.ndarray
    zs: np.ndarray


def new_state(n_piles: int, max_height: int, n_foundations: int, memo: np.ndarray | None = None) -> KernelState:
    """Zeroed arrays of one state, with ``memo`` (default: an empty one of two slots)."""
    return KernelState(np.zeros((n_piles, max_height), dtype=np.int8), np.zeros(n_piles, dtype=np.int32),
                       np.zeros(n_foundations, dtype=np.int32), np.zeros(NSCAL, dtype=np.int64),
                       np.zeros(2, dtype=np.uint64), np.zeros((3, 2), dtype=np.uint64) if memo is None else memo)


def zobrist_tables(n_piles: int, max_height: int, n_foundations: int, max_count: int) -> ZobristKeys:
    """Random keys: zp[2, NP, MAXH, 52], zf[2, NF, MAXC+1], zs[2, NSCAL, SCAL_VALUES]."""
    rng = np.random.default_rng(ZOBRIST_SEED)
    hi = np.iinfo(np.uint64).max

    def draw(shape):
        return rng.integers(0, hi, size=shape, dtype=np.uint64, endpoint=True)

    return ZobristKeys(draw((2, n_piles, max_height, 52)), draw((2, n_foundations, max_count + 1)),
                       draw((2, NSCAL, SCAL_VALUES)))


@njit(cache=True, inline="always")
def push(piles, lens, h, zp, p, c):
    """Put card ``c`` on top of pile ``p``."""
    d = lens[p]
    piles[p, d] = c
    lens[p] = d + 1
    h[0] ^= zp[0, p, d, c]
    h[1] ^= zp[1, p, d, c]


@njit(cache=True, inline="always")
def pop(piles, lens, h, zp, p):
    """Take the top card off pile ``p``."""
    d = lens[p] - 1
    c = piles[p, d]
    lens[p] = d
    h[0] ^= zp[0, p, d, c]
    h[1] ^= zp[1, p, d, c]
    return c


@njit(cache=True, inline="always")
def set_count(fnd, h, zf, f, n):
    """Set foundation ``f``'s card count to ``n``."""
    o = fnd[f]
    h[0] ^= zf[0, f, o] ^ zf[0, f, n]
    h[1] ^= zf[1, f, o] ^ zf[1, f, n]
    fnd[f] = n


@njit(cache=True, inline="always")
def set_scalar(scal, h, zs, k, v):
    o = scal[k]
    h[0] ^= zs[0, k, o] ^ zs[0, k, v]
    h[1] ^= zs[1, k, o] ^ zs[1, k, v]
    scal[k] = v


@njit(cache=True)
def full_hash(state, keys, h):
    """Hash ``state`` from scratch into ``h`` (to start a search, and to check the
    incremental hash in tests)."""
    piles, lens, fnd, scal = state.piles, state.lens, state.fnd, state.scal
    zp, zf, zs = keys.zp, keys.zf, keys.zs
    h[0] = 0
    h[1] = 0
    for p in range(lens.shape[0]):
        for d in range(lens[p]):
            c = piles[p, d]
            h[0] ^= zp[0, p, d, c]
            h[1] ^= zp[1, p, d, c]
    for f in range(fnd.shape[0]):
        h[0] ^= zf[0, f, fnd[f]]
        h[1] ^= zf[1, f, fnd[f]]
    for k in range(scal.shape[0]):
        h[0] ^= zs[0, k, scal[k]]
        h[1] ^= zs[1, k, scal[k]]
