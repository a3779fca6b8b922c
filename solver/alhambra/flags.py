"""The Alhambra family's dominance flag bits (``cfg[C_SAFE]``), each with the proof of
the rule it turns on in the docstring after it, and its streamliner. The rules are
declared in ``solver.alhambra.family``; the kernel (``solver.alhambra.kernel``) and the
relaxations read these bits."""


SAFE_DEAL_THROUGH_INERT = 1
"""``deal_through_inert`` (one waste pile): a deal whose card lands *inert* (it cannot go
to a foundation and no reserve top can be built on it) is followed at once by the next
deal, as one macro move, until a card lands that is not inert or the stock is empty. With
reinforcement (The Reinforcements) the macro also needs every reserve to hold at least two
cards and the first deal to have refilled nothing, so that no move inside it triggers a
refill.

Proof. Let Q be a state inside a macro, Q = S + deal(x) with x inert, where S is the
node the macro started from or an earlier state inside it. With one waste pile the moves
of Q are: x to a foundation or a reserve card onto x (none: x is inert), a deal or
redeal, and reserve cards to the foundations. A reserve-to-foundation move m touches
neither the stock nor the waste; it triggers no refill, as no reserve is empty and m
leaves at least one card in its own (with reinforcement, every reserve holds two or more:
the macro's condition; the macro's deals refill nothing: the first by the condition, the
later ones as no reserve is empty, so the reserves are the same all through the macro).
So m is legal in S, where the reserves and foundations are the same, and S + m + deal(x)
= Q + m. Claim: if a node N is winnable, the search wins from N. By induction on the
length of N's shortest winning line L. If L starts with a move other than a deal, its
first state is a child node with a shorter line. If L starts with a deal, the search
follows the macro; at each macro state Q that L passes through (a state is winnable
along L), L's next move is either the next deal, which the macro makes too, or a
reserve-to-foundation m (the only other move); then swapping m back over every deal of
the macro gives N + m, then the same deals, then the rest of L: a winning line from the
child node N + m one move shorter than L. If the macro ends (a card lands that is not
inert, or the stock is empty), its end state is a node on L with a shorter line. The
macro's decision depends on the state alone, so the transposition table does not change
the argument."""

SAFE_MET_FOUNDATION = 2
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
K-A wrap can make a card that goes home much later buildable on c."""

SAFE_DEAD_WASTE_BLOCK = 4
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
waste cards, and a stricter end only removes lines."""

