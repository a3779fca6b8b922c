"""What every family's reference engine shares: positions, a mutable board for applying a
move, and the move loop (legal moves from "which tops may move" x "which piles accept").

Each family's rules live in ``solver/<family>/rules.py`` as an ``Engine`` subclass that
states, once each: which pile tops may move (``sources``), which pile accepts which card
(``accepts``), its stock actions (``stock_moves`` / ``perform_stock``) and its automatic
actions (``automatic``). This module is plain Python on purpose: it is the judge of every
"won" the fast solver reports.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Iterator, Optional

from solver import cards
from solver.kernels import family
from solver.layout import PHASE_PLAY, Layout, Pile, foundation_suits
from solver.moves import BASE, CARD_MOVE, DEAL, REDEAL, Move, PileRef, card_move, format_move, pile_text
from solver.variants import Rules
from solver.errors import IllegalMove

GROUPS = {"f": "foundations", "r": "reserves", "t": "tableau", "w": "waste"}


@dataclass(frozen=True)
class Position:
    """A whole game position: every pile bottom to top, the stock in dealing order
    (``stock[0]`` is dealt next), the redeals used so far, and the phase."""

    foundations: tuple[Pile, ...]
    reserves: tuple[Pile, ...]
    tableau: tuple[Pile, ...]
    waste: tuple[Pile, ...]
    stock: Pile
    redeals_used: int = 0
    phase: str = PHASE_PLAY

    @classmethod
    def from_layout(cls, layout: Layout) -> "Position":
        return cls(layout.foundations, layout.reserves, layout.tableau, layout.waste, layout.stock,
                   0, layout.phase)

    def to_layout(self) -> Layout:
        return Layout(self.foundations, self.reserves, self.tableau, self.waste, self.stock, self.phase)

    def group(self, letter: str) -> tuple[Pile, ...]:
        return getattr(self, GROUPS[letter])

    def pile(self, ref: PileRef) -> Pile:
        return self.group(ref[0])[ref[1]]

    def top(self, ref: PileRef) -> Optional[int]:
        p = self.pile(ref)
        return p[-1] if p else None

    def refs(self, letter: str) -> list[PileRef]:
        return [(letter, i) for i in range(len(self.group(letter)))]

    def has_pile(self, ref: PileRef) -> bool:
        return ref[0] in GROUPS and 0 <= ref[1] < len(self.group(ref[0]))


class Board:
    """A mutable copy of a position, used while one action and its automatic
    consequences are carried out."""

    def __init__(self, pos: Position):
        self.piles = {k: [list(p) for p in pos.group(k)] for k in GROUPS}
        self.stock = list(pos.stock)
        self.redeals_used = pos.redeals_used
        self.phase = pos.phase

    def pile(self, ref: PileRef) -> list[int]:
        return self.piles[ref[0]][ref[1]]

    def move_card(self, src: PileRef, dst: PileRef) -> int:
        c = self.pile(src).pop()
        self.pile(dst).append(c)
        return c

    def deal_to(self, dst: PileRef) -> int:
        c = self.stock.pop(0)
        self.pile(dst).append(c)
        return c

    def empty(self, letter: str) -> list[PileRef]:
        return [(letter, i) for i, p in enumerate(self.piles[letter]) if not p]

    def freeze(self) -> Position:
        t = {GROUPS[k]: tuple(tuple(p) for p in v) for k, v in self.piles.items()}
        return Position(stock=tuple(self.stock), redeals_used=self.redeals_used, phase=self.phase, **t)


class Engine:
    """Base of the three family engines. Subclasses state the rules."""

    family = ""

    def __init__(self, rules: Rules):
        if rules.family != self.family:
            raise ValueError(f"{type(self).__name__} plays the {self.family} family, not {rules.family}")
        self.rules = rules
        self.ranks = rules["ranks"]
        self.suits = rules["suits"]
        self.fsuits = foundation_suits(rules)      # the suit of each foundation

    # ----- to be stated by each family -------------------------------------------------
    def sources(self, pos: Position) -> list[PileRef]:
        """Piles whose top card the player may move."""
        raise NotImplementedError

    def accepts(self, pos: Position, src: PileRef, dst: PileRef, card: int) -> bool:
        """Whether pile ``dst`` accepts ``card`` moved by the player from ``src``."""
        raise NotImplementedError

    def stock_moves(self, pos: Position) -> list[Move]:
        """Deal, redeal and (Terrace) base-choice actions available now."""
        raise NotImplementedError

    def perform_stock(self, board: Board, move: Move) -> None:
        """Carry out a deal, redeal or base choice."""
        raise NotImplementedError

    def automatic(self, board: Board, move: Move) -> None:
        """The automatic actions the rules impose after ``move`` (default: none)."""

    def game_over(self, pos: Position) -> bool:
        """A rule that ends play early (default: none)."""
        return False

    # ----- shared ----------------------------------------------------------------------
    def initial_position(self, layout: Layout) -> Position:
        return Position.from_layout(layout)

    def legal_moves(self, pos: Position) -> list[Move]:
        """Every legal player action in ``pos``."""
        if self.game_over(pos):
            return []
        moves = list(self.stock_moves(pos))
        if pos.phase != PHASE_PLAY:
            return moves
        targets = [r for k in GROUPS for r in pos.refs(k)]
        for src in self.sources(pos):
            card = pos.top(src)
            if card is None:
                continue
            for dst in targets:
                if dst != src and self.accepts(pos, src, dst, card):
                    moves.append(card_move(src, dst, card))
        return moves

    def apply(self, pos: Position, move: Move) -> Position:
        """The position after ``move`` and every automatic action it triggers."""
        legal = self.legal_form(pos, move)
        if legal is None:
            raise IllegalMove(self.why_illegal(pos, move))
        return self.play(pos, legal)

    def legal_form(self, pos: Position, move: Move) -> Optional[Move]:
        """The member of ``legal_moves(pos)`` that ``move`` names (its card filled in), or
        None. The same test as ``legal_moves``, for one move instead of all of them."""
        if self.game_over(pos):
            return None
        if move.kind != CARD_MOVE:
            return next((m for m in self.stock_moves(pos) if m.same_action(move)), None)
        if pos.phase != PHASE_PLAY or move.src == move.dst:
            return None
        if not (pos.has_pile(move.src) and pos.has_pile(move.dst)):
            return None
        card = pos.top(move.src)
        if card is None or (move.card >= 0 and move.card != card):
            return None
        if move.src in self.sources(pos) and self.accepts(pos, move.src, move.dst, card):
            return card_move(move.src, move.dst, card)
        return None

    def play(self, pos: Position, legal: Move) -> Position:
        """``apply`` for a move taken from ``legal_moves(pos)`` (not checked again)."""
        board = Board(pos)
        if legal.kind == CARD_MOVE:
            board.move_card(legal.src, legal.dst)
        else:
            self.perform_stock(board, legal)
        self.automatic(board, legal)
        return board.freeze()

    def successors(self, pos: Position) -> Iterator[tuple[Move, Position]]:
        for m in self.legal_moves(pos):
            yield m, self.play(pos, m)

    def is_won(self, pos: Position) -> bool:
        """All cards on the foundations."""
        return not pos.stock and all(not p for k in "rtw" for p in pos.group(k))

    def why_illegal(self, pos: Position, move: Move) -> str:
        """A one-line reason why ``move`` is not legal in ``pos``."""
        if self.game_over(pos):
            return "the game is over (the stock ran out in the last pass)"
        if move.kind in (DEAL, REDEAL, BASE):
            return self.stock_reason(pos, move)
        if pos.phase != PHASE_PLAY:
            return "the base card must be chosen first (base:N)"
        for ref in (move.src, move.dst):
            if not pos.has_pile(ref):
                return f"there is no pile {pile_text(ref)} in this game"
        top = pos.top(move.src)
        if top is None:
            return f"{pile_text(move.src)} is empty"
        if move.card >= 0 and move.card != top:
            return f"the top of {pile_text(move.src)} is {cards.text(top)}, not {cards.text(move.card)}"
        if move.src not in self.sources(pos):
            return f"cards cannot be moved from {pile_text(move.src)}"
        dtop = pos.top(move.dst)
        onto = f"onto {cards.text(dtop)}" if dtop is not None else "onto an empty pile"
        return f"{cards.text(top)} cannot go from {pile_text(move.src)} to {pile_text(move.dst)} ({onto})"

    def stock_reason(self, pos: Position, move: Move) -> str:
        if move.kind == DEAL:
            return "the stock is empty" if not pos.stock else "dealing is not allowed now"
        if move.kind == REDEAL:
            return "a redeal is not allowed now (the stock must be empty, the waste not, and a redeal left)"
        return "no base choice is open now" if pos.phase == PHASE_PLAY else f"{format_move(move)} is not a base candidate"

    # ----- helpers for the family rules --------------------------------------------------
    def full(self, pile: Pile) -> bool:
        return len(pile) >= self.ranks

    def adjacent(self, a: int, b: int, wrap: bool = True) -> bool:
        return cards.rank(a) != cards.rank(b) and cards.adjacent(cards.rank(a), cards.rank(b), self.ranks, wrap)


class UpDownFoundations:
    """Mixin for families whose foundations ``0..s-1`` build up from the Ace and ``s..2s-1``
    down from the top rank, by suit, never wrapping (Alhambra, Algerian)."""

    def foundation_accepts(self, pos: Position, i: int, card: int) -> bool:
        pile = pos.foundations[i]
        up = i < self.suits
        if cards.suit(card) != self.fsuits[i]:
            return False
        if not pile:                        # only in hand-made layouts: start from A / top rank
            return cards.rank(card) == (1 if up else self.ranks)
        return cards.rank(card) == cards.rank(pile[-1]) + (1 if up else -1)


def engine_for(rules: Rules) -> Engine:
    """The reference engine of ``rules``' family (from the registry, ``solver.kernels``)."""
    mod, cls = family(rules.family).engine.split(":")
    return getattr(importlib.import_module(mod), cls)(rules)
