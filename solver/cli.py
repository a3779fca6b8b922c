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
from solver.formats import Deal, DealFileError, dumps_deal, pysolfc_deal, read_deal
from solver.variants import CATALOGUE, FAMILY_OPTIONS, RulesError, get_variant, make_rules, \
    parse_rule_assignments

EXIT_USAGE = 2
USER_ERRORS = (RulesError, deals.GameNumberError, DealFileError)


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
