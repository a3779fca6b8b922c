"""``dead_waste_block`` (one waste pile): a dead-state test. In the last pass (no redeal
left) a position is lost when some waste card y lies above cards that y needs: each way
home for y (up, needing every rank between the up top and y; down, every rank between y
and the down top) has a rank all of whose copies in play lie below y in the waste.

Proof. With one waste pile a waste card can leave only to a foundation, and with no redeal
left nothing else ever takes cards out of the waste; new cards only go on top. So every
card below y stays below y until y has gone home. y goes home up only once each rank
between the up top and y has had a copy put on the up foundation (foundations never wrap
and never give a card back), and a copy below y cannot be put there before y has gone;
likewise down. If both ways are blocked, y never goes home and the game is not won.
The position is kept as a node without moves (a leaf), so it reads as lost. Reinforcement
and ``stop_at_third_exhaustion`` change nothing here: refills take stock cards, never
waste cards, and a stricter end only removes lines.
"""

from __future__ import annotations

from numba import njit

import solver.jit  # noqa: F401  (cache folder per kernel version; must precede @njit)

from solver.alhambra.slots import C_NRES
from solver.alhambra.stock_order import _tops
from solver.toolkit import C_RANKS, C_SIDX0, C_SUITS


@njit(cache=True)
def waste_blocked(cfg, piles, lens, fnd):
    """``dead_waste_block``'s test (its proof: this module's docstring): some card of waste
    pile 0 can go home neither up nor down because a rank it needs has all its copies in
    play below it.

    Bit sets of ranks, 16 bits per suit index: ``once``/``twice`` = ranks seen at least
    once/twice below the card looked at; ``one``/``two`` = ranks with one/two copies in play."""
    w = cfg[C_NRES]
    n = lens[w]
    if n < 2:
        return False
    ranks = cfg[C_RANKS]
    s = cfg[C_SUITS]
    full = (1 << (ranks + 1)) - 2                       # bits 1..ranks
    one = 0
    two = 0
    for k in range(s):
        u, d = _tops(cfg, fnd, k)
        le_u = (1 << (u + 1)) - 2                       # ranks 1..u: a copy is up
        ge_d = full & ~((1 << d) - 1)                   # ranks d..: a copy is down
        one |= ((le_u ^ ge_d) & full) << (16 * k)
        two |= (full & ~le_u & ~ge_d) << (16 * k)
    once = 0
    twice = 0
    for i in range(n):
        c = piles[w, i]
        k = cfg[C_SIDX0 + c // 13]
        r = c % 13 + 1
        if i > 0:
            all_below = ((once & one) | (twice & two)) >> (16 * k)
            u, d = _tops(cfg, fnd, k)
            up_open = u < r and (all_below & ((1 << r) - (1 << (u + 1)))) == 0
            down_open = d > r and (all_below & ((1 << d) - (1 << (r + 1)))) == 0
            if not up_open and not down_open:
                return True
        bit = 1 << (16 * k + r)
        if once & bit:
            twice |= bit
        once |= bit
    return False
