"""Solving a deal: the kernel search, then certification by the reference engine.

``solve`` returns a ``SolveResult`` whose verdict is

* ``won``     only with a move list that the reference engine has replayed to a win;
* ``lost``    only when the complete search (every reduction proved and flagged) ended;
* ``unknown`` otherwise, with the reason: ``nodes``, ``time`` or ``memory``.

If the kernel claims a win whose line does not replay, that is a bug in the kernel: it is
raised as ``CertificationError``, never reported as won.
"""

from __future__ import annotations

import functools
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator, Optional

import numpy as np

from solver import __version__, cards
from solver.beam import beam
from solver.nested import nested
from solver.dispatch import WON_GOAL, Kernel, hash_state
from solver.engine import Position, engine_for
from solver.formats import Deal, Solution
from solver.contract import RootVerdict
from solver.kernels import FAMILIES, dominance_flags, dominance_rules, family, hooks_module
from solver.errors import CertificationError, RulesError, UnsupportedVariant  # noqa: F401  (callers import UnsupportedVariant here)
from solver.moves import BASE, Move
from solver.search import (BYTES_PER_SLOT, CTRL_LEN, DEPTH, FULL, GROW, LOST, MAX_MOVES_PER_NODE, RUNNING, WON,
                           X_CANGROW, X_HOME, X_MAXDEPTH, X_NODES, X_RNG, X_SHUFFLE, X_STORED, rehash, run,
                           line_hashes, resplice, table_slots, unwind, winning_path)
from solver.toolkit import K_DEAL, kind_of
from solver.state import KernelState, ZobristKeys, new_state, zobrist_tables

if TYPE_CHECKING:
    from solver.variants import Rules

DEFAULT_NODES = 2_000_000             # about 2 s of search; raise it per run with --budget-nodes
DEFAULT_MEMORY = 1 << 30              # bytes for the transposition table
DEFAULT_TIME = 600.0                  # seconds: a safety net, the node budget is the main one
SLICE_NODES = 1 << 20                 # nodes between clock checks
INITIAL_TABLE_BYTES = 1 << 22
MAX_DEPTH = 1 << 20
SHORTEN_NODES = 200_000               # nodes spent after a win on detours of two moves or more, at most
SHORTEN_PER_MOVE = 1_000              # ... and at most this many per move of the line
MAX_DETOUR = 8                        # the longest detour tried (moves)
UNBOUNDED = 1 << 62
WIN_SEED = 1                          # the searches for wins' noise: a fixed seed, so a verdict depends on the budget only
# The searches for wins a family's ``win_plan`` names, all with one signature: (kernel,
# cfg, state, keys, size, noise, weights, seed) -> (won, path, expansions, most home).
WIN_SEARCHES = {"beam": beam, "nested": nested}


@dataclass(frozen=True)
class Budget:
    nodes: int = DEFAULT_NODES
    seconds: float = DEFAULT_TIME
    memory: int = DEFAULT_MEMORY
    restarts: bool = True                 # spend the nodes on the restart schedule (see ``solve``)
    shorten: int = SHORTEN_NODES          # nodes for shortening a winning line (``_shorten``)

    def as_dict(self) -> dict:
        return {"nodes": self.nodes, "seconds": self.seconds, "memory_bytes": self.memory,
                "search": search_mode(self.restarts), "shorten_nodes": self.shorten}


@dataclass
class SolveResult:
    verdict: str                          # won / lost / unknown
    reason: Optional[str] = None          # for unknown: nodes, time or memory
    moves: list = field(default_factory=list)
    nodes: int = 0
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
            "nodes": self.nodes, "states": self.states, "most_home": self.most_home,
            "search_line_moves": self.search_moves, "proof": self.proof,
            "seconds": round(self.seconds, 4), "certify_seconds": round(self.certify_seconds, 4)})


# ----- family adapters --------------------------------------------------------------------

