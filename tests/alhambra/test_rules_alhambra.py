"""One test per rule of the Alhambra family (RULES.md Part II section 1)."""

import pytest

from solver.engine import IllegalMove
from tests.support.helpers import engine, legal, play, position, texts

F = ["AC", "AS", "AH", "AD", "KC", "KS", "KH", "KD"]


def test_reserve_to_up_foundation_in_suit_rank_plus_one():
    e = engine("alhambra")
    p = position(F, ["2C", "2S", "3C", "5H"], [], ["9D"], "")
    moves = legal(e, p)
    assert "r0>f0:2C" in moves and "r1>f1:2S" in moves
    assert not any(m.startswith("r2>f") for m in moves)      # 3C fits nowhere yet
    assert not any(m.startswith("r0>f1") for m in moves)     # wrong suit


def test_reserve_to_down_foundation_rank_minus_one():
    e = engine("alhambra")
    p = position(F, ["QH", "JH"], [], ["5C"], "")
    assert legal(e, p) >= {"r0>f6:QH"} and "r1>f6:JH" not in legal(e, p)


def test_foundations_do_not_wrap():
    e = engine("alhambra")
    f = list(F)
    f[0] = "AC 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC"     # full up foundation
    f[4] = "KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C"         # down foundation at 2
    p = position(f, ["AC"], [], ["9D"], "", redeals_used=2)
    assert legal(e, p) == {"r0>f4:AC"}


def test_waste_builds_in_suit_up_or_down_with_wrap():
    e = engine("alhambra")
    p = position(F, ["KH", "2H", "AS", "QH", "3H"], [], ["AH"], "")
    moves = {m for m in legal(e, p) if ">w0" in m}
    assert moves == {"r0>w0:KH", "r1>w0:2H"}      # K on A wraps; AS wrong suit; QH, 3H not adjacent


def test_waste_direction_may_change():
    e = engine("alhambra")
    p = position(F, ["5D 7D", "6D"], [], ["6D"], "")
    p = play(e, p, "r0>w0:7D", "r1>w0:6D", "r0>w0:5D")
    assert texts(p.waste[0]) == "6D 7D 6D 5D"


def test_empty_waste_accepts_nothing_by_default():
    e = engine("alhambra")
    p = position(F, ["9C"], [], [""], "")
    assert legal(e, p) == set()


def test_empty_waste_accepts_any_reserve_card_with_option():
    e = engine("alhambra", empty_waste_accepts_any=True)
    p = position(F, ["9C"], [], [""], "")
    assert legal(e, p) == {"r0>w0:9C"}


def test_waste_top_only_to_foundations_and_nothing_onto_reserves():
    e = engine("alhambra")
    p = position(F, ["3D", ""], [], ["2D"], "", redeals_used=2)
    assert legal(e, p) == {"w0>f3:2D", "r0>w0:3D"}
    with pytest.raises(IllegalMove, match="2D cannot go from w0 to r1"):
        e.apply(p, __import__("solver.moves", fromlist=["x"]).parse_move("w0>r1:2D"))


def test_foundation_cards_never_move():
    e = engine("alhambra")
    p = position(["AC 2C"] + F[1:], [""], [], ["3S"], "")
    assert not any(m.startswith("f") for m in legal(e, p))


def test_deal_one_card_to_the_waste_at_any_time():
    e = engine("alhambra")
    p = position(F, ["2C"], [], ["9D"], "5S 6S")
    assert "deal" in legal(e, p)
    p = play(e, p, "deal")
    assert texts(p.waste[0]) == "9D 5S" and texts(p.stock) == "6S"


def test_redeal_keeps_order_and_deals_first_card():
    e = engine("alhambra")
    p = position(F, ["9C"], [], ["5S 6S 7S"], "")
    assert legal(e, p) == {"redeal"}
    p = play(e, p, "redeal")
    # The bottom waste card is dealt first, at once; the rest keep their order.
    assert texts(p.waste[0]) == "5S" and texts(p.stock) == "6S 7S" and p.redeals_used == 1


def test_redeal_without_first_deal_option():
    e = engine("alhambra", redeal_includes_first_deal=False)
    p = play(e, position(F, ["9C"], [], ["5S 6S 7S"], ""), "redeal")
    assert texts(p.waste[0]) == "" and texts(p.stock) == "5S 6S 7S"


