"""Every error the project raises, and every exit status of the ``patience`` command, in one
place.

A user error is a :class:`click.ClickException`: click prints it as ``error: ...`` (one line
per problem, control characters escaped) and exits with its ``exit_code``, so no command
translates errors by hand. ``verify`` alone maps them to its own statuses (its command
class, in ``solver/cli/solving.py``).
"""

from __future__ import annotations

import click

# Every command but verify: 0 done (replay: the line wins), 1 replay's line does not win
# (view: a move is illegal; audit: a shipped line or a sampled loss failed), 2 bad input, 130 an interrupted batch, 141 standard output
# closed by its reader (as a shell reports a command that SIGPIPE ended).
EXIT_OK, EXIT_NOT_WON, EXIT_USAGE, EXIT_INTERRUPTED, EXIT_BROKEN_PIPE = 0, 1, 2, 130, 141
# verify (publishers' scripts read these).
EXIT_WON, EXIT_LOST, EXIT_UNKNOWN, EXIT_BAD_INPUT, EXIT_INTERNAL = 0, 1, 2, 3, 4

_ESCAPES = {i: f"\\x{i:02x}" for i in [*range(32), 127] if i not in (9,)}


def printable(text: str, limit: int = 300) -> str:
    """``text`` safe to echo: control characters (a terminal's escape sequences among them)
    written as ``\\xNN``, and cut to ``limit`` characters (input can be huge)."""
    text = str(text)
    cut = f"... ({len(text):,} characters)" if len(text) > limit else ""
    return text[:limit].translate(_ESCAPES) + cut


class ProjectError(click.ClickException):
    """An error the command reports in one line per problem, escaped and cut."""

    def lines(self) -> list[str]:
        return [self.message]

    def show(self, file=None) -> None:
        for line in self.lines():
            click.echo(f"error: {printable(line, 2000)}", err=True, file=file)


class InputError(ProjectError, ValueError):
    """Bad input from the user: exit status 2 (verify: 3)."""

    exit_code = EXIT_USAGE


class InternalError(ProjectError):
    """A bug met by ``verify`` (which must not exit as if it had a verdict)."""

    exit_code = EXIT_INTERNAL


class RulesError(InputError):
    """An unknown variant, option or profile, a bad option value, or a bad combination of
    arguments."""


class GameNumberError(InputError):
    """A game number PySolFC would not accept (or that names no deal)."""


class CardError(InputError):
    """A card text that does not name a card."""


class NotationError(InputError):
    """Text that is not a move."""


class SeedRangeError(InputError):
    """A malformed ``--seeds`` value."""


class StoreError(InputError):
    """A results store that cannot be used (wrong version, locked, read-only, not a store,
    another program's database)."""


class UnsupportedVariant(InputError):
    """No kernel exists for this family, or a dominance rule these rules do not allow."""


class DealFileError(InputError):
    """A deal or solution file that cannot be used; one problem per line."""

    def __init__(self, problems: list[str] | str):
        self.problems = [problems] if isinstance(problems, str) else list(problems)
        super().__init__("; ".join(self.problems))

    def lines(self) -> list[str]:
        return self.problems


class OutputError(InputError):
    """Standard output cannot be written (a full disk, a closed pipe)."""


class IllegalMove(ValueError):
    """A move the rules do not allow in this position; the message says why (replay reports
    it as the first illegal move, not as an error)."""


class CertificationError(RuntimeError):
    """The kernel's winning line does not replay on the reference engine: a kernel bug."""
