"""The refill model's pair conditions added lazily, counterexample-guided (an experiment for
issue 19; tried and left out).

The conditions over pairs of cards (``_cover``, ``_order_kept``, ``_home_before_build``,
``_lies_until_home`` of ``solver.alhambra.schedule._Schedule``) are most of the model. Here
they start deferred: solve the model without them (the skeleton), evaluate every deferred
condition on the solution, add the violated ones (all, or a random ``per_round`` of them),
solve again, until the model is infeasible (a subset of the constraints infeasible: the whole
model is) or a solution violates none (a solution of the whole model). Sound either way; the
question was only whether it is quicker.

    PYTHONPATH=. python benchmarks/attic/lazy_pairs.py 368 late 200 [per_round]

Measured (benchmarks/notes/reinforcements-proofs-of-loss.md, "`schedule_late_refills` on more of the sample"): on
368 (``late`` refuted at 31.1 units eagerly), adding every violated condition gave 11,831 of
292,150 after round 1 and a round 2 unanswered after 10 minutes; 1,000 a round, the rounds
cost 0.4, 0.9, 1.7, 2.0, 5.9, 7.9 units with 2,000-3,000 violated each time: no convergence
in sight at 19 units.
"""

import json
import sys
import time

from ortools.sat.python import cp_model

from solver.alhambra import schedule as S


class Lazy(S._Schedule):
    def __init__(self, *a, **kw):
        self.deferred = []          # (key, check(value) -> bool violated, add())
        self._since_kind = None
        super().__init__(*a, **kw)

    # ---- value-level twins of the pair literals ----
    def lv(self, V, l):
        if isinstance(l, bool):
            return l
        return bool(V.BooleanValue(l))

    def iv(self, V, e):
        return e if isinstance(e, int) else V.Value(e)

    def ov(self, V, a, b, k):
        """(o value, tie that the flag would forbid)"""
        if a[0] == "s" and b[0] == "s":
            return a[1] < b[1], False
        aa, ab = self.iv(V, self.arr[(a, k)]), self.iv(V, self.arr[(b, k)])
        if a[0] == "s":
            return ab >= aa, False
        if b[0] == "s":
            return not (aa >= ab), False
        return aa < ab, aa == ab

    def gv(self, V, a, b, k):
        ta, ab = V.Value(self.t[a]), self.iv(V, self.arr[(b, k)])
        return ta < ab, (b[0] != "s" and ta == ab)

    # ---- the four pair conditions, deferred ----
    def _cover(self):
        ids = list(self.card)
        for k in range(self.passes):
            for a in ids:
                for b in ids:
                    if a == b or (a[0] == "s" and b[0] == "s" and a[1] > b[1]):
                        continue
                    self.deferred.append((("cover", a, b, k), self._cover_check(a, b, k), self._cover_add(a, b, k)))

    def _cover_check(self, a, b, k):
        def check(V):
            o, tie1 = self.ov(V, a, b, k)
            g, tie2 = self.gv(V, a, b, k)
            if tie1 or tie2:
                return True
            if not o:
                return False
            if not (self.lv(V, self.home_in[(a, k)]) and self.lv(V, self.present[(a, k)]) and self.lv(V, self.present[(b, k)])):
                return False
            return (not g) and not (V.Value(self.t[b]) < V.Value(self.t[a]))
        return check

    def _cover_add(self, a, b, k):
        def add():
            o = self.o(a, b, k)
            if o is False:
                return
            conds = [self.home_in[(a, k)], self.present[(a, k)], self.present[(b, k)], self.g(a, b, k).Not()]
            if o is not True:
                conds.append(o)
            self.m.Add(self.t[b] < self.t[a]).OnlyEnforceIf(conds)
        return add

    def _order_kept(self):
        ids = list(self.card)
        for k in range(1, self.passes):
            for x, a in enumerate(ids):
                for b in ids[x + 1:]:
                    if a[0] == "s" and b[0] == "s":
                        continue
                    self.deferred.append((("order", a, b, k), self._order_check(a, b, k), self._order_add(a, b, k)))

    def _stock_v(self, V, x, k):
        v = int(self.lv(V, self.present[(x, k)]))
        nb, rf = self.nb[(x, k)], self.rf[(x, k)]
        v -= 0 if nb is False else int(self.lv(V, nb))
        v += 0 if rf is False else int(self.lv(V, rf))
        return v

    def _order_check(self, a, b, k):
        def check(V):
            o1, t1 = self.ov(V, a, b, k)
            o0, t0 = self.ov(V, a, b, k - 1)
            if t1 or t0:
                return True
            if not (self._stock_v(V, a, k) and self._stock_v(V, b, k)):
                return False
            return o1 != o0
        return check

    def _order_add(self, a, b, k):
        def add():
            conds = [self._in_stock(a, k), self._in_stock(b, k)]
            self.m.Add(self.o(a, b, k) == self.o(a, b, k - 1)).OnlyEnforceIf(conds)
        return add

    def _top_since_build(self, i, own, j, k, e):
        self._since_kind = ("since", j)
        self._home_before_build(i, own, j, k, [e, self.gone_pass[j][k]], lambda b: self._since(j, b, k))
        self._since_kind = None

    def _home_before_build(self, i, own, j, k, lead, after_base):
        kind = self._since_kind or ("o", j)
        for b in self.card:
            if b in (i, j, own):
                continue
            if kind[0] == "o" and j[0] == "s" and b[0] == "s" and j[1] > b[1]:
                continue
            self.deferred.append((("hbb", i, j, k, b, len(self.deferred)), self._hbb_check(i, j, k, b, lead, kind),
                                  self._hbb_add(i, j, k, b, lead, kind)))

    def _hbb_check(self, i, j, k, b, lead, kind):
        def check(V):
            o, t1 = self.ov(V, b, i, k)
            g, t2 = self.gv(V, b, i, k)
            if kind[0] == "o":
                after, t3 = self.ov(V, j, b, k)
            else:
                after, t3 = self.iv(V, self.arr[(b, k)]) > V.Value(self.free_leave[j]), False
            if t1 or t2 or t3:
                return True
            if not all(self.lv(V, l) for l in lead):
                return False
            return self.lv(V, self.present[(b, k)]) and o and after and not g
        return check

    def _hbb_add(self, i, j, k, b, lead, kind):
        def add():
            after = self.o(j, b, k) if kind[0] == "o" else self._since(j, b, k)
            if after is False:
                return
            conds = lead + [self.present[(b, k)], self.o(b, i, k)] + ([] if after is True else [after])
            self.m.AddBoolOr([self.g(b, i, k)]).OnlyEnforceIf(conds)
        return add

    def _landed_cover(self):
        self._luh_kind = "landed"
        super()._landed_cover()
        self._luh_kind = None

    def _lies_until_home(self, x, k, first, since):
        start = self.lands[(x, k)] if getattr(self, "_luh_kind", None) == "landed" else self.free_leave[x]
        for b in self.card:
            if b == x:
                continue
            self.deferred.append((("luh", x, k, b), self._luh_check(x, k, b, first, start),
                                  self._luh_add(x, k, b, first, since)))

    def _luh_check(self, x, k, b, first, start):
        def check(V):
            g, t2 = self.gv(V, x, b, k)
            if t2:
                return True
            if not all(self.lv(V, l) for l in first):
                return False
            since = self.iv(V, self.arr[(b, k)]) > V.Value(start)
            return self.lv(V, self.present[(b, k)]) and since and not g and not (V.Value(self.t[b]) < V.Value(self.t[x]))
        return check

    def _luh_add(self, x, k, b, first, since):
        def add():
            conds = first + [self.present[(b, k)], since(b), self.g(x, b, k).Not()]
            self.m.Add(self.t[b] < self.t[x]).OnlyEnforceIf(conds)
        return add


