"""Takes and stays (point 2 of ``SAFE_SCHEDULE_REFILLS``): with reinforcement, the time a
card is taken from the stock into a reserve, the time it leaves (home or built onto the
waste) and the reserve that holds it meanwhile; a reserve holds one card at a time."""

from __future__ import annotations

from solver.alhambra.schedule.model import ScheduleModel


def add_takes_and_stays(sc: ScheduleModel, reserves) -> None:
    """A reserve takes a card from the stock only while it is empty: after its own cards
    have left, and one card at a time, from the take (a sequence card: at its landing
    slot; a built card dealt again: in that pass) to its leaving, home or onto the
    waste. The refills that emptying a reserve forces: ``add_forced_refills``."""
    m = sc.m
    occupants = sc.stays = [[] for _ in reserves]     # per reserve, its stays
    for r, pile in enumerate(reserves):
        if pile:
            bottom = ("r", r, 0)
            size = m.NewIntVar(1, sc.end - sc.start + 2, "")
            occupants[r].append(m.NewIntervalVar(sc.start, size, sc.leave[bottom] + 1, ""))
    last = sc.passes - 1
    for x in sc.card:
        freed = sc.fb[(x, last)]
        if freed is False:
            continue
        take = m.NewIntVar(sc.start, sc.end, "")
        gone = m.NewIntVar(sc.start, sc.end, "")
        for k in range(sc.passes):
            rf = sc.rf[(x, k)]
            if rf is False:
                continue
            if x[0] == "s":
                m.Add(take == sc.landing(x[1], k)).OnlyEnforceIf(rf)
            else:
                # at its turn in pass k's stock: the stock's order is kept (``add_stock_order_kept``)
                m.Add(take == sc.arr[(x, k)]).OnlyEnforceIf(rf)
        m.Add(gone > take).OnlyEnforceIf(freed)
        # it leaves home, or built onto the waste (``_bases_of_build`` of ("f", x))
        built = m.NewBoolVar("")
        m.AddImplication(built, freed)
        m.Add(gone == sc.t[x]).OnlyEnforceIf([freed, built.Not()])
        m.Add(gone < sc.t[x]).OnlyEnforceIf(built)
        sc.free_built[x] = built
        f = ("f", x)
        gks = [sc.lies_in_pass(gone, k) for k in range(sc.passes)]
        m.AddExactlyOne(gks)                   # so each is "gone lies in pass k", both ways
        sc.gone_pass[x] = gks
        for k in range(sc.passes):
            sc.nb[(f, k)], gk = m.NewBoolVar(""), gks[k]
            m.AddBoolAnd([built, gk]).OnlyEnforceIf(sc.nb[(f, k)])
            m.AddBoolOr([built.Not(), gk.Not(), sc.nb[(f, k)]])
            sc.arr[(f, k)] = gone
        where = [m.NewBoolVar("") for _ in reserves]
        m.Add(sum(where) == freed)
        sc.where[x] = where
        sc.reserve_of[x] = m.NewIntVar(0, len(reserves) - 1, "")
        m.Add(sc.reserve_of[x] == sum(r * w for r, w in enumerate(where)))
        for r, w in enumerate(where):
            size = m.NewIntVar(1, sc.end - sc.start + 2, "")
            occupants[r].append(m.NewOptionalIntervalVar(take, size, gone + 1, w, ""))
        sc.refill_at[x], sc.free_leave[x] = take, gone


def add_stays_apart(sc: ScheduleModel) -> None:
    """A reserve holds its own cards, then one taken card at a time: its stays (those of
    ``add_takes_and_stays``, and with ``add_free_card_turns`` a free card's stay when
    taken again) do not overlap."""
    for stays in sc.stays:
        if len(stays) > 1:
            sc.m.AddNoOverlap(stays)
