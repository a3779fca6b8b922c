"""Beam search for wins in the Alhambra family (an experiment for issue 19).

The depth-first search with restarts wins its Reinforcements deals within a few thousand
nodes or not at all (benchmarks/notes/reinforcements-searches-for-wins.md). This asks whether the deals it leaves unknown
are won by lines it never reaches: a beam over the kernel's own moves (every dominance
rule on, so dead states have no moves), keeping the ``width`` best states of each depth by
a heuristic score, distinct by key. A line that wins is certified on the reference engine;
a beam that empties proves nothing. The beam and its score are now the solver's
(``solver.beam``, ``solver.alhambra.beam_order``); here the weights can be varied, and
``--by-deals`` runs a variant that compares states only with states that dealt as often.

    PYTHONPATH=. python benchmarks/attic/beam_search.py --variant reinforcements --games 1-20 --width 2000

``--weights`` (repeatable: a whole weight vector, ``beam_order.score``'s order),
``--plan K0-K1`` (the solver plan's beams K0..K1, ``beam_order.weighting``) and
``--nested NOISE:K`` (repeatable: a level-2 nested search, ``solver.nested``, with
weighting K) run every one of those searches on every game and count the wins of each and
of any; ``--games`` also takes
a list (``1,2,5-9``) or ``unknown:A-B``, the games of A..B that the published table
(``results/records.csv.gz``) leaves unknown.
"""
from __future__ import annotations

import argparse
import time

import numpy as np
from numba import njit

from benchmarks.games import parse_games
from solver.alhambra import beam_order
from solver.alhambra.beam_order import W_BLOCK, W_HOME, W_LEFT
from solver.alhambra.kernel import gen_moves, is_won, make_move, undo_move
from solver.beam import _insert, _load, _store, beam
from solver.driver import WIN_SEARCHES
from solver.driver import _expand, adapter_for, certify, expand_dominance, kernel_state
from solver.engine import engine_for
from solver.formats import pysolfc_deal
from solver.toolkit import K_CARD, kind_of
from solver.variants import make_rules, parse_rule_assignments

MAXB = 64   # moves of one state at most


@njit(cache=True)
def score(cfg, state, w_home, w_block, w_stock):
    w = np.zeros(3)
    w[W_HOME], w[W_BLOCK], w[W_LEFT] = w_home, w_block, w_stock
    return beam_order.score(cfg, state, w)


