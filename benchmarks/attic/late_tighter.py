"""Tighter refill models with no take in the first pass (an experiment for issue 19; tried,
not a rule).

Where no line refills in the current pass (fact (A) of ``SAFE_SCHEDULE_LATE_REFILLS``), a
winning line's labels take nothing in that pass and solve the full refill model, so every
stage of it (``MODELS``) with pass 0's take literals fixed false. ``_Schedule`` refuses
``first_take`` with forced refills, so this fixes the literals instead. ``--first-move`` adds
"a sequence card taken in pass k >= 1 is taken after that pass's first card move"
(``add_first_move``), sound with PySolFC's refill timing. Prints one JSON line per game: the
status, units, the model's size and, for a schedule, where its replay fails; ``--save``
keeps the solution's values (``/tmp/late_tighter_<game>_<model>.json``).

    PYTHONPATH=. python benchmarks/attic/late_tighter.py 643 full 400 [--first-move] [--save]
    PYTHONPATH=. python benchmarks/attic/late_tighter.py --check 621 400

``--check SEED N``: the full model with and without ``add_first_move`` (any takes, no (A)
needed) on ``N`` small positions of ``tests.test_schedule_alhambra._positions`` against the
stored oracle verdicts: no position the oracle wins may be refuted.

Measured (benchmarks/notes/reinforcements-proofs-of-loss.md, "the late rule on the rest of the sample"): on 643 the
``loose`` and ``full`` models keep a schedule (299.5 and 167.6 units).
"""

import argparse
import json
import time

from solver.alhambra import schedule as S
from solver.engine import engine_for
from solver.formats import pysolfc_deal
from solver.variants import make_rules


def add_first_move(sc, rules) -> int:
    """No take of a sequence card in pass k >= 1 before that pass's first card move: with
    ``after_card_move`` a refill follows a card move of the pass, and labels rise along a
    line. A taken card's moves after a second take are not modelled; such a card can lie in
    a reserve at pass k's start only if its first take lay in pass k-2 or before, so the
    condition holds for pass k only where no take lies there. Returns the takes constrained."""
    if not sc.reinforce or rules["reinforce_timing"] != "after_card_move":
        return 0
    m = sc.m
    moves = [(v, None) for v in sc.t.values()]
    moves += [(sc.leave[i], sc.built[i]) for i in sc.leave]
    moves += [(sc.free_leave[x], sc.free_built[x]) for x in sc.free_leave]
    added = 0
    for k in range(1, sc.passes):
        early = [r for (x, kk), r in sc.rf.items() if kk <= k - 2 and r is not False]
        takes = [(x, r) for (x, kk), r in sc.rf.items() if kk == k and r is not False and x[0] == "s"]
        if not takes:
            continue
        first = m.NewIntVar(*sc.pass_times(k), "")     # some card move of pass k, the earliest
        lits = []
        for v, cond in moves:
            b = m.NewBoolVar("")
            m.Add(v == first).OnlyEnforceIf(b)
            if cond is not None:
                m.AddImplication(b, cond)
            lits.append(b)
        for x, r in takes:
            m.Add(sc.landing(x[1], k) > first).OnlyEnforceIf([r] + [e.Not() for e in early])
            m.AddBoolOr(lits + [r.Not()] + early)
            added += 1
    return added


def build(game: int, model: str, first_move: bool):
    """The reference engine, the deal's start, the model ``model`` of ``S.MODELS`` with pass
    0's take literals fixed false (and ``add_first_move`` if asked), the takes it constrained."""
    rules = make_rules("reinforcements")
    engine = engine_for(rules)
    pos = engine.initial_position(pysolfc_deal(rules, game).layout)
    sc = S._Schedule(pos, rules, **S.MODELS[model])
    for (x, k), lit in sc.rf.items():
        if k == 0 and lit is not False:
            sc.m.Add(lit == 0)
    return engine, pos, sc, add_first_move(sc, rules) if first_move else 0


def check(seed: int, n: int) -> None:
    from collections import Counter
    from tests.oracle_store import position_verdicts
    made, verdicts = position_verdicts("reinforcements", "tests.test_schedule_alhambra:_positions",
                                       dict(seed=seed, n=n, small=True, variant="reinforcements",
                                            fixed={"waste_piles": 1, "reinforce": True}), 20_000)
    counts = Counter()
    for (deal, _, pos), oracle in zip(made, verdicts):
        got = []
        for extra in (False, True):
            sc = S._Schedule(pos, deal.rules, **S.MODELS["full"])
            counts["constrained"] += bool(extra and add_first_move(sc, deal.rules))
            solver = S._solver(30.0)
            got.append(solver.StatusName(solver.Solve(sc.m)))
        assert not (oracle == "won" and "INFEASIBLE" in got), (deal.rules.describe(), pos)
        counts[f"oracle {oracle}, without {got[0]}, with {got[1]}"] += 1
    print(json.dumps(counts, indent=1))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("game", type=int, nargs="?")
    ap.add_argument("model", choices=sorted(S.MODELS), nargs="?")
    ap.add_argument("det_time", type=float, nargs="?")
    ap.add_argument("--first-move", action="store_true")
    ap.add_argument("--save", action="store_true")
    ap.add_argument("--check", type=int, nargs=2, metavar=("SEED", "N"))
    a = ap.parse_args()
    if a.check:
        return check(*a.check)
    t = time.perf_counter()
    engine, pos, sc, added = build(a.game, a.model, a.first_move)
    proto = sc.m.Proto()
    solver = S._solver(a.det_time)
    status = solver.StatusName(solver.Solve(sc.m))
    row = dict(game=a.game, model=a.model, first_move=added, status=status, units=round(solver.deterministic_time, 1),
               s=round(time.perf_counter() - t), variables=len(proto.variables), constraints=len(proto.constraints))
    if status in ("OPTIMAL", "FEASIBLE"):
        row["replay"] = S.replay_schedule(engine, pos, sc, solver.Value)[1] or "it plays to a win"
        if a.save:
            with open(f"/tmp/late_tighter_{a.game}_{a.model}.json", "w") as f:
                json.dump(list(solver.ResponseProto().solution), f)
    print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
