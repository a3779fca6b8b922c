"""Building hand-made positions for rule tests."""

from solver import cards
from solver.engine import Position, engine_for
from solver.layout import PHASE_PLAY
from solver.moves import parse_move
from solver.variants import make_rules


def pile(s: str):
    return tuple(cards.parse(t) for t in s.split())


def position(foundations=(), reserves=(), tableau=(), waste=(), stock="", redeals_used=0, phase=PHASE_PLAY):
    return Position(tuple(pile(p) for p in foundations), tuple(pile(p) for p in reserves),
                    tuple(pile(p) for p in tableau), tuple(pile(p) for p in waste), pile(stock),
                    redeals_used, phase)


def engine(variant, **opts):
    return engine_for(make_rules(variant, opts))


def legal(eng, pos):
    return {str(m) for m in eng.legal_moves(pos)}


def play(eng, pos, *moves):
    for m in moves:
        pos = eng.apply(pos, parse_move(m))
    return pos


def texts(p):
    return " ".join(cards.text(c) for c in p)
