"""Does ``waste_blocked`` (``waste_blocked.patch``: a waste card that can never leave the
waste, by a least fixpoint of the cards that can move before it leaves) let the complete
search of a General's Patience deal finish?

Applies to a tree with ``waste_blocked.patch`` applied (``git apply
benchmarks/attic/waste_blocked.patch``). Runs the plain-order complete search after the
base choice ``BASE`` (an index into the legal moves) with every rule, with or without
``waste_blocked`` (``USE`` 1 or 0), and prints its status, nodes, states and seconds.

    PYTHONPATH=. python benchmarks/attic/waste_blocked_probe.py 19 0 3000000 1
"""

import sys
import time

import numpy as np

from solver.adapter import adapter_for, expand_dominance, kernel_state
from solver.engine import engine_for
from solver.formats import pysolfc_deal
from solver.search import CTRL_LEN, RUNNING, X_NODES, X_STORED, run, table_slots
from solver.variants import make_rules


def main(game: int, base: int, nodes: int, use: bool) -> None:
    rules = make_rules("generals-patience")
    doms = expand_dominance(rules, ("all",))
    if not use:
        doms = tuple(d for d in doms if d != "waste_blocked")
    ad = adapter_for(rules, doms)
    e = engine_for(rules)
    start = e.initial_position(pysolfc_deal(rules, game).layout)
    start = e.play(start, e.legal_moves(start)[base])
    state, keys = kernel_state(ad, start)
    tt = np.zeros((table_slots(1 << 30), 2), np.uint64)
    frames = np.empty((1 << 20, 4), np.int64)
    moves = np.empty(1 << 25, np.int32)
    ctrl = np.zeros(CTRL_LEN, np.int64)
    t, status = time.time(), RUNNING
    while ctrl[X_NODES] < nodes and status == RUNNING:
        status = run(ad.kernel, ad.cfg, state, keys, tt, frames, moves, ctrl, ctrl[X_NODES] + 5000)
    print(game, base, "with" if use else "without", "waste_blocked: status", status, "nodes", int(ctrl[X_NODES]),
          "states", int(ctrl[X_STORED]), f"{time.time() - t:.1f} s")


if __name__ == "__main__":
    main(int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4] == "1")
