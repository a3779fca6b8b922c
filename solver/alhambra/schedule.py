"""The schedule relaxation of an Alhambra position (``schedule_relaxation``, issue 19): the
time at which each card goes home, constrained only by conditions every winning line
meets, solved by CP-SAT (OR-Tools). No schedule means no winning line: the position is
lost. The conditions and their proof: ``SAFE_SCHEDULE_RELAXATION`` in
``solver.alhambra.kernel``.

The clock counts *slots*: slot ``k * n + q + 1`` runs from the landing of the card at
sequence position ``q`` in pass ``k`` (``n`` sequence cards: the waste bottom to top, then
the stock in dealing order) to the next landing; the last pass's last slot lasts to the
end of play. Within a slot, moves happen one after another, so a time is
``slot * SLOT + step``, and two cards never go home at the same time.
"""

from __future__ import annotations

from ortools.sat.python import cp_model

from solver import cards

SLOT = 256                       # steps within a slot: more than the moves one slot can hold
DET_TIME = 60.0                  # CP-SAT's deterministic time limit per position (about seconds)


class _Schedule:
    """The model of one position: ``t[c]`` the home time of physical card ``c`` (a
    sequence card ``("s", q)`` or a reserve card ``("r", pile, depth)``)."""

    def __init__(self, pos, rules):
        self.m = cp_model.CpModel()
        self.ranks = rules["ranks"]
        self.any_base = bool(rules["empty_waste_accepts_any"])
        # a card built after a redeal and before the pass's first deal (only onto an empty
        # waste) is labelled in the pass before but is not dealt after that pass's cards
        self.dealt_in_order = not self.any_base or bool(rules["redeal_includes_first_deal"])
        self.seq = list(pos.waste[0]) + list(pos.stock)        # the engine deals stock[0] first
        self.n = len(self.seq)
        self.passes = rules["redeals"] - pos.redeals_used + 1
        self.now = len(pos.waste[0])                             # the slot of the last landing
        self.end = self.at((self.passes * self.n) + 1) - 1
        self.t, self.card, self.pass_home, self.leave, self.built, self.leave_pass = {}, {}, {}, {}, {}, {}
        self._sequence_cards()
        self._reserve_cards(pos.reserves)
        self.copies: dict[int, list] = {}
        for i, c in self.card.items():
            self.copies.setdefault(c, []).append(i)
        self._foundations(pos.foundations)
        self._cover()
        for i in self.leave:
            self._build(i)

    def at(self, slot: int) -> int:
        return slot * SLOT

    def window(self, k: int, q: int) -> tuple[int, int]:
        """The times a sequence card at position ``q`` can go home in pass ``k``."""
        return self.at(max(k * self.n + q + 1, self.now)), self.at((k + 1) * self.n + 1) - 1

    def pass_slots(self, k: int) -> tuple[int, int]:
        """The times of pass ``k``: from its first landing (pass 0: from now) to its end
        (moves after a redeal and before its first deal count in the pass before)."""
        return self.at(k * self.n + 1 if k > 0 else self.now), self.at((k + 1) * self.n + 1) - 1

    def flag(self, expr_true, expr_false):
        """A literal equal to a linear condition (given as the condition and its negation)."""
        b = self.m.NewBoolVar("")
        self.m.Add(expr_true).OnlyEnforceIf(b)
        self.m.Add(expr_false).OnlyEnforceIf(b.Not())
        return b

    def _sequence_cards(self):
        """Windows: a sequence card goes home in one pass, between its landing and the pass's end."""
        m = self.m
        for q, c in enumerate(self.seq):
            i = ("s", q)
            self.card[i] = c
            self.t[i] = m.NewIntVar(self.at(self.now), self.end, "")
            home_in = []
            for k in range(self.passes):
                lo, hi = self.window(k, q)
                if lo > hi:
                    continue
                b = m.NewBoolVar("")
                m.Add(self.t[i] >= lo).OnlyEnforceIf(b)
                m.Add(self.t[i] <= hi).OnlyEnforceIf(b)
                self.pass_home[(i, k)] = b
                home_in.append(b)
            m.AddExactlyOne(home_in)

    def _reserve_cards(self, reserves):
        """A reserve card leaves after the card above it, home (at its home time) or built
        onto the waste (before it); the pass it leaves in."""
        m = self.m
        for r, pile in enumerate(reserves):
            above = None
            for d in range(len(pile) - 1, -1, -1):
                i = ("r", r, d)
                self.card[i] = pile[d]
                self.t[i] = m.NewIntVar(self.at(self.now), self.end, "")
                self.leave[i] = m.NewIntVar(self.at(self.now), self.end, "")
                self.built[i] = m.NewBoolVar("")
                m.Add(self.leave[i] == self.t[i]).OnlyEnforceIf(self.built[i].Not())
                m.Add(self.leave[i] < self.t[i]).OnlyEnforceIf(self.built[i])
                if above is not None:
                    m.Add(self.leave[i] > self.leave[above])
                in_pass = []
                for k in range(self.passes):
                    b = m.NewBoolVar("")
                    lo, hi = self.pass_slots(k)
                    if lo > hi:
                        m.Add(b == 0)
                    else:
                        m.Add(self.leave[i] >= lo).OnlyEnforceIf(b)
                        m.Add(self.leave[i] <= hi).OnlyEnforceIf(b)
                    self.leave_pass[(i, k)] = b
                    in_pass.append(b)
                m.AddExactlyOne(in_pass)
                above = i

    def _foundations(self, foundations):
        """Each rank a suit's up and down foundations both still need has one copy going
        each way; along a foundation the home times rise."""
        m = self.m
        tops: dict[int, list[int]] = {}
        for pile in foundations:
            if not pile:
                continue
            s = cards.suit(pile[0])
            top = tops.setdefault(s, [0, self.ranks + 1])
            top[0 if cards.rank(pile[0]) == 1 else 1] = cards.rank(pile[-1])
        up = {}
        for s, (u, d) in tops.items():
            for r in range(1, self.ranks + 1):
                ids = self.copies.get(cards.make(r, s), [])
                need_up, need_down = r > u, r < d
                if len(ids) != need_up + need_down:
                    raise ValueError(f"{len(ids)} copies of {cards.text(cards.make(r, s))} in play")
                if need_up and need_down:
                    b = m.NewBoolVar("")
                    up[ids[0]], up[ids[1]] = b, b.Not()
                elif ids:
                    up[ids[0]] = need_up
        for s in tops:
            for r in range(1, self.ranks):
                for a in self.copies.get(cards.make(r, s), []):
                    for b in self.copies.get(cards.make(r + 1, s), []):
                        self._ordered_if(up[a], up[b], a, b)
                        self._ordered_if(_negate(up[a]), _negate(up[b]), b, a)

    def _ordered_if(self, la, lb, first, then):
        """``first`` goes home before ``then`` when both literals hold."""
        if la is False or lb is False:
            return
        conds = [x for x in (la, lb) if x is not True]
        self.m.Add(self.t[first] < self.t[then]).OnlyEnforceIf(conds)

    def _cover(self):
        """If x is in the waste when y lands on it (in x's home pass, with y not home
        before), y goes home first, in that pass; the waste's order as it is now likewise."""
        m = self.m
        for qx in range(self.n):
            x = ("s", qx)
            for qy in range(qx + 1, self.n):
                y = ("s", qy)
                for k in range(self.passes):
                    if (x, k) not in self.pass_home:
                        continue
                    lands = self.at(k * self.n + qy + 1)
                    if qy < self.now and k == 0:     # both in the waste now: y lies on x
                        m.Add(self.t[y] < self.t[x]).OnlyEnforceIf(self.pass_home[(x, 0)])
                        continue
                    under = self.flag(self.t[x] >= lands, self.t[x] < lands)
                    earlier = [self.pass_home[(y, j)].Not() for j in range(k) if (y, j) in self.pass_home]
                    when = [self.pass_home[(x, k)], under] + earlier
                    if (y, k) in self.pass_home:
                        m.Add(self.t[y] < self.t[x]).OnlyEnforceIf(when)
                        m.AddBoolOr([self.pass_home[(y, k)]]).OnlyEnforceIf(when)
                    else:
                        m.AddBoolOr([under.Not()]).OnlyEnforceIf([self.pass_home[(x, k)]] + earlier)

    def _build(self, i):
        """A built card: at its build time a same-suit neighbour is the waste top (unless an
        empty waste takes any card); it covers the waste cards landed before it in that pass
        and is covered by those landing on it."""
        m = self.m
        before = {}                       # (q, k): i leaves at or after q's landing in pass k
        for q in range(self.n):
            for k in range(self.passes):
                if (("s", q), k) in self.pass_home:
                    lands = self.at(k * self.n + q + 1)
                    before[(q, k)] = self.flag(self.leave[i] >= lands, self.leave[i] < lands)
        if not self.any_base:
            bases = []
            for nb in _neighbours(self.card[i], self.ranks):
                for j in self.copies.get(nb, []):
                    bases.extend(self._bases(i, j, before))
            if bases:
                m.AddBoolOr(bases).OnlyEnforceIf(self.built[i])
            else:
                m.Add(self.built[i] == 0)
        for (q, k), landed in before.items():
            x = ("s", q)
            lands = self.at(k * self.n + q + 1)
            stays = self.flag(self.t[x] > self.leave[i], self.t[x] <= self.leave[i])
            m.Add(self.t[i] < self.t[x]).OnlyEnforceIf(
                [self.built[i], self.leave_pass[(i, k)], landed, stays, self.pass_home[(x, k)]])
            there = self.flag(self.t[i] >= lands, self.t[i] < lands)
            this_pass = self.flag(self.t[i] <= self.at((k + 1) * self.n + 1) - 1,
                                  self.t[i] > self.at((k + 1) * self.n + 1) - 1)
            m.Add(self.t[x] < self.t[i]).OnlyEnforceIf(
                [self.built[i], self.leave_pass[(i, k)], landed.Not(), there, this_pass] + self.not_home_before(x, k))
        self._built_later(i, before)

    def _built_later(self, i, before):
        """A card built in pass k and still in the waste at the redeal is dealt again in each
        later pass after the sequence cards that had landed before it was built and before
        those that landed after: it goes home only after the landings of the first still in
        play, and after those of the second that land before its home move."""
        m = self.m
        home_in = []
        for k2 in range(self.passes):
            lo, hi = self.pass_slots(k2)
            b = m.NewBoolVar("")
            if lo > hi:
                m.Add(b == 0)
            else:
                m.Add(self.t[i] >= lo).OnlyEnforceIf(b)
                m.Add(self.t[i] <= hi).OnlyEnforceIf(b)
            home_in.append(b)
        m.AddExactlyOne(home_in)
        for k in range(self.passes):
            for k2 in range(k + 1, self.passes):
                when = [self.built[i], self.leave_pass[(i, k)], home_in[k2]]
                for q in range(self.n):
                    if (q, k) not in before or (("s", q), k2) not in self.pass_home:
                        continue
                    y = ("s", q)
                    lands = self.at(k2 * self.n + q + 1)
                    if self.dealt_in_order:       # y landed before the build: dealt before i
                        m.Add(self.t[i] >= lands).OnlyEnforceIf(
                            when + [before[(q, k)]] + self.not_home_before(y, k2))
                    after = self.flag(self.t[i] >= lands, self.t[i] < lands)
                    m.Add(self.t[y] < self.t[i]).OnlyEnforceIf(
                        when + [before[(q, k)].Not(), after] + self.not_home_before(y, k2))

    def not_home_before(self, x, k: int) -> list:
        """Literals: sequence card ``x`` does not go home before pass ``k``."""
        return [self.pass_home[(x, j)].Not() for j in range(k) if (x, j) in self.pass_home]

    def _bases(self, i, j, before):
        """Literals, one per way, for "neighbour ``j`` is the waste top when ``i`` is built"
        (a sequence card: landed in that pass, not home, every sequence card landed on it
        since gone home; a reserve card: built before and not home)."""
        m = self.m
        out = []
        if j[0] == "s":
            for k in range(self.passes):
                e = m.NewBoolVar("")
                m.Add(self.leave[i] >= self.at(k * self.n + j[1] + 1)).OnlyEnforceIf(e)
                m.AddImplication(e, self.leave_pass[(i, k)])
                m.Add(self.t[j] > self.leave[i]).OnlyEnforceIf(e)
                for q in range(j[1] + 1, self.n):
                    if (q, k) in before:
                        y = ("s", q)
                        m.Add(self.t[y] < self.leave[i]).OnlyEnforceIf(
                            [e, before[(q, k)]] + self.not_home_before(y, k))
                out.append(e)
        elif j != i and not (j[1] == i[1] and j[2] < i[2]):        # not a card under i
            e = m.NewBoolVar("")
            m.AddImplication(e, self.built[j])
            m.Add(self.leave[j] < self.leave[i]).OnlyEnforceIf(e)
            m.Add(self.t[j] > self.leave[i]).OnlyEnforceIf(e)
            out.append(e)
            for k in range(self.passes):          # j lies under i: home in this pass after i
                _, end = self.pass_slots(k)
                same = self.flag(self.t[j] <= end, self.t[j] > end)
                m.Add(self.t[i] < self.t[j]).OnlyEnforceIf([e, self.leave_pass[(i, k)], same])
        return out


def _negate(lit):
    return (not lit) if isinstance(lit, bool) else lit.Not()


def _neighbours(c: int, ranks: int) -> list[int]:
    """The cards a card can be built on: same suit, rank one apart with K-A wrap."""
    r, s = cards.rank(c), cards.suit(c)
    out = {cards.make(cards.pred(r, ranks), s), cards.make(cards.succ(r, ranks), s)}
    out.discard(c)
    return sorted(out)


def schedule_model(pos, rules) -> cp_model.CpModel:
    """The schedule relaxation of ``pos`` under ``rules`` (one waste pile, no reinforcement)."""
    return _Schedule(pos, rules).m


def schedule_lost(pos, rules, det_time: float = DET_TIME) -> tuple[bool, str]:
    """Whether ``pos`` has no schedule (so it is lost), and CP-SAT's status name
    (``INFEASIBLE``: lost; ``OPTIMAL``: a schedule exists, which proves nothing; ``UNKNOWN``:
    gave up at ``det_time``). One worker and a deterministic time limit: the same answer
    on every run."""
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.max_deterministic_time = det_time
    status = solver.Solve(schedule_model(pos, rules))
    return status == cp_model.INFEASIBLE, solver.StatusName(status)
