"""With foundation take-back (PySolFC's Queen of Italy), is a reserve card ever unable to
go home, everything outside the reserve being free?

Take-back lets a foundation come down to its base (the base never moves), so a reserve
card A at place j fits a foundation of its suit or colour pattern if each place 1..j-1
(0..j-1 on an empty foundation) has a card of its class that is not below A in the
reserve. This is the free-reserve relaxation solved exactly under take-back (a foundation
needs only its own cards when A arrives). Counts the (game, base choice) pairs where some
reserve card fails.

    PYTHONPATH=. python benchmarks/attic/terrace_takeback_reserve.py queen-of-italy-pysolfc 1-300
"""

import sys

from benchmarks.games import parse_games
from solver import cards
from solver.engine import engine_for
from solver.formats import pysolfc_deal
from solver.terrace.layout import base_rank
from solver.variants import make_rules


def never_home(engine, pos) -> bool:
    b = base_rank(pos)
    if b is None:
        return False
    ranks, ss, fs = engine.ranks, engine.rules["found_build"] == "SS", engine.fsuits
    order = list(reversed(pos.reserves[0]))
    everything = [c for p in pos.reserves + pos.tableau + pos.waste + pos.foundations for c in p] + list(pos.stock)
    for i, a in enumerate(order):
        free = list(everything)
        for c in order[i + 1:]:
            free.remove(c)
        j = (cards.rank(a) - b) % ranks

        def fits(f):
            tag = fs[f]
            if ss or j == 0:
                if cards.suit(a) != tag:
                    return False
            elif cards.colour(a) != (tag // 2) ^ (j & 1):
                return False
            for q in range(1 if pos.foundations[f] else 0, j):
                r = (b - 1 + q) % ranks + 1
                if ss or q == 0:
                    ok = any(cards.suit(c) == tag and cards.rank(c) == r for c in free)
                else:
                    ok = any(cards.colour(c) == (tag // 2) ^ (q & 1) and cards.rank(c) == r for c in free)
                if not ok:
                    return False
            return True

        if not any(fits(f) for f in range(len(fs))):
            return True
    return False


def main(variant: str, games: str) -> None:
    rules = make_rules(variant)
    e = engine_for(rules)
    pairs = fired = dead = 0
    for g in parse_games(games, rules):
        pos = e.initial_position(pysolfc_deal(rules, g).layout)
        res = [never_home(e, e.play(pos, m)) for m in e.legal_moves(pos)]
        pairs += len(res)
        fired += sum(res)
        dead += all(res)
    print(variant, games, f"pairs {pairs}, fired {fired}, deals lost {dead}")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
