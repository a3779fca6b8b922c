"""The Alhambra-family kernel (Alhambra, Granada, The Reinforcements) against the
reference engine and the exhaustive oracle, and full-size deals."""

import pytest

from solver.alhambra import hooks
from solver.alhambra.dead_waste import waste_blocked
from solver.alhambra.met_foundation import met_safe
from solver.formats import pysolfc_deal
from solver.miniature import random_miniature_deal
from solver.playback import replay
from solver.adapter import adapter_for, expand_dominance
from solver.driver import Budget, solve
from solver.variants import make_rules
from tests.support.kernel_checks import cross_check, incremental_hash_holds, moves_agree

VARIANTS = ["alhambra", "granada", "reinforcements"]


@pytest.mark.parametrize("variant", VARIANTS)
def test_kernel_moves_equal_reference_moves_along_random_games(variant):
    assert moves_agree(variant, seed=11) > 500


@pytest.mark.parametrize("variant", VARIANTS)
def test_incremental_hash_equals_full_hash(variant):
    import random
    rng = random.Random(3)
    made = 0
    for _ in range(40):
        made += incremental_hash_holds(random_miniature_deal(variant, rng, vary=True), steps=200)
    assert made > 300


@pytest.mark.parametrize("variant", VARIANTS)
def test_kernel_matches_oracle_on_2000_miniature_deals(variant):
    """Small shapes and an oracle cap keep this in the default run; deals the oracle cannot
    finish are skipped, so more are drawn to check at least 2,000."""
    counts = cross_check(variant, 2700, seed=1, small=True, max_states=6_000)
    assert counts["won"] + counts["lost"] >= 2000 and counts["won"] > 100 and counts["lost"] > 100, counts


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(4))
@pytest.mark.parametrize("variant", VARIANTS)
def test_kernel_matches_oracle_on_100000_miniature_deals(variant, chunk):
    """100,000 deals per variant in four chunks of 25,000 (run chunks in parallel)."""
    counts = cross_check(variant, 25_000, seed=100 + chunk, small=True, max_states=20_000)
    assert counts["won"] > 1000 and counts["lost"] > 1000, counts


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS)
def test_kernel_matches_oracle_on_larger_miniature_deals(variant):
    """The larger miniature shapes (more ranks, longer reserves), 1,000 deals each; their
    searches can outgrow the small table of the default checks."""
    counts = cross_check(variant, 1000, seed=7, budget=Budget(nodes=20_000_000, memory=1 << 27, shorten=0))
    assert counts["won"] > 50 and counts["lost"] > 20, counts


@pytest.mark.parametrize("variant", VARIANTS)
def test_full_size_deals_end_certified_or_unknown(variant):
    """Full-size deals run end to end: a won is replayed, an unknown names the budget (and
    counts the moves of the beams that followed the search, where the variant has them)."""
    rules = make_rules(variant)
    beams = bool(adapter_for(rules).k.win_plan(adapter_for(rules).cfg, 50_000))
    assert beams == (variant == "reinforcements")
    for n in range(1, 4):
        r = solve(pysolfc_deal(rules, n), Budget(nodes=50_000, memory=1 << 24))
        if r.verdict == "won":
            assert replay(pysolfc_deal(rules, n), r.moves).ok
        elif r.verdict == "unknown":
            assert r.reason == "nodes" and (r.nodes > 50_000 if beams else r.nodes == 50_000)


INERT_VARIANTS = ["alhambra", "reinforcements"]


@pytest.mark.parametrize("variant", INERT_VARIANTS)
def test_deal_through_inert_keeps_verdicts(variant):
    """The dominance rule against the oracle (which has no rules) on small deals."""
    counts = cross_check(variant, 350, seed=21, dominance=("deal_through_inert",), small=True,
                         max_states=6_000)                       # the slow test below: 20,000
    assert counts["won"] > 70 and counts["lost"] > 20, counts


@pytest.mark.slow
@pytest.mark.parametrize("variant", INERT_VARIANTS)
def test_deal_through_inert_keeps_verdicts_on_20000_deals(variant):
    cross_check(variant, 20_000, seed=300, dominance=("deal_through_inert",), small=True, max_states=20_000)
    cross_check(variant, 1_000, seed=301, dominance=("deal_through_inert",))


