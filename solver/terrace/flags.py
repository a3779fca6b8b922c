"""The Terrace family's dominance flag bits (``cfg[C_SAFE]``). The proof of a rule whose
test lives in a module of its own is that module's docstring; the proof of a rule the
kernel's move generation applies itself follows its bit here. The rules are declared in
``solver.terrace.family``; the kernel (``solver.terrace.kernel``) reads these bits."""

STREAMLINER = 0                   # no unproved win-first pruning

SAFE_RESERVE_BLOCKED = 1
"""``reserve_blocked``: its proof is the docstring of ``solver.terrace.reserve_blocked``, the module that implements it."""


SAFE_IDLE_CARD_HOME = 2
"""``idle_card_home``: its proof is the docstring of ``solver.terrace.idle_card_home``, the module that implements it."""


SAFE_NO_LONE_SHIFT = 4
"""``no_lone_shift`` (every rule set): never move a tableau pile's only card to an empty
tableau pile.

Claim: such a move leads to the position it started from, up to the order of the tableau
piles. The pile it leaves becomes a gap, but a gap was open before the move (the one it
went to) after the automatic actions had run, so every place the gap rule fills from was
empty, and is still: no automatic action follows. Under the canonical key it is the same
state, so a line that makes the move wins as well without it."""


SAFE_RESERVE_ORDER = 8
"""``reserve_order``: its proof is the docstring of ``solver.terrace.reserve_order``, the module that implements it."""
