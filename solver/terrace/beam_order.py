"""The Terrace family's searches for wins (``solver.beam``, ``solver.nested``): the score
and the plan.

The depth-first search wins a Terrace-family deal in its first thousands of nodes or not at
all (benchmarks/notes/terrace.md), as it did The Reinforcements, where beams that keep the
piles in a good order won many of the deals it left unknown. The score here reads what
holds a Terrace game back: cards home, reserve cards still to play, and cards that lie
above a card needed sooner (in the reserve, the waste and the tableau), each of which must
move before the one under it can go home.
"""

from __future__ import annotations

import numpy as np
from numba import njit

import solver.jit  # noqa: F401  (cache folder per kernel version; must precede @njit)

from solver.terrace.accepts import _rank
from solver.terrace.slots import C_FP0, C_FSS, C_NTAB, C_STOCK, C_TAKEBACK, C_WASTE, S_BASE
from solver.toolkit import C_NF, C_RANKS, C_SUIT0

W_HOME, W_RES, W_BLOCK, W_WASTE, W_LEFT = range(5)   # the weights' slots
FAR = 99                                 # the distance of a card no foundation can take now

# The beams' weightings (cards home, reserve cards left, blocking cards, waste cards,
# stock cards left), in the order they run (benchmarks/notes/terrace.md).
PLAN_WEIGHTS = ((10.0, 3.0, 2.0, 0.5, -1.0), (10.0, 6.0, 4.0, 0.0, -1.0), (10.0, 3.0, 1.0, 1.0, -2.0),
                (10.0, 10.0, 2.0, 0.5, -0.5))
NODES_PER_WIDTH = 1_000                  # the default budget of 2 M nodes: beams 2,000 states wide
MAX_WIDTH = 2_000
TAKEBACK_NARROWING = 8                   # with foundation take-back a state has several times the moves
BEAM_NOISE = 0.5
# After the beams, nested searches of level 1 (``solver.nested``) with the same weightings:
# of the deals of games 1-200 that the search and the beams leave unknown at 2 M nodes they
# won 3 of Terrace's 6 and 4 of Blondes and Brunettes' 15 (0.2-40 s a deal for the four;
# benchmarks/notes/terrace.md).
NESTED_LEVEL = 1
NESTED_NOISE = 10.0
# A nested search's cost does not shrink with the budget (its rollouts play whole lines), so
# it runs only from this budget on, and not with foundation take-back (PySolFC's Queen of
# Italy: a deal's searches for wins took over ten minutes there).
NESTED_MIN_NODES = 1_000_000


@njit(cache=True)
def _distance(cfg, piles, lens, base, c):
    """How many cards some foundation that can take ``c`` still needs before it (0: it
    can go now); ``FAR`` when none can (each place of a foundation is filled once)."""
    ranks, fp0 = cfg[C_RANKS], cfg[C_FP0]
    j = (_rank(c) - base) % ranks
    best = FAR
    for f in range(cfg[C_NF]):
        k = lens[fp0 + f]
        if k > j or j - k >= best:
            continue
        tag = cfg[C_SUIT0 + f // 2]
        if cfg[C_FSS] == 1 or j == 0:
            if c // 13 != tag:
                continue
        elif c // 26 != (tag // 2) ^ (j & 1):
            continue
        best = j - k
    return best


@njit(cache=True)
def _blocking(cfg, piles, lens, base, p):
    """The cards of pile ``p`` that lie above a card needed sooner (``_distance``)."""
    count, lowest = 0, FAR
    for d in range(lens[p]):
        u = _distance(cfg, piles, lens, base, piles[p, d])
        if u > lowest:
            count += 1
        elif u < lowest:
            lowest = u
    return count


@njit(cache=True)
def score(cfg, state, weights):
    """Cards home, less the reserve cards left, less the cards of the reserve, the waste
    and the tableau that lie above a card needed sooner, less the waste cards, plus the
    stock cards left (``W_*`` weigh each)."""
    piles, lens, fnd = state.piles, state.lens, state.fnd
    home = 0
    for f in range(cfg[C_NF]):
        home += fnd[f]
    base = state.scal[S_BASE]
    block = 0
    if base != 0:
        for p in range(cfg[C_NTAB] + 2):          # the reserve, the tableau, the waste
            block += _blocking(cfg, piles, lens, base, p)
    return (weights[W_HOME] * home - weights[W_RES] * lens[0] - weights[W_BLOCK] * block
            - weights[W_WASTE] * lens[cfg[C_WASTE]] + weights[W_LEFT] * lens[cfg[C_STOCK]])


def weighting(k: int) -> np.ndarray:
    """The weights of the plan's beam ``k``."""
    return np.array(PLAN_WEIGHTS[k % len(PLAN_WEIGHTS)], dtype=np.float64)


def plan(cfg, nodes: int) -> list[tuple[str, int, float, np.ndarray]]:
    """The searches for wins after a search that ran out of nodes: the beams of
    ``PLAN_WEIGHTS``, ``NODES_PER_WIDTH`` nodes a state wide (at most ``MAX_WIDTH``, a
    ``TAKEBACK_NARROWING``-th of that with foundation take-back, at least 10), then, from
    ``NESTED_MIN_NODES`` on and without take-back, nested searches of ``NESTED_LEVEL`` with
    the same weightings. At 2 M nodes a beam takes about
    4-6 s on Blondes and Brunettes, a nested search 0.2-10 s (benchmarks/notes/terrace.md)."""
    width = min(MAX_WIDTH, nodes // NODES_PER_WIDTH)
    if cfg[C_TAKEBACK] == 1:
        width //= TAKEBACK_NARROWING
    width = max(10, width)
    beams = [("fresh_beam", width, BEAM_NOISE, weighting(k)) for k in range(len(PLAN_WEIGHTS))]
    if nodes < NESTED_MIN_NODES or cfg[C_TAKEBACK] == 1:
        return beams
    return beams + [("nested", NESTED_LEVEL, NESTED_NOISE, weighting(k)) for k in range(len(PLAN_WEIGHTS))]