@pytest.mark.parametrize("variant", INERT_VARIANTS)
def test_deal_through_inert_make_undo_and_hash(variant):
    import random
    rng = random.Random(4)
    made = sum(incremental_hash_holds(random_miniature_deal(variant, rng, vary=True), steps=200,
                                      dominance=("deal_through_inert",)) for _ in range(40))
    assert made > 300


def test_deal_through_inert_needs_one_waste_pile():
    from solver.adapter import adapter_for
    from solver.errors import UnsupportedVariant
    with pytest.raises(UnsupportedVariant):
        adapter_for(make_rules("granada"), ("deal_through_inert",))


PLAY_ON = {"stop_at_third_exhaustion": False}


def test_met_foundation_keeps_verdicts():
    """A pruning rule can only turn a won into a lost, so the won deals are the test (with
    play after the last pass few small deals are lost)."""
    counts = cross_check("alhambra", 500, seed=31, dominance=("met_foundation",), small=True,
                         max_states=6_000, options=PLAY_ON)
    assert counts["won"] > 400, counts


def test_both_alhambra_rules_together_keep_verdicts():
    counts = cross_check("alhambra", 300, seed=32, dominance=("met_foundation", "deal_through_inert"),
                         small=True, max_states=6_000, options=PLAY_ON)
    assert counts["won"] > 200, counts


@pytest.mark.slow
def test_met_foundation_keeps_verdicts_on_20000_deals():
    cross_check("alhambra", 20_000, seed=310, dominance=("met_foundation",), small=True, max_states=20_000,
                options=PLAY_ON)
    cross_check("alhambra", 1_000, seed=311, dominance=("met_foundation", "deal_through_inert"),
                options=PLAY_ON)


def test_met_foundation_needs_play_after_the_last_pass():
    from solver.adapter import adapter_for
    from solver.errors import UnsupportedVariant
    for variant, opts in (("granada", {}), ("reinforcements", {}), ("alhambra", {"stop_at_third_exhaustion": True})):
        with pytest.raises(UnsupportedVariant):
            adapter_for(make_rules(variant, opts), ("met_foundation",))


def test_met_foundation_forces_only_proven_moves():
    """Hand-made positions: crossed clubs (up at 9, down at 7) force 10C up and 6C down;
    met clubs (up at 6, down at 7) force 7C up and 6C down; a King up is not forced while an
    Ace is in play (the wrap neighbour goes down, and not next); apart (up 5, down 9)
    forces nothing."""
    import numpy as np
    from solver import cards
    from solver.alhambra import kernel as k
    rules = make_rules("alhambra", {"stop_at_third_exhaustion": False})
    cfg = hooks.make_cfg(rules, hooks.SAFE_MET_FOUNDATION)
    fnd = np.zeros(8, np.int32)
    fnd[:] = 1
    fnd[0], fnd[4] = 9, 7                 # clubs up A..9, down K..7
    assert met_safe(cfg, fnd, cards.parse("TC")) == 0
    assert met_safe(cfg, fnd, cards.parse("6C")) == 4
    assert met_safe(cfg, fnd, cards.parse("TS")) == -1
    fnd[0], fnd[4] = 6, 7                 # met: up A..6, down K..7
    assert met_safe(cfg, fnd, cards.parse("7C")) == 0
    assert met_safe(cfg, fnd, cards.parse("6C")) == 4
    assert met_safe(cfg, fnd, cards.parse("8C")) == -1
    fnd[0], fnd[4] = 12, 7                # up at Q: K goes up next, but an Ace is still in play
    assert met_safe(cfg, fnd, cards.parse("KC")) == -1
    fnd[0], fnd[4] = 5, 5                 # up at 5, down at 9: apart
    assert met_safe(cfg, fnd, cards.parse("6C")) == -1


