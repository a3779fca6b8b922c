"""Algerian Patience's dominance flag bits (``cfg[C_SAFE]``), each with the proof of the
rule it turns on in the docstring after it. The rules are declared in
``solver.algerian.family``; the kernel (``solver.algerian.kernel``) reads these bits."""

SAFE_NO_PILE_SWAP = 1
"""``no_pile_swap``: once the stock is empty, never move the only card of a pile to an
empty pile of the same kind (tableau to tableau, reserve to reserve cell).

Proof: deals are the only actions that depend on a pile's index, so with the stock empty
two positions that differ by exchanging two tableau piles (or two reserves) have the same
outcome: any line from one becomes a line from the other by exchanging the two indices in
every move. Moving the only card of pile i to an empty pile j yields exactly the current
position with i and j exchanged, so skipping that move loses no outcome."""

STREAMLINER = 0                   # no unproved win-first pruning
