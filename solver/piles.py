"""A position's piles (``Layout``), and what the families' deal mappings share. A leaf:
every family's ``layout.py`` imports it, and the registry imports those."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from solver.errors import RulesError

Pile = tuple[int, ...]

PHASE_PLAY = "play"
PHASE_CHOOSE_BASE = "choose_base"   # Terrace family: the base card has not been chosen yet


@dataclass(frozen=True)
class Layout:
    """All piles of a position, bottom to top; ``stock`` in dealing order."""

    foundations: tuple[Pile, ...]
    reserves: tuple[Pile, ...]
    tableau: tuple[Pile, ...]
    waste: tuple[Pile, ...]
    stock: Pile
    phase: str = PHASE_PLAY

    def all_cards(self) -> list[int]:
        out = list(self.stock)
        for group in (self.foundations, self.reserves, self.tableau, self.waste):
            for p in group:
                out.extend(p)
        return out

    def shape(self) -> dict[str, list[int]]:
        """Pile sizes, for comparing a hand-made layout with what the variant deals."""
        return {
            "foundations": [len(p) for p in self.foundations],
            "reserves": [len(p) for p in self.reserves],
            "tableau": [len(p) for p in self.tableau],
            "waste": [len(p) for p in self.waste],
            "stock": [len(self.stock)],
        }


def round_robin(seq: Sequence[int], piles: int, rounds: int) -> list[list[int]]:
    """``rounds`` cards to each of ``piles`` piles, one pile after another each round."""
    out = [[] for _ in range(piles)]
    for k in range(rounds):
        for i in range(piles):
            out[i].append(seq[k * piles + i])
    return out


def tuples(piles) -> tuple[Pile, ...]:
    return tuple(tuple(p) for p in piles)


def need_cards(used: int, total: int) -> None:
    """Refuse rules that lay out more cards than the pack has."""
    if used > total:
        raise RulesError(f"the rules lay out {used} cards but the pack has only {total}; "
                         f"use more ranks/suits or fewer or smaller piles")
