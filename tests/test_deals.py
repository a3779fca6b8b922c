"""PySolFC deal reproduction: RULES.md Appendix A fixtures and a pysol-cards cross-check."""

import random

import pytest

from solver import deals
from solver.deals import GameNumber, GameNumberError, parse_game_number

pysol_random = pytest.importorskip("pysol_cards.random")

SEED1_NO_HOOK = ("3D 5H JC KH 5S' 5H' KC KC' 8D' JD AS' 8C' 6C 6H' TC' 8D 4C JS QC 4H' KD 2H' TD 8S' AC' "
                 "7C' 2H AD' 9H 8S 7D 9S' 8H' JH 4D' 2D 6H TH 8C 2S 3S' 9C' 7D' 4S 8H TH' AH' JC' 4H 7H' QS' "
                 "QC' 7C 3S QH 9S 2S' QH' 3C' AS 4S' KS 6D' TD' 9C 9D' JS' 4D 5C 6C' AD JH' 6S 3C JD' TC AH "
                 "QS 2C' 9H' 3H' 7S 5C' 9D KS' 5D TS QD 7S' 6D TS' KD' QD' 7H 3D' 2C KH' 5D' 3H 2D' 4C' 5S "
                 "6S' AC").split()
SEED1_ALHAMBRA = ("AC AS AH AD KC KS KH KD 3D 5H JC 5S' 5H' KC' 8D' JD AS' 8C' 6C 6H' TC' 8D 4C JS QC 4H' "
                  "2H' TD 8S' AC' 7C' 2H AD' 9H 8S 7D 9S' 8H' JH 4D' 2D").split()
SEED1_ALGERIAN = "KC KS KH KD 3D 5H JC 5S' 5H' KC' 8D' JD AS' 8C' 6C 6H' TC' 8D".split()
SEED100000 = ("TC 4H' 6S' 2D' 9S' 9H 4D' QC' QH 9C' 3D JC' 2C' QD KC' AD' 6H' 7H' KS' QH' 5C 8D KD' 8S "
              "5S' 7D' 7S JD' 6C TD 4C 5D").split()


def texts(seq):
    return [deals.id_text(c) for c in seq]


def test_fixture_seed1_no_hook():
    assert texts(deals.deal_sequence(GameNumber(1))) == SEED1_NO_HOOK


def test_fixture_seed1_alhambra_hook():
    d = deals.deal_sequence(GameNumber(1), deals.hook_aces_and_kings(), 8)
    assert texts(d)[:len(SEED1_ALHAMBRA)] == SEED1_ALHAMBRA


def test_fixture_seed1_algerian_hook():
    d = deals.deal_sequence(GameNumber(1), deals.hook_kings(), 4)
    assert texts(d)[:len(SEED1_ALGERIAN)] == SEED1_ALGERIAN


def test_fixture_seed100000_mersenne_twister():
    assert texts(deals.deal_sequence(GameNumber(100000)))[:len(SEED100000)] == SEED100000


def oracle_shuffle(n: int, ms: bool = False) -> list[int]:
    """pysol-cards' own generators driving PySolFC's shuffle over card ids 0..103."""
    if ms or n < 32000:
        rng = pysol_random.LCRandom31()
        rng.setSeed(n)
    else:
        rng = pysol_random.MTRandom(n)
    return rng.shuffle(list(range(104)))


def game_numbers():
    rnd = random.Random(20261130)
    nums = list(range(1, 400)) + list(range(31800, 32200))        # both sides of 31999/32000
    nums += [rnd.randrange(1, 32000) for _ in range(100)]
    nums += [rnd.randrange(32000, 10 ** 12) for _ in range(100)]
    nums += [10 ** 20 - 1, 10 ** 20, 10 ** 20 + 1, 10 ** 25, 2 ** 64 + 7, 2 ** 63, 987654321, 123456789]
    nums += [rnd.randrange(10 ** 18, 10 ** 22) for _ in range(40)]
    return nums


def test_shuffle_matches_pysol_cards_for_many_game_numbers():
    nums = game_numbers()
    assert len(nums) >= 1000
    for n in nums:
        ours = [52 * deck + code for deck, code in reversed(deals.deal_sequence(GameNumber(n)))]
        assert ours == oracle_shuffle(n), n


@pytest.mark.parametrize("n", [32000, 99999, 2 ** 31 - 1, 2 ** 31, 2 ** 31 + 5, 2 ** 32 - 1, 2 ** 32, 2 ** 33 - 1])
def test_ms_numbers_match_pysol_cards(n):
    ours = [52 * deck + code for deck, code in reversed(deals.deal_sequence(GameNumber(n, ms=True)))]
    assert ours == oracle_shuffle(n, ms=True)


@pytest.mark.parametrize("text,value,ms", [
    ("1", 1, False), ("#1", 1, False), ("12,345", 12345, False), ("1_000 000", 1000000, False),
    ("ms5", 5, True), ("ms32000", 32000, True), ("123456789012345678901234", 123456789012345678901234, False),
    (" 42 ", 42, False), ("7L", 7, False), ("1.000", 1000, False),
])
def test_parse_game_number(text, value, ms):
    g = parse_game_number(text)
    assert (g.value, g.ms) == (value, ms)


def test_game_number_text_is_exact_for_huge_numbers():
    g = parse_game_number("100000000000000000000000001")
    assert str(g) == "100000000000000000000000001"
    assert str(parse_game_number("ms40000")) == "ms40000"
    assert str(parse_game_number("ms40")) == "40"     # same generator either way


def test_ms_switches_generator_above_31999():
    assert parse_game_number("ms40000").uses_lc31
    assert not parse_game_number("40000").uses_lc31
    assert deals.deal_sequence(parse_game_number("ms40000")) != deals.deal_sequence(parse_game_number("40000"))


@pytest.mark.parametrize("bad", ["0", "-5", "abc", "", "#", "12a", "ms0", f"ms{2 ** 33}", "1e5", "٣"])
def test_bad_game_numbers(bad):
    with pytest.raises(GameNumberError):
        parse_game_number(bad)
