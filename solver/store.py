"""The results store: SQLite in WAL mode, one record per solved seed.

The batch driver is the only writer; each record is committed as soon as it arrives, so a
run killed at any moment (Ctrl-C or SIGKILL) loses at most the seeds in flight and never a
stored record. Game numbers are text (PySolFC's numbers exceed 2^63). Re-solving a seed
(``--rerun-unknown``) adds a record and keeps the old one: the newest record of a seed under
a rule set is its current verdict.

Schema 2 added ``most_home``; a schema-1 store is upgraded in place when opened for writing
(its old records keep ``most_home`` NULL) and read as it is otherwise.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import os
import sqlite3
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Iterator, Optional, TextIO
from urllib.parse import quote

from solver.errors import RulesError, StoreError
from solver.files import regular_or_absent, replace_whole

DEFAULT_DB = "results/results.db"     # the commands' --db
SCHEMA_VERSION = 2
READABLE_VERSIONS = ("1", "2")     # schema 1: no most_home column


COLUMNS = ("variant", "rules_hash", "rules", "game", "verdict", "reason", "nodes", "states", "seconds",
           "table_bytes", "solution_length", "moves", "solver_version", "budget_nodes", "budget", "dominance",
           "created", "most_home")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS results (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    variant TEXT NOT NULL,
    rules_hash TEXT NOT NULL,
    rules TEXT NOT NULL,            -- the full option set, JSON
    game TEXT NOT NULL,             -- PySolFC game number as text
    verdict TEXT NOT NULL CHECK (verdict IN ('won', 'lost', 'unknown')),
    reason TEXT,                    -- for unknown: nodes, time or memory
    nodes INTEGER NOT NULL,
    states INTEGER NOT NULL,
    seconds REAL NOT NULL,
    table_bytes INTEGER NOT NULL,   -- peak transposition-table size
    solution_length INTEGER,
    moves TEXT,                     -- the certified winning line, in the move notation
    solver_version TEXT NOT NULL,
    budget_nodes INTEGER NOT NULL,
    budget TEXT NOT NULL,           -- the full budget, JSON
    dominance TEXT NOT NULL,        -- enabled dominance rules, JSON list
    created TEXT NOT NULL,
    most_home INTEGER               -- most cards on the foundations in any position searched
);
CREATE INDEX IF NOT EXISTS results_seed ON results (rules_hash, game);
"""


@dataclass
class Record:
    variant: str
    rules_hash: str
    rules: str
    game: str
    verdict: str
    reason: Optional[str]
    nodes: int
    states: int
    seconds: float
    table_bytes: int
    solution_length: Optional[int]
    moves: Optional[str]
    solver_version: str
    budget_nodes: int
    budget: str
    dominance: str
    created: str
    most_home: Optional[int] = None     # all cards for a win; how far an unknown or lost search got

    def as_row(self) -> tuple:
        return tuple(getattr(self, c) for c in COLUMNS)


