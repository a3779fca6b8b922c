"""The schedule model of an Alhambra position (``schedule_relaxation``, issue 19): the time
of every move that matters, constrained by conditions every winning line meets, solved by
CP-SAT (OR-Tools). No schedule means no winning line: the position is lost (the proof:
``SAFE_SCHEDULE_RELAXATION`` in ``solver.alhambra.kernel``). A schedule is also read back
as a line of play and replayed on the reference engine (``replay_schedule``): where it plays
to a win, the position is won; where not, the moves up to the first it refuses are a lead
(``schedule_lead``), from which the driver may search for wins.

The clock counts *slots*. Pass k has N = n + 1 of them (``n`` sequence cards: the waste
bottom to top, then the stock in dealing order): slot ``k N`` from the pass's redeal to its
first landing, and slot ``k N + q + 1`` from the landing of the card at sequence position
``q`` to the next landing. Within a slot moves happen one after another, so a move's time
is ``slot * SLOT + step``; a landing comes before step 0 of its slot. Every card in the
waste during a pass has an *arrival* there: its landing (sequence cards), its build, or its
deal again in a later pass (built cards, which the redeal keeps in the waste's order).

With reinforcement (``schedule_refills``, proof ``SAFE_SCHEDULE_REFILLS``) a card may be
*taken* from the stock into an empty reserve instead of being dealt; after its first take
the model leaves it free (its home time and that first stay in the reserve aside), and the
refills that a move emptying a reserve forces are stated for the stock's next card.
"""

from __future__ import annotations

import time
from typing import Optional

from ortools.sat.python import cp_model

from solver import cards
from solver.moves import DEAL, REDEAL, Move, card_move

SLOT = 256                       # steps within a slot: more than the moves one slot can hold
DET_TIME = 60.0                  # CP-SAT's deterministic time limit per position (about seconds)
# with reinforcement (one redeal): The Reinforcements 14 is refuted at 92.5 (solver 0.21.0),
# 9 and 20 at 94.4 and 109.8 (0.22.0), at 51.3 and 80.4 (0.23.0; benchmarks/notes/reinforcements-proofs-of-loss.md); the
# model runs only where the searches end unknown
DET_TIME_REFILLS = 120.0
# with reinforcement and two redeals left (only where the rule is named): The
# Reinforcements 4 under the standard rules is refuted at 217.0 (solver 0.22.0)
DET_TIME_REFILLS_TWO = 400.0
# the skeleton model (``MODELS``) at most: it refutes The Reinforcements 8 and 74 under the
# standard rules at 0.6 and 0.7 units and keeps a schedule for 13, 15 and 28 within 1.4
# (benchmarks/notes/reinforcements-proofs-of-loss.md); the cap bounds what it adds where it decides nothing
DET_TIME_SKELETON = 20.0
# the skeleton alone (``schedule_skeleton``, in ``all`` with two redeals too): on the
# unknown standard deals of The Reinforcements 1-300 it refuted 5 of 165 (8, 74, 212, 259,
# 292) within 0.3-0.9 units, and keeps a schedule for most others by 0.5 (benchmarks/notes/reinforcements-proofs-of-loss.md)
DET_TIME_SKELETON_ALONE = 2.0