SAFE_DEAD_STOCK_ORDER = 8
"""``dead_stock_order`` (one waste pile): a dead-state test over the order of the waste and
the stock, in every pass. It extends ``dead_waste_block``; with reinforcement it holds in
the weaker form of the refill clause below.

Write the waste (bottom to top) and then the stock (in dealing order) as one sequence of
n cards, positions 0..n-1. Measure time by deals: in pass k from now (k = 0..left, the
redeals left) the card at position q lands on the waste at time ``k n + q`` if it is
still in play; "now" is ``nw - 1`` (nw waste cards). The test computes lower bounds on the
time each sequence card can go home, starting from "now" (from q for a stock card), as a
fixed point of necessary conditions:

- *needs*: going up, a card needs a copy of every rank between the up top and it on the up
  foundation first (likewise down), so its bound is at least the smaller over its open ways
  of the largest over the ranks it needs of the smallest bound of their copies in play (a
  reserve copy counts "now"); a way with a needed rank that has no copy in play is closed;
- *windows*: a sequence card can go home only while it is in the waste, from its landing in
  a pass to that pass's end, so a bound is moved up to its next landing;
- *cover*: for sequence cards y before x whose bounds are both at least x's landing in pass
  k, both are in play when x lands, so y lies below x: y's bound is at least the smaller of
  x's bound and y's landing in pass k + 1 (the redeal frees it); in the last pass just x's
  bound;
- *closed for a pass*: if all copies (none in a reserve) of a rank a card c needs lie below
  it in this sense from its landing in pass k, that way waits for c's landing in pass k + 1.

The position is lost when some card's bound passes the end of the last pass.

*Refill clause* (reinforcement). A refill takes the stock's next card into an empty
reserve instead of a deal, so only landings before E, a lower bound on the first time a
reserve is empty, are certain: the cover and closed-way steps use landings before E only,
and a card whose slot in the pass before lies at E or later may wait in a reserve, so the
window step does not move its bound up to its landing. E is "now" plus one when a reserve
is empty, else the smallest over the reserves of a bound on when its bottom card leaves:
a reserve card leaves only once every card above it has left, and only home (its needs,
as above) or onto a waste top of its suit one rank apart (K-A wrap), which a sequence copy
of that rank can be at its landing in this pass at the earliest and a reserve copy only
once it has left its own reserve (with ``empty_waste_accepts_any``: "now"). These bounds
are fixed in increasing order (``_first_empty`` in ``solver.alhambra.stock_order``), and
they give the reserve cards home bounds too (needs met and uncovered), which count for
the needs of every card where "now" counted before; a reserve card whose home bound
passes the end of the last pass makes the position lost.

Proof. With one waste pile and no reinforcement, a stock card reaches play only by a deal,
onto the waste top; a waste card leaves only home or by a redeal, which turns the waste
over in order, so every pass deals the cards still in play in sequence order (reserve
cards built onto the waste only add cards between them; the test uses no fact that extra
cards change). Foundations never wrap or give a card back. Each condition holds on every
line of play, so by induction over the fixed-point steps every bound is a true lower bound
on the time the card goes home, and a card whose bound passes the end of the last pass
never goes home. In the last pass (no redeal left) the cover and closed-way steps are the
rule of ``dead_waste_block`` extended to stock cards: a card that lands on all copies of a
rank it needs never goes home. ``stop_at_third_exhaustion`` only removes lines.
With reinforcement, a refill takes the stock's next card while a reserve is empty, so at
a time at or after E, and never a waste card. Before E the play is as above: every stock
card reaches play by a deal onto the waste, so the landings before E that the cover and
closed-way steps use happen as stated (the covered cards lie at earlier slots, also before
E, so none of them was taken). A card taken at its slot is out of the stock from then
on, in its reserve or (built) in the waste; it goes home no earlier than its slot, and no
step above bounds it later than its needs and that slot, except the window step, which
the clause lifts exactly where a take in the pass before was possible. Each leaving bound
is a true lower bound: over the true order of the leavings, the first card to leave
before its bound would have left home (after its needs and the card above it, both
bounded) or onto a sequence copy (after its landing) or onto a reserve copy that left
before it, whose bound holds; and the card's bound is at most that copy's bound (if the
copy's was fixed first, it counted for the card; if not, the card's was fixed first, and
bounds are fixed in increasing order). So E is a lower bound, a reserve card goes home no earlier
than its needs and the leaving of the card above it, and the induction over the
fixed-point steps goes through as before (E only grows with the bounds it is computed
from).

Measured (benchmarks/notes/alhambra.md): Alhambra 1-100 at 1 M nodes with every rule, 15 won when
applied in the last pass only and 32 won in every pass, at about 1/6-1/8 of the nodes per
second (1-1000: 368 won, against 129 without it). Bounds on reserve cards (uncovered only
when each card above has gone home or onto a waste neighbour) were tried: the same 32 won
at half the speed, so they are left out without reinforcement; the refill clause needs them
(without, nearly every rank has a reserve copy that counts "now", and E stays at "now").
With reinforcement the kernel applies the test in the last pass only: The Reinforcements
1-300 at 1 M nodes, 53 won against 49 without the rule, at about half the nodes per
second (a first version won the same 18 of 1-100 in every pass as in the last, at half
the speed again). It proves no full-size deal lost."""

