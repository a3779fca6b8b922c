"""The foundations (point 3 of ``SAFE_SCHEDULE_RELAXATION``): one card home per move; each
rank a suit's up and down foundations both need has one copy going each way, and along a
foundation the home times rise."""

from __future__ import annotations

from solver import cards
from solver.alhambra.schedule.model import ScheduleModel, negate


def add_distinct_home_times(sc: ScheduleModel) -> None:
    """Distinct moves have distinct times, so no two cards go home at once."""
    sc.m.AddAllDifferent(list(sc.t.values()))    # one card home per move


def add_foundation_order(sc: ScheduleModel, foundations) -> None:
    """Each rank a suit's up and down foundations both still need has one copy going
    each way (``up``); along a foundation the home times rise."""
    m = sc.m
    tops: dict[int, list[int]] = {}
    for pile in foundations:
        if not pile:
            continue
        s = cards.suit(pile[0])
        top = tops.setdefault(s, [0, sc.ranks + 1])
        top[0 if cards.rank(pile[0]) == 1 else 1] = cards.rank(pile[-1])
    up = {}
    for s, (u, d) in tops.items():
        for r in range(1, sc.ranks + 1):
            ids = sc.copies.get(cards.make(r, s), [])
            need_up, need_down = r > u, r < d
            if len(ids) != need_up + need_down:
                raise ValueError(f"{len(ids)} copies of {cards.text(cards.make(r, s))} in play")
            if need_up and need_down:
                b = m.NewBoolVar("")
                up[ids[0]], up[ids[1]] = b, b.Not()
            elif ids:
                up[ids[0]] = need_up
    sc.up = up
    for s in tops:
        for r in range(1, sc.ranks):
            for a in sc.copies.get(cards.make(r, s), []):
                for b in sc.copies.get(cards.make(r + 1, s), []):
                    _home_in_order_if(sc, up[a], up[b], a, b)
                    _home_in_order_if(sc, negate(up[a]), negate(up[b]), b, a)


def _home_in_order_if(sc: ScheduleModel, la, lb, first, then):
    """``first`` goes home before ``then`` where both go the way literals ``la`` and ``lb``
    say (a constant False: never; True: always)."""
    if la is False or lb is False:
        return
    conds = [x for x in (la, lb) if x is not True]
    sc.m.Add(sc.t[first] < sc.t[then]).OnlyEnforceIf(conds)
