"""``solver.in_play`` (positions in play) against the exhaustive oracle on miniature positions:
random miniature deals of every variant (every option varied), a random number of random
legal moves played, then the position's verdict, each legal move's verdict and the move
that lost the game checked against the oracle's search from those positions, with every
proved rule on and with none."""

import random

import pytest

from solver.adapter import expand_dominance
from solver.driver import Budget, position_after
from solver.engine import engine_for
from solver.in_play import hint
from solver.miniature import random_miniature_deal
from solver.oracle import exhaustive_search
from solver.playback import replay
from solver.variants import CATALOGUE

BUDGET = Budget(nodes=2_000_000, memory=1 << 24, shorten=0)
MAX_STATES = 20_000


def _random_position(variant: str, rng: random.Random):
    """A random miniature deal and up to 12 random legal moves from its opening."""
    deal = random_miniature_deal(variant, rng, vary=True, small=True)
    engine = engine_for(deal.rules)
    pos, played = engine.initial_position(deal.layout), []
    for _ in range(rng.randrange(13)):
        legal = engine.legal_moves(pos)
        if not legal or engine.is_won(pos):
            break
        m = rng.choice(legal)
        played.append(m)
        pos = engine.apply(pos, m)
    return deal, played


def _oracle(deal, played) -> str:
    return exhaustive_search(engine_for(deal.rules), position_after(deal, played), MAX_STATES).verdict


def _check_position(deal, played, dominance) -> str:
    """The hint's claims on one position equal the oracle's; returns the position's verdict."""
    want = _oracle(deal, played)
    h = hint(deal, played, BUDGET, dominance, BUDGET)
    where = (deal.rules.describe(), deal.source, [str(m) for m in played], dominance)
    if want != "unknown":
        assert h.verdict == want, (where, h.verdict, want)
    if h.verdict == "won":
        assert replay(deal, played + h.result.moves).ok, where
    engine = engine_for(deal.rules)
    if h.verdict != "lost":
        assert [str(v.move) for v in h.moves] == [str(m) for m in engine.legal_moves(position_after(deal, played))]
    for v in h.moves:
        child = _oracle(deal, played + [v.move])
        if child != "unknown":
            assert v.verdict == child, (where, str(v.move), v.verdict, child)
    w = h.where_lost
    if w is not None:
        if w.won_after >= 0:
            assert _oracle(deal, played[:w.won_after]) in ("won", "unknown"), where
        if w.losing_move is not None:
            assert _oracle(deal, played[:w.losing_move]) in ("lost", "unknown"), where
            assert _oracle(deal, played[:w.losing_move - 1]) in ("won", "unknown"), where
    return h.verdict


@pytest.mark.parametrize("variant", [v.key for v in CATALOGUE])
def test_hint_agrees_with_the_oracle(variant):
    rng = random.Random(f"hint/{variant}")
    seen = {"won": 0, "lost": 0, "unknown": 0}
    for _ in range(6):
        deal, played = _random_position(variant, rng)
        for dominance in ((), expand_dominance(deal.rules, ("all",))):
            seen[_check_position(deal, played, dominance)] += 1
    assert seen["unknown"] == 0, seen


def test_the_move_that_lost_it_is_found():
    """A played line that loses: the binary search names the move after which the oracle
    says lost, and before which it says won (Terrace miniatures, where random play loses
    often)."""
    rng = random.Random("hint/lost")
    found = 0
    for _ in range(200):
        deal, played = _random_position("terrace", rng)
        if not played or _oracle(deal, played) != "lost" or _oracle(deal, []) != "won":
            continue
        h = hint(deal, played, BUDGET, expand_dominance(deal.rules, ("all",)), None)
        k = h.where_lost.losing_move
        assert k is not None
        assert _oracle(deal, played[:k - 1]) == "won" and _oracle(deal, played[:k]) == "lost"
        found += 1
        if found == 3:
            break
    assert found == 3


def test_an_illegal_move_among_those_played_is_named():
    from solver.errors import IllegalMove
    from solver.formats import pysolfc_deal
    from solver.moves import parse_moves
    from solver.variants import make_rules
    deal = pysolfc_deal(make_rules("algerian", {}), 1)
    with pytest.raises(IllegalMove, match=r"move 1 \(r0>f0:KS\)"):
        hint(deal, parse_moves("r0>f0:KS"), BUDGET)


@pytest.mark.slow
@pytest.mark.parametrize("variant", [v.key for v in CATALOGUE])
def test_hint_agrees_with_the_oracle_on_many_positions(variant):
    """The default run's check on 40 positions a variant instead of 6 (``-m slow``)."""
    rng = random.Random(f"hint/many/{variant}")
    for _ in range(40):
        deal, played = _random_position(variant, rng)
        for dominance in ((), expand_dominance(deal.rules, ("all",))):
            _check_position(deal, played, dominance)


@pytest.mark.parametrize("variant", ["alhambra", "reinforcements", "terrace", "queen-of-italy-pysolfc"])
def test_hint_with_a_tiny_budget_runs_everything_after_the_search(variant):
    """At 3 nodes the search runs out at once, so the searches for wins, the schedule models
    (and their leads) and the root relaxation decide from positions in play: no verdict may
    contradict the oracle, and every win replays from the opening."""
    tiny = Budget(nodes=3, memory=1 << 20, shorten=0)
    rng = random.Random(f"hint/tiny/{variant}")
    decided = 0
    for _ in range(8):
        deal, played = _random_position(variant, rng)
        want = _oracle(deal, played)
        h = hint(deal, played, tiny, expand_dominance(deal.rules, ("all",)), None, look_back=False)
        assert h.verdict in (want, "unknown") or want == "unknown", (deal.source, h.verdict, want)
        if h.verdict == "won":
            assert replay(deal, played + h.result.moves).ok
        decided += h.verdict != "unknown"
    assert decided > 0


def test_a_position_after_a_lost_one_is_lost(monkeypatch):
    """The position itself undecided, the binary search finds an earlier one proved lost:
    the position is lost (reached from a lost position), and says why."""
    import solver.in_play as in_play
    from solver.driver import SolveResult
    deal, played = None, list(range(10))                 # moves are only counted here
    verdicts = {10: "unknown", 5: "lost", 2: "won", 3: "won", 4: "won"}

    def fake_solve(deal, budget, dominance, played=()):
        return SolveResult(verdicts.get(len(played), "lost"), "nodes" if len(played) == 10 else None, budget=budget)
    monkeypatch.setattr(in_play, "solve", fake_solve)
    h = in_play.hint(deal, played, BUDGET)
    assert h.where_lost.won_after == 4 and h.where_lost.losing_move == 5
    assert h.verdict == "lost" and h.result.proof == in_play.FROM_LOST
