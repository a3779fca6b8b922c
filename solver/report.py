"""The published win-rate table: which games of which rule sets, at which budget (``PLAN``,
the one place they are stated), and the files made from a results store.

``patience report`` runs the batches of the plan into a store (``solve_plan``; resumable:
the store skips finished games), then writes into ``results/`` (``write_report``):

- ``win-rates.md`` and ``win-rates.csv``: one row per rule set (``solver.stats``);
- ``records.csv.gz``: every game's record (variant, rules hash, game, verdict, reason,
  nodes, seconds, most_home, and a won game's difficulty tier; no solutions), the data the
  table is computed from;
- ``rule-sets.json``: each rule set's variant, profile, full options, budget, solver
  version and seed range;
- ``tiers.json``: each row's difficulty tiers, calibrated on its won records
  (``solver.difficulty``), and ``winnable/<row>/<tier>.txt``: each tier's won games, the
  lists a game ships;
- ``pending.csv.gz`` (while a row is being solved again): the records of this version that
  are not in the table yet, so that the work carries over to a machine without the store.

The table is a function of the records and rule sets alone (``table_from_files``), so a
test recomputes it from the shipped files.
"""

from __future__ import annotations

import csv
import gzip
import io
import json
import os
import signal
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Callable, Collection, Iterable, Optional

from solver.batch import (SOLVER_VERSION, BatchRequest, BatchSummary, interrupted_by, same_results,
                          sigterm_as_interrupt)
from solver.difficulty import TIERS_NAME, tiers_json
from solver.errors import OutputError
from solver.stats import GroupStats, group_stats, render
from solver.store import DEFAULT_DB, Store

RECORD_FIELDS = ("variant", "rules_hash", "game", "verdict", "reason", "nodes", "seconds", "most_home")
PENDING_FIELDS = RECORD_FIELDS + ("budget_nodes", "solver_version")
PUBLISHED_FIELDS = RECORD_FIELDS + ("tier",)      # records.csv.gz: a won record's difficulty tier too


@dataclass(frozen=True)
class Entry:
    """One row of the table: a variant under its default rules or a profile, games 1..games."""
    variant: str
    profile: Optional[str]
    games: int
    budget_nodes: int


FAST, SLOW = 10_000, 1_000        # games: where the median deal takes under 0.1 s, and elsewhere


def _entry(variant: str, profile: Optional[str], games: int) -> Entry:
    """A row at its variant's node budget (``Variant.budget_nodes``: ``patience solve``'s too)."""
    from solver.variants import get_variant
    return Entry(variant, profile, games, get_variant(variant).budget_nodes)


PLAN: tuple[Entry, ...] = (
    _entry("algerian", None, FAST),
    _entry("algerian", "pysolfc", FAST),
    _entry("granada", None, FAST),
    _entry("alhambra", None, SLOW),
    _entry("alhambra", "pysolfc", SLOW),
    _entry("reinforcements", None, SLOW),
    _entry("terrace", None, SLOW),
    _entry("queen-of-italy-pysolfc", None, SLOW),
    _entry("generals-patience", None, SLOW),
    _entry("blondes-and-brunettes", None, SLOW),
    _entry("falling-star", None, SLOW),
    _entry("redheads", None, SLOW),
)
# Variants whose pysolfc profile equals their default rules have one row.


def entry_rules(e: Entry):
    from solver.variants import make_rules
    return make_rules(e.variant, profile=e.profile)


