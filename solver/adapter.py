"""A family's kernel with its rules (``KernelAdapter``): the kernel's configuration and array
sizes, loading a reference position into a kernel state, and the notation of its moves."""

from __future__ import annotations

import functools
from typing import Optional

import numpy as np

from solver.dispatch import WON_GOAL, Kernel, hash_state
from solver.engine import Position
from solver.kernels import dominance_flags, dominance_rules, hooks_module
from solver.moves import Move
from solver.state import KernelState, ZobristKeys, new_state, zobrist_tables


class KernelAdapter:
    """A family's kernel (from the registry, ``solver.kernels``) with its rules: the
    kernel's configuration and array sizes, loading a reference position, and translating
    kernel moves into the notation."""

    def __init__(self, rules, dominance=(), goal: str = WON_GOAL):
        self.k = hooks_module(rules.family)
        self.kernel = Kernel(rules.family, goal)
        self.rules = rules
        flags = dominance_flags(rules, dominance)
        self.cfg = self.k.make_cfg(rules, flags)
        # the win-first phase's streamliner, if the family has one (its lost is no verdict)
        stream = self.k.STREAMLINER
        self.stream_cfg = self.k.make_cfg(rules, flags | stream) if stream else None
        self.np = self.k.n_piles(rules)
        self.nf = 2 * rules["suits"]
        self.maxh = 2 * rules["ranks"] * rules["suits"]
        self.maxc = rules["ranks"]
        # every move leads to a state never seen before on the way (see ``LostTable``)
        self.acyclic = self.k.acyclic(rules)

    def new_memo(self, nodes: int = 0) -> np.ndarray:
        """An empty memo for the kernel's own table kept for a whole solve of ``nodes``
        nodes (``state.memo``; 0: the family's smallest)."""
        return np.zeros((self.k.memo_slots(self.cfg, nodes) or 3, 2), dtype=np.uint64)

    def to_move(self, m: int) -> Move:
        """The notation's move for kernel move ``m`` as generated (a deal is one deal)."""
        return self.to_moves(m, None)[0]

    def to_moves(self, m: int, info: Optional[int]) -> list[Move]:
        """The notation's moves for kernel move ``m`` (``info``: its undo record); a
        macro deal is several deals."""
        return self.k.to_moves(self.rules, m, info)




def adapter_for(rules, dominance=()) -> KernelAdapter:
    """The kernel adapter of ``rules`` with the dominance rules ``dominance``; a family
    with no kernel, an unknown rule or one these rules do not allow is
    ``UnsupportedVariant``."""
    return KernelAdapter(rules, tuple(dominance))


def expand_dominance(rules, names) -> tuple:
    """The rule names with ``all`` replaced by every proved rule of the family that these
    rules allow and ``all`` takes (``DominanceRule.in_all``; in the family's order, ``dominance_rules``)."""
    if "all" not in names:
        return tuple(names)
    out = [n for n in names if n != "all"]
    for name, rule in dominance_rules(rules.family).items():
        if name not in out and rule.in_all(rules):
            out.append(name)
    return tuple(out)


@functools.lru_cache(maxsize=8)
def _zobrist(np_: int, maxh: int, nf: int, maxc: int) -> ZobristKeys:
    return zobrist_tables(np_, maxh, nf, maxc)


def kernel_state(ad: KernelAdapter, pos: Position,
                 memo: Optional[np.ndarray] = None) -> tuple[KernelState, ZobristKeys]:
    """The kernel state of ``pos`` (its hash computed) and the random keys it hashes with;
    ``memo``: the kernel's table to go on with (default: a new one)."""
    state = new_state(ad.np, ad.maxh, ad.nf, ad.new_memo() if memo is None else memo)
    ad.k.load_position(ad.rules, pos, state)
    keys = _zobrist(ad.np, ad.maxh, ad.nf, ad.maxc)
    hash_state(ad.kernel, ad.cfg, state, keys, state.h)
    return state, keys
