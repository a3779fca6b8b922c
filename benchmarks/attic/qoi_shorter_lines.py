"""Do wider fresh beams find short lines for PySolFC's Queen of Italy deals whose certified
line is over 500 moves?

For each such deal of a finished batch store (the won records with ``solution_length`` over
500), runs ``fresh_beam`` from the start with each of the family's four weightings until one
wins, at each width given, and prints the length of the first line found and the seconds.

    PYTHONPATH=. python benchmarks/attic/qoi_shorter_lines.py STORE.db 250,1000
"""

import sqlite3
import sys
import time

from solver.adapter import adapter_for, expand_dominance, kernel_state
from solver.driver import WIN_SEARCHES, WIN_SEED
from solver.engine import engine_for
from solver.formats import pysolfc_deal
from solver.terrace import beam_order
from solver.variants import make_rules


def main(db: str, widths: list[int]) -> None:
    rules = make_rules("queen-of-italy-pysolfc")
    ad = adapter_for(rules, expand_dominance(rules, ("all",)))
    e = engine_for(rules)
    games = [g for g, in sqlite3.connect(db).execute(
        "SELECT game FROM results WHERE variant = 'queen-of-italy-pysolfc' AND verdict = 'won' "
        "AND solution_length > 500")]
    for g in games:
        pos = e.initial_position(pysolfc_deal(rules, g).layout)
        out = []
        for w in widths:
            best, t = None, time.time()
            for k in range(4):
                state, keys = kernel_state(ad, pos)
                won, path, _, _ = WIN_SEARCHES["fresh_beam"](ad.kernel, ad.cfg, state, keys, w, beam_order.BEAM_NOISE,
                                                             beam_order.weighting(k), WIN_SEED)
                if won:
                    best = len(path)
                    break
            out.append(f"width {w}: {best} moves, {time.time() - t:.1f} s")
        print(g, "; ".join(out), flush=True)


if __name__ == "__main__":
    main(sys.argv[1], [int(x) for x in sys.argv[2].split(",")])
