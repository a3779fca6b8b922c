"""The ``patience`` command.

Every user error is one line on stderr with a non-zero exit status, never a traceback.
"""

from __future__ import annotations

import contextlib
import json
import math
import signal
import sys
from typing import Optional

import click

from solver import __version__
from solver.display import render_layout
from solver.errors import (EXIT_BAD_INPUT, EXIT_BROKEN_PIPE, EXIT_INTERRUPTED, EXIT_LOST, EXIT_NOT_WON, EXIT_UNKNOWN,
                           EXIT_WON, DealFileError, InternalError, NotationError, OutputError, RulesError, StoreError,
                           printable)
from solver.batch import interrupted_by, sigterm_as_interrupt
from solver.formats import Deal, dumps_deal, pysolfc_deal, read_deal, read_solution
from solver.moves import format_move, parse_moves
from solver.playback import replay as replay_moves
from solver.kernels import FAMILIES, family
from solver.variants import CATALOGUE, first_variant, get_variant, make_rules, parse_rule_assignments


class PatienceCommand(click.Command):
    """Every command: standard output is flushed before the exit status is given, so that a
    full disk is one line of error, not a traceback at exit; a pipe closed by its reader
    (``| head``) ends the command quietly with the shell's status for it."""

    def invoke(self, ctx):
        try:
            rv = super().invoke(ctx)
        except OSError as e:
            if getattr(e, "filename", None) is None and e.errno is not None:
                raise _output_error(e) from None      # click.echo to standard output failed
            raise
        except (SystemExit, click.exceptions.Exit):
            _flush_stdout()
            raise
        except KeyboardInterrupt:
            _interrupted()
        except SystemError as e:
            if interrupted_by(e):              # Ctrl-C landed inside a compiled call
                _interrupted()
            raise
        _flush_stdout()
        return rv


def _interrupted() -> None:
    """Ctrl-C in a command that has nothing to keep: one line and the shell's status for
    it (click would say "Aborted!" and exit 1). A batch says more itself."""
    click.echo("interrupted", err=True)
    sys.exit(EXIT_INTERRUPTED)


def _flush_stdout() -> None:
    try:
        sys.stdout.flush()
    except OSError as e:
        raise _output_error(e) from None


def _output_error(e: OSError) -> click.ClickException | click.exceptions.Exit:
    import errno
    import os
    try:                                  # what is left in the buffer must not be retried at exit
        sys.stdout = open(os.devnull, "w")
    except OSError:
        pass
    if e.errno == errno.EPIPE:
        return click.exceptions.Exit(EXIT_BROKEN_PIPE)
    return OutputError(f"cannot write to standard output: {e.strerror or e}")


class PatienceGroup(click.Group):
    command_class = PatienceCommand

    def main(self, *args, **kwargs):
        """Output written while the options are parsed (``--help``, ``--version``) gets the
        commands' handling of a full or closed standard output too."""
        try:
            try:
                return super().main(*args, **kwargs)
            finally:
                sys.stdout.flush()
        except OSError as e:
            err = _output_error(e)
            if isinstance(err, click.ClickException):
                err.show()
            sys.exit(err.exit_code)


class FilePath(click.Path):
    """A file name; an empty one is an error (click would take it, and ``if out:`` would
    then skip the file silently)."""

    def convert(self, value, param, ctx):
        if value == "":
            self.fail("an empty file name", param, ctx)
        return super().convert(value, param, ctx)


class Text(click.ParamType):
    """A non-empty text value."""

    name = "text"

    def convert(self, value, param, ctx):
        if value == "":
            self.fail("an empty value", param, ctx)
        return value


TEXT = Text()


class Count(click.IntRange):
    """An integer range whose error line does not echo a huge value whole."""

    def convert(self, value, param, ctx):
        if isinstance(value, str) and len(value) > 40:
            self.fail(f"{printable(value, 40)!r} is not in the range {self._describe_range()}", param, ctx)
        return super().convert(value, param, ctx)


rule_option = click.option("--rule", "rules", multiple=True, metavar="NAME=VALUE",
                           help="Override a rule option (repeatable); see 'patience variants --options'.")
profile_option = click.option("--profile", default=None, type=TEXT, metavar="NAME",
                              help="Apply a rule profile first, e.g. 'pysolfc' for PySolFC's exact rules.")


def resolve_rules(variant: str, rules: tuple[str, ...], profile: Optional[str]):
    if profile == "":
        raise RulesError("--profile needs a name (see 'patience variants')")
    return make_rules(variant, parse_rule_assignments(rules), profile=profile)


def load_deal(variant_or_file: str, game_number: Optional[str], rules: tuple[str, ...] = (),
              profile: Optional[str] = None) -> Deal:
    """A deal from ``VARIANT GAME_NUMBER`` or from a deal file (then no rules may be given)."""
    if game_number is None:
        if rules or profile is not None:
            raise RulesError("--rule/--profile apply to VARIANT GAME_NUMBER; a deal file carries its own rules")
        return read_deal(variant_or_file)
    from solver import deals
    g = deals.parse_game_number(game_number)
    if str(g) != game_number.strip():      # PySolFC's own reading: 1.5 is game 15
        click.echo(f"note: game number {printable(game_number, 40)!r} read as game {printable(str(g), 40)}", err=True)
    return pysolfc_deal(resolve_rules(variant_or_file, rules, profile), g)


