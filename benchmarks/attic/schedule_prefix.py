"""Searches for wins from a refill schedule's replayed prefix (an experiment for issue 19).

The refill models keep schedules for The Reinforcements deals that the searches take far;
read back on the reference engine each plays for 100-200 moves and then fails at a refill
the game forces. Is a win a detour away from such a line? This rebuilds a saved solution
of ``late_tighter.py`` (the model with pass 0's takes false, ``--save``), replays it as far
as it plays, and from the positions ``K`` moves before the first refused event runs the
kernel's complete search (every dominance rule, no restarts) for ``--nodes`` nodes and the
plan's first nested search, each ``K`` of ``--back`` in turn. A win is certified on the
reference engine (prefix and search line together); a search that ends lost proves only
that position lost.

    PYTHONPATH=. python benchmarks/attic/schedule_prefix.py 643 full /tmp/late_tighter_643_full.json \\
        --back 0,10,20,40,60,80,120 --nodes 2000000
"""
from __future__ import annotations

import argparse
import json
import math
import pickle
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from late_tighter import build  # noqa: E402
from finish_line import best_line  # noqa: E402

from solver.alhambra import schedule as S  # noqa: E402
from solver.driver import _expand, _search, adapter_for, certify, expand_dominance  # noqa: E402
from solver.formats import Solution, pysolfc_deal, write_solution  # noqa: E402
from solver.search import LOST, WON, winning_path  # noqa: E402


def load(path: str) -> list[int]:
    """A saved solution's values: the JSON list of ``late_tighter.py --save`` or a pickled list."""
    with open(path, "rb") as f:
        return pickle.load(f) if path.endswith(".pkl") else json.load(f)


def prefix(engine, pos, sc, values: list[int] | float):
    """The positions a solution's events reach on the reference engine, the moves between
    them, and why it stops:
    the saved ``values``, or (a number) the model solved within that many units."""
    if isinstance(values, float):
        solver = S._solver(values)
    else:
        proto = sc.m.Proto()
        proto.solution_hint.vars.extend(range(len(values)))
        proto.solution_hint.values.extend(values)
        solver = S._solver(50.0)
        solver.parameters.fix_variables_to_their_hinted_value = True
    status = solver.StatusName(solver.Solve(sc.m))
    if status not in ("OPTIMAL", "FEASIBLE"):
        raise SystemExit(f"no schedule: {status}, {solver.deterministic_time:.1f} units")
    moves, why = S.schedule_lead(engine, pos, sc, solver.Value)
    positions = [pos]
    for m in moves:
        positions.append(engine.play(positions[-1], m))
    return positions, moves, why


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("game", type=int)
    ap.add_argument("model", choices=sorted(S.MODELS))
    ap.add_argument("values", help="the saved solution (.json or .pkl), or units to solve the model in")
    ap.add_argument("--first-move", action="store_true", help="the model was built with add_first_move")
    ap.add_argument("--back", default="0,10,20,40,60,80,120")
    ap.add_argument("--nodes", type=int, default=2_000_000)
    ap.add_argument("--out", help="write a certified win's whole line here (a solution file for `patience replay`)")
    a = ap.parse_args()
    engine, pos, sc, _ = build(a.game, a.model, a.first_move)
    values = load(a.values) if a.values.endswith((".json", ".pkl")) else float(a.values)
    positions, recorded, why = prefix(engine, pos, sc, values)
    print(f"game {a.game}: the schedule plays {len(positions) - 1} moves; {why or 'it wins'}", flush=True)
    ad = adapter_for(engine.rules, expand_dominance(engine.rules, ["all"]))
    for k in (int(k) for k in a.back.split(",")):
        if k >= len(positions):
            break
        p = positions[-1 - k]
        t = time.perf_counter()
        att = _search(ad, p, a.nodes, 1 << 28, math.inf)
        verdict = {WON: "won", LOST: "lost"}.get(att.status, "unknown")
        line, home, nwon = best_line(ad, p)
        row = dict(game=a.game, back=k, home=sum(len(f) for f in p.foundations), search=verdict, nodes=att.nodes,
                   most_home=att.most_home, nested_home=home, nested_won=nwon, s=round(time.perf_counter() - t, 1))
        if att.status == WON or nwon:
            path = winning_path(att.frames, att.moves, att.ctrl) if att.status == WON else line
            line = list(recorded[:len(positions) - 1 - k]) + _expand(ad, p, path)
            deal = pysolfc_deal(engine.rules, a.game)
            moves = certify(deal, line)          # from the deal's start, or CertificationError
            row["certified"] = len(moves)
            if a.out:
                write_solution(Solution("won", moves, producer=dict(by=__file__, game=a.game, back=k)), deal, a.out)
            print(json.dumps(row), flush=True)
            break
        print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
