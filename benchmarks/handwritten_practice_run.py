"""A hand-written simulator of Exercise Tiger's Practice Run with the reference policy.

It knows nothing of the engine: the map, the dice and the policy are written
out by hand. It is the yardstick the engine's speed is compared with in
docs/benchmarks.md (the engine, running every rule through its data and
effects, should reach at least half of this speed).

    python benchmarks/handwritten_practice_run.py [GAMES]
"""

from __future__ import annotations

import random
import sys
import time

# Exercise Tiger (printed board): DEF, black shield, forward and lateral neighbours.
DEF = {1: 2, 2: 4, 3: 4, 4: 6, 5: 3, 6: 6, 7: 8, 8: 8, 9: 10, 10: 10, 11: 12}
BLACK = {4, 6}
ADV = {1: [(2, 1), (3, 1)], 2: [(4, 2), (5, 2)], 3: [(5, 2), (6, 2)], 4: [(7, 2)], 5: [(7, 2), (8, 2)],
       6: [(8, 2)], 7: [(9, 3)], 8: [(10, 3)], 9: [(11, 4)], 10: [(11, 4)], 11: []}
LAT = {1: [], 2: [3], 3: [2], 4: [5], 5: [4, 6], 6: [5], 7: [8], 8: [7], 9: [10], 10: [9], 11: []}
NEED = {11: 0}
for s in (10, 9, 8, 7, 6, 5, 4, 3, 2, 1):
    NEED[s] = min(c + NEED[t] for t, c in ADV[s])
# Faces: 0 skull, 1 star, 2 one soldier, 3 two soldiers, 4 courage, 5 tool.
LOCK_RANK = {3: 0, 4: 1, 2: 2, 5: 3, 1: 4, 0: 5}


def play(seed: int) -> tuple[bool, int]:
    rng = random.Random(seed)
    soldiers, courage, sector, chevrons, visited = 4, 0, 1, 1, {1}
    for turn in range(1, 61):
        dice = [int(rng.random() * 6) for _ in range(6)]
        order = sorted(range(6), key=lambda i: (LOCK_RANK[dice[i]], i))
        locked = set(order[:2])
        for _ in range(2):
            for i in range(6):
                if i not in locked and dice[i] not in (2, 3, 4):
                    dice[i] = int(rng.random() * 6)
        soldiers += sum(1 for f in dice if f == 2) + 2 * sum(1 for f in dice if f == 3)
        courage += sum(1 for f in dice if f == 4)
        # Upkeep: one more chevron; past three chevrons the Unit must move (a black shield: at once).
        if chevrons == 3:
            chevrons = 4
        elif chevrons < 3:
            chevrons += 1
        must = sector in BLACK or chevrons > 3
        moved = False
        advances = sorted((DEF[t], t, c) for t, c in ADV[sector] if t not in visited and c <= courage)
        laterals = sorted((DEF[t], t) for t in LAT[sector] if t not in visited)
        if advances and courage >= NEED[sector]:
            _, sector, c = advances[0]
            courage -= c
            moved = True
        elif must and laterals:
            _, sector = laterals[0]
            moved = True
        elif must and advances:
            _, sector, c = advances[0]
            courage -= c
            moved = True
        elif must:
            return False, turn
        if moved:
            visited.add(sector)
            chevrons = 1
        soldiers -= DEF[sector]
        if soldiers <= 0:
            return False, turn
        if sector == 11:
            return True, turn
    return False, 60


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 20000
    start = time.process_time()
    offset = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    results = [play(offset + seed) for seed in range(games)]
    wins = sum(won for won, _ in results)
    turns = sum(t for _, t in results) / games
    spent = time.process_time() - start
    print(f"{games} games, {wins / games:.1%} won, mean turns {turns:.2f}, "
          f"{games / spent:.0f} games/s (one core, CPU time)")


if __name__ == "__main__":
    main()
