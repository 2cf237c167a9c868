"""CPU time per turn with cards in play, against Basic Training, interleaved (kept out of the tests).

    python benchmarks/turn_cost.py [--blocks B] [--games N]

Exercise Tiger Basic Training (1 player, no card in play unless bought), Advanced Training (1 player) and Omaha
Beach (2 players), reference policy. Each block plays N games of every case on the same seeds' range and divides
each case's CPU time per turn by Basic Training's in that block; the medians over B blocks are reported with
their range, per turn and per Unit-turn (a turn of a 2-player game is two Units' turns: two rolls, two
purchases, two moves, two combats). A card in play slows only the queries it modifies and the events it hears.
"""

from __future__ import annotations

import argparse
import statistics
import time

from ddaydice.dsl.loader import load
from ddaydice.interpreter.tools.simulate import Spec, run

CASES = [("exercise-tiger", "basic-training", 1), ("exercise-tiger", "advanced-training", 1),
         ("omaha-beach", None, 2)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--blocks", type=int, default=7)
    parser.add_argument("--games", type=int, default=200)
    args = parser.parse_args()
    content, _ = load()
    assert content is not None
    specs = [Spec(map_id, variant, players, "reference", seed=1) for map_id, variant, players in CASES]
    per_turn: list[list[float]] = [[] for _ in specs]
    ratios: list[list[float]] = [[] for _ in specs]
    unit_ratios: list[list[float]] = [[] for _ in specs]
    n = args.games
    for block in range(args.blocks):
        costs = []
        for spec in specs:
            start = time.process_time()
            records, _ = run(content, spec, n, first=block * n)  # (as dday simulate plays them)
            turns = sum(r.turns for r in records)
            costs.append((time.process_time() - start) / max(turns, 1))
        for k, cost in enumerate(costs):
            per_turn[k].append(cost)
            ratios[k].append(cost / costs[0])
            unit_ratios[k].append(cost / specs[k].players / (costs[0] / specs[0].players))
    for k, (map_id, variant, players) in enumerate(CASES):
        print(f"{map_id} {variant or ''} {players}p: {statistics.median(per_turn[k]) * 1e6:.0f} us/turn, "
              f"{statistics.median(ratios[k]):.2f}x Basic Training ({min(ratios[k]):.2f}-{max(ratios[k]):.2f}); "
              f"per Unit-turn {statistics.median(unit_ratios[k]):.2f}x ({min(unit_ratios[k]):.2f}-"
              f"{max(unit_ratios[k]):.2f}); {args.blocks} blocks of {n} games")


if __name__ == "__main__":
    main()
