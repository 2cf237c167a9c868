"""What the heuristic reads once per content (a card's profile, pressure and shape, a Sector's facts), kept with the
content it was read from.

A memo keyed by ``id(content)`` alone is wrong once that content is freed: CPython gives its id to a later object,
so a content loaded afterwards (a modder's pack edited and loaded again, another cell of a sweep with other packs)
would be served what was read from the earlier one, and a game would depend on what its process played before. Here
each content's memos sit in one ContentMemos, which holds the content itself (so its id is not reused while the
memos live) and is found by id and checked by identity. At most MAX_CONTENTS contents and TABLE_MAX entries a
table are kept (bounded in a long-lived process: a sweep's worker, a notebook)."""

from __future__ import annotations

from typing import Any, Final, TypeVar

from ddaydice.dsl.loader import Content

#: Contents whose memos are kept at once (past it, all are forgotten: the games of one content follow each other).
MAX_CONTENTS: Final = 16
#: Entries a table keeps (past it, the table is emptied and filled again).
TABLE_MAX: Final = 4096

K = TypeVar("K")
V = TypeVar("V")


class ContentMemos:
    """One content's memos, a table per reading (each keyed without the content)."""

    __slots__ = ("against", "content", "facts", "firsts", "generic", "offered", "pressure", "profiles", "shapes")

    def __init__(self, content: Content) -> None:
        self.content: Final = content
        #: effectworth.Profiles (typed loosely: that module is above this one)
        self.profiles: Any = None
        self.pressure: Final[dict[tuple[str, tuple[str, ...]], tuple[float, float, bool]]] = {}  # cardtext
        self.against: Final[dict[tuple[str, bool], tuple[float, float]]] = {}  # cardtext
        self.generic: Final[dict[str, str]] = {}  # cardtext
        self.shapes: Final[dict[str, Any]] = {}  # cardtext (UseShape)
        self.facts: Final[dict[tuple[Any, ...], Any]] = {}  # facts (Facts)
        #: facts (first_entry_sectors: by map, variant and options)
        self.firsts: Final[dict[tuple[str, str | None, tuple[str, ...]], tuple[tuple[str, ...], tuple[str, ...]]]] = {}
        self.offered: Final[dict[tuple[str, str | None, tuple[str, ...], str], bool]] = {}  # facts


def memos(content: Content) -> ContentMemos:
    """The memos of ``content`` (new ones for a content not met, or met under an id another content had)."""
    last = _LAST.memos
    if last is not None and last.content is content:
        return last
    found = _BY_ID.get(id(content))
    if found is None or found.content is not content:
        if len(_BY_ID) >= MAX_CONTENTS:
            _BY_ID.clear()
        found = _BY_ID[id(content)] = ContentMemos(content)
    _LAST.memos = found  # (read and replaced whole: a sweep may play games in threads)
    return found


def remember(table: dict[K, V], key: K, value: V) -> V:
    """Keep ``value`` under ``key`` in one of the tables (emptied first when full); return it."""
    if len(table) >= TABLE_MAX:
        table.clear()
    table[key] = value
    return value


class _Last:
    """The memos asked for last (one slot: the games of a run share their content)."""

    __slots__ = ("memos",)

    def __init__(self) -> None:
        self.memos: ContentMemos | None = None


_BY_ID: Final[dict[int, ContentMemos]] = {}
_LAST: Final = _Last()
