"""The redeal's deal (point 7 of ``SAFE_SCHEDULE_RELAXATION``; with reinforcement 5 of
``SAFE_SCHEDULE_REFILLS``): with ``redeal_includes_first_deal`` a pass begins with the
redeal, which deals its first card, and every other move of the pass comes after it."""

from __future__ import annotations

from solver.alhambra.schedule.model import ScheduleModel


def add_redeal_deal_first(sc: ScheduleModel) -> None:
    """With redeal_includes_first_deal, a pass's first move is the redeal that deals
    its first card: every other move of the pass comes after that arrival."""
    m = sc.m
    for k in range(1, sc.passes):
        lo, hi = sc.pass_times(k)
        fa = m.NewIntVar(lo, hi, "")
        some = []
        happens = m.NewBoolVar("")        # the pass happens only if some card is redealt
        for b in sc.card:
            a = sc.arr[(b, k)]
            m.AddImplication(sc.present[(b, k)], happens)
            m.Add(fa <= a).OnlyEnforceIf(sc.present[(b, k)])
            w = m.NewBoolVar("")
            m.AddImplication(w, sc.present[(b, k)])
            m.Add(fa == a).OnlyEnforceIf(w)
            some.append(w)
        m.AddBoolOr(some).OnlyEnforceIf(happens)
        for x in sc.card:
            m.Add(sc.t[x] >= fa).OnlyEnforceIf(sc.home_in[(x, k)])
        for i in sc.leave:
            m.Add(sc.leave[i] >= fa).OnlyEnforceIf(sc.leave_pass[(i, k)])


def add_redeal_deal_first_with_refills(sc: ScheduleModel) -> None:
    """``add_redeal_deal_first`` with refills: the redeal deals pass k's first card, and every
    move of the pass comes after it (reserves are refilled only after a card move, or
    with ``immediate`` after that deal). That card is a modelled card dealt (not taken)
    at the earliest of the pass's departures from the stock, unless it is a free card:
    one built in pass k-1 before the first arrival, there, of every modelled card of
    pass k's stock, or one built in an earlier pass; either still in play."""
    m = sc.m
    for k in range(1, sc.passes):
        lo, hi = sc.pass_times(k)
        fa = m.NewIntVar(lo, hi, "")                     # the redeal's deal
        fp = m.NewIntVar(0, sc.end, "")                # the stock's first arrival in k-1
        firsts, stocked = [], []
        for b in sc.card:
            inside = sc.in_stock(b, k)
            if inside is False:
                continue
            stocked.append(inside)
            out = sc.arr[(b, k)]
            if b[0] == "s":
                out = sc.landing(b[1], k)
            m.Add(fa <= out).OnlyEnforceIf(inside)
            if sc.rf[(b, k)] is not False:         # a take comes after that deal
                m.Add(fa < out).OnlyEnforceIf(sc.rf[(b, k)])
            m.Add(fp <= sc.arr[(b, k - 1)]).OnlyEnforceIf(inside)
            w = m.NewBoolVar("")                         # b is that card
            m.AddImplication(w, sc.present[(b, k)])
            if sc.nb[(b, k)] is not False:
                m.AddImplication(w, sc.nb[(b, k)].Not())
            m.Add(fa == out).OnlyEnforceIf(w)
            firsts.append(w)
        for x, gks in sc.gone_pass.items():
            still = sc.literal_for(sc.t[x] >= lo, sc.t[x] < lo)
            early = m.NewBoolVar("")                     # built in pass k-1 first there
            m.AddBoolAnd([sc.free_built[x], gks[k - 1], still]).OnlyEnforceIf(early)
            m.Add(sc.free_leave[x] < fp).OnlyEnforceIf(early)
            firsts.append(early)
            for j in range(k - 1):
                before = m.NewBoolVar("")                # built in an earlier pass
                m.AddBoolAnd([sc.free_built[x], gks[j], still]).OnlyEnforceIf(before)
                firsts.append(before)
        happens = m.NewBoolVar("")                       # some modelled card redealt
        for inside in stocked:
            m.AddImplication(inside, happens)
        m.AddBoolOr(firsts).OnlyEnforceIf(happens)
        for x in sc.card:
            m.Add(sc.t[x] >= fa).OnlyEnforceIf(sc.home_in[(x, k)])
        for i in sc.leave:
            m.Add(sc.leave[i] >= fa).OnlyEnforceIf(sc.leave_pass[(i, k)])
        for x, gks in sc.gone_pass.items():
            m.Add(sc.free_leave[x] >= fa).OnlyEnforceIf(gks[k])