@click.group(cls=PatienceGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="patience")
def main() -> None:
    """Exhaustive solver for Alhambra, Terrace (Queen of Italy) and Algerian Patience."""


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
    """A move list given as text, or a solution file: returns the moves, and the solution
    file's deal and claimed outcome (None, None for a move list). Decided by the text, not by the file system: text that reads as moves is the
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
        sol, deal = read_solution(arg)
        return sol.moves, deal, sol.outcome
    if arg.endswith(".json"):
        raise DealFileError(f"cannot read {arg}: no such file")
    raise error or DealFileError("no moves given")


def _is_file(arg: str) -> bool:
    """Whether ``arg`` names a file (a name too long or otherwise unusable is no file)."""
    from pathlib import Path
    try:
        return Path(arg).is_file()
    except (OSError, ValueError):
        return False


@main.command()
@click.argument("args", nargs=-1, required=True)
@rule_option
@profile_option
@click.option("--show", is_flag=True, help="Print the board after every move.")
@click.option("--quiet", "-q", is_flag=True, help="Print only the verdict line.")
def replay(args, rules, profile, show, quiet) -> None:
    """Replay a solution on the reference engine.

    \b
    ARGS is one of:
      SOLUTION_FILE                    (the deal is taken from the solution file)
      DEAL_FILE SOLUTION               (SOLUTION: a solution file, a move list, or - for stdin)
      VARIANT GAME_NUMBER SOLUTION

    Exits 0 when every move is legal and the game ends won; 1 otherwise, naming the
    first illegal move (or when a solution file claims an outcome its line does not
    give: a "lost" file whose line wins); 2 on bad input.
    """
    if len(args) == 1:
        moves, deal, claim = _read_moves_arg(args[0])
        if deal is None:
            raise RulesError("a move list needs a deal: give DEAL_FILE or VARIANT GAME_NUMBER before it")
    elif len(args) in (2, 3):
        deal = load_deal(args[0], args[1] if len(args) == 3 else None, rules, profile)
        moves, sol_deal, claim = _read_moves_arg(args[-1])
        if sol_deal is not None and sol_deal.checksum != deal.checksum:
            raise DealFileError(f"the solution is for deal {sol_deal.checksum}, not this deal ({deal.checksum})")
    else:
        raise RulesError("usage: patience replay [DEAL_FILE | VARIANT GAME_NUMBER] SOLUTION")
    if not quiet:
        click.echo(f"replaying {len(moves)} moves on {deal.label()} ({deal.rules.describe()})")
        if show:
            from solver.engine import engine_for
            start = engine_for(deal.rules).initial_position(deal.layout)
            click.echo(render_layout(start.to_layout(), title="start"))
    result = replay_moves(deal, moves, None if quiet else _print_step(show))
    line = result.message(moves)
    if claim is not None and (claim == "won") != result.ok:
        line = f"the solution file claims {claim!r}, but {'its line wins' if result.ok else line}"
        click.echo(f"error: {line}", err=True)
        sys.exit(EXIT_NOT_WON)
    if result.ok:
        click.echo(line)
        return
    click.echo(f"error: {line}", err=True)
    sys.exit(EXIT_NOT_WON)


def _print_step(show: bool):
    """Print each move as it is replayed (with the board after it, with ``show``)."""
    def step(i, move, pos):
        click.echo(f"{i + 1:4d}. {format_move(move)}")
        if show:
            click.echo(render_layout(pos.to_layout()) + "\n")
    return step


# ----- solving ------------------------------------------------------------------------------

_UNITS = {"": 1, "b": 1, "k": 1 << 10, "kb": 1 << 10, "kib": 1 << 10, "m": 1 << 20, "mb": 1 << 20,
          "mib": 1 << 20, "g": 1 << 30, "gb": 1 << 30, "gib": 1 << 30}


MAX_MEMORY = 1 << 40


def parse_bytes(text: str) -> int:
    """``512M``, ``1G``, ``4096`` -> bytes."""
    import re
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([a-zA-Z]*)\s*", text)
    if not m or m.group(2).lower() not in _UNITS:
        raise RulesError(f"bad --memory {printable(text, 40)!r}: expected a size such as 512M or 2G")
    n = float(m.group(1)) * _UNITS[m.group(2).lower()]
    if n < 1024:
        raise RulesError(f"--memory {printable(text, 40)!r} is below the minimum of 1K")
    if n > MAX_MEMORY:
        raise RulesError(f"--memory {printable(text, 40)!r} is above the maximum of 1T")
    return int(n)


def _size_text(n: int) -> str:
    """Bytes as ``parse_bytes`` reads them: ``2G``, ``512M``, ``64K``."""
    for unit, size in (("G", 1 << 30), ("M", 1 << 20), ("K", 1 << 10)):
        if n >= size and n % size == 0:
            return f"{n // size}{unit}"
    return str(n)


class FiniteSeconds(click.FloatRange):
    """Seconds: a finite number of at least 1 ms (``nan`` and ``inf`` pass a plain float
    range, and a NaN budget would be written into the results store)."""

    name = "seconds"

    def __init__(self):
        super().__init__(min=0.001)

    def convert(self, value, param, ctx):
        v = super().convert(value, param, ctx)
        if not math.isfinite(v):
            self.fail(f"{value!r} is not a finite number of seconds", param, ctx)
        return v


# One range for every command: node counts are int64 in the kernels and in SQLite, and
# 10^15 nodes is some thirty years of one core.
MAX_NODES = 10 ** 15


def _budget_options(f):
    f = click.option("--budget-nodes", type=Count(min=1, max=MAX_NODES), default=None,
                     help="Node budget (the reproducible main budget; default 2,000,000).")(f)
    f = click.option("--time-limit", type=FiniteSeconds(), default=None,
                     help="Wall-clock safety net in seconds (default 600).")(f)
    f = click.option("--memory", default=None, type=TEXT, metavar="SIZE",
                     help="Transposition-table budget, e.g. 512M, 2G (default 1G).")(f)
    f = click.option("--dominance", multiple=True, metavar="RULE",
                     help="A proved dominance rule to use (repeatable); 'all' (the default): every one "
                          "these rules allow; 'none': the unpruned search.")(f)
    f = click.option("--no-restarts", is_flag=True,
                     help="One plain-order search instead of the restart schedule.")(f)
    return f


def _shorten_option(f):
    return click.option("--shorten-nodes", type=Count(min=0, max=MAX_NODES), default=None,
                        help="Nodes spent after a win on shortening its line with detours of two moves or "
                             "more (default 200,000, and at most 1,000 a move of the line; 0: one-move detours only).")(f)


def _budget(budget_nodes, time_limit, memory, no_restarts=False, shorten_nodes=None):
    from solver.driver import Budget, DEFAULT_MEMORY, DEFAULT_NODES, DEFAULT_TIME
    from solver.lines import SHORTEN_NODES
    return Budget(budget_nodes or DEFAULT_NODES, time_limit or DEFAULT_TIME,
                  parse_bytes(memory) if memory is not None else DEFAULT_MEMORY, not no_restarts,
                  SHORTEN_NODES if shorten_nodes is None else shorten_nodes)


def _progress():
    """A live line on stderr when it is a terminal (nodes, states, seconds)."""
    if not sys.stderr.isatty():
        return None

    def show(nodes, states, seconds):
        click.echo(f"\r  {nodes:,} nodes  {states:,} states  {seconds:.1f} s   ", nl=False, err=True)
    return show


def _dominance_names(names) -> tuple:
    """``--dominance`` as given: ``all`` when none is given, nothing for ``none``."""
    if "none" in names:
        if len(names) > 1:
            raise RulesError("--dominance none cannot be combined with other rules")
        return ()
    return tuple(names) or ("all",)


def _dominance(rules, names) -> tuple:
    """The rule names of ``--dominance`` for these rules: every rule they allow when none is given."""
    from solver.adapter import expand_dominance
    return expand_dominance(rules, _dominance_names(names))


def _run_solver(deal, budget, dominance):
    from solver.driver import solve, warm_up
    compile_s = warm_up(deal.rules, tuple(dominance))
    prog = _progress()
    res = solve(deal, budget, tuple(dominance), prog)
    if prog:
        click.echo("\r" + " " * 60 + "\r", nl=False, err=True)
    return res, compile_s


# What the CLI says of a line found by one of the core's searches for wins (``solver.driver.WIN_SEARCHES``).
_WIN_SEARCH_FINDS = {"beam": "found by a beam search after the search ran out of nodes",
                     "nested": "found by a nested search (rollouts) after the search ran out of nodes"}


def _found_by(rules, proof: str) -> str:
    """What found a winning line that the search did not: a core search for wins, or one
    of the family's rules or models (its ``Family.wins`` and each rule's ``finds``)."""
    if proof in _WIN_SEARCH_FINDS:
        return _WIN_SEARCH_FINDS[proof]
    fam = family(rules.family)
    return fam.wins.get(proof) or fam.rule(proof).finds


def _verdict_line(deal, res) -> str:
    if res.verdict == "won":
        base = f" with base {res.base()}" if res.base() else ""
        found = f"; the search's line: {res.search_moves}" if res.search_moves and res.search_moves != len(res.moves) else ""
        by = f"; {_found_by(deal.rules, res.proof)}" if res.proof else ""
        return f"{deal.label()}: won in {len(res.moves)} moves{base} (certified by the reference engine{found}{by})"
    if res.proof:                                   # lost by a rule outside the search
        return f"{deal.label()}: lost (proved by {family(deal.rules.family).rule(res.proof).proves})"
    if res.verdict == "lost":
        return f"{deal.label()}: lost (complete search)"
    total = 2 * deal.rules["suits"] * deal.rules["ranks"]
    return (f"{deal.label()}: unknown ({res.reason}); the furthest line searched put {res.most_home} of "
            f"{total} cards on the foundations")


@main.command()
@click.argument("variant", required=False)
@click.argument("game_number", required=False)
@click.option("--deal", "deal_file", type=FilePath(dir_okay=False), help="Solve the deal in this deal file.")
@rule_option
@profile_option
@_budget_options
@_shorten_option
@click.option("--out", type=FilePath(dir_okay=False), help="Write the solution file here.")
@click.option("--show", is_flag=True, help="Print the winning line step by step with boards.")
def solve(variant, game_number, deal_file, rules, profile, budget_nodes, time_limit, memory, dominance, no_restarts,
          shorten_nodes, out, show) -> None:
    """Decide VARIANT game GAME_NUMBER (or --deal FILE): won, lost or unknown."""
    from solver.formats import write_solution
    if deal_file:
        if variant or game_number:
            raise RulesError("give either --deal FILE or VARIANT GAME_NUMBER, not both")
        deal = load_deal(deal_file, None, rules, profile)
    else:
        if not variant or not game_number:
            raise RulesError("usage: patience solve VARIANT GAME_NUMBER  (or: patience solve --deal FILE)")
        deal = load_deal(variant, game_number, rules, profile)
    budget = _budget(budget_nodes, time_limit, memory, no_restarts, shorten_nodes)
    res, compile_s = _run_solver(deal, budget, _dominance(deal.rules, dominance))
    click.echo(_verdict_line(deal, res))
    click.echo(f"rules: {deal.rules.describe()} (hash {deal.rules.hash()})")
    per_state = res.table_bytes / res.states if res.states else 0
    click.echo(f"nodes {res.nodes:,}  unique states {res.states:,}  search {res.seconds:.3f} s  "
               f"certify {res.certify_seconds:.3f} s  (numba compile/load {compile_s:.2f} s)  table {res.table_bytes / 2 ** 20:.0f} MiB "
               f"({per_state:.1f} bytes/state)")
    if res.verdict == "unknown":
        if res.reason == "nodes":
            hint = f"--budget-nodes {budget.nodes * 10}"
        elif res.reason == "time":
            hint = f"--time-limit {budget.seconds * 10:g}"
        else:
            hint = f"--memory {_size_text(budget.memory * 2)}"      # the table grows by doubling
        click.echo(f"to search further, rerun with {hint}")
    if res.verdict == "won":
        if show:
            from solver.playback import replay as replay_moves
            replay_moves(deal, res.moves, _print_step(True))
        else:
            from solver.moves import format_moves
            click.echo(format_moves(res.moves))
    if out:
        write_solution(res.solution(), deal, out)
        click.echo(f"wrote {out}", err=True)


def _check_writable(path: str) -> None:
    """An error now if a file cannot be written at ``path`` (its folder missing or read-only)."""
    import os
    from pathlib import Path
    folder = Path(path).absolute().parent
    if not folder.is_dir():
        raise DealFileError(f"cannot write {path}: no folder {folder}")
    if not os.access(folder, os.W_OK):
        raise DealFileError(f"cannot write {path}: {folder} is not writable")


class VerifyCommand(PatienceCommand):
    """``verify``'s exit status is read by scripts: every error of the input (usage errors
    included: click's 2 means unknown here) is 3, anything else a bug, 4."""

    def parse_args(self, ctx, args):
        try:
            return super().parse_args(ctx, args)
        except click.ClickException as e:
            e.exit_code = EXIT_BAD_INPUT
            raise

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except click.ClickException as e:
            e.exit_code = EXIT_BAD_INPUT
            raise
        except (click.exceptions.Exit, click.Abort):
            raise
        except Exception as e:        # SystemExit and KeyboardInterrupt are not Exceptions
            raise InternalError(f"internal error ({type(e).__name__}: {printable(e, 200)}); please report it") from None


