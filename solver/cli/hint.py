"""``hint``: a game in play, told to a player: is it still winnable, what to play next,
which legal moves keep it winnable, and which move lost it (``solver.in_play``)."""

from __future__ import annotations

import json
import sys

import click

from solver.cli.base import (Count, budget_options, dominance_rules, main, make_budget, profile_option,
                             rule_option, warm_up_saying)
from solver.cli.play import deal_and_line
from solver.errors import DealFileError, IllegalMove
from solver.moves import format_move, format_moves

MOVE_SHARE = 2                         # each legal move's position gets this share of the budget, by default


_VERDICT = {"won": "keeps it winnable", "lost": "loses it", "unknown": "unknown"}


def _move_line(v, next_move) -> str:
    what = _VERDICT[v.verdict]
    if v.verdict == "unknown":
        what += f" ({v.reason})"
    elif v.verdict == "lost":
        what += f" (proved by {v.proof})" if v.proof else " (complete search)"
    if next_move is not None and format_move(v.move) == format_move(next_move):
        what += "  <- the next move of the line"
    return f"  {format_move(v.move):<14} {what}"


def _tell(h, show_line: bool) -> None:
    from solver.in_play import FROM_LOST
    r, n = h.result, len(h.played)
    last = f" (the last: {format_move(h.played[-1])})" if h.played else ""
    where = f"{h.deal.label()}, after {n} moves{last}" if n else f"{h.deal.label()}, the opening"
    if r.verdict == "won":
        more = f"a line of {len(r.moves)} more moves" if r.moves else "the game is won"
        click.echo(f"{where}: won: still winnable (certified: {more}, replayed to a win by the reference engine)")
        if h.next_move() is not None:
            click.echo(f"next move: {format_move(h.next_move())}")
    elif r.verdict == "lost" and r.proof == FROM_LOST:
        click.echo(f"{where}: lost: no line from here wins (it follows a position proved lost, below)")
    elif r.verdict == "lost":
        how = f"proved by {r.proof}" if r.proof else "complete search"
        click.echo(f"{where}: lost: no line from here wins ({how})")
    else:
        click.echo(f"{where}: unknown ({r.reason}): not decided within the budget")
    w = h.where_lost
    if w is not None:
        if w.losing_move is not None:
            before = f"after move {w.won_after}" if w.won_after else "at the opening"
            click.echo(f"the move that lost it: move {w.losing_move} ({format_move(h.played[w.losing_move - 1])}); "
                       f"{before} the game could still be won")
        elif w.won_after >= 0:
            click.echo(f"after move {w.won_after} the game could still be won (proved); after move "
                       f"{w.won_after + 1} ({format_move(h.played[w.won_after])}) it is {w.next_verdict}"
                       + (f" ({w.next_reason})" if w.next_reason else ""))
        else:
            click.echo(f"the opening itself is not proved winnable ({w.next_verdict}"
                       + (f", {w.next_reason}" if w.next_reason else "") + ")")
    if h.moves:
        click.echo(f"legal moves ({len(h.moves)}):")
        for v in h.moves:
            click.echo(_move_line(v, h.next_move()))
    click.echo(f"rules: {h.deal.rules.describe()} (hash {h.deal.rules.hash()}); budget {r.budget.nodes:,} nodes")
    if show_line and r.verdict == "won" and r.moves:
        click.echo(format_moves(r.moves))


@main.command()
@click.argument("args", nargs=-1, required=True)
@rule_option
@profile_option
@budget_options
@click.option("--steps", type=Count(min=0), default=None, help="Take only the first K moves as played.")
@click.option("--move-nodes", type=Count(min=1), default=None,
              help="Node budget for each legal move's position (default: half the budget).")
@click.option("--no-moves", is_flag=True, help="Do not judge each legal move.")
@click.option("--no-look-back", is_flag=True, help="Do not look for the move that lost the game.")
@click.option("--line", "show_line", is_flag=True, help="Also print the rest of the winning line.")
@click.option("--json", "as_json", is_flag=True, help="Print the answer as JSON.")
def hint(args, rules, profile, budget_nodes, time_limit, memory, dominance, no_restarts, steps, move_nodes,
         no_moves, no_look_back, show_line, as_json) -> None:
    """Is a game in play still winnable, and what to play? For players.

    \b
    ARGS is one of:
      VARIANT GAME_NUMBER [MOVES]      (MOVES: the moves played so far: a move list, a solution or
                                       position file, or - for a move list on standard input)
      DEAL_FILE [MOVES]
      POSITION_FILE                    (written by 'patience replay ... --out'; a solution file too)

    Says whether the position is won, lost or unknown (the claims of 'solve': won only
    with a line the reference engine replayed to a win), the next move of a winning line,
    which legal moves keep it winnable, and, when it is not winnable, the move that lost
    it. Exits 0 when done, 2 on bad input (an illegal move among those played).
    """
    from solver.in_play import hint as hint_position
    deal, played, _ = deal_and_line(args, rules, profile, "patience hint [VARIANT GAME_NUMBER | DEAL_FILE] [MOVES]  "
                                    "(or: patience hint POSITION_FILE)", line_optional=True)
    if steps is not None:
        played = played[:steps]
    budget = make_budget(budget_nodes, time_limit, memory, no_restarts, None, deal.rules)
    move_budget = None if no_moves else make_budget(move_nodes or max(1, budget.nodes // MOVE_SHARE),
                                                    time_limit, memory, no_restarts, None, deal.rules)
    dom = dominance_rules(deal.rules, dominance)
    warm_up_saying(deal.rules, dom)
    say = (lambda text: click.echo(f"  ... {text}", err=True)) if sys.stderr.isatty() and not as_json else None
    try:
        h = hint_position(deal, played, budget, dom, move_budget, not no_look_back, say)
    except IllegalMove as e:
        raise DealFileError(f"the moves played: {e}") from None
    if as_json:
        click.echo(json.dumps(h.as_dict(), indent=1))
    else:
        _tell(h, show_line)
