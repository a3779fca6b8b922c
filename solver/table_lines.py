"""The published table made checkable without re-solving: each won record's winning line and
each lost record's proof, shipped beside the table in ``results/lines/``.

One file a row of the table, ``results/lines/<rules hash>.jsonl.xz`` (JSON Lines, xz): a
header naming the row (``{"row": <rules hash>, "variant": ..., "rules": {...}, "budget_nodes":
..., "solver": "patience-solver X.Y.Z"}``: the version that rebuilt it), then one object a
game, in game order:

* ``{"game": 17, "verdict": "won", "moves": "t0>f0:AC ..."}``: a line that the reference
  engine replayed to a win from PySolFC's deal of that game under the row's rules;
* ``{"game": 18, "verdict": "lost", "proof": "search", "rules": [...]}``: how the loss is
  proved: ``search`` (a complete search with the proved rules named), or the rule outside
  the search that decided it (``docs/proofs.md``);
* ``{"game": 19, "verdict": "unknown", "table": "won"}``: this version did not decide again,
  within the row's budget, a game the table decides (no line or proof shipped for it).

``rebuild`` makes the files: each decided game of ``records.csv.gz`` solved again by this
version at the row's node budget (the winning line kept after its one-move detours). A game
whose verdict now contradicts the table's stops the rebuild: that is a bug to report, never
a line to ship. Work in progress goes to ``<hash>.partial.jsonl``, a line a game, flushed
as it is solved, so an interrupted rebuild goes on where it stopped; kept in the repository
(like ``pending.csv.gz``), it lets a rebuild go on over several sessions or machines. A row
whose file this version made whole is not solved again.

``audit`` reads the files back: every line replayed on the reference engine, and a random
sample of lost games solved again (``solver.driver.solve``), printing what held.
"""

from __future__ import annotations

import json
import lzma
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterator, Optional

from solver.files import replace_whole
from solver.formats import Deal, pysolfc_deal
from solver.variants import Rules, rules_from_dict

LINES_DIR = "lines"
Say = Callable[[str], None]


def row_rules(rule_set: dict) -> Rules:
    """The rules of a row of ``rule-sets.json``."""
    return rules_from_dict(rule_set["variant"], rule_set["rules"])


def row_deal(rules: Rules, game: int) -> Deal:
    return pysolfc_deal(rules, game)


def lines_path(folder: Path, rules_hash: str) -> Path:
    return folder / LINES_DIR / f"{rules_hash}.jsonl.xz"


def read_lines(path: Path) -> Iterator[dict]:
    """The entries of one row's file (its games; not the header)."""
    with lzma.open(path, "rt") as f:
        for text in f:
            if text.strip():
                e = json.loads(text)
                if "game" in e:
                    yield e


def read_header(path: Path) -> dict:
    """The header of one row's file (empty for a file without one)."""
    with lzma.open(path, "rt") as f:
        e = json.loads(f.readline() or "{}")
    return e if "row" in e else {}


def write_row(folder: Path, rules_hash: str, rule_set: dict, entries: list[dict], solver: str) -> Path:
    """Write one row's file, whole or not at all: the header, then ``entries`` in game order."""
    header = row_header(rules_hash, rule_set, solver)
    text = "".join(json.dumps(e) + "\n" for e in [header] + sorted(entries, key=lambda e: e["game"]))
    path = lines_path(folder, rules_hash)
    replace_whole(path, lzma.compress(text.encode(), preset=9 | lzma.PRESET_EXTREME))
    return path


def _partial(folder: Path, rules_hash: str) -> Path:
    return folder / LINES_DIR / f"{rules_hash}.partial.jsonl"


def _done(partial: Path, header: dict) -> dict[int, dict]:
    """The entries an interrupted rebuild kept (a torn last line is dropped): none when the
    partial file's header is not ``header`` (another version, budget or rules made it)."""
    out: dict[int, dict] = {}
    if not partial.exists():
        return out
    lines = partial.read_text().splitlines()
    try:
        if not lines or json.loads(lines[0]) != header:
            return out
    except json.JSONDecodeError:
        return out
    for text in lines[1:]:
        try:
            e = json.loads(text)
        except json.JSONDecodeError:
            continue
        if isinstance(e, dict) and isinstance(e.get("game"), int):
            out[e["game"]] = e
    return out


def row_header(rules_hash: str, rule_set: dict, solver: str) -> dict:
    """What names a row's lines: the row, its rules and budget, and the version solving it."""
    return {"row": rules_hash, "variant": rule_set["variant"], "profile": rule_set.get("profile"),
            "rules": rule_set["rules"], "budget_nodes": rule_set["budget_nodes"], "solver": solver}


