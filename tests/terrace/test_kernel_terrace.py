"""The Terrace-family kernel against the exhaustive oracle (every option redrawn: all gap
rules, both base modes, take-back, the redeal, both build modes), move by move against the
reference engine, and on full-size deals."""

import random

import pytest

from solver.formats import pysolfc_deal
from solver.miniature import random_miniature_deal
from solver.playback import replay
from solver.driver import Budget, solve
from solver.variants import make_rules
from tests.support.kernel_checks import PLAIN_BUDGET, cross_check, incremental_hash_holds, moves_agree
from tests.support.oracle_store import position_verdicts

VARIANTS = ["terrace", "queen-of-italy-pysolfc", "generals-patience", "blondes-and-brunettes",
            "falling-star", "redheads"]


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("chunk", range(2))
def test_kernel_matches_oracle_on_miniature_deals(variant, chunk):
    """At least 2,000 deals per variant in the default run, in two chunks (the workers share
    them out), each solved without and with every rule its rules allow."""
    counts = cross_check(variant, 1100, seed=1 + 50 * chunk, max_states=5_000, every_rule=True)
    assert counts["won"] + counts["lost"] >= 1000 and counts["won"] > 250, counts
    assert counts["ruled"] > 500, counts


@pytest.mark.parametrize("variant", ["terrace", "falling-star"])
def test_kernel_matches_oracle_on_small_deals(variant):
    """The small shapes (a heavy reserve) end lost more often. (An oracle capped at 5,000
    states: at 20,000 the Terrace deals took two minutes, for six more decided.)"""
    counts = cross_check(variant, 250, seed=2, small=True, max_states=5_000)
    assert counts["lost"] > 35 and counts["won"] > 35, counts


@pytest.mark.parametrize("variant", ["terrace", "blondes-and-brunettes"])
def test_plain_order_matches_oracle(variant):
    cross_check(variant, 120, seed=3, budget=PLAIN_BUDGET, max_states=20_000)


@pytest.mark.parametrize("variant", VARIANTS)
def test_moves_equal_the_reference_engine(variant):
    assert moves_agree(variant, seed=4, games=40, steps=60) > 1000


@pytest.mark.parametrize("variant", ["queen-of-italy-pysolfc", "redheads"])
def test_incremental_hash_and_undo(variant):
    """Take-back (PySolFC's Queen of Italy) brings foundation tops back: the hash must follow
    the foundations' cards, not their counts."""
    rng = random.Random(5)
    made = sum(incremental_hash_holds(random_miniature_deal(variant, rng, vary=True), steps=300)
               for _ in range(40))
    assert made > 3000


def random_walk(variant, rng, games, steps, options=None, vary=False):
    """(deal, engine, position) after each move of random games of miniature deals."""
    from solver.engine import engine_for
    for _ in range(games):
        deal = random_miniature_deal(variant, rng, options, vary=vary)
        e = engine_for(deal.rules)
        pos = e.initial_position(deal.layout)
        for _ in range(steps):
            legal = e.legal_moves(pos)
            if not legal:
                break
            pos = e.play(pos, rng.choice(legal))
            yield deal, e, pos


def canonical_view(engine, pos):
    """A position up to what the canonical key leaves out: the order of the tableau piles
    and of the foundations (an empty foundation by its suit tag)."""
    fnd = sorted(tuple(p) if p else (-1 - engine.fsuits[i],) for i, p in enumerate(pos.foundations))
    return (fnd, pos.reserves, sorted(pos.tableau), pos.waste, pos.stock, pos.redeals_used, pos.phase)


def test_takeback_positions_hash_by_foundation_cards():
    """Two positions with one key are the same up to the order of the tableau piles and of
    the foundations, also where take-back brings foundation tops back (so that counts do
    not fix contents): the key follows the foundations' cards."""
    from solver.adapter import adapter_for, kernel_state
    seen = {}
    for deal, e, pos in random_walk("queen-of-italy-pysolfc", random.Random(6), 300, 30, {"ranks": 4, "suits": 2}):
        state, _ = kernel_state(adapter_for(deal.rules), pos)
        key = (deal.rules.hash(), int(state.h[0]), int(state.h[1]))
        assert seen.setdefault(key, canonical_view(e, pos)) == canonical_view(e, pos)
    assert len(seen) > 1000


