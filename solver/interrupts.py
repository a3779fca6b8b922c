"""Ctrl-C while numba compiles is held until the compile is done.

A KeyboardInterrupt raised inside numba's compiler can land in one of llvmlite's ctypes
callbacks, where Python prints it as "Exception ignored" and drops it; the compile then
fails with an unrelated ``RuntimeError: no compiled object yet`` and a long traceback
instead of stopping. So while the main thread holds numba's (re-entrant) compiler lock,
which covers compiling and reading or writing the on-disk cache, SIGINT only notes
itself; the KeyboardInterrupt is raised when the outermost hold ends, after numba has
released the lock. Only Python's own Ctrl-C handler is replaced: a process that ignores
SIGINT (a batch worker) or handles it its own way keeps its handler.

A second Ctrl-C during the hold quits at once when the command line asked for it
(``quit_on_second_interrupt``); a library user (a notebook) keeps the hold.
"""

from __future__ import annotations

import os
import signal
import threading

from solver.errors import EXIT_INTERRUPTED

_NOTE = b"interrupt: stopping once numba has compiled or loaded the kernel in hand (Ctrl-C again to quit now)\n"
_quit_now: bytes | None = None          # second Ctrl-C during a hold: write this and exit
_installed = False


_received = False                       # a Ctrl-C came (``record_interrupts``)


def record_interrupts() -> None:
    """Replace Python's own Ctrl-C handler by one that also records the interrupt, for the
    command line, before anything heavy is imported. Python raises the KeyboardInterrupt
    wherever the main thread is; where that is a callback whose exceptions Python ignores
    (importlib's module-lock weakref callback: "Exception ignored in ... cb"), the interrupt
    was lost and a batch ran on (2 runs in 160 with Ctrl-C in the first 0.2 s). The record
    lets the command stop at its next check (``raise_if_interrupted``)."""
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        signal.signal(signal.SIGINT, _record_and_raise)


def _record_and_raise(signum, frame) -> None:
    global _received
    _received = True
    raise KeyboardInterrupt


def raise_if_interrupted() -> None:
    """Raise KeyboardInterrupt if a Ctrl-C was recorded (its own raise may have been lost)."""
    if _received:
        raise KeyboardInterrupt


def interrupted() -> bool:
    """Whether a Ctrl-C was recorded (``record_interrupts``)."""
    return _received


def _python_handler(handler) -> bool:
    """``handler`` is Python's own Ctrl-C handler, or the one that records it too."""
    return handler is signal.default_int_handler or handler is _record_and_raise


def quit_on_second_interrupt(farewell: str) -> None:
    """Let a second Ctrl-C during a compile end the process at once with status 130, after
    writing ``farewell`` (a line) to standard error. For the command line only; it does
    not import numba."""
    global _quit_now
    _quit_now = farewell.rstrip("\n").encode() + b"\n"


def install() -> None:
    """Listen to numba's compiler-lock events (once per process); called by ``solver.jit``."""
    global _installed
    if _installed:
        return
    from numba.core import event

    class CompileHold(event.Listener):
        """Holds SIGINT while the main thread holds the compiler lock."""

        def __init__(self) -> None:
            self.depth = 0              # nesting of the compiler lock in the main thread
            self.previous = None        # the handler replaced, while holding
            self.pending = False        # a Ctrl-C came during the hold

        def on_start(self, ev) -> None:
            if threading.current_thread() is not threading.main_thread():
                return
            self.depth += 1
            if self.depth == 1 and _python_handler(signal.getsignal(signal.SIGINT)):
                self.previous = signal.signal(signal.SIGINT, self.note)

        def on_end(self, ev) -> None:
            if threading.current_thread() is not threading.main_thread() or self.depth == 0:
                return
            self.depth -= 1
            if self.depth or self.previous is None:
                return
            signal.signal(signal.SIGINT, self.previous)
            self.previous = None
            if self.pending:
                self.pending = False
                raise KeyboardInterrupt

        def note(self, signum, frame) -> None:
            if self.pending and _quit_now is not None:
                os.write(2, _quit_now)
                os._exit(EXIT_INTERRUPTED)
            if not self.pending:
                os.write(2, _NOTE)      # not sys.stderr: the handler may run inside a write to it
            self.pending = True
            global _received
            _received = self.previous is _record_and_raise or _received

    event.register("numba:compiler_lock", CompileHold())
    _installed = True
