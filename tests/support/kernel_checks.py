"""The public conformance suite of the kernel contract (``solver.kernels``): the checks
every family's kernel must pass, through public names only. ``tests/test_conformance.py``
runs them on every registered kernel; the per-family tests run them with more deals and
with each dominance rule.

* ``cross_check``: verdicts equal the exhaustive oracle's on random miniature deals, and
  every won line replays on the reference engine;
* ``moves_agree``: with no dominance rule, the kernel's legal moves equal the reference
  engine's, position by position;
* ``incremental_hash_holds``: the incremental hash equals a full one after every make and
  undo, and undo restores every array;
* ``kernel_perft``: the number of move sequences of each length (the golden counts of
  ``tests/perft/``)."""

import random

import numpy as np

from solver.engine import engine_for
from solver.miniature import random_miniature_deal
from tests.support.oracle_store import oracle_verdicts
from solver.playback import replay
from solver.dispatch import gen_moves, hash_state, make_move, undo_move
from solver.adapter import adapter_for, expand_dominance, kernel_state
from solver.driver import Budget, solve
from solver.variants import make_rules

# Verdict checks: no detour search after a win (tests/test_shorten.py checks that)
MINI_BUDGET = Budget(nodes=5_000_000, memory=1 << 24, shorten=0)
PLAIN_BUDGET = Budget(nodes=5_000_000, memory=1 << 24, restarts=False, shorten=0)


def cross_check(variant: str, n_deals: int, seed: int, dominance=(), budget: Budget = MINI_BUDGET,
                options=None, small: bool = False, max_states: int = 300_000, every_rule: bool = False) -> dict:
    """Kernel verdicts equal the oracle's on ``n_deals`` random miniature deals of
    ``variant`` (every option varied; the smaller shapes with ``small``); every won
    replays. With ``every_rule`` each deal is also solved with every dominance rule its
    rules allow (one oracle search checks both: the oracle is most of the cost). Deals the
    oracle cannot finish within ``max_states`` are skipped and counted. The oracle's verdicts
    are read from ``tests/oracle/`` where stored (``tests.support.oracle_store``). Returns the
    verdict counts (``ruled``: deals also checked with rules on)."""
    counts = {"won": 0, "lost": 0, "skipped": 0, "ruled": 0}
    deals, verdicts = oracle_verdicts(variant, n_deals, seed, options, small, max_states)
    for i, (deal, want) in enumerate(zip(deals, verdicts)):
        if want == "unknown":
            counts["skipped"] += 1
            continue
        got = solve(deal, budget, dominance)
        assert got.verdict == want, (i, deal.rules.describe(), deal.source, got.verdict, want)
        if got.verdict == "won":
            assert replay(deal, got.moves).ok
        counts[got.verdict] += 1
        rules_on = expand_dominance(deal.rules, ("all",)) if every_rule else ()
        if rules_on:
            ruled = solve(deal, budget, rules_on)
            assert ruled.verdict == want, (i, rules_on, deal.rules.describe(), deal.source, ruled.verdict)
            if ruled.verdict == "won":
                assert replay(deal, ruled.moves).ok
            counts["ruled"] += 1
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
        pos = e.initial_position(deal.layout)
        for _ in range(steps):
            state, _keys = kernel_state(ad, pos)
            n = gen_moves(ad.kernel, ad.cfg, state, buf, 0, -1)
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
    ad = adapter_for(deal.rules, dominance)
    e = engine_for(deal.rules)
    state, keys = kernel_state(ad, e.initial_position(deal.layout))
    piles, lens, fnd, scal, h = state.piles, state.lens, state.fnd, state.scal, state.h
    h2 = np.zeros(2, np.uint64)
    rng = random.Random(seed)
    buf = np.zeros(4096, np.int32)
    made = 0
    for _ in range(steps):
        n = gen_moves(ad.kernel, ad.cfg, state, buf, 0, -1)
        if n == 0:
            break
        m = buf[rng.randrange(n)]
        before = (piles.copy(), lens.copy(), fnd.copy(), scal.copy())
        info = make_move(ad.kernel, ad.cfg, state, keys, m)
        made += 1
        hash_state(ad.kernel, ad.cfg, state, keys, h2)
        assert (h == h2).all()
        if rng.random() < 0.3:
            undo_move(ad.kernel, ad.cfg, state, keys, m, info)
            hash_state(ad.kernel, ad.cfg, state, keys, h2)
            assert (h == h2).all()
            assert (lens == before[1]).all() and (fnd == before[2]).all() and (scal == before[3]).all()
            for p in range(len(lens)):
                assert (piles[p, :lens[p]] == before[0][p, :lens[p]]).all()
    return made


def kernel_perft(deal, depth: int) -> list[int]:
    """The number of kernel move sequences of each length 1..``depth`` from the deal's
    start, with no dominance rule (a position with no moves ends its sequences)."""
    ad = adapter_for(deal.rules)
    state, keys = kernel_state(ad, engine_for(deal.rules).initial_position(deal.layout))
    counts = [0] * depth
    buf = np.zeros(1024 * (depth + 1), np.int32)

    def walk(d: int, start: int) -> None:
        n = gen_moves(ad.kernel, ad.cfg, state, buf, start, -1)
        counts[d] += n
        if d + 1 == depth:
            return
        for i in range(n):
            m = buf[start + i]
            info = make_move(ad.kernel, ad.cfg, state, keys, m)
            walk(d + 1, start + n)
            undo_move(ad.kernel, ad.cfg, state, keys, m, info)

    walk(0, 0)
    return counts


def reference_perft(deal, depth: int) -> list[int]:
    """The same counts from the reference engine."""
    e = engine_for(deal.rules)
    counts = [0] * depth

    def walk(pos, d: int) -> None:
        legal = e.legal_moves(pos)
        counts[d] += len(legal)
        if d + 1 < depth:
            for m in legal:
                walk(e.play(pos, m), d + 1)

    walk(e.initial_position(deal.layout), 0)
    return counts


def beam_wins_what_the_search_leaves(monkeypatch, variant: str, game_number: int, budget: Budget, proof: str,
                                     plan_owner) -> tuple:
    """A family's searches for wins certify a line for a deal its search leaves unknown
    within ``budget`` (recorded under ``proof``, their moves counted in the nodes); with
    ``plan_owner.plan`` emptied (the family's ``beam_order``) the same solve is unknown.
    Returns both results (with the searches for wins, without)."""
    from solver.api import game
    rules = make_rules(variant, {})
    dominance = expand_dominance(rules, ["all"])
    deal = game(variant, game_number)
    res = solve(deal, budget, dominance)
    assert (res.verdict, res.proof) == ("won", proof)
    assert replay(deal, res.moves).ok
    assert res.nodes > budget.nodes                     # the beams' moves are counted
    monkeypatch.setattr(plan_owner, "plan", lambda cfg, nodes: [])
    plain = solve(deal, budget, dominance)
    assert (plain.verdict, plain.reason) == ("unknown", "nodes")
    return res, plain
