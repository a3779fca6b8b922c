"""Solving a deal: the kernel search, then certification by the reference engine.

``solve`` returns a ``SolveResult`` whose verdict is

* ``won``     only with a move list that the reference engine has replayed to a win;
* ``lost``    only when the complete search (every reduction proved and flagged) ended;
* ``unknown`` otherwise, with the reason: ``nodes``, ``time`` or ``memory``.

If the kernel claims a win whose line does not replay, that is a bug in the kernel: it is
raised as ``CertificationError``, never reported as won.

The driver orchestrates; the jobs it hands out live beside it: the family's kernel with
its rules (``solver.adapter``), the depth-first searches and the plan of attempts
(``solver.attempts``), and winning lines, shortened and certified (``solver.lines``).
"""

from __future__ import annotations

import functools
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable, Optional, Sequence

import numpy as np

from solver import __version__, cards
from solver.adapter import KernelAdapter, adapter_for, kernel_state
from solver.attempts import (INITIAL_TABLE_BYTES, NO_VERDICT, Attempt, LostTable, attempt_plan, marking_last,
                             reaches_goal, search_attempt, search_mode)
from solver.beam import beam, fresh_beam
from solver.contract import RootVerdict
from solver.engine import Position, engine_for
from solver.formats import Deal, Solution
from solver.kernels import family
from solver.lines import SHORTEN_NODES, certify, expand_line, line_length, shorten_line
from solver.nested import nested
from solver.errors import IllegalMove, RulesError, UnsupportedVariant
from solver.moves import BASE, Move, format_move
from solver.search import LOST, WON, table_slots, winning_path

if TYPE_CHECKING:
    from solver.variants import Rules

DEFAULT_NODES = 2_000_000             # about 2 s of search; raise it per run with --budget-nodes
DEFAULT_MEMORY = 1 << 30              # bytes for the transposition table
DEFAULT_TIME = 600.0                  # seconds: a safety net, the node budget is the main one
LONG_LINE = 500                       # kernel moves: a winning line longer than this is searched to be shortened (``_shorter_line``)
WIN_SEED = 1                          # the searches for wins' noise: a fixed seed, so a verdict depends on the budget only
# The searches for wins a family's ``win_plan`` names, all with one signature: (kernel,
# cfg, state, keys, size, noise, weights, seed) -> (won, path, expansions, most home).
WIN_SEARCHES = {"beam": beam, "fresh_beam": fresh_beam, "nested": nested}


@dataclass(frozen=True)
class Budget:
    nodes: int = DEFAULT_NODES
    seconds: float = DEFAULT_TIME
    memory: int = DEFAULT_MEMORY
    restarts: bool = True                 # spend the nodes on the restart schedule (see ``solve``)
    shorten: int = SHORTEN_NODES          # nodes for shortening a winning line (``solver.lines.shorten_line``)

    def as_dict(self) -> dict:
        return {"nodes": self.nodes, "seconds": self.seconds, "memory_bytes": self.memory,
                "search": search_mode(self.restarts), "shorten_nodes": self.shorten}


@dataclass
class SolveResult:
    verdict: str                          # won / lost / unknown
    reason: Optional[str] = None          # for unknown: nodes, time or memory
    moves: list = field(default_factory=list)
    nodes: int = 0                        # all nodes: the budget's searches and ``win_nodes``
    win_nodes: int = 0                    # of which spent after the budget, by searches for wins and from leads
    states: int = 0                       # unique states stored
    seconds: float = 0.0                  # kernel search time
    certify_seconds: float = 0.0          # shortening the line and replaying it on the reference engine
    max_depth: int = 0
    table_bytes: int = 0
    budget: Budget = Budget()
    dominance: tuple = ()
    attempts: int = 1                     # searches run (restarts + 1)
    most_home: int = 0                    # most cards on the foundations in any state searched
    search_moves: int = 0                 # length of the search's own winning line, before shortening
    proof: Optional[str] = None           # the rule outside the search that decided it (lost: proved; won: found the line)
    shorter_nodes: int = 0                # of ``nodes``, spent after the win looking for a shorter line (``_shorter_line``)

    def found_nodes(self) -> int:
        """The nodes spent before the winning line was had (a deal's difficulty,
        ``solver.difficulty``): all but the search for a shorter line."""
        return self.nodes - self.shorter_nodes

    def base(self) -> Optional[str]:
        """The base card the winning line chose (Terrace family, ``base_mode=choose``), as
        text, with its tableau pile: e.g. ``"6H from t2"``; None otherwise."""
        if self.verdict != "won" or not self.moves or self.moves[0].kind != BASE:
            return None
        return f"{cards.text(self.moves[0].card)} from t{self.moves[0].src[1]}"

    def solution(self) -> Solution:
        return Solution(self.verdict, list(self.moves), self.reason, {
            "solver": f"patience-solver {__version__}", "budget": self.budget.as_dict(),
            "dominance": list(self.dominance), "attempts": self.attempts,
            "nodes": self.nodes, "win_nodes": self.win_nodes, "states": self.states, "most_home": self.most_home,
            "search_line_moves": self.search_moves, "shorter_line_nodes": self.shorter_nodes, "proof": self.proof,
            "seconds": round(self.seconds, 4), "certify_seconds": round(self.certify_seconds, 4),
            "versions": library_versions()})


