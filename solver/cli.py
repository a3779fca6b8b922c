"""The ``patience`` command.

Every user error is one line on stderr with a non-zero exit status, never a traceback.
"""

from __future__ import annotations

import functools
import sys
from typing import Optional

import click

from solver import __version__, deals
from solver.display import render_layout
from solver.formats import Deal, DealFileError, dumps_deal, pysolfc_deal, read_deal, read_solution
from solver.moves import NotationError, format_move, parse_moves
from solver.replay import replay as replay_moves
from solver.variants import CATALOGUE, FAMILY_OPTIONS, RulesError, get_variant, make_rules, \
    parse_rule_assignments

EXIT_USAGE = 2
USER_ERRORS = (RulesError, deals.GameNumberError, DealFileError, NotationError)


def user_errors(fn):
    """Turn the project's input errors into one-line messages and exit status 2."""
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except USER_ERRORS as e:
            msgs = e.problems if isinstance(e, DealFileError) else [str(e)]
            for m in msgs:
                click.echo(f"error: {m}", err=True)
            sys.exit(EXIT_USAGE)
    return wrapper


rule_option = click.option("--rule", "rules", multiple=True, metavar="NAME=VALUE",
                           help="Override a rule option (repeatable); see 'patience variants --options'.")
profile_option = click.option("--profile", default=None, metavar="NAME",
                              help="Apply a rule profile first, e.g. 'pysolfc' for PySolFC's exact rules.")


def resolve_rules(variant: str, rules: tuple[str, ...], profile: Optional[str]):
    return make_rules(variant, parse_rule_assignments(rules), profile=profile)


def load_deal(variant_or_file: str, game_number: Optional[str], rules: tuple[str, ...] = (),
              profile: Optional[str] = None) -> Deal:
    """A deal from ``VARIANT GAME_NUMBER`` or from a deal file (then no rules may be given)."""
    if game_number is None:
        if rules or profile:
            raise RulesError("--rule/--profile apply to VARIANT GAME_NUMBER; a deal file carries its own rules")
        return read_deal(variant_or_file)
    return pysolfc_deal(resolve_rules(variant_or_file, rules, profile), game_number)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="patience")
def main() -> None:
    """Exhaustive solver for Alhambra, Terrace (Queen of Italy) and Algerian Patience."""


@main.command()
@click.option("--options", "show_options", is_flag=True, help="Also list every rule option of each family.")
@user_errors
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
    for fam, specs in FAMILY_OPTIONS.items():
        defaults = make_rules(next(v for v in CATALOGUE if v.family == fam)).as_dict()
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
@click.option("--out", type=click.Path(dir_okay=False), help="Write the deal file here.")
@click.option("--check", "check", type=click.Path(dir_okay=False), help="Validate a deal file and show it.")
@user_errors
def deal(variant, game_number, rules, profile, as_json, out, check) -> None:
    """Show the deal PySolFC shows as VARIANT game GAME_NUMBER (or validate one with --check)."""
    if check:
        if variant or game_number:
            raise RulesError("give either --check FILE or VARIANT GAME_NUMBER, not both")
        d = read_deal(check)
        click.echo(f"ok: {check} is a valid {d.rules.variant} deal ({d.checksum})")
        return
    if not variant or not game_number:
        raise RulesError("usage: patience deal VARIANT GAME_NUMBER  (or: patience deal --check FILE)")
    d = load_deal(variant, game_number, rules, profile)
    if out:
        try:
            with open(out, "w") as f:
                f.write(dumps_deal(d) + "\n")
        except OSError as e:
            raise DealFileError(f"cannot write {out}: {e.strerror}") from None
        click.echo(f"wrote {out}", err=True)
    if as_json:
        click.echo(dumps_deal(d))
    elif not out:
        v = get_variant(d.rules.variant)
        click.echo(render_layout(d.layout, title=f"{v.name} #{d.source.get('game_number')}",
                                 extra=f"rules: {d.rules.describe()} (hash {d.rules.hash()})"))


def _read_moves_arg(arg: str):
    """A solution file (returns its moves and deal) or a move list given as text."""
    from pathlib import Path
    if arg == "-":
        return parse_moves(sys.stdin.read()), None
    if Path(arg).is_file():
        sol, deal = read_solution(arg)
        return sol.moves, deal
    if arg.endswith(".json"):
        raise DealFileError(f"cannot read {arg}: no such file")
    return parse_moves(arg), None


@main.command()
@click.argument("args", nargs=-1, required=True)
@rule_option
@profile_option
@click.option("--show", is_flag=True, help="Print the board after every move.")
@click.option("--quiet", "-q", is_flag=True, help="Print only the verdict line.")
@user_errors
def replay(args, rules, profile, show, quiet) -> None:
    """Replay a solution on the reference engine.

    \b
    ARGS is one of:
      SOLUTION_FILE                    (the deal is taken from the solution file)
      DEAL_FILE SOLUTION               (SOLUTION: a solution file, a move list, or - for stdin)
      VARIANT GAME_NUMBER SOLUTION

    Exits 0 when every move is legal and the game ends won; 1 otherwise, naming the
    first illegal move; 2 on bad input.
    """
    if len(args) == 1:
        moves, deal = _read_moves_arg(args[0])
        if deal is None:
            raise RulesError("a move list needs a deal: give DEAL_FILE or VARIANT GAME_NUMBER before it")
    elif len(args) in (2, 3):
        deal = load_deal(args[0], args[1] if len(args) == 3 else None, rules, profile)
        moves, sol_deal = _read_moves_arg(args[-1])
        if sol_deal is not None and sol_deal.checksum != deal.checksum:
            raise DealFileError(f"the solution is for deal {sol_deal.checksum}, not this deal ({deal.checksum})")
    else:
        raise RulesError("usage: patience replay [DEAL_FILE | VARIANT GAME_NUMBER] SOLUTION")
    result = replay_moves(deal, moves)
    if not quiet:
        click.echo(f"replaying {len(moves)} moves on {deal.label()} ({deal.rules.describe()})")
        if show:
            click.echo(render_layout(result.positions[0].to_layout(), title="start"))
        for i, pos in enumerate(result.positions[1:]):
            click.echo(f"{i + 1:4d}. {format_move(moves[i])}")
            if show:
                click.echo(render_layout(pos.to_layout()) + "\n")
    line = result.message(moves)
    if result.ok:
        click.echo(line)
        return
    click.echo(f"error: {line}", err=True)
    sys.exit(1)
