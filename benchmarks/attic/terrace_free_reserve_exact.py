"""Is the free-reserve relaxation of the Terrace family, solved exactly with the copies of
each card counted, lost where ``reserve_blocked`` and ``reserve_order`` are not?

The relaxation: every card outside the reserve is free; the reserve gives its top to a
foundation only. The exact test gives the reserve's cards (top first) to foundations that
take their place, keeping every foundation as low as it can be, and asks at each step that
the foundations' cards so far (one card of the right suit, or colour, per place) be there
in copies that are not below the card in the reserve. A search over the foundations'
heights, memoised. Rank-b places ask the tag's suit, as in the game.

For each base choice of each game: the exact test and the two reserve tests; it stops if
the exact test does not fire where they do (it implies them).

    PYTHONPATH=. python benchmarks/attic/terrace_free_reserve_exact.py generals-patience 1-60
"""

import sys
from functools import lru_cache

from benchmarks.games import parse_games
from solver import cards
from solver.adapter import adapter_for, kernel_state
from solver.engine import engine_for
from solver.formats import pysolfc_deal
from solver.terrace import kernel as k
from solver.terrace.layout import base_rank
from solver.variants import make_rules


def exact_lost(engine, pos) -> bool:
    b = base_rank(pos)
    if b is None:
        return False
    ranks, ss, fs = engine.ranks, engine.rules["found_build"] == "SS", engine.fsuits
    order = list(reversed(pos.reserves[0]))

    def card_class(c):
        j = (cards.rank(c) - b) % ranks
        return ("s", cards.suit(c), cards.rank(c)) if ss or j == 0 else ("c", cards.colour(c), cards.rank(c))

    def place_class(f, q):
        r = (b - 1 + q) % ranks + 1
        return ("s", fs[f], r) if ss or q == 0 else ("c", (fs[f] // 2) ^ (q & 1), r)

    everything = [c for p in pos.reserves + pos.tableau + pos.waste + pos.foundations for c in p] + list(pos.stock)
    total: dict = {}
    for c in everything:
        total[card_class(c)] = total.get(card_class(c), 0) + 1
    there = []                                   # copies not below order[i] in the reserve
    for i in range(len(order)):
        a = dict(total)
        for c in order[i + 1:]:
            a[card_class(c)] -= 1
        there.append(a)

    def holds(h, a):
        need: dict = {}
        for f in range(len(fs)):
            for q in range(h[f]):
                need[place_class(f, q)] = need.get(place_class(f, q), 0) + 1
        return all(v <= a.get(key, 0) for key, v in need.items())

    @lru_cache(None)
    def splits(i, h):
        if i == len(order):
            return True
        c = order[i]
        j = (cards.rank(c) - b) % ranks
        for f in range(len(fs)):
            if h[f] <= j and place_class(f, j) == card_class(c):
                h2 = h[:f] + (j + 1,) + h[f + 1:]
                if holds(h2, there[i]) and splits(i + 1, h2):
                    return True
        return False

    return not splits(0, tuple(len(p) for p in pos.foundations))


def main(variant: str, games: str) -> None:
    rules = make_rules(variant)
    e, ad = engine_for(rules), adapter_for(rules)
    n = {"pairs": 0, "exact": 0, "reserve tests": 0, "deals lost (exact)": 0}
    for g in parse_games(games, rules):
        pos = e.initial_position(pysolfc_deal(rules, g).layout)
        fired = []
        for m in e.legal_moves(pos):
            p = e.play(pos, m)
            st, _ = kernel_state(ad, p)
            old = bool(k.reserve_blocked(ad.cfg, st.piles, st.lens, st.scal)
                       or k.reserve_order(ad.cfg, st.piles, st.lens, st.scal))
            ex = exact_lost(e, p)
            assert ex or not old, (g, m)
            n["pairs"] += 1
            n["exact"] += ex
            n["reserve tests"] += old
            fired.append(ex)
        n["deals lost (exact)"] += all(fired)
    print(variant, games, n)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
