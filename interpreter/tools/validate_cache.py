"""A remembered ``dday validate``: the diagnostics and summary of a run, given again while nothing they depend on
has changed.

What a validation says depends only on the files it reads and on the engine that reads them. A run is remembered
under two prints:

- its *key* (:func:`fingerprint`), known before anything is loaded: a walk of the content tree (``--root``, or
  the bundled one) and of the PATHs given (a file's: the pack folder it lies in): every entry's relative path,
  kind, and, for a file, its size and a hash of its bytes (a stranger's pack can set its files' times, not their
  hashes; a link: its target, size and time), with the engine's own source files (``dsl/``, ``interpreter/``:
  their size and time), the Python and library versions, the working folder (paths are shown relative to it) and
  the run's options;
- the print of *what the load looked at* (:func:`reads_fingerprint`): the loader records every path it resolves,
  lists or reads (``dsl/sandbox.py``, ``recording``), the packs it reached through ``requires:`` and ``--pack
  PATH`` included, and the entry keeps that list; each path's kind, real path, and a file's bytes or a folder's
  names. The load is a function of what it looked at, so while none of it changed it would say the same again.

A run whose key was seen before, and whose recorded paths are unchanged, prints what that run printed, without
importing the loader; any change to a file read, a new or removed file in a folder read, another option or
another version of the engine is a full validation.

Entries live in ``$XDG_CACHE_HOME/ddaydice/validate/`` (``~/.cache`` by default), one small JSON file each,
written atomically; at most :data:`MAX_ENTRIES` are kept (the oldest go). A tree of more than
:data:`MAX_WALK` entries is not fingerprinted (it is validated afresh every time). ``dday validate --no-cache``
neither reads nor writes entries. This module imports only the standard library (and dsl/limits.py,
dsl/places.py), so that a remembered run is fast.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import stat
import sys
import tempfile
from collections.abc import Iterable
from importlib import metadata
from pathlib import Path
from typing import Any

from ddaydice.dsl.limits import MAX_FILE_BYTES
from ddaydice.dsl.places import bundled_root, home_pack

CACHE_VERSION = 2  # 2: an entry holds the paths its load looked at, and their print
MAX_ENTRIES = 32  # entries kept; the least recently written go first
MAX_WALK = 20_000  # entries walked per run; beyond, the run is not remembered
MAX_ENTRY_BYTES = 4_000_000  # an entry larger than this is not written (and not read)
LIBRARIES = ("lark", "ruamel.yaml", "PyYAML", "cattrs", "attrs", "click")
SKIPPED = frozenset({"__pycache__", ".mypy_cache", ".ruff_cache", ".pytest_cache", ".git", ".hypothesis"})


def folder() -> Path:
    """Where entries are kept (beside the effect parser's tables)."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "ddaydice" / "validate"


class _TooMany(Exception):
    """The walk passed :data:`MAX_WALK` entries."""


class _Walk:
    """Fingerprints of trees: each entry's place, kind, size, time and, for a link, its target."""

    def __init__(self) -> None:
        self.hash = hashlib.blake2b(digest_size=20)
        self.count = 0
        self.contents = False  # whether files' bytes are hashed too (content), or only their stat (the engine)

    def entry(self, path: str, shown: str) -> None:
        self.count += 1
        if self.count > MAX_WALK:
            raise _TooMany
        try:
            info = os.lstat(path)
        except OSError:
            self.hash.update(f"{shown}\0missing\n".encode())
            return
        record = f"{shown}\0{stat.S_IFMT(info.st_mode)}\0{info.st_size}\0{info.st_mtime_ns}"
        if self.contents and stat.S_ISDIR(info.st_mode):
            record = f"{shown}\0{stat.S_IFMT(info.st_mode)}"  # its entries are walked
        elif self.contents and stat.S_ISREG(info.st_mode) and info.st_size <= MAX_FILE_BYTES:
            # content may come from strangers, who can set a file's time: its bytes are the print, not its time
            # (a change undone is the run before it again)
            with contextlib.suppress(OSError):
                digest = hashlib.blake2b(Path(path).read_bytes(), digest_size=16).hexdigest()
                record = f"{shown}\0{stat.S_IFMT(info.st_mode)}\0{info.st_size}\0{digest}"
        if stat.S_ISLNK(info.st_mode):
            with contextlib.suppress(OSError):
                link = Path(path)
                target = link.stat()
                record += f"\0{link.readlink()}\0{target.st_size}\0{target.st_mtime_ns}"
        self.hash.update((record + "\n").encode("utf-8", "surrogateescape"))

    def looked_at(self, path: str) -> None:
        """A path a load looked at: its kind, where it leads (links followed), and a file's bytes (by
        :meth:`entry`) or a folder's names."""
        self.entry(path, path)
        self.hash.update(f"\0{os.path.realpath(path)}".encode("utf-8", "surrogateescape"))
        if os.path.isdir(path):  # noqa: PTH112  (a string path)
            names: list[str] = []
            with contextlib.suppress(OSError), os.scandir(path) as found:
                for item in found:
                    names.append(item.name)
                    if len(names) > MAX_WALK:
                        raise _TooMany
            self.count += len(names)
            if self.count > MAX_WALK:
                raise _TooMany
            self.hash.update(("\0" + "\0".join(sorted(names)) + "\n").encode("utf-8", "surrogateescape"))

    def tree(self, top: Path, *, follow_top: bool = True, suffixes: tuple[str, ...] = ()) -> None:
        """``top`` and everything below it (the top itself followed if it is a link; no link below it is, as the
        loader follows none); with ``suffixes``, only files of those endings."""
        begin = top.resolve() if follow_top else top
        self.entry(str(top), str(top))
        if not begin.is_dir():
            return
        start = str(begin)
        for here, dirs, files in os.walk(start, followlinks=False):
            dirs[:] = sorted(d for d in dirs if d not in SKIPPED)
            for name in dirs + sorted(files):
                if suffixes and name in files and not name.endswith(suffixes):
                    continue
                path = os.path.join(here, name)  # noqa: PTH118  (os.walk gives strings)
                self.entry(path, os.path.relpath(path, start))


def fingerprint(root: Path | None, paths: Iterable[Path], options: dict[str, Any]) -> str | None:
    """The fingerprint of a validation run (None: too large a tree to remember)."""
    walk = _Walk()
    walk.hash.update(json.dumps({"version": CACHE_VERSION, "python": sys.version, "cwd": str(Path.cwd()),
                                 "root": str(root.resolve()) if root else None, "options": options,
                                 "libraries": [_version(name) for name in LIBRARIES]},
                                sort_keys=True, default=str).encode())
    engine = bundled_root()
    try:
        for part in ("dsl", "interpreter"):
            walk.tree(engine / part, suffixes=(".py", ".lark"))
        walk.contents = True
        tops = sorted(engine.iterdir()) if root is None else [root]
        for top in tops:
            if root is None and top.name in {"dsl", "interpreter"} | SKIPPED:
                continue
            walk.tree(top)
        for path in paths:
            home = home_pack(path) if not path.is_dir() else None
            walk.hash.update(f"{path}\0{home}\n".encode("utf-8", "surrogateescape"))  # (a pack.yaml made above)
            walk.tree(home if home is not None else path)
    except _TooMany:
        return None
    return walk.hash.hexdigest()


def reads_fingerprint(reads: Iterable[str]) -> str | None:
    """The print of the paths a load looked at (``dsl/sandbox.py``'s ``recording``), as they are now: each one's
    kind, size and real path, a file's bytes and a folder's names. None: too many to print."""
    walk = _Walk()
    walk.contents = True
    try:
        for path in sorted(reads):
            walk.looked_at(path)
    except _TooMany:
        return None
    return walk.hash.hexdigest()


def _version(name: str) -> str:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return "-"


def recall(key: str) -> dict[str, Any] | None:
    """The remembered run of this fingerprint, or None (never seen, unreadable, or of another format)."""
    path = folder() / f"{key}.json"
    try:
        if path.stat().st_size > MAX_ENTRY_BYTES:
            return None
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("version") != CACHE_VERSION:
        return None
    reads = data.get("reads")
    if not isinstance(reads, list) or not all(isinstance(r, str) for r in reads):
        return None
    printed = data.get("reads_print")
    if printed is None or reads_fingerprint(reads) != printed:
        return None  # a file the load read (a required pack's, a --pack folder's) has changed since
    return data


def remember(key: str, run: dict[str, Any]) -> None:
    """Keep a run under its fingerprint (atomically; a cache that cannot be written is left alone), with the print
    of the paths its load looked at (``run["reads"]``): a run without them, or with too many, is not kept."""
    reads = run.get("reads")
    printed = reads_fingerprint(reads) if isinstance(reads, list) else None
    if printed is None:
        return
    text = json.dumps({"version": CACHE_VERSION, **run, "reads_print": printed}, ensure_ascii=False)
    if len(text.encode()) > MAX_ENTRY_BYTES:
        return
    where = folder()
    with contextlib.suppress(OSError):
        where.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=where, prefix=".entry-", suffix=".tmp")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                fh.write(text)
            Path(tmp).replace(where / f"{key}.json")
        finally:
            with contextlib.suppress(OSError):
                Path(tmp).unlink()
        _prune(where)


def _prune(where: Path) -> None:
    entries = sorted(where.glob("*.json"), key=lambda p: p.stat().st_mtime_ns)
    for old in entries[:-MAX_ENTRIES]:
        with contextlib.suppress(OSError):
            old.unlink()