SAFE_FREE_RESERVE_RELAXATION = 16
"""``free_reserve_relaxation`` (one waste pile, no reinforcement, play after the last pass):
a proof of loss that holds while redeals are left. A position P is lost when its
free-reserve relaxation G0(P), solved exactly by ``solver.alhambra.relaxed.g0_solve``, is
lost.

G0(P) keeps P's sequence (the waste bottom to top, then the stock in dealing order), its
foundations and its redeals left; every reserve card is *free*, playable home at any
time; nothing is built. Moves: deal, redeal (P's rule, first deal included), the waste top
home, a free card home. Won when the sequence is empty (every card left is then free, and
each foundation takes its missing ranks in order).

1. *Relaxation: if P can be won, G0(P) can.* Take a winning line L from P and play it in G0
   with every reserve card free, a built card staying free: a build does nothing, a
   reserve card home is a free card home, a deal or redeal is the same deal or redeal,
   and a built card met again in the sequence does not occur (G0 never built it). With one
   waste pile a waste card leaves only for a foundation, and without reinforcement only a
   deal takes a stock card, so G0's waste is always L's waste without the cards built on
   it: where L's waste top is not a built card, the tops agree, and the foundations agree
   throughout. If L plays a waste card home, it is G0's top too (a built card home is a
   free card home). If L redeals while G0's waste is empty, G0's sequence is empty: G0 has
   won. With the first deal part of the redeal, G0 may deal its next card before L does;
   until L deals it, L moves only built or reserve cards, which G0 plays as free cards.
   Without play after the last pass (``stop_at_third_exhaustion``) G0 could go on where L
   may not; so the rule needs play to go on.
2. *Lazy play keeps G0's verdict.* In a winning G0 line, a free card's play can be moved
   to just before the next play onto the same foundation (or to the end): free cards
   cover nothing and nothing covers them. So a card goes home from the waste top with
   the free cards of the ranks between (home(x, f)), and free cards otherwise wait for
   the end, where they all go.
3. *Forced moves keep it.* Let the waste top x be the only copy of its card in the
   sequence, let a foundation f take it (with fills; the other foundation may take it
   too), and let no fill rank have a copy in the sequence. A winning line L puts x and its
   other copy x', which is free or home, on the suit's two foundations, one each. If L
   puts x on f, then f's next cards in L are the fill ranks (only free copies exist, and
   they are interchangeable) and x, so playing them now only takes x off the waste top,
   where L's next waste move would be x's own; the lines agree after. If L puts x' on f
   and x on the other foundation, play x on f now and x' (free) where L plays x. So
   home(x, f) alone is offered. Likewise, when both foundations take x with no fill
   (they have met at x's rank), a winning line puts x on one of them, f, while f stays
   at its top, which waits for x's rank: so x goes home now (on either) and the deal is
   not offered. When the top can go nowhere, the deal is the only move, and the search
   deals on until a top can go somewhere (one move, skipping only checks).
4. *``stock_order_blocked`` holds in G0*: its conditions concern landings, covering,
   foundations, and a reserve copy counted "now"; the free cards are such copies (the
   test reads them as a reserve), and it never reasons about builds.
5. *Commitments keep it.* At a state A with waste top x, let home(x, f) have been
   searched and refuted, and the search take the deal (or redeal) instead. (a) Below it,
   at a state S where x is the top again and f still has A's top, home(x, f) is not
   offered: f took nothing between A and S (foundations only grow), so the line from A
   to S with home(x, f) played first instead is legal (the moves in between never had x
   as the card they moved, their fills come from a free pool that only shrinks, so A's
   pool held x's fills and theirs, and the deals keep their order with x left out, as in
   1) and reaches the same state as S then home(x, f): a winning line from there would
   win from A + home(x, f), which is refuted. (b) If f took x with no fill, x's other
   copy x' in the sequence is never played to the other foundation g below A: a line
   doing so must put x on f (the two copies go one to each), and f, waiting for x's rank,
   takes nothing before, so x could have gone there at A, as in (a). If a forced move of
   3 is barred this way, the state is lost. Each such state really is lost (a refuted
   state is lost whatever path reached it, by induction on the order the search refutes
   them), so the memo may keep it. Commitments follow physical cards, not card codes.
G0 is acyclic (every move removes a card from the sequence or deals, and redeals are
counted), so a state refuted once is lost wherever it is met: the memo (``state.memo``)
keeps the refuted G0 states for the whole solve, and a G0 search stopped at its cap proves
nothing.

Used at the root of a solve (``relaxation_lost``, called by ``solver.driver.solve``): a
deal whose G0 is lost is lost. Measured (benchmarks/notes/alhambra-proofs-of-loss.md, "Alhambra: the free-reserve
relaxation at the root"):
with one redeal G0 is lost at the root of most deals the search cannot decide; with two it
is mostly won (the first pass needs more than freed reserves), so the rule decides little
there yet."""