def lazy_solve(pos, rules, opts, det_total, log=print, per_round=None):
    t0 = time.perf_counter()
    sc = Lazy(pos, rules, **opts)
    log(f"built {time.perf_counter() - t0:.1f}s deferred {len(sc.deferred)} cons {len(sc.m.Proto().constraints)}")
    pending = list(range(len(sc.deferred)))
    units = 0.0
    rnd = 0
    while True:
        rnd += 1
        solver = S._solver(max(det_total - units, 0.01))
        st = solver.Solve(sc.m)
        units += solver.deterministic_time
        name = solver.StatusName(st)
        if st not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            log(f"round {rnd}: {name} units {units:.2f} s {time.perf_counter() - t0:.1f}")
            return name, units, rnd, sc, None
        bad = [d for d in pending if sc.deferred[d][1](solver)]
        log(f"round {rnd}: {name} units {units:.2f} s {time.perf_counter() - t0:.1f} violated {len(bad)} of {len(pending)}")
        if not bad:
            return name, units, rnd, sc, solver
        if per_round:
            import random
            bad = random.Random(rnd).sample(bad, min(per_round, len(bad)))
        for d in bad:
            sc.deferred[d][2]()
        done = set(bad)
        pending = [d for d in pending if d not in done]
        # hint the last solution
        sc.m.ClearHints()
        for v in list(sc.t.values()):
            sc.m.AddHint(v, solver.Value(v))


if __name__ == "__main__":
    from solver.engine import engine_for
    from solver.formats import pysolfc_deal
    from solver.variants import make_rules
    rules = make_rules("reinforcements")
    engine = engine_for(rules)
    opts = dict(S.MODELS[sys.argv[2] if len(sys.argv) > 2 else "late"])
    for g in (int(x) for x in sys.argv[1].split(",")):
        pos = engine.initial_position(pysolfc_deal(rules, g).layout)
        name, units, rnd, sc, solver = lazy_solve(pos, rules, opts, float(sys.argv[3]) if len(sys.argv) > 3 else 200,
                                                  per_round=int(sys.argv[4]) if len(sys.argv) > 4 else None)
        row = dict(game=g, status=name, units=round(units, 2), rounds=rnd)
        if solver is not None:
            row["replay"] = S.replay_schedule(engine, pos, sc, solver.Value)[1] or "win"
        print(json.dumps(row), flush=True)
