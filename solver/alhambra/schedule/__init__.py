"""The schedule model of an Alhambra position (``schedule_relaxation``, issue 19): the time
of every move that matters, constrained by conditions every winning line meets, solved by
CP-SAT (OR-Tools). No schedule means no winning line: the position is lost (the proofs
below: ``schedule_relaxation``'s, ``schedule_refills``' and ``schedule_skeleton``'s). A schedule is also read back
as a line of play and replayed on the reference engine (``replay_schedule``): where it plays
to a win, the position is won; where not, the moves up to the first it refuses are a lead
(``schedule_lead``), from which the driver may search for wins.

With reinforcement (``schedule_refills``, proof ``SAFE_SCHEDULE_REFILLS``) a card may be
*taken* from the stock into an empty reserve instead of being dealt; after its first take
the model leaves it free (its home time and that first stay in the reserve aside), and the
refills that a move emptying a reserve forces are stated for the stock's next card.

The package: ``model.py`` (the model object, its clock and shared literals), one module
per constraint group (``windows``, ``stays``, ``free_cards``, ``forced_refills``,
``foundations``, ``waste_order``, ``redeal``, ``bases``), ``build.py`` (the groups in
order), ``readback.py`` (a solution as moves) and ``stages.py`` (the models solved in
turn, CP-SAT's limits).

The proof of ``schedule_relaxation`` (its flag: ``solver.alhambra.flags.SAFE_SCHEDULE_RELAXATION``)
---------------------------------------------------------------------------------------------------

``schedule_relaxation`` (one waste pile, no reinforcement): a verdict on a whole deal
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
search left unknown, both ways (games 1, 2: won; 4, 7, 8: lost), in 15-30 s each.

The proof of ``schedule_refills`` (its flag: ``solver.alhambra.flags.SAFE_SCHEDULE_REFILLS``)
---------------------------------------------------------------------------------------------

``schedule_refills`` (one waste pile, reinforcement): the schedule
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
starts of standard deals the search wins (``tests/test_schedule_reinforcements.py``).

The proof of ``schedule_skeleton`` (its flag: ``solver.alhambra.flags.SAFE_SCHEDULE_SKELETON``)
-----------------------------------------------------------------------------------------------

``schedule_skeleton`` (one waste pile, reinforcement): the skeleton of the refill model
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
(``tests/test_schedule_reinforcements.py``).
"""

from solver.alhambra.schedule.build import build_schedule
from solver.alhambra.schedule.model import SLOT, ScheduleModel
from solver.alhambra.schedule.readback import replay_schedule, schedule_lead
from solver.alhambra.schedule.stages import (DET_TIME, DET_TIME_REFILLS, DET_TIME_REFILLS_TWO, DET_TIME_SKELETON,
                                             DET_TIME_SKELETON_ALONE, MODEL_CAPS, MODELS, cp_sat_solver,
                                             det_time_for, schedule_lost, solve_schedule, stage_limit, stages_for)

__all__ = ["DET_TIME", "DET_TIME_REFILLS", "DET_TIME_REFILLS_TWO", "DET_TIME_SKELETON", "DET_TIME_SKELETON_ALONE",
           "MODELS", "MODEL_CAPS", "SLOT", "ScheduleModel", "build_schedule", "cp_sat_solver", "det_time_for",
           "replay_schedule", "schedule_lead", "schedule_lost", "solve_schedule", "stage_limit", "stages_for"]