@main.command(cls=VerifyCommand)
@click.argument("deal_file", type=FilePath(dir_okay=False))
@_budget_options
@_shorten_option
@click.option("--out", type=FilePath(dir_okay=False),
              help="Write the solution file here (a .jsonl DEAL_FILE: one solution per line, appended "
                   "as each deal is done; running the same command again resumes).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object per deal instead of a line.")
@click.option("--jobs", type=Count(min=1, max=256), default=None,
              help="Worker processes for a .jsonl DEAL_FILE (default: all cores).")
def verify(deal_file, budget_nodes, time_limit, memory, dominance, no_restarts, shorten_nodes, out, as_json,
           jobs) -> None:
    """Is the deal in DEAL_FILE winnable? For publishers. A DEAL_FILE ending in .jsonl holds
    one deal per line (a pack): every deal is verified, in parallel, one line each as it
    is done (a bad line is reported and the rest still verified), then a summary.

    Exit status: 0 winnable (certified; the solution is written with --out), 1 proved
    unwinnable, 2 unknown within the budget, 3 bad input (usage errors included), 4 an
    internal error (a bug: please report it). For a pack: 3 if any line is not a deal,
    else 1 if any deal is proved unwinnable, else 2 if any is unknown, else 0."""
    from solver.formats import read_deal, write_solution_doc
    from solver.driver import warm_up
    from pathlib import Path
    budget = _budget(budget_nodes, time_limit, memory, no_restarts, shorten_nodes)
    names = _dominance_names(dominance)
    if out:
        _check_writable(out)              # before the solve, or its verdict would be lost
    if Path(deal_file).suffix == ".jsonl":
        _verify_pack(Path(deal_file), budget, names, jobs, Path(out) if out else None, as_json)
    deal = read_deal(deal_file)
    warm_up(deal.rules, _dominance(deal.rules, names))   # a rule these rules refuse: bad input, before the solve
    res = _solve_for_verify(deal, budget, names)
    _print_verdict(res, deal_file, budget, out, as_json)
    if out:
        write_solution_doc(res["solution"], out)
    sys.exit({"won": EXIT_WON, "lost": EXIT_LOST, "unknown": EXIT_UNKNOWN}[res["verdict"]])