def published(folder: Path, version: str) -> dict[str, tuple[int, dict[str, dict], bool]]:
    """The records already published in ``folder``: rules hash -> (budget in nodes, game ->
    record, reusable). A rule set is *reusable* when every record of it was made by
    ``version`` (``SOLVER_VERSION``) or a version that gives the same results for the
    variant (``SAME_RESULTS``): a report then keeps its games as finished, which carries a
    report across machines (the store is local; the published files are in the repository).
    Other rule sets are solved again; until then their published rows stay as they are."""
    if not (folder / "records.csv.gz").exists():
        return {}
    rows, sets = read_files(folder)
    out = {}
    for h, s in sets.items():
        same = {version, *same_results(s["variant"], s["budget_nodes"])}
        out[h] = (s["budget_nodes"], {}, bool(s["solver_versions"]) and set(s["solver_versions"]) <= same)
    made_by = {h: ",".join(s["solver_versions"]) for h, s in sets.items()}
    for r in rows:
        if r["rules_hash"] in out:
            out[r["rules_hash"]][1][r["game"]] = dict(r, budget_nodes=out[r["rules_hash"]][0],
                                                      solver_version=made_by[r["rules_hash"]])
    return out


def pending(folder: Path, version: str) -> dict[str, dict[str, dict]]:
    """The records of ``pending.csv.gz`` in ``folder`` that ``version`` would give (made by it
    or by a version of ``SAME_RESULTS``): rules hash -> game -> record. They are the work of
    a report that has not yet replaced a published row, kept in the repository."""
    path = folder / "pending.csv.gz"
    if not path.exists():
        return {}
    with gzip.open(path, "rt") as f:
        rows = list(csv.DictReader(f))
    out: dict[str, dict[str, dict]] = {}
    for r in _typed(rows):
        if r["solver_version"] in {version, *same_results(r["variant"], int(r["budget_nodes"]))}:
            r["budget_nodes"] = int(r["budget_nodes"])
            out.setdefault(r["rules_hash"], {})[r["game"]] = r
    return out


def games_to_solve(e: Entry, kept: dict, games: Optional[int] = None,
                   pend: Optional[dict] = None) -> list[int]:
    """The games of entry ``e`` (1..its count, or ``games``) that neither ``kept``
    (``published``) holds reusably nor ``pend`` (``pending``) holds, at the entry's budget."""
    n = min(e.games, games) if games else e.games
    h = entry_rules(e).hash()
    budget, done, reusable = kept.get(h, (None, {}, False))
    waiting = {g for g, r in (pend or {}).get(h, {}).items() if r["budget_nodes"] == e.budget_nodes}
    return [g for g in range(1, n + 1)
            if (not reusable or budget != e.budget_nodes or str(g) not in done) and str(g) not in waiting]


def seed_ranges(numbers: list[int]) -> str:
    """[1, 2, 3, 7, 9, 10] -> "1-3,7,9-10" (a ``--seeds`` text)."""
    parts, i = [], 0
    while i < len(numbers):
        j = i
        while j + 1 < len(numbers) and numbers[j + 1] == numbers[j] + 1:
            j += 1
        parts.append(str(numbers[i]) if i == j else f"{numbers[i]}-{numbers[j]}")
        i = j + 1
    return ",".join(parts)


def solve_plan(out: str, kept: dict, pend: dict, run: Callable[[BatchRequest], Optional[BatchSummary]],
               say: Callable[[str], None], only: Collection[str] = (), games: Optional[int] = None,
               jobs: Optional[int] = None, db: str = DEFAULT_DB) -> bool:
    """Solve the plan's rows (those of the variant keys ``only``, if given) into the store
    ``db``: for each row a batch of the games ``games_to_solve`` leaves (``kept``: ``published``
    in the folder ``out``; ``pend``: ``pending``), made by ``run``; ``say`` tells of the games
    already done. Ctrl-C or SIGTERM stops it between or inside the batches: returns whether
    it was interrupted (every finished game is stored by then)."""
    interrupted = False
    old_term = sigterm_as_interrupt()      # SIGTERM as Ctrl-C for the whole report
    try:
        for e in PLAN:
            if only and e.variant not in only:
                continue
            todo = games_to_solve(e, kept, games, pend)
            n = min(e.games, games) if games else e.games
            if n > len(todo):
                say(f"{label({'variant': e.variant, 'profile': e.profile})}: {n - len(todo)} of {n} games "
                    f"already done in {out} by this version")
            if not todo:
                continue
            summary = run(BatchRequest(e.variant, seed_ranges(todo), profile=e.profile, budget_nodes=e.budget_nodes,
                                       jobs=jobs, db=db))
            if summary is not None and summary.interrupted:
                interrupted = True
                break
    except (KeyboardInterrupt, SystemError) as err:
        if not interrupted_by(err):
            raise
        interrupted = True
    finally:
        if old_term is not None:
            signal.signal(signal.SIGTERM, old_term)
    return interrupted