def test_redeal_needs_empty_stock_and_is_limited_to_two():
    e = engine("alhambra")
    p = position(F, ["9C"], [], ["5S"], "6S")
    assert "redeal" not in legal(e, p)
    p = position(F, ["9C"], [], ["5S"], "", redeals_used=2)
    assert legal(e, p) == set()
    assert "redeal" in legal(e, position(F, ["9C"], [], ["5S"], "", redeals_used=1))


def test_play_continues_after_last_exhaustion_by_default():
    e = engine("alhambra")
    p = position(F, ["2C"], [], ["5S"], "", redeals_used=2)
    assert legal(e, p) == {"r0>f0:2C"}


def test_stop_at_third_exhaustion():
    e = engine("alhambra", stop_at_third_exhaustion=True)
    assert legal(e, position(F, ["2C"], [], ["5S"], "", redeals_used=2)) == set()
    assert "r0>f0:2C" in legal(e, position(F, ["2C"], [], ["5S"], "", redeals_used=1))


def test_granada_deals_one_card_to_each_waste_pile_and_fewer_at_the_end():
    e = engine("granada")
    f = F
    p = position(f, ["9C"], [], ["2S", "3S", "4S", "5S"], "6S 7S 8S 9S TS JS")
    p = play(e, p, "deal")
    assert [texts(w) for w in p.waste] == ["2S 6S", "3S 7S", "4S 8S", "5S 9S"]
    p = play(e, p, "deal")
    assert [texts(w) for w in p.waste] == ["2S 6S TS", "3S 7S JS", "4S 8S", "5S 9S"]


def test_granada_waste_to_waste_and_empty_waste_takes_any_card():
    e = engine("granada")
    p = position(F, ["9C"], [], ["5D 9H", "TH", "", "4C"], "")
    moves = legal(e, p)
    assert {"w0>w1:9H", "w0>w2:9H", "w1>w2:TH", "w3>w2:4C", "r0>w2:9C"} <= moves
    assert "w1>w0:TH" in moves          # TH on 9H


def test_granada_redeal_order_w3_bottom_up_first():
    e = engine("granada")
    p = position(F, ["9C"], [], ["2S 3S", "4S", "5S 6S", "7S"], "", redeals_used=0)
    p = play(e, p, "redeal")
    # new stock order: W3 b->t, W2 b->t, W1 b->t, W0 b->t; then one card to each pile
    assert [texts(w) for w in p.waste] == ["7S", "5S", "6S", "4S"]
    assert texts(p.stock) == "2S 3S"


def test_reinforcements_refill_after_a_card_move_in_reserve_order():
    e = engine("reinforcements")
    p = position(F, ["2C", "", "9H", "8H"], [], ["5D"], "3S 4S 5S")
    # r1 is empty (it emptied while the stock was empty, say): the next card move refills it.
    p = play(e, p, "r0>f0:2C")
    assert [texts(r) for r in p.reserves] == ["3S", "4S", "9H", "8H"]
    assert texts(p.stock) == "5S"


def test_reinforcements_no_refill_after_deal_by_default():
    e = engine("reinforcements")
    p = position(F, ["", "9H", "QD", "8H"], [], ["5D"], "3S 4S")
    p = play(e, p, "deal")
    assert texts(p.reserves[0]) == "" and texts(p.waste[0]) == "5D 3S"


def test_reinforcements_immediate_timing_refills_after_deal():
    e = engine("reinforcements", reinforce_timing="immediate")
    p = play(e, position(F, ["", "9H", "QD", "8H"], [], ["5D"], "3S 4S"), "deal")
    assert texts(p.reserves[0]) == "4S" and texts(p.waste[0]) == "5D 3S"


def test_reinforcements_empty_waste_accepts_nothing():
    e = engine("reinforcements")
    p = position(F, ["9H", "JD", "8H", "7C"], [], [""], "")
    assert legal(e, p) == set()


def test_won_when_all_cards_on_foundations():
    e = engine("alhambra", ranks=3, suits=1, reserves=1, reserve_size=1)
    p = position(["AC", "3C"], ["2C"], [], ["2C"], "")
    assert not e.is_won(p)
    p = play(e, p, "r0>f0:2C", "w0>f1:2C")
    assert e.is_won(p)
