"""The waste's order, over pairs of cards (points 4 and 5 of ``SAFE_SCHEDULE_RELAXATION``;
with reinforcement 1's stock order): a card that arrives on another goes home first if
that one goes home in the pass (the cover), and cards redealt leave the next pass's stock
in the waste's order. Left out of the skeleton (``MODELS``: ``pairs=False``)."""

from __future__ import annotations

from solver.alhambra.schedule.model import ScheduleModel, negate


def add_cover(sc: ScheduleModel) -> None:
    """If a is in the waste when b arrives on it in pass k, and a goes home in pass k,
    b goes home first."""
    m = sc.m
    ids = list(sc.card)
    for k in range(sc.passes):
        for a in ids:
            ha = sc.home_in[(a, k)]
            for b in ids:
                if a == b:
                    continue
                a_first = sc.arrives_before(a, b, k)
                if a_first is False:
                    continue
                conds = [ha, sc.present[(a, k)], sc.present[(b, k)], sc.home_before_arrival(a, b, k).Not()]
                if a_first is not True:
                    conds.append(a_first)
                m.Add(sc.t[b] < sc.t[a]).OnlyEnforceIf(conds)


def add_stock_order_kept(sc: ScheduleModel) -> None:
    """Cards in play at a redeal leave the next pass's stock in the waste's order: each
    is dealt, or taken by a reserve at its turn (its arrival's place in the order)."""
    m = sc.m
    ids = list(sc.card)
    for k in range(1, sc.passes):
        for x, a in enumerate(ids):
            for b in ids[x + 1:]:
                if a[0] == "s" and b[0] == "s":
                    continue
                if sc.reinforce:
                    conds = [sc.in_stock(a, k), sc.in_stock(b, k)]
                else:                # the same condition, as Alhambra's model states it
                    conds = [sc.present[(a, k)], sc.present[(b, k)]]
                    conds += [negate(sc.nb[(c, k)]) for c in (a, b) if sc.nb[(c, k)] is not False]
                m.Add(sc.arrives_before(a, b, k) == sc.arrives_before(a, b, k - 1)).OnlyEnforceIf(conds)