def write_report(db: str, out: str, games: Optional[int], kept: dict, pend: dict,
                 say: Callable[[str], None]) -> None:
    """Write the table's files into the folder ``out`` from the store ``db`` (if there is one)
    and what ``out`` already holds (``kept``, ``pend``: ``published``, ``pending``); ``say``
    tells what was written and how far each row's new run got."""
    store = Store(db, readonly=True) if Path(db).exists() else None
    rows, sets, waiting = records_for(store, PLAN, SOLVER_VERSION, games, kept, pend)
    if store is not None:
        store.close()
    stats = write_files(Path(out), rows, sets, waiting)
    say(f"wrote {len(stats)} rows ({len(rows)} games) to {out}/win-rates.md, win-rates.csv, "
        f"records.csv.gz and rule-sets.json" + (f"; {len(waiting)} pending games to pending.csv.gz"
                                                if waiting else ""))
    for e in PLAN:                      # how far each row's new run got
        h = entry_rules(e).hash()
        n = sum(r["rules_hash"] == h for r in waiting)
        if n:
            say(f"  {label({'variant': e.variant, 'profile': e.profile})}: {n} new games pending, "
                f"not yet in the row (the plan: {e.games:,})")


def records_for(store, entries: Iterable[Entry], version: str, games: Optional[int] = None,
                kept: Optional[dict] = None, pend: Optional[dict] = None) -> tuple[list[dict], dict, list[dict]]:
    """The table's records, its rule sets and the pending records, for ``entries``.

    A row holds games 1..k, the longest run from game 1 with every game done: a run stopped
    midway leaves the slowest deals undone, and a row with gaps would leave out the hardest
    deals. The *new* records of a row are those that ``version`` gives (made by it or by a
    version of ``SAME_RESULTS``) at the row's budget: from the store, else from ``pend``
    (``pending``). The row is made of them, up to ``games`` if given, with the published
    records (``kept``, ``published``) where those are reusable. A published row that is not
    reusable stays as it is until the new run covers as many games; ``games`` never cuts a
    published row. The new records that the row leaves out are *pending*: written beside the
    table so that another machine goes on from them. Store records of other versions count
    only where nothing is published (as ``--no-solve`` on a store of its own). Entries with
    no record at all have no row."""
    rows, sets, waiting = [], {}, []
    for e in entries:
        rules = entry_rules(e)
        h = rules.hash()
        same = {version, *same_results(e.variant, e.budget_nodes)}
        n = min(e.games, games) if games else e.games
        budget, old, reusable = (kept or {}).get(h, (None, {}, False))
        reusable = reusable and budget == e.budget_nodes
        new = {g: r for g, r in (pend or {}).get(h, {}).items() if r["budget_nodes"] == e.budget_nodes}
        if store is not None:
            stored = [r for r in store.latest(rules_hash=h) if r["budget_nodes"] == e.budget_nodes]
            new.update({r["game"]: r for r in stored if r["solver_version"] in same})
            if not old:
                old, budget = {r["game"]: r for r in stored if r["solver_version"] not in same}, e.budget_nodes
        published_run = _run(old, e.games)
        if reusable:
            by_game, k = {**old, **new}, _run({**old, **new}, max(n, published_run))
        elif _run(new, n) < published_run:
            by_game, k = old, published_run     # until the new run catches up
        else:
            by_game, k, budget = new, _run(new, n), e.budget_nodes
        waiting += [{f: r[f] for f in PENDING_FIELDS} for g, r in new.items()
                    if by_game.get(g) is not r or int(g) > k]
        if not k:
            continue
        rows += [{f: by_game[str(g)][f] for f in RECORD_FIELDS} for g in range(1, k + 1)]
        sets[h] = {"variant": e.variant, "profile": e.profile, "rules": rules.as_dict(),
                   "budget_nodes": budget, "games": f"1-{k}", "planned": e.games,
                   "solver_versions": sorted({v for g in range(1, k + 1)
                                              for v in by_game[str(g)]["solver_version"].split(",")})}
    return rows, sets, waiting


