"""Nested rollout policy adaptation (NRPA) for wins in The Reinforcements (an experiment for
issue 19).

Nested Monte Carlo search (``solver.nested``) follows one greedy score; NRPA instead learns,
deal by deal, a policy over move *codes* (here: the card moved, where to, and in which
pass; a deal by the card it deals): playouts pick moves with probability proportional to
``exp(policy[code] + bias * score_gain)``, and each level moves the policy towards the best
line found so far (Rosin 2011; the bias as in Cazenave's generalized NRPA). A line that
wins is certified on the reference engine; no win proves nothing.

    PYTHONPATH=. python benchmarks/attic/nrpa.py --games 1,2,4 --level 2 --iters 100
"""
from __future__ import annotations

import argparse
import time

import numpy as np
from numba import njit

from solver.alhambra import beam_order
from solver.alhambra.kernel import S_REDEALS, beam_score, gen_moves, is_won, make_move, undo_move
from solver.alhambra.slots import C_NRES, C_STOCK
from solver.beam import _home
from solver.driver import _expand, adapter_for, certify, expand_dominance, kernel_state
from solver.engine import engine_for
from solver.formats import pysolfc_deal
from solver.toolkit import K_DEAL, K_REDEAL, PILE0, C_SUITS, dst_of, kind_of, src_of
from solver.variants import make_rules

MAX_LINE = 1000
MAXM = 64                      # moves of one state at most
CATS = 5                       # reserve->up, reserve->down, waste->up, waste->down, build
N_CODES = 3 * 52 * CATS + 3 * 52 + 3 + 8
MAX_LEVEL = 4


@njit(cache=True)
def move_code(cfg, state, m, by_pass):
    p = state.scal[S_REDEALS] if by_pass else 0
    kind = kind_of(m)
    if kind == K_DEAL:
        st = cfg[C_STOCK]
        c = state.piles[st, state.lens[st] - 1]
        return 3 * 52 * CATS + p * 52 + c
    if kind == K_REDEAL:
        return 3 * 52 * CATS + 3 * 52 + p
    src = src_of(m) - PILE0
    dst = dst_of(m)
    c = state.piles[src, state.lens[src] - 1]
    if dst < PILE0:
        cat = (1 if dst >= cfg[C_SUITS] else 0) + (2 if src >= cfg[C_NRES] else 0)
    else:
        cat = 4
    return (p * 52 + c) * CATS + cat


@njit(cache=True)
def _options(cfg, state, keys, moves, k, weights, bias, by_pass, legal, gains):
    """The codes of ``moves[:k]`` into ``legal`` and, with a bias, each move's gain in the
    beam's score into ``gains``."""
    base = beam_score(cfg, state, weights) if bias != 0.0 else 0.0
    for j in range(k):
        legal[j] = move_code(cfg, state, moves[j], by_pass)
        gains[j] = 0.0
        if bias != 0.0:
            info = make_move(cfg, state, keys, moves[j])
            gains[j] = beam_score(cfg, state, weights) - base
            undo_move(cfg, state, keys, moves[j], info)


@njit(cache=True)
def playout(cfg, state, keys, pol, weights, bias, by_pass, line, codes, ncodes, legal, gains, moves):
    """A playout from ``state`` (left as it came). Fills ``line`` (moves), ``codes`` (the
    chosen move's code), and per step ``legal``/``gains`` (every legal move's code and
    score gain) with ``ncodes`` their count. Returns (score, length, won)."""
    infos = np.zeros(MAX_LINE, dtype=np.int64)
    w = np.zeros(MAXM)
    n = 0
    while n < MAX_LINE and not is_won(cfg, state):
        k = gen_moves(cfg, state, moves, 0, -1)
        if k == 0:
            break
        if k > MAXM:
            k = MAXM
        _options(cfg, state, keys, moves, k, weights, bias, by_pass, legal[n], gains[n])
        tot = 0.0
        for j in range(k):
            w[j] = np.exp(pol[legal[n, j]] + bias * gains[n, j])
            tot += w[j]
        ncodes[n] = k
        r = np.random.random() * tot
        ch = k - 1
        acc = 0.0
        for j in range(k):
            acc += w[j]
            if r < acc:
                ch = j
                break
        codes[n] = legal[n, ch]
        line[n] = moves[ch]
        infos[n] = make_move(cfg, state, keys, moves[ch])
        n += 1
    won = is_won(cfg, state)
    sc = _home(state) * 1.0 + (1000.0 if won else 0.0)
    for t in range(n - 1, -1, -1):
        undo_move(cfg, state, keys, line[t], infos[t])
    return sc, n, won


@njit(cache=True)
def adapt(pol, bias, alpha, n, codes, ncodes, legal, gains):
    """Move ``pol`` towards the line: its chosen codes up, every legal code down by its
    probability (computed on the policy before the change)."""
    old = pol.copy()
    w = np.zeros(MAXM)
    for t in range(n):
        k = ncodes[t]
        z = 0.0
        for j in range(k):
            w[j] = np.exp(old[legal[t, j]] + bias * gains[t, j])
            z += w[j]
        for j in range(k):
            pol[legal[t, j]] -= alpha * w[j] / z
        pol[codes[t]] += alpha


