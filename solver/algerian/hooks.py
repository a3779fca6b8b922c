"""The Python half of Algerian Patience's kernel contract (``solver.kernels``): its
configuration, loading a position and the notation of its moves. It has none of the extras
(relaxation, root verdict, searches for wins, memo): the contract's defaults."""

from __future__ import annotations

import numpy as np

from solver import toolkit
from solver.algerian.flags import SAFE_NO_PILE_SWAP, STREAMLINER  # noqa: F401  (read by solver.kernels)
from solver.algerian.slots import C_CELL, C_F2T, C_NRES, C_NTAB, C_STOCK, C_TRANSFER, C_WRAP, CELL_MODES, CFG_LEN
from solver.contract import (memo_slots, relaxation_lost, relaxation_moves,  # noqa: F401
                             root_verdict, win_plan)
from solver.toolkit import fill_common, load_foundations, load_piles


def make_cfg(rules, safe_flags: int = 0) -> np.ndarray:
    cfg = np.zeros(CFG_LEN, dtype=np.int64)
    fill_common(cfg, rules, safe_flags)
    cfg[C_NRES], cfg[C_NTAB] = rules["reserves"], rules["tableau_piles"]
    cfg[C_WRAP] = int(rules["tableau_wrap"])
    cfg[C_CELL] = CELL_MODES[rules["empty_reserve_as_cell"]]
    cfg[C_F2T] = int(rules["foundation_to_tableau"])
    cfg[C_TRANSFER] = int(rules["foundation_transfer"])
    cfg[C_STOCK] = rules["reserves"] + rules["tableau_piles"]
    return cfg


def acyclic(rules) -> bool:
    """Tableau cards move back and forth: lines of play can repeat states."""
    return False


def n_piles(rules) -> int:
    return rules["reserves"] + rules["tableau_piles"] + 1


def load_position(rules, pos, state) -> None:
    """Fill the kernel arrays from a reference-engine ``Position`` (``scal`` stays zero:
    Algerian has no redeals)."""
    load_piles(state.piles, state.lens, pos.reserves + pos.tableau, pos.stock)
    load_foundations(rules, pos.foundations, state.fnd)


def to_moves(rules, m: int, info):
    """The notation's moves for kernel move ``m`` (Algerian deals are never merged)."""
    return toolkit.to_moves(rules, m, 1, "t")
