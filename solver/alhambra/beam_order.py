"""The Alhambra family's searches for wins (``solver.beam``, ``solver.nested``): the score
and the plan.

Only with reinforcement (The Reinforcements). There the depth-first search wins early or
not at all, and beams that keep the reserves in a good order win many of the deals it
leaves unknown. On Alhambra and Granada the search and the schedule model already decide
nearly every deal, so they run no beam (benchmarks/notes/reinforcements-searches-for-wins.md, "The Reinforcements: beam
searches for wins").
"""

from __future__ import annotations

import numpy as np
from numba import njit

import solver.jit  # noqa: F401  (cache folder per kernel version; must precede @njit)

from solver.alhambra.slots import C_NRES, C_REDEALS, C_REINF, C_STOCK
from solver.toolkit import C_NF, C_RANKS, C_SUIT0, C_SUITS

W_HOME, W_BLOCK, W_LEFT = 0, 1, 2       # the weights: cards home, reserve inversions, stock left
W_RES, W_WASTE_INV, W_TOPS = 3, 4, 5    # optional: reserve cards, waste inversions, reserve tops playable home
NOT_NEEDED = 99                         # the urgency of a card no foundation of its suit can take
LEFT_PER_REDEAL = 50                    # a redeal left counts as this many stock cards

# The beams' weightings, in the order they run; cards home weigh 10 in each. First
# (stock left, reserve inversions): on The Reinforcements games 1-100 (widths of 2,000)
# these won 25, 23, 22 and 18 deals, 35 together, and 36 of games 101-200.
PLAN_WEIGHTS = ((6.0, 10.0), (3.0, 10.0), (6.0, 3.0), (3.0, 3.0))
# Then (stock left, reserve inversions, reserve cards, waste inversions, playable reserve
# tops): as beams these six won 5 of the 60 deals of games 1-100 that the first four leave
# unknown at 1 M nodes, and 9 of the 64 of games 101-200 (benchmarks/notes/reinforcements-searches-for-wins.md); the
# nested searches 4-9 now use them.
MORE_WEIGHTS = ((6.0, 10.0, 2.0, 0.0, 0.0), (6.0, 10.0, 5.0, 0.0, 0.0), (6.0, 10.0, 0.0, 5.0, 0.0),
                (6.0, 10.0, 0.0, 0.0, 5.0), (3.0, 10.0, 3.0, 3.0, 3.0), (6.0, 5.0, 5.0, 5.0, 0.0))
# After those, weightings drawn at random (seeded: a plan is the same on every machine).
DRAWN_RANGES = ((1.0, 8.0), (2.0, 15.0), (0.0, 6.0), (0.0, 6.0), (0.0, 6.0))
NODES_PER_WIDTH = 500                   # a budget of 1 M nodes: beams 2,000 states wide
MAX_WIDTH = 2_000                       # wider beams won no more (games 1-14 at 20,000)
NODES_PER_BEAM = 1_000_000 // 6         # a budget of 1 M nodes: six slots (four beams, two nested searches)
BEAM_NOISE = 0.5                        # a beam's scores within half a point tie (broken at random)
# A nested search (``solver.nested``) of level 2: on the 60 deals of games 1-100 that the
# four beams leave unknown at 1 M nodes it won 5-8 alone, where the six beams after the first
# four won 5 together. Since its rollouts expand each state once it takes about one beam's
# time (median 1.5 s against 1.9 s; at most ``solver.nested.MAX_MOVES`` moves), and on the 86
# deals of games 1-200 that solver 0.28.0 left unknown at 2 M nodes (4, 13, 15 and 28 left out:
# proved lost) six more won 7; of the 6 deals of 1-200 that 0.28.0's four last beams won
# first, these six nested searches win 4 (benchmarks/notes/reinforcements-searches-for-wins.md, 2026-12-06). So after the
# four beams the plan runs nested searches only, each in one beam's slot.
NESTED_LEVEL = 2
NESTED_NOISE = 10.0                     # won 69 deals against 50 for a noise of 3 (a card home: 10)


@njit(cache=True)
def _next_ranks(cfg, fnd):
    """Per suit (0-3): the rank its up foundation takes next, and the rank its down
    foundation takes next (``urgency``'s two ends); a suit not in play gets bounds no
    card meets. Read once per score: each foundation of the suit is looked up once, not
    once per card (the score is about half of a beam's time)."""
    s = cfg[C_SUITS]
    up = np.full(4, 2 * cfg[C_RANKS] + NOT_NEEDED, dtype=np.int64)
    down = np.full(4, -NOT_NEEDED, dtype=np.int64)
    for k in range(s):
        suit = cfg[C_SUIT0 + k]
        up[suit] = fnd[k] + 1
        down[suit] = cfg[C_RANKS] - fnd[s + k]
    return up, down


