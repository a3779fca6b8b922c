"""One test per rule of Algerian Patience (RULES.md Part II section 3)."""

from solver.deals import GameNumber
from solver.formats import pysolfc_deal
from solver.engine import engine_for
from solver.moves import Move, DEAL
from solver.variants import make_rules
from tests.support.helpers import engine, legal, play, position, texts

F = ["", "", "", "", "KC", "KS", "KH", "KD"]


def test_up_foundation_starts_with_ace_down_continues_from_king():
    e = engine("algerian")
    p = position(F, ["AC", "QS", "2C"], ["5D"], [], "")
    moves = legal(e, p)
    assert {"r0>f0:AC", "r1>f5:QS"} <= moves and not any(m.startswith("r2>f") for m in moves)


def test_empty_down_foundation_takes_a_king():
    e = engine("algerian", layout="B")
    p = position(["", "", "", "", "", "", "", ""], ["KC"], ["5D"], [], "")
    assert "r0>f4:KC" in legal(e, p)


def test_tableau_up_or_down_in_suit_with_wrap():
    e = engine("algerian")
    p = position(F, ["6C", "4C", "6S", "AH", "8C"], ["5C", "KH"], [], "")
    moves = {m for m in legal(e, p) if ">t" in m}
    assert {"r0>t0:6C", "r1>t0:4C", "r3>t1:AH"} <= moves
    assert "r2>t0:6S" not in moves and "r4>t0:8C" not in moves


def test_tableau_wrap_off():
    e = engine("algerian", tableau_wrap=False)
    p = position(F, ["AH"], ["KH"], [], "")
    assert "r0>t0:AH" not in legal(e, p)


def test_empty_tableau_takes_any_card_and_tableau_to_tableau():
    e = engine("algerian")
    p = position(F, ["9D"], ["", "5C", "6C"], [], "")
    moves = legal(e, p)
    assert {"r0>t0:9D", "t1>t0:5C", "t1>t2:5C", "t2>t1:6C"} <= moves


def test_nothing_onto_reserves_by_default():
    e = engine("algerian")
    p = position(F, ["", "9D"], ["5C"], [], "")
    assert not any(">r" in m for m in legal(e, p))


def test_empty_reserve_as_cell_from_tableau():
    e = engine("algerian", empty_reserve_as_cell="from_tableau")
    p = position(F, ["", "9D"], ["5C"], [], "")
    moves = legal(e, p)
    assert "t0>r0:5C" in moves and "r1>r0:9D" not in moves
    p2 = play(e, p, "t0>r0:5C")
    assert "r1>r0:9D" not in legal(e, p2) and "t0>r0:9D" not in legal(e, p2)   # one card only


def test_empty_reserve_as_cell_from_anywhere():
    e = engine("algerian", empty_reserve_as_cell="from_anywhere")
    p = position(F, ["", "9D"], ["5C"], [], "")
    assert {"t0>r0:5C", "r1>r0:9D"} <= legal(e, p)


def test_foundation_transfer_between_same_suit_foundations():
    e = engine("algerian")
    f = ["AC 2C 3C 4C 5C 6C", "", "", "", "KC QC JC TC 9C 8C 7C", "KS", "KH", "KD"]
    p = position(f, ["2D"], ["5D"], [], "")
    assert {"f0>f4:6C", "f4>f0:7C"} <= legal(e, p)
    assert not any(m.startswith("f") for m in legal(engine("algerian", foundation_transfer=False), p))


def test_no_foundation_to_tableau_by_default_and_option():
    f = ["AC 2C 3C 4C", "", "", "", "KC", "KS", "KH", "KD"]
    p = position(f, ["2D"], ["5C", ""], [], "")
    assert not any(m.startswith("f0>t") for m in legal(engine("algerian"), p))
    moves = legal(engine("algerian", foundation_to_tableau=True), p)
    assert {"f0>t0:4C", "f0>t1:4C", "f4>t1:KC"} <= moves


def test_deal_sizes_12_12_12_12_8():
    rules = make_rules("algerian")
    d = pysolfc_deal(rules, GameNumber(1))
    e = engine_for(rules)
    p = e.initial_position(d.layout)
    sizes = []
    while p.stock:
        before = len(p.stock)
        p = e.apply(p, Move(DEAL))
        sizes.append(before - len(p.stock))
    assert sizes == [12, 12, 12, 12, 8]
    assert [len(t) for t in p.tableau] == [2] * 8 and [len(r) for r in p.reserves] == [14] * 6


def test_deal_two_rounds_over_reserves_in_order():
    e = engine("algerian", reserves=2)
    p = position(F, ["9D", ""], ["5C"], [], "2S 3S 4S 5S 6S")
    p = play(e, p, "deal")
    assert [texts(r) for r in p.reserves] == ["9D 2S 4S", "3S 5S"] and texts(p.stock) == "6S"


def test_last_deal_one_card_per_tableau_pile_even_onto_gaps():
    e = engine("algerian", tableau_piles=2)
    p = position(F, ["9D"], ["", "5C"], [], "2S 3S")
    assert "deal" in legal(e, p)
    p = play(e, p, "deal")
    assert [texts(t) for t in p.tableau] == ["2S", "5C 3S"] and not p.stock


def test_won():
    e = engine("algerian", ranks=3, suits=1, reserves=1, reserve_size=1, tableau_piles=1)
    p = position(["AC 2C", "3C 2C"], ["AC"], ["3C"], [], "")
    assert e.is_won(play(e, p, "r0>f1:AC", "t0>f0:3C"))