def test_permuted_positions_share_one_key():
    """The canonical key: a position with its tableau piles permuted, or with two
    foundations exchanged, has the same key (positions along random games of every
    option)."""
    from solver.engine import Position
    from solver.layout import PHASE_PLAY
    from solver.adapter import adapter_for, kernel_state
    rng = random.Random(8)
    checked = 0
    for deal, e, pos in random_walk("terrace", rng, 100, 30, vary=True):
        if pos.phase != PHASE_PLAY:
            continue
        ad = adapter_for(deal.rules)
        key = tuple(kernel_state(ad, pos)[0].h)
        tab = list(pos.tableau)
        rng.shuffle(tab)
        fnd = list(pos.foundations)
        i = rng.randrange(0, len(fnd), 2)          # the two foundations of one tag
        fnd[i], fnd[i + 1] = fnd[i + 1], fnd[i]
        other = Position(tuple(fnd), pos.reserves, tuple(tab), pos.waste, pos.stock, pos.redeals_used, pos.phase)
        assert tuple(kernel_state(ad, other)[0].h) == key
        checked += 1
    assert checked > 1000


@pytest.mark.parametrize("variant", ["terrace", "generals-patience"])
def test_identical_base_candidates_are_one_branch(variant):
    """Item 2: two candidate piles holding the same cards (the two copies of a card) give
    positions with one canonical key after either is chosen, so the search expands one of
    them and the other is a table hit. Different candidates give different keys."""
    from solver.engine import engine_for
    from solver.adapter import adapter_for, kernel_state
    rules = make_rules(variant)
    e, ad = engine_for(rules), adapter_for(rules)
    same = 0
    for n in range(1, 400):
        deal = pysolfc_deal(rules, n)
        root = e.initial_position(deal.layout)
        keys = {}
        for m in e.legal_moves(root):
            contents = tuple(root.tableau[m.src[1]])
            keys.setdefault(contents, set()).add(tuple(kernel_state(ad, e.play(root, m))[0].h))
        assert all(len(k) == 1 for k in keys.values()), n
        same += len(keys) < len(e.legal_moves(root))
        assert len({k for ks in keys.values() for k in ks}) == len(keys), n
    assert same > 5, same


@pytest.mark.parametrize("variant", VARIANTS)
def test_full_size_deals_end_certified_or_unknown(variant):
    """Games 1-10 at 200,000 nodes until one is won (General's Patience: none yet)."""
    rules = make_rules(variant)
    verdicts = []
    for n in range(1, 11):
        deal = pysolfc_deal(rules, n)
        r = solve(deal, Budget(nodes=200_000))
        assert r.verdict in ("won", "unknown"), (variant, n, r.verdict)
        verdicts.append(r.verdict)
        if r.verdict == "won":
            assert replay(deal, r.moves).ok
            break
    assert "won" in verdicts or variant == "generals-patience", verdicts


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("chunk", range(4))
def test_kernel_matches_oracle_on_100000_miniature_deals(variant, chunk):
    """100,000 deals per variant in four chunks of 25,000, each solved without and with
    every rule its rules allow. The small shapes and an oracle capped at 1,000 states keep
    a deal to about 20 ms (14 of them the pure-Python oracle's): a chunk takes about 8
    minutes of one core, the 24 about 1 h 40 min on two cores. The default run covers the
    larger shapes."""
    counts = cross_check(variant, 25_000, seed=100 + chunk, small=True, max_states=1_000, every_rule=True)
    assert counts["won"] + counts["lost"] >= 18_000 and counts["lost"] > 1000, counts
    assert counts["ruled"] > 10_000, counts


# ----- reserve_blocked: a dead-state test ---------------------------------------------------

ALLOWED_GAPS = ["auto_waste", "auto_stock", "any_available", "waste_only"]
NO_TAKEBACK = {"found_takeback": False, "reserve_to_tableau": False}


