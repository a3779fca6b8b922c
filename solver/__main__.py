"""``python -m solver`` and the ``patience`` command (``solver.__main__:main``).

The command line's modules are imported inside ``main``, so that a Ctrl-C while they load
(a second or more on a busy machine) is an interrupt like any other: exit 130, no traceback.
"""

import os
import sys


def main() -> None:
    try:
        from solver.cli import run
    except KeyboardInterrupt:
        sys.stderr.write("interrupted\n")
        sys.stderr.flush()
        # At once: an interrupt that lands in a module's import can leave the signal pending,
        # and the interpreter's exit then ends by SIGINT (status -2) whatever sys.exit said.
        os._exit(130)                   # solver.errors.EXIT_INTERRUPTED, not imported yet
    run()


if __name__ == "__main__":
    main()