def _verify_pack(path, budget, names, jobs, out, as_json) -> None:
    """``verify`` on a pack: the lines, the summary, the exit status; never returns."""
    import os
    from solver.batch import run_local
    from solver.driver import warm_up
    from solver.pack import verify_pack
    if out is not None and out.resolve() == path.resolve():
        raise DealFileError(f"--out {out} is the pack itself")
    warm_up()

    def report(res, label, resumed):
        _print_verdict(res, label, budget, str(out) if out else None, as_json, resumed)
    summary = verify_pack(path, budget, names, jobs or os.cpu_count() or 1, out, report,
                          lambda e: e.show(), run_local)
    c = summary.counts
    resumed = f" ({summary.resumed} from {out})" if summary.resumed else ""
    click.echo(f"{summary.deals} deals: winnable {c['won']}, unwinnable {c['lost']}, unknown {c['unknown']}, "
               f"bad lines {len(summary.bad)}{resumed}", err=True)
    if summary.interrupted:
        click.echo("interrupted: every finished deal is in the solutions file; run the same command again "
                   "to resume" if out else "interrupted (without --out nothing is kept)", err=True)
        sys.exit(EXIT_INTERRUPTED)
    sys.exit(EXIT_BAD_INPUT if summary.bad else EXIT_LOST if c["lost"] else EXIT_UNKNOWN if c["unknown"]
             else EXIT_WON)