def reserve_blocked_reference(engine, pos) -> bool:
    """The plain twin of the kernel's ``reserve_blocked``: walk each foundation forward from
    its top with any card still in play and not below the reserve card looked at, and see
    whether some foundation can come to take that card."""
    from solver.terrace.layout import base_rank
    base = base_rank(pos)
    reserve = pos.reserves[0]
    if base is None:
        return False
    ranks, ss = engine.ranks, engine.rules["found_build"] == "SS"
    in_play = [c for p in pos.reserves + pos.tableau + pos.waste for c in p] + list(pos.stock)
    for i, a in enumerate(reserve):
        usable = list(in_play)
        for c in reserve[:i]:
            usable.remove(c)
        if not any(_can_reach(engine, pile, engine.fsuits[f], base, a, usable, ranks, ss)
                   for f, pile in enumerate(pos.foundations)):
            return True
    return False


def _can_reach(engine, pile, tag, base, a, usable, ranks, ss) -> bool:
    from solver import cards
    top = pile[-1] if pile else None
    for _ in range(ranks - len(pile)):
        def fits(c, top=top):
            if top is None:
                return cards.rank(c) == base and cards.suit(c) == tag
            if cards.rank(c) != cards.succ(cards.rank(top), ranks):
                return False
            return cards.suit(c) == cards.suit(top) if ss else cards.colour(c) != cards.colour(top)
        if fits(a):
            return True
        nxt = [c for c in usable if fits(c)]
        if not nxt:
            return False
        top = nxt[0]          # in suit every fit is the same card; across colours any fit will do
    return False


def _walk_positions(variant, seed, games, options, steps=40):
    """Positions along random games of miniature deals of ``variant`` with ``options``,
    on rules that allow ``reserve_blocked``."""
    from solver.engine import engine_for
    from solver.kernels import dominance_rules
    rule = dominance_rules("terrace")["reserve_blocked"]
    rng = random.Random(seed)
    for _ in range(games):
        deal = random_miniature_deal(variant, rng, options, vary=True, small=rng.random() < 0.5)
        if rule.refusal(deal.rules) is not None:
            continue
        e = engine_for(deal.rules)
        for pos in _random_game(e, e.initial_position(deal.layout), rng, steps):
            yield deal, e, pos


def _random_game(e, pos, rng, steps, lean_home=False):
    """The positions of a random game from ``pos`` (``lean_home``: foundation plays 70 %
    of the time when there are any, so that the walk reaches the late positions)."""
    for _ in range(steps):
        yield pos
        legal = e.legal_moves(pos)
        if not legal:
            break
        home = [m for m in legal if m.dst is not None and m.dst[0] == "f"] if lean_home else []
        pos = e.play(pos, rng.choice(home if home and rng.random() < 0.7 else legal))


@pytest.mark.parametrize("variant", ["terrace", "generals-patience", "falling-star"])
def test_reserve_blocked_equals_its_plain_twin(variant):
    from solver.adapter import adapter_for, kernel_state
    from solver.terrace import kernel as k
    fired = seen = 0
    for deal, e, pos in _walk_positions(variant, seed=61, games=150, options=NO_TAKEBACK):
        state, _ = kernel_state(adapter_for(deal.rules), pos)
        cfg = adapter_for(deal.rules).cfg
        got = k.reserve_blocked(cfg, state.piles, state.lens, state.scal)
        assert got == reserve_blocked_reference(e, pos), (deal.rules.describe(), pos)
        fired += got
        seen += 1
    assert seen > 2000 and fired > 30, (seen, fired)


