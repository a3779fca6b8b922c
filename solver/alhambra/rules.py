"""Reference rules of the Alhambra family: Alhambra, Granada, The Reinforcements
(RULES.md Part II section 1, with the options of Part I.3 and section 4).

Piles: foundations f0..f(s-1) build up in suit from the Ace, f(s)..f(2s-1) down in suit
from the King, no wrap, never leave; reserves only give cards; waste piles build up or
down in suit with K-A wrap and give cards only to foundations (and, with several waste
piles, to each other).
"""

from __future__ import annotations

from solver import cards
from solver.engine import Board, Engine, Position, UpDownFoundations
from solver.moves import DEAL, REDEAL, Move, PileRef


class AlhambraEngine(UpDownFoundations, Engine):
    family = "alhambra"

    # --- which tops may move ---------------------------------------------------------------
    def sources(self, pos: Position) -> list[PileRef]:
        # Reserve tops and waste tops; foundation cards never move.
        return pos.refs("r") + pos.refs("w")

    # --- which pile accepts which card -------------------------------------------------------
    def accepts(self, pos: Position, src: PileRef, dst: PileRef, card: int) -> bool:
        if dst[0] == "f":
            return self.foundation_accepts(pos, dst[1], card)
        if dst[0] == "w":
            return self.waste_accepts(pos, src, dst, card)
        return False                       # nothing is ever put on a reserve by the player

    def waste_accepts(self, pos: Position, src: PileRef, dst: PileRef, card: int) -> bool:
        # From a reserve; with several waste piles (Granada) also from another waste pile.
        if src[0] not in ("r", "w"):
            return False
        top = pos.top(dst)
        if top is None:
            return self.rules["empty_waste_accepts_any"]
        return cards.suit(card) == cards.suit(top) and self.adjacent(card, top, wrap=True)

    # --- stock -------------------------------------------------------------------------
    def stock_moves(self, pos: Position) -> list[Move]:
        if pos.stock:
            return [Move(DEAL)]
        if self.can_redeal(pos):
            return [Move(REDEAL)]
        return []

    def can_redeal(self, pos: Position) -> bool:
        return not pos.stock and any(pos.waste) and pos.redeals_used < self.rules["redeals"]

    def perform_stock(self, board: Board, move: Move) -> None:
        if move.kind == DEAL:
            self.deal(board)
            return
        # Redeal: PySolFC collects W0, W1, ... each top card first onto the stock, so the
        # new dealing order is W(n-1) bottom->top, ..., W0 bottom->top (Alhambra: the waste
        # read bottom to top). Then, as one action, the first deal.
        new_stock = []
        for pile in reversed(board.piles["w"]):
            new_stock.extend(pile)
            pile.clear()
        board.stock = new_stock
        board.redeals_used += 1
        if self.rules["redeal_includes_first_deal"]:
            self.deal(board)

    def deal(self, board: Board) -> None:
        """One card to each waste pile in order, while the stock lasts."""
        for i in range(len(board.piles["w"])):
            if board.stock:
                board.deal_to(("w", i))

    # --- automatic actions --------------------------------------------------------------------
    def automatic(self, board: Board, move: Move) -> None:
        # Grant's Reinforcement: after a card move (PySolFC fillStack), or with
        # reinforce_timing=immediate after any action, every empty reserve takes the
        # stock's next card, in reserve order.
        if not self.rules["reinforce"]:
            return
        if move.kind in (DEAL, REDEAL) and self.rules["reinforce_timing"] != "immediate":
            return
        for ref in board.empty("r"):
            if board.stock:
                board.deal_to(ref)

    def game_over(self, pos: Position) -> bool:
        # The seed's strict reading: the game ends when the stock runs out in the last pass.
        return (self.rules["stop_at_third_exhaustion"] and not pos.stock
                and pos.redeals_used >= self.rules["redeals"] and not self.is_won(pos))
