"""The Alhambra family's beam searches for wins (``solver.beam``): the score and the plan.

Only with reinforcement (The Reinforcements). There the depth-first search wins early or
not at all, and beams that keep the reserves in a good order win many of the deals it
leaves unknown. On Alhambra and Granada the search and the schedule model already decide
nearly every deal, so they run no beam (benchmarks/README.md, "The Reinforcements: beam
searches for wins").
"""

from __future__ import annotations

import numpy as np
from numba import njit

import solver.jit  # noqa: F401  (cache folder per kernel version; must precede @njit)

from solver.alhambra.slots import C_NRES, C_REDEALS, C_REINF, C_STOCK
from solver.toolkit import C_NF, C_RANKS, C_SUIT0, C_SUITS

W_HOME, W_BLOCK, W_LEFT = 0, 1, 2       # the weights: cards home, reserve inversions, stock left
NOT_NEEDED = 99                         # the urgency of a card no foundation of its suit can take
LEFT_PER_REDEAL = 50                    # a redeal left counts as this many stock cards

# (stock left, reserve inversions) per beam, tried in this order; cards home weigh 10 in
# each. On The Reinforcements games 1-100 (widths of 2,000) they won 25, 23, 22 and 18
# deals, 35 together; three more weightings won 3 more there and none of games 101-200,
# where these four won 36 (benchmarks/README.md).
PLAN_WEIGHTS = ((6.0, 10.0), (3.0, 10.0), (6.0, 3.0), (3.0, 3.0))
NODES_PER_WIDTH = 500                   # a budget of 1 M nodes: beams 2,000 states wide
MAX_WIDTH = 20_000                      # the beam's arrays grow with width x depth


@njit(cache=True)
def urgency(cfg, fnd, c):
    """How many cards of its suit must go home before ``c`` can (0: it can go now), by
    the nearer of its suit's two foundations; ``NOT_NEEDED`` when neither can take it."""
    s = cfg[C_SUITS]
    suit, r = c // 13, c % 13 + 1
    best = NOT_NEEDED
    for f in range(cfg[C_NF]):
        if cfg[C_SUIT0 + f % s] != suit:
            continue
        d = r - (fnd[f] + 1) if f < s else (cfg[C_RANKS] - fnd[f]) - r
        if 0 <= d < best:
            best = d
    return best


@njit(cache=True)
def score(cfg, state, weights):
    """Cards home, less the reserve cards that lie above a more urgent card (each one must
    leave before the card under it can go home), plus the stock cards and redeals left."""
    piles, lens, fnd = state.piles, state.lens, state.fnd
    home = 0
    for f in range(cfg[C_NF]):
        home += fnd[f]
    inversions = 0
    for r in range(cfg[C_NRES]):
        lowest = NOT_NEEDED
        for k in range(lens[r]):
            u = urgency(cfg, fnd, piles[r, k])
            if u > lowest:
                inversions += 1
            elif u < lowest:
                lowest = u
    left = lens[cfg[C_STOCK]] + LEFT_PER_REDEAL * (cfg[C_REDEALS] - state.scal[0])
    return weights[W_HOME] * home - weights[W_BLOCK] * inversions + weights[W_LEFT] * left


def plan(cfg, nodes: int) -> list[tuple[int, np.ndarray]]:
    """With reinforcement, the beams of ``PLAN_WEIGHTS`` (widths growing with the budget,
    at least 10 and at most ``MAX_WIDTH``); otherwise none."""
    if cfg[C_REINF] == 0:
        return []
    width = max(10, min(MAX_WIDTH, nodes // NODES_PER_WIDTH))
    out = []
    for left, inversions in PLAN_WEIGHTS:
        w = np.zeros(3, dtype=np.float64)
        w[W_HOME], w[W_BLOCK], w[W_LEFT] = 10.0, inversions, left
        out.append((width, w))
    return out