class KernelAdapter:
    """A family's kernel (from the registry, ``solver.kernels``) with its rules: the
    kernel's configuration and array sizes, loading a reference position, and translating
    kernel moves into the notation."""

    def __init__(self, rules, dominance=(), goal: str = WON_GOAL):
        self.k = hooks_module(rules.family)
        self.kernel = Kernel(rules.family, goal)
        self.rules = rules
        flags = dominance_flags(rules, dominance)
        self.cfg = self.k.make_cfg(rules, flags)
        # the win-first phase's streamliner, if the family has one (its lost is no verdict)
        stream = self.k.STREAMLINER
        self.stream_cfg = self.k.make_cfg(rules, flags | stream) if stream else None
        self.np = self.k.n_piles(rules)
        self.nf = 2 * rules["suits"]
        self.maxh = 2 * rules["ranks"] * rules["suits"]
        self.maxc = rules["ranks"]
        # every move leads to a state never seen before on the way (see ``LostTable``)
        self.acyclic = self.k.acyclic(rules)

    def new_memo(self, nodes: int = 0) -> np.ndarray:
        """An empty memo for the kernel's own table kept for a whole solve of ``nodes``
        nodes (``state.memo``; 0: the family's smallest)."""
        return np.zeros((self.k.memo_slots(self.cfg, nodes) or 3, 2), dtype=np.uint64)

    def to_move(self, m: int) -> Move:
        """The notation's move for kernel move ``m`` as generated (a deal is one deal)."""
        return self.to_moves(m, None)[0]

    def to_moves(self, m: int, info: Optional[int]) -> list[Move]:
        """The notation's moves for kernel move ``m`` (``info``: its undo record); a
        macro deal is several deals."""
        return self.k.to_moves(self.rules, m, info)


# Every family's proved dominance rules by name, in ``--dominance all`` order.
DOMINANCE_RULES = {name: tuple(dominance_rules(name)) for name in FAMILIES}


def adapter_for(rules, dominance=()) -> KernelAdapter:
    """The kernel adapter of ``rules`` with the dominance rules ``dominance``; a family
    with no kernel, an unknown rule or one these rules do not allow is
    ``UnsupportedVariant``."""
    return KernelAdapter(rules, tuple(dominance))


def expand_dominance(rules, names) -> tuple:
    """The rule names with ``all`` replaced by every proved rule of the family that these
    rules allow and ``all`` takes (``DominanceRule.in_all``; in ``DOMINANCE_RULES`` order)."""
    if "all" not in names:
        return tuple(names)
    out = [n for n in names if n != "all"]
    for name, rule in dominance_rules(rules.family).items():
        if name not in out and rule.in_all(rules):
            out.append(name)
    return tuple(out)


@functools.lru_cache(maxsize=8)
def _zobrist(np_: int, maxh: int, nf: int, maxc: int) -> ZobristKeys:
    return zobrist_tables(np_, maxh, nf, maxc)


def kernel_state(ad: KernelAdapter, pos: Position,
                 memo: Optional[np.ndarray] = None) -> tuple[KernelState, ZobristKeys]:
    """The kernel state of ``pos`` (its hash computed) and the random keys it hashes with;
    ``memo``: the kernel's table to go on with (default: a new one)."""
    state = new_state(ad.np, ad.maxh, ad.nf, ad.new_memo() if memo is None else memo)
    ad.k.load_position(ad.rules, pos, state)
    keys = _zobrist(ad.np, ad.maxh, ad.nf, ad.maxc)
    hash_state(ad.kernel, ad.cfg, state, keys, state.h)
    return state, keys


# ----- the solve loop ---------------------------------------------------------------------

def certify(deal: Deal, kernel_moves: list[Move]) -> list[Move]:
    """Replay the kernel's line on the reference engine; return it with cards filled in."""
    engine = engine_for(deal.rules)
    pos = engine.initial_position(deal.layout)
    out = []
    for i, m in enumerate(kernel_moves):
        legal = engine.legal_form(pos, m)
        if legal is None:
            raise CertificationError(f"kernel move {i + 1} ({m}) is illegal on the reference engine: "
                                     f"{engine.why_illegal(pos, m)}")
        pos = engine.play(pos, legal)
        out.append(legal)
    if not engine.is_won(pos):
        raise CertificationError("the kernel's winning line does not end in a won position")
    return out


