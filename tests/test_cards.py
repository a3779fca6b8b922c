import pytest

from solver import cards


def test_codes_round_trip_every_card():
    for code in range(52):
        assert cards.parse(cards.text(code)) == code
        assert cards.make(cards.rank(code), cards.suit(code)) == code


def test_text_and_attributes():
    c = cards.parse("TD")
    assert (cards.rank(c), cards.suit(c), cards.colour(c)) == (10, 3, 1)
    assert cards.parse("10d") == c
    assert cards.colour(cards.parse("KS")) == 0
    assert cards.text(cards.make(1, 0)) == "AC"


@pytest.mark.parametrize("bad", ["", "1C", "ZZ", "AX", "10", "TDX", "11H"])
def test_bad_card_text(bad):
    with pytest.raises(cards.CardError):
        cards.parse(bad)


def test_wrap_arithmetic():
    assert cards.succ(13) == 1 and cards.pred(1) == 13
    assert cards.succ(4, ranks=4) == 1 and cards.pred(1, ranks=4) == 4
    assert cards.adjacent(13, 1) and not cards.adjacent(13, 1, wrap=False)
    assert cards.adjacent(5, 6) and not cards.adjacent(5, 7)


def test_pack():
    assert len(cards.pack()) == 52 and len(set(cards.pack())) == 52
    assert cards.pack(3, 2) == [0, 1, 2, 26, 27, 28]   # clubs and hearts: both colours
