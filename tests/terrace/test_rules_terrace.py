"""One test per rule of the Terrace family (RULES.md Part II section 2)."""

import pytest

from solver.engine import IllegalMove
from solver.layout import PHASE_CHOOSE_BASE
from solver.moves import parse_move
from tests.support.helpers import engine, legal, play, position, texts

E8 = [""] * 8


def fnd(**piles):
    """Foundations with the given piles (index -> cards), the rest empty."""
    out = list(E8)
    for k, v in piles.items():
        out[int(k[1:])] = v
    return out


def test_choose_phase_offers_only_base_choices():
    e = engine("terrace")
    p = position(E8, ["3D 5H"], ["8C", "6C", "6H", "TC", "", "", "", "", ""], [""],
                 "8D 4C JS QC 4H KD 2H TD", phase=PHASE_CHOOSE_BASE)
    assert legal(e, p) == {"base:0:8C", "base:1:6C", "base:2:6H", "base:3:TC"}


def test_base_choice_then_opening_deal():
    e = engine("terrace")
    p = position(E8, ["3D 5H"], ["8C", "6C", "6H", "TC", "", "", "", "", ""], [""],
                 "8D 4C JS QC 4H KD 2H TD", phase=PHASE_CHOOSE_BASE)
    p = play(e, p, "base:1")
    assert texts(p.foundations[0]) == "6C"                # the first foundation of its suit
    assert [texts(t) for t in p.tableau] == ["8C", "8D", "6H", "TC", "4C", "JS", "QC", "4H", "KD"]
    assert texts(p.waste[0]) == "2H" and texts(p.stock) == "TD"


def test_empty_foundation_takes_base_rank_of_its_suit_tag():
    e = engine("terrace")
    p = position(fnd(f0="6C"), [""], ["6S", "6C", "7C"], ["9D"], "2C")
    moves = legal(e, p)
    assert {"t0>f2:6S", "t0>f3:6S", "t1>f1:6C"} <= moves
    assert "t0>f1:6S" not in moves and "t1>f2:6C" not in moves


def test_foundation_builds_up_alternate_colours_with_wrap():
    e = engine("terrace")
    p = position(fnd(f0="QC", f4="QH"), [""], ["KH", "KS", "AH", "KC"], ["9D"], "2C")
    moves = legal(e, p)
    assert "t0>f0:KH" in moves and "t1>f4:KS" in moves
    assert "t3>f0:KC" not in moves and "t2>f0:AH" not in moves
    p2 = position(fnd(f0="QC KH"), [""], ["AS", "AC"], ["9D"], "2C")   # K -> A wraps
    assert "t0>f0:AS" in legal(e, p2) or "t1>f0:AC" in legal(e, p2)


def test_foundation_full_at_thirteen():
    e = engine("terrace", ranks=4, suits=2)
    p = position(["2C 3H 4C AH", "", "", ""], [""], ["2H"], ["3C"], "")
    assert not any(">f0" in m for m in legal(e, p))


def test_foundation_in_suit_option():
    e = engine("generals-patience")
    p = position(fnd(f0="6C"), [""], ["7C", "7H", "7S"], ["9D"], "2C")
    assert {m for m in legal(e, p) if ">f0" in m} == {"t0>f0:7C"}


def test_tableau_builds_down_alternate_colours_with_wrap():
    e = engine("terrace")
    p = position(fnd(f0="5C"), [""], ["AS", "KH", "9C", "8C", "8H"], ["2D"], "3C")
    moves = legal(e, p)
    assert "t1>t0:KH" in moves                 # K on A
    assert "t4>t2:8H" in moves and "t3>t2:8C" not in moves


def test_tableau_in_suit_option():
    e = engine("terrace", tableau_build="SS")
    p = position(fnd(f0="5C"), [""], ["9C", "8C", "8H"], ["2D"], "3C")
    assert {m for m in legal(e, p) if ">t0" in m} == {"t1>t0:8C"}


def test_reserve_only_to_foundations():
    e = engine("terrace")
    p = position(fnd(f0="5C"), ["8D 6H"], ["7C", "JH"], ["2D"], "3C")
    moves = legal(e, p)
    assert "r0>f0:6H" in moves and not any(m.startswith("r0>t") for m in moves)
    with pytest.raises(IllegalMove, match="6H cannot go from r0 to t0"):
        e.apply(p, parse_move("r0>t0:6H"))


def test_nothing_onto_reserve_or_waste():
    e = engine("terrace")
    p = position(fnd(f0="5C"), ["8D"], ["7C", "JH"], ["2D"], "3C")
    assert not any(">r" in m or ">w" in m for m in legal(e, p))


def test_waste_to_tableau_and_foundation():
    e = engine("terrace")
    p = position(fnd(f0="5C"), ["8D"], ["3S", "7C"], ["6H"], "3C")
    assert {"w0>t1:6H", "w0>f0:6H"} <= legal(e, p)


def test_auto_waste_fills_gap_then_refills_waste():
    e = engine("terrace")
    p = position(fnd(f0="5C"), ["8D"], ["6H", "TC"], ["9S"], "3C 4C")
    p = play(e, p, "t0>f0:6H")
    assert [texts(t) for t in p.tableau] == ["9S", "TC"]
    assert texts(p.waste[0]) == "3C" and texts(p.stock) == "4C"


def test_auto_waste_gap_stays_when_stock_and_waste_are_empty_and_takes_any_tableau_card():
    e = engine("terrace")
    p = position(fnd(f0="5C"), ["8D"], ["6H", "TC", "3S"], [""], "")
    p = play(e, p, "t0>f0:6H")
    assert texts(p.tableau[0]) == ""
    assert {"t1>t0:TC", "t2>t0:3S"} <= legal(e, p)


