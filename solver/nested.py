"""Nested rollouts for wins, over any family's kernel (the contract of ``solver.kernels``).

A *rollout* plays greedily from a state: at each step the move whose result scores best
by the family's ``beam_score`` (plus uniform noise up to ``noise``, so that near ties go
either way), until the game is won or no move is left. Its value is the cards home at
its end. A *level-1* search plays from the root, at each step trying every move, playing
a rollout after it, and following the best line any rollout found so far (it is never
forgotten, so the value only grows: nested Monte Carlo search). A *level-2* search does
the same with a level-1 search in place of each rollout.

Like the beam (``solver.beam``) it is incomplete by design: no win proves nothing, and a
win is a line of kernel moves that the driver certifies on the reference engine.

Why: on The Reinforcements the deals the depth-first search leaves unknown need a long
line that keeps twelve-card reserves in order; a level-2 search looks ahead along whole
lines at every step: on the 60 deals of games 1-100 that 1 M nodes leave unknown one such
search won 5-8, as many as six beams together or more, in the time of about two beams
(benchmarks/notes/reinforcements-searches-for-wins.md, "The Reinforcements: nested searches for wins"); since rollouts
expand each state once (``Seen``), with the same lines, in about one beam's time (a median
of 1.5 s against 1.9), and a level-2 search plays no more than about ``MAX_MOVES`` moves.
The noise comes from ``seed``, so a search is deterministic.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

import solver.jit  # noqa: F401  (cache folder per kernel version; must precede @njit)

from solver.beam import MAX_BEAM_DEPTH, MOVES_PER_STATE, _home
from solver.dispatch import beam_score, gen_moves, is_won, make_move, undo_move
from solver.state import full_hash

MAX_LINE = MAX_BEAM_DEPTH       # moves of a search's own steps at most (a win: about 150-400)
BUF = 4 * MAX_LINE              # a line: its steps, then the best line found from the last one
SEED_STRIDE = 1_000_003         # a level-2 search seeds its level-1 searches seed * this + k
# A level-2 search ends after the step in which its moves pass this. Where lines are long
# (The Reinforcements 241 and 804: 88 cards home) a search takes 4 M moves and more; the
# level-2 searches that won there took 15 k to 2.1 M (benchmarks/notes/reinforcements-searches-for-wins.md, 2026-12-06).
MAX_MOVES = 2_000_000


class Seen(NamedTuple):
    """The states a nested search's rollouts have expanded, each with its moves and the
    score of each move's result: an open-addressing table by the state's two Zobrist keys
    (``key0``, ``key1``; both zero: a free slot) pointing into ``moves``/``scores``
    (``at``, ``size``); ``fill[0]`` entries used, ``fill[1]`` states stored. Rollouts from
    sibling moves meet the same states again and again (The Reinforcements 658: of the
    1.08 M states a level-2 search expanded, 13 % were distinct; benchmarks/notes/reinforcements-searches-for-wins.md), so
    a rollout expands a state once. It relies on this: a state's moves (``gen_moves`` with
    no last move) and their scores follow from its position, which its positional hash
    (``full_hash``) tells apart. The table stops taking states when three quarters full or
    when the entries run out; those are expanded each time."""
    key0: np.ndarray
    key1: np.ndarray
    at: np.ndarray
    size: np.ndarray
    moves: np.ndarray
    scores: np.ndarray
    fill: np.ndarray


# A level-2 search on The Reinforcements 241 stores 214 k states and 344 k moves
SEEN_SLOTS = 1 << 20            # states: at most 3/4 of this; 28 MB
SEEN_ENTRIES = 1 << 21          # moves and their scores: 24 MB


@njit(cache=True)
def new_seen(slots, entries):
    """An empty ``Seen`` (``slots`` a power of two)."""
    return Seen(np.zeros(slots, np.uint64), np.zeros(slots, np.uint64), np.zeros(slots, np.int64),
                np.zeros(slots, np.int32), np.zeros(entries, np.int32), np.zeros(entries, np.float64),
                np.zeros(2, np.int64))


@njit(cache=True)
def _expand(kernel, cfg, state, keys, weights, seen, moves, scores, count):
    """The moves of ``state`` into ``moves`` and the score of each one's result into
    ``scores``; returns how many. From ``seen`` when the state is there, else generated,
    each move played, scored and taken back, and stored. ``count[0]`` counts the moves
    either way, so a search's count is the same with or without ``seen``. The states are
    told apart by their positional hash (``full_hash``), not by the search's key: where
    that key is canonical (the Terrace family hashes the tableau as a multiset of piles)
    two states with one key can be the same position with its piles in another order,
    whose moves name other piles."""
    hp = np.empty(2, dtype=np.uint64)
    full_hash(state, keys, hp)
    h0, h1 = hp[0], hp[1]
    if h0 == 0 and h1 == 0:
        h1 = np.uint64(1)              # (0, 0) marks a free slot
    mask = seen.key0.shape[0] - 1
    slot = np.int64(h0 & np.uint64(mask))
    while seen.key0[slot] != 0 or seen.key1[slot] != 0:
        if seen.key0[slot] == h0 and seen.key1[slot] == h1:
            k, a = seen.size[slot], seen.at[slot]
            moves[:k] = seen.moves[a:a + k]
            scores[:k] = seen.scores[a:a + k]
            count[0] += k
            return k
        slot = (slot + 1) & mask
    k = gen_moves(kernel, cfg, state, moves, 0, -1)
    for j in range(k):
        info = make_move(kernel, cfg, state, keys, moves[j])
        count[0] += 1
        scores[j] = beam_score(kernel, cfg, state, weights)
        undo_move(kernel, cfg, state, keys, moves[j], info)
    a = seen.fill[0]
    if 4 * (seen.fill[1] + 1) <= 3 * seen.key0.shape[0] and a + k <= seen.moves.shape[0]:
        seen.key0[slot], seen.key1[slot], seen.at[slot], seen.size[slot] = h0, h1, a, k
        seen.moves[a:a + k] = moves[:k]
        seen.scores[a:a + k] = scores[:k]
        seen.fill[0] = a + k
        seen.fill[1] += 1
    return k


@njit(cache=True)
def _rollout(kernel, cfg, state, keys, weights, noise, line, infos, moves, scores, count, seen):
    """The greedy line from ``state`` (left as it came) into ``line``; returns (cards home
    at its end, its length, whether it wins). ``count[0]`` counts the moves played and
    taken back (``_expand``)."""
    n = 0
    while n < MAX_LINE and not is_won(kernel, cfg, state):
        k = _expand(kernel, cfg, state, keys, weights, seen, moves, scores, count)
        if k == 0:
            break
        best, chosen = -np.inf, moves[0]
        for j in range(k):
            s = scores[j] + np.random.random() * noise
            if s > best:
                best, chosen = s, moves[j]
        infos[n] = make_move(kernel, cfg, state, keys, chosen)
        line[n] = chosen
        n += 1
    home, won = _home(state), is_won(kernel, cfg, state)
    for t in range(n - 1, -1, -1):
        undo_move(kernel, cfg, state, keys, line[t], infos[t])
    return home, n, won


@njit(cache=True)
def _follow(kernel, cfg, state, keys, best, best_len, out, played, n, whole):
    """Play the best line's first move (all of it if ``whole``: it wins) onto ``out``
    and drop it from ``best``; returns the new length of ``out``."""
    steps = best_len if whole else 1
    for t in range(steps):
        played[n] = make_move(kernel, cfg, state, keys, best[t])
        out[n] = best[t]
        n += 1
    best[:best_len - steps] = best[steps:best_len].copy()
    return n


@njit(cache=True)
def _end(kernel, cfg, state, keys, out, played, n):
    """(cards home, length, won) of the line ``out[:n]`` played; then take it back."""
    home, won = _home(state), is_won(kernel, cfg, state)
    for t in range(n - 1, -1, -1):
        undo_move(kernel, cfg, state, keys, out[t], played[t])
    return home, n, won


@njit(cache=True)
def _level1(kernel, cfg, state, keys, weights, noise, seed, out, count, seen):
    """A level-1 search from ``state`` (left as it came): its line into ``out``; returns
    (cards home at its end, its length, whether it wins). A line that wins is taken at once."""
    np.random.seed(seed)
    moves = np.zeros(MOVES_PER_STATE, dtype=np.int32)
    inner = np.zeros(MOVES_PER_STATE, dtype=np.int32)
    scores = np.zeros(MOVES_PER_STATE, dtype=np.float64)
    line = np.zeros(BUF, dtype=np.int32)
    infos = np.zeros(BUF, dtype=np.int64)
    best = np.zeros(BUF, dtype=np.int32)    # the best line found, from the current state
    played = np.zeros(BUF, dtype=np.int64)
    best_len, best_home, n = 0, -1, 0
    while n < MAX_LINE and not is_won(kernel, cfg, state):
        k = gen_moves(kernel, cfg, state, moves, 0, -1)
        if k == 0:
            break
        won = False
        for j in range(k):
            info = make_move(kernel, cfg, state, keys, moves[j])
            count[0] += 1
            home, ln, won = _rollout(kernel, cfg, state, keys, weights, noise, line, infos, inner, scores, count,
                                     seen)
            undo_move(kernel, cfg, state, keys, moves[j], info)
            if home > best_home or won:
                best_home, best_len = home, ln + 1
                best[0] = moves[j]
                best[1:ln + 1] = line[:ln]
            if won:
                break
        n = _follow(kernel, cfg, state, keys, best, best_len, out, played, n, won)
        best_len -= 1
    return _end(kernel, cfg, state, keys, out, played, n)


@njit(cache=True)
def _level2(kernel, cfg, state, keys, weights, noise, seed, out, count, seen):
    """A level-2 search from ``state`` (left as it came), as ``_level1`` with a level-1
    search after each move; a line that wins is played out at once. Once ``count`` has
    passed ``MAX_MOVES`` it takes no step more and plays out the best line found."""
    moves = np.zeros(MOVES_PER_STATE, dtype=np.int32)
    line = np.zeros(BUF, dtype=np.int32)
    best = np.zeros(BUF, dtype=np.int32)    # the best line found, from the current state
    played = np.zeros(BUF, dtype=np.int64)
    best_len, best_home, n, calls = 0, -1, 0, 0
    while n < MAX_LINE and count[0] < MAX_MOVES and not is_won(kernel, cfg, state):
        k = gen_moves(kernel, cfg, state, moves, 0, -1)
        if k == 0:
            break
        tried = moves[:k].copy()
        won = False
        for j in range(k):
            info = make_move(kernel, cfg, state, keys, tried[j])
            count[0] += 1
            home, ln, won = _level1(kernel, cfg, state, keys, weights, noise, seed * SEED_STRIDE + calls, line,
                                    count, seen)
            calls += 1
            undo_move(kernel, cfg, state, keys, tried[j], info)
            if home > best_home or won:
                best_home, best_len = home, ln + 1
                best[0] = tried[j]
                best[1:ln + 1] = line[:ln]
            if won:
                break
        n = _follow(kernel, cfg, state, keys, best, best_len, out, played, n, won)
        best_len -= 1
    if count[0] >= MAX_MOVES and best_len > 0 and not is_won(kernel, cfg, state):   # stopped: the best line, played out
        n = _follow(kernel, cfg, state, keys, best, best_len, out, played, n, True)
    return _end(kernel, cfg, state, keys, out, played, n)


@njit(cache=True)
def nested(kernel, cfg, state, keys, level, noise, weights, seed):
    """A nested search of ``level`` (1 or 2) from ``state`` (left as it was). Returns (won,
    path, expansions, most home): ``path`` the kernel moves of a winning line (empty
    without one), ``expansions`` the moves played and taken back."""
    out = np.zeros(BUF, dtype=np.int32)
    count = np.zeros(1, dtype=np.int64)
    # undo restores every card's place, not what lies above a pile's height: keep the root
    piles, lens, fnd, scal, h = state.piles.copy(), state.lens.copy(), state.fnd.copy(), state.scal.copy(), \
        state.h.copy()
    seen = new_seen(SEEN_SLOTS, SEEN_ENTRIES)
    if level == 1:
        home, n, won = _level1(kernel, cfg, state, keys, weights, noise, seed, out, count, seen)
    else:
        np.random.seed(seed)
        home, n, won = _level2(kernel, cfg, state, keys, weights, noise, seed, out, count, seen)
    state.piles[:, :] = piles
    state.lens[:] = lens
    state.fnd[:] = fnd
    state.scal[:] = scal
    state.h[:] = h
    if not won:
        return False, np.zeros(0, dtype=np.int32), count[0], home
    return True, out[:n].copy(), count[0], home
