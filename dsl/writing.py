"""Files the project writes (a pack's new files, schemas, grammars, maps, plots, saved games, captured scenarios),
written in one way: through a temporary file in the same folder, then renamed over the target, so that a failed
save leaves the old file as it was and no temporary file behind. The file gets the mode a plain write would give
it: the old file's own, or a new file's under the umask (the temporary file is made private, 0600)."""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO


def write_atomically(path: Path, text: str) -> None:
    """Write ``text`` (UTF-8, lines ended by LF) to ``path`` atomically."""
    data = text.encode("utf-8")
    write_through(path, lambda fh: fh.write(data))


def write_through(path: Path, write: Callable[[BinaryIO], object]) -> None:
    """Write ``path`` atomically by ``write``, which is given the temporary file, open in binary mode (a plot's
    ``savefig``). Only a regular file is replaced (or a link to one: the link, as a rename does): anything else at
    ``path``, a folder or a device such as /dev/null (or a link to one), is an OSError, never renamed over (which
    would put a file in place of the device)."""
    _refuse_non_file(path)
    folder = path.parent if str(path.parent) else Path()
    mode = _mode_for(path)
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{path.name}.", suffix=".tmp")
    try:
        os.fchmod(fd, mode)
        with os.fdopen(fd, "wb") as fh:
            write(fh)
            fh.flush()
            os.fsync(fh.fileno())
        Path(tmp).replace(path)
    except BaseException:
        with contextlib.suppress(OSError):
            Path(tmp).unlink()
        raise


def _refuse_non_file(path: Path) -> None:
    """An OSError if something other than a regular file stands at ``path`` (links followed)."""
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        return
    except OSError:
        return  # (what cannot be looked at here, making the temporary file beside it tells)
    if stat.S_ISDIR(mode):
        raise IsADirectoryError(errno.EISDIR, "it is a folder", str(path))
    if not stat.S_ISREG(mode):
        raise OSError(errno.EINVAL, "it is not a regular file", str(path))


def _mode_for(path: Path) -> int:
    """The permissions ``open(path, 'w')`` would leave: an existing file's own, else 0666 less the umask."""
    try:
        return stat.S_IMODE(path.stat().st_mode)
    except OSError:
        mask = os.umask(0)  # read by setting it: a command runs one thread, so nothing writes in between
        os.umask(mask)
        return 0o666 & ~mask


def write_problem(path: Path, *, folder: bool = False) -> str | None:
    """Why ``path`` could not be written, or None: checked before the work whose result it is to hold (a game
    saved, a sweep's results, a plot, a command's output), so that nothing is done only to be lost. A file's folder
    must exist and take a new file, and the path must be no folder nor anything but a regular file; a folder
    (``folder``) is made with the parents it lacks, and no file may stand on its way."""
    if folder and path.exists() and not path.is_dir():
        return f"{path} is a file, not a folder"
    if not folder and path.is_dir():
        return f"{path} is a folder"
    if not folder and path.exists() and not path.is_file():
        return f"{path} is not a regular file"
    there = next((p for p in path.parents if p.exists() or p.is_symlink()), Path())  # the nearest that exists
    if not there.is_dir():
        return f"{there} is not a folder"
    if not folder and there != (path.parent if str(path.parent) else Path()):
        return f"the folder {path.parent} does not exist"
    if not os.access(there, os.W_OK | os.X_OK):
        return f"cannot write in {there} (no permission)"
    if not folder and path.exists() and not os.access(path, os.W_OK):
        return f"{path} cannot be overwritten (no permission)"
    return None
