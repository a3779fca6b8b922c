"""Reading a schedule back: a CP-SAT solution of the model turned into a line of play,
each move checked and played on the reference engine (``replay_schedule``). Where it plays
to a win, the position is won; where not, the moves up to the first the engine refuses are
a *lead* (``schedule_lead``), from which the driver may search for wins. ``value`` is the
solution's value of a variable (``CpSolver.Value``)."""

from __future__ import annotations

from typing import Optional

from solver import cards
from solver.alhambra.schedule.model import SLOT, ScheduleModel
from solver.moves import DEAL, REDEAL, Move, card_move


def _events(sc: ScheduleModel, value) -> list[tuple[int, str, tuple]]:
    """A solution's moves in time order: (2 * time, kind, card); landings at odd times
    just before their slot."""
    ev = [(2 * value(v), "home", x) for x, v in sc.t.items()]
    for i in sc.leave:
        if value(sc.built[i]):
            ev.append((2 * value(sc.leave[i]), "build", i))
        for k in range(sc.passes):
            if value(sc.present[(i, k)]) and not value(sc.nb[(i, k)]):
                ev.append((2 * value(sc.arr[(i, k)]), "deal", i))
    for k in range(sc.passes):
        for q in range(sc.now if k == 0 else 0, sc.n):
            if value(sc.present[(("s", q), k)]):
                ev.append((2 * sc.landing(q, k) - 1, "deal", ("s", q)))
    for x, gone in sc.free_leave.items():      # taken by a reserve: built when it leaves early
        if value(sc.fb[(x, sc.passes - 1)]) and value(gone) < value(sc.t[x]):
            ev.append((2 * value(gone), "build", x))
    return sorted(ev, key=lambda e: e[0])


def _source(pos, c: int, prefer):
    """Where card ``c``, taken by a reserve, can be moved from: ``prefer`` (the reserve
    that took it, or the waste once it is built there) if ``c`` is its top, else a reserve
    whose top it is, else the waste. Both copies of a card may be tops at once."""
    tops = {("w", 0): pos.waste[0][-1] if pos.waste[0] else None}
    tops.update({("r", r): pile[-1] if pile else None for r, pile in enumerate(pos.reserves)})
    if tops.get(prefer) == c:
        return prefer
    for r, pile in enumerate(pos.reserves):
        if pile and pile[-1] == c:
            return ("r", r)
    return ("w", 0)


def _taken_source(sc: ScheduleModel, x, tm: int, value):
    """Where taken card ``x`` is expected at event time ``tm``: on the waste after its build
    (``free_leave``), else in the reserve that took it."""
    if value(sc.free_built[x]) and tm > 2 * value(sc.free_leave[x]):
        return ("w", 0)
    return ("r", int(value(sc.reserve_of[x])))


def replay_schedule(engine, pos, sc: ScheduleModel, value) -> tuple[Optional[list[Move]], str]:
    """The line of play a solution describes, from ``pos``, each move checked and played on
    the reference ``engine``: the moves if they are legal and end in a won position, else
    None (the model admits some schedules no line follows), with the reason: the first
    event the engine refuses and where play stood."""
    moves, why = schedule_lead(engine, pos, sc, value)
    return (None if why else moves), why


def schedule_lead(engine, pos, sc: ScheduleModel, value) -> tuple[list[Move], str]:
    """The moves a schedule's events play on the reference ``engine`` from ``pos``, each
    legal, up to the first event it refuses, and why they stop there ("" when they win).
    Where a schedule does not play, these moves are a *lead*: a line of real play that the
    model's relaxed plan followed as far as it could (searched on for wins by the driver)."""
    def why(kind, c, k):
        top = [cards.text(z) for z in pos.waste[0][-3:]]
        return (f"pass {k}, move {len(out) + 1}: {kind} {cards.text(c)} refused; waste top {top}, "
                f"stock next {[cards.text(z) for z in pos.stock[:3]]}, reserve tops "
                f"{[cards.text(p[-1]) if p else '-' for p in pos.reserves]}")
    out: list[Move] = []
    cur = 0
    dealt = None                             # dealt by the redeal, its deal event to come
    for tm, kind, x in _events(sc, value):
        c = sc.card[x]
        k = tm // (2 * SLOT * sc.N)
        if k > cur and (pos.stock or any(pos.waste)):
            legal = engine.legal_form(pos, Move(REDEAL))
            if legal is None:
                return out, why("redeal before", c, k)
            pos = engine.play(pos, legal)
            out.append(legal)
            dealt = pos.waste[0][-1] if pos.waste[0] else None
        cur = max(cur, k)
        if dealt is not None and kind == "deal":
            # the redeal dealt the pass's first card: moves the schedule puts before that
            # deal come after it (a move before it would be a build onto an empty waste)
            if dealt != c:
                return out, why(f"redeal dealt {cards.text(dealt)}, not", c, k)
            dealt = None
            continue
        fb = sc.fb[(x, sc.passes - 1)]
        freed = fb is not False and bool(value(fb))         # taken by a reserve: where it lies now
        if kind == "deal":
            m = Move(DEAL)
        elif kind == "build":
            src = _source(pos, c, _taken_source(sc, x, tm, value)) if freed else ("r", x[1])
            m = card_move(src, ("w", 0), c)
        else:
            if freed:
                src = _source(pos, c, _taken_source(sc, x, tm, value))
            else:
                src = ("r", x[1]) if x[0] == "r" and not value(sc.built[x]) else ("w", 0)
            up = sc.up[x] if isinstance(sc.up[x], bool) else bool(value(sc.up[x]))
            dst = [("f", j) for j, f in enumerate(pos.foundations)
                   if f and cards.suit(f[0]) == cards.suit(c) and (cards.rank(f[0]) == 1) == up]
            if not dst:
                return out, why("no foundation for", c, k)
            m = card_move(src, dst[0], c)
        legal = engine.legal_form(pos, m)
        if legal is None:
            return out, why(kind, c, k)
        pos = engine.play(pos, legal)
        out.append(legal)
        if kind == "deal" and pos.waste[0][-1] != c:
            return out, why(f"deal gave {cards.text(pos.waste[0][-1])}, not", c, k)
    return out, "" if engine.is_won(pos) else "the schedule's moves end in a position not won"
