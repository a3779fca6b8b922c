"""PySolFC game numbers, its two random generators, the shuffle and shuffle hooks.

This reproduces PySolFC exactly (RULES.md Part II section 0.3 and Appendix A):

* a game number is parsed as PySolFC's ``constructRandom`` does: ``msN`` selects the
  Microsoft generator for any N < 2**33; otherwise whitespace and ``# - _ . ,`` are
  removed and N in 1..31999 selects the Microsoft generator, anything else CPython's
  Mersenne Twister ``random.Random(N)``;
* the shuffle is PySolFC's downward Fisher-Yates over card ids ``0..103``;
* a game's "move to top" hook pulls selected cards to the end of the list;
* the talon's last card is dealt first, so the deal sequence D is the reversed list.

Miniature packs (fewer ranks or suits) are shuffled by the same code over their own id
list; this is our own definition (PySolFC has no such games).
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from typing import Callable, Optional

from solver import cards
from solver.errors import GameNumberError

LC31_LIMIT = 32000            # plain numbers below this use the Microsoft generator
MS_MAX = (1 << 33) - 1        # largest number PySolFC accepts after "ms"


@dataclass(frozen=True)
class GameNumber:
    """A PySolFC game number: its value and whether it was given with ``ms``."""

    value: int
    ms: bool = False

    @property
    def uses_lc31(self) -> bool:
        """True when the Microsoft (LCRandom31) generator makes this deal."""
        return self.ms or self.value < LC31_LIMIT

    def __str__(self) -> str:
        # "ms" only matters where it changes the generator.
        if self.ms and self.value >= LC31_LIMIT:
            return f"ms{digits(self.value)}"
        return digits(self.value)


_CHUNK = 1000                 # digits per step: below Python's 4,300-digit conversion limit


def digits(n: int) -> str:
    """``str(n)`` for a non-negative integer of any length (``str`` refuses more than
    4,300 digits)."""
    if n < 10 ** _CHUNK:
        return str(n)
    parts = []
    while n:
        n, r = divmod(n, 10 ** _CHUNK)
        parts.append(str(r).zfill(_CHUNK))
    return "".join(reversed(parts)).lstrip("0")


def from_digits(t: str) -> int:
    """``int(t)`` for a string of ASCII digits of any length."""
    n = 0
    for i in range(0, len(t), _CHUNK):
        chunk = t[i:i + _CHUNK]
        n = n * 10 ** len(chunk) + int(chunk)
    return n


_MS = re.compile(r"ms([0-9]+)\n?\Z", re.IGNORECASE)
_SEPARATORS = re.compile(r"[\s#\-_.,]")


def parse_game_number(s: str | int) -> GameNumber:
    """Parse a game number as PySolFC does; 0, negatives and garbage are errors."""
    if isinstance(s, int):
        s = digits(s) if s >= 0 else str(s)
    raw = s.strip()
    m = _MS.match(raw)
    if m:
        n = from_digits(m.group(1))
        if not 1 <= n <= MS_MAX:
            raise GameNumberError(f"game number {raw!r}: ms numbers run from ms1 to ms{MS_MAX}")
        return GameNumber(n, ms=True)
    if raw.startswith("-"):
        raise GameNumberError(f"game number {raw!r} is negative; game numbers start at 1")
    t = _SEPARATORS.sub("", raw.lower())
    if t.endswith("l"):
        t = t[:-1]
    if not t.isdigit() or not t.isascii():
        raise GameNumberError(f"not a game number: {s!r} (expected digits such as 1 or 123456789, or ms123)")
    n = from_digits(t)
    if n == 0:
        raise GameNumberError("game number 0 names no deal; game numbers start at 1")
    return GameNumber(n)


class LCRandom31:
    """PySolFC's Microsoft-compatible generator (``pysollib.pysolrandom.LCRandom31``)."""

    def __init__(self, seed: int):
        self.seed = seed
        self.seedx = seed if seed < 0x100000000 else seed - 0x100000000

    def randint(self, a: int, b: int) -> int:
        self.seedx = (self.seedx * 214013 + 2531011) & MS_MAX
        if self.seed < 0x100000000:
            ret = (self.seedx >> 16) & 0x7FFF
            if self.seed >= 0x80000000:
                ret |= 0x8000
        else:
            ret = ((self.seedx >> 16) & 0xFFFF) + 1
        return a + ret % (b + 1 - a)


