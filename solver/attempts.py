"""The depth-first searches of a solve (``search_attempt``: one complete search, or a
streamlined one) and how a budget's nodes are spent on them (``attempt_plan``): the plain
move order, then shuffled orders with growing limits, with win-first attempts between them
where the family has a streamliner."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Iterator, Optional

import numpy as np

from solver.adapter import KernelAdapter, kernel_state
from solver.engine import Position
from solver.search import (BYTES_PER_SLOT, CTRL_LEN, DEPTH, FULL, GROW, LOST, MAX_MOVES_PER_NODE, RUNNING, STACK, WON,
                           X_CANGROW, X_HOME, X_STACKGROW, X_MAXDEPTH, X_NODES, X_RNG, X_SHUFFLE, X_STORED, rehash, run,
                           table_slots, unwind)

SLICE_NODES = 1 << 20                 # nodes between clock checks
INITIAL_TABLE_BYTES = 1 << 22
MAX_DEPTH = 1 << 22                  # levels of the path at most (a cyclic game's search can wander deep)
INITIAL_DEPTH = 1 << 16
MAX_STACK_MOVES = 1 << 27            # untried moves held at most (512 MiB)


@dataclass
class Attempt:
    """One depth-first search: its verdict status and the arrays its winning line lives in."""
    status: int
    reason: Optional[str]
    nodes: int
    states: int
    max_depth: int
    table_bytes: int
    most_home: int
    frames: np.ndarray
    moves: np.ndarray
    ctrl: np.ndarray


@dataclass
class LostTable:
    """A transposition table handed from search to search (acyclic games only): every
    state in it is lost."""
    tt: np.ndarray
    stored: int = 0


def _can_grow(frames: np.ndarray, moves: np.ndarray, nodes: int) -> bool:
    """Whether the path and move stacks may still double."""
    return frames.shape[0] < min(MAX_DEPTH, nodes + 2) or moves.shape[0] < MAX_STACK_MOVES


def _grown(frames: np.ndarray, moves: np.ndarray, nodes: int) -> tuple[np.ndarray, np.ndarray]:
    """The path and move stacks, each doubled within its limit, their contents kept."""
    depth = min(MAX_DEPTH, nodes + 2, 2 * frames.shape[0])
    f = np.empty((depth, 4), dtype=np.int64)
    f[:frames.shape[0]] = frames
    m = np.empty(min(MAX_STACK_MOVES, 2 * moves.shape[0]), dtype=np.int32)
    m[:moves.shape[0]] = moves
    return f, m


def search_attempt(ad: KernelAdapter, start_pos: Position, nodes: int, memory: int, deadline: float,
                   shuffle_seed: int = 0, progress: Optional[Callable[[int, int], None]] = None,
            cfg: Optional[np.ndarray] = None, lost: Optional[LostTable] = None,
            memo: Optional[np.ndarray] = None) -> Attempt:
    """Run one search from ``start_pos`` for at most ``nodes`` nodes and until ``deadline``
    (``time.perf_counter()``); ``shuffle_seed`` != 0 shuffles the move order within each
    move class (the win-first phase); ``cfg`` replaces the adapter's (a streamliner).

    With ``lost`` (only where ``ad.acyclic``) the search starts from that table and skips
    its states; when it stops unfinished, the states of its current path are taken out
    (``unwind``) and the table, holding only lost states again, is left in ``lost``.
    ``memo``: the kernel's own table, shared by the searches of a solve."""
    cfg = ad.cfg if cfg is None else cfg
    state, keys = kernel_state(ad, start_pos, memo)
    # The table starts small and doubles up to the byte budget: easy deals stay in cache.
    max_slots = table_slots(memory)
    if lost is not None:
        tt = lost.tt
        slots = tt.shape[0]
    else:
        # a short attempt stores at most ``nodes`` states: no need to clear a bigger table
        slots = min(max_slots, table_slots(INITIAL_TABLE_BYTES), table_slots(4 * BYTES_PER_SLOT * (nodes + 1)))
        tt = np.zeros((slots, 2), dtype=np.uint64)
    # The path is never longer than the node budget; the move stack holds every level's
    # untried moves. Both start small and double when the search fills them (``STACK``),
    # up to ``MAX_DEPTH`` levels and ``MAX_STACK_MOVES`` moves (running out there is
    # reported as unknown: memory).
    depth = min(INITIAL_DEPTH, nodes + 2)
    frames = np.empty((depth, 4), dtype=np.int64)
    moves = np.empty(depth * 64 + MAX_MOVES_PER_NODE, dtype=np.int32)
    ctrl = np.zeros(CTRL_LEN, dtype=np.int64)
    ctrl[X_STORED] = 0 if lost is None else lost.stored
    ctrl[X_CANGROW] = int(slots < max_slots)
    ctrl[X_STACKGROW] = int(_can_grow(frames, moves, nodes))
    ctrl[X_SHUFFLE] = int(shuffle_seed != 0)
    ctrl[X_RNG] = (shuffle_seed * 0x9E3779B97F4A7C15) % (1 << 63)
    reason = None
    while True:
        stop = min(nodes, int(ctrl[X_NODES]) + SLICE_NODES)
        status = run(ad.kernel, cfg, state, keys, tt, frames, moves, ctrl, stop)
        if progress is not None:
            progress(int(ctrl[X_NODES]), int(ctrl[X_STORED]))
        if status == GROW:
            slots *= 2
            bigger = np.zeros((slots, 2), dtype=np.uint64)
            rehash(tt, bigger, ctrl)
            tt = bigger
            ctrl[X_CANGROW] = int(slots < max_slots)
            continue
        if status == STACK:
            frames, moves = _grown(frames, moves, nodes)
            ctrl[X_STACKGROW] = int(_can_grow(frames, moves, nodes))
            continue
        if status != RUNNING:
            if status in (FULL, DEPTH):
                reason = "memory"
            break
        if ctrl[X_NODES] >= nodes:
            reason = "nodes"
            break
        if time.perf_counter() >= deadline:
            reason = "time"
            break
    if lost is not None:
        if status == RUNNING:
            unwind(ad.kernel, cfg, state, keys, tt, frames, moves, ctrl)
        lost.tt, lost.stored = tt, int(ctrl[X_STORED])
    return Attempt(status, reason, int(ctrl[X_NODES]), int(ctrl[X_STORED]), int(ctrl[X_MAXDEPTH]),
                    slots * BYTES_PER_SLOT, int(ctrl[X_HOME]), frames, moves, ctrl)


