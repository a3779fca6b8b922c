"""The search's path and move stacks start small and double as the search fills them
(``solver.attempts``, status ``STACK`` of ``solver.search.run``): growing them must change
nothing but memory, so verdicts, node counts and stored states are those of a search given
large stacks from the start."""

import pytest

import solver.attempts as attempts
from solver.adapter import expand_dominance
from solver.formats import pysolfc_deal
from solver.driver import Budget, solve
from solver.variants import make_rules


@pytest.mark.parametrize("variant,game", [("queen-of-italy-pysolfc", 3), ("terrace", 12), ("algerian", 5),
                                          ("alhambra", 2)])
def test_growing_stacks_change_nothing(monkeypatch, variant, game):
    deal = pysolfc_deal(make_rules(variant), game)
    budget = Budget(nodes=150_000, restarts=False)
    rules = expand_dominance(deal.rules, ("all",))
    big = solve(deal, budget, rules)
    monkeypatch.setattr(attempts, "INITIAL_DEPTH", 2)
    small = solve(deal, budget, rules)
    assert (small.verdict, small.reason, small.nodes, small.states, small.max_depth) == \
        (big.verdict, big.reason, big.nodes, big.states, big.max_depth)
    assert small.moves == big.moves
    assert big.max_depth > 8              # the small stacks did have to grow


def test_stack_limit_is_unknown_memory(monkeypatch):
    """Stacks that may not grow past their limit end the search as unknown (memory)."""
    monkeypatch.setattr(attempts, "INITIAL_DEPTH", 2)
    monkeypatch.setattr(attempts, "MAX_DEPTH", 8)
    deal = pysolfc_deal(make_rules("queen-of-italy-pysolfc"), 3)
    r = solve(deal, Budget(nodes=100_000, restarts=False), expand_dominance(deal.rules, ("all",)))
    assert (r.verdict, r.reason) == ("unknown", "memory")
