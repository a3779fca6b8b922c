"""Deal files: versioned JSON, one deal per file (JSON Lines for many).

A deal file records the variant, the full rule-option set, where the deal came from
(a PySolFC game number as text, or a custom layout), every pile bottom to top, the stock
in dealing order, and a checksum of the layout. Reading validates everything and reports
each problem in one line naming the pile and card.

Example (hand-written by a publisher; the checksum may be omitted and is then computed)::

    {"format": "patience-deal", "version": 1, "variant": "alhambra",
     "rules": {...}, "source": {"kind": "custom", "note": "our deal 17"},
     "layout": {"foundations": [["AC"], ...], "reserves": [["3D", "AS", ...], ...],
                "tableau": [], "waste": [["2D"]], "stock": ["6H", "TH", ...],
                "phase": "play"}}
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator, Optional

from solver import cards, deals
from solver.kernels import family
from solver.layout import PHASE_CHOOSE_BASE, PHASE_PLAY, Layout, pysolfc_layout, reference_layout
from solver.variants import Rules, RulesError, make_rules, rules_from_dict
from solver.errors import DealFileError, printable
from solver.files import replace_whole

DEAL_FORMAT = "patience-deal"
DEAL_VERSION = 1
PILE_GROUPS = ("foundations", "reserves", "tableau", "waste")


MAX_FILE_BYTES = 1 << 20            # a deal is about 3 KB
# A solution file: every one the tool writes is read back (``write_solution_doc`` refuses a
# larger one). A move takes some 15 bytes, so this is over four million moves; the longest
# line written so far had 132,891 (1.9 MB).
MAX_SOLUTION_BYTES = 64 << 20


@dataclass(frozen=True)
class Deal:
    """A deal: the rules it is played under, its initial layout and its source."""

    rules: Rules
    layout: Layout
    source: dict = field(default_factory=dict, compare=False)

    @property
    def checksum(self) -> str:
        return layout_checksum(self.layout)

    def label(self) -> str:
        if self.source.get("kind") == "pysolfc":
            return f"{self.rules.variant} #{printable(self.source['game_number'], 40)}"
        return f"{self.rules.variant} (custom deal {self.checksum[:12]})"


def pysolfc_deal(rules: Rules, game: str | int | deals.GameNumber) -> Deal:
    """The deal PySolFC shows as game ``game`` under ``rules``."""
    g = game if isinstance(game, deals.GameNumber) else deals.parse_game_number(game)
    return Deal(rules, pysolfc_layout(rules, g), {"kind": "pysolfc", "game_number": str(g)})


def _pile_text(p) -> list[str]:
    return [cards.text(c) for c in p]


def layout_to_json(layout: Layout) -> dict[str, Any]:
    out: dict[str, Any] = {g: [_pile_text(p) for p in getattr(layout, g)] for g in PILE_GROUPS}
    out["stock"] = _pile_text(layout.stock)
    out["phase"] = layout.phase
    return out


def layout_checksum(layout: Layout) -> str:
    """``sha256:`` of the canonical JSON of the layout (piles and stock, no rules)."""
    blob = json.dumps(layout_to_json(layout), sort_keys=True, separators=(",", ":"))
    return "sha256:" + hashlib.sha256(blob.encode()).hexdigest()


def deal_to_json(deal: Deal) -> dict[str, Any]:
    return {
        "format": DEAL_FORMAT,
        "version": DEAL_VERSION,
        "variant": deal.rules.variant,
        "rules": deal.rules.as_dict(),
        "source": deal.source or {"kind": "custom"},
        "layout": layout_to_json(deal.layout),
        "checksum": deal.checksum,
    }


def dumps_deal(deal: Deal, indent: Optional[int] = 2) -> str:
    return json.dumps(deal_to_json(deal), indent=indent)


def write_deal(deal: Deal, path: str | Path) -> None:
    """Write ``deal`` as a deal file, whole or not at all (``solver.files.replace_whole``)."""
    replace_whole(path, dumps_deal(deal) + "\n")


def deal_from_json(obj: Any) -> Deal:
    """Validate a parsed deal document; raises DealFileError listing every problem."""
    if not isinstance(obj, dict):
        raise DealFileError("a deal file must hold a JSON object")
    if obj.get("format") != DEAL_FORMAT:
        raise DealFileError(f"not a deal file: 'format' must be {DEAL_FORMAT!r}")
    if not _is_version(obj.get("version"), DEAL_VERSION):
        raise DealFileError(f"unsupported deal file version {obj.get('version')!r} (this tool reads {DEAL_VERSION})")
    try:
        rules = rules_from_dict(str(obj.get("variant", "")), obj.get("rules") or {}) \
            if isinstance(obj.get("rules"), dict) else None
        if rules is None:
            raise RulesError("'rules' must be an object of option values")
    except RulesError as e:
        raise DealFileError(str(e)) from None
    lay = obj.get("layout")
    if not isinstance(lay, dict):
        raise DealFileError("'layout' must be an object with foundations, reserves, tableau, waste and stock")
    problems: list[str] = []
    layout = _parse_layout(lay, problems)
    if layout is None:
        raise DealFileError(problems)
    problems += validate_layout(rules, layout)
    given = obj.get("checksum")
    if given is not None and not problems and given != layout_checksum(layout):
        problems.append(f"checksum mismatch: file says {given}, layout gives {layout_checksum(layout)}")
    source = obj.get("source") if isinstance(obj.get("source"), dict) else {"kind": "custom"}
    if source.get("kind") == "pysolfc" and not problems:
        try:
            g = deals.parse_game_number(str(source.get("game_number")))
        except deals.GameNumberError as e:
            problems.append(f"source: {e}")
        else:
            if pysolfc_layout(rules, g) != layout:
                problems.append(f"source says PySolFC game {printable(str(g), 40)} but the layout differs from that deal")
    if problems:
        raise DealFileError(problems)
    return Deal(rules, layout, source)


def _parse_layout(lay: dict, problems: list[str]) -> Optional[Layout]:
    groups = {}
    for g in PILE_GROUPS:
        piles = lay.get(g, [])
        if not isinstance(piles, list) or not all(isinstance(p, list) for p in piles):
            problems.append(f"{g}: must be a list of piles (lists of cards)")
            continue
        parsed = []
        for i, p in enumerate(piles):
            parsed.append(tuple(_parse_cards(p, f"{g}[{i}]", problems)))
        groups[g] = tuple(parsed)
    stock = lay.get("stock", [])
    if not isinstance(stock, list):
        problems.append("stock: must be a list of cards")
        stock = []
    stock_cards = tuple(_parse_cards(stock, "stock", problems))
    phase = lay.get("phase", PHASE_PLAY)
    if phase not in (PHASE_PLAY, PHASE_CHOOSE_BASE):
        problems.append(f"phase: must be {PHASE_PLAY!r} or {PHASE_CHOOSE_BASE!r}, not {phase!r}")
    if problems:
        return None
    return Layout(groups["foundations"], groups["reserves"], groups["tableau"], groups["waste"], stock_cards, phase)


def _parse_cards(items: list, where: str, problems: list[str]) -> list[int]:
    out = []
    for k, t in enumerate(items):
        try:
            out.append(cards.parse(str(t)))
        except cards.CardError:
            problems.append(f"{where}: position {k} is not a card: '{printable(t, 40)}'")
    return out


def _places(found: list[str]) -> str:
    """``reserves[0], stock ×150000``: where a card was found, each place once with its count
    (a bad file can hold a card a million times; the error line must stay short)."""
    counts = Counter(found)
    return ", ".join(p if n == 1 else f"{p} ×{n}" for p, n in counts.items()) or "nowhere"


def validate_layout(rules: Rules, layout: Layout) -> list[str]:
    """Every way ``layout`` is not a legal initial layout under ``rules``, one line each."""
    problems = []
    want = Counter(cards.pack(rules["ranks"], rules["suits"]) * 2)
    have = Counter(layout.all_cards())
    where = _card_places(layout)
    for c in sorted(set(want) | set(have)):
        if have[c] != want[c]:
            places = _places(where.get(c, []))
            if want[c] == 0:
                problems.append(f"card {cards.text(c)} is not in this game's pack (found in {places})")
            else:
                problems.append(f"card {cards.text(c)} appears {have[c]} times (want {want[c]}): {places}")
    ref = reference_layout(rules)
    shape, rshape = layout.shape(), ref.shape()
    for g in PILE_GROUPS:
        if len(shape[g]) != len(rshape[g]):
            problems.append(f"{g}: {len(shape[g])} piles, {rules.variant} has {len(rshape[g])}")
            continue
        if g == "foundations":
            continue
        for i, (n, m) in enumerate(zip(shape[g], rshape[g])):
            if n != m:
                problems.append(f"{g}[{i}]: {n} cards, {rules.variant} deals {m}")
    if layout.phase != ref.phase:
        problems.append(f"phase: {layout.phase!r}, {rules.variant} starts in {ref.phase!r}")
    if shape["stock"] != rshape["stock"] and not problems:
        problems.append(f"stock: {shape['stock'][0]} cards, {rules.variant} has {rshape['stock'][0]}")
    if len(shape["foundations"]) == len(rshape["foundations"]):
        problems += _check_foundations(rules, layout, ref)
    return problems


def _check_foundations(rules: Rules, layout: Layout, ref: Layout) -> list[str]:
    dealt = family(rules.family).dealt_foundations
    problems = dealt(rules, layout) if dealt else None
    if problems is not None:                # the family checks cards the deal places there
        return problems
    problems = []
    for i, (p, q) in enumerate(zip(layout.foundations, ref.foundations)):
        if p != q:
            want = " ".join(_pile_text(q)) or "empty"
            got = " ".join(_pile_text(p)) or "empty"
            problems.append(f"foundations[{i}]: holds {got}, the rules pre-place {want}")
    return problems


def _card_places(layout: Layout) -> dict[int, list[str]]:
    out: dict[int, list[str]] = {}
    for g in PILE_GROUPS:
        for i, p in enumerate(getattr(layout, g)):
            for c in p:
                out.setdefault(c, []).append(f"{g}[{i}]")
    for c in layout.stock:
        out.setdefault(c, []).append("stock")
    return out


def read_deal(path: str | Path) -> Deal:
    """Read and validate a one-deal JSON file."""
    return deal_from_json(_load_json(path))


def read_deals(path: str | Path) -> Iterator[Deal]:
    """Read deals from a JSON file (one deal) or a JSON Lines file (``.jsonl``: one deal per
    line, blank lines skipped), read a line at a time, each line capped like a file."""
    p = Path(path)
    if p.suffix != ".jsonl":
        yield read_deal(p)
        return
    for _, deal in read_deal_lines(p):
        if isinstance(deal, DealFileError):
            raise deal
        yield deal


def read_deal_lines(path: str | Path) -> Iterator[tuple[int, "Deal | DealFileError"]]:
    """Each non-blank line of a JSON Lines deal file: (line number, its deal, or the error
    that names the line's problems), so that one bad line does not hide the others. A file
    that cannot be read at all, or a line too long to be a deal, is an error at once."""
    p = Path(path)
    for n, line in _jsonl_lines(p):
        try:
            yield n, deal_from_json(json.loads(line))
        except json.JSONDecodeError as e:
            yield n, DealFileError(f"{p}:{n}: not JSON ({e.msg})")
        except RecursionError:
            yield n, DealFileError(f"{p}:{n}: not a deal (JSON nested too deeply)")
        except DealFileError as e:
            yield n, DealFileError([f"{p}:{n}: {m}" for m in e.problems])
        except ValueError as e:           # (after DealFileError, which is one)
            if not _too_many_digits(e):
                raise
            yield n, DealFileError(f"{p}:{n}: not a deal (a number of thousands of digits)")


def _jsonl_lines(p: Path) -> Iterator[tuple[int, str]]:
    """(line number, text) of each non-blank line of ``p``."""
    if p.is_dir():
        raise DealFileError(f"{p} is a folder, not a file")
    try:
        with open(p, "rb") as f:
            for n, raw in enumerate(iter(lambda: f.readline(MAX_FILE_BYTES + 1), b""), 1):
                if len(raw) > MAX_FILE_BYTES:
                    raise DealFileError(f"{p}:{n}: a line longer than {MAX_FILE_BYTES:,} bytes: not a deal")
                try:
                    line = raw.decode()
                except UnicodeDecodeError:
                    raise DealFileError(f"{p}:{n}: not text") from None
                if line.strip():
                    yield n, line
    except OSError as e:
        raise DealFileError(f"cannot read {p}: {e.strerror}") from None


def _read_text(p: Path, limit: Optional[int] = MAX_FILE_BYTES) -> str:
    """The file's text; more than ``limit`` bytes (None: no limit) is an error."""
    try:
        if p.is_dir():
            raise DealFileError(f"{p} is a folder, not a file")
        with open(p, "rb") as f:
            data = f.read() if limit is None else f.read(limit + 1)
        if limit is not None and len(data) > limit:
            raise DealFileError(f"{p} is larger than {limit:,} bytes: not a deal or solution file")
        return data.decode()
    except OSError as e:
        raise DealFileError(f"cannot read {p}: {e.strerror}") from None
    except UnicodeDecodeError:
        raise DealFileError(f"{p} is not a text file") from None


def _too_many_digits(e: ValueError) -> bool:
    """``e`` is Python's refusal of an integer of more digits than ``sys.get_int_max_str_digits()``."""
    return "integer string conversion" in str(e)


def _load_json(path: str | Path, limit: int = MAX_FILE_BYTES) -> Any:
    p = Path(path)
    try:
        return json.loads(_read_text(p, limit))
    except json.JSONDecodeError as e:
        raise DealFileError(f"{p} is not JSON (line {e.lineno}: {e.msg})") from None
    except RecursionError:
        raise DealFileError(f"{p} is not a deal or solution file (JSON nested too deeply)") from None
    except DealFileError:
        raise
    except ValueError as e:               # (DealFileError is one too)
        if not _too_many_digits(e):
            raise
        raise DealFileError(f"{p} is not a deal or solution file (a number of thousands of digits)") from None


def custom_deal(variant: str, layout: Layout, options: Optional[dict] = None, note: str = "") -> Deal:
    """A user's own layout under a variant's rules, validated."""
    rules = make_rules(variant, options)
    problems = validate_layout(rules, layout)
    if problems:
        raise DealFileError(problems)
    return Deal(rules, layout, {"kind": "custom", "note": note} if note else {"kind": "custom"})


# ----- solution files ---------------------------------------------------------------------

SOLUTION_FORMAT = "patience-solution"
SOLUTION_VERSION = 1
OUTCOMES = ("won", "lost", "unknown")


@dataclass
class Solution:
    """A verdict on a deal: the outcome, the move list for ``won``, the reason for
    ``unknown``, and who produced it (solver version, budget, nodes, seconds)."""

    outcome: str
    moves: list = field(default_factory=list)          # list[solver.moves.Move]
    reason: Optional[str] = None
    producer: dict = field(default_factory=dict)


def solution_to_json(solution: Solution, deal: Deal) -> dict[str, Any]:
    from solver.moves import format_move
    return {
        "format": SOLUTION_FORMAT,
        "version": SOLUTION_VERSION,
        "variant": deal.rules.variant,
        "rules": deal.rules.as_dict(),
        "deal": {"checksum": deal.checksum, "source": deal.source, "layout": layout_to_json(deal.layout)},
        "outcome": solution.outcome,
        "reason": solution.reason,
        "moves": [format_move(m) for m in solution.moves],
        "producer": solution.producer,
    }


def write_solution(solution: Solution, deal: Deal, path: str | Path) -> None:
    write_solution_doc(solution_to_json(solution, deal), path)


def write_solution_doc(doc: dict[str, Any], path: str | Path) -> None:
    """Write a solution document (``solution_to_json``) as a solution file, whole or not at
    all (``solver.files.replace_whole``)."""
    text = json.dumps(doc, indent=1) + "\n"
    if len(text.encode()) > MAX_SOLUTION_BYTES:
        raise DealFileError(f"cannot write {path}: a solution of {len(doc.get('moves') or []):,} moves is larger "
                            f"than {MAX_SOLUTION_BYTES:,} bytes, more than replay reads")
    replace_whole(path, text)


def solution_from_json(obj: Any) -> tuple[Solution, Deal]:
    """Validate a solution document; returns the solution and the deal it is for."""
    from solver.moves import NotationError, parse_move
    if not isinstance(obj, dict) or obj.get("format") != SOLUTION_FORMAT:
        raise DealFileError(f"not a solution file: 'format' must be {SOLUTION_FORMAT!r}")
    if not _is_version(obj.get("version"), SOLUTION_VERSION):
        raise DealFileError(f"unsupported solution file version {obj.get('version')!r}")
    if obj.get("outcome") not in OUTCOMES:
        raise DealFileError(f"outcome must be one of {', '.join(OUTCOMES)}")
    d = obj.get("deal") or {}
    if not isinstance(d, dict):
        raise DealFileError("a solution file's 'deal' must be a JSON object")
    if not isinstance(obj.get("moves") or [], list):
        raise DealFileError("a solution file's 'moves' must be a list")
    deal = deal_from_json({"format": DEAL_FORMAT, "version": DEAL_VERSION, "variant": obj.get("variant"),
                           "rules": obj.get("rules"), "source": d.get("source"), "layout": d.get("layout"),
                           "checksum": d.get("checksum")})
    try:
        moves = [parse_move(str(t)) for t in obj.get("moves") or []]
    except NotationError as e:
        raise DealFileError(str(e)) from None
    return Solution(obj["outcome"], moves, obj.get("reason"), obj.get("producer") or {}), deal


def _is_version(value: Any, want: int) -> bool:
    """``value`` is the integer ``want`` (JSON's ``true`` equals 1 in Python, and is no version)."""
    return type(value) is int and value == want


def read_solution(path: str | Path) -> tuple[Solution, Deal]:
    """A solution file's solution and the deal it is for (files up to ``MAX_SOLUTION_BYTES``:
    every file ``write_solution_doc`` writes)."""
    return solution_from_json(_load_json(path, MAX_SOLUTION_BYTES))


# ----- position files: a game in play ------------------------------------------------------

POSITION_FORMAT = "patience-position"
POSITION_VERSION = 1


def position_to_json(deal: Deal, moves: list) -> dict[str, Any]:
    """A position in play: the deal and the moves played so far from its opening (exact:
    the reference engine replays them to the position)."""
    from solver.moves import format_move
    return {"format": POSITION_FORMAT, "version": POSITION_VERSION, "variant": deal.rules.variant,
            "rules": deal.rules.as_dict(),
            "deal": {"checksum": deal.checksum, "source": deal.source, "layout": layout_to_json(deal.layout)},
            "moves": [format_move(m) for m in moves]}


def write_position(deal: Deal, moves: list, path: str | Path) -> None:
    """Write a position file, whole or not at all."""
    replace_whole(path, json.dumps(position_to_json(deal, moves), indent=1) + "\n")


def read_line_file(path: str | Path) -> tuple[list, Deal, Optional[str]]:
    """A solution file's or a position file's moves, the deal they are for, and the outcome
    a solution file claims (None for a position file)."""
    obj = _load_json(path, MAX_SOLUTION_BYTES)
    if isinstance(obj, dict) and obj.get("format") == POSITION_FORMAT:
        if not _is_version(obj.get("version"), POSITION_VERSION):
            raise DealFileError(f"unsupported position file version {obj.get('version')!r}")
        sol, deal = solution_from_json({**obj, "format": SOLUTION_FORMAT, "version": SOLUTION_VERSION,
                                        "outcome": "unknown"})
        return sol.moves, deal, None
    if isinstance(obj, dict) and obj.get("format") != SOLUTION_FORMAT:
        raise DealFileError(f"not a solution or position file: 'format' must be {SOLUTION_FORMAT!r} "
                            f"or {POSITION_FORMAT!r}")
    sol, deal = solution_from_json(obj)
    return sol.moves, deal, sol.outcome