SAFE_NEXT_PASS_PROJECTION = 32
"""``next_pass_projection`` (one waste pile, no reinforcement, play after the last pass): a
dead-state test with redeals left, at a deal's start (a search's root in the first pass
with at most one card dealt; after every deal it costs far more than it prunes). A
position S with redeals left is lost when its
*projection* onto the next pass's start is lost in lazy G0 (``solver.alhambra.projection``).

Let ``D`` be the bounds ``stock_order_blocked`` reaches on S (``dead_stock_order``: a lower
bound on the time each sequence card can go home, this pass's landings being the times
below n, the sequence's length; if the test fires, S is dead already). The projection
R(S) is the next pass's start (waste empty, one redeal fewer left) whose stock holds, in
S's sequence order, the *kept* cards: those with ``D[q] >= n``; S's foundations; every
other card not home free.

1. *A kept card is in the waste when this pass ends.* It cannot go home before time n
   (``SAFE_DEAD_STOCK_ORDER``), and with one waste pile and no reinforcement a sequence
   card leaves only for a foundation. So S is not won in this pass (R keeps a card), and
   every winning line from S redeals; let P be the position just after that redeal.
2. *R(S) relaxes P in G0.* Within a pass cards go onto the waste only on top and leave only
   from the top, and a redeal turns the waste over into the stock in the same order, so
   P's sequence holds the kept cards in S's order, among others (built cards, cards not
   kept that stayed). P's foundations hold S's and more. So, card code by card code, R
   has no more cards home and no more in the sequence than P: the rest of each code is
   free in R, at least as many copies as P has free, plus one for each copy home or in
   the sequence in P but not in R. Both have the same redeals left.
3. *Monotony of G0: if G0(P) is won, G0(R) is.* From R, first play home from the free
   cards what P has home beyond S (each foundation's missing ranks in order, free by 2).
   Then follow P's winning G0 line, with the non-kept sequence cards free: a deal of a
   kept card is the same deal (R's stock is P's with the other cards left out, in order);
   a deal of another card is no move; P's waste top home is the same move when it is
   kept (R's waste is P's without the other cards, so the tops agree), else that card's
   free copy home; fills are free cards, of which R has at least P's. A redeal of P is
   R's too, unless R's waste is empty: then R's sequence is empty and R is won. Where the
   redeal deals its first card at once and P's first card is not kept, R deals its own
   first card early; R needs nothing of it before P deals it, and P deals it before any
   other redeal (it is in P's stock), after which the two agree again.
4. So G0(R) lost gives G0(P) lost for every P, hence P lost (``SAFE_FREE_RESERVE_RELAXATION``
   1, with its laziness and reductions 2-5), and S lost. A G0 state refuted here is lost
   wherever it is met, so the projections share the solve's memo with the root's
   relaxation; a search stopped at ``PROJECTION_CAP`` moves proves nothing and is not
   retried (its state is kept as tried).

Cheaper forms measured and left out (benchmarks/notes/alhambra-proofs-of-loss.md): ``dead_stock_order`` alone on
the projection never fired where ``dead_stock_order`` on S did not."""