class Store:
    """An open results store."""

    def __init__(self, path: str | Path, readonly: bool = False):
        self.path = Path(path)
        self._lock = None
        if readonly and not self.path.exists():
            raise StoreError(f"no results store at {self.path}")
        regular_or_absent(self.path, "--db")      # a pipe would block SQLite for ever
        try:
            if not readonly:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            # the path is quoted: '?', '#' and '%' in it are part of the name, never URI
            # parameters (``q.db?mode=memory`` would otherwise store nothing on disk)
            # (as bytes: a name that is not UTF-8 text is still a name)
            base = "file:" + quote(os.fsencode(str(self.path.absolute())), safe="/")
            if readonly:
                try:
                    self.db = self._connect(base + "?mode=ro")
                    self._check_tables()
                except sqlite3.OperationalError:
                    # A store in a read-only folder: WAL mode cannot make its -shm file.
                    # Read the file as it is (immutable: no locks, no WAL applied; a store
                    # is checkpointed when its batch ends).
                    self.db = self._connect(base + "?immutable=1")
                    self._check_tables()
            else:
                self.db = self._connect(base)
                self._check_tables()
                self.db.execute("PRAGMA journal_mode = WAL")
                self.db.execute("PRAGMA synchronous = NORMAL")
                self.db.executescript(_SCHEMA)
                cur = self.db.execute("SELECT value FROM meta WHERE key = 'schema_version'")
                row = cur.fetchone()
                if row is None:
                    self.db.execute("INSERT INTO meta VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),))
                elif row[0] == "1":
                    self._upgrade_from_1()
            self._check_version(readonly)
            self._check_records()
        except sqlite3.DatabaseError as e:
            raise StoreError(_explain(self.path, e)) from None
        except OSError as e:
            raise StoreError(f"cannot open results store {self.path}: {e.strerror}") from None

    @staticmethod
    def _connect(uri: str) -> sqlite3.Connection:
        db = sqlite3.connect(uri, uri=True, timeout=2.0, isolation_level=None)
        db.execute("PRAGMA busy_timeout = 2000")
        return db

    def _check_tables(self) -> None:
        """A database that holds tables but not this tool's (another program's database) is
        refused before anything is written to it or read from it."""
        foreign = [f"{t} {n}" for t, n in self.db.execute(
            "SELECT type, name FROM sqlite_master WHERE type IN ('trigger', 'view')")]
        if foreign:                               # a trigger runs on every insert: it could rewrite verdicts
            raise StoreError(f"{self.path} holds what this tool never creates ({', '.join(foreign[:3])}); "
                             f"give another --db")
        tables = {r[0] for r in self.db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        tables.discard("sqlite_sequence")
        if not tables:
            return                                # a new, empty file: ours to set up
        if "meta" in tables:
            self._check_version(readonly=True)    # a store of another schema version says so
        if "meta" not in tables or "results" not in tables:
            raise StoreError(f"{self.path} is not a results store of this tool (it holds the tables "
                             f"{', '.join(sorted(tables)[:5])}); give another --db")
        cols = {r[1] for r in self.db.execute("PRAGMA table_info(results)")}
        missing = [c for c in COLUMNS if c not in cols and c != "most_home"]     # schema 1 lacks most_home
        if missing:
            raise StoreError(f"{self.path} is not a results store of this tool (its results table has no "
                             f"{', '.join(missing[:3])} column); give another --db")

    # What a record's cells must be: SQLite stores any value in any column, so an edited or
    # foreign store can hold text where a number belongs, or JSON that does not parse.
    _CELL_RULES = ("typeof(nodes) != 'integer' OR typeof(states) != 'integer' OR typeof(table_bytes) != 'integer' "
                   "OR typeof(budget_nodes) != 'integer' OR typeof(seconds) NOT IN ('real', 'integer') "
                   "OR typeof(solution_length) NOT IN ('integer', 'null') OR typeof(game) != 'text' "
                   "OR json_valid(rules) = 0 OR json_valid(budget) = 0 OR json_valid(dominance) = 0")

    def _check_records(self) -> None:
        """A store whose records do not have this tool's types (a number as text, a budget
        that is not JSON: an edited or foreign file) is refused with the first such record,
        rather than failing in the middle of a batch or a table."""
        cols = {r[1] for r in self.db.execute("PRAGMA table_info(results)")}
        rules = self._CELL_RULES + (" OR typeof(most_home) NOT IN ('integer', 'null')" if "most_home" in cols else "")
        bad = self.db.execute(f"SELECT id FROM results WHERE {rules} LIMIT 1").fetchone()
        if bad is not None:
            raise StoreError(f"{self.path} holds a record this tool did not write (id {bad[0]}: a cell of the wrong "
                             f"type, or JSON that does not parse); repair or remove it, or give another --db")

    def _upgrade_from_1(self) -> None:
        """Schema 1 to 2: add the most_home column (NULL in the old records), in one transaction."""
        self.db.execute("BEGIN IMMEDIATE")
        try:
            # Read the version again under the write lock: another process may have upgraded it.
            if self.db.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()[0] == "1":
                self.db.execute("ALTER TABLE results ADD COLUMN most_home INTEGER")
                self.db.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'", (str(SCHEMA_VERSION),))
            self.db.execute("COMMIT")
        except BaseException:
            self.db.execute("ROLLBACK")
            raise

    def _check_version(self, readonly: bool) -> None:
        try:
            row = self.db.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
        except sqlite3.DatabaseError as e:
            raise StoreError(_explain(self.path, e)) from None
        ok = READABLE_VERSIONS if readonly else (str(SCHEMA_VERSION),)
        if row is None or row[0] not in ok:
            have = row[0] if row else "none"
            raise StoreError(f"{self.path} is a results store of schema version {have}; this tool uses "
                             f"{SCHEMA_VERSION} (export it with the tool that wrote it, or use another --db)")

    def close(self) -> None:
        self.db.close()
        if self._lock is not None:
            self._lock.close()            # releases the writer's lock
            self._lock = None

    def claim_writer(self) -> None:
        """Hold the store's one-writer lock until ``close`` (an advisory lock on
        ``<store>.lock``, released by the system if the process dies); a second batch on
        the same store is refused with one line instead of storing the overlap twice."""
        import fcntl
        try:                              # never through a link planted as the lock file
            f = os.fdopen(os.open(f"{self.path}.lock", os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o666), "r+")
        except OSError as e:
            raise StoreError(f"cannot lock {self.path}: {self.path}.lock: {e.strerror}") from None
        try:
            fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            f.close()
            raise StoreError(f"another batch is writing to {self.path}; wait for it to end, "
                             f"or give another --db") from None
        self._lock = f

    def add(self, rec: Record) -> None:
        """Store one record, committed at once."""
        try:
            self.db.execute(f"INSERT INTO results ({', '.join(COLUMNS)}) VALUES ({', '.join('?' * len(COLUMNS))})",
                            rec.as_row())
        except sqlite3.DatabaseError as e:
            raise StoreError(_explain(self.path, e)) from None

    def done_games(self, rules_hash: str, solver_versions: tuple[str, ...], budget_nodes: int, dominance: str,
                   search: Optional[str] = None) -> set[str]:
        """Games already stored under these rules, by one of these solver versions, at this
        budget, with these dominance rules and search mode (``budget.search``; None: any)."""
        marks = ",".join("?" * len(solver_versions))
        cur = self.db.execute(f"SELECT DISTINCT game FROM results WHERE rules_hash = ? AND solver_version IN ({marks}) "
                              "AND budget_nodes = ? AND dominance = ? "
                              "AND (? IS NULL OR json_extract(budget, '$.search') = ?)",
                              (rules_hash, *solver_versions, budget_nodes, dominance, search, search))
        return {r[0] for r in cur}

    def latest(self, rules_hash: Optional[str] = None, variant: Optional[str] = None) -> Iterator[dict]:
        """The newest record of each (rules, game)."""
        where, args = [], []
        if rules_hash:
            where.append("rules_hash = ?")
            args.append(rules_hash)
        if variant:
            where.append("variant = ?")
            args.append(variant)
        cond = ("WHERE " + " AND ".join(where)) if where else ""
        q = (f"SELECT * FROM results WHERE id IN (SELECT MAX(id) FROM results {cond} "
             f"GROUP BY rules_hash, game) ORDER BY variant, rules_hash, id")
        cur = self.db.execute(q, args)
        names = [d[0] for d in cur.description]
        for row in cur:
            yield dict(zip(names, row))

    def all_records(self) -> Iterator[dict]:
        cur = self.db.execute("SELECT * FROM results ORDER BY id")
        names = [d[0] for d in cur.description]
        for row in cur:
            yield dict(zip(names, row))

    def count(self) -> int:
        return self.db.execute("SELECT COUNT(*) FROM results").fetchone()[0]


def _explain(path: Path, e: Exception) -> str:
    msg = str(e)
    if "locked" in msg:
        return f"results store {path} is locked by another process (one batch at a time per store)"
    if "readonly" in msg or "read-only" in msg:
        return f"results store {path} is read-only; give a writable --db"
    if "not a database" in msg or "file is encrypted" in msg:
        return f"{path} is not a results store (not an SQLite database)"
    return f"results store {path}: {msg}"


def rules_json(options: dict) -> str:
    return json.dumps(options, sort_keys=True)


# ----- export (``patience export``) -----------------------------------------------------------

EXPORT_FORMATS = ("csv", "jsonl", "parquet")


def write_records(rows: list[dict], fmt: str, out: str) -> None:
    """Write records (``Store.all_records``) to the file ``out`` ('-': standard output, csv or
    jsonl only) as ``csv`` (a header of the columns), ``jsonl`` (an object a line) or ``parquet``."""
    if fmt == "parquet":
        try:
            import pyarrow as pa
            import pyarrow.parquet as pq
        except ImportError:
            raise RulesError("--format parquet needs pyarrow: pip install pyarrow") from None
        sink = pa.BufferOutputStream()
        pq.write_table(pa.Table.from_pylist(rows), sink)
        replace_whole(out, sink.getvalue().to_pybytes())
        return
    with _text_out(out, newline="") as f:
        if fmt == "csv":
            w = csv.DictWriter(f, fieldnames=list(rows[0]) if rows else ["id"])
            w.writeheader()
            w.writerows(rows)
        else:
            for r in rows:
                f.write(json.dumps(r) + "\n")


def games_with_verdict(latest: list[dict], verdict: str, db: str) -> tuple[tuple[str, str], list[str]]:
    """The one rule set (variant, rules hash) of ``latest`` (newest records, ``Store.latest``)
    and its game numbers whose record has ``verdict``, in ascending order (numbers first, by
    value). ``latest`` of no rule set or of several is an error (``db`` names the store)."""
    groups = sorted({(r["variant"], r["rules_hash"]) for r in latest})
    if not groups:
        raise RulesError(f"no records in {db} match")
    if len(groups) > 1:
        raise RulesError(f"{db} holds {len(groups)} rule sets ({', '.join(f'{v} {h}' for v, h in groups)}): "
                         f"pick one with --variant and --rules-hash")
    games = sorted((r["game"] for r in latest if r["verdict"] == verdict),
                   key=lambda g: (0, int(g), "") if g.isdigit() else (1, 0, g))
    return groups[0], games


def write_lines(lines: Iterable[str], out: str) -> None:
    """Write ``lines``, one a line, to the file ``out`` ('-': standard output)."""
    text = "".join(f"{x}\n" for x in lines)
    with _text_out(out) as f:
        f.write(text)


@contextlib.contextmanager
def _text_out(out: str, newline: Optional[str] = None) -> Iterator[TextIO]:
    """Text for ``out``, or standard output for '-' (left open). A file is written whole
    when the block ends, or not at all (``solver.files.replace_whole``)."""
    if out == "-":
        with _cannot_write(out):
            yield sys.stdout
        return
    buf = io.StringIO(newline=newline)
    yield buf
    replace_whole(out, buf.getvalue())


@contextlib.contextmanager
def _cannot_write(out: str) -> Iterator[None]:
    """A file that cannot be written is one line of error. Standard output's errors go on
    to the command, whose handling ends a closed pipe quietly and reports a full disk."""
    try:
        yield
    except OSError as e:
        if out == "-":
            raise
        raise RulesError(f"cannot write {out}: {e.strerror}") from None