def entry_for(deal: Deal, rules_hash: str, table_verdict: str, nodes: int, dominance: tuple) -> dict:
    """One game solved again at ``nodes``: its entry (a ``ValueError`` when this version's
    verdict contradicts the table's)."""
    from solver.driver import Budget, solve
    from solver.moves import format_moves
    res = solve(deal, Budget(nodes=nodes, shorten=0), dominance)
    game = int(deal.source["game_number"])
    if res.verdict != "unknown" and res.verdict != table_verdict:
        raise ValueError(f"{rules_hash} game {game}: the table says {table_verdict}, this version {res.verdict}")
    if res.verdict == "won":
        return {"game": game, "verdict": "won", "moves": format_moves(res.moves)}
    if res.verdict == "lost":
        return {"game": game, "verdict": "lost", "proof": res.proof or "search", "rules": list(res.dominance)}
    return {"game": game, "verdict": "unknown", "table": table_verdict, "reason": res.reason}


def _solve_entry(job: tuple) -> dict:
    """One game of a row solved again (a worker's job: rules hash, rule set, game, the
    table's verdict)."""
    from solver.adapter import expand_dominance
    rules_hash, rule_set, game, table_verdict = job
    rules = row_rules(rule_set)
    return entry_for(row_deal(rules, game), rules_hash, table_verdict, rule_set["budget_nodes"],
                     expand_dominance(rules, ("all",)))


def rebuild(folder: Path, rules_hash: str, records: list[dict], rule_set: dict, say: Say,
            limit: Optional[int] = None, jobs: int = 1) -> int:
    """Solve again the decided games of ``records`` (one row's) not yet in the row's partial
    file, appending each entry as it comes (``jobs`` worker processes,
    ``solver.batch.run_local``); with every decided game done, write the row's file. At
    most ``limit`` games this call. Returns the games solved."""
    from solver.batch import run_local
    from solver.adapter import expand_dominance
    rules = row_rules(rule_set)
    if rules.hash() != rules_hash:
        raise ValueError(f"rule-sets.json row {rules_hash} has the rules of {rules.hash()}")
    from solver.batch import SOLVER_VERSION
    dominance = expand_dominance(rules, ("all",))
    decided = {r["game"]: r["verdict"] for r in records if r["verdict"] in ("won", "lost")}
    header = row_header(rules_hash, rule_set, SOLVER_VERSION)
    if _complete(folder, rules_hash, decided, header):
        return 0
    partial = _partial(folder, rules_hash)
    partial.parent.mkdir(parents=True, exist_ok=True)
    done = {g: e for g, e in _done(partial, header).items() if g in decided}
    for g, e in done.items():                   # what a partial file says is checked like a new solve
        _agrees(rules_hash, g, decided[g], e)
    todo = [g for g in sorted(decided) if g not in done][:limit]
    if not done:
        replace_whole(partial, json.dumps(header) + "\n")
    if jobs > 1 and todo:
        from solver.driver import warm_up
        warm_up(rules, dominance)          # compiled once here, inherited by the forked workers
    with open(partial, "a") as f:
        for i, e in enumerate(run_local([(rules_hash, rule_set, g, decided[g]) for g in todo], jobs, _solve_entry)):
            f.write(json.dumps(e) + "\n")
            f.flush()
            done[e["game"]] = e
            if i % 100 == 0:
                say(f"{rules_hash} ({rule_set['variant']}): game {e['game']}, {len(done):,} of {len(decided):,}")
    if all(g in done for g in decided):
        write_row(folder, rules_hash, rule_set, [done[g] for g in decided], SOLVER_VERSION)
        partial.unlink()
    return len(todo)


def _agrees(rules_hash: str, game: int, table_verdict: str, e: dict) -> None:
    """A ``ValueError`` when entry ``e`` contradicts the table's verdict, or is not whole."""
    verdict = e.get("verdict")
    whole = {"won": "moves", "lost": "proof", "unknown": "table"}.get(verdict)
    if whole is None or whole not in e:
        raise ValueError(f"{rules_hash} game {game}: a malformed entry {json.dumps(e)[:200]}")
    if verdict != "unknown" and verdict != table_verdict:
        raise ValueError(f"{rules_hash} game {game}: the table says {table_verdict}, this version {verdict}")


def _complete(folder: Path, rules_hash: str, decided: dict[int, str], header: dict) -> bool:
    """Whether the row's file exists, made by this version at the row's budget and rules
    (``header``), with an entry for each decided game of ``decided``."""
    path = lines_path(folder, rules_hash)
    if not path.exists() or read_header(path) != header:
        return False
    return set(decided) <= {e["game"] for e in read_lines(path)}


@dataclass
class RowAudit:
    """What ``audit`` found for one row of the table."""

    rules_hash: str
    variant: str
    won: int = 0                               # won records in the table
    replayed: int = 0                          # shipped lines the reference engine replayed to a win
    failed: list = field(default_factory=list)    # games whose line did not replay (or mismatched the table)
    missing: int = 0                           # decided records with no entry shipped
    undecided: int = 0                         # decided records this version did not decide again (no line, no proof)
    lost: int = 0                              # lost records in the table
    proofs: dict = field(default_factory=dict)    # proof name -> lost records naming it
    sampled: int = 0                           # lost games solved again
    sample_held: int = 0                       # ... and proved lost again
    sample_failed: list = field(default_factory=list)   # ... found won (a contradiction)
    shipped: bool = False


