"""A free card's life (point 6 of ``SAFE_SCHEDULE_REFILLS``, and 3's cover by a free card):
a card taken by a reserve is free in the model after its take, but once built onto the
waste it lies there until it goes home, and in the next pass's stock it keeps the waste's
order (its turn), is dealt or taken again, and lies on the waste from its landing on.
``add_free_card_turns`` is left out of the looser models (``MODELS``: ``follow_free=False``),
the covers of the skeleton (``pairs=False``)."""

from __future__ import annotations

from solver.alhambra.schedule.model import ScheduleModel


def add_free_card_turns(sc: ScheduleModel) -> None:
    """A free card built onto the waste in pass k-1 and not home lies in pass k's stock,
    which keeps the waste's order: every card that arrived before it in pass k-1 and left
    pass k's stock (dealt or taken) left it first (``turn``, at least that departure),
    every card that arrived after it leaves after it (``departs``, its departure). Dealt,
    it lands on the waste then; taken by a reserve, it stays there (one stay, added to
    the reserve's) until it goes home or is built onto the waste (``lands``). From its
    landing on, it lies on the waste as any card: it goes home after every card arrived
    since (and is a base only after its landing, ``bases._free_card_base``)."""
    m = sc.m
    for x, gks in sc.gone_pass.items():
        for k in range(1, sc.passes):
            turn = m.NewIntVar(sc.start, sc.end, "")
            dep = m.NewIntVar(sc.start, sc.end, "")
            lo = sc.pass_times(k)[0]
            built = [sc.free_built[x], gks[k - 1], sc.literal_for(sc.t[x] >= lo, sc.t[x] < lo)]
            for b in sc.card:
                inside = sc.in_stock(b, k) if b != x else False
                if inside is False:
                    continue
                out = sc.landing(b[1], k) if b[0] == "s" else sc.arr[(b, k)]
                ahead = sc.arrives_since_build(x, b, k - 1).Not()
                m.Add(turn >= out).OnlyEnforceIf(built + [inside, ahead])
                m.Add(dep > out).OnlyEnforceIf(built + [inside, ahead])
                m.Add(dep < out).OnlyEnforceIf(built + [inside, ahead.Not()])
            lands = m.NewIntVar(sc.start, sc.end, "")
            taken = m.NewBoolVar("")
            m.Add(lands == dep).OnlyEnforceIf(taken.Not())
            m.Add(lands > dep).OnlyEnforceIf(taken)
            m.Add(sc.t[x] >= lands).OnlyEnforceIf(built)
            m.Add(sc.t[x] > dep).OnlyEnforceIf(built)
            stay = [m.NewBoolVar("") for _ in sc.stays]
            m.Add(sum(stay) == 1).OnlyEnforceIf(built + [taken])
            m.Add(sum(stay) == 0).OnlyEnforceIf(taken.Not())
            for r, w in enumerate(stay):
                m.AddImplication(w, taken)
                size = m.NewIntVar(1, sc.end - sc.start + 2, "")
                sc.stays[r].append(m.NewOptionalIntervalVar(dep, size, lands + 1, w, ""))
            sc.turn[(x, k)], sc.departs[(x, k)] = turn, dep
            sc.lands[(x, k)], sc.retaken[(x, k)], sc.restay[(x, k)] = lands, taken, stay


def add_free_card_cover(sc: ScheduleModel) -> None:
    """A card taken by a reserve and built onto the waste in pass k (free in the model
    after its take) lies there from its build until it goes home (``_lies_until_home``)."""
    for x, gks in sc.gone_pass.items():
        for k in range(sc.passes):
            first = [sc.free_built[x], gks[k], sc.home_in[(x, k)]]
            _lies_until_home(sc, x, k, first, lambda b, x=x, k=k: sc.arrives_since_build(x, b, k))


def add_relanded_card_cover(sc: ScheduleModel) -> None:
    """A free card built onto the waste in pass k-1 lands on it again in pass k
    (``add_free_card_turns``) and lies there from its landing until it goes home."""
    for (x, k), lands in sc.lands.items():
        first = [sc.free_built[x], sc.gone_pass[x][k - 1], sc.home_in[(x, k)]]
        _lies_until_home(sc, x, k, first, lambda b, lands=lands, k=k: sc.arrives_after(lands, b, k))


def _lies_until_home(sc: ScheduleModel, x, k, first, since):
    """Free card x lies on the waste in pass k until it goes home: if that is in pass k
    (where the literals ``first`` hold), every card arrived since it lies there
    (``since(b)``), while it lay there, goes home first (as ``add_cover`` states for the
    cards not free)."""
    if not sc.pairs:
        return
    for b in sc.card:
        if b == x:
            continue
        conds = first + [sc.present[(b, k)], since(b), sc.home_before_arrival(x, b, k).Not()]
        sc.m.Add(sc.t[b] < sc.t[x]).OnlyEnforceIf(conds)
