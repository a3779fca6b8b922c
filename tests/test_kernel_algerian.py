"""The Algerian kernel against the exhaustive oracle, budgets, and full-size deals."""

import random

import numpy as np
import pytest

from solver.engine import engine_for
from solver.formats import pysolfc_deal
from solver.miniature import random_miniature_deal
from solver.oracle import exhaustive_search
from solver.replay import replay
from solver.solve import DOMINANCE_RULES, Budget, solve
from solver.variants import make_rules

MINI_BUDGET = Budget(nodes=5_000_000, memory=1 << 24)
PLAIN_BUDGET = Budget(nodes=5_000_000, memory=1 << 24, restarts=False)
HARD = 91     # the game of 1-2000 that needs the most nodes (about 760,000 with restarts)


def cross_check(n_deals: int, seed: int, dominance=(), budget: Budget = MINI_BUDGET) -> dict:
    """Kernel verdicts equal the oracle's on ``n_deals`` random miniature deals (all
    options varied); every won replays. Returns the verdict counts."""
    rng = random.Random(seed)
    counts = {"won": 0, "lost": 0, "skipped": 0}
    for i in range(n_deals):
        deal = random_miniature_deal("algerian", rng, vary=True)
        e = engine_for(deal.rules)
        want = exhaustive_search(e, e.initial_position(deal.layout), max_states=300_000)
        if want.verdict == "unknown":
            counts["skipped"] += 1
            continue
        got = solve(deal, budget, dominance)
        assert got.verdict == want.verdict, (i, deal.rules.describe(), deal.source, got.verdict, want.verdict)
        if got.verdict == "won":
            assert replay(deal, got.moves).ok
        counts[got.verdict] += 1
    return counts


def test_kernel_matches_oracle_on_2000_miniature_deals():
    counts = cross_check(2000, seed=1)
    assert counts["won"] > 100 and counts["lost"] > 100, counts


def test_plain_order_matches_oracle_on_1000_miniature_deals():
    counts = cross_check(1000, seed=2, budget=PLAIN_BUDGET)
    assert counts["won"] > 50 and counts["lost"] > 50, counts


def test_restart_schedule():
    from solver.solve import RESTART_FIRST, win_first_schedule
    sched = list(win_first_schedule(2_000_000))
    assert sum(n for _, n in sched) == 2_000_000
    assert sched[0] == (0, RESTART_FIRST)                     # the plain order first
    assert len({s for s, _ in sched}) == len(sched)           # a fresh order each time
    assert all(b[1] > a[1] for a, b in zip(sched, sched[1:]))
    assert list(win_first_schedule(100)) == [(0, 100)]


def test_restarts_win_where_the_plain_order_is_stuck():
    """Game 1 holds the plain order for millions of nodes; restarts win it quickly."""
    deal = pysolfc_deal(make_rules("algerian"), 1)
    plain = solve(deal, Budget(nodes=300_000, restarts=False))
    assert (plain.verdict, plain.reason) == ("unknown", "nodes")
    r = solve(deal, Budget(nodes=300_000))
    assert r.verdict == "won" and r.nodes < 300_000 and r.attempts > 1
    assert replay(deal, r.moves).ok


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(4))
def test_kernel_matches_oracle_on_100000_miniature_deals(chunk):
    """100,000 deals in four chunks of 25,000 (run them in parallel: -k 'chunk' with xdist
    or one pytest per chunk)."""
    counts = cross_check(25_000, seed=100 + chunk)
    assert counts["won"] > 1000 and counts["lost"] > 1000, counts


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(DOMINANCE_RULES["algerian"]))
def test_dominance_rule_keeps_verdicts_on_20000_deals(name):
    cross_check(20_000, seed=200, dominance=(name,))


@pytest.mark.parametrize("name", sorted(DOMINANCE_RULES["algerian"]))
def test_dominance_rule_keeps_verdicts(name):
    cross_check(1000, seed=3, dominance=(name,))


