"""The bases of builds (point 6 of ``SAFE_SCHEDULE_RELAXATION``; with reinforcement 3 of
``SAFE_SCHEDULE_REFILLS``): a card built onto the waste goes onto its top, a same-suit
neighbour (K-A wrap) arrived before and not home with every card arrived on it since home,
or where an empty waste takes any card onto an empty waste; a card built lies on its base
until it goes home, and a second card built onto the same base comes after the first one's
home move."""

from __future__ import annotations

from solver import cards
from solver.alhambra.schedule.model import ScheduleModel


def add_build_bases(sc: ScheduleModel) -> None:
    """A base for every build: of each reserve card, and of each card a reserve took (as
    ``("f", x)``: built from that reserve)."""
    for i in list(sc.leave) + [("f", x) for x in sc.free_leave]:
        _bases_of_build(sc, i)


def _bases_of_build(sc: ScheduleModel, i):
    """A card built in pass k goes onto the waste top: a same-suit neighbour that arrived
    before and is not home, with every card arrived on it since home; or, where an empty
    waste takes any card, onto an empty waste (every card arrived in the pass home, and
    with redeal_includes_first_deal some card arrived: the redeal dealt one). ``i`` is a
    reserve card, or ``("f", x)``: card x built from the reserve that took it."""
    m = sc.m
    own = i[1] if i[0] == "f" else i
    for k in range(sc.passes):
        es = []
        ai = sc.arr[(i, k)]
        for nbr in _neighbours(sc.card[own], sc.ranks):
            for j in sc.copies.get(nbr, []):
                if j == own:
                    continue
                if sc.fb[(j, k)] is not False:
                    es.append(_free_card_base(sc, j, k, ai))
                    _lies_on_base(sc, i, own, j, k, es[-1])
                    _home_before_build_on_free_card(sc, i, own, j, k, es[-1])
                e = m.NewBoolVar("")
                m.AddImplication(e, sc.nb[(i, k)])
                m.AddImplication(e, sc.present[(j, k)])
                j_first = sc.arrives_before(j, i, k)
                if j_first is False:
                    m.Add(e == 0)
                    continue
                if j_first is not True:
                    m.AddImplication(e, j_first)
                m.AddImplication(e, sc.home_before_arrival(j, i, k).Not())
                _home_before_build(sc, i, own, j, k, [e], lambda b: sc.arrives_before(j, b, k))
                es.append(e)
                if i[0] == "f":
                    _lies_on_base(sc, i, own, j, k, e)
                elif sc.reinforce:
                    _note_build(sc, i, j, k, e)
        if sc.any_base:                  # onto an empty waste: all arrived are home
            if k > 0 and sc.first_deal:  # the redeal dealt a card first
                some = []
                for b in sc.card:
                    b_first = sc.arrives_before(b, i, k) if b not in (i, own) else False
                    if b_first is False:
                        continue
                    a = m.NewBoolVar("")
                    m.AddImplication(a, sc.present[(b, k)])
                    if b_first is not True:
                        m.AddImplication(a, b_first)
                    some.append(a)
                m.AddBoolOr(some).OnlyEnforceIf(sc.nb[(i, k)])
            e = m.NewBoolVar("")
            m.AddImplication(e, sc.nb[(i, k)])
            for b in sc.card:
                if b not in (i, own):
                    m.AddBoolOr([sc.home_before_arrival(b, i, k)]).OnlyEnforceIf(
                        [e, sc.present[(b, k)], sc.arrives_before(b, i, k)])
            es.append(e)
        m.AddBoolOr(es + [sc.nb[(i, k)].Not()])


def _free_card_base(sc: ScheduleModel, j, k, at):
    """A literal for "card j, taken by a reserve in pass k or before (free in the
    model), is the base of a build at time ``at``": it left that reserve onto the waste
    before, and is not home yet (necessary whatever it did since)."""
    m = sc.m
    e = m.NewBoolVar("")
    m.AddImplication(e, sc.fb[(j, k)])
    m.AddImplication(e, sc.free_built[j])
    m.Add(sc.free_leave[j] < at).OnlyEnforceIf(e)
    m.Add(sc.t[j] > at).OnlyEnforceIf(e)
    if (j, k) in sc.lands:          # built in the pass before: after its landing
        m.Add(at > sc.lands[(j, k)]).OnlyEnforceIf([e, sc.gone_pass[j][k - 1]])
    return e


def _lies_on_base(sc: ScheduleModel, i, own, j, k, e):
    """Built onto ``j`` in pass k (literal ``e``), card ``own`` lies on it until it goes
    home: if j goes home in pass k, ``own`` goes first. Stated where one of them may be
    free in the model (taken by a reserve); ``add_cover`` states it for the others. The
    build is noted for ``add_builds_on_one_base``."""
    sc.m.Add(sc.t[own] < sc.t[j]).OnlyEnforceIf([e, sc.home_in[(j, k)]])
    _note_build(sc, i, j, k, e)


def _home_before_build_on_free_card(sc: ScheduleModel, i, own, j, k, e):
    """Free card j built onto the waste in pass k is the base of ``i``'s build (literal
    ``e``) later in that pass: every card arrived on the waste between the two builds
    lay on j and went home before ``i``'s build, as with any other base (``_bases_of_build``)."""
    _home_before_build(sc, i, own, j, k, [e, sc.gone_pass[j][k]], lambda b: sc.arrives_since_build(j, b, k))


def _home_before_build(sc: ScheduleModel, i, own, j, k, lead, after_base):
    """Where the literals ``lead`` say that ``j`` is the base of ``i``'s build in pass k,
    every card present that arrived after j's arrival (``after_base(b)``: a literal, or
    True/False) and before i's lay on j, so it went home before i's build."""
    if not sc.pairs:
        return
    for b in sc.card:
        if b in (i, j, own):
            continue
        after = after_base(b)
        if after is False:
            continue
        conds = lead + [sc.present[(b, k)], sc.arrives_before(b, i, k)] + ([] if after is True else [after])
        sc.m.AddBoolOr([sc.home_before_arrival(b, i, k)]).OnlyEnforceIf(conds)


def _note_build(sc: ScheduleModel, i, j, k, e):
    """``i`` built onto ``j`` in pass k where literal ``e`` holds, for ``add_builds_on_one_base``."""
    sc.built_on.setdefault((j, k), []).append((i, e))


def add_builds_on_one_base(sc: ScheduleModel) -> None:
    """Two cards built onto the same base in one pass: the base is the top for each, so
    the first built is home before the second's build. Stated where the first is free in
    the model (built from a reserve that took it); ``_bases_of_build`` states it for the others."""
    m = sc.m
    for (j, k), builds in sc.built_on.items():
        for a, ea in builds:
            if a[0] != "f":
                continue
            for b, eb in builds:
                if b != a:
                    m.Add(sc.t[a[1]] < sc.arr[(b, k)]).OnlyEnforceIf([ea, eb, sc.arrives_before(a, b, k)])


def _neighbours(c: int, ranks: int) -> list[int]:
    """The cards a card can be built on: same suit, rank one apart with K-A wrap."""
    r, s = cards.rank(c), cards.suit(c)
    out = {cards.make(cards.pred(r, ranks), s), cards.make(cards.succ(r, ranks), s)}
    out.discard(c)
    return sorted(out)
