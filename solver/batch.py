"""Batch solving of seed ranges: parallel workers, one writer, resumable.

Workers (processes of a local pool, or Dask workers) each run the serial numba kernel
on one seed at a time and return a record; the driver alone writes to the store, one
committed record per seed. Every "won" in a record was certified by ``solver.driver``
(the reference engine replayed it) before the worker returned it.
"""

from __future__ import annotations

import datetime
import json
import os
import re
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Iterator, Optional

from solver import __version__, deals, interrupts
from solver.store import DEFAULT_DB, Record, Store, rules_json
from solver.variants import Rules, RulesError
from solver.errors import SeedRangeError, printable

SOLVER_VERSION = f"patience-solver {__version__}"

def _release(text: str) -> tuple[int, ...]:
    return tuple(int(x) for x in text.split("."))


def _same_results() -> tuple[dict[str, tuple[str, ...]], dict[str, dict[str, int]]]:
    """Earlier solver versions whose records of a variant this version reproduces exactly,
    derived from the table of which release changed which variant (``releases.json``): a
    version's records carry over when no later release changed them. ``tests/test_report.py``
    re-solves games of every row kept this way and compares; the batches use it too (a game
    stored by an equivalent version is not solved again)."""
    table = json.loads((Path(__file__).with_name("releases.json")).read_text())
    now = _release(__version__)
    first = _release(table["first_comparable"])
    versions = [(0, m, 0) for m in range(first[1], now[1])]     # every 0.m.0 release before this one
    same = {}
    for variant, changed in table["changed"].items():
        since = max((_release(v) for v in changed), default=first)
        same[variant] = tuple(f"patience-solver {'.'.join(map(str, v))}" for v in versions if v >= since)
    upto = {variant: {f"patience-solver {v}": n for v, n in caps.items()}
            for variant, caps in table["same_up_to_nodes"].items() if variant != "about"}
    return same, upto


SAME_RESULTS, SAME_RESULTS_UP_TO = _same_results()


def same_results(variant: str, nodes: int) -> tuple[str, ...]:
    """The versions whose records of ``variant`` at a budget of ``nodes`` this version
    reproduces exactly (``SAME_RESULTS``, ``SAME_RESULTS_UP_TO``), this one first."""
    upto = tuple(v for v, cap in SAME_RESULTS_UP_TO.get(variant, {}).items() if nodes <= cap)
    return (SOLVER_VERSION, *SAME_RESULTS.get(variant, ()), *upto)


MAX_SEEDS = 1_000_000     # per command: the list is made before the first seed is solved


def parse_seeds(text: str) -> list[str]:
    """``1-1000,5000,7000-7100`` -> canonical game numbers as text, in order, no repeats;
    more than ``MAX_SEEDS`` is refused before any list is made."""
    out: list[str] = []
    seen = set()
    named = 0
    for part in text.split(","):
        part = part.strip()
        if not part:
            raise SeedRangeError(f"bad --seeds {text!r}: empty item")
        if part.startswith("-"):
            raise SeedRangeError(f"bad --seeds item {part!r}: game numbers start at 1")
        if "-" in part:
            lo_s, _, hi_s = part.partition("-")
            if not (re.fullmatch(r"[0-9]+", lo_s.strip()) and re.fullmatch(r"[0-9]+", hi_s.strip())):
                # 1-5-9, 10-1.5 and 1-2_000 are typing errors, not ranges (a lone game
                # number keeps PySolFC's normalisation)
                raise SeedRangeError(f"bad --seeds item {part!r}: a range is two plain numbers, digits only")
            try:
                lo, hi = deals.parse_game_number(lo_s), deals.parse_game_number(hi_s)
            except deals.GameNumberError as e:
                raise SeedRangeError(f"bad --seeds item {part!r}: {e}") from None
            if lo.ms or hi.ms:
                raise SeedRangeError(f"bad --seeds item {part!r}: ranges take plain numbers")
            if hi.value < lo.value:
                raise SeedRangeError(f"bad --seeds item {part!r}: the range runs backwards")
            named += hi.value - lo.value + 1
            if named > MAX_SEEDS:
                raise SeedRangeError(f"--seeds names more than {MAX_SEEDS:,} games; split the range "
                                     f"over several runs (one store takes them all)")
            items = (deals.GameNumber(n) for n in range(lo.value, hi.value + 1))
        else:
            try:
                items = [deals.parse_game_number(part)]
            except deals.GameNumberError as e:
                raise SeedRangeError(f"bad --seeds item {part!r}: {e}") from None
        for g in items:
            t = str(g)
            if t not in seen:
                seen.add(t)
                out.append(t)
    return out


