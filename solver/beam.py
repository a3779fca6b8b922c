"""A beam search for wins, over any family's kernel (the contract of ``solver.kernels``).

Depth by depth it keeps the ``width`` states with the best scores (the family's
``beam_score`` with one set of weights), distinct by key, and expands only those. It is
incomplete by design: it may drop every winning line, so a beam that finds no win proves
nothing (``solver.driver`` reports no verdict from it); a win it finds is a line of kernel
moves that the driver certifies on the reference engine like any other.

Why: on The Reinforcements the depth-first search wins within a few thousand nodes or not
at all, and the deals it leaves unknown are often won by lines a beam that keeps reserve
cards in a good order reaches (benchmarks/notes/reinforcements-searches-for-wins.md). The ties between equal scores are
broken at random from ``seed``, so a beam is deterministic. Its signature is a win
search's (``solver.driver.WIN_SEARCHES``): ``width`` is its size.
"""

from __future__ import annotations

import numpy as np
from numba import njit

import solver.jit  # noqa: F401  (cache folder per kernel version; must precede @njit)

from solver.dispatch import beam_score, gen_moves, is_won, make_move, undo_move

MAX_BEAM_DEPTH = 1000        # moves of a line at most (an Alhambra-family win: about 150-250)
MOVES_PER_STATE = 1024       # the move buffer of one state (the search's ``MAX_MOVES_PER_NODE``: larger than any family's move count)
CHILDREN_PER_STATE = 64      # candidates kept per state on average (the rest of a layer is skipped)
STALL_LAYERS = 150           # a fresh beam's layers without a new card home before it stops


@njit(cache=True)
def _load(state, P, L, F, S, H, i):
    state.piles[:, :] = P[i]
    state.lens[:] = L[i]
    state.fnd[:] = F[i]
    state.scal[:] = S[i]
    state.h[:] = H[i]


@njit(cache=True)
def _store(state, P, L, F, S, H, i):
    P[i] = state.piles
    L[i] = state.lens
    F[i] = state.fnd
    S[i] = state.scal
    H[i] = state.h


@njit(cache=True, inline="always")
def _slot(seen, hq):
    """The slot of the open-addressing set that holds key ``hq`` (non-zero), or the free
    slot where its probe ends."""
    mask = np.int64(seen.shape[0] - 1)
    slot = np.int64(hq & np.uint64(mask))
    while seen[slot] != 0 and seen[slot] != hq:
        slot = (slot + np.int64(1)) & mask
    return slot


@njit(cache=True)
def _insert(seen, hq):
    """Put key ``hq`` (non-zero) into the set; False if it was there."""
    slot = _slot(seen, hq)
    if seen[slot] == hq:
        return False
    seen[slot] = hq
    return True


@njit(cache=True)
def _contains(seen, hq):
    """Whether key ``hq`` (non-zero) is in the set."""
    return seen[_slot(seen, hq)] == hq


@njit(cache=True)
def _home(state):
    n = 0
    for f in range(state.fnd.shape[0]):
        n += state.fnd[f]
    return n


@njit(cache=True)
def beam(kernel, cfg, state, keys, width, noise, weights, seed):
    """Search from ``state`` (left as it was), the ties within ``noise`` broken at random.
    Returns (won, path, expansions, most home):
    ``path`` the kernel moves of a winning line (empty without one), ``expansions`` the
    moves played and taken back, the beam's nodes."""
    return _beam(kernel, cfg, state, keys, width, noise, weights, seed, False)


@njit(cache=True)
def fresh_beam(kernel, cfg, state, keys, width, noise, weights, seed):
    """``beam`` that never keeps a state it kept in an earlier layer, and stops when
    ``STALL_LAYERS`` layers in a row bring no card home beyond the most so far: where
    lines of play repeat states (cards that move back and forth), a plain beam spends
    its width going round the same positions, to its last layer."""
    return _beam(kernel, cfg, state, keys, width, noise, weights, seed, True)


