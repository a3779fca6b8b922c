"""The command line's common ground: the group and command classes (every error one line,
every exit status as documented), the parameter types, the options several commands share,
reading a deal and the budget from options, and ``run``, the entry point.

Every user error is one line on stderr with a non-zero exit status, never a traceback.
"""

from __future__ import annotations

import math
import sys
from typing import Callable, Iterable, Optional

import click

from solver import __version__, interrupts
from solver.errors import EXIT_BROKEN_PIPE, EXIT_INTERRUPTED, DealFileError, OutputError, RulesError, printable
from solver.batch import interrupted_by
from solver.formats import Deal, pysolfc_deal, read_deal
from solver.variants import Rules, make_rules, parse_rule_assignments


class PatienceCommand(click.Command):
    """Every command: standard output is flushed before the exit status is given, so that a
    full disk is one line of error, not a traceback at exit; a pipe closed by its reader
    (``| head``) ends the command quietly with the shell's status for it."""

    def invoke(self, ctx):
        try:
            interrupts.raise_if_interrupted()     # a Ctrl-C whose own raise was lost in an import
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
            if interrupted_by(e) or interrupts.interrupted():   # Ctrl-C landed inside a compiled call
                _interrupted()
            raise
        except Exception:
            # What a lazy import made of a Ctrl-C (numba's once ended in "RuntimeError: Error
            # calling __set_name__ ..."): an interrupt if one came.
            if interrupts.interrupted():
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
    """The ``patience`` group: its commands are ``PatienceCommand``s."""

    command_class = PatienceCommand

    def main(self, *args, standalone_mode: bool = True, **kwargs):
        """Output written while the options are parsed (``--help``, ``--version``) gets the
        commands' handling of a full or closed standard output too. Click's own handling of
        errors is kept, but a Ctrl-C that lands outside a command's own handling (while the
        group or the command parses its arguments) is an interrupt, 130, as everywhere,
        not click's "Aborted!" with status 1."""
        if not standalone_mode:
            return super().main(*args, standalone_mode=False, **kwargs)
        try:
            try:
                rv = super().main(*args, standalone_mode=False, **kwargs)
            finally:
                sys.stdout.flush()
        except OSError as e:
            err = _output_error(e)
            if isinstance(err, click.ClickException):
                err.show()
            sys.exit(err.exit_code)
        except click.ClickException as e:
            e.show()
            sys.exit(e.exit_code)
        except click.Abort:                # click's KeyboardInterrupt (or end of input)
            _interrupted()
        sys.exit(rv if isinstance(rv, int) else 0)   # click.exceptions.Exit's status, as click gives it


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
        if isinstance(value, str) and not value.strip().lstrip("+-").isascii():
            # int() reads other scripts' digits ('\u0665' is 5): a number here is written in 0-9
            self.fail(f"{printable(value, 40)!r} is not a number written in the digits 0-9", param, ctx)
        return super().convert(value, param, ctx)


rule_option = click.option("--rule", "rules", multiple=True, metavar="NAME=VALUE",
                           help="Override a rule option (repeatable); see 'patience variants --options'.")
profile_option = click.option("--profile", default=None, type=TEXT, metavar="NAME",
                              help="Apply a rule profile first, e.g. 'pysolfc' for PySolFC's exact rules.")


NOTICE_AFTER = 1.5         # seconds of warm-up before the command says the kernels are compiling


def warm_up_saying(rules: Optional[Rules] = None, dominance: tuple = ()) -> float:
    """``solver.driver.warm_up``, saying on standard error, once it has taken more than a
    moment, that numba is compiling the kernels (once per solver version: from half a minute
    to a few minutes on a fresh install; later runs load them from the cache), and how long
    it took. Returns its seconds."""
    import threading
    from solver.driver import warm_up
    said = threading.Event()

    def notice() -> None:
        said.set()
        click.echo("compiling the solver's kernels (numba): once per version, from half a minute to a few "
                   "minutes; later runs load them from the cache ...", err=True)

    timer = threading.Timer(NOTICE_AFTER, notice)
    timer.daemon = True
    timer.start()
    try:
        seconds = warm_up(rules, dominance)
    finally:
        timer.cancel()
        timer.join()
    if said.is_set():
        click.echo(f"compiled in {seconds:.0f} s", err=True)
    return seconds


def resolve_rules(variant: str, rules: tuple[str, ...], profile: Optional[str]) -> Rules:
    """The rules of ``--rule`` and ``--profile`` for ``variant``."""
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


def not_an_input(out: str, inputs: Iterable[str], what: str) -> None:
    """``--out`` naming a file given as input (or a link to one) would replace it with
    ``what``: an error."""
    import os
    for arg in inputs:
        try:
            same = os.path.exists(out) and os.path.exists(arg) and os.path.samefile(out, arg)
        except (OSError, ValueError):
            same = False
        if same:
            raise DealFileError(f"--out {out} is the input file {arg} itself; give another file for {what}")


# ----- the budget ----------------------------------------------------------------------------

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


def size_text(n: int) -> str:
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


def budget_options(f: Callable) -> Callable:
    """The budget's options (``make_budget`` reads them) and ``--dominance``."""
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


def shorten_option(f: Callable) -> Callable:
    """``--shorten-nodes``, for the commands that keep a winning line."""
    return click.option("--shorten-nodes", type=Count(min=0, max=MAX_NODES), default=None,
                        help="Nodes spent after a win on shortening its line with detours of two moves or "
                             "more (default 200,000, and at most 1,000 a move of the line; 0: one-move detours only).")(f)


def make_budget(budget_nodes: Optional[int], time_limit: Optional[float], memory: Optional[str],
                no_restarts: bool = False, shorten_nodes: Optional[int] = None, rules=None):
    """The ``solver.driver.Budget`` of the budget options (the driver's defaults for those not
    given; without ``--budget-nodes``, the node budget of ``rules``' variant, or for a pack,
    whose deals may be of several variants, the driver's, which ``verify_pack`` replaces
    by each deal's variant's)."""
    from solver.driver import Budget, DEFAULT_MEMORY, DEFAULT_NODES, DEFAULT_TIME
    from solver.lines import SHORTEN_NODES
    from solver.variants import budget_nodes as variant_budget
    if budget_nodes is None:
        budget_nodes = DEFAULT_NODES if rules is None else variant_budget(rules)
    return Budget(budget_nodes, time_limit or DEFAULT_TIME,
                  parse_bytes(memory) if memory is not None else DEFAULT_MEMORY, not no_restarts,
                  SHORTEN_NODES if shorten_nodes is None else shorten_nodes)


def dominance_names(names: tuple[str, ...]) -> tuple[str, ...]:
    """``--dominance`` as given: ``all`` when none is given, nothing for ``none``."""
    if "none" in names:
        if len(names) > 1:
            raise RulesError("--dominance none cannot be combined with other rules")
        return ()
    return tuple(names) or ("all",)


def dominance_rules(rules: Rules, names: tuple[str, ...]) -> tuple[str, ...]:
    """The rule names of ``--dominance`` for these rules: every rule they allow when none is given."""
    from solver.adapter import expand_dominance
    return expand_dominance(rules, dominance_names(names))


# ----- the group and its entry point ---------------------------------------------------------

@click.group(cls=PatienceGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="patience")
def main() -> None:
    """Exhaustive solver for Alhambra, Terrace (Queen of Italy) and Algerian Patience."""


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