def _solve_for_verify(deal, budget, names) -> dict:
    """Solve one deal: the figures ``_print_verdict`` shows, and its solution document."""
    from solver.pack import PackJob, verify_job
    from solver.formats import deal_to_json
    return verify_job(PackJob(0, deal_to_json(deal), budget.nodes, budget.seconds, budget.memory, budget.restarts,
                              names, budget.shorten))


def _print_verdict(res: dict, label, budget, out, as_json, resumed=False) -> None:
    """One deal's verdict: a line, or a JSON object."""
    verdict, detail = res["verdict"], res["reason"]
    doc = res["solution"]
    if as_json:
        click.echo(json.dumps({
            "deal": label, "checksum": doc["deal"]["checksum"], "variant": doc["variant"], "rules": doc["rules"],
            "verdict": verdict, "reason": detail, "moves": res["moves"], "search_line_moves": res.get("search_moves"),
            "base": res["base"], "nodes": res["nodes"], "states": res["states"], "seconds": res["seconds"],
            "most_home": res["most_home"], "budget": doc["producer"]["budget"], "solution": out,
            "resumed": resumed}))
    else:
        words = {"won": "winnable", "lost": "unwinnable (proved)", "unknown": "unknown"}[verdict]
        extra = (f" in {res['moves']} moves" + (f" with base {res['base']}" if res["base"] else "")
                 if verdict == "won" else (f" ({detail})" if detail else ""))
        click.echo(f"{label}: {words}{extra}{' (stored)' if resumed else ''}")


@main.command()
@click.argument("variant")
@click.option("--winnable", "want", flag_value="winnable", default=None,
              help="Keep the deals certified winnable (each with its winning line).")
@click.option("--unwinnable", "want", flag_value="unwinnable", help="Keep the deals proved unwinnable.")
@click.option("--count", type=Count(min=1, max=1_000_000), required=True, help="How many deals to keep.")
@click.option("--seed", type=Count(min=0, max=10 ** 18), required=True,
              help="The seed of the shuffles: the same seed gives the same deals.")
@click.option("--max-tries", type=Count(min=1, max=10 ** 8), default=None,
              help="Stop after this many shuffles (default: 100 per deal wanted).")
@rule_option
@profile_option
@_budget_options
@_shorten_option
@click.option("--jobs", type=Count(min=1, max=256), default=None, help="Worker processes (default: all cores).")
@click.option("--out", required=True, type=FilePath(dir_okay=False),
              help="The pack to write (.jsonl, one deal a line); the solutions go beside it, in "
                   "OUT's name with .solutions.jsonl.")
def generate(variant, want, count, seed, max_tries, rules, profile, budget_nodes, time_limit, memory, dominance,
             no_restarts, shorten_nodes, jobs, out) -> None:
    """New random deals of VARIANT, kept only when certified winnable (--winnable) or proved
    unwinnable (--unwinnable): a publisher's pack, reproducible from --seed. Each deal
    records its shuffle and how many shuffles were tried for it; a deal whose search ends
    unknown is never kept."""
    import os
    from pathlib import Path
    from solver.batch import run_local
    from solver.driver import warm_up
    from solver.generate import generate as generate_pack
    if want is None:
        raise RulesError("say which deals to keep: --winnable or --unwinnable")
    path = Path(out)
    if path.suffix != ".jsonl":
        raise RulesError(f"--out {out}: a pack is a .jsonl file")
    solutions = path.with_name(path.stem + ".solutions.jsonl")
    for p in (path, solutions):
        if p.exists():                    # a pack is written whole: never over an earlier one
            raise RulesError(f"{p} exists: remove it or give another --out")
        _check_writable(str(p))
    r = resolve_rules(variant, rules, profile)
    names = _dominance_names(dominance)
    _dominance(r, names)                  # a rule these rules refuse: an error now
    budget = _budget(budget_nodes, time_limit, memory, no_restarts, shorten_nodes)
    tries = max_tries or 100 * count
    click.echo(f"{r.describe()} (rules {r.hash()}): {count} {want} deals from shuffles of seed {seed} "
               f"(at most {tries:,} tries); budget {budget.nodes:,} nodes", err=True)
    warm_up(r, _dominance(r, names))
    progress = _generate_progress(count)
    summary = generate_pack(r, want, count, seed, tries, budget, names, jobs or os.cpu_count() or 1, path,
                            solutions, run_local, progress)
    c = summary.counts
    if sys.stderr.isatty():
        click.echo("", err=True)          # end the live line
    click.echo(f"kept {summary.kept} of {summary.tried} tried (won {c['won']}, lost {c['lost']}, "
               f"unknown {c['unknown']}): {out}, solutions {solutions}", err=True)
    if summary.interrupted:
        click.echo(f"interrupted: the {summary.kept} deals kept so far are in {out} (the same --seed gives "
                   f"them again: a new run with another --out reproduces and goes on)", err=True)
        sys.exit(EXIT_INTERRUPTED)
    if summary.kept < count:
        raise RulesError(f"only {summary.kept} of {count} {want} deals in {summary.tried:,} tries; "
                         f"raise --max-tries or --budget-nodes")


