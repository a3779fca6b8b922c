"""Initial layouts: RULES.md fixtures and invariants for every variant."""

from collections import Counter

import pytest

from solver import cards
from solver.deals import GameNumber
from solver.algerian.layout import initial_tableau as algerian_initial_tableau
from solver.layout import PHASE_CHOOSE_BASE, pysolfc_layout
from solver.variants import CATALOGUE, make_rules
from tests.support.helpers import texts


def lay(variant, n, **opts):
    return pysolfc_layout(make_rules(variant, opts), GameNumber(n))


def test_pysolfc_alhambra_1():
    l = lay("alhambra", 1)
    assert [texts(p) for p in l.foundations] == "AC AS AH AD KC KS KH KD".split()
    assert texts(l.reserves[0]) == "3D AS QC AD"
    assert texts(l.reserves[7]) == "JD JS 2H 4D"
    assert texts(l.waste[0]) == "2D"
    assert texts(l.stock[:4]) == "6H TH 8C 2S"
    assert len(l.stock) == 63


def test_pysolfc_terrace_1():
    l = lay("terrace", 1)
    assert texts(l.reserves[0]) == "3D 5H JC KH 5S 5H KC KC 8D JD AS"
    assert [texts(p) for p in l.tableau[:4]] == "8C 6C 6H TC".split()
    assert all(not p for p in l.tableau[4:]) and len(l.tableau) == 9
    assert l.phase == PHASE_CHOOSE_BASE
    # After the choice: the vacated pile gets 8D, P4..P8 get 4C JS QC 4H KD, the waste 2H, stock TD 8S AC...
    assert texts(l.stock[:10]) == "8D 4C JS QC 4H KD 2H TD 8S AC"


def test_pysolfc_algerian_1():
    l = lay("algerian", 1)
    assert [texts(p) for p in l.tableau] == "3D 5H JC 5S 5H KC 8D JD".split()
    assert texts(l.reserves[0]) == "AS 4C 8S 8S 2D 9C"
    assert texts(l.stock[:4]) == "JC 4H 7H QS"
    assert [texts(p) for p in l.foundations] == ["", "", "", "", "KC", "KS", "KH", "KD"]
    assert len(l.stock) == 56


def test_blondes_and_brunettes_base_is_d19():
    l = lay("blondes-and-brunettes", 1)
    # D[0..9] reserve, D[10..18] tableau, D[19] base, D[20] waste
    d = "3D 5H JC KH 5S 5H KC KC 8D JD AS 8C 6C 6H TC 8D 4C JS QC 4H KD".split()
    assert texts(l.reserves[0]) == " ".join(d[:10])
    assert [texts(p) for p in l.tableau] == d[10:19]
    assert texts(l.foundations[2 * cards.suit(cards.parse("4H"))]) == "4H"
    assert texts(l.waste[0]) == "KD"


def test_redheads_aisleriot_order():
    l = lay("redheads", 1)
    d = ("3D 5H JC KH 5S 5H KC KC 8D JD AS 8C 6C 6H TC 8D 4C JS QC 4H KD 2H TD 8S AC 7C 2H AD 9H 8S 7D").split()
    assert texts(l.reserves[0]) == " ".join(d[:21])
    assert texts(l.foundations[2 * cards.suit(cards.parse("2H"))]) == "2H"   # D[21] is the base
    assert [texts(p) for p in l.tableau] == d[22:30]
    assert texts(l.waste[0]) == "7D"
    assert len(l.stock) == 73


EXPECTED = {
    # variant: (foundation cards, reserves sizes, tableau sizes, waste sizes, stock)
    "alhambra": (8, [4] * 8, [], [1], 63),
    "granada": (8, [4] * 8, [], [1] * 4, 60),
    "reinforcements": (8, [12] * 4, [], [1], 47),
    "terrace": (0, [11], [1] * 4 + [0] * 5, [0], 89),
    "queen-of-italy-pysolfc": (0, [11], [1] * 4 + [0] * 5, [0], 89),
    "generals-patience": (0, [13], [1] * 4 + [0] * 5, [0], 87),
    "blondes-and-brunettes": (1, [10], [1] * 9, [1], 83),
    "falling-star": (1, [11], [1] * 9, [1], 82),
    "redheads": (1, [21], [1] * 8, [1], 73),
    "algerian": (4, [6] * 6, [1] * 8, [], 56),
}


@pytest.mark.parametrize("variant", [v.key for v in CATALOGUE])
def test_layout_invariants_for_many_game_numbers(variant):
    rules = make_rules(variant)
    want = Counter(cards.pack() * 2)
    for n in list(range(1, 60)) + [31999, 32000, 100000, 123456789, 10 ** 20, 10 ** 21 + 3]:
        l = pysolfc_layout(rules, GameNumber(n))
        assert Counter(l.all_cards()) == want
        f, res, tab, waste, stock = EXPECTED[variant]
        assert sum(len(p) for p in l.foundations) == f
        assert [len(p) for p in l.reserves] == res
        assert [len(p) for p in l.tableau] == tab
        assert [len(p) for p in l.waste] == waste
        assert len(l.stock) == stock


@pytest.mark.parametrize("layout,res,tab,stock", [("B", 6, 12, 56), ("C", 4, 12, 68)])
def test_algerian_layouts_b_and_c(layout, res, tab, stock):
    rules = make_rules("algerian", {"layout": layout})
    assert algerian_initial_tableau(rules) == tab
    l = pysolfc_layout(rules, GameNumber(7))
    assert all(not p for p in l.foundations)
    assert [len(p) for p in l.reserves] == [res] * 6
    assert [len(p) for p in l.tableau] == [2] * 4 + [1] * 4
    assert len(l.stock) == stock


def test_miniature_layout():
    rules = make_rules("alhambra", {"ranks": 4, "suits": 2, "reserves": 2, "reserve_size": 2})
    l = pysolfc_layout(rules, GameNumber(3))
    assert [texts(p) for p in l.foundations] == ["AC", "AH", "4C", "4H"]
    assert len(l.all_cards()) == 16 and len(l.stock) == 16 - 4 - 4 - 1
