"""Reference rules of Algerian Patience (RULES.md Part II section 3, options of Part I.3).

Foundations f0..f(s-1) build up in suit from the Ace, f(s)..f(2s-1) down in suit from the
King, no wrap. Tableau piles build up or down in suit (K-A wrap by default), one card at
a time; an empty pile takes any card. Reserves give cards to foundations and the tableau.
Deals: while more cards than tableau piles remain, two rounds over the reserves; a stock
of exactly as many cards as tableau piles is dealt one to each pile.
"""

from __future__ import annotations

from solver import cards
from solver.engine import Board, Engine, Position, UpDownFoundations
from solver.moves import DEAL, Move, PileRef


class AlgerianEngine(UpDownFoundations, Engine):
    family = "algerian"

    def sources(self, pos: Position) -> list[PileRef]:
        out = pos.refs("t") + pos.refs("r")
        if self.rules["foundation_transfer"] or self.rules["foundation_to_tableau"]:
            out += pos.refs("f")
        return out

    def accepts(self, pos: Position, src: PileRef, dst: PileRef, card: int) -> bool:
        if dst[0] == "f":
            if src[0] == "f" and not self.rules["foundation_transfer"]:
                return False
            return self.foundation_accepts(pos, dst[1], card)
        # Foundation cards leave for the tableau or a reserve cell only under
        # foundation_to_tableau (the seed forbids it; PySolFC allows it).
        if src[0] == "f" and not self.rules["foundation_to_tableau"]:
            return False
        if dst[0] == "t":
            top = pos.top(dst)
            if top is None:
                return True
            return cards.suit(card) == cards.suit(top) and self.adjacent(card, top, self.rules["tableau_wrap"])
        if dst[0] == "r":
            return self.reserve_cell_accepts(pos, src, dst)
        return False

    def reserve_cell_accepts(self, pos: Position, src: PileRef, dst: PileRef) -> bool:
        # PySolFC's quirk: an empty reserve holds one card until the next deal covers it.
        scope = self.rules["empty_reserve_as_cell"]
        if scope == "off" or pos.pile(dst):
            return False
        return src[0] == "t" if scope == "from_tableau" else True

    def stock_moves(self, pos: Position) -> list[Move]:
        return [Move(DEAL)] if pos.stock else []

    def perform_stock(self, board: Board, move: Move) -> None:
        # PySolFC Carthage_Talon.dealCards (dealRowAvail: stops when the stock runs out).
        if len(board.stock) == len(board.piles["t"]):
            for i in range(len(board.piles["t"])):
                board.deal_to(("t", i))
            return
        for _ in range(2):
            for i in range(len(board.piles["r"])):
                if board.stock:
                    board.deal_to(("r", i))
