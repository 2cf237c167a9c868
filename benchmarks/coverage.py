"""Games per second with the fast turn and with the general turn alone, interleaved (kept out of the tests).

    python benchmarks/coverage.py [--blocks B] [--games N]

For Exercise Tiger Basic Training and Advanced Training (1 player) and Omaha Beach (2 players), reference policy:
each block plays N games with the fast turn (interpreter/fastturn.py), then the same N games with it switched off;
the medians over B blocks are reported with the median of the per-block speed-ups, and the share of turns the fast
turn played (the others: a card in play or a grant standing, the general turn).
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from typing import Any

from ddaydice.dsl.loader import load
from ddaydice.interpreter import fastturn
from ddaydice.interpreter.engine import Game
from ddaydice.interpreter.simulate import Spec, play_one

SPECS = [("exercise-tiger", "basic-training", 1), ("exercise-tiger", "advanced-training", 1),
         ("omaha-beach", None, 2)]


def share_of_fast_turns(content: Any, spec: Spec, games: int) -> float:
    original = Game.run_turn
    general = [0]

    def counted(self: Game) -> None:
        general[0] += 1
        original(self)

    Game.run_turn = counted  # type: ignore[method-assign]
    turns = 0
    try:
        for i in range(games):
            turns += play_one(content, spec, i).turns
    finally:
        Game.run_turn = original  # type: ignore[method-assign]
    return 1 - general[0] / max(turns, 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--blocks", type=int, default=7)
    parser.add_argument("--games", type=int, default=200)
    args = parser.parse_args()
    content, _ = load()
    assert content is not None
    fast_play: Callable[[Game, int], bool] = fastturn.play
    off: Callable[[Game, int], bool] = lambda game, max_turns: False  # noqa: E731
    for map_id, variant, players in SPECS:
        spec = Spec(map_id, variant, players, "reference", seed=1)
        fast_rates: list[float] = []
        general_rates: list[float] = []
        ratios: list[float] = []
        n = args.games
        for block in range(args.blocks):
            rates = []
            for play in (fast_play, off):
                fastturn.play = play  # type: ignore[assignment]
                start = time.process_time()
                for i in range(block * n, (block + 1) * n):
                    play_one(content, spec, i)
                rates.append(n / (time.process_time() - start))
            fastturn.play = fast_play  # type: ignore[assignment]
            fast_rates.append(rates[0])
            general_rates.append(rates[1])
            ratios.append(rates[0] / rates[1])
        share = share_of_fast_turns(content, spec, n)
        print(f"{map_id} {variant or ''} {players}p: fast {statistics.median(fast_rates):.0f} games/s, general "
              f"{statistics.median(general_rates):.0f} games/s, speed-up {statistics.median(ratios):.2f}x "
              f"({min(ratios):.2f}-{max(ratios):.2f}); {share:.0%} of turns on the fast turn")


if __name__ == "__main__":
    main()
