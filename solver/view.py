"""A solution to watch in the browser: one self-contained HTML page (``patience view``).

The reference engine (``solver.playback.replay``) computes every position of the line
here, in Python; the page's script only draws them. So what the page shows at step k is
the reference engine's position after k moves, the same judge that certifies a "won".

The positions are embedded as JSON: the start position whole, then for each move only the
piles it changed, with their whole new contents (a line can run to many thousands of
moves; whole positions would make a page of tens of megabytes). The page needs no network:
the cards are drawn with CSS, and the template (``solver/view.html``) holds all of its
style and script.
"""

from __future__ import annotations

import html
import json
import re
from importlib import resources
from typing import Any, Optional

from solver import cards
from solver.engine import GROUPS, Position     # the pile groups by the notation's letters
from solver.errors import IllegalMove
from solver.formats import Deal, Solution
from solver.layout import foundation_suits
from solver.moves import BASE, CARD_MOVE, DEAL, Move, card_move, format_move, pile_text
from solver.playback import ReplayResult, replay
from solver.variants import get_variant



def view_html(deal: Deal, moves: list[Move], solution: Optional[Solution] = None) -> str:
    """The page that plays ``moves`` on ``deal`` step by step, as the reference engine plays
    them. ``solution``, when the moves come from a solution file, gives the verdict and
    who produced it. Raises ``IllegalMove`` naming the first illegal move (and why): a
    page is only made for a line the engine accepts whole."""
    return render(deal, moves, solution)[0]


def render(deal: Deal, moves: list[Move], solution: Optional[Solution] = None) -> tuple[str, ReplayResult]:
    """``view_html``'s page and the replay's result (whether the line wins)."""
    data, result = page_data(deal, moves)
    if result.error_index is not None:
        raise IllegalMove(result.message(moves))
    header = _header_html(deal, moves, result, solution)
    title = f"{_title(deal)}: {len(moves)} moves"
    return _fill(_template(), {"TITLE": html.escape(title), "HEADER": header, "DATA": script_json(data)}), result


def page_data(deal: Deal, moves: list[Move]) -> tuple[dict[str, Any], ReplayResult]:
    """The page's JSON (the pile groups, the start position, and each move with the piles it
    changed) and the replay's result. Steps stop at the first illegal move."""
    steps: list[dict[str, Any]] = []
    first: Optional[tuple[Move, dict[str, Any]]] = None
    prev: Optional[tuple[Position, dict[str, Any]]] = None

    def step(i: int, move: Move, pos: Position) -> None:
        # Only what each move changed is kept, not the positions: a line can be long.
        nonlocal first, prev
        now = flat_position(pos)
        if prev is None:
            first = (move, now)          # its change is taken once replay gives the start
        else:
            steps.append(_step(move, prev[0], prev[1], now))
        prev = (pos, now)

    result = replay(deal, moves, step)
    start = flat_position(result.start)
    if first is not None:
        steps.insert(0, _step(first[0], result.start, start, first[1]))
    data = {
        "groups": {g: len(result.start.group(g)) for g in GROUPS},
        "foundationSuits": [cards.SUITS[s] for s in foundation_suits(deal.rules)],
        "redealsAllowed": deal.rules.as_dict().get("redeals"),
        "start": start,
        "steps": steps,
    }
    return data, result


def flat_position(pos: Position) -> dict[str, Any]:
    """A position as the page reads it: each pile by its label (``f0``, ``t3``), its cards
    bottom to top as ``cards.text`` writes them, space-separated; the stock as its count
    only (its order stays hidden, as in the game); the redeals used and the phase."""
    out: dict[str, Any] = {}
    for g in GROUPS:
        for i, p in enumerate(pos.group(g)):
            out[pile_text((g, i))] = " ".join(cards.text(c) for c in p)
    out["stock"] = len(pos.stock)
    out["redeals"] = pos.redeals_used
    out["phase"] = pos.phase
    return out


def _step(move: Move, before: Position, prev: dict[str, Any], now: dict[str, Any]) -> dict[str, Any]:
    """One move for the page: its notation (with the card named, even when the move list
    left it out), the piles to mark, and what changed."""
    changed = {k: v for k, v in now.items() if prev.get(k) != v}
    grew = [k for k in changed if k not in ("redeals", "phase") and _size(now[k]) > _size(prev[k])]
    shrank = [k for k in changed if k not in ("redeals", "phase") and _size(now[k]) < _size(prev[k])]
    card = move.card if move.card >= 0 or move.src is None else before.top(move.src)
    if move.kind == CARD_MOVE:
        shown = card_move(move.src, move.dst, card)
        src, dst = [pile_text(move.src)], [pile_text(move.dst)]
    elif move.kind == BASE:
        shown = Move(BASE, move.src, None, card)
        # The base card goes to a foundation; the stock's cards that then fill the piles
        # are automatic, not the move.
        src, dst = [pile_text(move.src)], [k for k in grew if k.startswith("f")]
    elif move.kind == DEAL:
        shown, src, dst = move, ["stock"], grew
    else:                                  # redeal: the waste goes back to the stock (and may be dealt)
        shown, src, dst = move, shrank, grew
    return {"move": format_move(shown), "card": cards.text(card) if card is not None and card >= 0 else "",
            "src": src, "dst": dst, "set": changed}


