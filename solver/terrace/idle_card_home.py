"""``idle_card_home`` (no foundation take-back): a forced foundation play.

Claim: let X (place j on the foundations: j = (rank(X) - base) mod ranks) be the top of a
tableau pile of two or more cards, or the reserve's top when gaps are not filled from the
reserve (not ``auto_reserve_first``), and let a foundation F take X now. If (a) no card
that could ever be built on X in the tableau is off the foundations (both copies of each
card of the rank below, in the other colour or in suit; none at all on a base-rank card
with ``no_build_on_base_rank``, nor on a reserve card without ``reserve_to_tableau``), and (b) no foundation that could take a card like X (same
rank; the colour, or the suit, that place j asks for) holds fewer than j cards, then if
the position can be won it can be won after X goes to F; the search tries only that move.
Not with ``auto_waste`` gaps and no waste refill (below).

Proof. Take a winning line L and delete every move of X from it: L'. Nothing is built on X
in L (a); no automatic action reads X's pile (a tableau pile, or the reserve when the gap
rule does not read it), and X leaving it makes no gap (two cards or more), so every other
move of L is legal in L' and its automatic actions are the same, with one exception: L
may move X into a gap R that L' keeps empty. The gap was open in L before X went in, so
every place the gap rule fills from was empty; under ``auto_stock``, ``auto_reserve_first``
and ``auto_waste`` with the waste refill on, those places (and the stock) are then empty
for ever, so R is never filled automatically in L' either, and without automatic fills
(``any_available``, ``waste_only``) an empty pile only gives the player more choice.
(``auto_waste`` without the refill: the stock can refill the waste and fill R in L' alone;
the rule stays off there.) The foundations: L puts X on some foundation G at its place j;
G holds at most j cards now (it receives X as card j + 1), so by (b) exactly j, and it takes
nothing before X. If G is not F, let L' put on G what L puts on F until X goes home, and
on F what L puts on G after: F and G have the same height and ask for the same cards (an
alternate-colour foundation's needs follow from its tag and height; the cards on it
matter only as counts without take-back), so every foundation play of L stays legal.
L' ends with every card home. It is shorter than L, so by induction on the length of a
shortest winning line the search with this rule wins every position it could win
without it.
"""

from __future__ import annotations

from numba import njit

import solver.jit  # noqa: F401  (cache folder per kernel version; must precede @njit)

from solver.terrace.accepts import _rank, foundation_accepts
from solver.terrace.slots import C_AUTOFILL, C_FP0, C_FSS, C_GAP, C_NOBASE, C_NTAB, C_R2T, C_TSS, G_AUTO_WASTE, G_RESERVE_FIRST, S_BASE
from solver.toolkit import C_NF, C_RANKS, C_SUIT0, C_SUITS, K_CARD, PILE0, encode


@njit(cache=True)
def idle_card_home(cfg, piles, lens, scal):
    """``idle_card_home``'s forced play (its proof: this module's docstring): the move, or -1."""
    b = scal[S_BASE]
    ranks, nf, fp0, ntab = cfg[C_RANKS], cfg[C_NF], cfg[C_FP0], cfg[C_NTAB]
    if b == 0 or (cfg[C_GAP] == G_AUTO_WASTE and cfg[C_AUTOFILL] == 0):
        return -1
    first = 0 if cfg[C_GAP] != G_RESERVE_FIRST else 1
    for p in range(first, ntab + 1):       # the reserve (0), then the tableau piles
        if lens[p] < (1 if p == 0 else 2):
            continue
        x = piles[p, lens[p] - 1]
        j = (_rank(x) - b) % ranks
        target = -1
        ok = True
        for f in range(nf):
            tag = cfg[C_SUIT0 + f // 2]
            if cfg[C_FSS] == 1 or j == 0:
                like = x // 13 == tag
            else:
                like = x // 26 == (tag // 2) ^ (j & 1)
            if like:
                if lens[fp0 + f] < j:
                    ok = False             # (b): a foundation still below X's place
                    break
                if lens[fp0 + f] == j and target < 0 and foundation_accepts(cfg, piles, lens, scal, f, x):
                    target = f
        if not ok or target < 0:
            continue
        # (a) holds at once where nothing can be built on X: a reserve card that never goes
        # to the tableau, or a base-rank card with no_build_on_base_rank.
        if not ((p == 0 and cfg[C_R2T] == 0) or (cfg[C_NOBASE] == 1 and _rank(x) == b)):
            r = (_rank(x) - 2) % ranks     # the rank below, as a card's rank index (0: A)
            q = (r + 1 - b) % ranks        # its place on a foundation (no array per node)
            for si in range(cfg[C_SUITS]):
                su = cfg[C_SUIT0 + si]
                fits = su == x // 13 if cfg[C_TSS] == 1 else su // 2 != x // 26
                if fits:
                    home = 0               # copies of that card on the foundations
                    for f in range(nf):
                        if lens[fp0 + f] > q and piles[fp0 + f, q] == su * 13 + r:
                            home += 1
                    if home < 2:
                        ok = False         # (a): a card that could go on X is still in play
                        break
        if ok:
            return encode(K_CARD, PILE0 + p, target)
    return -1
