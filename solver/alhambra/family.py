"""The Alhambra family's declaration: Alhambra, Granada and The Reinforcements (RULES.md
Part II section 1). Everything the core knows of the family comes from ``FAMILY``."""

from __future__ import annotations

from solver.alhambra import layout
from solver.contract import (PACK_OPTIONS, DominanceRule, Family, bool_option as b, int_option as i,
                             str_option as s)

OPTIONS = PACK_OPTIONS + (
    i("reserves", 1, 12, "number of reserve piles"),
    i("reserve_size", 1, 24, "cards dealt to each reserve"),
    i("waste_piles", 1, 4, "number of waste piles (Granada: 4); several allow waste-to-waste moves"),
    b("empty_waste_accepts_any", "an empty waste pile accepts any reserve (or waste) card (PySolFC)"),
    i("redeals", 0, 5, "how many times the waste may be turned over to form a new stock"),
    b("redeal_includes_first_deal", "a redeal deals the first card(s) of the new stock in the same action (PySolFC)"),
    b("stop_at_third_exhaustion", "the game ends when the stock runs out in the last pass (seed's strict reading)"),
    b("reinforce", "an empty reserve is refilled from the stock (Grant's Reinforcement)"),
    s("reinforce_timing", ("after_card_move", "immediate"),
      "when empty reserves are refilled: after each card move (PySolFC) or also right after deals/redeals"),
)

DEFAULTS = dict(ranks=13, suits=4, reserves=8, reserve_size=4, waste_piles=1,
                empty_waste_accepts_any=False, redeals=2, redeal_includes_first_deal=True,
                stop_at_third_exhaustion=False, reinforce=False, reinforce_timing="after_card_move")

_ONE_WASTE = {"waste_piles": 1}
_NO_REFILLS = {"waste_piles": 1, "reinforce": False, "stop_at_third_exhaustion": False}
_NO_REFILLS_SAYS = "one waste pile, no reinforcement and play after the last pass"
_SCHEDULE = "no timing of the moves meets the conditions every winning line meets; CP-SAT"
_SCHEDULE_FINDS = "found by the schedule model, CP-SAT, after the search ran out of nodes"

DOMINANCE = (
    DominanceRule("deal_through_inert", _ONE_WASTE, "one waste pile"),
    DominanceRule("met_foundation", _NO_REFILLS, _NO_REFILLS_SAYS),
    DominanceRule("dead_waste_block", _ONE_WASTE, "one waste pile"),
    DominanceRule("dead_stock_order", _ONE_WASTE, "one waste pile"),
    DominanceRule("free_reserve_relaxation", _NO_REFILLS, _NO_REFILLS_SAYS,
                  proves="its relaxation, free_reserve_relaxation: even with every reserve card free the deal "
                         "cannot be won"),
    DominanceRule("next_pass_projection", _NO_REFILLS, _NO_REFILLS_SAYS),
    DominanceRule("schedule_relaxation", {"waste_piles": 1, "reinforce": False},
                  "one waste pile and no reinforcement",
                  proves=f"schedule_relaxation: {_SCHEDULE}", finds=_SCHEDULE_FINDS),
    DominanceRule("schedule_skeleton", {"waste_piles": 1, "reinforce": True}, "one waste pile and reinforcement",
                  proves=f"schedule_skeleton: {_SCHEDULE}", finds=_SCHEDULE_FINDS),
    # with two redeals a solve takes minutes (benchmarks/notes/reinforcements-proofs-of-loss.md, solver 0.22.0)
    DominanceRule("schedule_refills", {"waste_piles": 1, "reinforce": True}, "one waste pile and reinforcement",
                  all_needs={"redeals": (0, 1)},
                  proves=f"schedule_refills: {_SCHEDULE}", finds=_SCHEDULE_FINDS),
    # a solve takes minutes on a standard deal (benchmarks/notes/reinforcements-proofs-of-loss.md, solver 0.30.0)
    DominanceRule("schedule_late_refills", {"waste_piles": 1, "reinforce": True}, "one waste pile and reinforcement",
                  all_needs={"redeals": ()},
                  proves="schedule_late_refills: no line refills a reserve in the first pass, and no timing of the "
                         "moves with refills only after it meets the conditions every winning line meets; CP-SAT",
                  finds=_SCHEDULE_FINDS),
)

# Shrunk shapes (2 suits = clubs and hearts); each keeps every move rule.
SHAPES = (
    dict(ranks=4, suits=2, reserves=2, reserve_size=3),
    dict(ranks=4, suits=2, reserves=1, reserve_size=6),
    dict(ranks=5, suits=2, reserves=1, reserve_size=8),
)
# Smaller still, for the default test run's thousands of oracle cross-checks (the
# pure-Python oracle must finish each deal in well under a second).
SMALL_SHAPES = (
    dict(ranks=3, suits=2, reserves=2, reserve_size=2),
    dict(ranks=4, suits=1, reserves=2, reserve_size=2),
    dict(ranks=4, suits=2, reserves=2, reserve_size=2),
    dict(ranks=4, suits=2, reserves=1, reserve_size=4),
)
VARIATIONS = dict(redeals=(0, 1, 2), empty_waste_accepts_any=(False, True),
                  stop_at_third_exhaustion=(False, True), reinforce_timing=("after_card_move", "immediate"))


def miniature(defaults: dict, shape: dict) -> None:
    """Granada: several waste piles, scaled down to two."""
    if defaults["waste_piles"] > 1:
        shape["waste_piles"] = 2


FAMILY = Family(
    name="alhambra",
    engine="solver.alhambra.rules:AlhambraEngine",
    kernel="solver.alhambra.kernel",
    hooks="solver.alhambra.hooks",
    options=OPTIONS,
    defaults=DEFAULTS,
    layout=layout.initial_layout,
    shuffle_hook=layout.shuffle_hook,
    foundation_suits=layout.foundation_suits,
    shapes=SHAPES,
    small_shapes=SMALL_SHAPES,
    variations=VARIATIONS,
    dominance=DOMINANCE,
    relaxation="free_reserve_relaxation",
    wins={"schedule_lead": "found by a search from where a refill schedule of CP-SAT stops playing, after the "
                           "search ran out of nodes"},
    miniature=miniature,
)