SAFE_SCHEDULE_RELAXATION = 64
"""``schedule_relaxation`` (one waste pile, no reinforcement): a verdict on a whole deal
from its *schedule* model (``solver.alhambra.schedule``), run after a search that ran out
of nodes (``root_verdict``). CP-SAT decides the model (one worker, a deterministic time
limit). No solution (``INFEASIBLE``, a complete proof) means the position is lost. A
solution is read back as a line of play and replayed on the reference engine; if it wins,
the position is won (certified like any line). Anything else decides nothing.

The model gives each card not home a home time, each reserve card a leave time and a
"built" flag, and each card in the waste during a pass an *arrival* time there. Time:
the sequence (the waste bottom to top, then the stock in dealing order) has n cards, and
pass k (k = 0 .. passes left - 1) has N = n + 1 slots: slot ``k N`` from its redeal to its
first landing, slot ``k N + q + 1`` from the landing of the card at position q to the next
landing. A move's time is ``slot * SLOT + step``, steps numbering the moves of a slot in
order (``SLOT`` exceeds what a slot can hold); a landing comes just before step 0.

Take a winning line L from P and label each move: its pass (the redeals made before it),
its slot (the last sequence card landed in the pass, or none yet) and its step. With one
waste pile and no reinforcement a stock card reaches play only by a deal onto the waste, a
waste card leaves only to a foundation or by a redeal, and a redeal turns the waste over so
that the next pass deals every card still there in the order they lie: the labels rise
along L, and each sequence card in play in a pass lands there exactly at its slot's start
(every card still in play at a pass's start is dealt in it, since L ends with all home).
Set home, leave and arrival times to the labels of the moves (a built card's arrival: its
build, or its deal in a later pass). Every constraint holds:

1. *Windows.* A sequence card goes home in a pass it is in play in, after its landing
   there. A reserve card leaves after the card above it, home (leave = home) or built onto
   the waste (before it goes home). Distinct moves have distinct labels.
2. *Presence.* A built card is in the waste in every pass from its build's to its home
   move's, and in each pass after its build's it is dealt again before it goes home.
3. *Foundations.* L puts every card home. A suit's up foundation takes each rank above its
   top once, in rising order, the down one each rank below its top, in falling order; a
   rank both need has one copy for each. Along a foundation the home times rise.
4. *Cover.* If a is in the waste when b arrives in pass k (a arrived first, is not home
   yet) and a goes home in pass k, b lies above a and leaves the waste only home (the
   redeal comes after a's home move): b goes home first.
5. *Order kept.* Two cards in play at the start of pass k (not built in it) are dealt in
   pass k in the order they lay in the waste, which is their order of arrival in pass k-1.
6. *Bases.* A card built in pass k goes onto the waste top: a same-suit neighbour (K-A
   wrap) that arrived in pass k before the build and is not home, every card arrived after
   it (and before the build) in pass k being home already; or, with
   ``empty_waste_accepts_any``, onto an empty waste: every card arrived in pass k before it
   home.
7. *The redeal's deal.* With ``redeal_includes_first_deal``, a pass k >= 1 that happens
   begins with the redeal, which deals its first card: every move of the pass comes at or
   after that arrival (so a build there has some card arrived before it).
8. *End.* With ``stop_at_third_exhaustion`` the last pass's last deal ends the game with a
   card on the waste, so no winning line ends in the last pass: only the passes before it
   count (none left: no schedule).
So the labels of L solve the model: a model without a solution means P has no winning
line. Reinforcement would take stock cards into reserves, breaking 1; several waste piles
let waste cards move between piles, breaking 4.

The model is nearly exact: on small miniatures it refuted every position the oracle found
lost, and 99 % of the schedules it found for won ones play to a win (the rest: unknown).
Checked against the unpruned oracle on thousands of miniature positions, every option
varied (no position the oracle wins is refuted; every schedule that plays wins), and with
and without the rule on the solver's verdicts (``tests/test_schedule_alhambra.py``).
Measured (benchmarks/notes/alhambra-proofs-of-loss.md, solver 0.13.0): it decides Alhambra deals that every
search left unknown, both ways (games 1, 2: won; 4, 7, 8: lost), in 15-30 s each."""

