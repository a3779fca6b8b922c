"""The Python half of the Terrace family's kernel contract (``solver.kernels``): its
configuration, loading a position, the notation of its moves and its searches for wins
(``solver.terrace.beam_order``). It has no relaxation, root verdict or memo: the
contract's defaults."""

from __future__ import annotations

import numpy as np

from solver import toolkit
from solver.contract import memo_slots, relaxation_lost, relaxation_moves, root_verdict  # noqa: F401
from solver.moves import BASE, Move, card_move
from solver.piles import PHASE_CHOOSE_BASE
from solver.terrace.flags import SAFE_RESERVE_BLOCKED, SAFE_IDLE_CARD_HOME, SAFE_NO_LONE_SHIFT, SAFE_RESERVE_ORDER, STREAMLINER  # noqa: F401
from solver.terrace import beam_order
from solver.terrace.layout import base_rank
from solver.terrace.slots import (C_AUTOFILL, C_CHOICES, C_FP0, C_FSS, C_GAP, C_NOBASE, C_NTAB, C_R2T, C_REDEALS,
                                  C_STOCK, C_TAKEBACK, C_TSS, C_WASTE, CFG_LEN, GAP_RULES, K_BASE, S_BASE,
                                  S_CHOOSE, S_REDEALS)
from solver.toolkit import K_CARD, PILE0, dst_of, fill_common, kind_of, src_of


def make_cfg(rules, safe_flags: int) -> np.ndarray:
    cfg = np.zeros(CFG_LEN, dtype=np.int64)
    fill_common(cfg, rules, safe_flags)
    t = rules["tableau_piles"]
    cfg[C_NTAB] = t
    cfg[C_WASTE], cfg[C_STOCK], cfg[C_FP0] = t + 1, t + 2, t + 3
    cfg[C_FSS] = int(rules["found_build"] == "SS")
    cfg[C_TSS] = int(rules["tableau_build"] == "SS")
    cfg[C_GAP] = GAP_RULES[rules["gap_rule"]]
    cfg[C_AUTOFILL] = int(rules["waste_autofill"])
    cfg[C_TAKEBACK] = int(rules["found_takeback"])
    cfg[C_REDEALS] = rules["redeals"]
    cfg[C_NOBASE] = int(rules["no_build_on_base_rank"])
    cfg[C_CHOICES] = rules["base_choices"] if rules["base_mode"] == "choose" else 0
    cfg[C_R2T] = int(rules["reserve_to_tableau"])
    return cfg


def acyclic(rules) -> bool:
    """Tableau cards move back and forth (and foundation cards with take-back): lines of play
    can repeat states."""
    return False


def n_piles(rules) -> int:
    return rules["tableau_piles"] + 3 + 2 * rules["suits"]


def load_position(rules, pos, state) -> None:
    """Fill the kernel arrays from a reference-engine ``Position``."""
    toolkit.load_piles(state.piles, state.lens, pos.reserves + pos.tableau + pos.waste, pos.stock)
    fp0 = rules["tableau_piles"] + 3
    for f, p in enumerate(pos.foundations):
        state.piles[fp0 + f, :len(p)] = p
        state.lens[fp0 + f] = len(p)
        state.fnd[f] = len(p)
    state.scal[S_REDEALS] = pos.redeals_used
    state.scal[S_CHOOSE] = int(pos.phase == PHASE_CHOOSE_BASE)
    state.scal[S_BASE] = base_rank(pos) or 0


def _location_ref(rules, loc: int):
    if loc < PILE0:
        return ("f", loc)
    p = loc - PILE0
    t = rules["tableau_piles"]
    return ("r", 0) if p == 0 else ("t", p - 1) if p <= t else ("w", 0)


def to_moves(rules, m: int, info):
    """The notation's moves for kernel move ``m`` (automatic actions are not written)."""
    if kind_of(m) == K_BASE:
        return [Move(BASE, ("t", src_of(m) - PILE0 - 1), None, -1)]
    if kind_of(m) == K_CARD:
        return [card_move(_location_ref(rules, src_of(m)), _location_ref(rules, dst_of(m)), -1)]
    return toolkit.to_moves(rules, m, 1, "w")


def win_plan(cfg, nodes: int) -> list:
    """The searches for wins after a search that ran out of nodes (``solver.terrace.beam_order``)."""
    return beam_order.plan(cfg, nodes)
