"""How the tool writes the user's files, in one place.

* A file the tool writes whole (``deal --out``, ``solve --out``, ``export --out``) is written
  to a temporary file beside it and renamed over it: a full disk or a kill leaves the old
  file as it was (or no file), never an empty or cut one.
* A file the tool promises never to overwrite (``generate``'s pack and solutions) is
  created new: it fails if anything is at the path, a dangling symbolic link included.
* A path the tool reads back, appends to or opens as a store must be a regular file (or
  nothing yet): a pipe, a device or a socket would block or read without end.
"""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path
from typing import IO

from solver.errors import OutputError


def replace_whole(path: str | Path, text: str | bytes) -> None:
    """Write ``text`` (or bytes) as the whole of ``path``: a temporary file in the same folder, flushed
    to disk, then renamed over ``path``. On any error the temporary file is removed and
    ``path`` is left as it was."""
    p = Path(path)
    if p.is_dir():
        raise OutputError(f"cannot write {p}: it is a folder")
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{p.name}.", suffix=".tmp", dir=p.absolute().parent)
    except OSError as e:
        raise OutputError(f"cannot write {p}: {e.strerror}") from None
    try:
        with (os.fdopen(fd, "wb") if isinstance(text, bytes) else os.fdopen(fd, "w", encoding="utf-8")) as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, 0o666 & ~_umask())
        os.replace(tmp, p)
    except OSError as e:
        _remove(tmp)
        raise OutputError(f"cannot write {p}: {e.strerror}") from None
    except BaseException:
        _remove(tmp)
        raise


def create_new(path: str | Path) -> IO[str]:
    """``path`` created new and open for writing text; an error if anything is there, a
    dangling symbolic link included (the link is never followed)."""
    p = Path(path)
    try:
        fd = os.open(p, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o666)
    except FileExistsError:
        raise OutputError(f"{p} exists (or is a link): remove it or give another name") from None
    except OSError as e:
        raise OutputError(f"cannot write {p}: {e.strerror}") from None
    return os.fdopen(fd, "w", encoding="utf-8")


def regular_or_absent(path: str | Path, what: str) -> None:
    """An error unless ``path`` is a regular file (links followed) or does not exist.
    ``what`` names the option, e.g. ``--db``."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return
    except OSError as e:
        raise OutputError(f"{what} {path}: {e.strerror}") from None
    if not stat.S_ISREG(mode):
        kind = "a folder" if stat.S_ISDIR(mode) else "not a regular file (a pipe, device or socket)"
        raise OutputError(f"{what} {path} is {kind}; give a file")


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _remove(tmp: str) -> None:
    try:
        os.unlink(tmp)
    except OSError:
        pass
