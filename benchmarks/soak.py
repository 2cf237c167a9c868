"""The invariants' soak: many games across every map, variant, player count, option set and policy, each checked
after every phase against rules/invariants.yaml (kept out of the tests; tests/test_invariants.py plays a sample).

    python benchmarks/soak.py [--games 100000] [--jobs 2] [--seed 0] [--json soak.json]

The games are spread over the runs of :func:`all_specs` (heuristic runs get a fortieth of the games of the
others, at least one: the policy is the slowest); game i of a run is seeded from the run's seed and i, as in
``dday simulate``, so a violation is replayed with the command printed beside it. The report: games,
violations, time, and the win rate of each (map, policy).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from ddaydice.dsl.diagnostics import DDayError
from ddaydice.dsl.loader import Content, load
from ddaydice.dsl.schema import BattleMap, Variant
from ddaydice.interpreter.game import Game
from ddaydice.interpreter.policies.registry import make_policy
from ddaydice.interpreter.tools.simulate import GameRecord, Spec, play_one, replay_command

POLICIES = ("random", "reference", "heuristic")
AW = ("atlantikwall",)
# Option sets: each base optional rule, and each Atlantikwall module with its own options (the pack loaded).
OPTION_SETS: tuple[tuple[tuple[str, ...], tuple[str, ...]], ...] = (
    ((), ()),
    (("solitaire",), ()),
    (("bazooka-joe",), ()),
    (("bazooka-joe-2",), ()),
    (("blind-start", "well-equipped"), ()),
    (("quartermasters-whim",), ()),
    (("soldier-mulligan", "victory-points"), ()),
    (("wild-specialists",), ()),
    (("battle-conditions", "persistent-weather", "advanced-observation"), AW),
    (("badges", "badge-of-honour", "badge-of-courage", "badge-of-assistance"), AW),
    (("chaotic-resupply", "playing-with-fire", "atlantikwall-material"), AW),
    (("german-player", "german-blind-start"), AW),
    (("german-player", "battle-conditions", "badges", "playing-with-fire"), AW),
    (("solitaire-atlantikwall",), AW),
)

_CONTENT: dict[tuple[str, ...], Content] = {}


def content(packs: tuple[str, ...]) -> Content:
    if packs not in _CONTENT:
        loaded, diags = load(packs=list(packs))
        assert loaded is not None, diags
        _CONTENT[packs] = loaded
    return _CONTENT[packs]


def playable(spec: Spec) -> bool:
    try:
        Game(content(spec.packs), spec.map_id, players=spec.players, seed=0, variant=spec.variant,
             options=spec.options, deciders=make_policy("reference"))
    except DDayError:
        return False
    return True


def _boards() -> Iterator[tuple[str, str | None, tuple[int, ...]]]:
    """Every map and variant with the player counts to play (1, 2 and 4 where the map allows them)."""
    c = content(AW)
    for map_id in sorted(c.maps):
        bm = c.maps[map_id]
        low, high = bm.players
        counts = tuple(n for n in (1, 2, 4) if low <= n <= high) or (low,)
        # The map as listed, and each variant that plays otherwise (Exercise Tiger's Advanced Training plays
        # exactly as the map is listed: it is played once, as listed).
        variants: list[str | None] = [None, *(v.id for v in bm.variants if _plays_otherwise(bm, v))]
        for variant in variants:
            yield map_id, variant, counts


def _plays_otherwise(bm: BattleMap, v: Variant) -> bool:
    """Whether the variant changes anything of the map as listed: rules ignored, faces, Sectors, the lists."""
    lists = any(getattr(v, f) is not None and tuple(getattr(v, f)) != tuple(getattr(bm, f))
                for f in ("specialists", "items", "vehicles"))
    return bool(v.ignore or v.keep_faces or v.sectors or v.continue_after_loss or lists)


def all_specs(seed: int = 0) -> list[Spec]:
    """Every playable run: map x variant x players x option set x policy."""
    out: list[Spec] = []
    for map_id, variant, counts in _boards():
        packs_needed = AW if map_id not in content(()).maps else ()
        for players in counts:
            for options, packs in OPTION_SETS:
                for policy in POLICIES:
                    spec = Spec(map_id, variant, players, policy, seed, options, packs or packs_needed,
                                check_invariants=True)
                    if playable(spec):
                        out.append(spec)
    return out


def sample_specs() -> list[Spec]:
    """A small sample for the test suite: every map once, the option sets and policies in turn, 1 or 2 players."""
    out: list[Spec] = []
    k = 0
    for map_id, variant, counts in _boards():
        packs_needed = AW if map_id not in content(()).maps else ()
        for players in counts[:2]:
            for _ in range(len(OPTION_SETS)):
                options, packs = OPTION_SETS[k % len(OPTION_SETS)]
                k += 1
                spec = Spec(map_id, variant, players, POLICIES[k % len(POLICIES)], 0, options, packs or packs_needed,
                            check_invariants=True)
                if playable(spec):
                    out.append(spec)
                    break
    return out


def _play(task: tuple[Spec, int, int]) -> tuple[Spec, list[GameRecord]]:
    spec, start, stop = task
    c = content(spec.packs)
    return spec, [play_one(c, spec, i) for i in range(start, stop)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", dest="json_path", help="Write the figures to this file.")
    args = parser.parse_args()
    specs = all_specs(args.seed)
    weight = {"random": 40, "reference": 40, "heuristic": 1}
    unit = args.games / sum(weight[s.policy] for s in specs)
    tasks: list[tuple[Spec, int, int]] = []
    for s in specs:
        n = max(1, round(unit * weight[s.policy]))
        tasks += [(s, a, min(a + 50, n)) for a in range(0, n, 50)]
    total = sum(b - a for _, a, b in tasks)
    print(f"{len(specs)} runs, {total} games, {args.jobs} job(s)", file=sys.stderr)
    started = time.perf_counter()
    played = 0
    violations: list[tuple[Spec, GameRecord]] = []
    wins: dict[tuple[str, str], Counter[str]] = defaultdict(Counter)
    by_policy: Counter[str] = Counter()
    for spec, records in _results(tasks, args.jobs):
        played += len(records)
        by_policy[spec.policy] += len(records)
        board = spec.map_id + (f"/{spec.variant}" if spec.variant else "")
        for r in records:
            wins[(board, spec.policy)]["games"] += 1
            wins[(board, spec.policy)]["won"] += r.outcome == "won"
            if r.violations:
                violations.append((spec, r))
                print(f"game {r.index} (seed {r.seed}): {'; '.join(r.violations)}\n"
                      f"  replay: {replay_command(spec, r.index)}", file=sys.stderr)
        if played % 5000 < len(records):
            print(f"  {played} games, {len(violations)} with violations, {time.perf_counter() - started:.0f} s",
                  file=sys.stderr)
    seconds = time.perf_counter() - started
    report: dict[str, Any] = {
        "runs": len(specs), "games": played, "games_by_policy": dict(by_policy), "jobs": args.jobs,
        "seconds": round(seconds, 1), "games_with_violations": len(violations),
        "violations": sum(len(r.violations) for _, r in violations),
        "win_rate": {f"{b} {p}": round(c["won"] / c["games"], 3) for (b, p), c in sorted(wins.items())},
    }
    print(f"{played} games in {seconds:.0f} s ({args.jobs} job(s)): {report['violations']} violation(s) in "
          f"{len(violations)} game(s)")
    if args.json_path:
        Path(args.json_path).write_text(json.dumps(report, indent=1), encoding="utf-8")
    sys.exit(1 if violations else 0)


def _results(tasks: list[tuple[Spec, int, int]], jobs: int) -> Iterator[tuple[Spec, list[GameRecord]]]:
    if jobs <= 1:
        for t in tasks:
            yield _play(t)
        return
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        yield from pool.map(_play, tasks, chunksize=4)


if __name__ == "__main__":
    main()