def _generate_progress(count: int):
    """Progress of ``generate`` on stderr: live on a terminal, else every 10 seconds."""
    import time
    tty = sys.stderr.isatty()
    last = [0.0]

    def show(s) -> None:
        now = time.monotonic()
        if tty or now - last[0] >= 10 or s.kept == count:
            last[0] = now
            line = f"kept {s.kept}/{count}, tried {s.tried}"
            click.echo(("\r" + line) if tty else line, nl=not tty, err=True)
    return show


# ----- batches, statistics, export ------------------------------------------------------------

DEFAULT_DB = "results/results.db"


@main.command()
@click.argument("variant")
@click.option("--seeds", required=True, type=TEXT, metavar="RANGES", help="Game numbers: ranges and lists, e.g. 1-1000,5000,7000-7100.")
@rule_option
@profile_option
@_budget_options
@click.option("--jobs", type=Count(min=1, max=256), default=None, help="Worker processes (default: all cores).")
@click.option("--db", default=DEFAULT_DB, type=TEXT, show_default=True, help="The results store (SQLite).")
@click.option("--rerun-unknown", is_flag=True, help="Re-solve only the seeds whose newest record is unknown.")
@click.option("--engine", type=click.Choice(["local", "dask"]), default="local", show_default=True)
@click.option("--scheduler", default=None, type=TEXT, metavar="ADDRESS", help="Dask scheduler address (default: a local cluster).")
def batch(variant, seeds, rules, profile, budget_nodes, time_limit, memory, dominance, no_restarts, jobs, db, rerun_unknown,
          engine, scheduler) -> None:
    """Solve VARIANT for every seed in --seeds into a results store (resumable). A winning
    line is shortened by one-move detours only (``patience solve --shorten-nodes`` does more)."""
    try:
        summary = _batch(variant, seeds, rules, profile, budget_nodes, time_limit, memory, dominance, no_restarts,
                         jobs, db, rerun_unknown, engine, scheduler)
    except (KeyboardInterrupt, SystemError) as e:    # Ctrl-C before the workers started
        if not interrupted_by(e):
            raise
        summary = None
    if summary is None or summary.interrupted:
        click.echo("interrupted: every finished seed is stored; run the same command again to resume", err=True)
        sys.exit(EXIT_INTERRUPTED)
    if summary.rejected:
        sys.exit(StoreError.exit_code)


@main.command()
@click.option("--db", default=DEFAULT_DB, type=TEXT, show_default=True, help="The results store the batches write.")
@click.option("--out", default="results", type=FilePath(file_okay=False), show_default=True,
              help="The folder of the table and the records.")
@click.option("--jobs", type=Count(min=1, max=256), default=None, help="Worker processes (default: all cores).")
@click.option("--only", multiple=True, metavar="VARIANT",
              help="Solve only these variants' rows (repeatable); the files keep every row.")
@click.option("--games", type=Count(min=1, max=1_000_000), default=None,
              help="Solve at most this many games per row (a quick look; rows already published stay whole).")
@click.option("--no-solve", is_flag=True, help="Write the files from the store as it is; solve nothing.")
def report(db, out, jobs, only, games, no_solve) -> None:
    """The published win-rate table: solve every row of the plan (solver/report.py: variants,
    rule sets, games and budget) into the store, resumably, then write the table, the
    records and the rule sets into --out. The records already in --out made by this
    solver version at the plan's budget count as finished games: a report goes on from the
    published files on a machine without the store. A row being solved again stays as
    published until the new run covers as many games; meanwhile its new records are kept in
    --out/pending.csv.gz, which counts as finished games too. Interrupted, the report still
    writes the files."""
    from pathlib import Path
    from solver.batch import SOLVER_VERSION
    from solver.report import PLAN, games_to_solve, label, pending, published, seed_ranges
    keys = {get_variant(v).key for v in only}
    kept, pend = published(Path(out), SOLVER_VERSION), pending(Path(out), SOLVER_VERSION)
    interrupted = False
    old_term = sigterm_as_interrupt()      # SIGTERM as Ctrl-C for the whole report
    try:
        for e in [] if no_solve else PLAN:
            if keys and e.variant not in keys:
                continue
            todo = games_to_solve(e, kept, games, pend)
            n = min(e.games, games) if games else e.games
            if n > len(todo):
                click.echo(f"{label({'variant': e.variant, 'profile': e.profile})}: {n - len(todo)} of {n} games "
                           f"already done in {out} by this version", err=True)
            if not todo:
                continue
            summary = _batch(e.variant, seed_ranges(todo), (), e.profile, e.budget_nodes, None, None, (), False,
                             jobs, db, False, "local", None)
            if summary is not None and summary.interrupted:
                interrupted = True
                break
    except (KeyboardInterrupt, SystemError) as err:
        if not interrupted_by(err):
            raise
        interrupted = True
    finally:
        if old_term is not None:
            signal.signal(signal.SIGTERM, old_term)
    _write_report(db, out, games, kept, pend)
    if interrupted:
        click.echo("interrupted: every finished game is stored; run the same command again to resume", err=True)
        sys.exit(EXIT_INTERRUPTED)


