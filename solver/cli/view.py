"""The ``view`` command: a solution as one self-contained HTML page, to watch step by step in
a browser (the page itself: ``solver/view.py``)."""

from __future__ import annotations

import sys

import click

from solver.cli.base import FilePath, main, not_an_input, profile_option, rule_option
# view takes the same arguments as replay, read the same way.
from solver.cli.play import deal_and_line
from solver.errors import EXIT_NOT_WON, IllegalMove, RulesError, printable
from solver.files import replace_whole
from solver.formats import read_solution


@main.command()
@click.argument("args", nargs=-1, required=True)
@rule_option
@profile_option
@click.option("--out", type=FilePath(), help="Write the page here (required), e.g. game.html.")
def view(args, rules, profile, out) -> None:
    """Write a solution as one HTML page to watch in a browser, step by step.

    \b
    ARGS is one of (as for replay):
      SOLUTION_FILE                    (the deal is taken from the solution file)
      DEAL_FILE SOLUTION               (SOLUTION: a solution file, a move list, or - for stdin)
      VARIANT GAME_NUMBER SOLUTION

    The page needs no network: open it from the disk. Its positions are the reference
    engine's. Exits 1 (and writes nothing) when a move is illegal or a solution file
    claims an outcome its line contradicts, as replay does; 2 on bad input.
    """
    if out is None:
        raise RulesError("--out FILE is required: the file to write the page to, e.g. --out game.html")
    deal, moves, claim = deal_and_line(args, rules, profile,
                                       "patience view [DEAL_FILE | VARIANT GAME_NUMBER] SOLUTION --out FILE")
    not_an_input(out, args, "the page")
    # The solution file's verdict and producer, for the page's header (read again: replay's
    # reader gives only its claim).
    solution = read_solution(args[-1])[0] if claim is not None else None
    from solver.view import render
    try:
        page, result = render(deal, moves, solution)
    except IllegalMove as e:
        _not_won(str(e))
    if claim is not None and (claim == "won") != result.won:
        _not_won(f"the solution file claims {claim!r}, but {'its line wins' if result.won else result.message(moves)}")
    replace_whole(out, page)
    # A move list that does not win is still worth watching: the page says so, and so do we.
    note = "" if result.won or claim is not None else f"; note: {result.message(moves)}"
    click.echo(f"wrote {printable(out, 200)} ({len(moves)} moves of {deal.label()}){note}", err=True)


def _not_won(line: str) -> None:
    """What replay does with a line that is not what it claims: one line, status 1, no page."""
    click.echo(f"error: {line}", err=True)
    sys.exit(EXIT_NOT_WON)