def _dead_positions(variant: str, seed: int, games: int, rule: str, options=None):
    """Positions along random games of small ``variant`` deals (with ``options``) where the
    dead-state test ``rule`` fires: the kernel has moves without it and none with it."""
    import random

    import numpy as np

    from solver.engine import engine_for
    from solver.dispatch import gen_moves
    from solver.adapter import adapter_for, kernel_state
    rng = random.Random(seed)
    buf = np.zeros(4096, np.int32)
    for _ in range(games):
        deal = random_miniature_deal(variant, rng, options=options, vary=True, small=True)
        e = engine_for(deal.rules)
        plain, ruled = adapter_for(deal.rules), adapter_for(deal.rules, (rule,))
        pos = e.initial_position(deal.layout)
        while True:
            legal = e.legal_moves(pos)
            if not legal:
                break
            if gen_moves(ruled.kernel, ruled.cfg, kernel_state(ruled, pos)[0], buf, 0, -1) == 0:
                assert gen_moves(plain.kernel, plain.cfg, kernel_state(plain, pos)[0], buf, 0, -1) > 0
                yield deal, e, pos
                break                      # the rest of this game is dead too
            pos = e.play(pos, rng.choice(legal))


DEAD_TESTS = [("alhambra", "dead_waste_block"), ("reinforcements", "dead_waste_block"),
              ("alhambra", "dead_stock_order"), ("reinforcements", "dead_stock_order")]


@pytest.mark.parametrize("variant,rule", DEAD_TESTS)
def test_dead_state_test_fires_only_on_lost_positions(variant, rule):
    """Each position the test calls dead is lost by the oracle's exhaustive search from it."""
    from solver.oracle import exhaustive_search
    fired = decided = 0
    for deal, e, pos in _dead_positions(variant, seed=51, games=400, rule=rule):
        fired += 1
        got = exhaustive_search(e, pos, max_states=20_000)
        assert got.verdict != "won", (deal.source, pos)
        decided += got.verdict == "lost"
    assert decided > 50, (fired, decided)


@pytest.mark.parametrize("variant,rule", DEAD_TESTS)
def test_dead_state_test_keeps_verdicts(variant, rule):
    """A dead-state test can only turn a won into a lost: the won deals are the check."""
    counts = cross_check(variant, 300, seed=41, dominance=(rule,), small=True, max_states=6_000)
    assert counts["won"] > 150 and counts["lost"] > 15, counts


def test_all_alhambra_rules_together_keep_verdicts():
    counts = cross_check("alhambra", 300, seed=42, small=True, max_states=6_000, options=PLAY_ON,
                         dominance=("dead_waste_block", "dead_stock_order", "met_foundation",
                                    "deal_through_inert"))
    assert counts["won"] > 250, counts


@pytest.mark.slow
def test_dead_stock_order_with_refills_fires_only_on_lost_positions_of_20000_games():
    """The refill clause at scale, in every pass (the kernel calls it in the last pass only
    with reinforcement; the test holds in all): random lines of 20,000 regular-size
    miniatures of The Reinforcements (reserves of 3 to 8 cards, so that bounds on when a
    reserve empties matter), every option varied; the first position of each line where
    ``stock_order_blocked`` fires is not won by the oracle. (30,000 such games with the
    clause's first version, 2026-12-03: 11,196 fired, every one lost.)"""
    import random

    from solver.alhambra import kernel as k
    from solver.adapter import adapter_for, kernel_state
    from solver.engine import engine_for
    from solver.oracle import exhaustive_search
    rng = random.Random(9)
    fired = lost = 0
    for _ in range(20_000):
        deal = random_miniature_deal("reinforcements", rng, vary=True)
        e, ad = engine_for(deal.rules), adapter_for(deal.rules, ("dead_stock_order",))
        pos = e.initial_position(deal.layout)
        while legal := e.legal_moves(pos):
            st = kernel_state(ad, pos)[0]
            if k.stock_order_blocked(ad.cfg, st.piles, st.lens, st.fnd, ad.cfg[k.C_REDEALS] - st.scal[hooks.S_REDEALS]):
                fired += 1
                got = exhaustive_search(e, pos, max_states=30_000)
                assert got.verdict != "won", (deal.rules.describe(), deal.source, pos)
                lost += got.verdict == "lost"
                break
            pos = e.play(pos, rng.choice(legal))
    assert lost > 5000, (fired, lost)


