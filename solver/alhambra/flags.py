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
"""``met_foundation``: its proof is the docstring of ``solver.alhambra.met_foundation``, the
module that implements it."""

SAFE_DEAD_WASTE_BLOCK = 4
"""``dead_waste_block``: its proof is the docstring of ``solver.alhambra.dead_waste``, the
module that implements it."""

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