def _write_report(db, out, games, kept, pend) -> None:
    """Write the table's files from the store (if any) and what --out already holds."""
    from pathlib import Path
    from solver.report import PLAN, entry_rules, label, records_for, write_files
    from solver.store import Store
    store = Store(db, readonly=True) if Path(db).exists() else None
    from solver.batch import SOLVER_VERSION
    rows, sets, waiting = records_for(store, PLAN, SOLVER_VERSION, games, kept, pend)
    if store is not None:
        store.close()
    stats = write_files(Path(out), rows, sets, waiting)
    click.echo(f"wrote {len(stats)} rows ({len(rows)} games) to {out}/win-rates.md, win-rates.csv, "
               f"records.csv.gz and rule-sets.json" + (f"; {len(waiting)} pending games to pending.csv.gz"
                                                       if waiting else ""), err=True)
    for e in PLAN:                      # how far each row's new run got
        h = entry_rules(e).hash()
        n = sum(r["rules_hash"] == h for r in waiting)
        if n:
            click.echo(f"  {label({'variant': e.variant, 'profile': e.profile})}: {n} new games pending, "
                       f"not yet in the row (the plan: {e.games:,})", err=True)


def _batch(variant, seeds, rules, profile, budget_nodes, time_limit, memory, dominance, no_restarts, jobs, db,
           rerun_unknown, engine, scheduler):
    """The batch; returns its summary (None if there was nothing to solve)."""
    import os
    from solver import batch as batch_module
    from solver.batch import Progress, BatchSummary, parse_seeds, plan_jobs, run_batch, run_dask, run_local
    from solver.adapter import adapter_for
    from solver.driver import warm_up
    from solver.store import Store
    if scheduler is not None and engine != "dask":
        raise RulesError("--scheduler is for --engine dask")
    r = resolve_rules(variant, rules, profile)
    seed_list = parse_seeds(seeds)
    dominance = _dominance(r, dominance)
    adapter_for(r, tuple(dominance))
    budget = _budget(budget_nodes, time_limit, memory, no_restarts)
    store = Store(db)
    store.claim_writer()
    todo, skipped = plan_jobs(store, r, seed_list, budget.nodes, budget.seconds, budget.memory,
                              tuple(dominance), rerun_unknown, budget.restarts)
    n = jobs or os.cpu_count() or 1
    click.echo(f"{r.describe()} (rules {r.hash()}): {len(seed_list)} seeds, {skipped} already stored, "
               f"{len(todo)} to solve with {n} {'dask' if engine == 'dask' else 'local'} workers; "
               f"budget {budget.nodes:,} nodes; store {db}", err=True)
    if not todo:
        return BatchSummary(total=0, skipped=skipped)
    summary = BatchSummary(total=len(todo), skipped=skipped)
    if engine == "dask":
        source = lambda js: run_dask(js, scheduler, n)          # noqa: E731
    else:
        source = lambda js: run_local(js, n, batch_module.solve_job)   # noqa: E731 (looked up now: tests replace it)
    try:
        click.echo(f"numba compile/load {warm_up(r, tuple(dominance)):.2f} s", err=True)   # once, before workers start
        run_batch(store, todo, source, summary, Progress(len(todo)))
    except KeyboardInterrupt:             # before the first seed (while compiling, say)
        summary.interrupted = True
    except SystemError as e:
        if not interrupted_by(e):
            raise
        summary.interrupted = True
    finally:
        store.close()
    c = summary.counts
    click.echo(f"stored {summary.done}: won {c['won']}, lost {c['lost']}, unknown {c['unknown']}", err=True)
    if summary.rejected:
        game, why = summary.rejected[0]
        StoreError(f"{len(summary.rejected)} won records were not stored: their line does not replay on the "
                   f"driver (game {game}: {why}); a worker of another version, or not ours").show()
    return summary


@main.command()
@click.option("--db", default=DEFAULT_DB, type=TEXT, show_default=True, help="The results store.")
@click.option("--variant", default=None, type=TEXT, help="Only this variant.")
@click.option("--rules-hash", default=None, type=TEXT, help="Only this rule set (hash as shown by batch / stats).")
@click.option("--seeds", default=None, type=TEXT, metavar="RANGES", help="Only these game numbers.")
@click.option("--format", "fmt", type=click.Choice(["table", "markdown", "csv", "json"]), default="table",
              show_default=True)