@dataclass
class _Attempt:
    """One depth-first search: its verdict status and the arrays its winning line lives in."""
    status: int
    reason: Optional[str]
    nodes: int
    states: int
    max_depth: int
    table_bytes: int
    most_home: int
    frames: np.ndarray
    moves: np.ndarray
    ctrl: np.ndarray


@dataclass
class LostTable:
    """A transposition table handed from search to search (acyclic games only): every
    state in it is lost."""
    tt: np.ndarray
    stored: int = 0


def _search(ad: KernelAdapter, start_pos: Position, nodes: int, memory: int, deadline: float,
            shuffle_seed: int = 0, progress: Optional[Callable[[int, int], None]] = None,
            cfg: Optional[np.ndarray] = None, lost: Optional[LostTable] = None,
            memo: Optional[np.ndarray] = None) -> _Attempt:
    """Run one search from ``start_pos`` for at most ``nodes`` nodes and until ``deadline``
    (``time.perf_counter()``); ``shuffle_seed`` != 0 shuffles the move order within each
    move class (the win-first phase); ``cfg`` replaces the adapter's (a streamliner).

    With ``lost`` (only where ``ad.acyclic``) the search starts from that table and skips
    its states; when it stops unfinished, the states of its current path are taken out
    (``unwind``) and the table, holding only lost states again, is left in ``lost``.
    ``memo``: the kernel's own table, shared by the searches of a solve."""
    cfg = ad.cfg if cfg is None else cfg
    state, keys = kernel_state(ad, start_pos, memo)
    # The table starts small and doubles up to the byte budget: easy deals stay in cache.
    max_slots = table_slots(memory)
    if lost is not None:
        tt = lost.tt
        slots = tt.shape[0]
    else:
        # a short attempt stores at most ``nodes`` states: no need to clear a bigger table
        slots = min(max_slots, table_slots(INITIAL_TABLE_BYTES), table_slots(4 * BYTES_PER_SLOT * (nodes + 1)))
        tt = np.zeros((slots, 2), dtype=np.uint64)
    # The path is never longer than the node budget; the move stack holds every
    # level's untried moves (running out of either is reported as unknown: memory).
    depth = min(MAX_DEPTH, nodes + 2)
    frames = np.empty((depth, 4), dtype=np.int64)
    moves = np.empty(min(depth * 64, MAX_DEPTH * 8) + MAX_MOVES_PER_NODE, dtype=np.int32)
    ctrl = np.zeros(CTRL_LEN, dtype=np.int64)
    ctrl[X_STORED] = 0 if lost is None else lost.stored
    ctrl[X_CANGROW] = int(slots < max_slots)
    ctrl[X_SHUFFLE] = int(shuffle_seed != 0)
    ctrl[X_RNG] = (shuffle_seed * 0x9E3779B97F4A7C15) % (1 << 63)
    reason = None
    while True:
        stop = min(nodes, int(ctrl[X_NODES]) + SLICE_NODES)
        status = run(ad.kernel, cfg, state, keys, tt, frames, moves, ctrl, stop)
        if progress is not None:
            progress(int(ctrl[X_NODES]), int(ctrl[X_STORED]))
        if status == GROW:
            slots *= 2
            bigger = np.zeros((slots, 2), dtype=np.uint64)
            rehash(tt, bigger, ctrl)
            tt = bigger
            ctrl[X_CANGROW] = int(slots < max_slots)
            continue
        if status != RUNNING:
            if status in (FULL, DEPTH):
                reason = "memory"
            break
        if ctrl[X_NODES] >= nodes:
            reason = "nodes"
            break
        if time.perf_counter() >= deadline:
            reason = "time"
            break
    if lost is not None:
        if status == RUNNING:
            unwind(ad.kernel, cfg, state, keys, tt, frames, moves, ctrl)
        lost.tt, lost.stored = tt, int(ctrl[X_STORED])
    return _Attempt(status, reason, int(ctrl[X_NODES]), int(ctrl[X_STORED]), int(ctrl[X_MAXDEPTH]),
                    slots * BYTES_PER_SLOT, int(ctrl[X_HOME]), frames, moves, ctrl)


