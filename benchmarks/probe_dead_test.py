"""How often ``dead_stock_order`` fires one move after a live position, by the kind of move.

Samples positions on the path of complete Alhambra searches (every ``--every`` nodes), keeps
those the test does not prove dead, plays each legal move and runs the test on the child.
A move to a foundation is split by where the other copy of its card is: still in the waste
or stock (playing this copy home decides that the other must go to the other foundation),
in a reserve, or already home.

    python benchmarks/probe_dead_test.py --games 1-20
"""

from __future__ import annotations

import argparse
import collections

import numpy as np


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", default="1-20")
    ap.add_argument("--samples", type=int, default=40, help="Positions sampled per game.")
    ap.add_argument("--every", type=int, default=2001, help="Nodes between samples.")
    ap.add_argument("--rule", action="append", default=[], metavar="NAME=VALUE",
                    help="Override a rule option (repeatable), as in 'patience solve --rule'.")
    a = ap.parse_args()
    from solver.alhambra import kernel as K
    from solver.alhambra import hooks
    from solver.engine import engine_for
    from solver.formats import pysolfc_deal
    from solver.toolkit import PILE0, dst_of, kind_of, src_of
    from solver.search import CTRL_LEN, RUNNING, X_NODES, run
    from solver.adapter import adapter_for, expand_dominance, kernel_state
    from solver.variants import make_rules, parse_rule_assignments

    rules = make_rules("alhambra", parse_rule_assignments(tuple(a.rule)))
    ad = adapter_for(rules, expand_dominance(rules, ("all",)))
    cfg = ad.cfg
    nres, w, st = cfg[K.C_NRES], cfg[K.C_NRES], cfg[K.C_STOCK]
    calls: collections.Counter = collections.Counter()
    fires: collections.Counter = collections.Counter()
    buf = np.zeros(2048, np.int32)

    def dead(piles, lens, fnd, scal) -> bool:
        return bool(K.stock_order_blocked(cfg, piles, lens, fnd, cfg[K.C_REDEALS] - scal[hooks.S_REDEALS]))

    lo, hi = (int(x) for x in a.games.split("-"))
    for game in range(lo, hi + 1):
        start = engine_for(rules).initial_position(pysolfc_deal(rules, game).layout)
        state, keys = kernel_state(ad, start)
        piles, lens, fnd, scal, h = state
        tt = np.zeros((1 << 21, 2), np.uint64)
        frames = np.empty((100_000, 4), np.int64)
        moves = np.empty(6_400_000, np.int32)
        ctrl = np.zeros(CTRL_LEN, np.int64)
        for _ in range(a.samples):
            if run(ad.kernel, cfg, state, keys, tt, frames, moves, ctrl, ctrl[X_NODES] + a.every) != RUNNING:
                break
            if dead(piles, lens, fnd, scal):
                continue
            for i in range(K.gen_moves(cfg, state, buf, 0, -1)):
                m = int(buf[i])
                kind = kind_of(m)
                if kind == K.K_DEAL:
                    label = "deal"
                elif kind == K.K_REDEAL:
                    label = "redeal"
                elif dst_of(m) >= PILE0:
                    label = "reserve card onto the waste"
                else:
                    src = src_of(m) - PILE0
                    c = int(piles[src, lens[src] - 1])
                    in_seq = list(piles[w, :lens[w]]).count(c) + list(piles[st, :lens[st]]).count(c)
                    in_res = sum(list(piles[r, :lens[r]]).count(c) for r in range(nres))
                    if src == w:
                        in_seq -= 1
                    else:
                        in_res -= 1
                    label = ("to a foundation, other copy in waste or stock" if in_seq else
                             "to a foundation, other copy in a reserve" if in_res else
                             "to a foundation, other copy home")
                info = K.make_move(cfg, state, keys, m)
                calls[label] += 1
                fires[label] += dead(piles, lens, fnd, scal)
                K.undo_move(cfg, state, keys, m, info)
    print(f"Alhambra games {a.games}: dead_stock_order on the children of live positions of the search path")
    for label in sorted(calls, key=lambda k: -calls[k]):
        print(f"  {label:<48} {calls[label]:6d} children, {fires[label]:6d} dead "
              f"({100 * fires[label] / calls[label]:.0f} %)")


if __name__ == "__main__":
    main()