SAFE_SCHEDULE_REFILLS = 128
"""``schedule_refills`` (one waste pile, reinforcement): the schedule
model (``SAFE_SCHEDULE_RELAXATION``) with refills, as a proof of loss after a search that
ran out of nodes (``root_verdict``). No schedule (``INFEASIBLE``): lost. A schedule that
plays to a win on the reference engine: won. Anything else decides nothing.

Take a winning line L and label its moves as for ``SAFE_SCHEDULE_RELAXATION``, with one
change: a sequence card *arrives* in a pass when it lands on the waste or when a refill
*takes* it from the stock into an empty reserve, and either arrival opens its slot (steps
number a slot's moves from 1). The stock is dealt in order and a refill takes its next card,
so the labels still rise along L. For each card, its *first take* (if any: the pass, the
reserve, the time) is kept; from then on the model leaves the card *free*: it is in no waste
in the model (no arrival, no cover, no order kept), and only its home time and the first
stay in that reserve are constrained. Dropping conditions only admits more schedules. Then:

1. Before its first take a card is constrained as without refills (1-8 of the relaxation's
   proof; 7, the redeal's deal, as 5 below).
   A sequence card taken in pass k lies in the stock, not the waste, in pass k: it is
   present in no waste from then, goes home in a pass not before k, after the take. A card
   built onto the waste in an earlier pass can be taken in pass k only if it lay in the
   waste at the end of pass k-1 and is not home before pass k. *Stock order:* pass k's
   stock (k > 0) is pass k-1's final waste, and its cards leave it in that order, each
   dealt or taken at its turn: a card taken from it is labelled at its turn (a sequence
   card at its slot, a built card at its arrival's time), so the order kept between two
   cards of the redeal holds for takes as for deals.
2. *Stays.* A reserve holds its own cards until its bottom card leaves, then at most one
   taken card at a time: the first stays (take to leave) of its taken cards and its own
   cards' time do not overlap. A taken card leaves home (leave = home) or built onto the
   waste top, after the take.
3. *Bases.* A build needs a same-suit neighbour on the waste top (6 of the relaxation's
   proof, over the cards not free); a free card can be that base only if it left its first
   stay built, before the build, and is not home yet (whatever it did since); where that
   first build lies in the same pass, every card arrived on the waste since lies on it, so
   goes home before the build onto it (a tie of times counts as before); and if that free
   card goes home in the pass of that build, every card arrived on the waste since, while
   it lay there, goes home first. A card built
   lies on its base until it goes home (waste cards leave only to the foundations, or at
   the redeal): if the base goes home in the pass, the card built on it goes first; and a
   second card built onto the same base in the pass comes after the first one's home move.
   Stated where the card built first or its base may be free (4 and 6 of the relaxation's
   proof cover the others).
4. *Forced refills.* A card move that empties a reserve while the stock holds cards is
   followed at once by a refill (PySolFC after every card move; ``immediate`` also after
   deals). In pass k, if the move lies in slot ``k N + j``, the stock's next card is the
   first sequence card q >= j still in pass k's stock (it lands or is taken in pass k), or
   a card built in an earlier pass: so that q is taken in pass k, unless a built card comes
   first, and then that built card is taken at once: a card not free in the model is taken
   at its turn (1), in the same slot, after the move, with no card dealt between (a
   sequence card lands at a slot's start), and each take follows one move (two moves of a
   pass answered by sequence cards are answered by two of them); a free card's takes are
   not modelled (at most as many such escapes as free cards built and still in play at the
   redeal), but such a card was built onto the waste in an earlier pass and is not home at
   the move, it leaves the stock once a pass (so answers one move of it at most), and if
   built in pass k-1 it is taken at its turn (6): every card ahead of it left the stock
   before the move, and the sequence card q, still in the stock, lies behind it (it landed
   in pass k-1 after that build). Not necessarily into the emptied reserve: a reserve
   emptied at the previous pass's end, with the stock empty, stays empty until the first
   card move of the pass and is filled first when its index is lower. In the current pass,
   where every reserve is full or the stock is empty at the start, every take into a
   reserve follows a move that empties it while the stock holds cards, and each such move
   is followed by the take of the stock's next card into that reserve: the takes into each
   reserve number the moves emptying it while the stock holds cards (at most one more where
   it starts empty).
5. *The redeal's deal.* With ``redeal_includes_first_deal`` the redeal deals pass k's
   first card before any other move of the pass (reserves are refilled after a card move,
   or with ``immediate`` after that deal): every home move, build and leave of the pass
   comes at or after it, and it is the earliest departure from the stock. It is a modelled
   card dealt, not taken, or a free card: one built in pass k-1 before the arrival there of
   every modelled card of pass k's stock (the stock keeps the waste's order), or one built
   in an earlier pass; either not home before pass k. A pass with a modelled card in its
   stock happens.
6. *A free card's turn.* A free card built onto the waste in pass k-1 and not home in it
   lies in the waste at the redeal (waste cards leave only to the foundations), so in pass
   k's stock, which keeps the waste's order: every card that arrived before it in pass k-1
   (a tie of times counts as before) and leaves pass k's stock, dealt or taken, leaves it
   first, and every card that arrived after it leaves after it. The free card leaves at its
   turn, dealt or taken: dealt, it lands on the waste at once; taken, it stays in one
   reserve (which holds one card at a time, so that stay overlaps no other stay there)
   until it goes home or is built onto the waste, where it lands then. From its landing it
   lies on the waste until it goes home or the redeal: in pass k it goes home after its
   departure and after every card arrived on the waste since its landing, while it lay
   there, and is the top a card is built onto only after its landing.
So the labels of L solve the model; no solution means no winning line.

*Stages* (``solver.alhambra.schedule.stages_for``, ``MODELS``). With a redeal left three
looser models are solved first: the *skeleton*, the bare one without the conditions over
pairs of cards (``add_cover``, ``add_stock_order_kept``, ``_home_before_build``,
``_lies_until_home``: 1's cover and stock order, 3's cards home before a build, a free
card's cover), within ``DET_TIME_SKELETON``; the *bare* one, without 6, without 4's
conditions on a free card's take, and without 4's forced refills (a take stays possible, never required), then
the *loose* one, without 6 and 4's conditions on a free card's take (such escapes only
counted). Each has a subset of the next one's constraints over the same labels, so L's
labels solve it too, and no solution there means none in the full model. A tighter one is
solved only where a looser one keeps a schedule that does not play, or gives up.

Where it runs: after the search, at any position; ``--dominance all`` takes it only with at
most one redeal (``DominanceRule.all_needs``): with two, the root of a standard deal, a solve
takes up to ``DET_TIME_REFILLS_TWO`` units of CP-SAT's deterministic time, some ten minutes
(benchmarks/notes/reinforcements-proofs-of-loss.md, solver 0.22.0), so it runs there only when named. Checked against
the unpruned oracle on miniatures, every option varied, any number of redeals (no position
the oracle wins is refuted), with and without the rule on the solver's verdicts, and on the
starts of standard deals the search wins (``tests/test_schedule_reinforcements.py``)."""