def _size(v: Any) -> int:
    """A pile's card count from its text, or the stock's count."""
    return v if isinstance(v, int) else len(v.split())


def script_json(data: Any) -> str:
    """JSON safe inside a ``<script>`` element: ``<``, ``>`` and ``&`` escaped, so no text of
    the data (a deal's note is the user's) can close the element or open a comment."""
    text = json.dumps(data, separators=(",", ":"))       # ensure_ascii: every other character escaped too
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


# ----- the page's header: what is shown, under which rules, and who solved it --------------

def _title(deal: Deal) -> str:
    name = get_variant(deal.rules.variant).name
    if deal.source.get("kind") == "pysolfc":
        return f"{name} #{deal.source.get('game_number')}"
    return f"{name}, custom deal {deal.checksum[:19]}"


def _verdict(moves: list[Move], result: ReplayResult, solution: Optional[Solution]) -> tuple[str, str]:
    """The verdict's word (won, lost, unknown; for a bare move list: won or not won) and what
    it rests on."""
    if solution is not None:
        why = {"won": "the solution file's line, replayed to a win by the reference engine",
               "lost": "as the solution file says, not checked here: a loss has no line to replay "
                       "('patience solve' proves it again)",
               "unknown": "as the solution file says: the solver's search ended undecided"
                          + (f" (reason: {solution.reason})" if solution.reason else "")}
        return solution.outcome, why.get(solution.outcome, "")
    if result.won:
        return "won", "the move list, replayed to a win by the reference engine"
    return "not won", f"the move list replayed: {result.message(moves)}"


def _header_html(deal: Deal, moves: list[Move], result: ReplayResult, solution: Optional[Solution]) -> str:
    e = html.escape
    verdict, why = _verdict(moves, result, solution)
    rows = [("deal", f"{deal.label()} ({deal.checksum})")]
    note = deal.source.get("note")
    if note:
        rows.append(("note", str(note)))
    rows.append(("rules", f"{deal.rules.describe()} (hash {deal.rules.hash()})"))
    rows.extend(_producer_rows(solution.producer if solution is not None else {}))
    options = " ".join(f"{k}={_text(v)}" for k, v in deal.rules.as_dict().items())
    table = "".join(f"<tr><th>{e(k)}</th><td>{e(v)}</td></tr>" for k, v in rows)
    return (f'<h1>{e(_title(deal))}</h1>\n'
            f'<p class="verdict"><span class="badge {e(verdict.replace(" ", "-"))}">{e(verdict)}</span> '
            f'{e(why)}</p>\n'
            f'<table class="facts">{table}'
            f'<tr><th>every rule</th><td>{e(options)}</td></tr></table>')


def _producer_rows(producer: Any) -> list[tuple[str, str]]:
    """A solution file's ``producer`` as (label, text) rows: solver version, budget, rules of
    proof, effort. The file is the user's: any field may be missing or of another type."""
    if not isinstance(producer, dict):
        return []
    rows = []
    if producer.get("solver"):
        rows.append(("solver", _text(producer["solver"])))
    budget = producer.get("budget")
    if isinstance(budget, dict):
        parts = []
        if budget.get("nodes") is not None:
            parts.append(f"{_text(budget['nodes'])} nodes")
        if budget.get("seconds") is not None:
            parts.append(f"{_text(budget['seconds'])} s")
        if isinstance(budget.get("memory_bytes"), int) and not isinstance(budget["memory_bytes"], bool):
            parts.append(f"{budget['memory_bytes'] / (1 << 20):,.0f} MiB of table")
        if budget.get("search"):
            parts.append(f"search {_text(budget['search'])}")
        if parts:
            rows.append(("budget", ", ".join(parts)))
    if isinstance(producer.get("dominance"), list):
        rows.append(("rules of proof", ", ".join(_text(d) for d in producer["dominance"]) or "none"))
    effort = []
    for key, label in (("nodes", "nodes"), ("win_nodes", "nodes after the budget"), ("states", "states"),
                       ("seconds", "s"), ("search_line_moves", "moves in the search's line")):
        if producer.get(key) not in (None, 0):
            effort.append(f"{_text(producer[key])} {label}")
    if effort:
        rows.append(("effort", ", ".join(effort)))
    if producer.get("proof"):
        rows.append(("decided by", _text(producer["proof"])))
    return rows


def _text(v: Any) -> str:
    """A value of a user's file as short text: numbers with thousands separators."""
    if isinstance(v, bool):
        return str(v).lower()
    if isinstance(v, int):
        return f"{v:,}"
    return str(v)[:200]


# ----- the template ------------------------------------------------------------------------

def _template() -> str:
    return resources.files("solver").joinpath("view.html").read_text(encoding="utf-8")


_SLOT = re.compile(r"@@([A-Z]+)@@")


def _fill(template: str, values: dict[str, str]) -> str:
    """The template's ``@@NAME@@`` slots filled in one pass (a value that holds ``@@DATA@@``
    itself is never filled again)."""
    return _SLOT.sub(lambda m: values[m.group(1)], template)