@dataclass(frozen=True)
class Job:
    """What a worker needs to solve one seed (plain data: it crosses process boundaries)."""

    variant: str
    options: tuple
    game: str
    nodes: int
    seconds: float
    memory: int
    dominance: tuple
    restarts: bool = True


def solve_job(job: Job) -> Record:
    """Solve one seed (in a worker) and return its record."""
    from solver.formats import pysolfc_deal
    from solver.moves import format_moves
    from solver.driver import Budget, solve
    from solver.variants import make_rules
    rules = make_rules(job.variant, dict(job.options))
    budget = Budget(job.nodes, job.seconds, job.memory, job.restarts, shorten=0)   # a batch is for verdicts
    res = solve(pysolfc_deal(rules, job.game), budget, job.dominance)
    won = res.verdict == "won"
    return Record(rules.variant, rules.hash(), rules_json(rules.as_dict()), job.game, res.verdict, res.reason,
                  res.nodes, res.states, round(res.seconds, 6), res.table_bytes,
                  len(res.moves) if won else None, format_moves(res.moves) if won else None,
                  SOLVER_VERSION, job.nodes, json.dumps(budget.as_dict(), allow_nan=False), json.dumps(list(job.dominance)),
                  datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"), res.most_home)


def _worker_init() -> None:
    import signal
    os.environ["NUMBA_NUM_THREADS"] = "1"
    # Ctrl-C is the driver's to handle: it stops the workers, keeps what is stored and
    # says how to resume.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    _die_with_parent()


def _die_with_parent() -> None:
    """A worker ends when its driver does, even if the driver was killed (SIGKILL leaves
    no time to stop it): Linux's parent-death signal, else a thread watching the parent."""
    import signal
    try:
        import ctypes
        libc = ctypes.CDLL(None, use_errno=True)
        PR_SET_PDEATHSIG = 1
        if libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0:
            if os.getppid() == 1:         # the parent died before the call took effect
                os._exit(1)
            return
    except (OSError, AttributeError):
        pass
    import threading
    parent = os.getppid()

    def watch():
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(1)
    threading.Thread(target=watch, daemon=True).start()


# ----- engines: each yields records as they complete -----------------------------------------

def pool_context():
    """The start method of the worker processes, stated rather than left to Python's default
    (which changes between versions and systems): ``fork`` where the system has it, so that
    the workers inherit the kernels ``warm_up`` compiled; else ``spawn``, whose workers
    load them from numba's cache."""
    import multiprocessing
    return multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn")


def run_local(jobs: list, n_workers: int, work: Callable) -> Iterator:
    """The default engine: a local process pool running ``work`` on each job (``solve_job``:
    a batch's records), results as they complete. When the driver stops taking them (an interrupt,
    an error) the workers are stopped at once, running jobs and all: what they would have
    finished is solved again on resume."""
    if n_workers <= 1:
        for j in jobs:
            yield work(j)
        return
    pool = pool_context().Pool(n_workers, initializer=_worker_init)
    try:
        yield from pool.imap_unordered(work, jobs)
    finally:
        pool.terminate()
        pool.join()


def run_dask(jobs: list[Job], scheduler: Optional[str], n_workers: int) -> Iterator[Record]:
    """Dask distributed: workers anywhere import this package; the driver stays the writer."""
    try:
        from dask.distributed import Client, LocalCluster, as_completed
    except ImportError:
        raise RulesError("--engine dask needs the dask extra: pip install 'patience-solver[dask]'") from None
    cluster = None
    if scheduler:
        try:
            client = Client(scheduler, timeout="10s")
        except Exception as e:     # distributed raises OSError, TimeoutError, ValueError, its own CommClosedError...
            raise RulesError(f"cannot reach the Dask scheduler {scheduler!r}: "
                             f"{type(e).__name__}: {str(e)[:200]}") from None
    else:
        import dask
        # No dashboard, and no HTTP pages at all (with only the dashboard off, the scheduler
        # still served its health and metrics pages on 127.0.0.1:8787).
        with dask.config.set({"distributed.scheduler.http.routes": [], "distributed.worker.http.routes": []}):
            cluster = LocalCluster(n_workers=n_workers, threads_per_worker=1, processes=True,
                                   dashboard_address=None)
        client = Client(cluster)
    try:
        client.run(_worker_init)
        futures = client.map(solve_job, jobs, pure=False)
        for f in as_completed(futures):
            yield f.result()
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


# ----- the driver ----------------------------------------------------------------------------

@dataclass(frozen=True)
class BatchRequest:
    """One batch as ``patience batch`` takes it (``patience report`` makes one per row of its
    plan). The options are kept as given, not resolved: the batch resolves them, so that a
    bad one is reported the same way whichever command made the request."""

    variant: str
    seeds: str                            # game numbers: ranges and lists (``parse_seeds``)
    rules: tuple[str, ...] = ()           # NAME=VALUE overrides
    profile: Optional[str] = None
    budget_nodes: Optional[int] = None    # None: the solver's default (and so below)
    time_limit: Optional[float] = None
    memory: Optional[str] = None          # a size such as 512M
    dominance: tuple[str, ...] = ()       # rule names, "all" or "none"; none given: all
    no_restarts: bool = False
    jobs: Optional[int] = None            # worker processes; None: every core
    db: str = DEFAULT_DB
    rerun_unknown: bool = False
    engine: str = "local"                 # or "dask"
    scheduler: Optional[str] = None       # a Dask scheduler's address; None: a local cluster


@dataclass
class BatchSummary:
    total: int = 0
    skipped: int = 0
    done: int = 0
    counts: dict = field(default_factory=lambda: {"won": 0, "lost": 0, "unknown": 0})
    interrupted: bool = False
    rejected: list = field(default_factory=list)      # (game, why) of won records that did not replay


def plan_jobs(store: Store, rules: Rules, seeds: list[str], nodes: int, seconds: float, memory: int,
              dominance: tuple, rerun_unknown: bool, restarts: bool = True) -> tuple[list[Job], int]:
    """The jobs still to run, and how many seeds were skipped as already stored."""
    from solver.attempts import search_mode
    dom = json.dumps(list(dominance))
    mode = search_mode(restarts)
    versions = same_results(rules.variant, nodes)   # same results: done
    if rerun_unknown:
        latest = {r["game"]: r for r in store.latest(rules_hash=rules.hash())}
        # a seed never stored is solved too (it is not "already stored")
        todo = [g for g in seeds if g not in latest or latest[g]["verdict"] == "unknown"
                and not (latest[g]["budget_nodes"] == nodes and latest[g]["dominance"] == dom
                         and latest[g]["solver_version"] in versions
                         and json.loads(latest[g]["budget"]).get("search") == mode)]
    else:
        done = store.done_games(rules.hash(), versions, nodes, dom, mode)
        todo = [g for g in seeds if g not in done]
    opts = tuple(sorted(rules.as_dict().items()))
    return [Job(rules.variant, opts, g, nodes, seconds, memory, tuple(dominance), restarts) for g in todo], len(seeds) - len(todo)


class BatchProgress:
    """A batch's progress (``solver.progress.Progress``): seeds done of the total, with the
    running counts of won, lost and unknown."""

    def __init__(self, total: int, every: float = 10.0, stream=None):
        from solver.progress import Progress
        self.shown = Progress(total, "seeds", every, stream)

    def update(self, s: BatchSummary, force: bool = False) -> None:
        c = s.counts
        self.shown.update(s.done, f"won {c['won']} lost {c['lost']} unknown {c['unknown']}", force)

    def close(self) -> None:
        self.shown.close()


def job_problem(rec, job: Optional[Job]) -> Optional[str]:
    """Why ``rec`` is not a record this batch asked for as ``job`` (None: it is). What a Dask
    worker returns is not authenticated: a record for a game not asked for (or asked once and
    answered already), under other rules, budget, rules or solver version, or with cells of
    the wrong type is refused, and its seed is solved again on resume."""
    from solver.driver import Budget
    from solver.variants import make_rules
    if not isinstance(rec, Record):
        return "it is not a record"
    if job is None:
        return f"game {printable(str(rec.game), 40)} was not asked for (or was answered already)"
    want = (job.variant, make_rules(job.variant, dict(job.options)).hash(), job.nodes, SOLVER_VERSION,
            json.dumps(list(job.dominance)),
            json.dumps(Budget(job.nodes, job.seconds, job.memory, job.restarts, shorten=0).as_dict(), allow_nan=False))
    got = (rec.variant, rec.rules_hash, rec.budget_nodes, rec.solver_version, rec.dominance, rec.budget)
    if got != want:
        return "its variant, rules, budget, rules of proof or solver version are not the batch's"
    ints = (rec.nodes, rec.states, rec.table_bytes)
    if (rec.verdict not in ("won", "lost", "unknown") or not all(type(x) is int for x in ints)
            or type(rec.seconds) not in (int, float) or not isinstance(rec.rules, str)
            or not (rec.moves is None or isinstance(rec.moves, str))):
        return "its cells are not of this tool's types"
    return None


def replay_problem(rec: Record) -> Optional[str]:
    """Why a record's "won" does not hold on the driver's reference engine (None: it holds,
    or the record is no win). A worker certified it already; the driver checks again because
    what comes back over the network (Dask) is not authenticated. About 10 ms a win."""
    if rec.verdict != "won":
        return None
    from solver.formats import pysolfc_deal
    from solver.moves import parse_moves
    from solver.playback import replay
    from solver.variants import rules_from_dict
    try:
        rules = rules_from_dict(rec.variant, json.loads(rec.rules))
        if rules.hash() != rec.rules_hash:
            return "its rules do not match its rules hash"
        moves = parse_moves(rec.moves or "")
        r = replay(pysolfc_deal(rules, rec.game), moves)
    except (ValueError, TypeError) as e:
        return f"it cannot be read ({e})"
    return None if r.ok else r.message(moves)


def interrupted_by(e: BaseException) -> bool:
    """Whether ``e`` is a KeyboardInterrupt, or an error caused by one: Ctrl-C inside a
    compiled (numba) call comes back as a SystemError whose cause is the interrupt."""
    seen = 0
    while e is not None and seen < 10:
        if isinstance(e, KeyboardInterrupt):
            return True
        e = e.__cause__ or e.__context__
        seen += 1
    return False


def sigterm_as_interrupt():
    """SIGTERM as Ctrl-C while a batch runs (the main thread only); returns the old handler."""
    import signal
    import threading
    if threading.current_thread() is not threading.main_thread():
        return None

    def interrupt(signum, frame):
        raise KeyboardInterrupt
    return signal.signal(signal.SIGTERM, interrupt)


@contextmanager
def draining(source, summary):
    """The body drains ``source`` (results from the workers); Ctrl-C and SIGTERM stop it
    alike: ``summary.interrupted`` is set and the workers are stopped at once (not at exit),
    so every result received so far has been kept by the body."""
    import signal
    old_term = sigterm_as_interrupt()
    try:
        yield source
    except KeyboardInterrupt:
        summary.interrupted = True
    except SystemError as e:              # Ctrl-C inside a compiled call (one worker: in process)
        if not interrupted_by(e):
            raise
        summary.interrupted = True
    finally:
        if hasattr(source, "close"):
            source.close()
        if old_term is not None:
            signal.signal(signal.SIGTERM, old_term)


def run_batch(store: Store, jobs: list[Job], records: Callable[[list[Job]], Iterable[Record]],
              summary: BatchSummary, progress: Optional[BatchProgress] = None) -> BatchSummary:
    """Drain ``records(jobs)`` into the store, one committed record per seed (``draining``:
    an interrupt keeps every record received)."""
    asked = {job.game: job for job in jobs}
    with draining(records(jobs), summary) as source:
        for rec in source:
            interrupts.raise_if_interrupted()     # a Ctrl-C whose own raise was lost
            why = job_problem(rec, asked.pop(getattr(rec, "game", None), None)) or replay_problem(rec)
            if why is not None:
                summary.rejected.append((rec.game, why))
                continue
            store.add(rec)
            summary.done += 1
            summary.counts[rec.verdict] += 1
            if progress:
                progress.update(summary)
    if progress:
        progress.update(summary, force=True)
        progress.close()
    return summary
