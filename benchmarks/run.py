"""The speed benchmark (kept out of the test run): games per second, validation and start-up time.

    python benchmarks/run.py [--games N] [--repeat R] [--json]

Figures are CPU time of one process, tracing off, medians over R repeats:
- Exercise Tiger Practice Run, 1 player, reference policy (the engine's yardstick),
- Exercise Tiger Advanced Training and Omaha Beach, 1 player, heuristic policy,
- the hand-written Practice Run simulator (benchmarks/handwritten_practice_run.py), for the ratio,
- `dday validate` on all bundled content, and `dday --help` (process start-up), as wall time.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))

import handwritten_practice_run  # noqa: E402

from ddaydice.dsl.loader import load  # noqa: E402
from ddaydice.interpreter.tools.simulate import Spec, run  # noqa: E402

CASES = [
    ("exercise-tiger", "practice-run", "reference"),
    ("exercise-tiger", "advanced-training", "heuristic"),
    ("omaha-beach", None, "heuristic"),
]


def games_per_s(map_id: str, variant: str | None, policy: str, games: int, repeat: int) -> float:
    content, _ = load()
    assert content is not None
    spec = Spec(map_id, variant, 1, policy, seed=1)
    rates = []
    for r in range(repeat):
        start = time.process_time()
        run(content, spec, games, first=r * games)  # (as dday simulate plays them)
        rates.append(games / (time.process_time() - start))
    return statistics.median(rates)


def handwritten(games: int, repeat: int) -> float:
    rates = []
    for r in range(repeat):
        start = time.process_time()
        for seed in range(r * games, (r + 1) * games):
            handwritten_practice_run.play(seed)
        rates.append(games / (time.process_time() - start))
    return statistics.median(rates)


def command_seconds(args: list[str], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run(args, check=True, capture_output=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    dday = str(Path(sys.executable).with_name("dday"))
    out: dict[str, float] = {}
    for map_id, variant, policy in CASES:
        name = f"{map_id}{'/' + variant if variant else ''} ({policy})"
        out[f"games_per_s {name}"] = games_per_s(map_id, variant, policy, args.games, args.repeat)
    out["games_per_s handwritten practice-run (reference)"] = handwritten(args.games * 5, args.repeat)
    out["validate_s (all bundled content)"] = command_seconds([dday, "validate"], args.repeat)
    out["help_s (dday --help)"] = command_seconds([dday, "--help"], args.repeat)
    if args.json:
        print(json.dumps(out, indent=2))
        return
    for key, value in out.items():
        print(f"{key:60s} {value:10.3f}")


if __name__ == "__main__":
    main()