class MTRandom:
    """PySolFC's generator for all other numbers: CPython's Mersenne Twister."""

    def __init__(self, seed: int):
        self.r = random.Random(seed)

    def randint(self, a: int, b: int) -> int:
        return a + int(self.r.random() * (b + 1 - a))


def generator(game: GameNumber) -> LCRandom31 | MTRandom:
    """The generator PySolFC uses for ``game``."""
    return LCRandom31(game.value) if game.uses_lc31 else MTRandom(game.value)


def shuffle(ids: list, game: GameNumber) -> list:
    """PySolFC's shuffle (downward Fisher-Yates) of ``ids``; returns a new list."""
    out = list(ids)
    rng = generator(game)
    for i in range(len(out) - 1, 0, -1):
        j = rng.randint(0, i)
        out[i], out[j] = out[j], out[i]
    return out


# A card id in a deal: (deck, code). For the full pack this is PySolFC's id 52*deck+code.
DeckCard = tuple[int, int]
HookKey = Callable[[DeckCard], Optional[tuple]]


def move_to_top(ids: list[DeckCard], key: HookKey, ncards: int) -> list[DeckCard]:
    """PySolFC ``_shuffleHookMoveToTop``: pull up to ``ncards`` selected cards to the end,
    the smallest key last (so it is dealt first)."""
    ext, rest = [], []
    for c in ids:
        k = key(c)
        if k is not None and len(ext) < ncards:
            ext.append((k, c))
        else:
            rest.append(c)
    ext.sort(key=lambda t: t[0])
    return rest + [c for _, c in reversed(ext)]


def pack_ids(ranks: int = 13, suits: int = 4) -> list[DeckCard]:
    """The two-pack id list in PySolFC order: deck 0 then deck 1, suit-major, rank-minor."""
    return [(deck, code) for deck in range(2) for code in cards.pack(ranks, suits)]


def deal_sequence(game: GameNumber, hook: Optional[HookKey] = None, hook_cards: int = 0,
                  ranks: int = 13, suits: int = 4) -> list[DeckCard]:
    """The deal sequence D: D[0] is the first card dealt."""
    return dealing_order(shuffle(pack_ids(ranks, suits), game), hook, hook_cards)


def dealing_order(ids: list[DeckCard], hook: Optional[HookKey] = None, hook_cards: int = 0) -> list[DeckCard]:
    """The deal sequence D of a shuffled id list (PySolFC deals from the end of it), with
    the family's hook cards moved to the top first."""
    if hook is not None:
        ids = move_to_top(ids, hook, hook_cards)
    return list(reversed(ids))


def hook_aces_and_kings(ranks: int = 13) -> HookKey:
    """Alhambra family: deck-0 Aces and top-rank cards, key (rank, suit)."""
    def key(c: DeckCard):
        deck, code = c
        r = cards.rank(code)
        if deck == 0 and r in (1, ranks):
            return (r, cards.suit(code))
        return None
    return key


def hook_kings(ranks: int = 13) -> HookKey:
    """Algerian: deck-0 top-rank cards, key suit."""
    def key(c: DeckCard):
        deck, code = c
        if deck == 0 and cards.rank(code) == ranks:
            return (cards.suit(code),)
        return None
    return key


def id_text(c: DeckCard) -> str:
    """Card text with a prime for the deck-1 copy, as in RULES.md's fixtures."""
    deck, code = c
    return cards.text(code) + ("'" if deck else "")
