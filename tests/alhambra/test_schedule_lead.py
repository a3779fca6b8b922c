"""Searches for wins from a lead (``solver.driver._search_lead``): where a refill schedule
does not play, the moves it played up to its first refused event (``schedule_lead``) are
real play, and the searches from there win where a win lies near, each win certified from
the deal's start; they never decide a loss. With ``schedule_late_refills`` named, a
schedule that does not play hands its lead to them; without the rule nothing changes."""

import pytest

import solver.alhambra.hooks as alhambra_hooks
from solver.alhambra.hooks import LEAD_BACK, lead_verdict
from solver.adapter import adapter_for, expand_dominance
from solver.driver import _search_lead, Budget, solve, SolveResult
from solver.lines import certify
from solver.engine import engine_for
from solver.formats import pysolfc_deal
from solver.variants import make_rules
from tests.support.oracle_store import oracle_verdicts

RULE = "schedule_late_refills"
REFILLS = {"waste_piles": 1, "reinforce": True, "redeals": 2}
FULL = Budget(nodes=2_000_000, memory=1 << 24, shorten=0)
SHORT = Budget(nodes=12, memory=1 << 20, shorten=0, restarts=False)


def _deals(verdict: str, k: int) -> list:
    """``k`` of the stored miniature deals (two redeals, refills) that the oracle finds
    ``verdict``."""
    deals, want = oracle_verdicts("reinforcements", 2000, 96, REFILLS, True, 6_000)
    return [d for d, w in zip(deals, want) if w == verdict][:k]


def test_a_lead_along_a_winning_line_is_won_from_its_end():
    """Half of a certified winning line as the lead: the complete search from its end wins
    (a miniature), and the line returned starts with the whole lead and wins from the deal's
    start on the reference engine."""
    for deal in _deals("won", 15):
        line = solve(deal, FULL).moves
        assert line, deal.source
        lead = line[:len(line) // 2]
        ad = adapter_for(deal.rules, expand_dominance(deal.rules, ["all"]))
        start = engine_for(deal.rules).initial_position(deal.layout)
        res = SolveResult("unknown")
        verdict, moves, proof = _search_lead(ad, deal, start, lead_verdict(lead), res, float("inf"), 1 << 24)[:3]
        assert (verdict, proof) == ("won", "schedule_lead")
        assert moves[:len(lead)] == lead
        certify(deal, moves)
        assert res.nodes > 0


def test_a_lead_in_a_lost_deal_finds_nothing():
    """In deals the oracle finds lost, leads of every length up to 12 moves (each the first
    legal move in turn): no win, and the searches' nodes are counted."""
    for deal in _deals("lost", 10):
        e = engine_for(deal.rules)
        start = pos = e.initial_position(deal.layout)
        lead = []
        ad = adapter_for(deal.rules, expand_dominance(deal.rules, ["all"]))
        for _ in range(12):
            moves = e.legal_moves(pos)
            if not moves:
                break
            lead.append(moves[0])
            pos = e.play(pos, moves[0])
            res = SolveResult("unknown")
            assert _search_lead(ad, deal, start, lead_verdict(lead), res, float("inf"), 1 << 24) is None
            assert res.nodes > 0
    assert 0 in LEAD_BACK


def test_solve_certifies_a_lead_s_win(monkeypatch):
    """The driver's path: a search that runs out of nodes, no other search for wins, and the
    root verdict a lead along a winning line: the solve is won, ``proof`` names the lead's
    search, and the line is the reference engine's."""
    monkeypatch.setattr(alhambra_hooks, "win_plan", lambda cfg, nodes: [])
    deal = next(d for d in _deals("won", 100) if solve(d, SHORT).verdict == "unknown")
    line = solve(deal, FULL).moves
    monkeypatch.setattr(alhambra_hooks, "root_verdict",
                        lambda cfg, rules, pos, seconds, reach: lead_verdict(line[:len(line) // 2]))
    res = solve(deal, SHORT, expand_dominance(deal.rules, ["all", RULE]))
    assert (res.verdict, res.proof) == ("won", "schedule_lead"), (res.verdict, res.reason)
    certify(deal, res.moves)
    assert res.moves[:len(line) // 2] == line[:len(line) // 2]


@pytest.mark.slow
def test_reinforcements_643_won_from_a_lead():
    """Full size, the standard rules, the rule named: The Reinforcements 643, unknown to
    every other search, has no refill in its first pass, and the late model's schedule
    (56.6 units) plays 145 moves; the complete search from there wins in 963 nodes."""
    rules = make_rules("reinforcements")
    budget = Budget(nodes=20_000, seconds=3600.0, shorten=0)
    res = solve(pysolfc_deal(rules, 643), budget, expand_dominance(rules, ("all", RULE)))
    assert (res.verdict, res.proof) == ("won", "schedule_lead"), (res.verdict, res.reason, res.nodes)
    certify(pysolfc_deal(rules, 643), res.moves)
