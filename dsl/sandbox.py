"""A pack is a sandbox: what may be read, and how (docs/security.md).

Every content path is resolved (links followed) before it is read. A file or folder that resolves outside the
root it belongs to (the pack's folder; for a content tree, its rules/, cards/ or maps/ folder), a link loop and a
broken link are refused with a located diagnostic, and nothing of them is read. Inputs are read only from regular
files (never a device, a pipe or a folder), and at most up to their limit. Ids are slugs.

=========  ==========================================================================
PACK010    a file or folder resolves outside the pack (a link leading elsewhere)
PACK011    a link loop, a link to a folder that holds it, or a broken link
PACK012    ``requires:`` names a pack by a path, not by its id
PACK013    a pack named by a path in a scenario or a replay leads outside the current folder
PACK014    a folder holds more entries than the limit
LOAD005    a file larger than the limit
LOAD006    not a regular file (a device, a pipe, a folder)
=========  ==========================================================================

What a load looks at can be recorded (:func:`recording`): every path it resolves, lists or reads, so that a
remembered ``dday validate`` (interpreter/tools/validate_cache.py) is fingerprinted by what the loader actually
read, the packs it reached through ``requires:`` and ``--pack`` included.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import stat
import unicodedata
from collections.abc import Iterator
from contextvars import ContextVar
from pathlib import Path

from ddaydice.dsl.diagnostics import Diagnostic
from ddaydice.dsl.limits import MAX_FILE_BYTES, MAX_FOLDER_ENTRIES, MAX_ID_CHARS

SLUG = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")

class Looked:
    """What a block looked at (:func:`recording`): every path (absolute, links not followed) read, listed, resolved
    or probed, and, among them, the files read as content."""

    def __init__(self) -> None:
        self.paths: set[str] = set()
        self.content: set[str] = set()

    def add(self, other: Looked) -> None:
        self.paths |= other.paths
        self.content |= other.content


_LOOKED: ContextVar[Looked | None] = ContextVar("looked", default=None)


@contextlib.contextmanager
def recording() -> Iterator[Looked]:
    """The paths looked at while the block runs (:func:`looked_at`). What a load says depends only on what these
    paths hold."""
    looked = Looked()
    outer = _LOOKED.get()
    token = _LOOKED.set(looked)
    try:
        yield looked
    finally:
        _LOOKED.reset(token)
        if outer is not None:  # a recording inside another: the outer one saw these paths too
            outer.add(looked)


def looked_at(path: Path | str, *, content: bool = False) -> None:
    """Note that ``path`` is looked at (read, listed, resolved, or tested for existence; ``content``: read as a
    content file), while :func:`recording`."""
    looked = _LOOKED.get()
    if looked is not None:
        where = os.path.abspath(path)  # noqa: PTH100  (abspath does not follow links)
        looked.paths.add(where)
        if content:
            looked.content.add(where)


def is_slug(text: object) -> bool:
    """An id: lower-case letters and digits, in words joined by single '-' (``bangalore-torpedo``, ``s7``)."""
    return isinstance(text, str) and len(text) <= MAX_ID_CHARS and SLUG.fullmatch(text) is not None


def slug_problem(text: str) -> str:
    """Why ``text`` is not an id, in a few words."""
    if not text:
        return "an id cannot be empty"
    if len(text) > MAX_ID_CHARS:
        return f"an id has at most {MAX_ID_CHARS} characters"
    if "/" in text or "\\" in text or text.startswith("."):
        return "an id is not a path"
    if any(unicodedata.category(c) in {"Cc", "Cf", "Zl", "Zp"} for c in text):
        return "an id holds no control or direction characters"
    foreign = next((c for c in text if not c.isascii() and c.isalnum()), None)
    if foreign is not None:  # a letter that may look like one of a-z (a Cyrillic a, U+0430) and is not
        return (f"an id is lower-case letters a-z and digits, in words joined by '-': '{foreign}' "
                f"(U+{ord(foreign):04X} {unicodedata.name(foreign, 'a letter')}) is not one of them")
    return "an id is lower-case letters and digits, in words joined by '-'"


def slug_for(text: str) -> str | None:
    """The id ``text`` likely stands for, if it is none: ``Bad_Id`` for ``bad-id``, ``Café`` for ``cafe``, a path
    for the id of its last part (``../other``: ``other``). None when nothing of it makes an id."""
    last = re.split(r"[/\\]", text.rstrip("/\\"))[-1]
    letters = "".join(c for c in unicodedata.normalize("NFKD", last) if not unicodedata.combining(c))
    if any(not c.isascii() and c.isalnum() for c in letters):
        return None  # a letter of another alphabet (a Cyrillic a): no id is made by dropping it
    plain = unicodedata.normalize("NFKD", last).encode("ascii", "ignore").decode("ascii")
    slug = re.sub(r"[^a-z0-9]+", "-", plain.lower()).strip("-")
    return slug if slug != text and is_slug(slug) else None


def slug_hint(text: str) -> str | None:
    """"did you mean 'bad-id'?" for a text that is no id (:func:`slug_for`), or None."""
    slug = slug_for(text)
    return f"did you mean '{slug}'?" if slug else None


def shown_path(path: Path) -> str:
    """A path as a diagnostic names it, without following links (a refused link is named, never its target)."""
    absolute = os.path.abspath(path)  # noqa: PTH100  (abspath does not follow links; Path.absolute keeps '..')
    try:
        rel = os.path.relpath(absolute)
    except ValueError:
        return absolute
    return absolute if rel.startswith("..") else rel


def _real(path: Path) -> Path:
    return Path(os.path.realpath(path, strict=True))


def inside(path: Path, root: Path) -> tuple[Path | None, Diagnostic | None]:
    """``path`` resolved, if it exists and resolves inside ``root`` (resolved too); else why not.

    (None, None): the path does not exist (and is no link). A folder that is a link to a folder holding it
    (a loop for anything that walks the tree) is refused as well."""
    looked_at(path)
    try:
        real = _real(path)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return None, Diagnostic("PACK011", "a link loop: this link leads back to itself", shown_path(path), 1, 1,
                                    hint="remove the link; a pack holds its files, not links to them")
        if os.path.islink(path):  # noqa: PTH114
            return None, Diagnostic("PACK011", "a broken link: it leads to nothing", shown_path(path), 1, 1,
                                    hint="remove the link; a pack holds its files, not links to them")
        return None, None
    try:
        top = _real(root)
    except OSError:
        top = Path(os.path.abspath(root))  # noqa: PTH100
    if real != top and not real.is_relative_to(top):
        return None, Diagnostic("PACK010", "this link leads outside the pack: it is not read", shown_path(path),
                                1, 1, hint="a pack may read only files inside its own folder; copy the file in")
    if os.path.islink(path) and real.is_dir():  # noqa: PTH114
        holder = Path(os.path.realpath(path.parent))
        if holder == real or holder.is_relative_to(real):
            return None, Diagnostic("PACK011", "a link loop: this link leads to a folder that holds it",
                                    shown_path(path), 1, 1, hint="remove the link")
    return real, None


def listing(folder: Path) -> tuple[list[Path], Diagnostic | None]:
    """The entries of a folder, sorted by name; refused beyond :data:`MAX_FOLDER_ENTRIES`."""
    looked_at(folder)
    out: list[Path] = []
    try:
        with os.scandir(folder) as entries:
            for entry in entries:
                out.append(folder / entry.name)
                if len(out) > MAX_FOLDER_ENTRIES:
                    return [], Diagnostic("PACK014", f"the folder holds more than {MAX_FOLDER_ENTRIES} entries: "
                                          "it is not read", shown_path(folder), 1, 1,
                                          hint=f"a content folder holds at most {MAX_FOLDER_ENTRIES} entries")
    except OSError:
        return [], None
    return sorted(out), None


def read_text(path: Path, shown: str, limit: int = MAX_FILE_BYTES, *,
              too_large: str = "split it into several files") -> tuple[bytes | None, Diagnostic | None]:
    """The bytes of a regular file of at most ``limit`` bytes (``shown``: its name in a diagnostic; ``too_large``:
    the hint when it is larger).

    Returns the raw bytes (the caller decodes them, to locate a bad byte); never reads a device, a pipe or a
    folder, and never more than ``limit`` + 1 bytes."""
    looked_at(path)
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        with contextlib.suppress(OSError):  # a socket cannot be opened: say what it is, not the system's words
            if stat.S_ISSOCK(Path(path).stat().st_mode):
                return None, Diagnostic("LOAD006", "not a regular file (a socket): it is not read", shown, 1, 1,
                                        hint="give a file of text")
        return None, Diagnostic("YAML004", f"cannot read file: {exc.strerror}", shown, 1, 1,
                                hint="give a file of text that you may read")
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            what = "a folder" if stat.S_ISDIR(info.st_mode) else "a device, pipe or socket"
            return None, Diagnostic("LOAD006", f"not a regular file ({what}): it is not read", shown, 1, 1,
                                    hint="give a file of text")
        if info.st_size > limit:
            return None, Diagnostic("LOAD005", f"the file is too large ({info.st_size} bytes; at most {limit})",
                                    shown, 1, 1, hint=too_large)
        chunks: list[bytes] = []
        size = 0
        while size <= limit:
            chunk = os.read(fd, min(65536, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > limit:
            return None, Diagnostic("LOAD005", f"the file is too large (more than {limit} bytes)", shown, 1, 1,
                                    hint=too_large)
        return b"".join(chunks), None
    except OSError as exc:
        return None, Diagnostic("YAML004", f"cannot read file: {exc.strerror}", shown, 1, 1,
                                hint="give a file of text that you may read")
    finally:
        os.close(fd)
