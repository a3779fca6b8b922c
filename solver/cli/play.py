"""The commands that show and play deals: ``variants``, ``deal`` and ``replay``."""

from __future__ import annotations

import sys
from typing import Callable

import click

from solver.cli.base import Count, FilePath, load_deal, main, not_an_input, profile_option, rule_option
from solver.display import render_layout
from solver.errors import EXIT_NOT_WON, DealFileError, NotationError, RulesError, printable
from solver.formats import dumps_deal, read_deal, read_line_file, write_deal
from solver.kernels import FAMILIES
from solver.moves import format_move, parse_moves
from solver.playback import replay as replay_moves
from solver.variants import CATALOGUE, first_variant, get_variant, make_rules


@main.command()
@click.option("--options", "show_options", is_flag=True, help="Also list every rule option of each family.")
def variants(show_options: bool) -> None:
    """List the variants: key, name, family, PySolFC id and rule options."""
    click.echo(f"{'key':<24} {'family':<9} {'pysolfc':>7}  name")
    for v in CATALOGUE:
        alias = f" (alias: {', '.join(v.aliases)})" if v.aliases else ""
        pid = str(v.pysolfc_id) if v.pysolfc_id else "-"
        click.echo(f"{v.key:<24} {v.family:<9} {pid:>7}  {v.name}{alias}")
        click.echo(f"{'':<43}{v.summary}")
        changed = " ".join(f"{k}={_fmt(val)}" for k, val in v.settings.items())
        if changed:
            click.echo(f"{'':<43}options: {changed}")
        for prof, vals in v.profiles.items():
            if vals:
                pv = " ".join(f"{k}={_fmt(val)}" for k, val in vals.items())
                click.echo(f"{'':<43}--profile {prof}: {pv}")
    for fam, entry in FAMILIES.items():
        specs = entry.options
        defaults = make_rules(first_variant(fam)).as_dict()
        click.echo(f"\n{fam} family options (default):")
        for o in specs:
            if show_options:
                click.echo(f"  {o.name}={_fmt(defaults[o.name])}  [{o.valid_values()}]  {o.help}")
        if not show_options:
            click.echo("  " + " ".join(f"{o.name}={_fmt(defaults[o.name])}" for o in specs))
    if not show_options:
        click.echo("\n'patience variants --options' explains each option.")


def _fmt(v) -> str:
    return str(v).lower() if isinstance(v, bool) else str(v)


@main.command()
@click.argument("variant", required=False)
@click.argument("game_number", required=False)
@rule_option
@profile_option
@click.option("--json", "as_json", is_flag=True, help="Print the deal file (JSON) instead of the layout.")
@click.option("--out", type=FilePath(dir_okay=False), help="Write the deal file here.")
@click.option("--check", "check", type=FilePath(dir_okay=False), help="Validate a deal file and show it.")
def deal(variant, game_number, rules, profile, as_json, out, check) -> None:
    """Show the deal PySolFC shows as VARIANT game GAME_NUMBER (or validate one with --check;
    a file ending in .jsonl holds one deal per line)."""
    if check:
        if variant or game_number:
            raise RulesError("give either --check FILE or VARIANT GAME_NUMBER, not both")
        if rules or profile is not None:
            raise RulesError("--rule/--profile apply to VARIANT GAME_NUMBER; a deal file carries its own rules")
        if check.endswith(".jsonl"):
            from collections import Counter
            from solver.formats import read_deals
            kinds = Counter(d.rules.variant for d in read_deals(check))
            if not kinds:
                raise DealFileError(f"{check} holds no deal")
            each = ", ".join(f"{n} {v}" for v, n in kinds.items())
            click.echo(f"ok: {check} holds {sum(kinds.values())} valid deals ({each})")
            return
        d = read_deal(check)
        click.echo(f"ok: {check} is a valid {d.rules.variant} deal ({d.checksum})")
        return
    if not variant or not game_number:
        raise RulesError("usage: patience deal VARIANT GAME_NUMBER  (or: patience deal --check FILE)")
    d = load_deal(variant, game_number, rules, profile)
    if out:
        write_deal(d, out)
        click.echo(f"wrote {out}", err=True)
    if as_json:
        click.echo(dumps_deal(d))
    elif not out:
        v = get_variant(d.rules.variant)
        click.echo(render_layout(d.layout, title=f"{v.name} #{d.source.get('game_number')}",
                                 extra=f"rules: {d.rules.describe()} (hash {d.rules.hash()})"))


def _read_moves_arg(arg: str):
    """A move list given as text, or a solution or position file: returns the moves, and the
    file's deal and the outcome a solution file claims (None, None for a move list). Decided by the text, not by the file system: text that reads as moves is the
    move list (a file named like a move, ``deal``, does not shadow it; a note says so),
    anything else names a solution file."""
    if arg == "-":
        from solver.formats import MAX_FILE_BYTES
        text = sys.stdin.read(MAX_FILE_BYTES + 1)
        if len(text) > MAX_FILE_BYTES:
            raise DealFileError(f"standard input holds more than {MAX_FILE_BYTES:,} characters: not a move list")
        return parse_moves(text), None, None
    moves, error = None, None
    try:
        moves = parse_moves(arg)
    except NotationError as e:
        error = e
    if moves:
        if _is_file(arg):
            click.echo(f"note: read {arg!r} as a move list, not as the file of that name", err=True)
        return moves, None, None
    if _is_file(arg):
        return read_line_file(arg)
    if arg.endswith(".json"):
        raise DealFileError(f"cannot read {arg}: no such file")
    raise error or DealFileError("no moves given")