SAFE_SCHEDULE_SKELETON = 512
"""``schedule_skeleton`` (one waste pile, reinforcement): the skeleton of the refill model
(``SAFE_SCHEDULE_REFILLS``, *Stages*: without the forced refills, a free card's life in a
redealt stock and the conditions over pairs of cards) solved alone after a search that ran
out of nodes (``root_verdict``), within ``DET_TIME_SKELETON_ALONE`` units of CP-SAT's
deterministic time. Its constraints are a subset of the full refill model's over the same
labels, so a winning line's labels solve it (``SAFE_SCHEDULE_REFILLS``): no schedule means
lost; a schedule that plays to a win on the reference engine is a win. Anything else
decides nothing. Where ``schedule_refills`` is on too, its own stages (the skeleton first)
run instead.

Where it runs: ``--dominance all`` takes it with any number of redeals (a solve takes
seconds: with two redeals, the standard rules, the unknown deals of The Reinforcements
1-300 give 0.3-0.9 units where refuted, median 0.5 for a schedule that does not play;
benchmarks/notes/reinforcements-proofs-of-loss.md). Checked against the unpruned oracle on miniatures (no position the
oracle wins is refuted) and with and without the rule on the solver's verdicts
(``tests/test_schedule_reinforcements.py``)."""

SAFE_SCHEDULE_LATE_REFILLS = 1024
"""``schedule_late_refills`` (one waste pile, reinforcement): a verdict on position P from
two facts, after a search that ran out of nodes (``root_verdict``) where the refill
model's own rules decided nothing (``solver.alhambra.late_refills``):

(A) *No refill in the current pass.* A search of the game without refills, limited to P's
    current pass (no redeal beyond those P has used), for the goal ``refill_due`` (a
    reserve empty while the stock holds cards), with ``deal_through_inert``, ends without
    reaching it (within ``GOAL_NODES`` nodes; else no verdict).
(B) *No schedule after it.* The bare refill model (``SAFE_SCHEDULE_REFILLS``, *Stages*)
    with no take in the current pass (``MODELS["late"]``) has no schedule (CP-SAT, within
    ``DET_TIME_LATE_REFILLS``).
Then P is lost. A schedule of (B) that plays to a win on the reference engine is a win
(certified like any line); anything else decides nothing.

Proof. Let L be a winning line from P.
1. L refills nothing in the current pass. Else let R be its first refill there. Up to R
   no refill happened, and reinforcement changes the game by its refills only, so L's
   moves up to R (without R) are a line of the game without refills, within the pass.
   R takes the stock's next card into an empty reserve, so the state it starts from has a
   reserve empty and the stock holding a card: the goal, reached by that line (at P
   itself if the line is empty), and (A)'s search would have reached it:
2. (A)'s search is complete for the goal. It expands every state it reaches that is not
   the goal, except where ``refill_out_of_reach`` holds (the stock empty, no redeal
   allowed: the goal needs a stock card, and only a redeal fills the stock). Its
   transposition table skips a state already expanded, which reaches the goal exactly
   when its first visit did (the goal is a property of the state). ``deal_through_inert``
   (``SAFE_DEAL_THROUGH_INERT``, whose proof is followed here with "reaches the goal" for
   "is winnable", by induction on the shortest line to the goal): if the macro's start N
   is not the goal, no reserve of N is empty (its stock is not, as it deals), and the
   macro's states keep N's reserves, so none is the goal; where a shortest line leaves the
   macro at a state Q by a reserve card home m, N + m is a child of N with the same
   deals after it (N + m + deals = Q + m), and a line from Q + m to the goal is one from
   N + m: Q + m's deals are N + m's deals, and if Q + m itself is the goal so is N + m
   (the same reserves, more stock cards).
3. So every take of L lies in a later pass. ``SAFE_SCHEDULE_REFILLS`` maps L's labels to a
   solution of the refill model in which a card's take literal of pass k is true only
   where L takes it first in pass k, so never in pass 0; the bare model keeps a subset of
   the constraints (*Stages*; without forced refills nothing requires a take), so L's
   labels solve it with every take of pass 0 false: they solve ``late``, which is that
   model with those literals left out. No schedule there means no winning line.

Where it runs: only when named (``DominanceRule.all_needs``): (B) takes minutes on a
standard deal. Checked: the goal search against a plain search of the reference engine for
the same goal (every position of the current pass), the verdicts against the unpruned
oracle on miniatures (no position the oracle wins is refuted), with and without the rule
on the solver's verdicts, and on full-size standard deals (``tests/test_late_refills.py``).
Measured (benchmarks/notes/reinforcements-proofs-of-loss.md, "no refill in the first pass"): it refutes The
Reinforcements 978, 368, 374, 44 and 881, which every other rule leaves unknown."""
STREAM_FOUNDATION_FIRST = 256
"""A *streamliner*, not a proved rule: while some card can go to a foundation, only
foundation plays are offered. It prunes lines that keep a playable card back as a waste
base, so a search with it may miss wins: only its wins count (they are certified like any
other); ``solver.driver`` never reports ``lost`` from it and uses it in half of its
win-first attempts (``solver.attempts.attempt_plan``, with the measurements)."""
STREAMLINER = STREAM_FOUNDATION_FIRST
