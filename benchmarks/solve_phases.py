"""Where the seconds of one ``solve`` go: the complete searches, each search for wins
(beams and nested searches, with their moves) and the verdict from outside the search.

The issue's target is a default budget that takes at most 60 s a deal on one core; this
names the phase that holds a slow deal above it. It times ``solver.driver``'s own phases by
wrapping them, so the verdicts and node counts are exactly ``patience solve``'s. Run it
alone on the machine: the seconds are wall clock. numba's compilation is done first
(``warm_up``), and the first deal of a fresh cache still compiles the searches for wins.

    python benchmarks/solve_phases.py --variant reinforcements --games 241,658
    python benchmarks/solve_phases.py --variant reinforcements --games 1 --nodes 1000000
"""

from __future__ import annotations

import argparse
import time


def _timed(table: dict, label, fn):
    """``fn`` wrapped so that each call adds (seconds, its result) under ``label(args)``."""
    def wrapper(*args, **kwargs):
        t = time.perf_counter()
        out = fn(*args, **kwargs)
        table.setdefault(label(args), []).append((time.perf_counter() - t, out))
        return out
    return wrapper


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--variant", default="reinforcements")
    ap.add_argument("--games", default="658", help="Comma-separated PySolFC game numbers.")
    ap.add_argument("--nodes", type=int, default=None, help="Node budget (default: solve's).")
    a = ap.parse_args()
    from solver import api
    import solver.driver as driver

    phases: dict = {}
    for name in ("search_attempt", "_root_verdict"):
        setattr(driver, name, _timed(phases, lambda args, n=name: n, getattr(driver, name)))
    for name, fn in list(driver.WIN_SEARCHES.items()):
        driver.WIN_SEARCHES[name] = _timed(phases, lambda args, n=name: f"{n} (size {args[4]}, noise {args[5]})", fn)
    driver.warm_up()
    for game in (int(g) for g in a.games.split(",")):
        phases.clear()
        t = time.perf_counter()
        r = api.solve(api.game(a.variant, game), nodes=a.nodes)
        total = time.perf_counter() - t
        print(f"{a.variant} {game}: {r.verdict} ({r.proof or r.reason or 'the search'}), {r.nodes:,} nodes, {total:.1f} s")
        for label, calls in phases.items():
            secs = sum(s for s, _ in calls)
            moves = ""
            if label not in ("search_attempt", "_root_verdict"):
                moves = f", {sum(int(out[2]) for _, out in calls):,} moves"
            print(f"  {label:<32} {len(calls):>5} calls  {secs:7.1f} s{moves}")


if __name__ == "__main__":
    main()
