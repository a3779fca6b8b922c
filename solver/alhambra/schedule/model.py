"""The schedule model's object: the CP-SAT model of one position, the data it is built on
(the sequence, the passes, the clock), the variables the constraint groups create and the
literals they share (cached, so each is made once).

The clock counts *slots*. Pass k has N = n + 1 of them (``n`` sequence cards: the waste
bottom to top, then the stock in dealing order): slot ``k N`` from the pass's redeal to its
first landing, and slot ``k N + q + 1`` from the landing of the card at sequence position
``q`` to the next landing. Within a slot moves happen one after another, so a move's time
is ``slot * SLOT + step``; a landing comes before step 0 of its slot. Every card in the
waste during a pass has an *arrival* there: its landing (sequence cards), its build, or its
deal again in a later pass (built cards, which the redeal keeps in the waste's order).

A card is named by a tuple: ``("s", q)`` the sequence card at position q, ``("r", pile,
depth)`` a reserve card, and ``("f", x)`` card x as built from the reserve that took it.
"""

from __future__ import annotations

from typing import Union

from ortools.sat.python import cp_model

SLOT = 256                       # steps within a slot: more than the moves one slot can hold

CardId = tuple                   # ("s", q), ("r", pile, depth) or ("f", x)
Literal = Union[cp_model.IntVar, bool]   # a Boolean variable (or its negation), or a constant