def test_dead_stock_order_with_refills_keeps_verdicts_on_2000_deals():
    """The refill clause: The Reinforcements' 2,000 default-run deals (the oracle's stored
    verdicts), solved with the rule, and lost ones among them, every option varied."""
    counts = cross_check("reinforcements", 2700, seed=1, small=True, max_states=6_000,
                         dominance=("dead_stock_order",))
    assert counts["won"] + counts["lost"] >= 2000 and counts["lost"] > 100, counts


@pytest.mark.slow
@pytest.mark.parametrize("variant,rule", DEAD_TESTS)
def test_dead_state_test_keeps_verdicts_on_20000_deals(variant, rule):
    cross_check(variant, 20_000, seed=320, dominance=(rule,), small=True, max_states=20_000)
    cross_check(variant, 1_000, seed=321, dominance=(rule,))


def test_dead_state_tests_refused_where_unproved():
    """Both need one waste pile."""
    from solver.adapter import adapter_for
    from solver.errors import UnsupportedVariant
    for variant, rule in [("granada", "dead_waste_block"), ("granada", "dead_stock_order")]:
        with pytest.raises(UnsupportedVariant):
            adapter_for(make_rules(variant), (rule,))


def test_dead_waste_block_hand_made_positions():
    """7C in the waste with clubs up at 4 and down at 9 (K..9 home): up needs a 5 and a 6,
    down needs an 8, two copies of each in play. Dead only when both 5s (or both 6s) and
    both 8s lie below 7C. With clubs met (up at 4, down at 5), one copy of each rank is in
    play and only up is left: any 5C or 6C below 7C kills it. Other suits do not matter."""
    import numpy as np

    from solver import cards
    from solver.alhambra import kernel as k
    cfg = hooks.make_cfg(make_rules("alhambra"), hooks.SAFE_DEAD_WASTE_BLOCK)
    piles = np.zeros((10, 120), np.int8)
    lens = np.zeros(10, np.int32)
    w = cfg[k.C_NRES]
    fnd = np.ones(8, np.int32)            # every suit: Ace up, King down

    def dead(*names):
        lens[w] = len(names)
        for i, name in enumerate(names):
            piles[w, i] = cards.parse(name)
        return waste_blocked(cfg, piles, lens, fnd)

    fnd[0], fnd[4] = 4, 5                 # clubs up A..4, down K..9
    assert dead("5C", "5C", "8C", "8C", "7C")
    assert dead("6C", "8C", "6C", "8C", "7C")
    assert not dead("5C", "8C", "8C", "7C")
    assert not dead("5C", "5C", "8C", "7C")
    assert not dead("5C", "5C", "8C", "8C", "7S")
    assert not dead("7C", "5C", "5C", "8C", "8C")
    fnd[0], fnd[4] = 4, 9                 # clubs up A..4, down K..5: met
    assert dead("5C", "7C")
    assert dead("6C", "2S", "7C", "3S")
    assert not dead("7C", "5C")
    assert not dead("8C", "7C")           # 7C does not need the 8 below it
    assert dead("7C", "8C")


def test_dead_stock_order_hand_made_positions():
    """The stock part of ``dead_stock_order``. Clubs met (up A..4, down K..5): one copy of
    each rank in play, 5 and above go up. Dealt 6C, 8C, 7C, 5C: 6C waits for the 5, so it
    is still in the waste when 7C lands on it, and 7C needs it: dead, with nothing blocked
    in the waste yet. With the 5 dealt second, or in a reserve, it is won. Two copies (up
    A..3, down K..10): 7C lands on both 5s (waiting for the 4s, dealt after it) and both 8s
    (waiting for a 9 or the 4s): dead."""
    import numpy as np

    from solver import cards
    from solver.alhambra import kernel as k
    cfg = hooks.make_cfg(make_rules("alhambra"), hooks.SAFE_DEAD_STOCK_ORDER)
    piles = np.zeros((10, 120), np.int8)
    lens = np.zeros(10, np.int32)
    w, st = cfg[k.C_NRES], cfg[k.C_STOCK]
    fnd = np.ones(8, np.int32)            # every suit: Ace up, King down

    def dead(waste, stock, reserve=()):
        for p, names in ((0, reserve), (w, waste), (st, list(reversed(stock)))):
            lens[p] = len(names)
            for i, name in enumerate(names):
                piles[p, i] = cards.parse(name)
        assert not waste_blocked(cfg, piles, lens, fnd)
        return k.stock_order_blocked(cfg, piles, lens, fnd, 0)

    fnd[0], fnd[4] = 4, 9                 # clubs up A..4, down K..5: met
    assert dead([], ["6C", "8C", "7C", "5C"])
    assert dead(["6C"], ["8C", "7C", "5C"])
    assert not dead([], ["6C", "5C", "8C", "7C"])
    assert not dead([], ["6C", "8C", "7C"], reserve=["5C"])
    assert not dead([], ["8C", "6C", "5C", "7C"])
    fnd[0], fnd[4] = 3, 4                 # clubs up A..3, down K..10
    assert dead([], ["5C", "5C", "8C", "8C", "7C", "4C", "4C", "9C", "9C"], reserve=["6C", "6C"])