class _Schedule:
    """The model of one position: ``t[c]`` the home time of card ``c`` (a sequence card
    ``("s", q)`` or a reserve card ``("r", pile, depth)``); for a reserve card ``leave``,
    ``built`` and, per pass, ``present`` (in the waste at some time of the pass), ``nb``
    (built in that pass) and ``arr`` (its arrival: the build, or its deal again).
    ``follow_free=False`` leaves out a free card's life in a redealt stock (point 6 of
    ``SAFE_SCHEDULE_REFILLS`` and the free takes of point 4), ``force_refills=False`` the
    refills a move emptying a reserve forces (point 4): looser models, often refuted sooner
    (``MODELS``, ``stages_for``). ``pairs=False`` leaves out the conditions over pairs of
    cards (``_cover``, ``_order_kept``, ``_home_before_build``, ``_lies_until_home``): a
    skeleton about a tenth of the size."""

    def __init__(self, pos, rules, follow_free: bool = True, force_refills: bool = True,
                 pairs: bool = True, first_take: int = 0):
        # takes before pass ``first_take`` left out: only where no line refills before it
        # (``SAFE_SCHEDULE_LATE_REFILLS``), and only without forced refills, which state
        # takes that a move emptying a reserve makes necessary
        if first_take and force_refills:
            raise ValueError("a model with forced refills cannot leave takes out")
        self.first_take = first_take
        self.m = cp_model.CpModel()
        self.ranks = rules["ranks"]
        self.any_base = bool(rules["empty_waste_accepts_any"])
        self.first_deal = bool(rules["redeal_includes_first_deal"])
        self.reinforce = bool(rules["reinforce"])
        self.follow_free = follow_free
        self.pairs = pairs
        self.seq = list(pos.waste[0]) + list(pos.stock)
        self.n = len(self.seq)
        self.N = self.n + 1
        # with stop_at_third_exhaustion no win ends in the last pass: its last deal ends the game
        self.passes = rules["redeals"] - pos.redeals_used + (0 if rules["stop_at_third_exhaustion"] else 1)
        if self.passes <= 0:
            if pos.stock or any(pos.waste) or any(pos.reserves):
                self.m.AddBoolOr([])          # no pass to win in: no schedule
            self.passes = 1
        self.now = len(pos.waste[0])
        self.start = self.at(self.now)
        self.end = self.at(self.passes * self.N) - 1
        self.t, self.card, self.home_in = {}, {}, {}
        self.leave, self.built, self.leave_pass = {}, {}, {}
        self.present, self.nb, self.arr = {}, {}, {}
        self._o, self._g = {}, {}
        self._stock, self._after = {}, {}   # literal caches of ``_in_stock`` and ``_since``
        self.rf, self.fb = {}, {}        # refilled into a reserve in pass k / in pass k or before
        self.refill_at, self.free_leave, self.free_built = {}, {}, {}
        self.gone_pass = {}
        self.turn: dict = {}              # (free card, pass k) -> its turn in pass k's stock, at least
        self.departs, self.lands = {}, {}   # (free card, pass k) -> its departure from that stock,
        self.retaken, self.restay = {}, {}  # its landing on the waste, whether a reserve takes it
                                            # (and which: one literal per reserve)
        self.built_on: dict = {}          # (base, pass) -> [(card built, its base literal)]
        self.refill_moves: list = []      # moves emptying a reserve, with their refills' literals
        self.where, self.reserve_of = {}, {}
        self._sequence_cards()
        self._reserve_cards(pos.reserves)
        if self.reinforce:
            self._refills(pos.reserves)
            if follow_free:
                self._free_turns()
            for stays in self.stays:
                if len(stays) > 1:
                    self.m.AddNoOverlap(stays)
            if force_refills:
                self._forced_refills(pos.reserves)
        self.copies: dict[int, list] = {}
        for i, c in self.card.items():
            self.copies.setdefault(c, []).append(i)
        self.m.AddAllDifferent(list(self.t.values()))    # one card home per move
        self._foundations(pos.foundations)
        if pairs:
            self._cover()
            self._order_kept()
        if self.first_deal and not self.reinforce:
            self._redeal_deals()
        for i in list(self.leave) + [("f", x) for x in self.free_leave]:
            self._bases(i)
        self._one_at_a_time()
        if self.reinforce:
            self._free_cover()
            self._landed_cover()
            if self.first_deal:
                self._redeal_deals_refills()

    # --- clock ------------------------------------------------------------------------
    def at(self, slot: int) -> int:
        return slot * SLOT

    def pass_times(self, k: int) -> tuple[int, int]:
        return (self.start if k == 0 else self.at(k * self.N)), self.at((k + 1) * self.N) - 1

    def landing(self, q: int, k: int) -> int:
        return self.at(k * self.N + q + 1)

    def flag(self, expr_true, expr_false):
        """A literal equal to a linear condition (given as the condition and its negation)."""
        b = self.m.NewBoolVar("")
        self.m.Add(expr_true).OnlyEnforceIf(b)
        self.m.Add(expr_false).OnlyEnforceIf(b.Not())
        return b

    def in_pass(self, var, k):
        """A literal: time ``var`` lies in pass ``k``."""
        lo, hi = self.pass_times(k)
        b = self.m.NewBoolVar("")
        if lo > hi:
            self.m.Add(b == 0)
        else:
            self.m.Add(var >= lo).OnlyEnforceIf(b)
            self.m.Add(var <= hi).OnlyEnforceIf(b)
        return b

    # --- cards ------------------------------------------------------------------------
    def _sequence_cards(self):
        """A sequence card goes home in one pass it is in play in, after its landing there
        (with reinforcement: unless a reserve took it from the stock, in that pass or before)."""
        m = self.m
        for q, c in enumerate(self.seq):
            x = ("s", q)
            self.card[x] = c
            self.t[x] = m.NewIntVar(self.start, self.end, "")
            self._refill_literals(x, [k for k in range(self.passes) if k > 0 or q >= self.now])
            lits = []
            for k in range(self.passes):
                landed, hi, fb = max(self.landing(q, k), self.start), self.pass_times(k)[1], self.fb[(x, k)]
                # taken by a reserve in pass k or before: home at any time of a pass it is in play in
                lo = landed if fb is False else max(self.pass_times(k)[0], self.start)
                b = m.NewBoolVar("")
                if lo > hi:
                    m.Add(b == 0)
                else:
                    m.Add(self.t[x] >= lo).OnlyEnforceIf(b)
                    m.Add(self.t[x] <= hi).OnlyEnforceIf(b)
                    if fb is not False:
                        m.Add(self.t[x] >= landed).OnlyEnforceIf([b, fb.Not()])
                self.home_in[(x, k)] = b
                lits.append(b)
            m.AddExactlyOne(lits)
            for k in range(self.passes):
                # present in pass k: not home in an earlier pass (it lands in every pass it
                # is in play in) and not taken by a reserve
                p, fb = m.NewBoolVar(""), self.fb[(x, k)]
                if fb is False:
                    m.Add(p == sum(lits[k:]))
                else:
                    m.Add(p <= sum(lits[k:]))
                    m.Add(p + fb <= 1)
                    m.Add(p >= sum(lits[k:]) - fb)
                    m.Add(self.rf[(x, k)] <= sum(lits[k:]))
                    m.Add(self.t[x] > self.landing(q, k)).OnlyEnforceIf(self.rf[(x, k)])
                self.present[(x, k)] = p
                self.nb[(x, k)] = False
                self.arr[(x, k)] = self.landing(q, k)

    def _reserve_cards(self, reserves):
        """A reserve card leaves after the card above it, home or built onto the waste; it is
        in the waste from the pass of its build to the pass it goes home in, and in each
        later pass it is dealt again before it goes home."""
        m = self.m
        for r, pile in enumerate(reserves):
            above = None
            for d in range(len(pile) - 1, -1, -1):
                i = ("r", r, d)
                self.card[i] = pile[d]
                self._refill_literals(i, list(range(1, self.passes)))
                self.t[i] = m.NewIntVar(self.start, self.end, "")
                self.leave[i] = m.NewIntVar(self.start, self.end, "")
                self.built[i] = m.NewBoolVar("")
                m.Add(self.leave[i] == self.t[i]).OnlyEnforceIf(self.built[i].Not())
                m.Add(self.leave[i] < self.t[i]).OnlyEnforceIf(self.built[i])
                if above is not None:
                    m.Add(self.leave[i] > self.leave[above])
                lp = [self.in_pass(self.leave[i], k) for k in range(self.passes)]
                hp = [self.in_pass(self.t[i], k) for k in range(self.passes)]
                m.AddExactlyOne(lp)
                m.AddExactlyOne(hp)
                for k in range(self.passes):
                    self.leave_pass[(i, k)] = lp[k]
                    self.home_in[(i, k)] = hp[k]
                    lo, hi = self.pass_times(k)
                    p, nb = m.NewBoolVar(""), m.NewBoolVar("")
                    lk, hk = m.NewBoolVar(""), m.NewBoolVar("")
                    m.Add(lk == sum(lp[:k + 1]))
                    m.Add(hk == sum(hp[k:]))
                    fb = self.fb[(i, k)]
                    m.AddBoolAnd([self.built[i], lk, hk] + _unless(fb)).OnlyEnforceIf(p)
                    m.AddBoolOr([self.built[i].Not(), lk.Not(), hk.Not(), p] + _if(fb))
                    if self.rf[(i, k)] is not False:
                        # a reserve takes it from the stock: it lay in the waste at the redeal
                        m.AddImplication(self.rf[(i, k)], self.present[(i, k - 1)])
                        m.AddImplication(self.rf[(i, k)], hk)
                    m.AddBoolAnd([self.built[i], lp[k]]).OnlyEnforceIf(nb)
                    m.AddBoolOr([self.built[i].Not(), lp[k].Not(), nb])
                    a = m.NewIntVar(lo, hi, "") if lo <= hi else m.NewIntVar(self.start, self.end, "")
                    m.Add(a == self.leave[i]).OnlyEnforceIf(nb)
                    # relanded (present, built in an earlier pass): dealt before it goes home
                    m.Add(a < self.t[i]).OnlyEnforceIf([p, nb.Not()])
                    if lo > hi:
                        m.Add(p == 0)
                    self.present[(i, k)], self.nb[(i, k)], self.arr[(i, k)] = p, nb, a
                above = i

    def _refill_literals(self, x, passes):
        """``rf[(x, k)]``: with reinforcement a reserve takes card ``x`` from the stock in
        pass k (one of ``passes``, not before ``first_take``); ``fb[(x, k)]``: in pass k or
        before. From then on the model leaves the card free (its home time aside): it is in
        no waste."""
        m = self.m
        for k in range(self.passes):
            takes = self.reinforce and k in passes and k >= self.first_take
            self.rf[(x, k)] = m.NewBoolVar("") if takes else False
        lits = [self.rf[(x, k)] for k in range(self.passes) if self.rf[(x, k)] is not False]
        if len(lits) > 1:
            m.AddAtMostOne(lits)
        for k in range(self.passes):
            upto = [self.rf[(x, j)] for j in range(k + 1) if self.rf[(x, j)] is not False]
            if not upto:
                self.fb[(x, k)] = False
            elif len(upto) == 1:
                self.fb[(x, k)] = upto[0]
            else:
                self.fb[(x, k)] = m.NewBoolVar("")
                m.Add(self.fb[(x, k)] == sum(upto))

    def _refills(self, reserves):
        """A reserve takes a card from the stock only while it is empty: after its own cards
        have left, and one card at a time, from the take (a sequence card: at its landing
        slot; a built card dealt again: in that pass) to its leaving, home or onto the
        waste. The refills that emptying a reserve forces: ``_forced_refills``."""
        m = self.m
        occupants = self.stays = [[] for _ in reserves]     # per reserve, its stays
        for r, pile in enumerate(reserves):
            if pile:
                bottom = ("r", r, 0)
                size = m.NewIntVar(1, self.end - self.start + 2, "")
                occupants[r].append(m.NewIntervalVar(self.start, size, self.leave[bottom] + 1, ""))
        last = self.passes - 1
        for x in self.card:
            freed = self.fb[(x, last)]
            if freed is False:
                continue
            take = m.NewIntVar(self.start, self.end, "")
            gone = m.NewIntVar(self.start, self.end, "")
            for k in range(self.passes):
                rf = self.rf[(x, k)]
                if rf is False:
                    continue
                if x[0] == "s":
                    m.Add(take == self.landing(x[1], k)).OnlyEnforceIf(rf)
                else:
                    # at its turn in pass k's stock: the stock's order is kept (``_order_kept``)
                    m.Add(take == self.arr[(x, k)]).OnlyEnforceIf(rf)
            m.Add(gone > take).OnlyEnforceIf(freed)
            # it leaves home, or built onto the waste (``_bases`` of ("f", x))
            built = m.NewBoolVar("")
            m.AddImplication(built, freed)
            m.Add(gone == self.t[x]).OnlyEnforceIf([freed, built.Not()])
            m.Add(gone < self.t[x]).OnlyEnforceIf(built)
            self.free_built[x] = built
            f = ("f", x)
            gks = [self.in_pass(gone, k) for k in range(self.passes)]
            m.AddExactlyOne(gks)                   # so each is "gone lies in pass k", both ways
            self.gone_pass[x] = gks
            for k in range(self.passes):
                self.nb[(f, k)], gk = m.NewBoolVar(""), gks[k]
                m.AddBoolAnd([built, gk]).OnlyEnforceIf(self.nb[(f, k)])
                m.AddBoolOr([built.Not(), gk.Not(), self.nb[(f, k)]])
                self.arr[(f, k)] = gone
            where = [m.NewBoolVar("") for _ in reserves]
            m.Add(sum(where) == freed)
            self.where[x] = where
            self.reserve_of[x] = m.NewIntVar(0, len(reserves) - 1, "")
            m.Add(self.reserve_of[x] == sum(r * w for r, w in enumerate(where)))
            for r, w in enumerate(where):
                size = m.NewIntVar(1, self.end - self.start + 2, "")
                occupants[r].append(m.NewOptionalIntervalVar(take, size, gone + 1, w, ""))
            self.refill_at[x], self.free_leave[x] = take, gone

    def _next_in_stock(self, k):
        """``nxt[j]``: the first sequence position q >= j whose card is in pass k's stock
        (dealt or taken in that pass); n if none."""
        m, n = self.m, self.n
        if k == 0:
            return [max(j, self.now) if j < n else n for j in range(n + 1)]
        nxt = [m.NewIntVar(0, n, "") for _ in range(n)] + [n]
        for q in range(n - 1, -1, -1):
            x = ("s", q)
            inside = self.present[(x, k)]
            if self.rf[(x, k)] is not False:
                inside = m.NewBoolVar("")
                m.Add(inside == self.present[(x, k)] + self.rf[(x, k)])
            m.Add(nxt[q] == q).OnlyEnforceIf(inside)
            m.Add(nxt[q] == nxt[q + 1]).OnlyEnforceIf(inside.Not())
        return nxt

    def _forced_refills(self, reserves):
        """A card leaving a reserve empties it, and the refill follows at once, with the
        stock's next card. In pass k the stock holds sequence cards in their order and cards
        built in earlier passes: if the move lies in slot ``k N + j`` and a sequence card
        q >= j is still in the stock, the first such q is taken into that reserve, unless a
        built card comes first: then it is taken at once, in the same slot after the move
        (a reserve card taken at its turn; each take answers one move at most), or it is a
        card free in the model (at most as many such escapes as those cards). In the
        current pass the stock holds sequence cards only,
        and each take follows such a move (or the reserve was empty from the start)."""
        m = self.m
        n, now, last = self.n, self.now, self.passes - 1
        # A reserve empty at the start while the stock holds cards (PySolFC's timing, just
        # after a redeal) is filled first at the next card move, which may empty another:
        # then the stock's next card goes to the emptied one's lower-index rival, and with a
        # single card left the emptied one stays empty. The current pass's forcing assumes
        # neither, so it is left out there.
        forced_now = all(reserves) or now >= n
        occupants = [(self.leave[("r", r, 0)], r, None) for r, pile in enumerate(reserves) if pile]
        occupants += [(self.free_leave[x], self.reserve_of[x], x) for x in self.free_leave]
        leaves = [[] for _ in reserves]
        escapes = [[] for _ in range(self.passes)]
        free_escapes = [[] for _ in range(self.passes)]
        matched: dict = {}
        free_takes: dict = {}                          # (free card, pass) -> its escape literals
        answers = [[] for _ in range(self.passes)]     # (escape, y) of each move in pass k
        for k in range(self.passes):
            if k == 0 and now >= n:
                continue
            nxt = self._next_in_stock(k)
            taken = [self.rf[(("s", q), k)] for q in range(n)] + [1]
            taken = [0 if t is False else t for t in taken]
            into = [self.reserve_of.get(("s", q), 0) for q in range(n)]
            for gone, res, x in occupants:
                c = self.leave_pass[(("r", res, 0), k)] if x is None else self.gone_pass[x][k]
                if x is not None:
                    c = _both(m, c, self.fb[(x, last)])
                if k == 0:
                    early = m.NewBoolVar("")        # left while the stock held cards
                    m.Add(gone < self.at(n)).OnlyEnforceIf(early)
                    m.Add(gone >= self.at(n)).OnlyEnforceIf([c, early.Not()])
                    m.AddImplication(early, c)
                    if x is None:
                        leaves[res].append(early)
                    else:
                        for r, w in enumerate(self.where[x]):
                            leaves[r].append(_both(m, early, w))
                slot = m.NewIntVar(0, self.end // SLOT, "")
                m.AddDivisionEquality(slot, gone, SLOT)
                j = m.NewIntVar(0, n, "")
                m.Add(j == slot - k * self.N).OnlyEnforceIf(c)
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
                    for b in self.leave:
                        if self.rf[(b, k)] is False:
                            continue
                        mb = m.NewBoolVar("")
                        m.AddImplication(mb, self.rf[(b, k)])
                        m.AddImplication(mb, c)
                        m.Add(self.arr[(b, k)] > gone).OnlyEnforceIf(mb)
                        m.Add(self.arr[(b, k)] < SLOT * slot + SLOT).OnlyEnforceIf(mb)
                        matched.setdefault((b, k), []).append(mb)
                        took.append((b, mb))
                    m.AddBoolOr([mb for _, mb in took] + [ef]).OnlyEnforceIf(esc)
                    lasts = self._free_escape(k, gone, c, ef, y, free_takes)
                    self._nothing_dealt_between(k, gone, c, esc, y, took, lasts)
                    answers[k].append((esc, y))
        for lits in list(matched.values()) + list(free_takes.values()):
            m.AddAtMostOne(lits)              # each take follows one move at most
        for pairs in answers:
            self._one_take_a_move(pairs)
        for k in range(1, self.passes):
            # built cards in pass k's stock that a reserve may take: modelled takes, and
            # cards taken before and built (free in the model, so possibly taken again)
            budget = [self.rf[(x, k)] for x in self.leave if self.rf[(x, k)] is not False]
            free = [_both(m, self.fb[(x, k - 1)], self.free_built[x])
                    for x in self.free_leave if self.fb[(x, k - 1)] is not False]
            m.Add(sum(escapes[k]) <= sum(budget) + sum(free))
            m.Add(sum(free_escapes[k]) <= sum(free))
        if now < n:
            for r, pile in enumerate(reserves):
                takes = [_both(m, self.rf[(("s", q), 0)], self.where[("s", q)][r]) for q in range(now, n)]
                if forced_now:
                    m.Add(sum(takes) >= sum(leaves[r]))
                m.Add(sum(takes) <= sum(leaves[r]) + (0 if pile else 1))

    def _free_escape(self, k, gone, c, ef, y, free_takes):
        """The escape ``ef`` of the move at ``gone`` (in pass k where ``c`` holds): the stock's
        next card is a free card x, taken at once. x was built onto the waste in an earlier
        pass and is not home at the move; built in pass k-1 it is taken at its turn
        (``_free_turns``): every card ahead of it left the stock before the move, its
        departure is that take, and the sequence card y, still in the stock, lies behind it
        (it landed in pass k-1 after x's build). A card leaves a pass's stock once, so it
        answers one move of the pass at most (``free_takes``). Returns the pairs (x, "x
        built in pass k-1 answers the move"), for ``_nothing_dealt_between``."""
        m = self.m
        if not self.follow_free:          # only counted (``_forced_refills``)
            return []
        options, lasts = [], []
        for x, gks in self.gone_pass.items():
            mf = m.NewBoolVar("")                      # built in pass k-1
            m.AddBoolAnd([c, self.free_built[x], gks[k - 1], self.retaken[(x, k)]]).OnlyEnforceIf(mf)
            m.Add(self.t[x] > gone).OnlyEnforceIf(mf)
            m.Add(self.turn[(x, k)] <= gone).OnlyEnforceIf(mf)
            m.Add(self.departs[(x, k)] > gone).OnlyEnforceIf(mf)
            m.Add(self.at((k - 1) * self.N + 1) + SLOT * y > self.free_leave[x]).OnlyEnforceIf(mf)
            lasts.append((x, mf))
            mine = [mf]
            if k > 1:                                  # built in an earlier pass
                me = m.NewBoolVar("")
                m.AddBoolAnd([c, self.free_built[x]]).OnlyEnforceIf(me)
                m.AddBoolOr(gks[:k - 1]).OnlyEnforceIf(me)
                m.Add(self.t[x] > gone).OnlyEnforceIf(me)
                mine.append(me)
            free_takes.setdefault((x, k), []).extend(mine)
            options += mine
        m.AddBoolOr(options).OnlyEnforceIf(ef)
        return lasts

    def _one_take_a_move(self, pairs):
        """Each take follows its move at once, so two moves of a pass are not answered by the
        same sequence card: where a move has no escape and a sequence card y < n is left
        (``pairs``: each move's escape literal and its y), the y's differ."""
        m, n = self.m, self.n
        ys = []
        for idx, (esc, y) in enumerate(pairs):
            left = self.flag(y <= n - 1, y >= n)
            act = m.NewBoolVar("")
            m.AddBoolAnd([esc.Not(), left]).OnlyEnforceIf(act)
            m.AddBoolOr([esc, left.Not(), act])
            yy = m.NewIntVar(0, n + 1 + len(pairs), "")
            m.Add(yy == y).OnlyEnforceIf(act)
            m.Add(yy == n + 1 + idx).OnlyEnforceIf(act.Not())
            ys.append(yy)
        if len(ys) > 1:
            m.AddAllDifferent(ys)

    def _nothing_dealt_between(self, k, gone, c, esc, y, took, lasts):
        """The refill after the move at ``gone`` (in pass k where ``c`` holds) takes the
        stock's next card, so no card leaves the stock between the move and that take: the
        sequence card y at its landing (no escape ``esc``), a reserve card taken at its turn
        (``took``: pairs of such a card and the literal "this take answers the move"), or a
        free card built in pass k-1 taken at its departure (``lasts``, pairs as ``took``).
        (y = n: no sequence card is left, and a take at the pass's end says no card is
        dealt after the move.) Sequence cards land at a slot's start, after the move's slot
        or before it, so only reserve cards dealt again can lie between; the take of a free
        card built earlier is not modelled, so it constrains nothing."""
        m = self.m
        self.refill_moves.append((k, gone, c, esc, took, lasts))
        em = m.NewBoolVar("")                                 # a take whose time is modelled
        m.AddBoolOr([mb for _, mb in took + lasts]).OnlyEnforceIf(em)
        tt = m.NewIntVar(self.start, self.at(self.passes * self.N), "")     # the take's time
        m.Add(tt == self.at(k * self.N + 1) + SLOT * y).OnlyEnforceIf(esc.Not())
        for b, mb in took:
            m.AddImplication(mb, em)
            m.Add(tt == self.arr[(b, k)]).OnlyEnforceIf(mb)
        for x, mf in lasts:
            m.AddImplication(mf, em)
            m.Add(tt == self.departs[(x, k)]).OnlyEnforceIf(mf)
        for b in self.leave:
            early = m.NewBoolVar("")                          # dealt before the move
            m.Add(self.arr[(b, k)] < gone).OnlyEnforceIf(early)
            conds = [c, early.Not(), self.present[(b, k)], self.nb[(b, k)].Not()]
            m.Add(self.arr[(b, k)] >= tt).OnlyEnforceIf(conds + [esc.Not()])
            if took or lasts:
                m.Add(self.arr[(b, k)] >= tt).OnlyEnforceIf(conds + [em])

    def _free_base(self, j, k, at):
        """A literal for "card j, taken by a reserve in pass k or before (free in the
        model), is the base of a build at time ``at``": it left that reserve onto the waste
        before, and is not home yet (necessary whatever it did since)."""
        m = self.m
        e = m.NewBoolVar("")
        m.AddImplication(e, self.fb[(j, k)])
        m.AddImplication(e, self.free_built[j])
        m.Add(self.free_leave[j] < at).OnlyEnforceIf(e)
        m.Add(self.t[j] > at).OnlyEnforceIf(e)
        if (j, k) in self.lands:          # built in the pass before: after its landing
            m.Add(at > self.lands[(j, k)]).OnlyEnforceIf([e, self.gone_pass[j][k - 1]])
        return e

    def _free_turns(self):
        """A free card built onto the waste in pass k-1 and not home lies in pass k's stock,
        which keeps the waste's order: every card that arrived before it in pass k-1 and left
        pass k's stock (dealt or taken) left it first (``turn``, at least that departure),
        every card that arrived after it leaves after it (``departs``, its departure). Dealt,
        it lands on the waste then; taken by a reserve, it stays there (one stay, added to
        the reserve's) until it goes home or is built onto the waste (``lands``). From its
        landing on, it lies on the waste as any card: it goes home after every card arrived
        since (and is a base only after its landing, ``_free_base``)."""
        m = self.m
        for x, gks in self.gone_pass.items():
            for k in range(1, self.passes):
                turn = m.NewIntVar(self.start, self.end, "")
                dep = m.NewIntVar(self.start, self.end, "")
                lo = self.pass_times(k)[0]
                built = [self.free_built[x], gks[k - 1], self.flag(self.t[x] >= lo, self.t[x] < lo)]
                for b in self.card:
                    inside = self._in_stock(b, k) if b != x else False
                    if inside is False:
                        continue
                    out = self.landing(b[1], k) if b[0] == "s" else self.arr[(b, k)]
                    ahead = self._since(x, b, k - 1).Not()
                    m.Add(turn >= out).OnlyEnforceIf(built + [inside, ahead])
                    m.Add(dep > out).OnlyEnforceIf(built + [inside, ahead])
                    m.Add(dep < out).OnlyEnforceIf(built + [inside, ahead.Not()])
                lands = m.NewIntVar(self.start, self.end, "")
                taken = m.NewBoolVar("")
                m.Add(lands == dep).OnlyEnforceIf(taken.Not())
                m.Add(lands > dep).OnlyEnforceIf(taken)
                m.Add(self.t[x] >= lands).OnlyEnforceIf(built)
                m.Add(self.t[x] > dep).OnlyEnforceIf(built)
                stay = [m.NewBoolVar("") for _ in self.stays]
                m.Add(sum(stay) == 1).OnlyEnforceIf(built + [taken])
                m.Add(sum(stay) == 0).OnlyEnforceIf(taken.Not())
                for r, w in enumerate(stay):
                    m.AddImplication(w, taken)
                    size = m.NewIntVar(1, self.end - self.start + 2, "")
                    self.stays[r].append(m.NewOptionalIntervalVar(dep, size, lands + 1, w, ""))
                self.turn[(x, k)], self.departs[(x, k)] = turn, dep
                self.lands[(x, k)], self.retaken[(x, k)], self.restay[(x, k)] = lands, taken, stay

    def _top_since_build(self, i, own, j, k, e):
        """Free card j built onto the waste in pass k is the base of ``i``'s build (literal
        ``e``) later in that pass: every card arrived on the waste between the two builds
        lay on j and went home before ``i``'s build, as with any other base (``_bases``)."""
        self._home_before_build(i, own, j, k, [e, self.gone_pass[j][k]], lambda b: self._since(j, b, k))

    def _home_before_build(self, i, own, j, k, lead, after_base):
        """Where the literals ``lead`` say that ``j`` is the base of ``i``'s build in pass k,
        every card present that arrived after j's arrival (``after_base(b)``: a literal, or
        True/False) and before i's lay on j, so it went home before i's build."""
        if not self.pairs:
            return
        for b in self.card:
            if b in (i, j, own):
                continue
            after = after_base(b)
            if after is False:
                continue
            conds = lead + [self.present[(b, k)], self.o(b, i, k)] + ([] if after is True else [after])
            self.m.AddBoolOr([self.g(b, i, k)]).OnlyEnforceIf(conds)

    def _since(self, j, b, k):
        """A literal: card b arrives in pass k after free card j's build onto the waste (a
        tie counts as before, which only drops a condition)."""
        key = (j, b, k)
        if key not in self._after:
            self._after[key] = self._arrives_after(self.free_leave[j], b, k)
        return self._after[key]

    def _arrives_after(self, start, b, k):
        """A literal: card b arrives in pass k after time ``start`` (a tie counts as before)."""
        ab = self.arr[(b, k)]
        return self.flag(ab > start, ab <= start)

    def _covers(self, i, own, j, k, e):
        """Built onto ``j`` in pass k (literal ``e``), card ``own`` lies on it until it goes
        home: if j goes home in pass k, ``own`` goes first. Stated where one of them may be
        free in the model (taken by a reserve); ``_cover`` states it for the others. The
        build is noted for ``_one_at_a_time``."""
        self.m.Add(self.t[own] < self.t[j]).OnlyEnforceIf([e, self.home_in[(j, k)]])
        self._note_build(i, j, k, e)

    def _note_build(self, i, j, k, e):
        """``i`` built onto ``j`` in pass k where literal ``e`` holds, for ``_one_at_a_time``."""
        self.built_on.setdefault((j, k), []).append((i, e))

    def _free_cover(self):
        """A card taken by a reserve and built onto the waste in pass k (free in the model
        after its take) lies there from its build until it goes home (``_lies_until_home``)."""
        for x, gks in self.gone_pass.items():
            for k in range(self.passes):
                first = [self.free_built[x], gks[k], self.home_in[(x, k)]]
                self._lies_until_home(x, k, first, lambda b, x=x, k=k: self._since(x, b, k))

    def _landed_cover(self):
        """A free card built onto the waste in pass k-1 lands on it again in pass k
        (``_free_turns``) and lies there from its landing until it goes home."""
        for (x, k), lands in self.lands.items():
            first = [self.free_built[x], self.gone_pass[x][k - 1], self.home_in[(x, k)]]
            self._lies_until_home(x, k, first, lambda b, lands=lands, k=k: self._arrives_after(lands, b, k))

    def _lies_until_home(self, x, k, first, since):
        """Free card x lies on the waste in pass k until it goes home: if that is in pass k
        (where the literals ``first`` hold), every card arrived since it lies there
        (``since(b)``), while it lay there, goes home first (as ``_cover`` states for the
        cards not free)."""
        if not self.pairs:
            return
        for b in self.card:
            if b == x:
                continue
            conds = first + [self.present[(b, k)], since(b), self.g(x, b, k).Not()]
            self.m.Add(self.t[b] < self.t[x]).OnlyEnforceIf(conds)

    def _one_at_a_time(self):
        """Two cards built onto the same base in one pass: the base is the top for each, so
        the first built is home before the second's build. Stated where the first is free in
        the model (built from a reserve that took it); ``_bases`` states it for the others."""
        m = self.m
        for (j, k), builds in self.built_on.items():
            for a, ea in builds:
                if a[0] != "f":
                    continue
                for b, eb in builds:
                    if b != a:
                        m.Add(self.t[a[1]] < self.arr[(b, k)]).OnlyEnforceIf([ea, eb, self.o(a, b, k)])

    def _foundations(self, foundations):
        """Each rank a suit's up and down foundations both still need has one copy going
        each way (``up``); along a foundation the home times rise."""
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
        self.up = up
        for s in tops:
            for r in range(1, self.ranks):
                for a in self.copies.get(cards.make(r, s), []):
                    for b in self.copies.get(cards.make(r + 1, s), []):
                        self._ordered_if(up[a], up[b], a, b)
                        self._ordered_if(_negate(up[a]), _negate(up[b]), b, a)

    def _ordered_if(self, la, lb, first, then):
        if la is False or lb is False:
            return
        conds = [x for x in (la, lb) if x is not True]
        self.m.Add(self.t[first] < self.t[then]).OnlyEnforceIf(conds)

    # --- pair literals ------------------------------------------------------------------
    def o(self, a, b, k):
        """``a`` arrives before ``b`` in pass k (True/False for two sequence cards)."""
        key = (a, b, k)
        if key in self._o:
            return self._o[key]
        if a[0] == "s" and b[0] == "s":
            lit = a[1] < b[1]
        elif a[0] == "s":
            lit = self.flag(self.arr[(b, k)] >= self.arr[(a, k)], self.arr[(b, k)] < self.arr[(a, k)])
        elif b[0] == "s":
            lit = _negate(self.o(b, a, k))
        else:
            lit = self.flag(self.arr[(a, k)] < self.arr[(b, k)], self.arr[(a, k)] > self.arr[(b, k)])
            self._o[(b, a, k)] = lit.Not()
        self._o[key] = lit
        return lit

    def g(self, a, b, k):
        """``a`` is home before ``b`` arrives in pass k."""
        key = (a, b, k)
        if key not in self._g:
            ab = self.arr[(b, k)]
            if b[0] == "s":
                self._g[key] = self.flag(self.t[a] < ab, self.t[a] >= ab)
            else:
                self._g[key] = self.flag(self.t[a] < ab, self.t[a] > ab)
        return self._g[key]

    # --- constraints --------------------------------------------------------------------
    def _cover(self):
        """If a is in the waste when b arrives on it in pass k, and a goes home in pass k,
        b goes home first."""
        m = self.m
        ids = list(self.card)
        for k in range(self.passes):
            for a in ids:
                ha = self.home_in[(a, k)]
                for b in ids:
                    if a == b:
                        continue
                    o = self.o(a, b, k)
                    if o is False:
                        continue
                    conds = [ha, self.present[(a, k)], self.present[(b, k)], self.g(a, b, k).Not()]
                    if o is not True:
                        conds.append(o)
                    m.Add(self.t[b] < self.t[a]).OnlyEnforceIf(conds)

    def _order_kept(self):
        """Cards in play at a redeal leave the next pass's stock in the waste's order: each
        is dealt, or taken by a reserve at its turn (its arrival's place in the order)."""
        m = self.m
        ids = list(self.card)
        for k in range(1, self.passes):
            for x, a in enumerate(ids):
                for b in ids[x + 1:]:
                    if a[0] == "s" and b[0] == "s":
                        continue
                    if self.reinforce:
                        conds = [self._in_stock(a, k), self._in_stock(b, k)]
                    else:                # the same condition, as Alhambra's model states it
                        conds = [self.present[(a, k)], self.present[(b, k)]]
                        conds += [_negate(self.nb[(c, k)]) for c in (a, b) if self.nb[(c, k)] is not False]
                    m.Add(self.o(a, b, k) == self.o(a, b, k - 1)).OnlyEnforceIf(conds)

    def _in_stock(self, x, k):
        """A literal: card x lay in pass k's stock (k > 0) and left it there, dealt (present,
        not built in pass k) or taken by a reserve."""
        key = (x, k)
        if key not in self._stock:
            lit = self.present[(x, k)]
            if self.nb[(x, k)] is not False or self.rf[(x, k)] is not False:
                lit = self.m.NewBoolVar("")
                nb, rf = self.nb[(x, k)], self.rf[(x, k)]
                self.m.Add(lit == self.present[(x, k)] - (0 if nb is False else nb) + (0 if rf is False else rf))
            self._stock[key] = lit
        return self._stock[key]

    def _redeal_deals(self):
        """With redeal_includes_first_deal, a pass's first move is the redeal that deals
        its first card: every other move of the pass comes after that arrival."""
        m = self.m
        for k in range(1, self.passes):
            lo, hi = self.pass_times(k)
            fa = m.NewIntVar(lo, hi, "")
            some = []
            happens = m.NewBoolVar("")        # the pass happens only if some card is redealt
            for b in self.card:
                a = self.arr[(b, k)]
                m.AddImplication(self.present[(b, k)], happens)
                m.Add(fa <= a).OnlyEnforceIf(self.present[(b, k)])
                w = m.NewBoolVar("")
                m.AddImplication(w, self.present[(b, k)])
                m.Add(fa == a).OnlyEnforceIf(w)
                some.append(w)
            m.AddBoolOr(some).OnlyEnforceIf(happens)
            for x in self.card:
                m.Add(self.t[x] >= fa).OnlyEnforceIf(self.home_in[(x, k)])
            for i in self.leave:
                m.Add(self.leave[i] >= fa).OnlyEnforceIf(self.leave_pass[(i, k)])

    def _redeal_deals_refills(self):
        """``_redeal_deals`` with refills: the redeal deals pass k's first card, and every
        move of the pass comes after it (reserves are refilled only after a card move, or
        with ``immediate`` after that deal). That card is a modelled card dealt (not taken)
        at the earliest of the pass's departures from the stock, unless it is a free card:
        one built in pass k-1 before the first arrival, there, of every modelled card of
        pass k's stock, or one built in an earlier pass; either still in play."""
        m = self.m
        for k in range(1, self.passes):
            lo, hi = self.pass_times(k)
            fa = m.NewIntVar(lo, hi, "")                     # the redeal's deal
            fp = m.NewIntVar(0, self.end, "")                # the stock's first arrival in k-1
            firsts, stocked = [], []
            for b in self.card:
                inside = self._in_stock(b, k)
                if inside is False:
                    continue
                stocked.append(inside)
                out = self.arr[(b, k)]
                if b[0] == "s":
                    out = self.landing(b[1], k)
                m.Add(fa <= out).OnlyEnforceIf(inside)
                if self.rf[(b, k)] is not False:         # a take comes after that deal
                    m.Add(fa < out).OnlyEnforceIf(self.rf[(b, k)])
                m.Add(fp <= self.arr[(b, k - 1)]).OnlyEnforceIf(inside)
                w = m.NewBoolVar("")                         # b is that card
                m.AddImplication(w, self.present[(b, k)])
                if self.nb[(b, k)] is not False:
                    m.AddImplication(w, self.nb[(b, k)].Not())
                m.Add(fa == out).OnlyEnforceIf(w)
                firsts.append(w)
            for x, gks in self.gone_pass.items():
                still = self.flag(self.t[x] >= lo, self.t[x] < lo)
                early = m.NewBoolVar("")                     # built in pass k-1 first there
                m.AddBoolAnd([self.free_built[x], gks[k - 1], still]).OnlyEnforceIf(early)
                m.Add(self.free_leave[x] < fp).OnlyEnforceIf(early)
                firsts.append(early)
                for j in range(k - 1):
                    before = m.NewBoolVar("")                # built in an earlier pass
                    m.AddBoolAnd([self.free_built[x], gks[j], still]).OnlyEnforceIf(before)
                    firsts.append(before)
            happens = m.NewBoolVar("")                       # some modelled card redealt
            for inside in stocked:
                m.AddImplication(inside, happens)
            m.AddBoolOr(firsts).OnlyEnforceIf(happens)
            for x in self.card:
                m.Add(self.t[x] >= fa).OnlyEnforceIf(self.home_in[(x, k)])
            for i in self.leave:
                m.Add(self.leave[i] >= fa).OnlyEnforceIf(self.leave_pass[(i, k)])
            for x, gks in self.gone_pass.items():
                m.Add(self.free_leave[x] >= fa).OnlyEnforceIf(gks[k])

    def _bases(self, i):
        """A card built in pass k goes onto the waste top: a same-suit neighbour that arrived
        before and is not home, with every card arrived on it since home; or, where an empty
        waste takes any card, onto an empty waste (every card arrived in the pass home, and
        with redeal_includes_first_deal some card arrived: the redeal dealt one). ``i`` is a
        reserve card, or ``("f", x)``: card x built from the reserve that took it."""
        m = self.m
        own = i[1] if i[0] == "f" else i
        for k in range(self.passes):
            es = []
            ai = self.arr[(i, k)]
            for nbr in _neighbours(self.card[own], self.ranks):
                for j in self.copies.get(nbr, []):
                    if j == own:
                        continue
                    if self.fb[(j, k)] is not False:
                        es.append(self._free_base(j, k, ai))
                        self._covers(i, own, j, k, es[-1])
                        self._top_since_build(i, own, j, k, es[-1])
                    e = m.NewBoolVar("")
                    m.AddImplication(e, self.nb[(i, k)])
                    m.AddImplication(e, self.present[(j, k)])
                    oj = self.o(j, i, k)
                    if oj is False:
                        m.Add(e == 0)
                        continue
                    if oj is not True:
                        m.AddImplication(e, oj)
                    m.AddImplication(e, self.g(j, i, k).Not())
                    self._home_before_build(i, own, j, k, [e], lambda b: self.o(j, b, k))
                    es.append(e)
                    if i[0] == "f":
                        self._covers(i, own, j, k, e)
                    elif self.reinforce:
                        self._note_build(i, j, k, e)
            if self.any_base:                  # onto an empty waste: all arrived are home
                if k > 0 and self.first_deal:  # the redeal dealt a card first
                    some = []
                    for b in self.card:
                        ob = self.o(b, i, k) if b not in (i, own) else False
                        if ob is False:
                            continue
                        a = m.NewBoolVar("")
                        m.AddImplication(a, self.present[(b, k)])
                        if ob is not True:
                            m.AddImplication(a, ob)
                        some.append(a)
                    m.AddBoolOr(some).OnlyEnforceIf(self.nb[(i, k)])
                e = m.NewBoolVar("")
                m.AddImplication(e, self.nb[(i, k)])
                for b in self.card:
                    if b not in (i, own):
                        m.AddBoolOr([self.g(b, i, k)]).OnlyEnforceIf([e, self.present[(b, k)], self.o(b, i, k)])
                es.append(e)
            m.AddBoolOr(es + [self.nb[(i, k)].Not()])


def _both(m, a, b):
    """A literal equal to ``a and b``."""
    ab = m.NewBoolVar("")
    m.AddBoolAnd([a, b]).OnlyEnforceIf(ab)
    m.AddBoolOr([a.Not(), b.Not(), ab])
    return ab


def _unless(lit) -> list:
    """Enforcement literals for "unless ``lit``" (``lit`` a literal or False)."""
    return [] if lit is False else [lit.Not()]


def _if(lit) -> list:
    return [] if lit is False else [lit]


def _negate(lit):
    return (not lit) if isinstance(lit, bool) else lit.Not()


def _neighbours(c: int, ranks: int) -> list[int]:
    """The cards a card can be built on: same suit, rank one apart with K-A wrap."""
    r, s = cards.rank(c), cards.suit(c)
    out = {cards.make(cards.pred(r, ranks), s), cards.make(cards.succ(r, ranks), s)}
    out.discard(c)
    return sorted(out)


def _events(sc: _Schedule, value) -> list[tuple[int, str, tuple]]:
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


def _taken_source(sc: _Schedule, x, tm: int, value):
    """Where taken card ``x`` is expected at event time ``tm``: on the waste after its build
    (``free_leave``), else in the reserve that took it."""
    if value(sc.free_built[x]) and tm > 2 * value(sc.free_leave[x]):
        return ("w", 0)
    return ("r", int(value(sc.reserve_of[x])))


def replay_schedule(engine, pos, sc: _Schedule, value) -> tuple[Optional[list[Move]], str]:
    """The line of play a solution describes, from ``pos``, each move checked and played on
    the reference ``engine``: the moves if they are legal and end in a won position, else
    None (the model admits some schedules no line follows), with the reason: the first
    event the engine refuses and where play stood."""
    moves, why = schedule_lead(engine, pos, sc, value)
    return (None if why else moves), why


def schedule_lead(engine, pos, sc: _Schedule, value) -> tuple[list[Move], str]:
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


def _solver(det_time: float, seconds: float = float("inf")) -> cp_model.CpSolver:
    """CP-SAT with one worker, no probing and a deterministic time limit (the same answer on every run;
    a finite ``seconds`` adds a wall-clock limit, the caller's deadline). CP-SAT's own
    Ctrl-C handler is off: it would end the solve as if it gave up, so an interrupted batch
    would store an unknown verdict; Python's then raises KeyboardInterrupt once the solve
    returns (within its time limit)."""
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.max_deterministic_time = det_time
    solver.parameters.catch_sigint_signal = False
    # probing in presolve costs more than it saves here: 2-3 times faster without
    # (benchmarks/notes/alhambra-proofs-of-loss.md), the verdicts unchanged
    solver.parameters.cp_model_probing_level = 0
    if seconds != float("inf"):
        solver.parameters.max_time_in_seconds = max(seconds, 0.0)
    return solver


def det_time_for(rules, pos) -> float:
    """CP-SAT's deterministic time limit for position ``pos`` under ``rules``."""
    if not rules["reinforce"]:
        return DET_TIME
    return DET_TIME_REFILLS if rules["redeals"] - pos.redeals_used <= 1 else DET_TIME_REFILLS_TWO


def _limit(rules, pos, det_time: Optional[float], model: str) -> float:
    limit = det_time_for(rules, pos) if det_time is None else det_time
    return min(limit, MODEL_CAPS.get(model, limit))


# The models ``stages_for`` names, by their ``_Schedule`` options. Each leaves out some
# constraints of the next, so it keeps every schedule of the next: no schedule in any of
# them means none in the full model (``SAFE_SCHEDULE_REFILLS``, *Stages*).
MODELS = {
    "skeleton": dict(follow_free=False, force_refills=False, pairs=False),   # bare, no pairs of cards
    "bare": dict(follow_free=False, force_refills=False),   # neither a free card's life nor forced refills
    "loose": dict(follow_free=False),                       # no free card's life in a redealt stock
    "full": dict(),
    # the bare one with no take in the current pass (``SAFE_SCHEDULE_LATE_REFILLS``: only
    # where no line refills in it); not a stage of ``stages_for``
    "late": dict(follow_free=False, force_refills=False, first_take=1),
}
MODEL_CAPS = {"skeleton": DET_TIME_SKELETON}   # a model's own limit, where lower than the position's


def stages_for(rules, pos) -> tuple[str, ...]:
    """The models (``MODELS``) tried in turn on ``pos``. With refills and a redeal left (a
    pass after it), the looser ones first: they keep every schedule of the full model, so
    where one has none the full model has none, and they are often refuted sooner: the
    skeleton (within ``DET_TIME_SKELETON``) refutes some deals in seconds (The
    Reinforcements 8 and 74 under the standard rules), the bare one others soonest (The
    Reinforcements 13 under the standard rules: bare 156 units, the loose one undecided
    at 400; 15: 120, 207 and 343 units; benchmarks/notes/reinforcements-proofs-of-loss.md). A
    tighter one is solved only where a looser one keeps a schedule that does not play or
    gives up. Else the full model alone (without a redeal left the free card's life is
    not modelled anyway)."""
    passes = rules["redeals"] - pos.redeals_used + (0 if rules["stop_at_third_exhaustion"] else 1)
    if rules["reinforce"] and passes > 1:
        return ("skeleton", "bare", "loose", "full")
    return ("full",)


def solve_schedule(engine, pos, rules, det_time: Optional[float] = None,
                   seconds: float = float("inf"),
                   stages: Optional[tuple[str, ...]] = None) -> tuple[str, Optional[list[Move]], list[Move]]:
    """CP-SAT's status for ``pos`` (``INFEASIBLE``: lost; ``OPTIMAL`` or ``FEASIBLE``: a
    schedule; ``UNKNOWN``: gave up at ``det_time`` or ``seconds``), for a schedule that
    plays to a win on the reference engine its moves, and the longest lead (``schedule_lead``)
    of the schedules that do not play ([] if none). The models ``stages`` (by default
    ``stages_for``'s) are solved in turn, each within ``det_time``, all within ``seconds``,
    until one is refuted or gives a schedule that plays; the status is the last one's."""
    deadline = time.monotonic() + seconds
    lead: list[Move] = []
    for model in stages or stages_for(rules, pos):
        sc = _Schedule(pos, rules, **MODELS[model])
        solver = _solver(_limit(rules, pos, det_time, model), deadline - time.monotonic())
        status = solver.Solve(sc.m)
        if status == cp_model.INFEASIBLE:
            break
        if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            moves, why = schedule_lead(engine, pos, sc, solver.Value)
            if not why:
                return solver.StatusName(status), moves, []
            lead = max(lead, moves, key=len)
    return solver.StatusName(status), None, lead


def schedule_lost(pos, rules, det_time: Optional[float] = None) -> tuple[bool, str]:
    """Whether ``pos`` has no schedule (so it is lost), and CP-SAT's status name (the models
    of ``stages_for`` in turn, until one is refuted)."""
    for model in stages_for(rules, pos):
        solver = _solver(_limit(rules, pos, det_time, model))
        status = solver.Solve(_Schedule(pos, rules, **MODELS[model]).m)
        if status == cp_model.INFEASIBLE:
            break
    return status == cp_model.INFEASIBLE, solver.StatusName(status)