def test_waste_autofill_deals_when_waste_empties():
    e = engine("terrace")
    p = play(e, position(fnd(f0="5C"), ["8D"], ["TC"], ["6H"], "3C 4C"), "w0>f0:6H")
    assert texts(p.waste[0]) == "3C"


def test_no_waste_autofill_option():
    e = engine("terrace", waste_autofill=False)
    p = play(e, position(fnd(f0="5C"), ["8D"], ["TC"], ["6H"], "3C 4C"), "w0>f0:6H")
    assert texts(p.waste[0]) == "" and "deal" in legal(e, p)


def test_auto_stock_fills_gap_from_stock():
    e = engine("terrace", gap_rule="auto_stock")
    p = play(e, position(fnd(f0="5C"), ["8D"], ["6H", "TC"], ["9S"], "3C 4C"), "t0>f0:6H")
    assert [texts(t) for t in p.tableau] == ["3C", "TC"] and texts(p.waste[0]) == "9S"


def test_auto_reserve_first_fills_gap_from_reserve_then_waste_then_stock():
    e = engine("redheads")
    p = play(e, position(fnd(f0="5C"), ["8D QS"], ["6H", "TC"], ["9S"], "3C"), "t0>f0:6H")
    assert texts(p.tableau[0]) == "QS"
    p = play(e, position(fnd(f0="5C"), [""], ["6H", "TC"], ["9S"], "3C"), "t0>f0:6H")
    assert texts(p.tableau[0]) == "9S" and texts(p.waste[0]) == "3C"
    e2 = engine("redheads", waste_autofill=False)
    p = play(e2, position(fnd(f0="5C"), [""], ["6H", "TC"], [""], "3C"), "t0>f0:6H")
    assert texts(p.tableau[0]) == "3C"


def test_any_available_no_autofill_and_gap_takes_tableau_waste_foundation():
    e = engine("queen-of-italy-pysolfc")
    p = play(e, position(fnd(f0="5C 6H"), ["8D"], ["7C", "TC"], ["9S"], "3C"), "t0>f0:7C")
    assert texts(p.tableau[0]) == ""
    moves = legal(e, p)
    assert {"t1>t0:TC", "w0>t0:9S", "f0>t0:7C"} <= moves
    assert "r0>t0:8D" not in moves


def test_waste_only_gap_rule():
    e = engine("terrace", gap_rule="waste_only", waste_autofill=False)
    p = position(fnd(f0="5C"), ["8D"], ["", "TC"], ["9S"], "3C")
    gap_moves = {m for m in legal(e, p) if ">t0" in m}
    assert gap_moves == {"w0>t0:9S"}


def test_found_takeback_moves_top_but_never_the_base():
    e = engine("queen-of-italy-pysolfc")
    p = position(fnd(f0="5C 6H", f2="5S"), [""], ["7S", "8H"], ["2D"], "3C")
    moves = legal(e, p)
    assert "f0>t0:6H" in moves                    # 6H on 7S
    assert not any(m.startswith("f2>") for m in moves)   # the base card stays
    assert "f0>f2:6H" in moves                    # onto another foundation where it fits
    assert not any(m.startswith("f") for m in legal(engine("terrace"), p))


def test_redeal_play_or_stop():
    e = engine("generals-patience", redeals=1)
    p = position(fnd(f0="5C"), [""], ["KS"], ["7D 9S"], "")
    p = play(e, p, "redeal")
    # The waste turned over in order; the autofill deals the first card.
    assert texts(p.waste[0]) == "7D" and texts(p.stock) == "9S"
    assert "deal" not in legal(e, p)             # 7D must be played first
    assert "redeal" not in legal(e, play(e, position(fnd(f0="5C"), [""], ["KS"], ["9S"], "", redeals_used=1)))


def test_no_redeal_by_default():
    e = engine("terrace")
    assert "redeal" not in legal(e, position(fnd(f0="5C"), [""], ["KS"], ["7D 9S"], ""))


def test_no_build_on_base_rank_option():
    e = engine("terrace", no_build_on_base_rank=True)
    p = position(fnd(f0="5C"), [""], ["5H", "4S"], ["2D"], "3C")
    assert "t1>t0:4S" not in legal(e, p) and "t1>t0:4S" in legal(engine("terrace"), p)


def test_deal_any_time_in_play():
    e = engine("terrace", waste_autofill=False)
    p = play(e, position(fnd(f0="5C"), [""], ["KS"], ["2D"], "3C 4C"), "deal")
    assert texts(p.waste[0]) == "2D 3C"


def test_won():
    e = engine("terrace", ranks=3, suits=2)
    p = position(["2C 3H", "2C 3H", "2H 3C", "2H 3C"], ["AH"], ["AC", "AH"], ["AC"], "")
    assert not e.is_won(p)
    # the gap left by t0 is filled from the waste at once
    assert e.is_won(play(e, p, "t0>f0:AC", "t0>f1:AC", "t1>f2:AH", "r0>f3:AH"))


def test_reserve_to_tableau_option():
    """Off (every variant): the reserve gives only to foundations; on, its top goes onto the
    tableau and into a gap the player may fill."""
    p = position(fnd(f0="5C"), ["3D"], ["4S", ""], ["2D"], "3C")
    assert not any(m.startswith("r0>t") for m in legal(engine("queen-of-italy-pysolfc"), p))
    on = legal(engine("queen-of-italy-pysolfc", reserve_to_tableau=True), p)
    assert "r0>t0:3D" in on and "r0>t1:3D" in on
    assert "r0>t1:3D" not in legal(engine("terrace", reserve_to_tableau=True, gap_rule="waste_only"), p)
