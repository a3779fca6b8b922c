"""Player actions and their notation (parsed and printed here only).

Notation, one token per action:

* ``r3>f0:2C``  a card move: from pile ``r3`` to pile ``f0``; the trailing card is the one
  moved, so a reader (and the replayer) can check it. Piles: ``f`` foundation,
  ``r`` reserve, ``t`` tableau, ``w`` waste; indices from 0.
* ``deal``      deal from the stock (as the variant deals: one card to each waste pile,
  or Algerian's deals to the reserves / tableau).
* ``redeal``    turn the waste over into a new stock (and, where the rules say so, deal).
* ``base:2:6C`` Terrace family: choose the card on tableau pile 2 (6C) as the base.

Automatic actions (gap fills, waste refills, reserve reinforcement) are not written:
replaying performs them. The card part (``:2C``) may be omitted when reading.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable, Optional

from solver import cards
from solver.errors import NotationError

CARD_MOVE = "card"
DEAL = "deal"
REDEAL = "redeal"
BASE = "base"

PILE_KINDS = {"f": "foundation", "r": "reserve", "t": "tableau", "w": "waste"}

PileRef = tuple[str, int]       # ('r', 3)


@dataclass(frozen=True)
class Move:
    """One player action. ``card`` is -1 when not given (parsed text without ``:card``)."""

    kind: str
    src: Optional[PileRef] = None
    dst: Optional[PileRef] = None
    card: int = -1

    def __str__(self) -> str:
        return format_move(self)

    def same_action(self, other: "Move") -> bool:
        """Equal up to the card check (a parsed move may omit its card)."""
        return (self.kind, self.src, self.dst) == (other.kind, other.src, other.dst) and \
            (self.card < 0 or other.card < 0 or self.card == other.card)


def card_move(src: PileRef, dst: PileRef, card: int) -> Move:
    return Move(CARD_MOVE, src, dst, card)


def pile_text(p: PileRef) -> str:
    return f"{p[0]}{p[1]}"


def format_move(m: Move) -> str:
    suffix = f":{cards.text(m.card)}" if m.card >= 0 else ""
    if m.kind == CARD_MOVE:
        return f"{pile_text(m.src)}>{pile_text(m.dst)}{suffix}"
    if m.kind == BASE:
        return f"base:{m.src[1]}{suffix}"
    return m.kind


_CARD_RE = re.compile(r"^([frtw])(\d+)>([frtw])(\d+)(?::(\w+))?$")
_BASE_RE = re.compile(r"^base:t?(\d+)(?::(\w+))?$")


def parse_move(text: str) -> Move:
    """Parse one token of the notation."""
    t = text.strip()
    low = t.lower()
    if low in (DEAL, REDEAL):
        return Move(low)
    m = _CARD_RE.match(low)
    if m:
        card = _card(m.group(5), t)
        return Move(CARD_MOVE, (m.group(1), int(m.group(2))), (m.group(3), int(m.group(4))), card)
    m = _BASE_RE.match(low)
    if m:
        return Move(BASE, ("t", int(m.group(1))), None, _card(m.group(2), t))
    raise NotationError(f"not a move: {text!r} (expected e.g. r3>f0:2C, deal, redeal, base:2)")


def _card(s: Optional[str], whole: str) -> int:
    if s is None:
        return -1
    try:
        return cards.parse(s)
    except cards.CardError:
        raise NotationError(f"not a move: {whole!r} (bad card {s!r})") from None


def parse_moves(text: str | Iterable[str]) -> list[Move]:
    """Parse a move list: whitespace- or comma-separated tokens, or an iterable of tokens."""
    tokens = re.split(r"[\s,]+", text.strip()) if isinstance(text, str) else list(text)
    return [parse_move(t) for t in tokens if t]


def format_moves(moves: Iterable[Move]) -> str:
    return " ".join(format_move(m) for m in moves)
