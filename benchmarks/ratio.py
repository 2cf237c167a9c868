"""The speed ratio hand-written simulator / engine, measured interleaved in one process (kept out of the tests).

    python benchmarks/ratio.py [--blocks B] [--games N]

The machine is shared and noisy, so absolute rates move by 15% or more between runs; what is compared is the
ratio within each block (N engine games of the Practice Run with the reference policy, then 2N games of the
hand-written simulator, on the same seeds' range), and the median over B blocks is reported with its quartiles.
The engine plays its one turn procedure (interpreter/phases/), the same whatever cards are in play.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))

import handwritten_practice_run  # noqa: E402

from ddaydice.dsl.loader import load  # noqa: E402
from ddaydice.interpreter.tools.simulate import Spec, run  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--blocks", type=int, default=20)
    parser.add_argument("--games", type=int, default=300)
    args = parser.parse_args()
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


if __name__ == "__main__":
    main()
