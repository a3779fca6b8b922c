"""The refill schedule model with takes allowed only from a given pass on (an experiment
for issue 19; unsound alone).

A deal of The Reinforcements is lost if (A) no line empties a reserve before the last pass
and (B) the refill model (``solver.alhambra.schedule``, ``SAFE_SCHEDULE_REFILLS``) with
every take in the last pass has no schedule: a winning line would then refill only in the
last pass, and the model's proof maps it to a schedule whose takes all lie there. This
solves (B) alone, by limiting the model's ``_refill_literals`` to the passes from
``--from`` on (``last``: the last pass only), with the skeleton or the bare model (the
tighter ones, with forced refills, would need ``_forced_refills`` to allow for a take
that cannot happen). (A) is not shown here; without it a "no
schedule" proves nothing.

    PYTHONPATH=. python benchmarks/attic/refills_last_pass.py --games 978,368 --model bare --det-time 200

Measured (benchmarks/notes/reinforcements-searches-for-wins.md, "a nested search expands each state once; refills only in
the last pass"): bare model, no schedule for 978, 368, 44 and 476 (30-82 units); schedules
that do not play for 683, 744 and 67; the skeleton keeps a schedule for 978 and 368 at once.

The same holds with any first pass p: (A_p) no refill before pass p, (B_p) no schedule with
takes from pass p on. (A_1) is within the goal search's reach (``first_refill.py --redeals
0``: no reserve empties in pass 0 of 25 of 40 sampled unknown deals, in seconds), and with
``--from 1`` the bare model has no schedule for 978, 368, 374, 44 and 881 (31-152 units):
five standard deals lost by the pair, not yet cross-checked on miniatures
(benchmarks/notes/reinforcements-proofs-of-loss.md, "no refill in the first pass").

With ``--from 1`` and the bare model, the rule ``schedule_late_refills`` (solver 0.30.0) has
this model as ``MODELS["late"]``: ``benchmarks/bench_late_refills.py``.
"""
from __future__ import annotations

import argparse
import time


def main() -> None:
    from solver.alhambra import schedule as S
    from solver.engine import engine_for
    from solver.formats import pysolfc_deal
    from solver.variants import make_rules
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", required=True, help="comma-separated game numbers")
    # the models with forced refills (loose, full) assume a first-pass take may happen
    # (``_forced_refills`` reads its literal), so only these two run limited
    ap.add_argument("--model", default="bare", choices=("skeleton", "bare"))
    ap.add_argument("--det-time", type=float, default=200.0, help="CP-SAT's deterministic time limit")
    ap.add_argument("--from", dest="first", default="last", help="the first pass a take may lie in (0, 1, ...) or 'last'")
    a = ap.parse_args()
    plain = S._Schedule._refill_literals

    def limited(self, x, passes):
        lo = self.passes - 1 if a.first == "last" else int(a.first)
        return plain(self, x, [k for k in passes if k >= lo])

    S._Schedule._refill_literals = limited
    rules = make_rules("reinforcements", {})
    engine = engine_for(rules)
    for g in (int(x) for x in a.games.split(",")):
        pos = engine.initial_position(pysolfc_deal(rules, g).layout)
        t = time.perf_counter()
        sc = S._Schedule(pos, rules, **S.MODELS[a.model])
        solver = S._solver(a.det_time)
        status = solver.StatusName(solver.Solve(sc.m))
        why = ""
        if status in ("OPTIMAL", "FEASIBLE"):
            why = S.replay_schedule(engine, pos, sc, solver.Value)[1] or "it plays to a win"
        print(f"game {g}, takes from pass {a.first}, model {a.model}: {status}, "
              f"{solver.deterministic_time:.1f} units, {time.perf_counter() - t:.0f} s {why}", flush=True)


if __name__ == "__main__":
    main()