def reaches_goal(rules, goal: str, dominance: tuple, pos: Position, nodes: int, memory: int,
                 deadline: float) -> Optional[bool]:
    """Whether a line from ``pos`` under ``rules`` reaches the kernel goal ``goal`` (one of
    the family's ``GOALS``): True (one did), False (the search ended without: none does,
    as far as ``dominance``'s proofs carry over to that goal) or None (it ran out of
    ``nodes``, ``memory`` bytes or time)."""
    run = search_attempt(KernelAdapter(rules, dominance, goal), pos, nodes, memory, deadline)
    return True if run.status == WON else False if run.status == LOST else None


NO_VERDICT = -1                      # an attempt's status when it ended without a verdict

# Measured on Algerian games 1-2000 (benchmarks/notes/algerian.md): the plain order alone left 379
# unknown at 2 M nodes; restarts from 512 nodes growing by 1.4 won all 2000.
RESTART_FIRST = 512                  # nodes of the first attempt
RESTART_GROWTH = 1.4                 # each next attempt may use this many times more


# Measured on Alhambra games 101-400 at 1 M nodes (benchmarks/notes/alhambra.md): the growing
# schedule alone won 4; with every odd attempt streamlined 13; the whole budget in attempts
# of a constant 2,048 nodes 23, of 512 nodes 34 (a winning line is some 250-350 moves
# deep, so 128-node attempts never reach an end: 0); half of it before the growing
# schedule 28, interleaved with it as below 25. Interleaved, a lost deal costs about twice
# the nodes it costs the growing schedule alone, instead of half the budget (about the same
# where the searches share a ``LostTable``). Games 1-100 under solver 0.5.0: ratio 1, 3 and
# 8 with every 2nd, 4th or no attempt streamlined won 31-34 (noise).
WIN_FIRST_ATTEMPT = 512              # nodes of each win-first attempt
WIN_FIRST_RATIO = 1                  # win-first nodes per node of the next complete search
STREAM_EVERY = 2                     # every this many win-first attempts one is streamlined


def search_mode(restarts: bool) -> str:
    """How a budget's nodes are spent, as recorded with every result (``attempt_plan``)."""
    return (f"restarts(first={RESTART_FIRST},growth={RESTART_GROWTH},"
            f"win_first={WIN_FIRST_ATTEMPT}x)" if restarts else "plain")


def attempt_plan(total: int, has_streamliner: bool) -> Iterator[tuple[int, int, bool]]:
    """(shuffle seed, node limit, streamlined) of each search ``solve`` runs with restarts,
    made as they are needed (a budget of 10^15 nodes is millions of attempts).

    Without a streamliner: ``win_first_schedule``. With one, the growing schedule's
    complete searches are interleaved with a *win-first phase*: before each complete
    search of n nodes come about n nodes of short attempts (``WIN_FIRST_ATTEMPT`` nodes,
    fresh shuffled orders, every other one streamlined); the last complete search takes
    what is left. The seeds never repeat, so no order is tried twice."""
    if not has_streamliner:
        for seed, n in win_first_schedule(total):
            yield seed, n, False
        return
    first = min(RESTART_FIRST, total)
    yield 0, first, False
    spent, seed, short, n = first, 1, 0, RESTART_FIRST
    while True:
        n = int(n * RESTART_GROWTH)
        k = max(1, WIN_FIRST_RATIO * n // WIN_FIRST_ATTEMPT)
        if spent + k * WIN_FIRST_ATTEMPT + n * (1 + RESTART_GROWTH) > total:
            break
        for _ in range(k):
            yield seed, WIN_FIRST_ATTEMPT, short % STREAM_EVERY == 0
            seed, short, spent = seed + 1, short + 1, spent + WIN_FIRST_ATTEMPT
        yield seed, n, False
        seed, spent = seed + 1, spent + n
    if total > spent:
        yield seed, total - spent, False


def marking_last(items: Iterable) -> Iterator[tuple[bool, Any]]:
    """(is it the last item, item) of each item, looking one ahead."""
    it = iter(items)
    try:
        prev = next(it)
    except StopIteration:
        return
    for item in it:
        yield False, prev
        prev = item
    yield True, prev


def win_first_schedule(total: int, first: int = RESTART_FIRST, growth: float = RESTART_GROWTH):
    """(shuffle seed, node budget) of each attempt: the plain move order first, then shuffled
    orders with budgets growing by ``growth``; the last attempt gets what is left."""
    seed, spent, nodes = 0, 0, first
    while True:
        left = total - spent
        n = left if nodes * (1 + growth) > left else nodes
        yield seed, n
        spent += n
        if spent >= total:
            return
        seed += 1
        nodes = int(nodes * growth)
