"""The cards' windows and presence (points 1 and 2 of ``SAFE_SCHEDULE_RELAXATION``; with
reinforcement, 1 of ``SAFE_SCHEDULE_REFILLS``): each card's home time, a reserve card's
leave and build, each card's presence in the waste pass by pass and its arrival there, and
the literals of its takes into a reserve. The first constraint group: it creates the
variables the others constrain."""

from __future__ import annotations

from solver.alhambra.schedule.model import ScheduleModel


def add_sequence_card_windows(sc: ScheduleModel) -> None:
    """A sequence card goes home in one pass it is in play in, after its landing there
    (with reinforcement: unless a reserve took it from the stock, in that pass or before)."""
    m = sc.m
    for q, c in enumerate(sc.seq):
        x = ("s", q)
        sc.card[x] = c
        sc.t[x] = m.NewIntVar(sc.start, sc.end, "")
        add_take_literals(sc, x, [k for k in range(sc.passes) if k > 0 or q >= sc.now])
        lits = []
        for k in range(sc.passes):
            landed, hi, fb = max(sc.landing(q, k), sc.start), sc.pass_times(k)[1], sc.fb[(x, k)]
            # taken by a reserve in pass k or before: home at any time of a pass it is in play in
            lo = landed if fb is False else max(sc.pass_times(k)[0], sc.start)
            b = m.NewBoolVar("")
            if lo > hi:
                m.Add(b == 0)
            else:
                m.Add(sc.t[x] >= lo).OnlyEnforceIf(b)
                m.Add(sc.t[x] <= hi).OnlyEnforceIf(b)
                if fb is not False:
                    m.Add(sc.t[x] >= landed).OnlyEnforceIf([b, fb.Not()])
            sc.home_in[(x, k)] = b
            lits.append(b)
        m.AddExactlyOne(lits)
        for k in range(sc.passes):
            # present in pass k: not home in an earlier pass (it lands in every pass it
            # is in play in) and not taken by a reserve
            p, fb = m.NewBoolVar(""), sc.fb[(x, k)]
            if fb is False:
                m.Add(p == sum(lits[k:]))
            else:
                m.Add(p <= sum(lits[k:]))
                m.Add(p + fb <= 1)
                m.Add(p >= sum(lits[k:]) - fb)
                m.Add(sc.rf[(x, k)] <= sum(lits[k:]))
                m.Add(sc.t[x] > sc.landing(q, k)).OnlyEnforceIf(sc.rf[(x, k)])
            sc.present[(x, k)] = p
            sc.nb[(x, k)] = False
            sc.arr[(x, k)] = sc.landing(q, k)


def add_reserve_card_windows(sc: ScheduleModel, reserves) -> None:
    """A reserve card leaves after the card above it, home or built onto the waste; it is
    in the waste from the pass of its build to the pass it goes home in, and in each
    later pass it is dealt again before it goes home."""
    m = sc.m
    for r, pile in enumerate(reserves):
        above = None
        for d in range(len(pile) - 1, -1, -1):
            i = ("r", r, d)
            sc.card[i] = pile[d]
            add_take_literals(sc, i, list(range(1, sc.passes)))
            sc.t[i] = m.NewIntVar(sc.start, sc.end, "")
            sc.leave[i] = m.NewIntVar(sc.start, sc.end, "")
            sc.built[i] = m.NewBoolVar("")
            m.Add(sc.leave[i] == sc.t[i]).OnlyEnforceIf(sc.built[i].Not())
            m.Add(sc.leave[i] < sc.t[i]).OnlyEnforceIf(sc.built[i])
            if above is not None:
                m.Add(sc.leave[i] > sc.leave[above])
            lp = [sc.lies_in_pass(sc.leave[i], k) for k in range(sc.passes)]
            hp = [sc.lies_in_pass(sc.t[i], k) for k in range(sc.passes)]
            m.AddExactlyOne(lp)
            m.AddExactlyOne(hp)
            for k in range(sc.passes):
                sc.leave_pass[(i, k)] = lp[k]
                sc.home_in[(i, k)] = hp[k]
                lo, hi = sc.pass_times(k)
                p, nb = m.NewBoolVar(""), m.NewBoolVar("")
                lk, hk = m.NewBoolVar(""), m.NewBoolVar("")
                m.Add(lk == sum(lp[:k + 1]))
                m.Add(hk == sum(hp[k:]))
                fb = sc.fb[(i, k)]
                m.AddBoolAnd([sc.built[i], lk, hk] + _unless(fb)).OnlyEnforceIf(p)
                m.AddBoolOr([sc.built[i].Not(), lk.Not(), hk.Not(), p] + _if(fb))
                if sc.rf[(i, k)] is not False:
                    # a reserve takes it from the stock: it lay in the waste at the redeal
                    m.AddImplication(sc.rf[(i, k)], sc.present[(i, k - 1)])
                    m.AddImplication(sc.rf[(i, k)], hk)
                m.AddBoolAnd([sc.built[i], lp[k]]).OnlyEnforceIf(nb)
                m.AddBoolOr([sc.built[i].Not(), lp[k].Not(), nb])
                a = m.NewIntVar(lo, hi, "") if lo <= hi else m.NewIntVar(sc.start, sc.end, "")
                m.Add(a == sc.leave[i]).OnlyEnforceIf(nb)
                # relanded (present, built in an earlier pass): dealt before it goes home
                m.Add(a < sc.t[i]).OnlyEnforceIf([p, nb.Not()])
                if lo > hi:
                    m.Add(p == 0)
                sc.present[(i, k)], sc.nb[(i, k)], sc.arr[(i, k)] = p, nb, a
            above = i


def add_take_literals(sc: ScheduleModel, x, passes) -> None:
    """``rf[(x, k)]``: with reinforcement a reserve takes card ``x`` from the stock in
    pass k (one of ``passes``, not before ``first_take``); ``fb[(x, k)]``: in pass k or
    before. From then on the model leaves the card free (its home time aside): it is in
    no waste."""
    m = sc.m
    for k in range(sc.passes):
        takes = sc.reinforce and k in passes and k >= sc.first_take
        sc.rf[(x, k)] = m.NewBoolVar("") if takes else False
    lits = [sc.rf[(x, k)] for k in range(sc.passes) if sc.rf[(x, k)] is not False]
    if len(lits) > 1:
        m.AddAtMostOne(lits)
    for k in range(sc.passes):
        upto = [sc.rf[(x, j)] for j in range(k + 1) if sc.rf[(x, j)] is not False]
        if not upto:
            sc.fb[(x, k)] = False
        elif len(upto) == 1:
            sc.fb[(x, k)] = upto[0]
        else:
            sc.fb[(x, k)] = m.NewBoolVar("")
            m.Add(sc.fb[(x, k)] == sum(upto))


def _unless(lit) -> list:
    """Enforcement literals for "unless ``lit``" (``lit`` a literal or False)."""
    return [] if lit is False else [lit.Not()]


def _if(lit) -> list:
    return [] if lit is False else [lit]