def _run(by_game: dict, n: int) -> int:
    """The longest k <= n with games 1..k all in ``by_game``."""
    k = 0
    while k < n and str(k + 1) in by_game:
        k += 1
    return k


def table(rows: list[dict], sets: dict) -> list[GroupStats]:
    """The table's rows from the records and rule sets (in plan order)."""
    full = [dict(r, rules=json.dumps(sets[r["rules_hash"]]["rules"], sort_keys=True),
                 budget_nodes=sets[r["rules_hash"]]["budget_nodes"],
                 solver_version=",".join(sets[r["rules_hash"]]["solver_versions"])) for r in rows]
    stats = {(s.variant, s.rules_hash): s for s in group_stats(full)}
    return [replace(stats[(v["variant"], h)], variant=label(v)) for h, v in sets.items()
            if (v["variant"], h) in stats]


def label(rule_set: dict) -> str:
    """A row's name: the variant, and its profile if any (``alhambra (pysolfc)``)."""
    return rule_set["variant"] + (f" ({rule_set['profile']})" if rule_set["profile"] else "")


def write_files(folder: Path, rows: list[dict], sets: dict, waiting: Iterable[dict] = ()) -> list[GroupStats]:
    """Write the records, the rule sets, the table and the pending records (``records_for``)
    into ``folder``: each file first under a temporary name, then all renamed at once, with
    Ctrl-C and SIGTERM held meanwhile, so that an interrupt leaves the old files or the new."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise OutputError(f"cannot write the report into {folder}: {e.strerror}") from None
    stats = table(rows, sets)
    waiting = list(waiting)
    files = {"records.csv.gz": _csv_gz(PUBLISHED_FIELDS, with_tiers(rows, sets)),
             "rule-sets.json": (json.dumps(sets, indent=1) + "\n").encode(),      # in plan order
             "win-rates.csv": render(stats, "csv").encode(),
             "win-rates.md": markdown(stats, sets).encode(),
             TIERS_NAME: tiers_json(rows, sets), **winnable_lists(rows, sets)}
    if waiting:
        files["pending.csv.gz"] = _csv_gz(PENDING_FIELDS, waiting)
    with _signals_held():
        written = []
        try:
            for name, data in files.items():
                written.append(folder / (name + ".tmp"))
                written[-1].parent.mkdir(parents=True, exist_ok=True)
                written[-1].write_bytes(data)
        except OSError as e:              # a full disk: the old files stay, the new ones go
            for tmp in written:
                tmp.unlink(missing_ok=True)
            raise OutputError(f"cannot write {written[-1]}: {e.strerror}") from None
        for name in files:
            os.replace(folder / (name + ".tmp"), folder / name)
        if not waiting:
            (folder / "pending.csv.gz").unlink(missing_ok=True)
    return stats


WINNABLE_DIR = "winnable"


def with_tiers(rows: list[dict], sets: dict) -> list[dict]:
    """The records, each won one with its tier in its row (``solver.difficulty``)."""
    from solver.difficulty import calibrate, tier_of
    rows_bounds = {h: row["bounds"] for h, row in calibrate(rows, sets).items()}
    return [{**{f: r[f] for f in RECORD_FIELDS},
             "tier": tier_of(r["nodes"], rows_bounds[r["rules_hash"]]) if r["verdict"] == "won" else ""}
            for r in rows]


def winnable_lists(rows: list[dict], sets: dict) -> dict[str, bytes]:
    """``winnable/<row>/<tier>.txt``: each row's won games of each difficulty tier, one
    number a line, ascending (``solver.difficulty.games_by_tier``); ``<row>`` is the variant,
    with ``-<profile>`` for a profile's row."""
    from solver.difficulty import calibrate, games_by_tier
    out = {}
    tiers = calibrate(rows, sets)
    names = [s["variant"] + (f"-{s['profile']}" if s.get("profile") else "") for s in sets.values()]
    for (rules_hash, rule_set), name in zip(sets.items(), names):
        if rules_hash not in tiers:
            continue
        if names.count(name) > 1:               # rows of one variant and profile told apart by their rules
            name += f"-{rules_hash}"
        for tier, games in games_by_tier(rows, rules_hash, tiers[rules_hash]["bounds"]).items():
            out[f"{WINNABLE_DIR}/{name}/{tier}.txt"] = "".join(f"{g}\n" for g in games).encode()
    return out


