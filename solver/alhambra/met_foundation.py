"""``met_foundation`` (one waste pile, no reinforcement, play goes on after the last pass):
once a suit's foundations have met (the down pile's top rank d is at most one above the up
pile's top rank u), a card that goes on next, c = u + 1 up or c = d - 1 down, is played at
once as the only move, provided each copy still in play of each of c's neighbours (rank
c +- 1, with K-A wrap) either can only go home after c on the same foundation, or is the
next card of the suit's other foundation.

Proof. Met, every rank of the suit has at most one copy in play, and it has one
destination: ranks above u go up, ranks below d go down. So c must reach the foundation
it is offered, and no other copy can. Let A be the position and B = A + (c home). With one
waste pile a waste card leaves only to a foundation, so a card y built on c in the waste
must go home before c. If y can only go home after c, that position is dead, so a winning
line L from A never builds such a y on c. Otherwise y is the other foundation's next card,
the only copy in play of its rank, so that foundation waits for y and y can go home
whenever it is on top; anything built on y in turn is c's rank (c itself is the only copy
in play, and it lies below) or y's other neighbour, which needs y or c home first: dead
again. So L builds at most y on c, and B plays y home straight from its reserve instead.
Every other move of c in L (onto the waste, home) only uncovers what is under c, which B
has uncovered already, and until c is home no other card can go onto c's foundation. So B
replays L move by move, skipping c's and y's moves: B's piles are L's without c (and y), a
waste without c takes the same cards as one with c below its top, a stock without c deals
the same cards in the same order, and any redeal L makes, B can make or does not need
(redeals are optional; play does not stop when the stock runs out, which is why
``stop_at_third_exhaustion`` excludes this rule, and no reserve refills from the stock,
which is why reinforcement does). So if A can be won, B can.

The plain "met" rule, without the neighbour proviso, is unsound (DESIGN.md section 3): a
K-A wrap can make a card that goes home much later buildable on c.
"""

from __future__ import annotations

from numba import njit

import solver.jit  # noqa: F401  (cache folder per kernel version; must precede @njit)

from solver.alhambra.stock_order import _tops
from solver.toolkit import C_RANKS, C_SIDX0, C_SUITS, fnd_accepts


@njit(cache=True, inline="always")
def _in_play(cfg, u, d, n):
    """Copies of rank ``n`` of a suit not yet on its foundations (up top u, down top d)."""
    return 2 - (1 if n <= u else 0) - (1 if n >= d else 0)


@njit(cache=True)
def met_safe(cfg, fnd, c):
    """The foundation ``c`` may go to under ``met_foundation``, or -1."""
    ranks = cfg[C_RANKS]
    k = cfg[C_SIDX0 + c // 13]
    up, down = k, cfg[C_SUITS] + k
    u, d = _tops(cfg, fnd, k)
    if d > u + 1:
        return -1
    r = c % 13 + 1
    if r == u + 1 and fnd_accepts(cfg, fnd, up, c):
        f, going_up = up, True
    elif r == d - 1 and fnd_accepts(cfg, fnd, down, c):
        f, going_up = down, False
    else:
        return -1
    for i in range(4):
        if i == 0:
            n = r - 1
        elif i == 1:
            n = r + 1
        elif i == 2:
            n = ranks if (r == 1 and ranks > 2) else 0      # K-A wrap
        else:
            n = 1 if (r == ranks and ranks > 2) else 0
        if n < 1 or n > ranks or _in_play(cfg, u, d, n) == 0:
            continue
        # in play, a rank above u goes up, below d goes down; it must follow c there, or be
        # the other foundation's next card
        if going_up and not ((n > u and n > r) or n == d - 1):
            return -1
        if not going_up and not ((n < d and n < r) or n == u + 1):
            return -1
    return f