def reaches_goal(rules, goal: str, dominance: tuple, pos: Position, nodes: int, memory: int,
                 deadline: float) -> Optional[bool]:
    """Whether a line from ``pos`` under ``rules`` reaches the kernel goal ``goal`` (one of
    the family's ``GOALS``): True (one did), False (the search ended without: none does,
    as far as ``dominance``'s proofs carry over to that goal) or None (it ran out of
    ``nodes``, ``memory`` bytes or time)."""
    run = _search(KernelAdapter(rules, dominance, goal), pos, nodes, memory, deadline)
    return True if run.status == WON else False if run.status == LOST else None


NO_VERDICT = -1                      # an attempt's status when it ended without a verdict

# Measured on Algerian games 1-2000 (benchmarks/notes/algerian.md): the plain order alone left 379
# unknown at 2 M nodes; restarts from 512 nodes growing by 1.4 won all 2000.
RESTART_FIRST = 512                  # nodes of the first attempt
RESTART_GROWTH = 1.4                 # each next attempt may use this many times more


# Measured on Alhambra games 101-400 at 1 M nodes (benchmarks/notes/alhambra.md): the growing
# schedule alone won 4; with every odd attempt streamlined 13; the whole budget in attempts
# of a constant 2,048 nodes 23, of 512 nodes 34 (a winning line is some 250-350 moves
# deep, so 128-node attempts never reach an end: 0); half of it before the growing
# schedule 28, interleaved with it as below 25. Interleaved, a lost deal costs about twice
# the nodes it costs the growing schedule alone, instead of half the budget (about the same
# where the searches share a ``LostTable``). Games 1-100 under solver 0.5.0: ratio 1, 3 and
# 8 with every 2nd, 4th or no attempt streamlined won 31-34 (noise).
WIN_FIRST_ATTEMPT = 512              # nodes of each win-first attempt
WIN_FIRST_RATIO = 1                  # win-first nodes per node of the next complete search
STREAM_EVERY = 2                     # every this many win-first attempts one is streamlined


def search_mode(restarts: bool) -> str:
    """How a budget's nodes are spent, as recorded with every result (``attempt_plan``)."""
    return (f"restarts(first={RESTART_FIRST},growth={RESTART_GROWTH},"
            f"win_first={WIN_FIRST_ATTEMPT}x)" if restarts else "plain")


