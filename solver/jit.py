"""Numba settings shared by the kernels: one on-disk cache per version of the kernel sources.

Numba's cache does not notice edits to other modules a cached function calls (a kernel
calling ``solver.state.push``, the search calling a family kernel), so a stale cache could
run old code. Every kernel module imports this module first; it points numba's cache at a
folder named after a hash of all kernel sources (the search core's and every registered
family's, ``solver.kernels.kernel_sources``), so any edit starts a fresh cache. A user's
own ``NUMBA_CACHE_DIR`` is respected. Where that folder cannot be written (a read-only
home, a service account), the cache goes to a temporary folder, with a one-line note:
numba would otherwise fail on every cached function.
"""

from __future__ import annotations

import hashlib
import os
import stat
import sys
import tempfile
from pathlib import Path

import numba

from solver import interrupts
from solver.kernels import kernel_sources

interrupts.install()      # Ctrl-C while numba compiles: see solver.interrupts

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


def _writable(path: Path) -> bool:
    try:
        path.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=path):
            pass
        return True
    except OSError:
        return False


def _private(folder: Path) -> bool:
    """``folder`` is (or is now made, mode 0700) a real folder that this user owns and no
    one else can write to. Numba's index files are pickles: a cache folder another user can
    write to, or made by another user first, could make a later run execute their code."""
    try:
        folder.mkdir(mode=0o700, exist_ok=True)
        st = os.lstat(folder)
    except OSError:
        return False
    return stat.S_ISDIR(st.st_mode) and st.st_uid == os.getuid() and not st.st_mode & 0o022


def fallback_cache_dir(name: str) -> Path:
    """A cache folder in the temporary directory: ``patience-solver-<uid>/<name>`` when that
    folder is this user's alone, else a fresh private one (``mkdtemp``)."""
    mine = Path(tempfile.gettempdir()) / f"patience-solver-{os.getuid()}"
    if _private(mine) and _writable(mine / name):
        return mine / name
    return Path(tempfile.mkdtemp(prefix="patience-solver-numba-"))


def usable_cache_dir() -> Path:
    """``cache_dir()``, or a private folder in the temporary directory when that cannot be
    written (``fallback_cache_dir``), with a note."""
    want = cache_dir()
    if _writable(want):
        return want
    fallback = fallback_cache_dir(want.name)
    print(f"note: {want.parent} is not writable; numba's cache is in {fallback}", file=sys.stderr)
    return fallback


_given = os.environ.get("NUMBA_CACHE_DIR")
if not _given:
    numba.config.CACHE_DIR = str(usable_cache_dir())
elif not _writable(Path(_given)):
    # Numba would compile every kernel anew on every run (about a minute), saying nothing.
    numba.config.CACHE_DIR = str(fallback_cache_dir(cache_dir().name))
    print(f"note: NUMBA_CACHE_DIR={_given} cannot be written; numba's cache is in {numba.config.CACHE_DIR}",
          file=sys.stderr)