def test_dead_stock_order_refill_clause_hand_made_positions():
    """The refill clause on The Reinforcements' four reserves, clubs met as above (dealt
    6C, 8C, 7C, 5C: dead by landing alone), then 2S and 2H, last. Reserves 1-3 hold 3S, 3H
    and 4S, which leave (home, or onto a neighbour) only once 2S or 2H has landed. Reserve
    0: a 5S leaves as late: dead. Empty, it may take 6C instead of a deal (with immediate
    refills that wins: 5C home, then 6C from the reserve, 7C, 8C): not dead. A 3D leaves
    once 2D has landed: 2D dealt first, so 6C may be taken: not dead; 2D dealt after 7C has
    landed on 6C: dead. A 5S on the 3D leaves late, so the reserve empties late: dead. A
    reserve card that can never go home (a 7S: nothing of spades between) is dead too."""
    import numpy as np

    from solver import cards
    from solver.alhambra import kernel as k
    cfg = hooks.make_cfg(make_rules("reinforcements"), hooks.SAFE_DEAD_STOCK_ORDER)
    piles = np.zeros((10, 120), np.int8)
    lens = np.zeros(10, np.int32)
    w, st = cfg[k.C_NRES], cfg[k.C_STOCK]
    fnd = np.ones(8, np.int32)
    fnd[0], fnd[4] = 4, 9                 # clubs up A..4, down K..5: met

    def dead(stock, reserve0, tail=("2S", "2H")):
        for p, names in ((0, reserve0), (1, ["3S"]), (2, ["3H"]), (3, ["4S"]), (w, []),
                         (st, list(reversed([*stock, *tail])))):
            lens[p] = len(names)
            for i, name in enumerate(names):
                piles[p, i] = cards.parse(name)
        return k.stock_order_blocked(cfg, piles, lens, fnd, 0)

    assert dead(["6C", "8C", "7C", "5C"], ["5S"])
    assert not dead(["6C", "8C", "7C", "5C"], [])
    assert not dead(["2D", "6C", "8C", "7C", "5C"], ["3D"])
    assert dead(["6C", "8C", "7C", "5C", "2D"], ["3D"])
    assert dead(["2D", "6C", "8C", "7C", "5C"], ["3D", "5S"])
    assert not dead(["2D", "5C", "6C", "8C", "7C"], ["3D", "5S"])
    assert dead(["2D"], ["7S"])


def test_attempt_plan_win_first_phase():
    """With a streamliner: the plain order, then short attempts (every other one
    streamlined) taking turns with growing complete searches; about half the nodes go to
    each; seeds never repeat; the nodes add up; the last search is complete."""
    from solver.attempts import attempt_plan, RESTART_FIRST, WIN_FIRST_ATTEMPT, win_first_schedule
    plan = list(attempt_plan(1_000_000, True))
    assert plan[0] == (0, RESTART_FIRST, False)
    assert sum(n for _, n, _ in plan) == 1_000_000
    assert len({seed for seed, _, _ in plan}) == len(plan)
    short = [p for p in plan[1:] if p[1] == WIN_FIRST_ATTEMPT]
    assert 300_000 < sum(n for _, n, _ in short) < 600_000
    assert sum(1 for p in short if p[2]) == (len(short) + 1) // 2
    assert all(not p[2] for p in plan if p[1] != WIN_FIRST_ATTEMPT)
    complete = [n for _, n, s in plan[1:] if n != WIN_FIRST_ATTEMPT]
    assert complete == sorted(complete) and len(complete) > 5
    assert list(attempt_plan(1_000_000, False)) == [(s, n, False) for s, n in win_first_schedule(1_000_000)]
    assert list(attempt_plan(100, True)) == [(0, 100, False)]


