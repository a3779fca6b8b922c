"""The one progress display of the long commands (``batch``, ``report``, ``generate``, and
``solve``'s live line), drawn by tqdm on standard error: a live bar on a terminal; elsewhere
(a log, a pipe) a plain line in tqdm's format every ``every`` seconds and at the end, so that
a log holds no carriage returns."""

from __future__ import annotations

import sys
import time
from typing import Optional, TextIO

from tqdm import tqdm


class Progress:
    """Progress towards ``total`` things counted in ``unit``s (``total`` None: no end known)."""

    def __init__(self, total: Optional[int], unit: str, every: float = 10.0, stream: Optional[TextIO] = None,
                 leave: bool = True):
        self.total, self.unit, self.every = total, unit, every
        self.stream = stream or sys.stderr
        self.tty = hasattr(self.stream, "isatty") and self.stream.isatty()
        self.t0 = self.last = time.monotonic()
        self.bar = tqdm(total=total, unit=unit, file=self.stream, dynamic_ncols=True, leave=leave) if self.tty else None

    def update(self, done: int, postfix: str = "", force: bool = False) -> None:
        """``done`` things so far; ``postfix``: running counts shown after the rate."""
        if self.bar is not None:
            self.bar.n = done
            self.bar.set_postfix_str(postfix, refresh=False)
            self.bar.refresh()
            return
        now = time.monotonic()
        if force or now - self.last >= self.every:
            self.last = now
            self.stream.write(tqdm.format_meter(done, self.total, now - self.t0, unit=self.unit, postfix=postfix,
                                                ascii=True) + "\n")
            self.stream.flush()

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
