"""``reserve_order`` (the same rules as ``reserve_blocked``): a dead-state test over the
reserve's order as a whole.

Give each foundation and each card a type: in suit the suit; in alternate colours the
foundation's tag colour, and for a card at place j (j = (rank - base) mod ranks) its colour,
flipped when j is odd, so that a card fits a foundation's place j only if their types agree
(the foundation's colours alternate from its tag's). Claim: the position is lost if, for
some type, the reserve cards of that type cannot be split, in the order the reserve gives
them (top first), into chains of strictly rising places, one chain per foundation of the
type, each chain's first place at least that foundation's height. The greedy test below
decides whether such a split exists.

Proof. In a won line, each reserve card goes to a foundation of its type (the reserve empties
only to the foundations), in the reserve's order (only its top moves); a foundation receives
each place once, in rising order, starting at its height now (no take-back). So the reserve
cards of one type that go to one foundation form such a chain: a won position has a split.
The test gives the cards in order, each to the foundation of its type whose last place
(its height - 1 to begin with) is the highest one below the card's place, and fires when
none is below it. It finds a split whenever one exists: if a split S gives the next card
(place p) to a foundation whose last place g is below p, the greedy's choice has the highest
last place e below p, so g <= e; after the card, the greedy's last places are S's with g
where S has e. A foundation whose last place is lower takes every chain a higher one takes
(a chain fits after last place l when its first place is above l), so the rest of S is a
split from the greedy's last places too, and by induction the greedy never fails. (In
alternate colours the base place 0 also asks the tag's suit; the test asks only the colour
there: it may fire less, never wrongly.)

It runs where ``reserve_blocked`` runs (only foundation plays change the reserve and the
foundations).
"""

from __future__ import annotations

import numpy as np
from numba import njit

import solver.jit  # noqa: F401  (cache folder per kernel version; must precede @njit)

from solver.terrace.accepts import _rank
from solver.terrace.slots import C_FP0, C_FSS, S_BASE
from solver.toolkit import C_NF, C_RANKS, C_SUIT0


@njit(cache=True)
def reserve_order(cfg, piles, lens, scal):
    """``reserve_order``'s test (its proof: this module's docstring): the greedy split of the reserve into
    rising chains, one per foundation, fails for some type. False while the base rank is
    not known."""
    b = scal[S_BASE]
    ranks, nf, fp0 = cfg[C_RANKS], cfg[C_NF], cfg[C_FP0]
    last = np.empty(nf, np.int64)          # each foundation's last place so far
    for f in range(nf):
        last[f] = lens[fp0 + f] - 1
    dead = False
    for i in range(lens[0] - 1 if b != 0 else -1, -1, -1):   # top first: the order they leave
        a = piles[0, i]
        j = (_rank(a) - b) % ranks
        best = -1
        for f in range(nf):
            tag = cfg[C_SUIT0 + f // 2]
            fits = a // 13 == tag if cfg[C_FSS] == 1 else a // 26 == (tag // 2) ^ (j & 1)
            if fits and last[f] < j and (best < 0 or last[f] > last[best]):
                best = f
        if best < 0:
            dead = True
            break
        last[best] = j
    return dead
