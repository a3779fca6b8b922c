"""Verifying a pack: a JSON Lines file of many deals, as a publisher has before publishing
them. Every line is checked (a bad line is reported and the others still verified), the
deals are solved in parallel, and each verdict is appended to the solutions file as it
comes, so that a run stopped at any moment loses no finished deal and the same command
resumes it (a deal whose solution is stored for the same rules, budget, rules used and
solver version is not solved again).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable, Iterator, Optional

from solver.difficulty import difficulty
from solver.errors import DealFileError, UnsupportedVariant
from solver.files import replace_whole
from solver.formats import SOLUTION_FORMAT, deal_from_json, deal_to_json, read_deal_lines, solution_to_json
from solver.variants import budget_nodes


@dataclass(frozen=True)
class PackJob:
    """One deal of a pack for a worker (plain data: it crosses process boundaries)."""

    line: int
    deal: dict                    # deal_to_json
    nodes: int
    seconds: float
    memory: int
    restarts: bool
    dominance: tuple              # names as given ("all" is expanded for the deal's rules)
    shorten: int                  # Budget.shorten


def verify_job(job: PackJob) -> dict:
    """Solve one deal of a pack (in a worker): its line, its verdict's figures and its
    solution document (a won line was replayed by the reference engine in ``solve``)."""
    from solver.adapter import expand_dominance
    from solver.driver import Budget, solve
    deal = deal_from_json(job.deal)
    budget = Budget(job.nodes, job.seconds, job.memory, job.restarts, job.shorten)
    res = solve(deal, budget, expand_dominance(deal.rules, job.dominance))
    doc = solution_to_json(res.solution(), deal)
    return {"line": job.line, "verdict": res.verdict, "reason": res.reason, "moves": len(res.moves),
            "search_moves": res.search_moves, "base": res.base(), "nodes": res.nodes, "states": res.states, "seconds": round(res.seconds, 4),
            "most_home": res.most_home, "difficulty": difficulty(deal.rules.hash(), res.verdict, res.found_nodes()),
            "solution": doc}


@dataclass
class PackSummary:
    deals: int = 0
    counts: dict = field(default_factory=lambda: {"won": 0, "lost": 0, "unknown": 0})
    bad: list = field(default_factory=list)        # (line, DealFileError) of each bad line
    resumed: int = 0                               # verdicts taken from the solutions file
    interrupted: bool = False


def found_nodes(producer: dict) -> int:
    """A solution file's nodes before its winning line was had (``SolveResult.found_nodes``)."""
    return (producer.get("nodes") or 0) - (producer.get("shorter_line_nodes") or 0)


def read_pack(path: str | Path) -> tuple[list[tuple[int, object]], list[tuple[int, DealFileError]]]:
    """The pack's deals as (line, deal) and its bad lines as (line, error)."""
    good, bad = [], []
    for n, deal in read_deal_lines(path):
        (bad if isinstance(deal, DealFileError) else good).append((n, deal))
    return good, bad


def _stamp(budget: dict, dominance: list, solver: str) -> str:
    return json.dumps([budget, sorted(dominance), solver], sort_keys=True)


def stored_verdicts(out: Path, pack: Path, losses: Optional[set] = None) -> dict[tuple, dict]:
    """The solutions already in ``out`` for lines of ``pack``, by (line, deal checksum, rules
    hash, producer stamp). Lines that are not whole solution documents (a run killed while
    writing) are left out: their deals are solved again. So are the deals stored "lost":
    a file edited to say "lost" of a winnable deal must not decide the exit status, and a
    loss, unlike a win, cannot be checked by replaying a line; proving it again costs
    what it cost the first time. (A stored "unknown" is taken: it claims nothing.)"""
    from solver.variants import rules_from_dict
    found: dict[tuple, dict] = {}
    if not out.exists():
        return found
    with open(out, "rb") as f:
        for text in f:
            try:
                doc = json.loads(text)
                where = doc["pack"]
                if doc["outcome"] not in ("won", "lost", "unknown") or not isinstance(doc["moves"], list):
                    continue
                if where["file"] != pack.name:
                    continue
                p = doc["producer"]
                rh = rules_from_dict(doc["variant"], doc["rules"]).hash()
                key = (where["line"], doc["deal"]["checksum"], rh,
                       _stamp(p["budget"], p["dominance"], p["solver"]))
            except (ValueError, KeyError, TypeError, AttributeError):
                continue
            if doc["outcome"] == "won" and not _replays(doc):
                continue                  # a "won" is taken only with a line that wins here
            if doc["outcome"] == "lost":
                found.pop(key, None)      # a "lost" cannot be checked: the deal is proved again
                if losses is not None:
                    losses.add(key)       # (and its new "lost" is not written twice)
                continue
            found[key] = doc
    return found


def _base(moves: list) -> Optional[str]:
    """The base a stored winning line chose (its first move ``base:P:CARD``), as
    ``SolveResult.base`` says it; None if it chose none."""
    first = str(moves[0]) if moves else ""
    if not first.startswith("base:"):
        return None
    _, pile, card = first.split(":")
    return f"{card} from t{pile}"


def _replays(doc: dict) -> bool:
    """The solution document's line wins its deal on the reference engine."""
    from solver.formats import solution_from_json
    from solver.playback import replay
    try:
        solution, deal = solution_from_json(doc)
    except DealFileError:
        return False
    return replay(deal, solution.moves).ok


