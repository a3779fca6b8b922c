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
    from solver.files import replace_whole
    header = {"row": rules_hash, "variant": rule_set["variant"], "profile": rule_set.get("profile"),
              "rules": rule_set["rules"], "budget_nodes": rule_set["budget_nodes"], "solver": solver}
    text = "".join(json.dumps(e) + "\n" for e in [header] + sorted(entries, key=lambda e: e["game"]))
    path = lines_path(folder, rules_hash)
    replace_whole(path, lzma.compress(text.encode(), preset=9 | lzma.PRESET_EXTREME))
    return path


def _partial(folder: Path, rules_hash: str) -> Path:
    return folder / LINES_DIR / f"{rules_hash}.partial.jsonl"


def _done(partial: Path) -> dict[int, dict]:
    """The entries an interrupted rebuild kept (a torn last line is dropped)."""
    out: dict[int, dict] = {}
    if partial.exists():
        for text in partial.read_text().splitlines():
            try:
                e = json.loads(text)
            except json.JSONDecodeError:
                continue
            out[e["game"]] = e
    return out


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


def rebuild(folder: Path, rules_hash: str, records: list[dict], rule_set: dict, say: Say,
            limit: Optional[int] = None) -> int:
    """Solve again the decided games of ``records`` (one row's) not yet in the row's partial
    file, appending each entry; with every decided game done, write the row's file. At most
    ``limit`` games this call. Returns the games solved."""
    from solver.adapter import expand_dominance
    rules = row_rules(rule_set)
    if rules.hash() != rules_hash:
        raise ValueError(f"rule-sets.json row {rules_hash} has the rules of {rules.hash()}")
    dominance = expand_dominance(rules, ("all",))
    decided = {r["game"]: r["verdict"] for r in records if r["verdict"] in ("won", "lost")}
    if _complete(folder, rules_hash, decided):
        return 0
    partial = _partial(folder, rules_hash)
    partial.parent.mkdir(parents=True, exist_ok=True)
    done = _done(partial)
    todo = [g for g in sorted(decided) if g not in done][:limit]
    with open(partial, "a") as f:
        for i, g in enumerate(todo):
            e = entry_for(row_deal(rules, g), rules_hash, decided[g], rule_set["budget_nodes"], dominance)
            f.write(json.dumps(e) + "\n")
            f.flush()
            done[g] = e
            if i % 100 == 0:
                say(f"{rules_hash} ({rule_set['variant']}): game {g}, {len(done):,} of {len(decided):,}")
    if all(g in done for g in decided):
        from solver.batch import SOLVER_VERSION
        write_row(folder, rules_hash, rule_set, [done[g] for g in decided], SOLVER_VERSION)
        partial.unlink()
    return len(todo)


def _complete(folder: Path, rules_hash: str, decided: dict[int, str]) -> bool:
    """Whether the row's file exists, made by this version, with an entry for each decided
    game of ``decided``."""
    from solver.batch import SOLVER_VERSION
    path = lines_path(folder, rules_hash)
    if not path.exists() or read_header(path).get("solver") != SOLVER_VERSION:
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


def audit_row(folder: Path, rules_hash: str, records: list[dict], rule_set: dict, sample: int, rng: random.Random,
              say: Say) -> RowAudit:
    """Replay every shipped line of one row on the reference engine and solve again
    ``sample`` of its lost games at the row's budget."""
    from solver.adapter import expand_dominance
    from solver.moves import parse_moves
    from solver.playback import replay
    rules = row_rules(rule_set)
    table = {r["game"]: r["verdict"] for r in records}
    out = RowAudit(rules_hash, rule_set["variant"], won=sum(v == "won" for v in table.values()),
                   lost=sum(v == "lost" for v in table.values()))
    path = lines_path(folder, rules_hash)
    if not path.exists():
        out.missing = out.won + out.lost
        return out
    out.shipped = True
    seen = set()
    for e in read_lines(path):
        g = e["game"]
        seen.add(g)
        if table.get(g) not in ("won", "lost") or (e["verdict"] != "unknown" and table[g] != e["verdict"]):
            out.failed.append(g)                 # an entry the table does not back
        elif e["verdict"] == "won":
            if replay(row_deal(rules, g), parse_moves(e["moves"])).ok:
                out.replayed += 1
            else:
                out.failed.append(g)
        elif e["verdict"] == "lost":
            out.proofs[e["proof"]] = out.proofs.get(e["proof"], 0) + 1
        else:
            out.undecided += 1
        if out.replayed and out.replayed % 2000 == 0 and e["verdict"] == "won":
            say(f"{rules_hash} ({out.variant}): {out.replayed:,} lines replayed")
    out.missing = sum(1 for g, v in table.items() if v in ("won", "lost") and g not in seen)
    lost_games = sorted(g for g, v in table.items() if v == "lost")
    dominance = expand_dominance(rules, ("all",))
    for g in rng.sample(lost_games, min(sample, len(lost_games))):
        from solver.driver import Budget, solve
        say(f"{rules_hash} ({out.variant}): solving lost game {g} again")
        res = solve(row_deal(rules, g), Budget(nodes=rule_set["budget_nodes"], shorten=0), dominance)
        out.sampled += 1
        if res.verdict == "lost":
            out.sample_held += 1
        elif res.verdict == "won":
            out.sample_failed.append(g)
    return out


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
        text += f"; FAILED: games {sorted(a.failed + a.sample_failed)[:20]}"
    return text
