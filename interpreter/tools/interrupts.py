"""A Ctrl-C while games are played, taken between two games, never inside one.

Python raises the KeyboardInterrupt of a Ctrl-C wherever its handler happens to run, and in a compiled engine
(``scripts/compile``) that may be inside an operation mypyc's C code assumes cannot fail but for want of memory:
CPython's multiplication of large integers checks for signals, so a Ctrl-C arriving during one in a compiled
module (the heuristic's memo keys, ``id(...) * 8``) made it fail there, and mypyc's code ended the process with
``fatal: out of memory`` and SIGABRT instead of ``Aborted!``.

While :func:`between_games` is in force, a SIGINT only notes that it came; :func:`check`, which
``tools/simulate.py``'s ``play_one`` calls after each game, raises the KeyboardInterrupt there, in Python code, and
the command ends as on any Ctrl-C (click's ``Aborted!``). A game takes a fraction of a second, so the interrupt is
heard at once. The worker processes of a run (``--jobs``) defer it the same way (:func:`in_worker`, their
initializer): they are in the terminal's process group and get the Ctrl-C too. ``dday scenario run`` takes it after
each file, and ``dday play`` after each turn when every player is automatic (with a player at the prompt it is taken
at once, as he expects).

Only the main thread sets handlers, and a SIGINT that is ignored (a command started in the background) or handled
by somebody else is left as it is.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

_PENDING = [False]  # a SIGINT came while deferred (this process)


def _note(_signum: int, _frame: FrameType | None) -> None:
    _PENDING[0] = True


def _ours() -> bool:
    """Whether this thread may defer SIGINT: the main thread, with Python's own handler or ours in place."""
    return threading.current_thread() is threading.main_thread() and \
        signal.getsignal(signal.SIGINT) in (signal.default_int_handler, _note)


def check() -> None:
    """Raise the KeyboardInterrupt of a SIGINT that came while deferred (called between two games; again at the
    next game, so that a worker process plays none of the games it is still given)."""
    if _PENDING[0]:
        raise KeyboardInterrupt


@contextmanager
def between_games() -> Iterator[None]:
    """SIGINT deferred to the next :func:`check` (or the end of the block) while the block plays games."""
    if not _ours() or signal.getsignal(signal.SIGINT) is _note:  # (not ours, or deferred already: nested)
        yield
        return
    _PENDING[0] = False
    previous = signal.signal(signal.SIGINT, _note)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        # The interrupt is taken once: left set, every later game of the process (a notebook's next run, a sweep's
        # games in this process's threads) would be interrupted at its end.
        pending, _PENDING[0] = _PENDING[0], False
    if pending:
        raise KeyboardInterrupt


def in_worker() -> None:
    """A worker process's initializer (``--jobs``): SIGINT deferred for the process's life."""
    if _ours():
        _PENDING[0] = False
        signal.signal(signal.SIGINT, _note)
