"""Is the "tops" relaxation of General's Patience small enough to search exhaustively, and
lost where the reserve tests are not?

The relaxation keeps the reserve, the stock's order, the waste's LIFO order and the
foundations, and keeps of each tableau pile only its top (or a gap, which takes any card):
a card that leaves a top turns the pile into a gap, and the cards under a top are a free
pool, home when they fit or back onto a top that takes them. Every move of the game maps
to one of these (a pile's next card is in the pool; a gap takes what it would), so a lost
relaxation would prove the position lost. Gap fills and deals become optional.

Modes: ``full VARIANT GAMES CAP`` runs it on each base choice that the reserve tests leave
alive, at most CAP relaxed states each; ``mini N CAP`` on General's Patience miniature
deals (ranks 5, reserve 4, two piles) against the oracle.

    PYTHONPATH=. python benchmarks/attic/terrace_tops_relaxation.py full generals-patience 12,2,14 300000
    PYTHONPATH=. python benchmarks/attic/terrace_tops_relaxation.py mini 150 200000
"""

import random
import sys
import time

from benchmarks.games import parse_games
from solver import cards
from solver.adapter import adapter_for, kernel_state
from solver.engine import engine_for
from solver.formats import pysolfc_deal
from solver.miniature import random_miniature_deal
from solver.oracle import exhaustive_search
from solver.terrace import kernel as k
from solver.terrace.layout import base_rank
from solver.variants import make_rules

sys.setrecursionlimit(100000)


class Out(Exception):
    """The relaxed search reached its cap."""


