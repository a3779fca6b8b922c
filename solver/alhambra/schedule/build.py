"""Building the schedule model of a position: the model object (``model.py``) and its
constraint groups, added in a fixed order (the order of CP-SAT's variables and constraints
is part of its answer: with its fixed parameters the same model gives the same result)."""

from __future__ import annotations

from solver.alhambra.schedule.bases import add_build_bases, add_builds_on_one_base
from solver.alhambra.schedule.forced_refills import add_forced_refills
from solver.alhambra.schedule.foundations import add_distinct_home_times, add_foundation_order
from solver.alhambra.schedule.free_cards import add_free_card_cover, add_free_card_turns, add_relanded_card_cover
from solver.alhambra.schedule.model import ScheduleModel
from solver.alhambra.schedule.redeal import add_redeal_deal_first, add_redeal_deal_first_with_refills
from solver.alhambra.schedule.stays import add_stays_apart, add_takes_and_stays
from solver.alhambra.schedule.waste_order import add_cover, add_stock_order_kept
from solver.alhambra.schedule.windows import add_reserve_card_windows, add_sequence_card_windows


def build_schedule(pos, rules, follow_free: bool = True, force_refills: bool = True,
                   pairs: bool = True, first_take: int = 0) -> ScheduleModel:
    """The schedule model of position ``pos`` under ``rules``, with the options of
    ``ScheduleModel`` (``MODELS`` names the combinations solved): its CP-SAT model is
    ``.m``. Raises ValueError where the options conflict (``first_take`` with forced
    refills) or the position's foundations do not match the cards in play."""
    sc = ScheduleModel(pos, rules, follow_free, force_refills, pairs, first_take)
    add_sequence_card_windows(sc)
    add_reserve_card_windows(sc, pos.reserves)
    if sc.reinforce:
        add_takes_and_stays(sc, pos.reserves)
        if follow_free:
            add_free_card_turns(sc)
        add_stays_apart(sc)
        if force_refills:
            add_forced_refills(sc, pos.reserves)
    sc.index_copies()
    add_distinct_home_times(sc)
    add_foundation_order(sc, pos.foundations)
    if pairs:
        add_cover(sc)
        add_stock_order_kept(sc)
    if sc.first_deal and not sc.reinforce:
        add_redeal_deal_first(sc)
    add_build_bases(sc)
    add_builds_on_one_base(sc)
    if sc.reinforce:
        add_free_card_cover(sc)
        add_relanded_card_cover(sc)
        if sc.first_deal:
            add_redeal_deal_first_with_refills(sc)
    return sc