@njit(cache=True)
def _beam(kernel, cfg, state, keys, width, noise, weights, seed, fresh):
    """``beam``; with ``fresh``, ``fresh_beam``."""
    np.random.seed(seed)
    NP, MH = state.piles.shape
    NF, NS = state.fnd.shape[0], state.scal.shape[0]
    P = np.zeros((2, width, NP, MH), dtype=np.int8)
    L = np.zeros((2, width, NP), dtype=np.int32)
    F = np.zeros((2, width, NF), dtype=np.int32)
    S = np.zeros((2, width, NS), dtype=np.int64)
    H = np.zeros((2, width, 2), dtype=np.uint64)
    par = np.zeros((MAX_BEAM_DEPTH, width), dtype=np.int32)    # a state's parent in the layer before
    mov = np.zeros((MAX_BEAM_DEPTH, width), dtype=np.int32)    # ... and the move from it
    cap = width * CHILDREN_PER_STATE
    cs = np.zeros(cap, dtype=np.float64)
    cp = np.zeros(cap, dtype=np.int32)
    cm = np.zeros(cap, dtype=np.int32)
    ch = np.zeros(cap, dtype=np.uint64)
    moves = np.zeros(MOVES_PER_STATE, dtype=np.int32)
    tsize = 1
    while tsize < 4 * width:
        tsize *= 2
    seen = np.zeros(tsize, dtype=np.uint64)
    vsize = 2
    if fresh:
        while vsize < 2 * width * MAX_BEAM_DEPTH:
            vsize *= 2
    visited = np.zeros(vsize, dtype=np.uint64)     # with ``fresh``: every state kept so far
    if fresh:
        _insert(visited, state.h[0] | np.uint64(1))
    RP, RL, RF, RS, RH = P[1, :1].copy(), L[1, :1].copy(), F[1, :1].copy(), S[1, :1].copy(), H[1, :1].copy()
    _store(state, RP, RL, RF, RS, RH, 0)          # the root, to leave ``state`` as it came
    _store(state, P[0], L[0], F[0], S[0], H[0], 0)
    n, cur = 1, 0
    most = _home(state)
    expansions = 0
    won_at, won_parent, won_move = -1, 0, 0
    if is_won(kernel, cfg, state):
        return True, np.zeros(0, dtype=np.int32), 0, most
    improved = 0                 # the last layer that brought a card home beyond the most so far
    for d in range(MAX_BEAM_DEPTH):
        if fresh and d - improved > STALL_LAYERS:
            break
        nc = 0
        for i in range(n):
            _load(state, P[cur], L[cur], F[cur], S[cur], H[cur], i)
            k = gen_moves(kernel, cfg, state, moves, 0, -1)
            if nc + k > cap:
                break
            for j in range(k):
                m = moves[j]
                info = make_move(kernel, cfg, state, keys, m)
                expansions += 1
                if is_won(kernel, cfg, state):
                    won_at, won_parent, won_move = d, i, m
                    undo_move(kernel, cfg, state, keys, m, info)
                    break
                cs[nc] = beam_score(kernel, cfg, state, weights) + np.random.random() * noise
                cp[nc], cm[nc], ch[nc] = i, m, state.h[0] | np.uint64(1)
                nc += 1
                undo_move(kernel, cfg, state, keys, m, info)
            if won_at >= 0:
                break
        if won_at >= 0 or nc == 0:
            break
        order = np.argsort(-cs[:nc])
        seen[:] = 0
        nxt, n2 = 1 - cur, 0
        for t in range(nc):
            q = order[t]
            if fresh and _contains(visited, ch[q]):
                continue
            if not _insert(seen, ch[q]):      # (only states kept enter it: it never fills)
                continue
            if fresh:
                _insert(visited, ch[q])
            _load(state, P[cur], L[cur], F[cur], S[cur], H[cur], cp[q])
            make_move(kernel, cfg, state, keys, cm[q])
            if _home(state) > most:
                most = _home(state)
                improved = d
            _store(state, P[nxt], L[nxt], F[nxt], S[nxt], H[nxt], n2)
            par[d, n2], mov[d, n2] = cp[q], cm[q]
            n2 += 1
            if n2 == width:
                break
        n, cur = n2, nxt
    _load(state, RP, RL, RF, RS, RH, 0)
    if won_at < 0:
        return False, np.zeros(0, dtype=np.int32), expansions, most
    path = np.zeros(won_at + 1, dtype=np.int32)
    path[won_at] = won_move
    i = won_parent
    for e in range(won_at - 1, -1, -1):
        path[e] = mov[e, i]
        i = par[e, i]
    return True, path, expansions, most
