"""Winning lines: a kernel line in the notation (``expand_line``), shortened by detours
(``shorten_line``) and replayed on the reference engine (``certify``), which alone makes a
line a win. The undo records of the shortened line come with it, so it is not replayed
again to write it out."""

from __future__ import annotations

from typing import Optional, Sequence

import numpy as np

from solver.adapter import KernelAdapter, kernel_state
from solver.engine import Position, engine_for
from solver.errors import CertificationError
from solver.formats import Deal
from solver.moves import Move
from solver.search import MAX_MOVES_PER_NODE, line_hashes, resplice
from solver.toolkit import K_DEAL, kind_of

SHORTEN_NODES = 200_000               # nodes spent after a win on detours of two moves or more, at most
SHORTEN_PER_MOVE = 1_000              # ... and at most this many per move of the line
MAX_DETOUR = 8                        # the longest detour tried (moves)
UNBOUNDED = 1 << 62


def certify(deal: Deal, kernel_moves: list[Move], played: Sequence[Move] = ()) -> list[Move]:
    """Replay the kernel's line on the reference engine from the deal's opening, after the
    moves ``played`` already (a position in play); return the line with cards filled in."""
    engine = engine_for(deal.rules)
    pos = engine.initial_position(deal.layout)
    for m in played:
        pos = engine.apply(pos, m)
    out = []
    for i, m in enumerate(kernel_moves):
        legal = engine.legal_form(pos, m)
        if legal is None:
            raise CertificationError(f"kernel move {i + 1} ({m}) is illegal on the reference engine: "
                                     f"{engine.why_illegal(pos, m)}")
        pos = engine.play(pos, legal)
        out.append(legal)
    if not engine.is_won(pos):
        raise CertificationError("the kernel's winning line does not end in a won position")
    return out


def expand_line(ad: KernelAdapter, start_pos: Position, path: list[int],
                infos: Optional[np.ndarray] = None) -> list[Move]:
    """A line of kernel moves in the notation (a macro deal is several moves); ``infos``:
    its undo records where they are known (else the line is played to learn them)."""
    infos = undo_records(ad, start_pos, path) if infos is None else infos
    return [mv for m, i in zip(path, infos) for mv in ad.to_moves(m, int(i))]


def line_length(ad: KernelAdapter, start_pos: Position, path: list[int]) -> int:
    """The number of notation moves in a line of kernel moves: ``len(expand_line(...))``
    without writing the moves (a search's own line can have thousands), since only a deal
    can stand for several."""
    line = np.array(path, dtype=np.int64)
    deals = np.flatnonzero(kind_of.py_func(line) == K_DEAL)      # the rule on the whole line at once
    infos = undo_records(ad, start_pos, path)
    return len(path) - len(deals) + sum(len(ad.to_moves(int(line[i]), int(infos[i]))) for i in deals)


def undo_records(ad: KernelAdapter, start_pos: Position, path: list[int]) -> np.ndarray:
    """The undo record of each move of a line of kernel moves played from ``start_pos``."""
    if not path:
        return np.zeros(0, dtype=np.int64)
    state, keys = kernel_state(ad, start_pos)
    return line_hashes(ad.kernel, ad.cfg, state, keys, np.array(path, dtype=np.int32))[2]


def shorten_line(ad: KernelAdapter, start_pos: Position, path: list[int],
                 nodes: int) -> tuple[list[int], np.ndarray]:
    """The winning line with detours (``resplice``): of one move, over and over until none
    is found (cheap: each state's moves once), then of at most 2, 3, ... ``MAX_DETOUR``
    moves while ``nodes`` last, at most ``SHORTEN_PER_MOVE`` a move of the line (a short
    line is cheap to shorten). Each pass keeps the line winning, and the result is
    certified by the reference engine like any other line. Returns the line and the undo
    record of each of its moves."""
    if not path:
        return [], np.zeros(0, dtype=np.int64)
    nodes = min(nodes, SHORTEN_PER_MOVE * len(path))
    state, keys = kernel_state(ad, start_pos)
    line = np.array(path, dtype=np.int32)
    depth, spent = 1, 0
    while depth <= MAX_DETOUR and (depth == 1 or spent < nodes):
        buf = np.zeros(MAX_MOVES_PER_NODE * depth, dtype=np.int32)
        cap = UNBOUNDED if depth == 1 else nodes - spent
        shorter, infos, used = resplice(ad.kernel, ad.cfg, state, keys, line, depth, cap, buf)
        spent += used if depth > 1 else 0
        if len(shorter) == len(line):      # nothing found at this depth: look further
            depth += 1
        line = shorter
    return [int(m) for m in line], infos