def attempt_plan(total: int, has_streamliner: bool) -> Iterator[tuple[int, int, bool]]:
    """(shuffle seed, node limit, streamlined) of each search ``solve`` runs with restarts,
    made as they are needed (a budget of 10^15 nodes is millions of attempts).

    Without a streamliner: ``win_first_schedule``. With one, the growing schedule's
    complete searches are interleaved with a *win-first phase*: before each complete
    search of n nodes come about n nodes of short attempts (``WIN_FIRST_ATTEMPT`` nodes,
    fresh shuffled orders, every other one streamlined); the last complete search takes
    what is left. The seeds never repeat, so no order is tried twice."""
    if not has_streamliner:
        for seed, n in win_first_schedule(total):
            yield seed, n, False
        return
    first = min(RESTART_FIRST, total)
    yield 0, first, False
    spent, seed, short, n = first, 1, 0, RESTART_FIRST
    while True:
        n = int(n * RESTART_GROWTH)
        k = max(1, WIN_FIRST_RATIO * n // WIN_FIRST_ATTEMPT)
        if spent + k * WIN_FIRST_ATTEMPT + n * (1 + RESTART_GROWTH) > total:
            break
        for _ in range(k):
            yield seed, WIN_FIRST_ATTEMPT, short % STREAM_EVERY == 0
            seed, short, spent = seed + 1, short + 1, spent + WIN_FIRST_ATTEMPT
        yield seed, n, False
        seed, spent = seed + 1, spent + n
    if total > spent:
        yield seed, total - spent, False


def _marking_last(items: Iterable) -> Iterator[tuple[bool, Any]]:
    """(is it the last item, item) of each item, looking one ahead."""
    it = iter(items)
    try:
        prev = next(it)
    except StopIteration:
        return
    for item in it:
        yield False, prev
        prev = item
    yield True, prev


def win_first_schedule(total: int, first: int = RESTART_FIRST, growth: float = RESTART_GROWTH):
    """(shuffle seed, node budget) of each attempt: the plain move order first, then shuffled
    orders with budgets growing by ``growth``; the last attempt gets what is left."""
    seed, spent, nodes = 0, 0, first
    while True:
        left = total - spent
        n = left if nodes * (1 + growth) > left else nodes
        yield seed, n
        spent += n
        if spent >= total:
            return
        seed += 1
        nodes = int(nodes * growth)


def solve(deal: Deal, budget: Budget = Budget(), dominance: tuple = (),
          progress: Optional[Callable[[int, int, float], None]] = None) -> SolveResult:
    """Decide ``deal`` within ``budget``; ``progress(nodes, states, seconds)`` is called
    between slices.

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
    engine = engine_for(deal.rules)
    start_pos = engine.initial_position(deal.layout)
    t0 = time.perf_counter()
    deadline = t0 + budget.seconds
    spent = 0
    states = max_depth = table_bytes = most_home = 0
    attempt: Optional[_Attempt] = None
    plan = attempt_plan(budget.nodes, ad.stream_cfg is not None) if budget.restarts else [(0, budget.nodes, False)]
    attempts = 0
    # In an acyclic game the complete searches share one table of lost states (``_search``).
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
    for last, (seed, nodes, stream) in _marking_last(plan):
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
        attempt = _search(ad, start_pos, nodes, budget.memory, deadline, seed, prog, cfg,
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
        res.search_moves = _line_length(ad, start_pos, path)
        path = _shorten(ad, start_pos, path, budget.shorten)
        res.moves = certify(deal, _expand(ad, start_pos, path))
        res.verdict, res.reason = "won", None
        res.certify_seconds = time.perf_counter() - t1
    elif attempt.status == LOST:
        res.verdict, res.reason = "lost", None
    elif attempt.reason == "nodes" and time.perf_counter() < deadline:
        if not _wins(ad, deal, start_pos, res, budget, t0, deadline):
            _root_verdict(ad, deal, start_pos, res, t0, deadline, budget.memory)
    return res


def _wins(ad: KernelAdapter, deal: Deal, start_pos: Position, res: SolveResult, budget: Budget, t0: float,
          deadline: float) -> bool:
    """After a search that ran out of nodes, the family's searches for wins (``win_plan``,
    ``WIN_SEARCHES``), in turn until one wins, the clock read between them: a win is
    certified like the search's (``proof`` names the search that found it), and no win
    decides nothing. The result's nodes count their moves. Returns whether one won."""
    found = _plan_win(ad, start_pos, res, budget.nodes, deadline)
    if found is not None:
        name, path = found
        t1 = time.perf_counter()
        res.search_moves = _line_length(ad, start_pos, path)
        res.moves = certify(deal, _expand(ad, start_pos, _shorten(ad, start_pos, path, budget.shorten)))
        res.verdict, res.reason, res.proof = "won", None, name
        res.certify_seconds = time.perf_counter() - t1
    res.seconds = time.perf_counter() - t0
    return found is not None


