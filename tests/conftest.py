import pytest

from solver import cards
from solver.layout import Layout


def texts(pile):
    return " ".join(cards.text(c) for c in pile)


def parse_pile(s: str):
    return tuple(cards.parse(t) for t in s.split())


@pytest.fixture
def pile_text():
    return texts
