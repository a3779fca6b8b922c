"""Forced refills (point 4 of ``SAFE_SCHEDULE_REFILLS``): a card move that empties a reserve
while the stock holds cards is followed at once by a refill with the stock's next card.
Left out of the looser models (``MODELS``: ``force_refills=False``)."""

from __future__ import annotations

from solver.alhambra.schedule.model import SLOT, ScheduleModel


def add_forced_refills(sc: ScheduleModel, reserves) -> None:
    """A card leaving a reserve empties it, and the refill follows at once, with the
    stock's next card. In pass k the stock holds sequence cards in their order and cards
    built in earlier passes: if the move lies in slot ``k N + j`` and a sequence card
    q >= j is still in the stock, the first such q is taken into that reserve, unless a
    built card comes first: then it is taken at once, in the same slot after the move
    (a reserve card taken at its turn; each take answers one move at most), or it is a
    card free in the model (at most as many such escapes as those cards). In the
    current pass the stock holds sequence cards only,
    and each take follows such a move (or the reserve was empty from the start)."""
    m = sc.m
    n, now, last = sc.n, sc.now, sc.passes - 1
    # A reserve empty at the start while the stock holds cards (PySolFC's timing, just
    # after a redeal) is filled first at the next card move, which may empty another:
    # then the stock's next card goes to the emptied one's lower-index rival, and with a
    # single card left the emptied one stays empty. The current pass's forcing assumes
    # neither, so it is left out there.
    forced_now = all(reserves) or now >= n
    occupants = [(sc.leave[("r", r, 0)], r, None) for r, pile in enumerate(reserves) if pile]
    occupants += [(sc.free_leave[x], sc.reserve_of[x], x) for x in sc.free_leave]
    leaves = [[] for _ in reserves]
    escapes = [[] for _ in range(sc.passes)]
    free_escapes = [[] for _ in range(sc.passes)]
    matched: dict = {}
    free_takes: dict = {}                          # (free card, pass) -> its escape literals
    answers = [[] for _ in range(sc.passes)]     # (escape, y) of each move in pass k
    for k in range(sc.passes):
        if k == 0 and now >= n:
            continue
        nxt = _next_in_stock(sc, k)
        taken = [sc.rf[(("s", q), k)] for q in range(n)] + [1]
        taken = [0 if t is False else t for t in taken]
        into = [sc.reserve_of.get(("s", q), 0) for q in range(n)]
        for gone, res, x in occupants:
            c = sc.leave_pass[(("r", res, 0), k)] if x is None else sc.gone_pass[x][k]
            if x is not None:
                c = _both(m, c, sc.fb[(x, last)])
            if k == 0:
                early = m.NewBoolVar("")        # left while the stock held cards
                m.Add(gone < sc.slot_time(n)).OnlyEnforceIf(early)
                m.Add(gone >= sc.slot_time(n)).OnlyEnforceIf([c, early.Not()])
                m.AddImplication(early, c)
                if x is None:
                    leaves[res].append(early)
                else:
                    for r, w in enumerate(sc.where[x]):
                        leaves[r].append(_both(m, early, w))
            slot = m.NewIntVar(0, sc.end // SLOT, "")
            m.AddDivisionEquality(slot, gone, SLOT)
            j = m.NewIntVar(0, n, "")
            m.Add(j == slot - k * sc.N).OnlyEnforceIf(c)
            m.Add(j == n).OnlyEnforceIf(c.Not())
            y = m.NewIntVar(0, n, "")
            m.AddElement(j, nxt, y)
            tk = m.NewBoolVar("")
            m.AddElement(y, taken, tk)
            if k == 0:
                if forced_now:
                    m.Add(tk == 1)
                    ry = m.NewIntVar(0, len(reserves) - 1, "")
                    m.AddElement(y, into + [res], ry)
                    m.Add(ry == res)
            else:
                # not necessarily into this reserve: one emptied at the last pass's end
                # (stock empty) and refilled only now has a lower index, and goes first
                esc = m.NewBoolVar("")
                m.Add(tk == 1).OnlyEnforceIf(esc.Not())
                escapes[k].append(esc)
                # the escape: a built card came first, taken at once, in the same slot
                # (a reserve card at its turn), or a free card (its takes not modelled)
                ef = m.NewBoolVar("")
                free_escapes[k].append(ef)
                took = []
                for b in sc.leave:
                    if sc.rf[(b, k)] is False:
                        continue
                    mb = m.NewBoolVar("")
                    m.AddImplication(mb, sc.rf[(b, k)])
                    m.AddImplication(mb, c)
                    m.Add(sc.arr[(b, k)] > gone).OnlyEnforceIf(mb)
                    m.Add(sc.arr[(b, k)] < SLOT * slot + SLOT).OnlyEnforceIf(mb)
                    matched.setdefault((b, k), []).append(mb)
                    took.append((b, mb))
                m.AddBoolOr([mb for _, mb in took] + [ef]).OnlyEnforceIf(esc)
                lasts = _escape_by_free_card(sc, k, gone, c, ef, y, free_takes)
                _nothing_dealt_between(sc, k, gone, c, esc, y, took, lasts)
                answers[k].append((esc, y))
    for lits in list(matched.values()) + list(free_takes.values()):
        m.AddAtMostOne(lits)              # each take follows one move at most
    for pairs in answers:
        _one_take_per_move(sc, pairs)
    for k in range(1, sc.passes):
        # built cards in pass k's stock that a reserve may take: modelled takes, and
        # cards taken before and built (free in the model, so possibly taken again)
        budget = [sc.rf[(x, k)] for x in sc.leave if sc.rf[(x, k)] is not False]
        free = [_both(m, sc.fb[(x, k - 1)], sc.free_built[x])
                for x in sc.free_leave if sc.fb[(x, k - 1)] is not False]
        m.Add(sum(escapes[k]) <= sum(budget) + sum(free))
        m.Add(sum(free_escapes[k]) <= sum(free))
    if now < n:
        for r, pile in enumerate(reserves):
            takes = [_both(m, sc.rf[(("s", q), 0)], sc.where[("s", q)][r]) for q in range(now, n)]
            if forced_now:
                m.Add(sum(takes) >= sum(leaves[r]))
            m.Add(sum(takes) <= sum(leaves[r]) + (0 if pile else 1))


def _next_in_stock(sc: ScheduleModel, k):
    """``nxt[j]``: the first sequence position q >= j whose card is in pass k's stock
    (dealt or taken in that pass); n if none."""
    m, n = sc.m, sc.n
    if k == 0:
        return [max(j, sc.now) if j < n else n for j in range(n + 1)]
    nxt = [m.NewIntVar(0, n, "") for _ in range(n)] + [n]
    for q in range(n - 1, -1, -1):
        x = ("s", q)
        inside = sc.present[(x, k)]
        if sc.rf[(x, k)] is not False:
            inside = m.NewBoolVar("")
            m.Add(inside == sc.present[(x, k)] + sc.rf[(x, k)])
        m.Add(nxt[q] == q).OnlyEnforceIf(inside)
        m.Add(nxt[q] == nxt[q + 1]).OnlyEnforceIf(inside.Not())
    return nxt


def _escape_by_free_card(sc: ScheduleModel, k, gone, c, ef, y, free_takes):
    """The escape ``ef`` of the move at ``gone`` (in pass k where ``c`` holds): the stock's
    next card is a free card x, taken at once. x was built onto the waste in an earlier
    pass and is not home at the move; built in pass k-1 it is taken at its turn
    (``add_free_card_turns``): every card ahead of it left the stock before the move, its
    departure is that take, and the sequence card y, still in the stock, lies behind it
    (it landed in pass k-1 after x's build). A card leaves a pass's stock once, so it
    answers one move of the pass at most (``free_takes``). Returns the pairs (x, "x
    built in pass k-1 answers the move"), for ``_nothing_dealt_between``."""
    m = sc.m
    if not sc.follow_free:          # only counted (``add_forced_refills``)
        return []
    options, lasts = [], []
    for x, gks in sc.gone_pass.items():
        mf = m.NewBoolVar("")                      # built in pass k-1
        m.AddBoolAnd([c, sc.free_built[x], gks[k - 1], sc.retaken[(x, k)]]).OnlyEnforceIf(mf)
        m.Add(sc.t[x] > gone).OnlyEnforceIf(mf)
        m.Add(sc.turn[(x, k)] <= gone).OnlyEnforceIf(mf)
        m.Add(sc.departs[(x, k)] > gone).OnlyEnforceIf(mf)
        m.Add(sc.slot_time((k - 1) * sc.N + 1) + SLOT * y > sc.free_leave[x]).OnlyEnforceIf(mf)
        lasts.append((x, mf))
        mine = [mf]
        if k > 1:                                  # built in an earlier pass
            me = m.NewBoolVar("")
            m.AddBoolAnd([c, sc.free_built[x]]).OnlyEnforceIf(me)
            m.AddBoolOr(gks[:k - 1]).OnlyEnforceIf(me)
            m.Add(sc.t[x] > gone).OnlyEnforceIf(me)
            mine.append(me)
        free_takes.setdefault((x, k), []).extend(mine)
        options += mine
    m.AddBoolOr(options).OnlyEnforceIf(ef)
    return lasts


def _one_take_per_move(sc: ScheduleModel, pairs):
    """Each take follows its move at once, so two moves of a pass are not answered by the
    same sequence card: where a move has no escape and a sequence card y < n is left
    (``pairs``: each move's escape literal and its y), the y's differ."""
    m, n = sc.m, sc.n
    ys = []
    for idx, (esc, y) in enumerate(pairs):
        left = sc.literal_for(y <= n - 1, y >= n)
        act = m.NewBoolVar("")
        m.AddBoolAnd([esc.Not(), left]).OnlyEnforceIf(act)
        m.AddBoolOr([esc, left.Not(), act])
        yy = m.NewIntVar(0, n + 1 + len(pairs), "")
        m.Add(yy == y).OnlyEnforceIf(act)
        m.Add(yy == n + 1 + idx).OnlyEnforceIf(act.Not())
        ys.append(yy)
    if len(ys) > 1:
        m.AddAllDifferent(ys)


def _nothing_dealt_between(sc: ScheduleModel, k, gone, c, esc, y, took, lasts):
    """The refill after the move at ``gone`` (in pass k where ``c`` holds) takes the
    stock's next card, so no card leaves the stock between the move and that take: the
    sequence card y at its landing (no escape ``esc``), a reserve card taken at its turn
    (``took``: pairs of such a card and the literal "this take answers the move"), or a
    free card built in pass k-1 taken at its departure (``lasts``, pairs as ``took``).
    (y = n: no sequence card is left, and a take at the pass's end says no card is
    dealt after the move.) Sequence cards land at a slot's start, after the move's slot
    or before it, so only reserve cards dealt again can lie between; the take of a free
    card built earlier is not modelled, so it constrains nothing."""
    m = sc.m
    sc.refill_moves.append((k, gone, c, esc, took, lasts))
    em = m.NewBoolVar("")                                 # a take whose time is modelled
    m.AddBoolOr([mb for _, mb in took + lasts]).OnlyEnforceIf(em)
    tt = m.NewIntVar(sc.start, sc.slot_time(sc.passes * sc.N), "")     # the take's time
    m.Add(tt == sc.slot_time(k * sc.N + 1) + SLOT * y).OnlyEnforceIf(esc.Not())
    for b, mb in took:
        m.AddImplication(mb, em)
        m.Add(tt == sc.arr[(b, k)]).OnlyEnforceIf(mb)
    for x, mf in lasts:
        m.AddImplication(mf, em)
        m.Add(tt == sc.departs[(x, k)]).OnlyEnforceIf(mf)
    for b in sc.leave:
        early = m.NewBoolVar("")                          # dealt before the move
        m.Add(sc.arr[(b, k)] < gone).OnlyEnforceIf(early)
        conds = [c, early.Not(), sc.present[(b, k)], sc.nb[(b, k)].Not()]
        m.Add(sc.arr[(b, k)] >= tt).OnlyEnforceIf(conds + [esc.Not()])
        if took or lasts:
            m.Add(sc.arr[(b, k)] >= tt).OnlyEnforceIf(conds + [em])


def _both(m, a, b):
    """A literal equal to ``a and b``."""
    ab = m.NewBoolVar("")
    m.AddBoolAnd([a, b]).OnlyEnforceIf(ab)
    m.AddBoolOr([a.Not(), b.Not(), ab])
    return ab