def _plan_win(ad: KernelAdapter, pos: Position, res: SolveResult, nodes: int,
              deadline: float) -> Optional[tuple[str, list[int]]]:
    """The family's searches for wins from ``pos`` for a budget of ``nodes`` (``win_plan``),
    in turn until one wins, the clock read between them: the winner's name and kernel line,
    or None. The result's nodes count their moves."""
    state, keys = kernel_state(ad, pos)              # each search leaves it as it came
    for name, size, noise, weights in ad.k.win_plan(ad.cfg, nodes):
        if time.perf_counter() >= deadline:
            return None
        won, path, expansions, most = WIN_SEARCHES[name](ad.kernel, ad.cfg, state, keys, size, noise, weights,
                                                         WIN_SEED)
        res.nodes += int(expansions)
        res.most_home = max(res.most_home, int(most))
        if won:
            return name, [int(m) for m in path]
    return None


def _root_verdict(ad: KernelAdapter, deal: Deal, start_pos: Position, res: SolveResult, t0: float,
                  deadline: float, memory: int) -> None:
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
        res.moves = certify(deal, moves)
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
        attempt = _search(ad, pos, root.lead_nodes, memory, deadline)
        res.nodes += attempt.nodes
        res.most_home = max(res.most_home, attempt.most_home)
        path = None
        if attempt.status == WON:
            path = winning_path(attempt.frames, attempt.moves, attempt.ctrl) if attempt.ctrl[0] >= 0 else []
        elif attempt.status != LOST:
            found = _plan_win(ad, pos, res, root.lead_plan_nodes, deadline)
            path = found and found[1]
        if path is not None:
            return RootVerdict("won", list(lead[:len(line) - 1 - back]) + _expand(ad, pos, path), root.rule)
    return None


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


def _expand(ad: KernelAdapter, start_pos: Position, path: list[int]) -> list[Move]:
    """A line of kernel moves in the notation (a macro deal is several moves)."""
    return [mv for m, i in zip(path, _undo_records(ad, start_pos, path)) for mv in ad.to_moves(m, int(i))]


def _line_length(ad: KernelAdapter, start_pos: Position, path: list[int]) -> int:
    """The number of notation moves in a line of kernel moves: ``len(_expand(...))``
    without writing the moves (a search's own line can have thousands), since only a deal
    can stand for several."""
    line = np.array(path, dtype=np.int64)
    deals = np.flatnonzero(kind_of.py_func(line) == K_DEAL)      # the rule on the whole line at once
    infos = _undo_records(ad, start_pos, path)
    return len(path) - len(deals) + sum(len(ad.to_moves(int(line[i]), int(infos[i]))) for i in deals)


def _undo_records(ad: KernelAdapter, start_pos: Position, path: list[int]) -> np.ndarray:
    """The undo record of each move of a line of kernel moves played from ``start_pos``."""
    if not path:
        return np.zeros(0, dtype=np.int64)
    state, keys = kernel_state(ad, start_pos)
    return line_hashes(ad.kernel, ad.cfg, state, keys, np.array(path, dtype=np.int32))[2]


def _shorten(ad: KernelAdapter, start_pos: Position, path: list[int], nodes: int) -> list[int]:
    """The winning line with detours (``resplice``): of one move, over and over until none
    is found (cheap: each state's moves once), then of at most 2, 3, ... ``MAX_DETOUR``
    moves while ``nodes`` last, at most ``SHORTEN_PER_MOVE`` a move of the line (a short
    line is cheap to shorten). Each pass keeps the line winning, and the result is
    certified by the reference engine like any other line."""
    if not path:
        return []
    nodes = min(nodes, SHORTEN_PER_MOVE * len(path))
    state, keys = kernel_state(ad, start_pos)
    line = np.array(path, dtype=np.int32)
    depth, spent = 1, 0
    while depth <= MAX_DETOUR and (depth == 1 or spent < nodes):
        buf = np.zeros(MAX_MOVES_PER_NODE * depth, dtype=np.int32)
        cap = UNBOUNDED if depth == 1 else nodes - spent
        shorter, _, used = resplice(ad.kernel, ad.cfg, state, keys, line, depth, cap, buf)
        spent += used if depth > 1 else 0
        if len(shorter) == len(line):      # nothing found at this depth: look further
            depth += 1
        line = shorter
    return [int(m) for m in line]


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
