"""The one card model of the project.

A card is a small integer *code*: ``13 * suit + (rank - 1)``, so 0..51, with ranks
A=1 .. K=13 and suits in PySolFC order (clubs, spades, hearts, diamonds). The two
copies of a card share a code: for play they are the same card. Only deal
reproduction (``solver.deals``) uses PySolFC's deck-aware id ``52 * deck + code``.

Text form is two characters ``RS`` (ranks ``A23456789TJQK``, suits ``CSHD``);
``10`` is accepted for ten when reading.

Miniature games (fewer ranks) keep these codes: with ``ranks = 4`` the ranks are
A, 2, 3, 4 and 4 plays the King's part (top rank, wrap neighbour of A).
"""

from __future__ import annotations
from solver.errors import CardError

RANKS = "A23456789TJQK"
SUITS = "CSHD"
SUIT_NAMES = ("clubs", "spades", "hearts", "diamonds")
NUM_CODES = 52


def make(rank: int, suit: int) -> int:
    """Card code of ``rank`` (1..13) and ``suit`` (0..3)."""
    if not (1 <= rank <= 13 and 0 <= suit <= 3):
        raise CardError(f"no card with rank {rank} and suit {suit}")
    return 13 * suit + rank - 1


def rank(code: int) -> int:
    """Rank 1..13 (A=1, K=13)."""
    return code % 13 + 1


def suit(code: int) -> int:
    """Suit 0..3 (C, S, H, D)."""
    return code // 13


def colour(code: int) -> int:
    """0 for black (clubs, spades), 1 for red (hearts, diamonds)."""
    return code // 26


def text(code: int) -> str:
    """Two-character text, e.g. ``TD``."""
    return RANKS[code % 13] + SUITS[code // 13]


def parse(s: str) -> int:
    """Parse ``RS`` text (case-insensitive; ``10`` accepted for ``T``)."""
    t = s.strip().upper()
    if t.startswith("10"):
        t = "T" + t[2:]
    if len(t) != 2 or t[0] not in RANKS or t[1] not in SUITS:
        raise CardError(f"not a card: {s!r} (expected rank {RANKS} and suit {SUITS}, e.g. 'TD')")
    return make(RANKS.index(t[0]) + 1, SUITS.index(t[1]))


def succ(r: int, ranks: int = 13) -> int:
    """Next rank with wrap: succ(top rank) = A."""
    return r % ranks + 1


def pred(r: int, ranks: int = 13) -> int:
    """Previous rank with wrap: pred(A) = top rank."""
    return (r - 2) % ranks + 1


def adjacent(r1: int, r2: int, ranks: int = 13, wrap: bool = True) -> bool:
    """Ranks one apart; with ``wrap`` the top rank and A are adjacent too."""
    if abs(r1 - r2) == 1:
        return True
    return wrap and ranks > 2 and {r1, r2} == {1, ranks}


def suit_set(suits: int = 4) -> list[int]:
    """The suits of a pack with ``suits`` suits: all four, or for a miniature a subset
    that keeps both colours where it can (2 suits: clubs and hearts)."""
    return {1: [0], 2: [0, 2], 3: [0, 1, 2], 4: [0, 1, 2, 3]}[suits]


def pack(ranks: int = 13, suits: int = 4) -> list[int]:
    """The codes of one pack of a (possibly miniature) game, in suit-then-rank order."""
    return [make(r, s) for s in suit_set(suits) for r in range(1, ranks + 1)]
