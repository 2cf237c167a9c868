"""What loading content costs: CPU seconds to import the loader, to load every bundled pack, and a whole
``dday validate``, each in a fresh process, medians of ``--repeat`` runs; and the wall time of ``dday validate``
checking afresh (``--no-cache``) and remembered (the files unchanged since a run: interpreter/tools/validate_cache.py),
medians of ``--wall`` runs.

    python benchmarks/load_time.py [--repeat 5] [--wall 10] [--python OTHER/.venv/bin/python ...]

With ``--python``, each interpreter (another checkout's virtual environment) is measured interleaved with this one,
so that a before/after comparison shares the machine's load (docs/benchmarks.md, "Loading content").
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PROBE = """
import time
t0 = time.process_time()
from ddaydice.dsl.loader import load
t1 = time.process_time()
load(packs="all")
print(t1 - t0, time.process_time() - t1)
"""

VALIDATE = """
import resource, subprocess, sys
subprocess.run([sys.argv[1], "-m", "ddaydice.interpreter.cli", "validate"], capture_output=True, check=True)
r = resource.getrusage(resource.RUSAGE_CHILDREN)
print(r.ru_utime + r.ru_stime)
"""


def measure(python: str) -> tuple[float, float, float]:
    imp, load = map(float, subprocess.run([python, "-c", PROBE], capture_output=True, text=True, check=True,
                                          cwd="/").stdout.split())
    whole = float(subprocess.run([python, "-c", VALIDATE, python], capture_output=True, text=True, check=True,
                                 cwd="/").stdout)
    return imp, load, whole


def wall(python: str, *flags: str) -> float:
    """Wall seconds of one whole ``dday validate`` process (its own cache folder: the caller's, warmed first)."""
    started = time.perf_counter()
    done = subprocess.run([python, "-m", "ddaydice.interpreter.cli", "validate", *flags], capture_output=True,
                          check=False, cwd="/")
    if done.returncode == 2 and flags:  # an older checkout, without --no-cache: its every run checks afresh
        started = time.perf_counter()
        done = subprocess.run([python, "-m", "ddaydice.interpreter.cli", "validate"], capture_output=True,
                              check=False, cwd="/")
    done.check_returncode()
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--wall", type=int, default=10, help="Runs of the wall-time measure (0: none).")
    parser.add_argument("--python", action="append", default=[], help="Another interpreter to measure alongside.")
    args = parser.parse_args()
    pythons = [sys.executable, *args.python]
    runs: dict[str, list[tuple[float, float, float]]] = {p: [] for p in pythons}
    for _ in range(args.repeat):
        for p in pythons:
            runs[p].append(measure(p))
    for p in pythons:
        cols = list(zip(*runs[p], strict=True))
        imp, load, whole = (statistics.median(c) for c in cols)
        print(f"{Path(p).parent.parent.parent.name or p:24} import {imp:.3f} s  load all {load:.3f} s  "
              f"dday validate {whole:.3f} s  (CPU, median of {args.repeat})")
    if args.wall:
        with tempfile.TemporaryDirectory() as cache:
            os.environ["XDG_CACHE_HOME"] = cache  # the effect parser's tables and remembered runs, this run's own
            for p in pythons:
                wall(p)  # warm: the parser's tables, a remembered run, the bytecode
            afresh: dict[str, list[float]] = {p: [] for p in pythons}
            remembered: dict[str, list[float]] = {p: [] for p in pythons}
            for _ in range(args.wall):
                for p in pythons:
                    afresh[p].append(wall(p, "--no-cache"))
                    remembered[p].append(wall(p))
        for p in pythons:
            print(f"{Path(p).parent.parent.parent.name or p:24} dday validate --no-cache "
                  f"{statistics.median(afresh[p]):.3f} s  remembered {statistics.median(remembered[p]):.3f} s  "
                  f"(wall, median of {args.wall})")


if __name__ == "__main__":
    main()