@functools.lru_cache(maxsize=None)
def library_versions() -> dict:
    """The versions a verdict depends on besides the solver's: Python, numpy, numba, and
    OR-Tools, whose CP-SAT decides the Alhambra family's schedule models (recorded in every
    solution file)."""
    import platform
    from importlib.metadata import PackageNotFoundError, version
    found = {"python": platform.python_version()}
    for name in ("numpy", "numba", "ortools"):
        try:
            found[name] = version(name)
        except PackageNotFoundError:
            found[name] = None
    return found



def solve(deal: Deal, budget: Budget = Budget(), dominance: tuple = (),
          progress: Optional[Callable[[int, int, float], None]] = None, played: Sequence[Move] = ()) -> SolveResult:
    """Decide ``deal`` within ``budget``; ``progress(nodes, states, seconds)`` is called
    between slices. With ``played`` (moves legal from the deal's opening, else
    ``IllegalMove``), decide the position they lead to: a win's ``moves`` go on from there,
    and are certified by replaying ``played`` and them from the opening; "lost" means no
    line from that position wins.

    With ``budget.restarts`` the budget is spent on a series of searches (``win_first_schedule``):
    the plain move order with a small node limit, then shuffled orders with growing limits,
    the last one taking what is left. DFS times are heavy-tailed (one early wrong turn can
    hold the search for millions of nodes) and a fresh order escapes that. Each attempt is
    a complete search: shuffling changes only the order of the moves, never the set, so an
    attempt that ends without a win proves ``lost`` exactly as the plain order would. In an
    acyclic game (``KernelAdapter.acyclic``) the complete searches share one table of lost
    states (``LostTable``), so each goes on where the others left off and a lost deal costs
    about the nodes of one search; otherwise each has its own fresh table. Where the family
    has a streamliner (an unproved pruning that finds wins faster), short attempts, half of them streamlined, take turns with the
    complete ones (``attempt_plan``); a streamlined win is certified like any other, and its
    end without a win is no verdict: the plan goes on. Without restarts one plain-order
    search gets the budget.

    A search that wins with a line of more than ``LONG_LINE`` moves hands it to the
    family's searches for wins, whose shorter line replaces it (``_shorter_line``).

    A search that runs out of nodes is followed by the family's searches for wins
    (``win_plan``; The Reinforcements: beams and nested searches), whose win is certified
    like the search's and whose failure decides nothing; then by the family's verdict from
    outside the search where it has one and its rule is on (``root_verdict``; Alhambra: the schedule
    model, solved by CP-SAT): lost there is lost, with ``proof`` naming the rule; a line it
    finds is certified on the reference engine like the search's (``proof`` names the rule
    that found it).

    Where the family has a proved relaxation and its rule is on (``relaxation_lost``), it
    runs first, with the relaxed moves the family allows for the budget
    (``relaxation_moves``; Alhambra: as many as the budget has nodes while at most one
    redeal is allowed): lost there is lost. The result's nodes count both."""
    ad = adapter_for(deal.rules, dominance)
    start_pos = position_after(deal, played)
    t0 = time.perf_counter()
    deadline = t0 + budget.seconds
    spent = 0
    states = max_depth = table_bytes = most_home = 0
    attempt: Optional[Attempt] = None
    plan = attempt_plan(budget.nodes, ad.stream_cfg is not None) if budget.restarts else [(0, budget.nodes, False)]
    attempts = 0
    # In an acyclic game the complete searches share one table of lost states (``search_attempt``).
    lost = (LostTable(np.zeros((min(table_slots(budget.memory), table_slots(INITIAL_TABLE_BYTES)), 2),
                               dtype=np.uint64)) if ad.acyclic else None)
    memo = ad.new_memo(budget.nodes)     # a kernel's own table holds across searches (``solver.kernels``)
    lost_at_root, relaxed = _relaxation(ad, start_pos, memo, ad.k.relaxation_moves(ad.cfg, budget.nodes), deadline)
    if lost_at_root:
        res = SolveResult("lost", None, nodes=relaxed, states=0, max_depth=0, table_bytes=memo.nbytes, budget=budget,
                          dominance=tuple(dominance), attempts=0, most_home=sum(map(len, start_pos.foundations)),
                          proof=family(deal.rules.family).relaxation)
        res.seconds = time.perf_counter() - t0
        return res
    for last, (seed, nodes, stream) in marking_last(plan):
        if attempt is not None and time.perf_counter() >= deadline:
            attempt.reason = "time"
            break
        attempts += 1
        def prog(n, st, base=spent):
            if progress is not None:
                progress(base + n, st, time.perf_counter() - t0)
        if last:
            nodes = budget.nodes - spent    # with what streamlined attempts that ended early left
        cfg = ad.stream_cfg if stream else ad.cfg
        attempt = search_attempt(ad, start_pos, nodes, budget.memory, deadline, seed, prog, cfg,
                          None if stream else lost, memo)
        spent += attempt.nodes
        states, max_depth = max(states, attempt.states), max(max_depth, attempt.max_depth)
        table_bytes = max(table_bytes, attempt.table_bytes)
        most_home = max(most_home, attempt.most_home)
        if stream and attempt.status == LOST:
            attempt.status, attempt.reason = NO_VERDICT, "nodes"   # a streamlined search proves nothing
            continue
        if attempt.status in (WON, LOST) or attempt.reason in ("time", "memory"):
            break
    res = SolveResult("unknown", attempt.reason, nodes=spent + relaxed, states=states, max_depth=max_depth,
                      table_bytes=table_bytes, budget=budget, dominance=tuple(dominance),
                      attempts=attempts, most_home=most_home)
    res.seconds = time.perf_counter() - t0
    if attempt.status == WON:
        t1 = time.perf_counter()
        path = winning_path(attempt.frames, attempt.moves, attempt.ctrl) if attempt.ctrl[0] >= 0 else []
        res.search_moves = line_length(ad, start_pos, path)
        if len(path) > LONG_LINE:
            before = res.nodes
            path = _shorter_line(ad, start_pos, path, res, budget.nodes, deadline)
            res.shorter_nodes = res.nodes - before
        path, infos = shorten_line(ad, start_pos, path, budget.shorten)
        res.moves = certify(deal, expand_line(ad, start_pos, path, infos), played)
        res.verdict, res.reason = "won", None
        res.certify_seconds = time.perf_counter() - t1
    elif attempt.status == LOST:
        res.verdict, res.reason = "lost", None
    elif attempt.reason == "nodes" and time.perf_counter() < deadline:
        if not _wins(ad, deal, played, start_pos, res, budget, t0, deadline):
            _root_verdict(ad, deal, played, start_pos, res, t0, deadline, budget.memory)
    return res