def stats(db, variant, rules_hash, seeds, fmt) -> None:
    """Win rates with Wilson 95% intervals, per variant and rule set."""
    from solver.batch import parse_seeds
    from solver.stats import group_stats, render
    from solver.store import Store
    keep = set(parse_seeds(seeds)) if seeds else None
    store = Store(db, readonly=True)
    groups = group_stats(store.latest(rules_hash=rules_hash,
                                      variant=get_variant(variant).key if variant else None),
                         (lambda g: g in keep) if keep is not None else None)
    store.close()
    if not groups:
        raise RulesError(f"no records in {db} match")
    click.echo(render(groups, fmt))


@main.command()
@click.option("--db", default=DEFAULT_DB, type=TEXT, show_default=True, help="The results store.")
@click.option("--format", "fmt", type=click.Choice(["csv", "jsonl", "parquet"]), default="csv", show_default=True)
@click.option("--out", required=True, type=FilePath(dir_okay=False, allow_dash=True),
              help="The file to write ('-': standard output).")
@click.option("--variant", default=None, type=TEXT, help="Only this variant.")
@click.option("--rules-hash", default=None, type=TEXT, help="Only this rule set (hash as shown by batch / stats).")
@click.option("--winnable", "numbers", flag_value="won", default=None,
              help="Write only the game numbers whose newest record is won (certified), one a line, "
                   "for one variant and rule set.")
@click.option("--lost", "numbers", flag_value="lost",
              help="The same for the game numbers proved lost.")
def export(db, fmt, out, variant, rules_hash, numbers) -> None:
    """Export every record (history included) as CSV, JSON Lines or Parquet; or, with
    --winnable or --lost, a list of game numbers a game can ship."""
    import csv
    from solver.store import Store
    key = get_variant(variant).key if variant else None
    store = Store(db, readonly=True)
    if numbers:
        latest = list(store.latest(rules_hash=rules_hash, variant=key))
        store.close()
        _write_game_numbers(db, latest, numbers, out)
        return
    rows = [r for r in store.all_records()
            if (key is None or r["variant"] == key) and (rules_hash is None or r["rules_hash"] == rules_hash)]
    store.close()
    if out == "-" and fmt == "parquet":
        raise RulesError("--out - (standard output) takes csv or jsonl, not parquet")
    try:
        if fmt == "parquet":
            try:
                import pyarrow as pa
                import pyarrow.parquet as pq
            except ImportError:
                raise RulesError("--format parquet needs pyarrow: pip install pyarrow") from None
            pq.write_table(pa.Table.from_pylist(rows), out)
        else:
            with (contextlib.nullcontext(sys.stdout) if out == "-" else open(out, "w", newline="")) as f:
                if fmt == "csv":
                    w = csv.DictWriter(f, fieldnames=list(rows[0]) if rows else ["id"])
                    w.writeheader()
                    w.writerows(rows)
                else:
                    for r in rows:
                        f.write(json.dumps(r) + "\n")
    except OSError as e:
        if out == "-":
            raise                          # standard output: the command's own handling
        raise RulesError(f"cannot write {out}: {e.strerror}") from None
    click.echo(f"wrote {len(rows)} records to {'standard output' if out == '-' else out}", err=True)


def _write_game_numbers(db, latest: list, verdict: str, out) -> None:
    """``export --winnable`` / ``--lost``: the game numbers of one variant and rule set
    whose newest record has ``verdict``, in ascending order, one a line."""
    groups = sorted({(r["variant"], r["rules_hash"]) for r in latest})
    if not groups:
        raise RulesError(f"no records in {db} match")
    if len(groups) > 1:
        raise RulesError(f"{db} holds {len(groups)} rule sets ({', '.join(f'{v} {h}' for v, h in groups)}): "
                         f"pick one with --variant and --rules-hash")
    games = sorted((r["game"] for r in latest if r["verdict"] == verdict),
                   key=lambda g: (0, int(g), "") if g.isdigit() else (1, 0, g))
    text = "".join(f"{g}\n" for g in games)
    try:
        if out == "-":
            sys.stdout.write(text)
        else:
            with open(out, "w") as f:
                f.write(text)
    except OSError as e:
        if out == "-":
            raise
        raise RulesError(f"cannot write {out}: {e.strerror}") from None
    (variant, rh), = groups
    click.echo(f"wrote {len(games)} {'winnable' if verdict == 'won' else 'lost'} game numbers of {variant} "
               f"(rules {rh}, {len(latest)} games in the store) to "
               f"{'standard output' if out == '-' else out}", err=True)


def run() -> None:
    """The ``patience`` command's entry point. A second Ctrl-C while numba compiles quits at
    once (``solver.interrupts``). An interrupted batch ends with ``os._exit``: one run, in
    a session that also saw Ctrl-C dropped inside numba's compiler, ended by SIGINT (status
    -2) at interpreter exit after the batch had stored everything and said so; leaving at
    once keeps the documented 130 (not seen again in 120 timed runs since the compile hold)."""
    import os
    from solver.interrupts import quit_on_second_interrupt
    quit_on_second_interrupt("interrupted while numba compiled (a batch has stored every finished seed)")
    try:
        main()
    except SystemExit as e:
        if e.code == EXIT_INTERRUPTED:
            for stream in (sys.stdout, sys.stderr):
                try:
                    stream.flush()
                except OSError:
                    pass
            os._exit(EXIT_INTERRUPTED)
        raise