@contextmanager
def _signals_held():
    """Ctrl-C and SIGTERM wait until the block ends (they are delivered then)."""
    held = {signal.SIGINT, signal.SIGTERM}
    old = signal.pthread_sigmask(signal.SIG_BLOCK, held)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def _csv_gz(fields: tuple[str, ...], rows: Iterable[dict]) -> bytes:
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=fields, lineterminator="\n")
    w.writeheader()
    w.writerows(sorted(rows, key=lambda r: (r["variant"], r["rules_hash"], int(r["game"]))))
    # mtime 0 and no file name: the same records give the same bytes (the file is kept in git)
    return gzip.compress(buf.getvalue().encode(), mtime=0)


def _typed(rows: list[dict]) -> list[dict]:
    """Records read from CSV with their numbers as numbers."""
    for r in rows:
        r["nodes"] = int(r["nodes"])
        r["seconds"] = float(r["seconds"])
        r["most_home"] = int(r["most_home"]) if r["most_home"] else None
        r["reason"] = r["reason"] or None
    return rows


def read_files(folder: Path) -> tuple[list[dict], dict]:
    """The records and rule sets ``write_files`` wrote (numbers as numbers)."""
    with gzip.open(folder / "records.csv.gz", "rt") as f:
        rows = _typed(list(csv.DictReader(f)))
    return rows, json.loads((folder / "rule-sets.json").read_text())


def table_from_files(folder: Path) -> list[GroupStats]:
    return table(*read_files(folder))


def markdown(stats: list[GroupStats], sets: dict) -> str:
    """The table as the page ``results/win-rates.md``."""
    lines = ["# Win rates", "",
             "Generated by `patience report` from `records.csv.gz` and `rule-sets.json` (beside this",
             "file); do not edit by hand. Every *won* is a move list the reference engine replayed to a",
             "win; every *lost* a complete search; *unknown* ran out of its node budget. Where a tenth or",
             "more of the games are undecided, the \"win rate\" column leads with the interval that counts",
             "the unknowns both ways (all lost / all won).", "",
             render(stats, "markdown"), "", "## Rule sets", ""]
    for h, v in sets.items():
        opts = ", ".join(f"{k}={json.dumps(x)}" for k, x in sorted(v["rules"].items()))
        prof = f", profile `{v['profile']}`" if v["profile"] else ""
        k = int(v["games"].split("-")[1])
        part = f" (the plan: {v['planned']:,}; not all run yet)" if k < v["planned"] else ""
        lines.append(f"- `{h}`: **{v['variant']}**{prof}; games {v['games']}{part}, "
                     f"{v['budget_nodes']:,} nodes per deal, {', '.join(v['solver_versions']) or '-'}; {opts}")
    return "\n".join(lines) + "\n"