def _wins(ad: KernelAdapter, deal: Deal, played: Sequence[Move], start_pos: Position, res: SolveResult,
          budget: Budget, t0: float, deadline: float) -> bool:
    """After a search that ran out of nodes, the family's searches for wins (``win_plan``,
    ``WIN_SEARCHES``), in turn until one wins, the clock read between them: a win is
    certified like the search's (``proof`` names the search that found it), and no win
    decides nothing. The result's nodes count their moves. Returns whether one won."""
    found = _plan_win(ad, start_pos, res, budget.nodes, deadline)
    if found is not None:
        name, path = found
        t1 = time.perf_counter()
        res.search_moves = line_length(ad, start_pos, path)
        path, infos = shorten_line(ad, start_pos, path, budget.shorten)
        res.moves = certify(deal, expand_line(ad, start_pos, path, infos), played)
        res.verdict, res.reason, res.proof = "won", None, name
        res.certify_seconds = time.perf_counter() - t1
    res.seconds = time.perf_counter() - t0
    return found is not None


def _shorter_line(ad: KernelAdapter, start_pos: Position, path: list[int], res: SolveResult, nodes: int,
                  deadline: float) -> list[int]:
    """A winning line of the search longer than ``LONG_LINE`` kernel moves (where positions
    repeat, a depth-first search can wander for thousands of moves before it wins): the
    family's searches for wins look for a shorter one (``_plan_win``); the line is certified
    like any other."""
    found = _plan_win(ad, start_pos, res, nodes, deadline, shorter_than=len(path))
    return path if found is None else found[1]