def test_streamlined_attempt_ending_without_a_win_is_no_verdict():
    """The foundation-first streamliner misses wins: find a small deal the oracle wins whose
    first streamlined attempt ends lost while the plain first attempt is still undecided;
    ``solve`` must go on and win it with a later attempt."""
    import random
    import time

    from solver.engine import engine_for
    from solver.oracle import exhaustive_search
    from solver.search import LOST, WON
    from solver.adapter import adapter_for
    from solver.attempts import attempt_plan, search_attempt
    rng = random.Random(61)
    plan = list(attempt_plan(1_000_000, True))
    assert plan[1][2]
    for _ in range(20):
        deal = random_miniature_deal("alhambra", rng, {"stop_at_third_exhaustion": False}, vary=True)
        ad, e = adapter_for(deal.rules), engine_for(deal.rules)
        start = e.initial_position(deal.layout)
        deadline = time.perf_counter() + 60
        if search_attempt(ad, start, plan[0][1], 1 << 24, deadline, plan[0][0]).status in (WON, LOST):
            continue
        if search_attempt(ad, start, plan[1][1], 1 << 24, deadline, plan[1][0], cfg=ad.stream_cfg).status != LOST:
            continue
        if exhaustive_search(e, start, max_states=200_000).verdict != "won":
            continue
        r = solve(deal, Budget(nodes=1_000_000, memory=1 << 24))
        assert r.verdict == "won" and r.attempts >= 3 and replay(deal, r.moves).ok
        return
    pytest.fail("no deal among the first 20 shows the streamliner missing a win")


def test_unknown_spends_the_whole_budget_when_streamlined_attempts_end_early():
    """Alhambra 3 with no redeal: streamlined attempts end (without a verdict) well inside
    their limits; the last, complete attempt takes every node left."""
    deal = pysolfc_deal(make_rules("alhambra", {"redeals": 0}), 3)
    r = solve(deal, Budget(nodes=300_000), ("dead_waste_block",))
    assert r.verdict == "unknown" and r.reason == "nodes" and r.nodes == 300_000, (r.verdict, r.nodes)


def test_dead_stock_order_full_size_verdicts_agree():
    """Full-size Alhambra with no redeal: ``dead_stock_order`` proves most of games 1-12
    lost within a few thousand nodes, and no game is decided differently with and without
    it (or with ``dead_waste_block`` only)."""
    rules = make_rules("alhambra", {"redeals": 0})
    lost = 0
    for n in range(1, 13):
        deal = pysolfc_deal(rules, n)
        new = solve(deal, Budget(nodes=20_000), ("dead_stock_order",))
        for other in ((), ("dead_waste_block",)):
            old = solve(deal, Budget(nodes=20_000), other)
            assert "unknown" in (old.verdict, new.verdict) or old.verdict == new.verdict, (n, other)
        assert new.verdict != "won"
        lost += new.verdict == "lost"
    assert lost >= 8, lost


def test_reinforcements_104_proved_lost_by_the_search_under_the_standard_rules():
    """Full size, the standard rules (two redeals): The Reinforcements 104 is lost, proved by
    the depth-first search itself, every rule of ``all`` on, in 3,977,459 nodes (18 s alone,
    2026-12-06). The published table's 1 M nodes leave it unknown (its furthest line: 19
    cards home); with one redeal the search proves it lost in 83,683 nodes, with none in
    34. Each rule left out in turn, it stays lost; without any, the search does not end within
    430 M nodes (benchmarks/notes/reinforcements-proofs-of-loss.md, "The Reinforcements: what the search can still
    prove")."""
    rules = make_rules("reinforcements")
    res = solve(pysolfc_deal(rules, 104), Budget(nodes=5_000_000, shorten=0), expand_dominance(rules, ("all",)))
    assert res.verdict == "lost" and res.proof is None, (res.verdict, res.reason, res.nodes)