def _depth_beam(ad, pos, width, w_home, w_block, w_stock, seed):
    """The solver's beam (``solver.beam``) with these weights."""
    state, keys = kernel_state(ad, pos)
    w = np.zeros(3)
    w[W_HOME], w[W_BLOCK], w[W_LEFT] = w_home, w_block, w_stock
    ok, path, _, best = beam(ad.kernel, ad.cfg, state, keys, width, beam_order.BEAM_NOISE, w, seed)
    return ok, path, best


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--variant", default="reinforcements")
    ap.add_argument("--games", default="1-10")
    ap.add_argument("--width", type=int, default=1000)
    ap.add_argument("--rule", action="append", default=[])
    ap.add_argument("--w-home", type=float, default=10.0)
    ap.add_argument("--w-block", type=float, default=3.0)
    ap.add_argument("--w-stock", type=float, default=0.0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--by-deals", action="store_true", help="the beam over deals")
    ap.add_argument("--portfolio", default="", help="w_stock:w_block,... tried in turn until one wins")
    ap.add_argument("--weights", action="append", default=[], help="a whole weight vector, comma-separated")
    ap.add_argument("--plan", default="", help="K0-K1: the solver plan's beams K0..K1")
    ap.add_argument("--nested", action="append", default=[],
                    help="NOISE:K (repeatable): a level-2 nested search with weighting K")
    a = ap.parse_args()
    rules = make_rules(a.variant, parse_rule_assignments(a.rule))
    games = parse_games(a.games, rules)
    ad = adapter_for(rules, expand_dominance(rules, ["all"]))
    if a.weights or a.plan or a.nested:
        searches = [("beam", a.width, beam_order.BEAM_NOISE, np.array([float(x) for x in w.split(",")]))
                    for w in a.weights]
        if a.plan:
            k0, k1 = map(int, a.plan.split("-"))
            searches += [("beam", a.width, beam_order.BEAM_NOISE, beam_order.weighting(k)) for k in range(k0, k1 + 1)]
        for spec in a.nested:
            noise, k = spec.split(":")
            searches.append(("nested", 2, float(noise), beam_order.weighting(int(k))))
        _every_search(ad, rules, games, searches, a.seed)
        return
    won = 0
    for g in games:
        deal = pysolfc_deal(rules, g)
        pos = engine_for(rules).initial_position(deal.layout)
        state, keys = kernel_state(ad, pos)
        t0 = time.perf_counter()
        if a.portfolio:
            ok = 0
            for k, pair in enumerate(a.portfolio.split(",")):
                ws, wb = map(float, pair.split(":"))
                ok, path, best = _depth_beam(ad, pos, a.width, a.w_home, wb, ws, a.seed)
                depth = len(path)
                if ok:
                    print(f"game {g}: config {k} ({pair}) won", flush=True)
                    break
        elif a.by_deals:
            ok, depth, path, best, _ = beam_deals(ad.cfg, state, keys, a.width, a.w_home, a.w_block, a.w_stock,
                                                  a.seed, 50_000_000)
        else:
            ok, path, best = _depth_beam(ad, pos, a.width, a.w_home, a.w_block, a.w_stock, a.seed)
            depth = len(path)
        dt = time.perf_counter() - t0
        verdict = "no win"
        if ok:
            line = [int(m) for m in path[:depth]]
            moves = certify(deal, _expand(ad, pos, line))
            verdict = f"WON ({len(moves)} moves, certified)"
            won += 1
        print(f"game {g}: {verdict}; best home {best}, depth {depth}, {dt:.1f} s", flush=True)
    print(f"{won} won of {len(games)}")


def _every_search(ad, rules, games, searches, seed) -> None:
    """Every search on every game: which won each game, and the wins of each and of any."""
    wins = [0] * len(searches)
    any_won = 0
    for g in games:
        deal = pysolfc_deal(rules, g)
        pos = engine_for(rules).initial_position(deal.layout)
        state, keys = kernel_state(ad, pos)
        t0 = time.perf_counter()
        got = []
        for i, (name, size, noise, w) in enumerate(searches):
            ok, path, _, _ = WIN_SEARCHES[name](ad.kernel, ad.cfg, state, keys, size, noise, w, seed)
            if ok:
                certify(deal, _expand(ad, pos, [int(m) for m in path]))
                wins[i] += 1
                got.append(i)
        any_won += bool(got)
        print(f"game {g}: won by searches {got} ({time.perf_counter() - t0:.0f} s)", flush=True)
    print("wins per search:", wins, f"any: {any_won} of {len(games)}")



# ----- a beam over deals: states compared only with states that dealt as often ----------

@njit(cache=True)
def _compact(P, L, F, S, H, ids, sc, n, width):
    """Keep the ``width`` best of the ``n`` pool states at the front; return how many."""
    if n <= width:
        return n
    order = np.argsort(-sc[:n])[:width]
    P[:width] = P[order]
    L[:width] = L[order]
    F[:width] = F[order]
    S[:width] = S[order]
    H[:width] = H[order]
    ids[:width] = ids[order]
    sc[:width] = sc[order]
    return width


@njit(cache=True)
def beam_deals(cfg, state, keys, width, w_home, w_block, w_stock, seed, log_cap):
    """Each level: every state reachable from the level's states by card moves (a beam of
    ``width`` per card move), of which the ``width`` best deal (or redeal) into the next
    level. Returns (won, path length, path, most home, levels)."""
    np.random.seed(seed)
    NP, MH = state.piles.shape
    NF = state.fnd.shape[0]
    NS = state.scal.shape[0]

    def arrays(k):
        return (np.zeros((k, NP, MH), dtype=np.int8), np.zeros((k, NP), dtype=np.int32),
                np.zeros((k, NF), dtype=np.int32), np.zeros((k, NS), dtype=np.int64),
                np.zeros((k, 2), dtype=np.uint64), np.zeros(k, dtype=np.int64))
    FP, FL, FF, FS, FH, FI = arrays(width)          # the frontier (and a level's start)
    GP, GL, GF, GS, GH, GI = arrays(width)          # the next frontier
    PP, PL, PF, PS, PH, PI = arrays(2 * width)      # the pool of states to deal from
    psc = np.zeros(2 * width, dtype=np.float64)
    cs = np.zeros(width * MAXB, dtype=np.float64)
    cp = np.zeros(width * MAXB, dtype=np.int32)
    cm = np.zeros(width * MAXB, dtype=np.int32)
    ch = np.zeros(width * MAXB, dtype=np.uint64)
    moves = np.zeros(MAXB, dtype=np.int32)
    logpar = np.full(log_cap, -1, dtype=np.int64)
    logmov = np.zeros(log_cap, dtype=np.int32)
    nlog = 1                                         # node 0: the root
    tsize = 1
    while tsize < 128 * width:
        tsize *= 2
    seen = np.zeros(tsize, dtype=np.uint64)
    path = np.full(2000, -1, dtype=np.int32)
    _store(state, FP, FL, FF, FS, FH, 0)
    FI[0] = 0
    nf = 1
    best_home = 0
    level = 0
    while nf > 0:
        level += 1
        seen[:] = 0
        for i in range(nf):
            _insert(seen, FH[i, 0] | np.uint64(1))
        npool = 0
        sub = 0
        while nf > 0 and sub < 60:
            sub += 1
            nc = 0
            for i in range(nf):
                _load(state, FP, FL, FF, FS, FH, i)
                k = gen_moves(cfg, state, moves, 0, -1)
                if k == 0:
                    continue                         # dead or finished without a win
                sc = score(cfg, state, w_home, w_block, w_stock)
                if npool == 2 * width:
                    npool = _compact(PP, PL, PF, PS, PH, PI, psc, npool, width)
                _store(state, PP, PL, PF, PS, PH, npool)
                PI[npool] = FI[i]
                psc[npool] = sc + np.random.random() * 0.5
                npool += 1
                for j in range(k):
                    m = moves[j]
                    if kind_of(m) != K_CARD:
                        continue
                    info = make_move(cfg, state, keys, m)
                    if is_won(cfg, state):
                        n = 0
                        path[n] = m
                        n += 1
                        node = FI[i]
                        while node > 0:
                            path[n] = logmov[node]
                            n += 1
                            node = logpar[node]
                        path[:n] = path[:n][::-1].copy()
                        return 1, n, path, 104, level
                    hq = state.h[0] | np.uint64(1)
                    cs[nc] = score(cfg, state, w_home, w_block, w_stock) + np.random.random() * 0.5
                    cp[nc] = i
                    cm[nc] = m
                    ch[nc] = hq
                    nc += 1
                    undo_move(cfg, state, keys, m, info)
            order = np.argsort(-cs[:nc])
            ng = 0
            for t in range(nc):
                q = order[t]
                if not _insert(seen, ch[q]):
                    continue
                i = cp[q]
                _load(state, FP, FL, FF, FS, FH, i)
                make_move(cfg, state, keys, cm[q])
                _store(state, GP, GL, GF, GS, GH, ng)
                if nlog >= log_cap:
                    return 0, 0, path, best_home, -level
                logpar[nlog] = FI[i]
                logmov[nlog] = cm[q]
                GI[ng] = nlog
                nlog += 1
                ng += 1
                if ng == width:
                    break
            FP, GP = GP, FP
            FL, GL = GL, FL
            FF, GF = GF, FF
            FS, GS = GS, FS
            FH, GH = GH, FH
            FI, GI = GI, FI
            nf = ng
        npool = _compact(PP, PL, PF, PS, PH, PI, psc, npool, width)
        # every pool state deals (or redeals) into the next level
        seen[:] = 0
        nf = 0
        for i in range(npool):
            _load(state, PP, PL, PF, PS, PH, i)
            h = 0
            for f in range(NF):
                h += state.fnd[f]
            if h > best_home:
                best_home = h
            k = gen_moves(cfg, state, moves, 0, -1)
            for j in range(k):
                m = moves[j]
                if kind_of(m) == K_CARD:
                    continue
                make_move(cfg, state, keys, m)
                if _insert(seen, state.h[0] | np.uint64(1)):
                    if nlog >= log_cap:
                        return 0, 0, path, best_home, -level
                    _store(state, FP, FL, FF, FS, FH, nf)
                    logpar[nlog] = PI[i]
                    logmov[nlog] = m
                    FI[nf] = nlog
                    nlog += 1
                    nf += 1
                break
    return 0, 0, path, best_home, level


if __name__ == "__main__":
    main()