def audit_row(folder: Path, rules_hash: str, records: list[dict], rule_set: dict, sample: int, seed: int,
              say: Say) -> RowAudit:
    """Replay every shipped line of one row on the reference engine and solve again
    ``sample`` of its lost games at the row's budget (drawn with ``seed`` and the row's
    hash: the same sample whatever other rows are audited). An entry that is not whole, or
    that the table does not back, fails; an unreadable file is a ``DealFileError``."""
    rules = row_rules(rule_set)
    table = {r["game"]: r["verdict"] for r in records}
    out = RowAudit(rules_hash, rule_set["variant"], won=sum(v == "won" for v in table.values()),
                   lost=sum(v == "lost" for v in table.values()))
    path = lines_path(folder, rules_hash)
    if not path.exists():
        out.missing = out.won + out.lost
        return out
    out.shipped = True
    seen: set = set()
    try:
        for e in read_lines(path):
            _audit_entry(out, rules, table, seen, e)
            if out.replayed and out.replayed % 2000 == 0 and e.get("verdict") == "won":
                say(f"{rules_hash} ({out.variant}): {out.replayed:,} lines replayed")
    except (lzma.LZMAError, EOFError, OSError, ValueError) as e:
        from solver.errors import DealFileError
        raise DealFileError(f"cannot read {path}: {e}") from None
    out.missing = sum(1 for g, v in table.items() if v in ("won", "lost") and g not in seen)
    lost_games = sorted(g for g, v in table.items() if v == "lost")
    rng = random.Random(f"{seed}/{rules_hash}")
    for g in rng.sample(lost_games, min(sample, len(lost_games))):
        say(f"{rules_hash} ({out.variant}): solving lost game {g} again")
        _sample_lost(out, rules, rule_set, g)
    return out


def _audit_entry(out: RowAudit, rules: Rules, table: dict, seen: set, e: dict) -> None:
    """One entry of a row's file, counted into ``out``: a game seen twice, an entry that is
    not whole or that the table does not back, and a line that does not replay to a win
    fail."""
    from solver.errors import NotationError
    from solver.moves import parse_moves
    from solver.playback import replay
    g = e.get("game")
    verdict = e.get("verdict")
    whole = {"won": "moves", "lost": "proof", "unknown": "table"}.get(verdict)
    if g in seen or whole is None or whole not in e or table.get(g) not in ("won", "lost") \
            or (verdict != "unknown" and table[g] != verdict):
        out.failed.append(g)
        seen.add(g)
        return
    seen.add(g)
    if verdict == "won":
        try:
            ok = replay(row_deal(rules, g), parse_moves(e["moves"])).ok
        except NotationError:
            ok = False
        if ok:
            out.replayed += 1
        else:
            out.failed.append(g)
    elif verdict == "lost":
        out.proofs[e["proof"]] = out.proofs.get(e["proof"], 0) + 1
    else:
        out.undecided += 1


def _sample_lost(out: RowAudit, rules: Rules, rule_set: dict, game: int) -> None:
    """A lost game of the table solved again at the row's budget, counted into ``out``."""
    from solver.adapter import expand_dominance
    from solver.driver import Budget, solve
    res = solve(row_deal(rules, game), Budget(nodes=rule_set["budget_nodes"], shorten=0),
                expand_dominance(rules, ("all",)))
    out.sampled += 1
    if res.verdict == "lost":
        out.sample_held += 1
    elif res.verdict == "won":
        out.sample_failed.append(game)


def row_records(records: list[dict], rules_hash: str) -> list[dict]:
    """One row's records, game numbers as numbers."""
    return [dict(r, game=int(r["game"])) for r in records if r["rules_hash"] == rules_hash]


def audit_text(a: RowAudit) -> str:
    """One row's audit, told in a line."""
    name = f"{a.variant} ({a.rules_hash})"
    if not a.shipped:
        return f"{name}: no lines shipped ({a.won:,} won, {a.lost:,} lost in the table): not audited"
    proofs = ", ".join(f"{n:,} {p}" for p, n in sorted(a.proofs.items())) or "none"
    text = (f"{name}: {a.replayed:,} of {a.won:,} winning lines replayed to a win; {a.lost:,} lost "
            f"(proofs: {proofs}); {a.sample_held} of {a.sampled} lost games sampled proved lost again")
    if a.undecided or a.missing:
        text += f"; {a.undecided + a.missing:,} decided games without a line or proof"
    if a.failed or a.sample_failed:
        text += f"; FAILED: games {sorted(a.failed + a.sample_failed, key=str)[:20]}"
    return text