def verify_pack(path: Path, budget, dominance: tuple, jobs: int, out: Optional[Path],
                report: Callable[[dict, str, bool], None], bad_line: Callable[[DealFileError], None],
                run: Callable[[list, int, Callable], Iterator[dict]], per_variant: bool = False) -> PackSummary:
    """Verify every deal of the pack at ``path`` (with ``per_variant``, each at its variant's
    node budget, ``solver.variants.budget_nodes``, instead of ``budget.nodes``). ``bad_line(error)`` is called first for
    each line that is not a deal (or whose rules refuse a rule of ``dominance``), then
    ``report(result, label, resumed)`` once per deal as its verdict comes; ``run(jobs, n,
    work)`` runs the jobs (a process pool). Solutions are appended to ``out`` (when given)
    one line each as they come."""
    from solver import __version__
    from solver.batch import draining
    from solver.adapter import expand_dominance
    from solver.kernels import dominance_flags
    good, bad = read_pack(path)
    if not good and not bad:
        raise DealFileError(f"{path} holds no deal")
    summary = PackSummary(deals=len(good) + len(bad), bad=bad)
    solver_name = f"patience-solver {__version__}"
    if out:
        prepare_solutions_file(out)
    losses: set = set()
    stored = stored_verdicts(out, path, losses) if out else {}
    keyed = []
    budgets = {}
    for n, deal in good:
        budgets[n] = replace(budget, nodes=budget_nodes(deal.rules)) if per_variant else budget
        dom = list(expand_dominance(deal.rules, dominance))
        try:
            dominance_flags(deal.rules, dom)      # a rule this deal's rules refuse: a bad line
        except UnsupportedVariant as e:
            summary.bad.append((n, DealFileError(f"{path}:{n}: {e.message}")))
            continue
        keyed.append((n, deal, (n, deal.checksum, deal.rules.hash(), _stamp(budgets[n].as_dict(), dom, solver_name))))
    for _, e in sorted(summary.bad, key=lambda x: x[0]):
        bad_line(e)
    todo = []
    line_keys = {n: key for n, _, key in keyed}
    for n, deal, key in keyed:
        if key in stored:
            doc = stored[key]
            p = doc["producer"]
            res = {"line": n, "verdict": doc["outcome"], "reason": doc["reason"], "moves": len(doc["moves"]),
                   "search_moves": p.get("search_line_moves"), "base": _base(doc["moves"]), "nodes": p.get("nodes"), "states": p.get("states"),
                   "seconds": p.get("seconds"), "most_home": p.get("most_home"),
                   "difficulty": difficulty(deal.rules.hash(), doc["outcome"], found_nodes(p)),
                   "solution": doc}
            summary.counts[res["verdict"]] += 1
            summary.resumed += 1
            report(res, f"{path}#{n}", True)
        else:
            b = budgets[n]
            todo.append(PackJob(n, deal_to_json(deal), b.nodes, b.seconds, b.memory, b.restarts, tuple(dominance),
                                b.shorten))
    try:
        sink = open(out, "a", encoding="utf-8") if out else None
    except OSError as e:
        raise DealFileError(f"cannot write {out}: {e.strerror}") from None
    try:
        with draining(run(todo, jobs, verify_job), summary) as source:
            for res in source:
                if sink is not None and not (res["verdict"] == "lost" and line_keys[res["line"]] in losses):
                    _append(sink, out, dict(res["solution"], pack={"file": path.name, "line": res["line"]}))
                summary.counts[res["verdict"]] += 1
                report(res, f"{path}#{res['line']}", False)
    finally:
        if sink is not None:
            sink.close()
    return summary


def prepare_solutions_file(out: Path) -> None:
    """Make ``out`` fit to be read and appended to: a last line cut by a run killed while
    writing it is dropped (a whole last document that lacks only its newline gets it). Any
    other line that is not a JSON document means ``out`` is not a solutions file: an error,
    and the file is left as it is. Only a regular file can be one: a device or a pipe is
    refused before it is read (``/dev/full`` reads as zeros without end)."""
    if not out.exists():
        return
    if not out.is_file():
        raise DealFileError(f"--out {out} is not a regular file; give a file to append the solutions to")
    try:
        raw = out.read_bytes()
    except OSError as e:
        raise DealFileError(f"cannot read {out}: {e.strerror}") from None
    lines = raw.splitlines(keepends=True)
    for n, line in enumerate(lines[:-1], 1):
        if not _is_solution_line(line):
            raise DealFileError(f"--out {out} is not a solutions file (line {n}); "
                                f"give another file")
    if lines and not lines[-1].endswith(b"\n"):
        fixed = lines[:-1] + ([lines[-1] + b"\n"] if _is_solution_line(lines[-1]) else [])
        replace_whole(out, b"".join(fixed))
    elif lines and not _is_solution_line(lines[-1]):
        raise DealFileError(f"--out {out} is not a solutions file (line {len(lines)}); "
                            f"give another file")


def _append(sink, out: Path, doc: dict) -> None:
    """One solution document as a line of ``out``, on disk at once."""
    try:
        sink.write(json.dumps(doc) + "\n")
        sink.flush()
    except OSError as e:
        raise DealFileError(f"cannot write {out}: {e.strerror}") from None


def _is_solution_line(line: bytes) -> bool:
    """The line is a solution document (a JSON object of the solution format); ``[]`` or ``1``
    is JSON but no solution, and means the file is not a solutions file."""
    try:
        doc = json.loads(line)
    except (ValueError, RecursionError):
        return False
    return isinstance(doc, dict) and doc.get("format") == SOLUTION_FORMAT
