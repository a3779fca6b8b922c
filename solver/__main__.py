"""``python -m solver`` and the ``patience`` command (``solver.__main__:main``).

The command line's modules are imported inside ``main``, so that a Ctrl-C while they load
(a second or more on a busy machine) is an interrupt like any other: exit 130, no traceback.
"""

from __future__ import annotations

import os
import sys


def environment_problem(env=os.environ) -> str | None:
    """What in the environment stops numba from running the kernels (one line), or None.
    Numba reads these when it is imported and fails with a traceback, or runs every kernel
    as plain Python, thousands of times slower."""
    jit = env.get("NUMBA_DISABLE_JIT", "").strip()
    if jit and jit != "0":
        return (f"NUMBA_DISABLE_JIT={jit} turns numba's compiler off and the solver would run "
                f"thousands of times slower; unset it")
    threads = env.get("NUMBA_NUM_THREADS")
    if threads is not None and not (threads.strip().isascii() and threads.strip().isdigit() and int(threads) > 0):
        return f"NUMBA_NUM_THREADS={threads!r} must be a whole number above 0 (or unset)"
    return None


def main() -> None:
    problem = environment_problem()
    if problem:
        sys.stderr.write(f"error: {problem}\n")
        sys.exit(2)                     # solver.errors.EXIT_USAGE, not imported yet
    from solver import interrupts      # light: no numba yet
    interrupts.record_interrupts()
    try:
        from solver.cli import run
    except BaseException:
        # A KeyboardInterrupt, or what an import made of one (numba's import of scipy once
        # ended in "TypeError: expected a message argument"): an interrupt if one came.
        if not interrupts.interrupted():
            raise
        _quit_interrupted()
    if interrupts.interrupted():          # its KeyboardInterrupt was lost in an import
        _quit_interrupted()
    run()


def _quit_interrupted() -> None:
    sys.stderr.write("interrupted\n")
    sys.stderr.flush()
    # At once: an interrupt that lands in a module's import can leave the signal pending,
    # and the interpreter's exit then ends by SIGINT (status -2) whatever sys.exit said.
    os._exit(130)                       # solver.errors.EXIT_INTERRUPTED, not imported yet


if __name__ == "__main__":
    main()
