"""The Terrace family's dominance flag bits (``cfg[C_SAFE]``), each with the proof of the
rule it turns on in the docstring after it. The rules are declared in
``solver.terrace.family``; the kernel (``solver.terrace.kernel``) reads these bits."""

STREAMLINER = 0                   # no unproved win-first pruning

SAFE_RESERVE_BLOCKED = 1
"""``reserve_blocked`` (no foundation take-back; the reserve empties only to the
foundations: no ``reserve_to_tableau``, no ``auto_reserve_first``): a dead-state test.

Claim: the position is lost if some reserve card A can never go to a foundation, where
"never" is tested as follows. The cards below A in the reserve cannot move before A (the
reserve gives only its top, and only to a foundation). A foundation f of height k can
take A only as its card number j = (rank(A) - base) mod ranks (0 the base), so only if
k <= j (heights never drop without take-back), if A has the suit (in suit, and always for
the base) or the colour (alternate colours: the tag's colour at even places, the other at
odd places) that place j asks, and if every place k..j-1 between can still be filled:
some card of that place's rank and suit (colour) is neither on a foundation (no card
leaves one) nor below A in the reserve. If no foundation passes, A stays in the reserve
for ever and the game is lost.

Only foundation plays make it fire (they alone take cards out of play or change the
reserve and the foundations), so ``gen_moves`` runs it at the root and after a base
choice or a move to a foundation; skipping it elsewhere only prunes less."""


SAFE_IDLE_CARD_HOME = 2
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
without it."""


SAFE_NO_LONE_SHIFT = 4
"""``no_lone_shift`` (every rule set): never move a tableau pile's only card to an empty
tableau pile.

Claim: such a move leads to the position it started from, up to the order of the tableau
piles. The pile it leaves becomes a gap, but a gap was open before the move (the one it
went to) after the automatic actions had run, so every place the gap rule fills from was
empty, and is still: no automatic action follows. Under the canonical key it is the same
state, so a line that makes the move wins as well without it."""


SAFE_RESERVE_ORDER = 8
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
foundations)."""