@njit(cache=True)
def urgency(up, down, c):
    """How many cards of its suit must go home before ``c`` can (0: it can go now), by
    the nearer of its suit's two foundations (``_next_ranks``); ``NOT_NEEDED`` when
    neither can take it."""
    suit, r = c // 13, c % 13 + 1
    best = NOT_NEEDED
    d = r - up[suit]
    if 0 <= d < best:
        best = d
    d = down[suit] - r
    if 0 <= d < best:
        best = d
    return best


@njit(cache=True)
def _inversions(up, down, pile, n):
    """The cards of ``pile[:n]`` that lie above a more urgent card (``urgency``)."""
    count, lowest = 0, NOT_NEEDED
    for k in range(n):
        u = urgency(up, down, pile[k])
        if u > lowest:
            count += 1
        elif u < lowest:
            lowest = u
    return count


@njit(cache=True)
def score(cfg, state, weights):
    """Cards home, less the reserve cards that lie above a more urgent card (each one must
    leave before the card under it can go home), plus the stock cards and redeals left.
    Weights beyond the first three (``weighting``) add: less the cards in reserves, less
    the waste cards above a more urgent card, plus the reserve tops that can go home now."""
    piles, lens, fnd = state.piles, state.lens, state.fnd
    up, down = _next_ranks(cfg, fnd)
    home = 0
    for f in range(cfg[C_NF]):
        home += fnd[f]
    inversions = 0
    for r in range(cfg[C_NRES]):
        inversions += _inversions(up, down, piles[r], lens[r])
    left = lens[cfg[C_STOCK]] + LEFT_PER_REDEAL * (cfg[C_REDEALS] - state.scal[0])
    total = weights[W_HOME] * home - weights[W_BLOCK] * inversions + weights[W_LEFT] * left
    if weights.shape[0] > W_RES:
        nres = 0
        tops = 0
        for r in range(cfg[C_NRES]):
            nres += lens[r]
            if lens[r] > 0 and urgency(up, down, piles[r, lens[r] - 1]) == 0:
                tops += 1
        w = cfg[C_NRES]             # the one waste pile
        winv = _inversions(up, down, piles[w], lens[w])
        total += -weights[W_RES] * nres - weights[W_WASTE_INV] * winv + weights[W_TOPS] * tops
    return total


def weighting(k: int) -> np.ndarray:
    """The weights of the plan's beam ``k`` (0, 1, ...): ``PLAN_WEIGHTS``, then
    ``MORE_WEIGHTS``, then drawn from ``DRAWN_RANGES`` with seed ``k``."""
    if k < len(PLAN_WEIGHTS):
        left, inversions = PLAN_WEIGHTS[k]
        w = np.zeros(3, dtype=np.float64)   # no extra terms: the score of solver 0.16.0
        w[W_HOME], w[W_BLOCK], w[W_LEFT] = 10.0, inversions, left
        return w
    k2 = k - len(PLAN_WEIGHTS)
    if k2 < len(MORE_WEIGHTS):
        extra = MORE_WEIGHTS[k2]
    else:
        rng = np.random.default_rng(k)
        extra = tuple(rng.uniform(lo, hi) for lo, hi in DRAWN_RANGES)
    w = np.zeros(6, dtype=np.float64)
    w[W_HOME] = 10.0
    w[W_LEFT], w[W_BLOCK], w[W_RES], w[W_WASTE_INV], w[W_TOPS] = extra
    return w


def plan(cfg, nodes: int) -> list[tuple[str, int, float, np.ndarray]]:
    """With reinforcement, the searches for wins (``solver.driver.WIN_SEARCHES``): one per
    ``NODES_PER_BEAM`` nodes of the budget, at least the four beams of ``PLAN_WEIGHTS``,
    ``NODES_PER_WIDTH`` nodes a state wide (at least 10, at most ``MAX_WIDTH``); after those,
    nested searches (weightings 0, 1, 2, ..., noise ``NESTED_NOISE``): at 1 M nodes two, at
    2 M eight. Below 833,330 nodes (five slots) that is the four beams of solver 0.16.0.
    Without reinforcement: none."""
    if cfg[C_REINF] == 0:
        return []
    width = max(10, min(MAX_WIDTH, nodes // NODES_PER_WIDTH))
    slots = max(len(PLAN_WEIGHTS), nodes // NODES_PER_BEAM)
    out = [("beam", width, BEAM_NOISE, weighting(k)) for k in range(len(PLAN_WEIGHTS))]
    return out + [("nested", NESTED_LEVEL, NESTED_NOISE, weighting(k)) for k in range(slots - len(PLAN_WEIGHTS))]