def deal_and_line(args: tuple[str, ...], rules: tuple[str, ...], profile, usage: str,
                  line_optional: bool = False):
    """The deal, the moves and the outcome a solution file claims (None otherwise) of the
    arguments ``SOLUTION_FILE`` (or a position file), ``DEAL_FILE SOLUTION`` or ``VARIANT
    GAME_NUMBER SOLUTION`` (SOLUTION: ``_read_moves_arg``'s). With ``line_optional``,
    ``VARIANT GAME_NUMBER`` and ``DEAL_FILE`` alone are a deal with no moves (two
    arguments whose first is no file are a variant and a game number)."""
    if line_optional and len(args) in (1, 2) and not _is_file(args[0]):
        if "/" in args[0] or args[0].endswith((".json", ".jsonl")) or (len(args) == 1 and "." in args[0]):
            raise DealFileError(f"cannot read {printable(args[0], 200)}: no such file")
        if len(args) == 1:
            raise RulesError(f"usage: {usage}")
    if len(args) == 1 and not (line_optional and _is_deal_file(args[0])):
        if rules or profile:
            raise RulesError("a solution file carries its own rules: --rule and --profile go with "
                             "VARIANT GAME_NUMBER")
        moves, deal, claim = _read_moves_arg(args[0])
        if deal is None:
            raise RulesError("a move list needs a deal: give DEAL_FILE or VARIANT GAME_NUMBER before it")
        return deal, moves, claim
    if len(args) == 1 or (len(args) == 2 and line_optional and not _is_file(args[0])):
        return load_deal(args[0], args[1] if len(args) == 2 else None, rules, profile), [], None
    if len(args) not in (2, 3):
        raise RulesError(f"usage: {usage}")
    deal = load_deal(args[0], args[1] if len(args) == 3 else None, rules, profile)
    moves, sol_deal, claim = _read_moves_arg(args[-1])
    if sol_deal is not None and sol_deal.checksum != deal.checksum:
        raise DealFileError(f"the solution is for deal {sol_deal.checksum}, not this deal ({deal.checksum})")
    return deal, moves, claim


def _is_deal_file(arg: str) -> bool:
    """Whether the file ``arg`` is a deal file (not a solution or position file)."""
    import json
    from solver.formats import DEAL_FORMAT, MAX_FILE_BYTES
    try:
        with open(arg, "rb") as f:
            head = f.read(MAX_FILE_BYTES)
        return json.loads(head).get("format") == DEAL_FORMAT
    except (OSError, ValueError, AttributeError):
        return False


def _is_file(arg: str) -> bool:
    """Whether ``arg`` names something to read that is not a folder (a pipe or a device
    too: reading it says what is wrong with it; a name too long or otherwise unusable is
    no file)."""
    from pathlib import Path
    try:
        return Path(arg).exists() and not Path(arg).is_dir()
    except (OSError, ValueError):
        return False


@main.command()
@click.argument("args", nargs=-1, required=True)
@rule_option
@profile_option
@click.option("--show", is_flag=True, help="Print the board after every move.")
@click.option("--quiet", "-q", is_flag=True, help="Print only the verdict line.")
@click.option("--steps", type=Count(min=0), default=None, help="Replay only the first K moves.")
@click.option("--out", type=FilePath(dir_okay=False),
              help="Write the position reached as a position file (for 'patience hint'); exits 0 when every "
                   "move is legal, won or not.")
def replay(args, rules, profile, show, quiet, steps, out) -> None:
    """Replay a solution on the reference engine.

    \b
    ARGS is one of:
      SOLUTION_FILE                    (the deal is taken from the solution file)
      DEAL_FILE SOLUTION               (SOLUTION: a solution file, a move list, or - for stdin)
      VARIANT GAME_NUMBER SOLUTION

    Exits 0 when every move is legal and the game ends won; 1 otherwise, naming the
    first illegal move (or when a solution file claims an outcome its line does not
    give: a "lost" file whose line wins); 2 on bad input. With --out, the position
    reached (after --steps K moves) is written as a position file, and every legal
    line exits 0.
    """
    deal, moves, claim = deal_and_line(args, rules, profile, "patience replay [DEAL_FILE | VARIANT GAME_NUMBER] SOLUTION")
    if steps is not None:
        moves, claim = moves[:steps], None
    if not quiet:
        click.echo(f"replaying {len(moves)} moves on {deal.label()} ({deal.rules.describe()})")
        if show:
            from solver.engine import engine_for
            start = engine_for(deal.rules).initial_position(deal.layout)
            click.echo(render_layout(start.to_layout(), title="start"))
    result = replay_moves(deal, moves, None if quiet else print_step(show))
    line = result.message(moves)
    if out and result.error is None and (claim is None or (claim == "won") == result.ok):
        from solver.formats import write_position
        not_an_input(out, args, "the position")
        write_position(deal, moves, out)
        if not quiet:
            click.echo(line if result.ok else f"the position after {len(moves)} moves")
        click.echo(f"wrote {out}", err=True)
        return
    if claim is not None and (claim == "won") != result.ok:
        line = f"the solution file claims {claim!r}, but {'its line wins' if result.ok else line}"
        click.echo(f"error: {line}", err=True)
        sys.exit(EXIT_NOT_WON)
    if result.ok:
        click.echo(line)
        return
    click.echo(f"error: {line}", err=True)
    sys.exit(EXIT_NOT_WON)


def print_step(show: bool) -> Callable:
    """Print each move as it is replayed (with the board after it, with ``show``): a
    ``solver.playback.replay`` step."""
    def step(i, move, pos):
        click.echo(f"{i + 1:4d}. {format_move(move)}")
        if show:
            click.echo(render_layout(pos.to_layout()) + "\n")
    return step
