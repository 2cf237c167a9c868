"""Instructions and simulated cache misses per game, counted by valgrind's cachegrind (kept out of the tests).

A run of N games less a run of none, divided by N: what the games cost, loading and start-up left out. The counts do
not move with the machine's load, unlike CPU time, and unlike a count of instructions alone they show what the
instruction and data caches cost: each first-level miss is some ten cycles, so a program that runs more distinct
code (a compiled engine of some 60 modules) can be slower than its instructions say (docs/benchmarks.md, "a
profile-guided build").

Used by ``ratio.py --caches`` and ``heuristic_speed.py --caches``.
"""

from __future__ import annotations

import os
import re
import subprocess
import tempfile
from collections.abc import Callable, Mapping

#: The summary lines of cachegrind (``--cache-sim=yes``) read, and the names they are reported under.
EVENTS = {"I   refs": "instructions", "I1  misses": "I1 misses", "D1  misses": "D1 misses", "LL misses": "LL misses"}
_LINE = re.compile(r"^==\d+== (I   refs|I1  misses|D1  misses|LL misses):\s+([\d,]+)", re.MULTILINE)


def counts(stderr: str, caches: bool = True) -> dict[str, int]:
    """The events of a cachegrind run's summary (its standard error): all of EVENTS, or the instructions alone
    (``caches`` False: a run without the cache simulation)."""
    found = {EVENTS[name]: int(value.replace(",", "")) for name, value in _LINE.findall(stderr)}
    missing = [name for name in (EVENTS.values() if caches else ("instructions",)) if name not in found]
    if missing:
        raise RuntimeError(f"cachegrind's summary lacks {', '.join(missing)}:\n{stderr[-2000:]}")
    return found


def per_game(argv: Callable[[int], list[str]], games: int, env: Mapping[str, str] | None = None,
             cwd: str = "/", caches: bool = True) -> tuple[dict[str, float], str]:
    """Each event per game: the command ``argv(games)`` less ``argv(0)``, both under cachegrind, divided by
    ``games``; and the standard output of the run of ``games``. ``caches`` False: the instructions alone, without
    the cache simulation (faster)."""
    if games < 1:
        raise ValueError("games must be at least 1")
    runs: list[dict[str, int]] = []
    stdout = ""
    env = dict(env if env is not None else os.environ)
    env.setdefault("PYTHONHASHSEED", "0")  # (the same hashes, so the same dicts' layout, in both runs)
    with tempfile.TemporaryDirectory() as tmp:
        for n in (0, games):
            out = subprocess.run(["valgrind", "--tool=cachegrind", f"--cache-sim={'yes' if caches else 'no'}",
                                  f"--cachegrind-out-file={tmp}/cg.{n}", *argv(n)],
                                 env=env, check=True, capture_output=True,
                                 text=True, cwd=cwd)
            runs.append(counts(out.stderr, caches))
            stdout = out.stdout
    return {name: (runs[1][name] - runs[0][name]) / games for name in runs[0]}, stdout


def line(label: str, per: Mapping[str, float]) -> str:
    """One row of counts a game, as the benchmarks print them."""
    return (f"{label}: {per['instructions'] / 1e6:7.3f} M instructions, I1 misses {per['I1 misses'] / 1e3:8.1f}K, "
            f"D1 misses {per['D1 misses'] / 1e3:8.1f}K, LL misses {per['LL misses'] / 1e3:6.1f}K a game")
