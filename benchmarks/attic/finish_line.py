"""Complete searches from the end of a nested search's lost line (an experiment for issue 19).

Some deals of The Reinforcements that the table leaves unknown come within a few cards of
a win (game 706: 101 of 104 home). Is a win a small detour away? This plays the plan's
first nested search (``solver.nested``, level 2, noise 10, weighting 0, seed 1), and if it
does not win, runs the kernel's complete search (every dominance rule, no restarts) from
the states ``K`` moves before its end, for each ``K`` of ``--back`` in turn, up to
``--nodes`` nodes each, until one wins. A search that ends lost proves that state lost,
nothing more; a win would still need certifying on the reference engine (the solver's
driver does that; this script only counts). Results: benchmarks/notes/reinforcements-searches-for-wins.md, "The
Reinforcements: a nested search at 1 M nodes".

    PYTHONPATH=. python benchmarks/attic/finish_line.py --games 706,835,988 --back 20,40,60,80 --nodes 100000
"""
from __future__ import annotations

import argparse
import math
import time

import numpy as np

from solver import nested
from solver.alhambra.beam_order import NESTED_NOISE, weighting
from solver.driver import WIN_SEED, _expand, _search, adapter_for, expand_dominance, kernel_state
from solver.engine import engine_for
from solver.formats import pysolfc_deal
from solver.search import LOST, WON
from solver.variants import make_rules


def best_line(ad, pos) -> tuple[list[int], int, bool]:
    """The nested search's line from ``pos`` (kernel moves), its cards home, whether it won."""
    state, keys = kernel_state(ad, pos)
    out = np.zeros(nested.BUF, dtype=np.int32)
    count = np.zeros(1, dtype=np.int64)
    np.random.seed(WIN_SEED)      # as ``nested.nested`` seeds a level-2 search
    seen = nested.new_seen(nested.SEEN_SLOTS, nested.SEEN_ENTRIES)
    home, n, won = nested._level2(ad.kernel, ad.cfg, state, keys, weighting(0), NESTED_NOISE, WIN_SEED, out,
                                  count, seen)
    return [int(m) for m in out[:n]], int(home), bool(won)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", required=True, help="comma-separated game numbers")
    ap.add_argument("--back", default="20,40,60,80,100,130", help="moves before the line's end, in turn")
    ap.add_argument("--nodes", type=int, default=100_000, help="nodes of each complete search")
    a = ap.parse_args()
    rules = make_rules("reinforcements", {})
    ad = adapter_for(rules, expand_dominance(rules, ["all"]))
    engine = engine_for(rules)
    backs = [int(k) for k in a.back.split(",")]
    wins = 0
    for game in map(int, a.games.split(",")):
        t0 = time.perf_counter()
        pos = engine.initial_position(pysolfc_deal(rules, game).layout)
        line, home, won = best_line(ad, pos)
        tried = []
        for k in (k for k in backs if k <= len(line)):
            p = pos
            for mv in _expand(ad, pos, line[:len(line) - k]):
                p = engine.apply(p, mv)
            att = _search(ad, p, a.nodes, 1 << 27, math.inf)
            tried.append(f"{k}:{ {WON: 'won', LOST: 'lost'}.get(att.status, 'unknown')}")
            if att.status == WON:
                won = True
                break
        wins += won
        print(f"game {game}: nested line {len(line)} moves, {home} home; from K back: {' '.join(tried)}; "
              f"{time.perf_counter() - t0:.1f} s", flush=True)
    print("won", wins)


if __name__ == "__main__":
    main()