def test_reserve_blocked_hand_made_position():
    """General's Patience shape (in suit), base 3: a 6C in the reserve above both 4Cs can
    never go home (clubs need 3, 4, 5 before it); with one 4C above the 6C it can."""
    from solver import cards
    from solver.engine import Position, engine_for
    from solver.layout import PHASE_PLAY
    from solver.adapter import adapter_for, kernel_state
    from solver.terrace import kernel as k
    rules = make_rules("generals-patience", {"ranks": 7, "suits": 2, "reserve_size": 3,
                                              "tableau_piles": 2, "base_mode": "dealt"})
    e = engine_for(rules)
    deal = random_miniature_deal("generals-patience", random.Random(7),
                                 {"ranks": 7, "suits": 2, "reserve_size": 3, "tableau_piles": 2,
                                  "base_mode": "dealt"})
    pos = e.initial_position(deal.layout)
    everything = sorted(c for p in pos.reserves + pos.tableau + pos.waste + pos.foundations for c in p) + sorted(pos.stock)
    c = cards.parse

    def place(reserve):
        """The deal's cards with 3C on the first clubs foundation, ``reserve`` as the
        reserve, one card on each tableau pile and the rest in the stock."""
        rest = list(everything)
        for x in reserve + [c("3C")]:
            rest.remove(x)
        fnd = ((c("3C"),),) + tuple(() for _ in pos.foundations[1:])
        return Position(fnd, (tuple(reserve),), ((rest.pop(),), (rest.pop(),)), ((),), tuple(rest), 0, PHASE_PLAY)

    ad = adapter_for(rules)
    for reserve, dead in [([c("4C"), c("4C"), c("6C")], True), ([c("4C"), c("6C"), c("4C")], False),
                          ([c("5C"), c("5C"), c("6C")], True), ([c("4C"), c("5C"), c("6C")], False)]:
        p = place(reserve)
        state, _ = kernel_state(ad, p)
        assert bool(k.reserve_blocked(ad.cfg, state.piles, state.lens, state.scal)) == dead, reserve
        assert reserve_blocked_reference(e, p) == dead, reserve


def fired_positions(test: str, variants: list, seed: int):
    """Walk random games of ``variants``; yield the first position of each game where the
    dead-state test ``test`` (a function of ``solver.terrace.kernel``, called with cfg,
    piles, lens, scal) fires."""
    from solver.adapter import adapter_for, kernel_state
    from solver.terrace import kernel as k
    fires = getattr(k, test)
    seen_deals = set()
    for variant in variants:
        for deal, e, pos in _walk_positions(variant, seed=seed, games=300, options=NO_TAKEBACK):
            if repr(deal.source) in seen_deals:
                continue                   # one position per game: the rest of it is dead too
            ad = adapter_for(deal.rules)
            state, _ = kernel_state(ad, pos)
            if fires(ad.cfg, state.piles, state.lens, state.scal):
                seen_deals.add(repr(deal.source))
                yield deal, e, pos


def dead_test_fires_only_on_lost_positions(test: str, variants: list, seed: int) -> tuple[int, int]:
    """Where the dead-state test ``test`` fires (``fired_positions``), the oracle's exhaustive
    search must not win (its verdicts stored in ``tests/oracle/``, ``tests.support.oracle_store``).
    Returns (fired, proved lost by the oracle)."""
    made, verdicts = position_verdicts("terrace", "tests.terrace.test_kernel_terrace:fired_positions",
                                       dict(test=test, variants=variants, seed=seed), 20_000)
    for (deal, _, pos), verdict in zip(made, verdicts):
        assert verdict != "won", (deal.rules.describe(), deal.source, pos)
    return len(made), verdicts.count("lost")


def test_reserve_blocked_fires_only_on_lost_positions():
    """Every position along random games where the test fires is lost by the oracle's
    exhaustive search from it (none is won)."""
    fired, lost = dead_test_fires_only_on_lost_positions("reserve_blocked", ["terrace"], 62)
    assert lost > 40, (fired, lost)


@pytest.mark.parametrize("gap_rule", ALLOWED_GAPS)
def test_reserve_blocked_keeps_verdicts(gap_rule):
    """With the test on, every verdict still equals the oracle's (a dead-state test can only
    turn a won into a lost: the won deals are the check), on the reserve-heavy shapes."""
    counts = cross_check("terrace", 80, seed=63, dominance=("reserve_blocked",), small=True,
                         max_states=20_000, options=dict(NO_TAKEBACK, gap_rule=gap_rule))
    assert counts["won"] > 10 and counts["lost"] > 10, counts


@pytest.mark.parametrize("rule", ["reserve_blocked", "reserve_order"])
def test_reserve_rules_refused_where_unproved(rule):
    """Take-back, reserve_to_tableau and auto_reserve_first each let a reserve card leave
    otherwise than to a foundation for good: the rule is refused, never silently off."""
    from solver.adapter import adapter_for, expand_dominance
    from solver.errors import UnsupportedVariant
    for variant, opts in [("queen-of-italy-pysolfc", {}), ("redheads", {}),
                          ("terrace", {"reserve_to_tableau": True})]:
        rules = make_rules(variant, opts)
        with pytest.raises(UnsupportedVariant):
            adapter_for(rules, (rule,))
        assert rule not in expand_dominance(rules, ("all",))
    assert rule in expand_dominance(make_rules("generals-patience"), ("all",))