def _plan_win(ad: KernelAdapter, pos: Position, res: SolveResult, nodes: int,
              deadline: float, shorter_than: Optional[int] = None) -> Optional[tuple[str, list[int]]]:
    """The family's searches for wins from ``pos`` for a budget of ``nodes`` (``win_plan``),
    in turn until one wins (with ``shorter_than``: with a line of fewer kernel moves), the
    clock read between them: the winner's name and kernel line, or None. The result's nodes
    count their moves."""
    state, keys = kernel_state(ad, pos)              # each search leaves it as it came
    for name, size, noise, weights in ad.k.win_plan(ad.cfg, nodes):
        if time.perf_counter() >= deadline:
            return None
        won, path, expansions, most = WIN_SEARCHES[name](ad.kernel, ad.cfg, state, keys, size, noise, weights,
                                                         WIN_SEED)
        res.nodes += int(expansions)
        res.win_nodes += int(expansions)
        res.most_home = max(res.most_home, int(most))
        if won and (shorter_than is None or len(path) < shorter_than):
            return name, [int(m) for m in path]
    return None


def _root_verdict(ad: KernelAdapter, deal: Deal, played: Sequence[Move], start_pos: Position, res: SolveResult,
                  t0: float, deadline: float, memory: int) -> None:
    """After a search that ran out of nodes, the family's verdict from outside the search
    (Alhambra: the schedule model) within the time left: lost by its proof, or won by a
    line certified here; or a lead, a line of play from whose end ``_search_lead`` looks
    for a win."""
    root = ad.k.root_verdict(ad.cfg, deal.rules, start_pos, deadline - time.perf_counter(), reaches_goal)
    if root is not None and root.verdict == "lead":
        root = _search_lead(ad, deal, start_pos, root, res, deadline, memory)
    if root is None:
        if time.perf_counter() >= deadline:
            res.reason = "time"
        res.seconds = time.perf_counter() - t0
        return
    verdict, moves, rule = root[:3]
    if verdict == "won":
        t1 = time.perf_counter()
        res.moves = certify(deal, moves, played)
        res.certify_seconds = time.perf_counter() - t1
    res.verdict, res.reason, res.proof = verdict, None, rule
    res.seconds = time.perf_counter() - t0


def _search_lead(ad: KernelAdapter, deal: Deal, start_pos: Position, root: RootVerdict, res: SolveResult,
                 deadline: float, memory: int) -> Optional[RootVerdict]:
    """Searches for wins from positions on the lead ``root.moves`` (legal moves from
    ``start_pos``, where the family's model stops playing): from its end and
    ``root.lead_back`` moves before it, the complete search for ``root.lead_nodes`` nodes,
    then (unless it proved that position lost) the family's searches for wins as for
    ``root.lead_plan_nodes`` (``_plan_win``). ``("won", the lead's moves up there and the
    winning line, root.rule)`` for the first win (certified by the caller from the deal's
    start), else None: no win decides nothing, the lead being one line among many. The
    result's nodes count every search's."""
    lead = root.moves
    engine = engine_for(deal.rules)
    line = [start_pos]
    for m in lead:
        line.append(engine.apply(line[-1], m))
    for back in (b for b in root.lead_back if b < len(line)):
        if time.perf_counter() >= deadline:
            break
        pos = line[-1 - back]
        attempt = search_attempt(ad, pos, root.lead_nodes, memory, deadline)
        res.nodes += attempt.nodes
        res.win_nodes += attempt.nodes
        res.most_home = max(res.most_home, attempt.most_home)
        path = None
        if attempt.status == WON:
            path = winning_path(attempt.frames, attempt.moves, attempt.ctrl) if attempt.ctrl[0] >= 0 else []
        elif attempt.status != LOST:
            found = _plan_win(ad, pos, res, root.lead_plan_nodes, deadline)
            path = found and found[1]
        if path is not None:
            return RootVerdict("won", list(lead[:len(line) - 1 - back]) + expand_line(ad, pos, path), root.rule)
    return None


