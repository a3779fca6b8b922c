"""Reference rules of the Terrace family: Terrace (Queen of Italy), PySolFC's Queen of
Italy, General's Patience, Blondes and Brunettes, Falling Star, Redheads
(RULES.md Part II section 2, options of Part I.3 and section 2.8).

Eight foundations (two per suit) all start at the base rank b and build up with K-A wrap,
13 cards each, in alternate colours (AC) or in suit (SS); an empty foundation takes a
rank-b card of its suit tag (C C S S H H D D). Tableau piles build down with wrap in
alternate colours (or in suit); the player never puts a reserve card on the tableau
(unless ``reserve_to_tableau``, an option for comparing with generic solvers). The reserve
gives cards only to foundations; the waste to foundations and the tableau.
"""

from __future__ import annotations

from typing import Optional

from solver import cards
from solver.engine import Board, Engine, Position
from solver.piles import PHASE_CHOOSE_BASE, PHASE_PLAY
from solver.terrace.layout import base_foundation, base_rank
from solver.moves import BASE, DEAL, REDEAL, Move, PileRef

AUTO_GAP_SOURCES = {          # gap_rule -> where an empty tableau pile is filled from, in order
    "auto_waste": ("w",),
    "auto_stock": ("stock", "w"),
    "auto_reserve_first": ("r", "w", "stock"),
}


class TerraceEngine(Engine):
    family = "terrace"

    def base_rank(self, pos: Position) -> Optional[int]:
        return base_rank(pos)               # a Position has a Layout's foundations

    # --- which tops may move ---------------------------------------------------------------
    def sources(self, pos: Position) -> list[PileRef]:
        out = pos.refs("t") + pos.refs("w") + pos.refs("r")
        if self.rules["found_takeback"]:
            # PySolFC Queen of Italy: a foundation's top may come back if a card stays (the base never moves).
            out += [("f", i) for i, p in enumerate(pos.foundations) if len(p) >= 2]
        return out

    # --- which pile accepts which card -------------------------------------------------------
    def accepts(self, pos: Position, src: PileRef, dst: PileRef, card: int) -> bool:
        if dst[0] == "f":
            return self.foundation_accepts(pos, dst[1], card)
        if dst[0] == "t":
            if src[0] == "r" and not self.rules["reserve_to_tableau"]:
                return False               # never a reserve card onto the tableau by hand
            top = pos.top(dst)
            if top is None:
                return self.gap_accepts(src)
            return self.tableau_accepts(pos, top, card)
        return False                       # nothing onto the reserve or the waste

    def foundation_accepts(self, pos: Position, i: int, card: int) -> bool:
        pile = pos.foundations[i]
        if not pile:
            b = self.base_rank(pos)
            return cards.rank(card) == b and cards.suit(card) == self.fsuits[i]
        if self.full(pile):
            return False
        top = pile[-1]
        if cards.rank(card) != cards.succ(cards.rank(top), self.ranks):
            return False
        if self.rules["found_build"] == "SS":
            return cards.suit(card) == cards.suit(top)
        return cards.colour(card) != cards.colour(top)

    def tableau_accepts(self, pos: Position, top: int, card: int) -> bool:
        if self.rules["no_build_on_base_rank"] and cards.rank(top) == self.base_rank(pos):
            return False
        if cards.rank(card) != cards.pred(cards.rank(top), self.ranks):
            return False
        if self.rules["tableau_build"] == "SS":
            return cards.suit(card) == cards.suit(top)
        return cards.colour(card) != cards.colour(top)

    def gap_accepts(self, src: PileRef) -> bool:
        """What the player may put on an empty tableau pile (automatic fills aside)."""
        if self.rules["gap_rule"] == "waste_only":
            return src[0] == "w"
        return src[0] in ("t", "w", "f", "r")     # "r" only gets here with reserve_to_tableau

    # --- base choice, deal, redeal --------------------------------------------------------
    def stock_moves(self, pos: Position) -> list[Move]:
        if pos.phase == PHASE_CHOOSE_BASE:
            n = self.rules["base_choices"]
            return [Move(BASE, ("t", i), None, pos.tableau[i][-1]) for i in range(n) if pos.tableau[i]]
        out = []
        if self.can_deal(pos):
            out.append(Move(DEAL))
        if self.can_redeal(pos):
            out.append(Move(REDEAL))
        return out

    def can_deal(self, pos: Position) -> bool:
        # In the play-or-stop second pass a card is dealt only onto an empty waste.
        return bool(pos.stock) and (pos.redeals_used == 0 or not pos.waste[0])

    def can_redeal(self, pos: Position) -> bool:
        return not pos.stock and bool(pos.waste[0]) and pos.redeals_used < self.rules["redeals"]

    def perform_stock(self, board: Board, move: Move) -> None:
        if move.kind == BASE:
            # The chosen card starts the first foundation of its suit; then the opening deal
            # goes on: one card to each empty tableau pile in index order, then one to the waste.
            card = board.pile(move.src).pop()
            board.piles["f"][base_foundation(self.rules, card)].append(card)
            for ref in board.empty("t"):
                if board.stock:
                    board.deal_to(ref)
            if board.stock:
                board.deal_to(("w", 0))
            board.phase = PHASE_PLAY
        elif move.kind == DEAL:
            board.deal_to(("w", 0))
        else:                              # redeal: the waste turned over, order kept
            board.stock = list(board.piles["w"][0])
            board.piles["w"][0].clear()
            board.redeals_used += 1

    # --- automatic actions --------------------------------------------------------------------
    def automatic(self, board: Board, move: Move) -> None:
        """Gap fills (per gap_rule) and waste refills, repeated until nothing changes."""
        order = AUTO_GAP_SOURCES.get(self.rules["gap_rule"], ())
        while True:
            gaps = board.empty("t")
            source = self.gap_source(board, order) if gaps else None
            if source is not None:
                if source == "stock":
                    board.deal_to(gaps[0])
                else:
                    board.move_card(source, gaps[0])
                continue
            waste = board.piles["w"][0]
            if self.rules["waste_autofill"] and not waste and board.stock:
                board.deal_to(("w", 0))
                continue
            return

    @staticmethod
    def gap_source(board: Board, order) -> Optional[PileRef | str]:
        for s in order:
            if s == "stock":
                if board.stock:
                    return "stock"
            elif board.piles[s][0]:
                return (s, 0)
        return None
