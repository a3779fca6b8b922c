"""The ``patience`` command (click), one module per group of commands:

- ``base``: the group and command classes, parameter types, shared options, ``run``;
- ``play``: ``variants``, ``deal``, ``replay``;
- ``solving``: ``solve``, ``verify``, ``generate``;
- ``results``: ``batch``, ``report``, ``stats``, ``export``;
- ``hint``: ``hint`` (a game in play);
- ``view``: ``view`` (a solution as a page to watch in a browser).

Each command reads its options and tells the result; the work is one floor down (the
driver, ``solver.batch``, ``solver.report``, ``solver.store``). Every user error is one
line on stderr with a non-zero exit status, never a traceback.
"""

from solver.cli.base import load_deal, main, parse_bytes, resolve_rules, run
# Importing the command modules registers their commands with ``main``.
from solver.cli import hint, play, results, solving, view  # noqa: F401

__all__ = ["load_deal", "main", "parse_bytes", "resolve_rules", "run"]
