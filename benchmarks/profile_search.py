"""Where a complete search spends its nodes: a sampling profile of the search path.

Runs one plain-order complete search (every rule the variant allows) and, every
``--every`` nodes, records the position the search is at: in the Alhambra family the pass
(redeals used), the stock cards left and the reserve cards left, in bins of eight; in the
Terrace family the stock, waste, reserve, foundation and tableau cards (``--base K``: after
the K-th legal base choice).

    python benchmarks/profile_search.py --variant alhambra --game 2 --nodes 2000000
    python benchmarks/profile_search.py --variant generals-patience --game 12 --base 1 --nodes 2000000
"""

from __future__ import annotations

import argparse
import collections

import numpy as np


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--variant", default="alhambra")
    ap.add_argument("--game", type=int, default=2)
    ap.add_argument("--base", type=int, default=None,
                    help="Terrace family with a chosen base: search after this legal base move (0, 1, ...).")
    ap.add_argument("--nodes", type=int, default=2_000_000)
    ap.add_argument("--every", type=int, default=2000, help="Nodes between samples.")
    ap.add_argument("--rule", action="append", default=[], metavar="NAME=VALUE",
                    help="Override a rule option (repeatable), as in 'patience solve --rule'.")
    a = ap.parse_args()
    from solver.engine import engine_for
    from solver.formats import pysolfc_deal
    from solver.search import CTRL_LEN, RUNNING, X_NODES, X_STORED, run, table_slots
    from solver.adapter import adapter_for, expand_dominance, kernel_state
    from solver.variants import make_rules, parse_rule_assignments

    rules = make_rules(a.variant, parse_rule_assignments(tuple(a.rule)))
    if rules.family not in SAMPLERS:
        raise SystemExit(f"error: this profile reads {' and '.join(SAMPLERS)}-family positions")
    ad = adapter_for(rules, expand_dominance(rules, ("all",)))
    engine = engine_for(rules)
    start = engine.initial_position(pysolfc_deal(rules, a.game).layout)
    if a.base is not None:
        start = engine.play(start, engine.legal_moves(start)[a.base])
    state, keys = kernel_state(ad, start)
    tt = np.zeros((table_slots(1 << 30), 2), np.uint64)
    frames = np.empty((1 << 20, 4), np.int64)
    moves = np.empty(1 << 25, np.int32)
    ctrl = np.zeros(CTRL_LEN, np.int64)
    sample = SAMPLERS[rules.family]
    seen: dict = collections.defaultdict(collections.Counter)
    while ctrl[X_NODES] < a.nodes:
        status = run(ad.kernel, ad.cfg, state, keys, tt, frames, moves, ctrl, ctrl[X_NODES] + a.every)
        if status != RUNNING:
            print(f"the search ended (status {status})")
            break
        for what, value in sample(ad.cfg, state):
            seen[what][value] += 1
    n = sum(next(iter(seen.values())).values()) if seen else 0
    print(f"{rules.describe()} game {a.game}: {int(ctrl[X_NODES]):,} nodes, {int(ctrl[X_STORED]):,} states, "
          f"{n} samples")
    for what, counts in seen.items():
        print(f"  {what}: " + "  ".join(f"{v}: {100 * k / n:.0f} %" for v, k in sorted(counts.items())))


def _alhambra(cfg, state):
    """The pass and the stock cards left (bins of eight), the reserve cards left."""
    from solver.alhambra.slots import C_NRES, C_STOCK, S_REDEALS
    lens = state.lens
    yield "pass, stock cards left", (int(state.scal[S_REDEALS]) + 1, int(lens[cfg[C_STOCK]]) // 8 * 8)
    yield "reserve cards left", int(lens[:cfg[C_NRES]].sum()) // 8 * 8


def _terrace(cfg, state):
    """Stock and waste cards (bins of ten and five), reserve cards, cards home and tableau
    cards (bins of five)."""
    from solver.terrace.slots import C_FP0, C_NTAB, C_STOCK, C_WASTE
    from solver.toolkit import C_NF
    lens = state.lens
    yield "stock cards", int(lens[cfg[C_STOCK]]) // 10 * 10
    yield "waste cards", int(lens[cfg[C_WASTE]]) // 5 * 5
    yield "reserve cards", int(lens[0])
    yield "cards home", int(lens[cfg[C_FP0]:cfg[C_FP0] + cfg[C_NF]].sum()) // 5 * 5
    yield "tableau cards", int(lens[1:1 + cfg[C_NTAB]].sum()) // 5 * 5


SAMPLERS = {"alhambra": _alhambra, "terrace": _terrace}


if __name__ == "__main__":
    main()