def test_reserve_blocked_full_size_verdicts_agree():
    """Full-size General's Patience and Terrace games 1-8 at 20,000 nodes: the verdicts with
    and without the test never contradict (pruning dead states may turn an unknown into a
    won or a lost), and every won replays."""
    assert full_size_verdicts_agree("reserve_blocked", ("generals-patience", "terrace"), range(1, 9), 20_000) == 16


def full_size_verdicts_agree(rule, variants, games, nodes):
    """With and without ``rule`` the verdicts on full-size deals never contradict, and
    every won replays; returns the number of deals compared."""
    compared = 0
    for variant in variants:
        rules = make_rules(variant)
        for n in games:
            deal = pysolfc_deal(rules, n)
            plain = solve(deal, Budget(nodes=nodes))
            ruled = solve(deal, Budget(nodes=nodes), (rule,))
            assert {plain.verdict, ruled.verdict} != {"won", "lost"}, (variant, n)
            if ruled.verdict == "won":
                assert replay(deal, ruled.moves).ok
            compared += 1
    return compared


def test_generals_patience_deals_proved_lost_at_once():
    """General's Patience games 5, 6 and 8 (PySolFC numbers): under every one of the four
    base choices some reserve card can never go home, so the search proves each lost in 4
    nodes; without the test 20,000 nodes decide nothing."""
    rules = make_rules("generals-patience")
    for n in (5, 6, 8):
        deal = pysolfc_deal(rules, n)
        r = solve(deal, Budget(nodes=20_000), ("reserve_blocked",))
        assert (r.verdict, r.nodes) == ("lost", 4), (n, r.verdict, r.nodes)
        assert solve(deal, Budget(nodes=20_000)).verdict == "unknown"


# ----- reserve_order: a dead-state test ----------------------------------------------------