def relaxed(engine, pos, cap):
    b = base_rank(pos)
    ranks = engine.ranks; ss = engine.rules["found_build"] == "SS"; fs = engine.fsuits
    tss = engine.rules["tableau_build"] == "SS"
    nf = len(fs)
    reserve = tuple(pos.reserves[0])            # bottom -> top
    stock = tuple(pos.stock)                      # stock[0] is dealt next
    def place(c): return (cards.rank(c) - b) % ranks
    def fits_f(f, h, c):
        j = place(c)
        if h != j: return False
        tag = fs[f]
        if ss or j == 0: return cards.suit(c) == tag
        return cards.colour(c) == (tag // 2) ^ (j & 1)
    def builds(c, t):        # c onto tableau top t
        if t < 0: return True
        if cards.rank(c) % ranks + 1 != cards.rank(t):
            return False
        return (cards.suit(c) == cards.suit(t)) if tss else cards.colour(c) != cards.colour(t)
    seen = set()
    count = [0]
    def canon(r, s, w, slots, pool, fnd):
        return (r, s, w, tuple(sorted(slots)), tuple(sorted(pool)), fnd)
    def home(fnd, c):
        for f in range(nf):
            if fits_f(f, fnd[f], c):
                return fnd[:f] + (fnd[f] + 1,) + fnd[f + 1:]
        return None     # (two same-type foundations at the same height are symmetric)
    def go(r, s, w, slots, pool, fnd):
        if sum(fnd) == total:
            return True
        key = canon(r, s, w, slots, pool, fnd)
        if key in seen: return False
        seen.add(key)
        count[0] += 1
        if count[0] > cap: raise Out
        # reserve top home
        if r < len(reserve):
            c = reserve[len(reserve) - 1 - r]
            f2 = home(fnd, c)
            if f2 and go(r + 1, s, w, slots, pool, f2): return True
        # pool home
        for c in set(pool):
            f2 = home(fnd, c)
            if f2:
                p2 = list(pool); p2.remove(c)
                if go(r, s, w, slots, tuple(p2), f2): return True
        # slot top home / onto another top
        for i, c in enumerate(slots):
            if c < 0: continue
            f2 = home(fnd, c)
            sl = list(slots); sl[i] = -1
            if f2 and go(r, s, w, tuple(sl), pool, f2): return True
            for k, t in enumerate(slots):
                if k != i and t >= 0 and builds(c, t):
                    sl2 = list(sl); sl2[k] = c
                    if go(r, s, w, tuple(sl2), pool + (t,), fnd): return True
        # pool onto a top
        for c in set(pool):
            for k, t in enumerate(slots):
                if t >= 0 and builds(c, t):
                    p2 = list(pool); p2.remove(c); p2.append(t)
                    sl = list(slots); sl[k] = c
                    if go(r, s, w, tuple(sl), tuple(p2), fnd): return True
        # waste top
        if w:
            c = w[-1]
            f2 = home(fnd, c)
            if f2 and go(r, s, w[:-1], slots, pool, f2): return True
            done_wild = False
            for k, t in enumerate(slots):
                if t < 0:
                    if done_wild: continue
                    done_wild = True
                    sl = list(slots); sl[k] = c
                    if go(r, s, w[:-1], tuple(sl), pool, fnd): return True
                elif builds(c, t):
                    sl = list(slots); sl[k] = c
                    if go(r, s, w[:-1], tuple(sl), pool + (t,), fnd): return True
        if s < len(stock):
            if go(r, s + 1, w + (stock[s],), slots, pool, fnd): return True
        return False
    total = sum(len(p) for p in pos.reserves + pos.tableau + pos.waste + pos.foundations) + len(pos.stock)
    slots = []
    pool = []
    for p in pos.tableau:
        if p:
            slots.append(p[-1]); pool.extend(p[:-1])
        else:
            slots.append(-1)
    fnd = tuple(len(p) for p in pos.foundations)
    try:
        res = go(0, 0, tuple(pos.waste[0]) if pos.waste else (), tuple(slots), tuple(pool), fnd)
    except Out:
        return None, count[0]
    return ("won" if res else "lost"), count[0]


def reserve_tests(ad, p) -> bool:
    st, _ = kernel_state(ad, p)
    return bool(k.reserve_blocked(ad.cfg, st.piles, st.lens, st.scal)
                or k.reserve_order(ad.cfg, st.piles, st.lens, st.scal))


def full(variant: str, games: str, cap: int) -> None:
    rules = make_rules(variant)
    e, ad = engine_for(rules), adapter_for(rules)
    for g in parse_games(games, rules):
        pos = e.initial_position(pysolfc_deal(rules, g).layout)
        out = []
        for m in e.legal_moves(pos):
            p = e.play(pos, m)
            if reserve_tests(ad, p):
                out.append("reserve tests")
                continue
            t = time.time()
            v, n = relaxed(e, p, cap)
            out.append(f"{v or 'unknown'} after {n} states, {time.time() - t:.1f} s")
        print(g, out, flush=True)


def mini(n: int, cap: int) -> None:
    opts = {"ranks": 5, "suits": 2, "reserve_size": 4, "tableau_piles": 2, "base_choices": 2}
    rng = random.Random(5)
    s = dict(won=0, lost=0, lost_by_reserve_tests=0, lost_by_tops=0, tops_lost_on_won=0, tops_unknown_pairs=0)
    for _ in range(n):
        deal = random_miniature_deal("generals-patience", rng, opts)
        e, ad = engine_for(deal.rules), adapter_for(deal.rules)
        pos = e.initial_position(deal.layout)
        v = exhaustive_search(e, pos, max_states=200_000).verdict
        if v not in ("won", "lost"):
            continue
        s[v] += 1
        rs, ts = [], []
        for m in e.legal_moves(pos):
            p = e.play(pos, m)
            rs.append(reserve_tests(ad, p))
            tv, _ = relaxed(e, p, cap)
            ts.append(tv == "lost")
            s["tops_unknown_pairs"] += tv is None
        s["tops_lost_on_won"] += v == "won" and all(ts)
        if v == "lost":
            s["lost_by_reserve_tests"] += all(rs)
            s["lost_by_tops"] += all(ts)
    print(s)


if __name__ == "__main__":
    if sys.argv[1] == "full":
        full(sys.argv[2], sys.argv[3], int(sys.argv[4]))
    else:
        mini(int(sys.argv[2]), int(sys.argv[3]))
