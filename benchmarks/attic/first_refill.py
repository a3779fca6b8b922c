"""Can a line of The Reinforcements ever refill? (an experiment for issue 19)

A line that never refills is a line of the game without refills (``--rule
reinforce=false``), where Alhambra's proofs hold; so a deal is lost when that game is lost
and no line of it ever empties a reserve while the stock holds cards (the first refill
needs one). This runs the kernel's search on the game without refills with its goal
replaced by such a state, on a worktree patched with ``first_refill.patch`` (``is_won``
becomes "a reserve empty while the stock holds cards"; states after the last pass's
stock are cut off, as no refill can follow). Rules: none, or ``deal_through_inert``, whose
proof carries over (a goal state is never skipped inside the macro, and swapping a move
over inert deals reaches the same state). "reserve emptied": a line reached one (a real
line, so a fact); "never": the search ended without one (only with sound rules a proof);
"nodes": it ran out.

    git worktree add /tmp/fr HEAD && cd /tmp/fr && git apply benchmarks/attic/first_refill.patch
    NUMBA_CACHE_DIR=/tmp/fr-cache PYTHONPATH=. python benchmarks/attic/first_refill.py \\
        --games 978,368,44 --nodes 100000000 --rule deal_through_inert

Measured (benchmarks/notes/reinforcements-proofs-of-loss.md, "The Reinforcements: what the search can still prove"):
of 20 unknown standard deals, 17 empty a reserve (10 within 1,000 nodes), 368, 683 and
744 not within 100 M nodes, nor 978. With ``--redeals 1`` (no refill before the last pass,
the condition ``refills_last_pass.py`` needs; benchmarks/notes/reinforcements.md, "the row under 0.29.0"):
978, 368, 44, 476, 683, 744 and 67 all undecided at 20 M nodes. With ``--redeals 0`` (no
refill in the first pass): "never" for all but 683, and for 25 of 40 sampled unknown deals
("no refill in the first pass").

Over the current pass alone, the rule ``schedule_late_refills`` (solver 0.30.0) has this
search as a kernel goal (``refill_due``): ``benchmarks/bench_late_refills.py``.
"""
from __future__ import annotations

import argparse
import time


def main() -> None:
    import solver.driver as d
    from solver.engine import engine_for
    from solver.formats import pysolfc_deal
    from solver.search import LOST, WON
    from solver.variants import make_rules
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", required=True, help="comma-separated game numbers")
    ap.add_argument("--nodes", type=float, default=5e6)
    ap.add_argument("--rule", action="append", default=[], help="a search rule (repeatable)")
    # fewer redeals: the passes before the standard game's last (with 1, passes 0 and 1; the
    # patch cuts the search where that game's last stock runs out)
    ap.add_argument("--redeals", type=int, default=2, help="the passes searched, less one")
    a = ap.parse_args()
    rules = make_rules("reinforcements", {"reinforce": False, "redeals": a.redeals})
    ad = d.adapter_for(rules, tuple(a.rule))
    for g in [int(x) for x in a.games.split(",")]:
        pos = engine_for(rules).initial_position(pysolfc_deal(rules, g).layout)
        t = time.perf_counter()
        run = d._search(ad, pos, int(a.nodes), 4 << 30, time.perf_counter() + 3600)
        said = "reserve emptied" if run.status == WON else "never" if run.status == LOST else run.reason
        print(f"game {g}: {said}, {run.nodes:,} nodes, {time.perf_counter() - t:.1f} s", flush=True)


if __name__ == "__main__":
    main()