def reserve_order_reference(engine, pos) -> bool:
    """The plain twin of the kernel's ``reserve_order``: try every way of giving the reserve
    cards, top first, to foundations that can take their place in rising order (memoised
    on the foundations' last places), and see whether none works."""
    from functools import cache

    from solver import cards
    from solver.terrace.layout import base_rank
    base = base_rank(pos)
    if base is None:
        return False
    ranks, ss = engine.ranks, engine.rules["found_build"] == "SS"
    order = list(reversed(pos.reserves[0]))       # the reserve's top leaves first

    def fits(f, c, j):
        tag = engine.fsuits[f]
        if ss:
            return cards.suit(c) == tag
        return (cards.colour(c) == tag // 2) == (j % 2 == 0)   # the base place asks only the colour here

    @cache
    def splits(i, last):
        if i == len(order):
            return True
        c = order[i]
        j = (cards.rank(c) - base) % ranks
        return any(splits(i + 1, last[:f] + (j,) + last[f + 1:])
                   for f in range(len(last)) if fits(f, c, j) and last[f] < j)

    return not splits(0, tuple(len(p) - 1 for p in pos.foundations))


@pytest.mark.parametrize("variant", ["terrace", "generals-patience", "falling-star"])
def test_reserve_order_equals_its_plain_twin(variant):
    from solver.adapter import adapter_for, kernel_state
    from solver.terrace import kernel as k
    fired = seen = 0
    for deal, e, pos in _walk_positions(variant, seed=81, games=150, options=NO_TAKEBACK):
        ad = adapter_for(deal.rules)
        state, _ = kernel_state(ad, pos)
        got = k.reserve_order(ad.cfg, state.piles, state.lens, state.scal)
        assert got == reserve_order_reference(e, pos), (deal.rules.describe(), pos)
        fired += got
        seen += 1
    assert seen > 2000 and fired > 30, (seen, fired)


def test_reserve_order_hand_made_position():
    """General's Patience shape (in suit, two clubs foundations), base 3, 3C on the first:
    a reserve giving 6C, 5C, 4C (top first) needs three rising chains of clubs, one more
    than there are clubs foundations, so it is dead, though each card alone could go home
    (``reserve_blocked`` does not fire); 6C, 4C, 5C and 4C, 5C, 6C can all go home."""
    from solver import cards
    from solver.engine import Position, engine_for
    from solver.layout import PHASE_PLAY
    from solver.adapter import adapter_for, kernel_state
    from solver.terrace import kernel as k
    opts = {"ranks": 7, "suits": 2, "reserve_size": 3, "tableau_piles": 2, "base_mode": "dealt"}
    rules = make_rules("generals-patience", opts)
    e = engine_for(rules)
    pos = e.initial_position(random_miniature_deal("generals-patience", random.Random(7), opts).layout)
    everything = sorted(c for p in pos.reserves + pos.tableau + pos.waste + pos.foundations for c in p) + sorted(pos.stock)
    c = cards.parse
    ad = adapter_for(rules)
    for reserve, dead in [([c("4C"), c("5C"), c("6C")], True), ([c("5C"), c("4C"), c("6C")], False),
                          ([c("6C"), c("5C"), c("4C")], False)]:
        rest = list(everything)
        for x in reserve + [c("3C")]:
            rest.remove(x)
        fnd = ((c("3C"),),) + tuple(() for _ in pos.foundations[1:])
        p = Position(fnd, (tuple(reserve),), ((rest.pop(),), (rest.pop(),)), ((),), tuple(rest), 0, PHASE_PLAY)
        state, _ = kernel_state(ad, p)
        assert bool(k.reserve_order(ad.cfg, state.piles, state.lens, state.scal)) == dead, reserve
        assert reserve_order_reference(e, p) == dead, reserve
        assert not k.reserve_blocked(ad.cfg, state.piles, state.lens, state.scal), reserve


def test_reserve_order_fires_only_on_lost_positions():
    """Every position along random games where the test fires is lost by the oracle's
    exhaustive search from it (none is won), in both foundation builds."""
    fired, lost = dead_test_fires_only_on_lost_positions("reserve_order", ["terrace", "generals-patience"], 82)
    assert lost > 60, (fired, lost)


@pytest.mark.parametrize("gap_rule", ALLOWED_GAPS)
def test_reserve_order_keeps_verdicts(gap_rule):
    """With the test on, every verdict still equals the oracle's, on the reserve-heavy
    shapes of both foundation builds."""
    for variant in ("terrace", "generals-patience"):
        counts = cross_check(variant, 60, seed=83, dominance=("reserve_order",), small=True,
                             max_states=20_000, options=dict(NO_TAKEBACK, gap_rule=gap_rule))
        assert counts["won"] > 5 and counts["lost"] > 5, (variant, counts)


def test_reserve_order_full_size_verdicts_agree():
    """Full-size Terrace, Falling Star and General's Patience games 1-8 at 20,000 nodes:
    with and without the test the verdicts never contradict, and every won replays."""
    assert full_size_verdicts_agree("reserve_order", ("terrace", "falling-star", "generals-patience"),
                                    range(1, 9), 20_000) == 24


def test_terrace_and_falling_star_deals_proved_lost_at_once():
    """Terrace game 59 (every base choice) and Falling Star games 5 and 6 (dealt base) are
    lost at the root by ``reserve_order``; without it 20,000 nodes decide nothing. Falling
    Star 5 by hand: base 2; its reserve gives KH, JD, 9D, 8C, 8C (places 11, 9, 7, 6, 6,
    top first, with other cards between), all fitting the black-tagged foundations only; a
    foundation takes places in rising order, so these five need five of them, and there are
    four."""
    for variant, n, nodes in [("terrace", 59, 4), ("falling-star", 5, 0), ("falling-star", 6, 0)]:
        deal = pysolfc_deal(make_rules(variant), n)
        r = solve(deal, Budget(nodes=20_000), ("reserve_order",))
        assert (r.verdict, r.nodes) == ("lost", nodes), (variant, n, r.verdict, r.nodes)
        assert solve(deal, Budget(nodes=20_000)).verdict == "unknown"


# ----- idle_card_home: a forced foundation play -------------------------------------------------

IDLE_GAPS = ["auto_waste", "auto_stock", "any_available", "auto_reserve_first", "waste_only"]


def idle_card_home_reference(engine, pos):
    """The plain twin of the kernel's ``idle_card_home``: the (source, foundation) of the
    first card, reserve first then tableau piles in order, that no card in play can be
    built on and whose every like foundation has reached its place; or None."""
    from solver import cards
    from solver.terrace.layout import base_rank
    rules = engine.rules
    base = base_rank(pos)
    if base is None or (rules["gap_rule"] == "auto_waste" and not rules["waste_autofill"]):
        return None
    ranks, fss = engine.ranks, rules["found_build"] == "SS"
    home = [c for p in pos.foundations for c in p]
    sources = ([] if rules["gap_rule"] == "auto_reserve_first" else [("r", 0)]) + pos.refs("t")
    for src in sources:
        pile = pos.pile(src)
        if len(pile) < (1 if src[0] == "r" else 2):
            continue
        x = pile[-1]
        place = (cards.rank(x) - base) % ranks

        def like(f):
            tag = engine.fsuits[f]
            if fss or place == 0:
                return cards.suit(x) == tag
            return cards.colour(x) == (cards.colour(cards.make(1, tag)) if place % 2 == 0
                                       else 1 - cards.colour(cards.make(1, tag)))
        alike = [f for f in range(len(pos.foundations)) if like(f)]
        if any(len(pos.foundations[f]) < place for f in alike):
            continue
        target = next((f for f in alike if len(pos.foundations[f]) == place
                       and engine.foundation_accepts(pos, f, x)), None)
        if target is None:
            continue
        nothing_builds = (src[0] == "r" and not rules["reserve_to_tableau"]) or \
            (rules["no_build_on_base_rank"] and cards.rank(x) == base)
        if not nothing_builds:
            below = cards.pred(cards.rank(x), ranks)
            builders = [cards.make(below, s) for s in cards.suit_set(rules["suits"])
                        if (s == cards.suit(x) if rules["tableau_build"] == "SS"
                            else cards.colour(cards.make(1, s)) != cards.colour(x))]
            if any(home.count(y) < 2 for y in builders):
                continue
        return src, target
    return None


def _idle_walk(variant, seed, games, steps=60):
    from solver.engine import engine_for
    rng = random.Random(seed)
    for _ in range(games):
        deal = random_miniature_deal(variant, rng, {"found_takeback": False}, vary=True)
        e = engine_for(deal.rules)
        for pos in _random_game(e, e.initial_position(deal.layout), rng, steps, lean_home=True):
            yield deal, e, pos


@pytest.mark.parametrize("variant", ["terrace", "generals-patience", "redheads"])
def test_idle_card_home_equals_its_plain_twin(variant):
    from solver.adapter import adapter_for, kernel_state
    from solver.terrace import kernel as k
    fired = seen = 0
    for deal, e, pos in _idle_walk(variant, seed=71, games=150):
        ad = adapter_for(deal.rules)
        state, _ = kernel_state(ad, pos)
        m = int(k.idle_card_home(ad.cfg, state.piles, state.lens, state.scal))
        want = idle_card_home_reference(e, pos)
        got = None if m < 0 else (ad.to_move(m).src, ad.to_move(m).dst[1])
        assert got == want, (deal.rules.describe(), pos, got, want)
        fired += got is not None
        seen += 1
    assert seen > 3000 and fired > 200, (seen, fired)


def _idle_cross_check(gap_rule, n, seed):
    opts = {"found_takeback": False, "gap_rule": gap_rule}
    counts = cross_check("terrace", n, seed=seed, dominance=("idle_card_home",), max_states=20_000, options=opts)
    assert counts["won"] > n * 3 // 4, counts
    small = cross_check("terrace", n, seed=seed + 1, dominance=("idle_card_home",), max_states=20_000,
                        options=opts, small=True)
    assert small["won"] > n // 10 and small["lost"] > n // 20, small


@pytest.mark.parametrize("gap_rule", IDLE_GAPS)
def test_idle_card_home_keeps_verdicts(gap_rule):
    """With the forced play on, every verdict equals the oracle's (it could only lose wins:
    the won deals are the check), every gap rule; the reserve-heavy shapes end lost more
    often (a lost deal must stay lost)."""
    _idle_cross_check(gap_rule, 40, seed=72)


@pytest.mark.slow
@pytest.mark.parametrize("gap_rule", IDLE_GAPS)
def test_idle_card_home_keeps_verdicts_on_4000_deals(gap_rule):
    _idle_cross_check(gap_rule, 2000, seed=172)


@pytest.mark.parametrize("variant", ["generals-patience", "blondes-and-brunettes"])
def test_idle_card_home_with_reserve_blocked_keeps_verdicts(variant):
    counts = cross_check(variant, 50, seed=73, dominance=("idle_card_home", "reserve_blocked"),
                         max_states=20_000, options=dict(NO_TAKEBACK, gap_rule="auto_waste"))
    assert counts["won"] > 15, counts
    assert {"idle_card_home", "reserve_blocked"} <= set(expand_all(variant))


def expand_all(variant):
    from solver.adapter import expand_dominance
    return expand_dominance(make_rules(variant), ("all",))


def test_idle_card_home_refused_with_takeback():
    from solver.adapter import adapter_for, expand_dominance
    from solver.errors import UnsupportedVariant
    rules = make_rules("queen-of-italy-pysolfc")
    with pytest.raises(UnsupportedVariant):
        adapter_for(rules, ("idle_card_home",))
    assert "idle_card_home" not in expand_dominance(rules, ("all",))


def test_idle_card_home_full_size_verdicts_agree():
    """Full-size games 1-6 of four variants at 100,000 nodes: with and without the forced
    play the verdicts never contradict, and every won replays."""
    assert full_size_verdicts_agree("idle_card_home", ("terrace", "generals-patience", "falling-star", "redheads"),
                                    range(1, 7), 100_000) == 24


# ----- no_lone_shift: a tableau pile's only card never moves to an empty pile ------------------

def test_no_lone_shift_removes_exactly_the_lone_shifts():
    """Along random games (every option redrawn), the kernel's moves with the rule are the
    reference engine's legal moves less those that move a lone tableau card to an empty
    tableau pile; and each such move leads to the same canonical key."""
    from solver.dispatch import gen_moves, hash_state
    from solver.engine import engine_for
    from solver.adapter import adapter_for, kernel_state
    import numpy as np
    rng = random.Random(81)
    buf = np.zeros(4096, np.int32)
    removed = compared = 0
    for _ in range(40):
        deal = random_miniature_deal("terrace", rng, vary=True)
        e = engine_for(deal.rules)
        ad = adapter_for(deal.rules, ("no_lone_shift",))
        pos = e.initial_position(deal.layout)
        for _ in range(50):
            legal = e.legal_moves(pos)
            lone = [m for m in legal if m.src is not None and m.src[0] == "t" and m.dst is not None
                    and m.dst[0] == "t" and len(pos.pile(m.src)) == 1 and not pos.pile(m.dst)]
            state, keys = kernel_state(ad, pos)
            n = gen_moves(ad.kernel, ad.cfg, state, buf, 0, -1)
            got = sorted(str(ad.to_move(int(m))) for m in buf[:n])
            want = sorted(str(m.__class__(m.kind, m.src, m.dst, -1)) for m in legal if m not in lone)
            assert got == want, (deal.rules.describe(), pos)
            for m in lone:                 # the same state: one key before and after
                h0, h1 = np.zeros(2, np.uint64), np.zeros(2, np.uint64)
                hash_state(ad.kernel, ad.cfg, state, keys, h0)
                after, _ = kernel_state(ad, e.play(pos, m))
                hash_state(ad.kernel, ad.cfg, after, keys, h1)
                assert (h0 == h1).all(), (deal.rules.describe(), pos, m)
            removed += len(lone)
            compared += 1
            if not legal:
                break
            pos = e.play(pos, rng.choice(legal))
    assert compared > 1000 and removed > 30, (compared, removed)


def test_no_lone_shift_keeps_verdicts():
    counts = cross_check("queen-of-italy-pysolfc", 60, seed=82, dominance=("no_lone_shift",), max_states=20_000)
    assert counts["won"] > 20, counts
