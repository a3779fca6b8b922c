"""The family-independent depth-first search and its transposition table (numba).

One mutable state (``solver.state``), make/undo, an explicit preallocated stack, no
recursion and no state copies. Every state reached is looked up in a transposition table
of 128-bit fingerprints (two independent 64-bit Zobrist hashes) in open addressing over
two numpy arrays whose size is fixed by a byte budget. A state already in the table is
not expanded again; since the table is never cleared or overwritten, the search visits
every reachable state at most once and ends "lost" only when all have been expanded. When
the table reaches its maximum load the search stops with ``unknown: memory``: it never
forgets a state, so a full table can never make a verdict unsound.

False prune: two different states share a 128-bit fingerprint with probability about
n^2 / 2^129 for n stored states: below 1e-20 for n = 1e9.

The search is resumable: all of its state lives in arrays, so it runs in slices of nodes
and Python checks the clock and draws progress between slices.

The driver names no family: it takes a ``solver.dispatch.Kernel`` and calls the kernel
contract (``solver.kernels``) through ``solver.dispatch``, so numba compiles (and caches)
one driver per family from this one source. ``state`` is a ``solver.state.KernelState``,
``keys`` its ``ZobristKeys``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

import solver.jit  # noqa: F401  (cache folder per kernel version; must precede @njit)

from solver.dispatch import gen_moves, is_won, make_move, move_class, undo_move
from solver.state import full_hash

RUNNING, WON, LOST, FULL, DEPTH, GROW, STACK = 0, 1, 2, 3, 4, 5, 6
MAX_MOVES_PER_NODE = 1024

# ctrl slots
# X_HOME: the most cards on the foundations in any state reached (how far the best line got)
# X_STACKGROW: 1 while the caller can give the search a longer path and move stack (``STACK``)
X_DEPTH, X_NODES, X_STARTED, X_STORED, X_MAXDEPTH, X_CANGROW, X_SHUFFLE, X_RNG, X_HOME, X_STACKGROW = range(10)
CTRL_LEN = 10
BYTES_PER_SLOT = 16


def table_slots(memory_bytes: int) -> int:
    """The largest power of two of 16-byte slots that fits the byte budget (at least 2)."""
    slots = max(2, memory_bytes // BYTES_PER_SLOT)
    return 1 << (slots.bit_length() - 1)


@njit(cache=True, inline="always")
def _probe_start(k0, mask):
    """The slot where key ``k0`` (first half, low bit set) starts its linear probe."""
    return np.int64(k0 >> np.uint64(17)) & mask


@njit(cache=True, inline="always")
def tt_insert(tt, h, ctrl):
    """0: already present; 1: inserted; 2: the table is at its maximum load.

    ``tt`` is uint64[slots, 2]: both halves of a key share a cache line."""
    k0 = h[0] | np.uint64(1)          # never 0: 0 marks an empty slot
    k1 = h[1]
    mask = tt.shape[0] - 1
    i = _probe_start(k0, mask)
    while True:
        e = tt[i, 0]
        if e == 0:
            if ctrl[X_STORED] >= (tt.shape[0] * 3) // 4:
                return 2
            tt[i, 0] = k0
            tt[i, 1] = k1
            ctrl[X_STORED] += 1
            return 1
        if e == k0 and tt[i, 1] == k1:
            return 0
        i = (i + 1) & mask


@njit(cache=True, inline="always")
def _note_home(fnd, ctrl):
    """Keep the most cards on the foundations seen so far (every family counts cards per
    foundation in ``fnd``)."""
    total = 0
    for f in range(fnd.shape[0]):
        total += fnd[f]
    if total > ctrl[X_HOME]:
        ctrl[X_HOME] = total


@njit(cache=True)
def _shuffle(kernel, cfg, moves, start, n, ctrl):
    """Win-first ordering: keep the family's move classes in order, shuffle within each.

    Only the order of the moves changes, never the set, so the search stays complete; the
    win-first phase uses it with restarts (``solver.driver``)."""
    keys = np.empty(n, dtype=np.int64)
    x = ctrl[X_RNG]
    for i in range(n):
        x = x * 6364136223846793005 + 1442695040888963407     # wraps: a 64-bit LCG
        keys[i] = (move_class(kernel, cfg, moves[start + i]) << 32) | ((x >> 33) & 0x7FFFFFFF)
    ctrl[X_RNG] = x
    for i in range(1, n):                 # insertion sort: n is small
        k = keys[i]
        m = moves[start + i]
        j = i - 1
        while j >= 0 and keys[j] > k:
            keys[j + 1] = keys[j]
            moves[start + j + 1] = moves[start + j]
            j -= 1
        keys[j + 1] = k
        moves[start + j + 1] = m


@njit(cache=True)
def run(kernel, cfg, state, keys, tt, frames, moves, ctrl, node_stop):
    """Search until a verdict, a full table or stack, or ``node_stop`` nodes in all.

    frames[d] = (first move index, move count, next move, undo info) of depth d.
    Returns RUNNING (resume by calling again), GROW (the table is at its maximum load
    but may double: call ``grow`` then again), STACK (the path or the move stack is full
    and ``ctrl[X_STACKGROW]`` says they may grow: enlarge both, then call again), WON,
    LOST, FULL or DEPTH. Growing either changes nothing else: the search goes on exactly
    as with larger arrays from the start."""
    maxd = frames.shape[0]
    maxm = moves.shape[0]
    fnd, h = state.fnd, state.h
    if ctrl[X_STARTED] == 0:
        ctrl[X_STARTED] = 1
        _note_home(fnd, ctrl)
        if is_won(kernel, cfg, state):
            ctrl[X_DEPTH] = -1
            return WON
        tt_insert(tt, h, ctrl)
        frames[0, 0] = 0
        frames[0, 1] = gen_moves(kernel, cfg, state, moves, 0, -1)
        if ctrl[X_SHUFFLE] != 0:
            _shuffle(kernel, cfg, moves, 0, frames[0, 1], ctrl)
        frames[0, 2] = 0
        ctrl[X_DEPTH] = 0
    d = ctrl[X_DEPTH]
    nodes = ctrl[X_NODES]
    while True:
        if nodes >= node_stop:
            ctrl[X_DEPTH] = d
            ctrl[X_NODES] = nodes
            return RUNNING
        if frames[d, 2] < frames[d, 1]:
            m = moves[frames[d, 0] + frames[d, 2]]
            frames[d, 2] += 1
            info = make_move(kernel, cfg, state, keys, m)
            nodes += 1
            frames[d, 3] = info
            _note_home(fnd, ctrl)
            if is_won(kernel, cfg, state):
                ctrl[X_DEPTH] = d
                ctrl[X_NODES] = nodes
                return WON
            r = tt_insert(tt, h, ctrl)
            if r == 0:
                undo_move(kernel, cfg, state, keys, m, info)
                continue
            start = frames[d, 0] + frames[d, 1]
            if r == 2 and ctrl[X_CANGROW] == 1:
                # The caller doubles the table and calls again; this move is retried.
                undo_move(kernel, cfg, state, keys, m, info)
                frames[d, 2] -= 1
                ctrl[X_DEPTH] = d
                ctrl[X_NODES] = nodes - 1
                return GROW
            if r == 1 and (d + 1 >= maxd or start + MAX_MOVES_PER_NODE > maxm) and ctrl[X_STACKGROW] == 1:
                # The caller enlarges the stacks and calls again; this move is retried, as new.
                tt_delete(tt, h, ctrl)
                undo_move(kernel, cfg, state, keys, m, info)
                frames[d, 2] -= 1
                ctrl[X_DEPTH] = d
                ctrl[X_NODES] = nodes - 1
                return STACK
            if r == 2 or d + 1 >= maxd or start + MAX_MOVES_PER_NODE > maxm:
                undo_move(kernel, cfg, state, keys, m, info)
                ctrl[X_DEPTH] = d
                ctrl[X_NODES] = nodes
                return FULL if r == 2 else DEPTH
            d += 1
            if d > ctrl[X_MAXDEPTH]:
                ctrl[X_MAXDEPTH] = d
            frames[d, 0] = start
            frames[d, 1] = gen_moves(kernel, cfg, state, moves, start, m)
            if ctrl[X_SHUFFLE] != 0:
                _shuffle(kernel, cfg, moves, start, frames[d, 1], ctrl)
            frames[d, 2] = 0
        else:
            if d == 0:
                ctrl[X_NODES] = nodes
                return LOST
            d -= 1
            m = moves[frames[d, 0] + frames[d, 2] - 1]
            undo_move(kernel, cfg, state, keys, m, frames[d, 3])


@njit(cache=True, inline="always")
def tt_delete(tt, h, ctrl):
    """Remove key ``h`` if present (backward-shift deletion keeps every probe chain whole)."""
    k0 = h[0] | np.uint64(1)
    mask = tt.shape[0] - 1
    i = _probe_start(k0, mask)
    while True:
        e = tt[i, 0]
        if e == 0:
            return
        if e == k0 and tt[i, 1] == h[1]:
            break
        i = (i + 1) & mask
    j = i
    while True:
        j = (j + 1) & mask
        e = tt[j, 0]
        if e == 0:
            break
        home = _probe_start(e, mask)
        # move entry j back into the hole at i unless its home lies cyclically in (i, j]
        if (j > i and (home <= i or home > j)) or (j < i and (home <= i and home > j)):
            tt[i, 0] = e
            tt[i, 1] = tt[j, 1]
            i = j
    tt[i, 0] = 0
    tt[i, 1] = 0
    ctrl[X_STORED] -= 1


@njit(cache=True)
def unwind(kernel, cfg, state, keys, tt, frames, moves, ctrl):
    """After a search stopped unfinished: remove the states of the current path (root
    included) from the table and undo the path back to the root.

    Where every move leads to a new state (an acyclic game), each other state in the table
    has been expanded to the end without a win: it is lost, and the table can be handed to
    the next search, which then skips those states."""
    d = ctrl[X_DEPTH]
    while True:
        tt_delete(tt, state.h, ctrl)
        if d == 0:
            return
        d -= 1
        m = moves[frames[d, 0] + frames[d, 2] - 1]
        undo_move(kernel, cfg, state, keys, m, frames[d, 3])


@njit(cache=True)
def rehash(old, new, ctrl):
    """Move every key of table ``old`` into the empty, larger table ``new``."""
    ctrl[X_STORED] = 0
    h = np.empty(2, dtype=np.uint64)
    for i in range(old.shape[0]):
        if old[i, 0] != 0:
            h[0] = old[i, 0]
            h[1] = old[i, 1]
            tt_insert(new, h, ctrl)


def winning_path(frames: np.ndarray, moves: np.ndarray, ctrl: np.ndarray) -> list[int]:
    """The kernel moves from the root to the won state (after ``run`` returned WON)."""
    d = int(ctrl[X_DEPTH])
    return moves[frames[:d + 1, 0] + frames[:d + 1, 2] - 1].tolist()


@njit(cache=True)
def line_hashes(kernel, cfg, state, keys, path):
    """The positional hashes (two words) of the states along ``path`` from ``state``
    (left unchanged), and the undo record of each move."""
    n = path.shape[0]
    h = np.empty(2, dtype=np.uint64)
    h0 = np.empty(n + 1, dtype=np.uint64)
    h1 = np.empty(n + 1, dtype=np.uint64)
    infos = np.empty(n, dtype=np.int64)
    full_hash(state, keys, h)
    h0[0] = h[0]
    h1[0] = h[1]
    for i in range(n):
        infos[i] = make_move(kernel, cfg, state, keys, path[i])
        full_hash(state, keys, h)
        h0[i + 1] = h[0]
        h1[i + 1] = h[1]
    for i in range(n - 1, -1, -1):
        undo_move(kernel, cfg, state, keys, path[i], infos[i])
    return h0, h1, infos


@njit(cache=True, inline="always")
def _latest_on_line(order, sorted_h0, h1, h):
    """The last index of the line whose state has hash ``h``, -1 if none."""
    best = -1
    lo = np.searchsorted(sorted_h0, h[0])
    while lo < sorted_h0.shape[0] and sorted_h0[lo] == h[0]:
        j = order[lo]
        if h1[j] == h[1] and j > best:
            best = j
        lo += 1
    return best


@njit(cache=True)
def resplice(kernel, cfg, state, keys, path, depth, node_cap, buf):
    """Shorten a winning line by bounded re-search: from each state on it, a depth-first
    search of at most ``depth`` moves looks for a later state of the line (or any won
    state) reached in fewer moves than the line takes; the best such detour replaces the
    segment. ``node_cap`` bounds the moves made in all, shared evenly among the states
    still ahead. ``buf`` holds ``depth`` move lists of ``MAX_MOVES`` each.

    Returns the new line, the undo record of each of its moves, and the nodes spent. As
    in ``shortcut``, states are matched by positional hash: later moves name piles. The
    line is certified by the reference engine like any other."""
    n = path.shape[0]
    h0, h1, _ = line_hashes(kernel, cfg, state, keys, path)
    order = np.argsort(h0)
    sorted_h0 = h0[order]
    width = buf.shape[0] // depth
    h = np.empty(2, dtype=np.uint64)
    cnt = np.zeros(depth, dtype=np.int64)
    idx = np.zeros(depth, dtype=np.int64)
    seq = np.zeros(depth, dtype=np.int32)
    seq_info = np.zeros(depth, dtype=np.int64)
    best_seq = np.zeros(depth, dtype=np.int32)
    out = np.empty(n, dtype=np.int32)
    out_info = np.empty(n, dtype=np.int64)
    k = 0
    i = 0
    nodes = 0
    while i < n:
        cap = nodes + (node_cap - nodes) // (n - i)
        best_j = i + 1
        best_len = 1
        best_seq[0] = path[i]
        d = 0
        cnt[0] = gen_moves(kernel, cfg, state, buf, 0, -1)
        idx[0] = 0
        while True:
            if idx[d] >= cnt[d] or nodes >= cap:
                if d == 0:
                    break
                d -= 1
                undo_move(kernel, cfg, state, keys, seq[d], seq_info[d])
                continue
            m = buf[d * width + idx[d]]
            idx[d] += 1
            seq_info[d] = make_move(kernel, cfg, state, keys, m)
            seq[d] = m
            nodes += 1
            steps = d + 1
            if is_won(kernel, cfg, state):
                j = n
            else:
                full_hash(state, keys, h)
                j = _latest_on_line(order, sorted_h0, h1, h)
            if j - steps > best_j - best_len:
                best_j = j
                best_len = steps
                best_seq[:steps] = seq[:steps]
            if d + 1 < depth and j < n:
                d += 1
                cnt[d] = gen_moves(kernel, cfg, state, buf, d * width, -1)
                idx[d] = 0
            else:
                undo_move(kernel, cfg, state, keys, m, seq_info[d])
        for q in range(best_len):
            out_info[k] = make_move(kernel, cfg, state, keys, best_seq[q])
            out[k] = best_seq[q]
            k += 1
        i = best_j
    for q in range(k - 1, -1, -1):
        undo_move(kernel, cfg, state, keys, out[q], out_info[q])
    return out[:k].copy(), out_info[:k].copy(), nodes
