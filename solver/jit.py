"""Numba settings shared by the kernels: one on-disk cache per version of the kernel sources.

Numba's cache does not notice edits to other modules a cached function calls (a kernel
calling ``solver.state.push``, the search calling a family kernel), so a stale cache could
run old code. Every kernel module imports this module first; it points numba's cache at a
folder named after a hash of all kernel sources (the search core's and every registered
family's, ``solver.kernels.kernel_sources``), so any edit starts a fresh cache. A user's
own ``NUMBA_CACHE_DIR`` is respected.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import numba

from solver.kernels import kernel_sources

_PKG = Path(__file__).resolve().parent
KERNEL_SOURCES = kernel_sources()


def _source_hash() -> str:
    h = hashlib.sha256()
    for name in KERNEL_SOURCES:
        h.update((_PKG / name).read_bytes())
    return h.hexdigest()[:16]


def cache_dir() -> Path:
    base = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "patience-solver"
    return base / f"numba-{_source_hash()}"


if not os.environ.get("NUMBA_CACHE_DIR"):
    numba.config.CACHE_DIR = str(cache_dir())
