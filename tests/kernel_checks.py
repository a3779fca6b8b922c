"""Checks every family kernel must pass, shared by the per-family kernel tests: verdicts
equal the exhaustive oracle's on random miniature deals, move generation equals the
reference engine's position by position, and the incremental hash equals a full one."""

import random

import numpy as np

from solver.engine import engine_for
from solver.miniature import random_miniature_deal
from solver.oracle import exhaustive_search
from solver.replay import replay
from solver.search import FAMILY_CODES, _gen, _make, _undo
from solver.solve import Budget, adapter_for, kernel_state, solve

MINI_BUDGET = Budget(nodes=5_000_000, memory=1 << 24)
PLAIN_BUDGET = Budget(nodes=5_000_000, memory=1 << 24, restarts=False)


def cross_check(variant: str, n_deals: int, seed: int, dominance=(), budget: Budget = MINI_BUDGET,
                options=None, small: bool = False, max_states: int = 300_000) -> dict:
    """Kernel verdicts equal the oracle's on ``n_deals`` random miniature deals of
    ``variant`` (every option varied; the smaller shapes with ``small``); every won
    replays. Deals the oracle cannot finish within ``max_states`` are skipped and counted.
    Returns the verdict counts."""
    rng = random.Random(seed)
    counts = {"won": 0, "lost": 0, "skipped": 0}
    for i in range(n_deals):
        deal = random_miniature_deal(variant, rng, options, vary=True, small=small)
        e = engine_for(deal.rules)
        want = exhaustive_search(e, e.initial_position(deal.layout), max_states=max_states)
        if want.verdict == "unknown":
            counts["skipped"] += 1
            continue
        got = solve(deal, budget, dominance)
        assert got.verdict == want.verdict, (i, deal.rules.describe(), deal.source, got.verdict, want.verdict)
        if got.verdict == "won":
            assert replay(deal, got.moves).ok
        counts[got.verdict] += 1
    return counts


def moves_agree(variant: str, seed: int, games: int = 40, steps: int = 60) -> int:
    """Along random games, the kernel's legal moves equal the reference engine's; returns
    the number of positions compared."""
    rng = random.Random(seed)
    compared = 0
    buf = np.zeros(4096, np.int32)
    for _ in range(games):
        deal = random_miniature_deal(variant, rng, vary=True)
        e = engine_for(deal.rules)
        ad = adapter_for(deal.rules)
        fam = FAMILY_CODES[deal.rules.family]
        pos = e.initial_position(deal.layout)
        for _ in range(steps):
            piles, lens, fnd, scal, h, zp, zf, zs = kernel_state(ad, pos)
            n = _gen(fam, ad.cfg, piles, lens, fnd, scal, buf, 0)
            kernel_moves = sorted(str(ad.to_move(int(m))) for m in buf[:n])
            ref = sorted(str(m.__class__(m.kind, m.src, m.dst, -1)) for m in e.legal_moves(pos))
            assert kernel_moves == ref, (deal.rules.describe(), pos)
            compared += 1
            legal = e.legal_moves(pos)
            if not legal:
                break
            pos = e.play(pos, rng.choice(legal))
    return compared


def incremental_hash_holds(deal, seed: int = 5, steps: int = 300, dominance=()) -> int:
    """Random make/undo walk: the incremental hash always equals a full rehash, and undo
    restores the arrays. Returns the number of moves made."""
    from solver.state import full_hash
    ad = adapter_for(deal.rules, dominance)
    fam = FAMILY_CODES[deal.rules.family]
    e = engine_for(deal.rules)
    piles, lens, fnd, scal, h, zp, zf, zs = kernel_state(ad, e.initial_position(deal.layout))
    h2 = np.zeros(2, np.uint64)
    rng = random.Random(seed)
    buf = np.zeros(4096, np.int32)
    made = 0
    for _ in range(steps):
        n = _gen(fam, ad.cfg, piles, lens, fnd, scal, buf, 0)
        if n == 0:
            break
        m = buf[rng.randrange(n)]
        before = (piles.copy(), lens.copy(), fnd.copy(), scal.copy())
        info = _make(fam, ad.cfg, piles, lens, fnd, scal, h, zp, zf, zs, m)
        made += 1
        full_hash(piles, lens, fnd, scal, zp, zf, zs, h2)
        assert (h == h2).all()
        if rng.random() < 0.3:
            _undo(fam, ad.cfg, piles, lens, fnd, scal, h, zp, zf, zs, m, info)
            full_hash(piles, lens, fnd, scal, zp, zf, zs, h2)
            assert (h == h2).all()
            assert (lens == before[1]).all() and (fnd == before[2]).all() and (scal == before[3]).all()
            for p in range(len(lens)):
                assert (piles[p, :lens[p]] == before[0][p, :lens[p]]).all()
    return made
