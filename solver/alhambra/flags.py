"""The Alhambra family's dominance flag bits (``cfg[C_SAFE]``) and its streamliner. The
proof of a rule whose test lives in a module of its own is that module's docstring; the
proofs of the rules the kernel's move generation applies itself follow their bits here. The rules are
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
"""``dead_stock_order``: its proof is the docstring of ``solver.alhambra.stock_order``, the module that implements it."""

SAFE_FREE_RESERVE_RELAXATION = 16
"""``free_reserve_relaxation``: its proof is the docstring of ``solver.alhambra.relaxed``, the module that implements it."""

SAFE_NEXT_PASS_PROJECTION = 32
"""``next_pass_projection``: its proof is the docstring of ``solver.alhambra.projection``, the module that implements it."""

SAFE_SCHEDULE_RELAXATION = 64
"""``schedule_relaxation``: its proof is the docstring of ``solver.alhambra.schedule``, the module that implements it."""

SAFE_SCHEDULE_REFILLS = 128
"""``schedule_refills``: its proof is the docstring of ``solver.alhambra.schedule``, the module that implements it."""

SAFE_SCHEDULE_SKELETON = 512
"""``schedule_skeleton``: its proof is the docstring of ``solver.alhambra.schedule``, the module that implements it."""

SAFE_SCHEDULE_LATE_REFILLS = 1024
"""``schedule_late_refills``: its proof is the docstring of ``solver.alhambra.late_refills``, the module that implements it."""
STREAM_FOUNDATION_FIRST = 256
"""A *streamliner*, not a proved rule: while some card can go to a foundation, only
foundation plays are offered. It prunes lines that keep a playable card back as a waste
base, so a search with it may miss wins: only its wins count (they are certified like any
other); ``solver.driver`` never reports ``lost`` from it and uses it in half of its
win-first attempts (``solver.attempts.attempt_plan``, with the measurements)."""
STREAMLINER = STREAM_FOUNDATION_FIRST
