"""The speed ratio hand-written simulator / engine, measured interleaved in one process (kept out of the tests).

    python benchmarks/ratio.py [--blocks B] [--games N]
    python benchmarks/ratio.py --caches [--games N]

The machine is shared and noisy, so absolute rates move by 15% or more between runs; what is compared is the
ratio within each block (N engine games of the Practice Run with the reference policy, then 2N games of the
hand-written simulator, on the same seeds' range), and the median over B blocks is reported with its quartiles.
The engine plays its one turn procedure (interpreter/phases/), the same whatever cards are in play.

``--caches`` counts instead of timing, under valgrind's cachegrind (cachesim.py): instructions and simulated
first-level cache misses a game of each, N games less none, and their ratios. Steady on a loaded machine; the time
follows the instructions and the misses together.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))

import cachesim  # noqa: E402
import handwritten_practice_run  # noqa: E402

from ddaydice.dsl.loader import load  # noqa: E402
from ddaydice.interpreter.tools.simulate import Spec, run  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--blocks", type=int, default=20)
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--caches", action="store_true",
                        help="count instructions and cache misses a game of each (cachegrind) instead of timing")
    parser.add_argument("--child", choices=("engine", "hand"), default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child, args.games)
        return
    if args.caches:
        caches(args.games)
        return
    content, _ = load()
    assert content is not None
    spec = Spec("exercise-tiger", "practice-run", 1, "reference", seed=1)
    engine_rates: list[float] = []
    hand_rates: list[float] = []
    ratios: list[float] = []
    n = args.games
    for block in range(args.blocks):
        first = block * n
        start = time.process_time()
        run(content, spec, n, first=first)  # (as dday simulate plays them: tools/collector.py's setting)
        engine = n / (time.process_time() - start)
        start = time.process_time()
        for seed in range(2 * first, 2 * (first + n)):
            handwritten_practice_run.play(seed)
        hand = 2 * n / (time.process_time() - start)
        engine_rates.append(engine)
        hand_rates.append(hand)
        ratios.append(hand / engine)
    q1, _, q3 = statistics.quantiles(ratios, n=4)
    print(f"engine {statistics.median(engine_rates):.0f} games/s, hand-written {statistics.median(hand_rates):.0f} "
          f"games/s, ratio {statistics.median(ratios):.2f} (quartiles {q1:.2f}-{q3:.2f}, {args.blocks} blocks "
          f"of {n} engine games)")


def child(which: str, games: int) -> None:
    """Play ``games`` games of the engine (after loading the content), or of the hand-written simulator, in this
    process. (The hand-written one loads nothing: loading's own misses, which vary a little from run to run, would
    drown its few.)"""
    if which == "engine":
        content, _ = load()
        assert content is not None
        run(content, Spec("exercise-tiger", "practice-run", 1, "reference", seed=1), games)
    else:
        for seed in range(games):
            handwritten_practice_run.play(seed)


def caches(games: int) -> None:
    """Print instructions and cache misses a game of the engine and of the hand-written simulator, and the ratios."""
    found: dict[str, dict[str, float]] = {}
    for which in ("engine", "hand"):
        def argv(n: int, which: str = which) -> list[str]:
            return [sys.executable, __file__, "--child", which, "--games", str(n)]

        found[which], _ = cachesim.per_game(argv, games)
        print(cachesim.line(f"{which:6s}", found[which]), flush=True)
    ratios = ", ".join(f"{name} {found['engine'][name] / found['hand'][name]:.2f}x"
                       for name in ("instructions", "I1 misses", "D1 misses") if found["hand"][name])
    print(f"engine / hand-written: {ratios} ({games} games less none, each)")


if __name__ == "__main__":
    main()
