"""The heuristic policy's speed (kept out of the tests): games per second, CPU time of one process.

    python benchmarks/heuristic_speed.py [--games N] [--warm W] [--repeat R] [--against SRC] [--cases at,omaha]
                                         [--instructions | --caches]

Cases: Exercise Tiger Advanced Training, 1 player, and Omaha Beach, 2 players, heuristic policy. Each repeat is
a fresh process (the policy's caches start empty, as in `dday simulate`) that loads the content, then plays N
games (seeds 0 .. N-1 of a Spec with seed 1) through ``simulate.run``, as `dday simulate` plays them (with its
setting of the garbage collector, tools/collector.py), and reports their CPU time (loading not counted). The
medians over R repeats are printed with their range.

``--warm W`` first plays W games of another run (seed 2), untimed, in the same process: the policy's planners and
memos, shared by the games of a process, are then warm, as they are through most of a long `dday simulate` run (a
fresh process's first games cost more: docs/benchmarks.md). The games timed, and their digest, are the same.

``--against SRC`` also times another source tree (``SRC`` put first on PYTHONPATH, e.g. a checkout's ``src``),
alternately with this one in the same run, so that a machine's load falls on both alike; the ratio of the
medians is printed. The games themselves are compared too: both trees must play the same games.

``--instructions`` counts instructions instead of timing (valgrind's cachegrind without its cache simulation, one run
of N games less one of none, per game): steady where CPU time on a shared machine is not, and blind to the cache and
the branch predictor.
``--caches`` counts instructions and the simulated caches' misses (cachegrind, cachesim.py), the same way.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import cachesim  # (beside this file: benchmarks/ is not a package)

CASES = {
    "at": ("exercise-tiger", "advanced-training", 1),
    "omaha": ("omaha-beach", None, 2),
}


def child(case: str, games: int, warm: int = 0) -> None:
    """Play the games (in this process, after ``warm`` untimed games of another run) and print their CPU time and a
    digest of their records as JSON."""
    from ddaydice.dsl.loader import load
    from ddaydice.interpreter.tools.simulate import Spec, run

    content, _ = load()
    assert content is not None
    map_id, variant, players = CASES[case]
    spec = Spec(map_id, variant, players, "heuristic", seed=1)
    if warm:
        run(content, Spec(map_id, variant, players, "heuristic", seed=2), warm)
    start = time.process_time()
    records, _ = run(content, spec, games)  # (as dday simulate plays them)
    seconds = time.process_time() - start
    digest = hashlib.sha256("\n".join(map(record_text, records)).encode()).hexdigest()[:16]
    print(json.dumps({"seconds": seconds, "digest": digest}))


#: The fields of a game's record that the digest reads: those of the record's first form (its repr then), so that a
#: digest compares with the earlier trees' and with the digests in docs/benchmarks.md. A field added since (``uses``,
#: the uses played) is left out: it follows from the games, which these fields already tell apart.
DIGEST_FIELDS = ("index", "outcome", "turns", "reason", "dead_at", "lost_by_sector", "specialists", "items_used",
                 "score", "unit_scores", "soldiers_left", "specialists_left", "vp", "violations", "seed")


def record_text(record: object) -> str:
    """A record as its repr read when it had DIGEST_FIELDS alone."""
    fields = ", ".join(f"{name}={getattr(record, name)!r}" for name in DIGEST_FIELDS)
    return f"{type(record).__qualname__}({fields})"


def child_env(src: str | None) -> dict[str, str]:
    """The environment of a child that imports ``src`` (a source tree's package folder), or this tree's package."""
    env = dict(os.environ)
    if src is not None:
        env["PYTHONPATH"] = src + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    return env


def child_argv(case: str, games: int, warm: int) -> list[str]:
    """The command of a child that plays ``games`` games of ``case`` after ``warm`` untimed ones."""
    return [sys.executable, __file__, "--child", case, "--games", str(games), "--warm", str(warm)]


def run(src: str | None, case: str, games: int, warm: int = 0) -> tuple[float, str]:
    """Games per second of one fresh process (``src``: the source tree to import, None for this one)."""
    env = child_env(src)
    out = subprocess.run(child_argv(case, games, warm), env=env, check=True,
                         capture_output=True, text=True, cwd="/")
    data = json.loads(out.stdout.strip().splitlines()[-1])
    return games / data["seconds"], data["digest"]


def instructions(src: str | None, case: str, games: int, warm: int = 0) -> tuple[float, str]:
    """Instructions per game under valgrind (a run of ``games`` less a run of none, both after ``warm`` untimed
    games), and the games' digest."""
    per, digest = cache_counts(src, case, games, caches=False, warm=warm)
    return per["instructions"], digest


def cache_counts(src: str | None, case: str, games: int, caches: bool = True,
                 warm: int = 0) -> tuple[dict[str, float], str]:
    """Instructions and cache misses per game under cachegrind (a run of ``games`` less a run of none, both after
    ``warm`` untimed games; ``caches`` False: the instructions alone), and the games' digest."""
    env = child_env(src)
    per, stdout = cachesim.per_game(lambda n: child_argv(case, n, warm), games, env, caches=caches)
    return per, json.loads(stdout.strip().splitlines()[-1])["digest"]


def package_root(parser: argparse.ArgumentParser, tree: str) -> str:
    """The folder to put on the path for ``tree``: the tree's ``src/`` (where the package lives) when given the tree's
    root. Without it the child would import this tree's installed package, and both "trees" would be this one."""
    found = [folder for folder in (Path(tree) / "src", Path(tree)) if (folder / "ddaydice" / "__init__.py").is_file()]
    if not found:
        parser.error(f"--against {tree}: no ddaydice package in it or in its src/ folder")
    return str(found[0].resolve())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--warm", type=int, default=0,
                        help="first play W untimed games of another run in the same process (warm planners)")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--against", default=None, help="another source tree to time alternately (its root or src/)")
    parser.add_argument("--cases", default="at,omaha")
    parser.add_argument("--instructions", action="store_true",
                        help="count instructions per game (cachegrind, no cache simulation)")
    parser.add_argument("--caches", action="store_true",
                        help="count instructions and cache misses per game (cachegrind)")
    parser.add_argument("--child", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child, args.games, args.warm)
        return
    if args.games < 1 or args.warm < 0:
        parser.error("--games must be at least 1 and --warm at least 0")
    length = f"{args.games} games" + (f" after {args.warm} warm" if args.warm else "")
    trees: list[tuple[str, str | None]] = [("this", None)]
    if args.against:
        trees.insert(0, ("against", package_root(parser, args.against)))
    if args.caches:
        for case in args.cases.split(","):
            measured = {name: cache_counts(src, case, args.games, warm=args.warm) for name, src in trees}
            for name, (per, digest) in measured.items():
                print(cachesim.line(f"{case:6s} {name:8s}", per) + f" ({length} less 0) games {digest}")
            if args.against:
                before, after = measured["against"][0], measured["this"][0]
                ratios = ", ".join(f"{k} {before[k] / after[k]:.2f}x" for k in ("instructions", "I1 misses",
                                                                                 "D1 misses") if after[k])
                same = measured["this"][1] == measured["against"][1]
                print(f"{case:6s} ratio    {ratios}   same games: {same}")
        return
    if args.instructions:
        for case in args.cases.split(","):
            counted = {name: instructions(src, case, args.games, args.warm) for name, src in trees}
            for name, (count, digest) in counted.items():
                print(f"{case:6s} {name:8s} {count / 1e6:8.2f} M instructions a game ({length} less 0) "
                      f"games {digest}")
            if args.against:
                ratio = counted["against"][0] / counted["this"][0]
                same = counted["this"][1] == counted["against"][1]
                print(f"{case:6s} ratio    {ratio:8.2f}x   same games: {same}")
        return
    for case in args.cases.split(","):
        rates: dict[str, list[float]] = {name: [] for name, _ in trees}
        digests: dict[str, set[str]] = {name: set() for name, _ in trees}
        for _ in range(args.repeat):
            for name, src in trees:
                rate, digest = run(src, case, args.games, args.warm)
                rates[name].append(rate)
                digests[name].add(digest)
        for name, _ in trees:
            r = rates[name]
            print(f"{case:6s} {name:8s} {statistics.median(r):8.1f} games/s (range {min(r):.1f} .. {max(r):.1f}, "
                  f"{args.repeat} x {length}) games {','.join(sorted(digests[name]))}")
        if args.against:
            ratio = statistics.median(rates["this"]) / statistics.median(rates["against"])
            same = digests["this"] == digests["against"]
            print(f"{case:6s} ratio    {ratio:8.2f}x   same games: {same}")


if __name__ == "__main__":
    main()