@njit(cache=True)
def nrpa(cfg, state, keys, level, iters, pol, weights, bias, alpha, by_pass, out_line, count):
    """NRPA of ``level`` from ``state`` with policy ``pol`` (modified). Returns (score, length,
    won); the best line into ``out_line``."""
    moves = np.zeros(256, dtype=np.int32)
    line = np.zeros(MAX_LINE, dtype=np.int32)
    codes = np.zeros(MAX_LINE, dtype=np.int32)
    ncodes = np.zeros(MAX_LINE, dtype=np.int32)
    legal = np.zeros((MAX_LINE, MAXM), dtype=np.int32)
    gains = np.zeros((MAX_LINE, MAXM))
    if level == 0:
        count[0] += 1
        sc, n, won = playout(cfg, state, keys, pol, weights, bias, by_pass, line, codes, ncodes, legal, gains,
                             moves)
        out_line[:n] = line[:n]
        return sc, n, won
    best_sc, best_n, best_won = -1.0, 0, False
    b_line = np.zeros(MAX_LINE, dtype=np.int32)
    b_codes = np.zeros(MAX_LINE, dtype=np.int32)
    b_ncodes = np.zeros(MAX_LINE, dtype=np.int32)
    b_legal = np.zeros((MAX_LINE, MAXM), dtype=np.int32)
    b_gains = np.zeros((MAX_LINE, MAXM))
    for it in range(iters):
        if level == 1:
            count[0] += 1
            sc, n, won = playout(cfg, state, keys, pol, weights, bias, by_pass, line, codes, ncodes, legal, gains,
                                 moves)
            if sc >= best_sc:
                best_sc, best_n, best_won = sc, n, won
                b_line[:n] = line[:n]
                b_codes[:n] = codes[:n]
                b_ncodes[:n] = ncodes[:n]
                b_legal[:n] = legal[:n]
                b_gains[:n] = gains[:n]
        else:
            sub = pol.copy()
            sc, n, won = nrpa(cfg, state, keys, level - 1, iters, sub, weights, bias, alpha, by_pass, line, count)
            if sc >= best_sc:
                best_sc, best_n, best_won = sc, n, won
                b_line[:n] = line[:n]
                # the codes along the best line: replay it to record them
                _record(cfg, state, keys, b_line, n, weights, bias, by_pass, b_codes, b_ncodes, b_legal, b_gains,
                        moves)
        if best_won:
            break
        adapt(pol, bias, alpha, best_n, b_codes, b_ncodes, b_legal, b_gains)
    out_line[:best_n] = b_line[:best_n]
    return best_sc, best_n, best_won


@njit(cache=True)
def _record(cfg, state, keys, line, n, weights, bias, by_pass, codes, ncodes, legal, gains, moves):
    infos = np.zeros(MAX_LINE, dtype=np.int64)
    for t in range(n):
        k = gen_moves(cfg, state, moves, 0, -1)
        if k > MAXM:
            k = MAXM
        _options(cfg, state, keys, moves, k, weights, bias, by_pass, legal[t], gains[t])
        for j in range(k):
            if moves[j] == line[t]:
                codes[t] = legal[t, j]
        ncodes[t] = k
        infos[t] = make_move(cfg, state, keys, line[t])
    for t in range(n - 1, -1, -1):
        undo_move(cfg, state, keys, line[t], infos[t])


@njit(cache=True)
def run(cfg, state, keys, level, iters, weights, bias, alpha, by_pass, seed):
    np.random.seed(seed)
    pol = np.zeros(N_CODES)
    out = np.zeros(MAX_LINE, dtype=np.int32)
    count = np.zeros(1, dtype=np.int64)
    piles, lens, fnd, scal, h = state.piles.copy(), state.lens.copy(), state.fnd.copy(), state.scal.copy(), \
        state.h.copy()
    sc, n, won = nrpa(cfg, state, keys, level, iters, pol, weights, bias, alpha, by_pass, out, count)
    state.piles[:, :] = piles
    state.lens[:] = lens
    state.fnd[:] = fnd
    state.scal[:] = scal
    state.h[:] = h
    return sc, out[:n].copy(), won, count[0]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", required=True)
    ap.add_argument("--level", type=int, default=2)
    ap.add_argument("--iters", type=int, default=100)
    ap.add_argument("--bias", type=float, default=0.0)
    ap.add_argument("--alpha", type=float, default=1.0)
    ap.add_argument("--weighting", type=int, default=0)
    ap.add_argument("--no-pass", action="store_true", help="codes without the pass")
    ap.add_argument("--seeds", default="1")
    a = ap.parse_args()
    rules = make_rules("reinforcements", {})
    ad = adapter_for(rules, expand_dominance(rules, ["all"]))
    engine = engine_for(rules)
    w = beam_order.weighting(a.weighting)
    games = []
    for part in a.games.split(","):
        lo, _, hi = part.partition("-")
        games += list(range(int(lo), int(hi or lo) + 1))
    wins = 0
    for g in games:
        deal = pysolfc_deal(rules, g)
        pos = engine.initial_position(deal.layout)
        state, keys = kernel_state(ad, pos)
        t0 = time.perf_counter()
        res = []
        ok = False
        for seed in map(int, a.seeds.split(",")):
            sc, line, won, cnt = run(ad.cfg, state, keys, a.level, a.iters, w, a.bias, a.alpha, not a.no_pass, seed)
            res.append(f"{int(sc) % 1000}")
            if won:
                certify(deal, _expand(ad, pos, [int(m) for m in line]))
                ok = True
                res[-1] = "WON"
                break
        wins += ok
        print(f"game {g}: {' '.join(res)} ({cnt} playouts, {time.perf_counter() - t0:.1f} s)", flush=True)
    print(f"won {wins} of {len(games)}")


if __name__ == "__main__":
    main()
