"""Where a complete search spends its nodes: a sampling profile of the search path.

Runs one plain-order complete search (every rule the variant allows) and, every
``--every`` nodes, records the position the search is at: the pass (redeals used), the
stock cards left and the reserve cards left, in bins of eight.

    python benchmarks/profile_search.py --variant alhambra --game 2 --nodes 2000000
"""

from __future__ import annotations

import argparse
import collections

import numpy as np


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--variant", default="alhambra")
    ap.add_argument("--game", type=int, default=2)
    ap.add_argument("--nodes", type=int, default=2_000_000)
    ap.add_argument("--every", type=int, default=2000, help="Nodes between samples.")
    ap.add_argument("--rule", action="append", default=[], metavar="NAME=VALUE",
                    help="Override a rule option (repeatable), as in 'patience solve --rule'.")
    a = ap.parse_args()
    from solver.alhambra.slots import C_NRES, C_STOCK, S_REDEALS
    from solver.engine import engine_for
    from solver.formats import pysolfc_deal
    from solver.search import CTRL_LEN, RUNNING, X_NODES, X_STORED, run, table_slots
    from solver.adapter import adapter_for, expand_dominance, kernel_state
    from solver.variants import make_rules, parse_rule_assignments

    rules = make_rules(a.variant, parse_rule_assignments(tuple(a.rule)))
    if rules.family != "alhambra":
        raise SystemExit("error: this profile reads Alhambra-family positions")
    ad = adapter_for(rules, expand_dominance(rules, ("all",)))
    start = engine_for(rules).initial_position(pysolfc_deal(rules, a.game).layout)
    state, keys = kernel_state(ad, start)
    lens, scal = state.lens, state.scal
    tt = np.zeros((table_slots(1 << 30), 2), np.uint64)
    frames = np.empty((100_000, 4), np.int64)
    moves = np.empty(6_400_000, np.int32)
    ctrl = np.zeros(CTRL_LEN, np.int64)
    nres, stock = ad.cfg[C_NRES], ad.cfg[C_STOCK]
    at: collections.Counter = collections.Counter()
    reserve: collections.Counter = collections.Counter()
    while ctrl[X_NODES] < a.nodes:
        status = run(ad.kernel, ad.cfg, state, keys, tt, frames, moves, ctrl, ctrl[X_NODES] + a.every)
        if status != RUNNING:
            print(f"the search ended (status {status})")
            break
        at[(int(scal[S_REDEALS]) + 1, int(lens[stock]) // 8 * 8)] += 1
        reserve[int(lens[:nres].sum()) // 8 * 8] += 1
    n = sum(at.values())
    print(f"{rules.describe()} game {a.game}: {int(ctrl[X_NODES]):,} nodes, {int(ctrl[X_STORED]):,} states, "
          f"{n} samples")
    for (p, s), k in sorted(at.items()):
        print(f"  pass {p}, {s}-{s + 7} stock cards left: {k} ({100 * k / n:.0f} %)")
    for r, k in sorted(reserve.items()):
        print(f"  {r}-{r + 7} reserve cards left: {k} ({100 * k / n:.0f} %)")


if __name__ == "__main__":
    main()
