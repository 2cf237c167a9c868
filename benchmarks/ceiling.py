"""The ceiling study (docs/simulation.md): per map and policy, the win rate, the Soldiers gained and lost per turn,
and where the losses happen (Combat, the Move phase's Landmines, other phases), no option.

    python benchmarks/ceiling.py [--games 200] [--heuristic-games 40] [--players 1] [--maps a,b] [--json ceiling.json]

Each map is played with --players, raised to the smallest number that can win it as listed (as
calibrate_skill.py does: Operation Deadstick's least is 2, and Gold Beach's two Bunkers need two Units without the
solitaire option).

Each map is played as listed and as each variant that prints its Sectors otherwise (the Rising DEF variants).

Soldiers are counted as the rules count them (Specialists included, Paratrooper 6). "Gained" is what the Unit's
count rose by over the game, losses added back; "lost" is what casualties took. Game i of a (map, policy) is
seeded as in ``dday simulate`` with seed 0, so any game can be replayed with ``dday simulate ... --game i``.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from calibrate_skill import least_players

from ddaydice.dsl.loader import Content, load
from ddaydice.interpreter.core.state import Unit
from ddaydice.interpreter.game import Game
from ddaydice.interpreter.policies.registry import make_policy
from ddaydice.interpreter.tools.simulate import game_seed

POLICIES = ("random", "reference", "heuristic")


class Counted(Game):
    """A Game that counts each Unit's losses by phase (what the casualty rules actually took)."""

    def __init__(self, *args: Any, **kw: Any) -> None:
        self.losses: Counter[str] = Counter()
        self.by_sector: Counter[str] = Counter()
        super().__init__(*args, **kw)

    def suffer(self, unit: Unit, amount: int, cause: str) -> int:
        before = self.soldier_count(unit) if unit.status != "dead" else 0
        short = super().suffer(unit, amount, cause)
        lost = before - (self.soldier_count(unit) if unit.status != "dead" else 0)
        if not unit.side and lost > 0:
            self.losses[self.state.phase] += lost
            self.by_sector[unit.sector] += lost
        return short


def play(content: Content, map_id: str, variant: str | None, policy: str, players: int, index: int) -> dict[str, Any]:
    seed = game_seed(0, index)
    deciders = [make_policy(policy, seed + k) for k in range(players)] + [make_policy(policy, seed + players)]
    game = Counted(content, map_id, players=players, seed=seed, variant=variant, deciders=deciders)
    start = sum(game.soldier_count(u) for u in game.state.units)
    game.run()
    losses, by_sector = game.losses, game.by_sector
    end = sum(game.soldier_count(u) for u in game.state.units if u.status != "dead")
    lost = sum(losses.values())
    return {"won": game.state.outcome == "won", "turns": game.state.turn, "start": start, "end": end,
            "gained": end - start + lost, "lost": lost, "losses": dict(losses), "by_sector": dict(by_sector)}


def study(content: Content, map_id: str, variant: str | None, policy: str, players: int, games: int
          ) -> dict[str, Any]:
    rows = [play(content, map_id, variant, policy, players, i) for i in range(games)]
    turns = sum(r["turns"] for r in rows)
    phases: Counter[str] = Counter()
    sectors: Counter[str] = Counter()
    for r in rows:
        phases.update(r["losses"])
        sectors.update(r["by_sector"])
    lost = sum(r["lost"] for r in rows) or 1
    return {
        "games": games, "win_rate": sum(r["won"] for r in rows) / games, "mean_turns": turns / games,
        "gained_per_turn": sum(r["gained"] for r in rows) / turns,
        "lost_per_turn": sum(r["lost"] for r in rows) / turns,
        "soldiers_at_end_won": _mean([r["end"] for r in rows if r["won"]]),
        "losses_by_phase": {k: round(v / lost, 3) for k, v in phases.most_common()},
        "worst_sectors": {k: round(v / games, 2) for k, v in sectors.most_common(4)},
    }


def _mean(xs: list[int]) -> float | None:
    return sum(xs) / len(xs) if xs else None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--heuristic-games", type=int, default=40)
    parser.add_argument("--players", type=int, default=1)
    parser.add_argument("--maps", default="", help="comma-separated map ids (default: every bundled map)")
    parser.add_argument("--json", dest="json_path")
    args = parser.parse_args()
    content, _ = load(packs=["atlantikwall"])
    assert content is not None
    out: dict[str, Any] = {}
    for map_id in sorted(content.maps):
        if args.maps and map_id not in args.maps.split(","):
            continue
        bm = content.maps[map_id]
        players = min(max(args.players, least_players(content, map_id)), max(bm.players))
        # The map as listed (on Exercise Tiger: Advanced Training's lists and rules, the full game) and each
        # variant that prints its Sectors otherwise (the labelled Rising DEF variants); not the trainings that
        # ignore part of the rules.
        variants: list[str | None] = [None, *(v.id for v in bm.variants if v.sectors)]
        for variant in variants:
            board = map_id + (f"/{variant}" if variant else "")
            for policy in POLICIES:
                n = args.heuristic_games if policy == "heuristic" else args.games
                res = study(content, map_id, variant, policy, players, n)
                res["provenance"], res["players"] = bm.provenance, players
                out[f"{board} {policy}"] = res
                print(f"{board:34} {policy:9} {bm.provenance:13} {players}p won {res['win_rate']:6.1%} turns "
                      f"{res['mean_turns']:5.1f} +{res['gained_per_turn']:.2f}/-{res['lost_per_turn']:.2f} per turn "
                      f"losses {res['losses_by_phase']}", file=sys.stderr)
    if args.json_path:
        Path(args.json_path).write_text(json.dumps(out, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