def position_after(deal: Deal, played: Sequence[Move] = ()) -> Position:
    """The reference engine's position after ``played`` from the deal's opening
    (``IllegalMove`` names the first move that is not legal)."""
    engine = engine_for(deal.rules)
    pos = engine.initial_position(deal.layout)
    for i, m in enumerate(played):
        try:
            pos = engine.apply(pos, m)
        except IllegalMove as e:
            raise IllegalMove(f"move {i + 1} ({format_move(m)}) is illegal: {e}") from None
    return pos


RELAX_FIRST = 10_000                 # relaxed moves of the first root relaxation search
RELAX_GROWTH = 4                     # each next one may make this many times more


def _relaxation(ad: KernelAdapter, start_pos: Position, memo: np.ndarray, moves: int,
                deadline: float) -> tuple[bool, int]:
    """The family's proved relaxation at the root (``relaxation_lost``): whether it shows
    the deal lost, and the relaxed moves spent. Searches with caps growing from
    ``RELAX_FIRST`` up to ``moves`` (``relaxation_moves``; 0: none), the clock read
    between them; each goes on from the states the earlier ones refuted (``memo``)."""
    if moves == 0:
        return False, 0
    state = kernel_state(ad, start_pos, memo)[0]
    cap, spent = RELAX_FIRST, 0
    while True:
        cap = min(cap, moves)
        lost, used = ad.k.relaxation_lost(ad.cfg, state, cap, spent > 0)
        spent += used
        if lost or used < cap or cap >= moves or time.perf_counter() >= deadline:
            return lost, spent
        cap *= RELAX_GROWTH



def warm_up(rules: Optional[Rules] = None, dominance: tuple = ()) -> float:
    """Compile (or load from numba's cache) the search and the kernel of ``rules``'s family
    (``solver.variants.WARM_UP``'s when ``None``) with ``dominance``, and the family's searches for wins;
    return the seconds it took. Called before a solve or a batch is timed, so that a deal's
    seconds are its own, not numba's: with a cold cache (any edit of a kernel source) The
    Reinforcements' first deals of a batch took some 60-70 s more (benchmarks/notes/reinforcements.md).
    Batch workers forked after it inherit the compiled code; others load it from the cache
    it filled. Numba compiles per family, not per deal or rule value, so a miniature deal
    of the same rules compiles what every deal of them runs (where the miniature refuses
    an option or a rule: ``WARM_UP``'s, and the solve compiles the rest)."""
    from solver.variants import WARM_UP, make_rules
    t = time.perf_counter()
    if rules is not None:
        try:
            _warm(make_rules(rules.variant, {**rules.as_dict(), **family(rules.family).shapes[0]}), tuple(dominance))
            return time.perf_counter() - t
        except (RulesError, UnsupportedVariant):    # options or rules a miniature refuses
            pass
    _warm(make_rules(*WARM_UP), ())
    return time.perf_counter() - t


def _warm(rules: Rules, dominance: tuple) -> None:
    """``warm_up``'s work on the miniature rules ``rules``: a solve to its end, one stopped by
    its budget, and each of the family's searches for wins once, as small as it comes."""
    from solver.formats import pysolfc_deal
    deal = pysolfc_deal(rules, 1)
    for nodes in (1000, 8):
        solve(deal, Budget(nodes=nodes, memory=1 << 12), dominance)
    each_search_for_wins(deal, dominance)


def each_search_for_wins(deal: Deal, dominance: tuple, done: frozenset = frozenset()) -> set:
    """Run once, as small as it comes (size 1), each search for wins that the plan of
    ``deal``'s family names at ``DEFAULT_NODES`` (where it names them all) and ``done`` does
    not: to compile them. Returns the names run."""
    ad = adapter_for(deal.rules, dominance)
    state, keys = kernel_state(ad, engine_for(deal.rules).initial_position(deal.layout))
    ran: set = set()
    for name, _size, noise, weights in ad.k.win_plan(ad.cfg, DEFAULT_NODES):
        if name not in done | ran:
            WIN_SEARCHES[name](ad.kernel, ad.cfg, state, keys, 1, noise, weights, WIN_SEED)
            ran.add(name)
    return ran