class ScheduleModel:
    """The model of one position: ``t[c]`` the home time of card ``c`` (a sequence card
    ``("s", q)`` or a reserve card ``("r", pile, depth)``); for a reserve card ``leave``,
    ``built`` and, per pass, ``present`` (in the waste at some time of the pass), ``nb``
    (built in that pass) and ``arr`` (its arrival: the build, or its deal again).
    ``follow_free=False`` leaves out a free card's life in a redealt stock (point 6 of
    ``SAFE_SCHEDULE_REFILLS`` and the free takes of point 4), ``force_refills=False`` the
    refills a move emptying a reserve forces (point 4): looser models, often refuted sooner
    (``MODELS``, ``stages_for``). ``pairs=False`` leaves out the conditions over pairs of
    cards (``add_cover``, ``add_stock_order_kept``, ``_home_before_build``,
    ``_lies_until_home``): a skeleton about a tenth of the size.

    This object holds the data and the variables; ``build_schedule`` (``build.py``) makes
    one and adds the constraint groups, each a function of it in its own module. ``m`` is
    the CP-SAT model itself."""

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
        self.force_refills = force_refills
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
        self.start = self.slot_time(self.now)
        self.end = self.slot_time(self.passes * self.N) - 1
        # the cards (``windows.py``)
        self.t, self.card, self.home_in = {}, {}, {}
        self.leave, self.built, self.leave_pass = {}, {}, {}
        self.present, self.nb, self.arr = {}, {}, {}
        self.copies: dict[int, list] = {}   # card -> its ids (``index_copies``)
        self.up: dict = {}                  # card id -> goes to the up foundation (``foundations.py``)
        # the pair literals' caches (``arrives_before``, ``home_before_arrival``, ``in_stock``,
        # ``arrives_since_build``)
        self._arrives_before, self._home_before = {}, {}
        self._in_stock, self._since_build = {}, {}
        # refills (``windows.py``, ``stays.py``, ``free_cards.py``, ``forced_refills.py``)
        self.rf, self.fb = {}, {}        # refilled into a reserve in pass k / in pass k or before
        self.refill_at, self.free_leave, self.free_built = {}, {}, {}
        self.gone_pass = {}
        self.stays: list = []             # per reserve, the interval of each stay in it
        self.turn: dict = {}              # (free card, pass k) -> its turn in pass k's stock, at least
        self.departs, self.lands = {}, {}   # (free card, pass k) -> its departure from that stock,
        self.retaken, self.restay = {}, {}  # its landing on the waste, whether a reserve takes it
                                            # (and which: one literal per reserve)
        self.built_on: dict = {}          # (base, pass) -> [(card built, its base literal)]
        self.refill_moves: list = []      # moves emptying a reserve, with their refills' literals
        self.where, self.reserve_of = {}, {}

    def index_copies(self) -> None:
        """``copies``: each card's ids (two decks: one or two copies in play)."""
        for i, c in self.card.items():
            self.copies.setdefault(c, []).append(i)

    # --- clock ------------------------------------------------------------------------
    def slot_time(self, slot: int) -> int:
        """The time of step 0 of ``slot``."""
        return slot * SLOT

    def pass_times(self, k: int) -> tuple[int, int]:
        """The first and last time of pass ``k``."""
        return (self.start if k == 0 else self.slot_time(k * self.N)), self.slot_time((k + 1) * self.N) - 1

    def landing(self, q: int, k: int) -> int:
        """The time the sequence card at position ``q`` lands on the waste in pass ``k``."""
        return self.slot_time(k * self.N + q + 1)

    # --- literals ---------------------------------------------------------------------
    def literal_for(self, expr_true, expr_false):
        """A literal equal to a linear condition (given as the condition and its negation)."""
        b = self.m.NewBoolVar("")
        self.m.Add(expr_true).OnlyEnforceIf(b)
        self.m.Add(expr_false).OnlyEnforceIf(b.Not())
        return b

    def lies_in_pass(self, var, k):
        """A literal: time ``var`` lies in pass ``k``."""
        lo, hi = self.pass_times(k)
        b = self.m.NewBoolVar("")
        if lo > hi:
            self.m.Add(b == 0)
        else:
            self.m.Add(var >= lo).OnlyEnforceIf(b)
            self.m.Add(var <= hi).OnlyEnforceIf(b)
        return b

    # --- pair literals (cached) -------------------------------------------------------
    def arrives_before(self, a, b, k) -> Literal:
        """``a`` arrives before ``b`` in pass k (True/False for two sequence cards)."""
        key = (a, b, k)
        if key in self._arrives_before:
            return self._arrives_before[key]
        if a[0] == "s" and b[0] == "s":
            lit = a[1] < b[1]
        elif a[0] == "s":
            lit = self.literal_for(self.arr[(b, k)] >= self.arr[(a, k)], self.arr[(b, k)] < self.arr[(a, k)])
        elif b[0] == "s":
            lit = negate(self.arrives_before(b, a, k))
        else:
            lit = self.literal_for(self.arr[(a, k)] < self.arr[(b, k)], self.arr[(a, k)] > self.arr[(b, k)])
            self._arrives_before[(b, a, k)] = lit.Not()
        self._arrives_before[key] = lit
        return lit

    def home_before_arrival(self, a, b, k):
        """``a`` is home before ``b`` arrives in pass k."""
        key = (a, b, k)
        if key not in self._home_before:
            ab = self.arr[(b, k)]
            if b[0] == "s":
                self._home_before[key] = self.literal_for(self.t[a] < ab, self.t[a] >= ab)
            else:
                self._home_before[key] = self.literal_for(self.t[a] < ab, self.t[a] > ab)
        return self._home_before[key]

    def in_stock(self, x, k):
        """A literal: card x lay in pass k's stock (k > 0) and left it there, dealt (present,
        not built in pass k) or taken by a reserve."""
        key = (x, k)
        if key not in self._in_stock:
            lit = self.present[(x, k)]
            if self.nb[(x, k)] is not False or self.rf[(x, k)] is not False:
                lit = self.m.NewBoolVar("")
                nb, rf = self.nb[(x, k)], self.rf[(x, k)]
                self.m.Add(lit == self.present[(x, k)] - (0 if nb is False else nb) + (0 if rf is False else rf))
            self._in_stock[key] = lit
        return self._in_stock[key]

    def arrives_since_build(self, j, b, k):
        """A literal: card b arrives in pass k after free card j's build onto the waste (a
        tie counts as before, which only drops a condition)."""
        key = (j, b, k)
        if key not in self._since_build:
            self._since_build[key] = self.arrives_after(self.free_leave[j], b, k)
        return self._since_build[key]

    def arrives_after(self, start, b, k):
        """A literal: card b arrives in pass k after time ``start`` (a tie counts as before)."""
        ab = self.arr[(b, k)]
        return self.literal_for(ab > start, ab <= start)


def negate(lit: Literal) -> Literal:
    """The negation of a literal or a constant."""
    return (not lit) if isinstance(lit, bool) else lit.Not()
