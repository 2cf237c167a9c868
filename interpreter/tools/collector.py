"""Python's cyclic garbage collector, set for many games in a row (a run, a comparison, a sweep's chunk).

A game frees most of what it makes as soon as it is done with it (reference counting); what the collector does is
look again and again at what lives long: the content, and the heuristic player's plans and memos, which grow with
every game. With the collector's default thresholds that looking took about a tenth of a heuristic game's
instructions (docs/benchmarks.md). While :func:`many_games` is in force:

- what lives before the first game (the content loaded) is set aside (``gc.freeze``): the collector never walks it;
- the collector runs after 100,000 new objects rather than 700, and its older generations less often.

Cyclic garbage is still collected, later and in larger batches, so memory stays bounded. The games are the same:
nothing in a game depends on when the collector runs (tests/test_simulate.py plays the same games with and without).
On leaving, the thresholds are restored, and the objects set aside are put back unless somebody had set some aside
before. Nested and concurrent uses (threads of one process, as Dask's workers run tasks) share one setting: the
first in sets it, the last out restores it.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

#: The thresholds while games are played (generation 0's count of new objects; generations 1 and 2 in collections
#: of the one below).
THRESHOLDS = (100_000, 50, 100)

class _Setting:
    """How many blocks are in force, and what to restore when the last leaves."""

    def __init__(self) -> None:
        self.depth = 0
        self.thresholds: tuple[int, ...] = gc.get_threshold()
        self.froze = False


_LOCK = threading.Lock()
_SETTING = _Setting()


@contextmanager
def many_games() -> Iterator[None]:
    """The collector set for many games while in the ``with`` block (see the module's text)."""
    s = _SETTING
    with _LOCK:
        if s.depth == 0:
            s.thresholds = gc.get_threshold()
            s.froze = gc.get_freeze_count() == 0
            if s.froze:
                gc.freeze()
            gc.set_threshold(*THRESHOLDS)
        s.depth += 1
    try:
        yield
    finally:
        with _LOCK:
            s.depth -= 1
            if s.depth == 0:
                gc.set_threshold(*s.thresholds)
                if s.froze:
                    gc.unfreeze()