@pytest.mark.parametrize("layout", ["A", "B", "C"])
def test_full_size_deals_with_certified_lines(layout):
    won = 0
    for n in range(1, 30):
        r = solve(pysolfc_deal(make_rules("algerian", {"layout": layout}), n), Budget(nodes=300_000, memory=1 << 24))
        if r.verdict == "won":
            won += 1
            assert replay(pysolfc_deal(make_rules("algerian", {"layout": layout}), n), r.moves).ok
        assert r.verdict in ("won", "unknown")
    assert won >= 3


def test_node_budget_gives_unknown_nodes():
    r = solve(pysolfc_deal(make_rules("algerian"), HARD), Budget(nodes=1000))
    assert (r.verdict, r.reason) == ("unknown", "nodes") and r.nodes == 1000


def test_tiny_memory_gives_unknown_memory():
    r = solve(pysolfc_deal(make_rules("algerian"), HARD), Budget(nodes=10_000_000, memory=1024))
    assert (r.verdict, r.reason) == ("unknown", "memory")
    assert r.states <= 48


def test_time_limit_gives_unknown_time():
    r = solve(pysolfc_deal(make_rules("algerian"), HARD), Budget(nodes=10 ** 12, seconds=0.01))
    assert (r.verdict, r.reason) == ("unknown", "time")


def test_incremental_hash_equals_full_hash():
    from solver.algerian import kernel as k
    from solver.solve import _zobrist
    from solver.state import full_hash
    rules = make_rules("algerian", {"ranks": 5, "suits": 2, "reserves": 2, "reserve_size": 2, "tableau_piles": 3,
                                    "foundation_to_tableau": True, "empty_reserve_as_cell": "from_anywhere"})
    deal = pysolfc_deal(rules, 77)
    e = engine_for(rules)
    pos = e.initial_position(deal.layout)
    cfg = k.make_cfg(rules)
    npl, maxh, nf = k.n_piles(rules), 20, 4
    piles = np.zeros((npl, maxh), np.int8); lens = np.zeros(npl, np.int32); fnd = np.zeros(nf, np.int32)
    scal = np.zeros(4, np.int64)
    k.load_position(rules, pos, piles, lens, fnd)
    zp, zf, zs = _zobrist(npl, maxh, nf, 5)
    h = np.zeros(2, np.uint64); h2 = np.zeros(2, np.uint64)
    full_hash(piles, lens, fnd, scal, zp, zf, zs, h)
    rng = random.Random(5)
    buf = np.zeros(4096, np.int32)
    for _ in range(300):
        n = k.gen_moves(cfg, piles, lens, fnd, buf, 0)
        if n == 0:
            break
        m = buf[rng.randrange(n)]
        info = k.make_move(cfg, piles, lens, fnd, h, zp, zf, m)
        full_hash(piles, lens, fnd, scal, zp, zf, zs, h2)
        assert (h == h2).all()
        if rng.random() < 0.3:
            k.undo_move(cfg, piles, lens, fnd, h, zp, zf, m, info)
            full_hash(piles, lens, fnd, scal, zp, zf, zs, h2)
            assert (h == h2).all()


def test_kernel_moves_equal_reference_moves_along_random_games():
    """Move generation agrees with the reference engine position by position."""
    from solver.algerian import kernel as k
    from solver.solve import adapter_for
    rng = random.Random(9)
    for _ in range(40):
        deal = random_miniature_deal("algerian", rng, vary=True)
        e = engine_for(deal.rules)
        ad = adapter_for(deal.rules)
        pos = e.initial_position(deal.layout)
        for _ in range(60):
            piles = np.zeros((ad.np, ad.maxh), np.int8); lens = np.zeros(ad.np, np.int32)
            fnd = np.zeros(ad.nf, np.int32)
            ad.load(pos, piles, lens, fnd)
            buf = np.zeros(4096, np.int32)
            n = k.gen_moves(ad.cfg, piles, lens, fnd, buf, 0)
            kernel_moves = sorted(str(ad.to_move(int(m))) for m in buf[:n])
            ref = sorted(str(m.__class__(m.kind, m.src, m.dst, -1)) for m in e.legal_moves(pos))
            assert kernel_moves == ref, deal.rules.describe()
            legal = e.legal_moves(pos)
            if not legal:
                break
            pos = e.play(pos, rng.choice(legal))
