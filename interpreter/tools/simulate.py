"""Monte Carlo: many games of one map, with statistics.

Game ``i`` of a run is seeded from the run's seed and ``i`` alone (never from
the worker that plays it), so a run's results are identical whatever the
number of jobs. Workers load the content themselves and return small per-game
records; the parent aggregates them in index order.
"""

from __future__ import annotations

import hashlib
import math
import os
import random
import re
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NamedTuple

import attrs

from ddaydice.dsl.loader import Content, load
from ddaydice.interpreter.core.state import C_SEED
from ddaydice.interpreter.core.values import at_turn_limit
from ddaydice.interpreter.game import Game
from ddaydice.interpreter.mechanisms.options import score_summary
from ddaydice.interpreter.policies.registry import make_policy
from ddaydice.interpreter.tools import interrupts, measures, outcome
from ddaydice.interpreter.tools.collector import many_games
from ddaydice.interpreter.tools.forced import Forced, ForcedGame
from ddaydice.interpreter.tools.invariants import CheckedGame, Watch
from ddaydice.interpreter.tools.setups import unwinnable_setup


@attrs.frozen
class Spec:
    map_id: str
    variant: str | None
    players: int
    policy: str
    seed: int
    options: tuple[str, ...] = ()
    packs: tuple[str, ...] = ()
    side_policy: str | None = None  # the policy of another side's player (the German); None: ``policy``
    forced: tuple[Forced, ...] = ()  # cards given, put into the Pool or made absent at the start (tools/forced.py)
    check_invariants: bool = False  # rules/invariants.yaml checked after every phase (tools/invariants.py)


def unwinnable_spec(content: Content, spec: Spec) -> str | None:
    """Why no game of a run's set-up can be won (tools/setups.py ``unwinnable_setup``, its forced cards given), or
    None."""
    return unwinnable_setup(content, spec.map_id, players=spec.players, variant=spec.variant, options=spec.options,
                            forced=spec.forced)


def unwinnable_warnings(named: Sequence[tuple[str, Spec]], content_for: Callable[[tuple[str, ...]], Content | None],
                        what: str = "set-up") -> list[str]:
    """The warning of :func:`unwinnable_spec` for several set-ups (dday compare's and dday impact's set-ups, dday
    sweep's cells: ``what``), each text once with the set-ups it is about: ``"set-ups A, B: text"``."""
    found: dict[str, dict[str, None]] = {}
    for name, spec in named:
        content = content_for(spec.packs)
        text = unwinnable_spec(content, spec) if content is not None else None
        if text is not None:
            found.setdefault(text, {})[name] = None
    return [f"{what}{'s' if len(names) > 1 else ''} {', '.join(names)}: {text}" for text, names in found.items()]


class GameRecord(NamedTuple):
    """A game's outcome as a run keeps it (small: a run of a million games keeps a million). A named tuple rather
    than an attrs class: one is made per game, and attrs's frozen ``__init__`` (a Python call per field) cost a
    Practice Run game some 2% of its time; it is as immutable, compares and pickles alike."""

    index: int  # type: ignore[assignment]  # (the game's number: it hides tuple.index, which no record needs)
    outcome: str
    turns: int
    reason: str
    dead_at: tuple[str, ...]  # sectors where Units were wiped out
    lost_by_sector: tuple[tuple[str, int], ...]
    specialists: tuple[str, ...]  # recruited or joined during the game
    items_used: tuple[str, ...]
    score: int | None = None  # the options' score table (victory-points): the group's score
    unit_scores: tuple[int, ...] = ()
    # The measures at the end (tools/measures.py): what the Units hold, and the rulebook's Victory Points.
    soldiers_left: int = 0
    specialists_left: int = 0
    vp: int | None = None
    violations: tuple[str, ...] = ()  # the invariants broken (with --check-invariants)
    seed: int = 0  # the game's own seed
    #: The uses played, by owner (a card, a Sector, a rule: ``rule:buy-award``), summed over the game's players and
    #: sorted: ``dday impact`` tells from it whether a policy ever played the card it measures.
    uses: tuple[tuple[str, int], ...] = ()
    #: The Items and Vehicles found or gained during the game (used or not), as ``specialists`` are recruited:
    #: ``dday impact --to pool`` tells from it whether a Unit ever took the card it measures.
    found: tuple[str, ...] = ()


class _CheckedForcedGame(CheckedGame, ForcedGame):
    """A game with cards forced in or out whose every phase is checked (both tools' hooks, cooperatively)."""


def game_class(forced: bool, checked: bool) -> Callable[..., Game]:
    """The class of a game of a run: cards forced at the start (tools/forced.py), invariants checked after every
    phase (tools/invariants.py), both, or neither (the engine's Game itself)."""
    if forced and checked:
        return _CheckedForcedGame
    if forced:
        return ForcedGame
    return CheckedGame if checked else Game


def game_seed(run_seed: int, index: int) -> int:
    """The seed of game ``index`` of a run: a function of the run's seed and the index only.

    It is ``random.Random(f"ddaydice:{run_seed}:{index}").getrandbits(62)``, worked out without a new generator
    each time: one generator is reseeded with the integer that seeding from a string makes (the text and its
    SHA-512 digest, big-endian: random.Random.seed, version 2), directly (tests/test_simulate.py checks both)."""
    text = f"ddaydice:{run_seed}:{index}".encode()
    C_SEED(_SEEDER, int.from_bytes(text + hashlib.sha512(text).digest(), "big"))
    return _SEEDER.getrandbits(62)


_SEEDER = random.Random()


def game_of(content: Content, spec: Spec, index: int) -> tuple[Game, Watch | None]:
    """Game ``index`` of a run, set up and not yet played, and the watch of its invariants (if they are checked)."""
    seed = game_seed(spec.seed, index)
    # One decider per Unit, and one for another side's player (the German), who comes after the Units.
    deciders = [make_policy(spec.policy, seed + k) for k in range(spec.players)]
    deciders.append(make_policy(spec.side_policy or spec.policy, seed + spec.players))
    watch = Watch() if spec.check_invariants else None
    kw: dict[str, Any] = {"players": spec.players, "seed": seed, "variant": spec.variant, "options": spec.options,
                          "deciders": deciders}
    if spec.forced:
        kw["forced"] = spec.forced
    if watch is not None:
        kw["watch"] = watch
    return game_class(bool(spec.forced), watch is not None)(content, spec.map_id, **kw), watch


def play_one(content: Content, spec: Spec, index: int) -> GameRecord:
    game, watch = game_of(content, spec, index)
    seed = game.state.seed
    start = outcome.start_cards(game)
    game.run()
    interrupts.check()  # a Ctrl-C during the game is raised here, between two games (tools/interrupts.py)
    (result, turns, reason, dead_at, lost, specialists, items, group, unit_scores, soldiers, specs_left, vp,
     uses, found) = outcome.read(game, start)
    return GameRecord(index, result, turns, reason, dead_at, lost, specialists, items, group, unit_scores, soldiers,
                      specs_left, vp, tuple(v.text() for v in watch.violations) if watch is not None else (), seed,
                      uses, found)


def per_game_text(value: float) -> str:
    """Uses a game as read at a glance: two decimals, and "<0.01" for a use played so rarely it would read 0.00."""
    return "<0.01" if 0 < value < 0.005 else f"{value:.2f}"


_WORKER_CONTENT: dict[tuple[str, ...], Content] = {}


def _worker(args: tuple[Spec, int, int]) -> list[GameRecord]:
    spec, start, stop = args
    content = _WORKER_CONTENT.get(spec.packs)
    if content is None:
        loaded, _ = load(packs=list(spec.packs))
        assert loaded is not None
        content = _WORKER_CONTENT[spec.packs] = loaded
    with many_games():
        return [play_one(content, spec, i) for i in range(start, stop)]


def workers(jobs: int, games: int) -> int:
    """The worker processes a run starts for ``jobs`` asked: never more than the machine's CPUs, nor than the
    games (docs/security.md)."""
    return max(1, min(jobs, os.cpu_count() or 1, games))


def run(content: Content, spec: Spec, games: int, *, jobs: int = 1,
        progress: Callable[[int], None] | None = None, first: int = 0) -> tuple[list[GameRecord], float]:
    """Play ``games`` games (games ``first`` to ``first + games - 1`` of the run: ``dday simulate --game I`` replays
    one); returns the records in index order and the elapsed seconds."""
    started = time.perf_counter()
    records: list[GameRecord] = []
    jobs = workers(jobs, games)
    with interrupts.between_games():
        if jobs <= 1:
            with many_games():
                for i in range(first, first + games):
                    records.append(play_one(content, spec, i))
                    if progress is not None:
                        progress(1)
        else:
            chunk = max(1, min(250, games // (jobs * 4) or 1))
            tasks = [(spec, a, min(a + chunk, first + games)) for a in range(first, first + games, chunk)]
            with worker_pool(jobs) as pool:
                for batch in pool.map(_worker, tasks):
                    interrupts.check()
                    records.extend(batch)
                    if progress is not None:
                        progress(len(batch))
            records.sort(key=lambda r: r.index)
    return records, time.perf_counter() - started


@contextmanager
def worker_pool(jobs: int) -> Iterator[ProcessPoolExecutor]:
    """Worker processes that take a Ctrl-C between two games (tools/interrupts.py); left early (an interrupt),
    the tasks not yet begun are cancelled rather than played."""
    pool = ProcessPoolExecutor(max_workers=jobs, initializer=interrupts.in_worker)
    try:
        yield pool
    except BaseException:
        pool.shutdown(wait=True, cancel_futures=True)
        raise
    pool.shutdown(wait=True)


def replay_command(spec: Spec, index: int) -> str:
    """The command that plays game ``index`` of a run again, alone, with the invariants checked."""
    parts = ["dday simulate", spec.map_id]
    if spec.variant:
        parts += ["--variant", spec.variant]
    parts += ["--players", str(spec.players), "--policy", spec.policy]
    if spec.side_policy:
        parts += ["--side-policy", spec.side_policy]
    for pack in spec.packs:
        parts += ["--pack", pack]
    for option in spec.options:
        parts += ["--option", option]
    for f in spec.forced:
        parts += [f"--{f.where}", f.card]
    parts += ["--seed", str(spec.seed), "--game", str(index), "--check-invariants"]
    return " ".join(parts)


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate."""
    if n == 0:
        return (0.0, 0.0)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def summarise(spec: Spec, records: Sequence[GameRecord], seconds: float, jobs: int) -> dict[str, Any]:
    n = len(records)
    wins = sum(1 for r in records if r.outcome == "won")
    lo, hi = wilson(wins, n)
    turns = [r.turns for r in records]
    dead: Counter[str] = Counter()
    lost: Counter[str] = Counter()
    specs: Counter[str] = Counter()
    items: Counter[str] = Counter()
    found: Counter[str] = Counter()
    uses: Counter[str] = Counter()
    used_in: Counter[str] = Counter()
    reasons: Counter[str] = Counter()
    outcome_turns: Counter[int] = Counter()
    for r in records:
        dead.update(r.dead_at)
        for sector, k in r.lost_by_sector:
            lost[sector] += k
        specs.update(r.specialists)
        items.update(r.items_used)
        found.update(r.found)
        for owner, k in r.uses:
            uses[owner] += k
            used_in[owner] += 1
        reasons[r.reason] += 1
        outcome_turns[r.turns] += 1
    out: dict[str, Any] = {
        "map": spec.map_id,
        "variant": spec.variant,
        "players": spec.players,
        "policy": spec.policy,
        "side_policy": spec.side_policy or spec.policy,
        "options": list(spec.options),
        "packs": list(spec.packs),  # (with the options, what plays these games again: --pack)
        "seed": spec.seed,
        "jobs": jobs,
        "games": n,
        "wins": wins,
        "win_rate": wins / n if n else 0.0,
        "win_rate_ci95": [lo, hi],
        "mean_turns": sum(turns) / n if n else 0.0,
        "turns_min": min(turns, default=0),
        "turns_max": max(turns, default=0),
        "turns_histogram": {str(k): v for k, v in sorted(outcome_turns.items())},
        "wiped_out_by_sector": dict(sorted(dead.items(), key=lambda kv: _natural(kv[0]))),
        "soldiers_lost_by_sector": {k: v / n for k, v in sorted(lost.items(), key=lambda kv: _natural(kv[0]))},
        "specialists_recruited": dict(specs.most_common()),
        "items_used": dict(items.most_common()),
        "items_found": dict(found.most_common()),  # Items and Vehicles found or gained, as Specialists recruited
        # Every use played (a card's, a Sector's, a rule's), most played first: in how many games, how many a game.
        "uses_played": {owner: {"games": used_in[owner], "per_game": k / n} for owner, k in uses.most_common()},
        "reasons": dict(reasons.most_common(8)),
        "seconds": seconds,
        "games_per_s": n / seconds if seconds > 0 else 0.0,
    }
    for where in ("give", "pool"):  # the cards forced in (--give, --pool), when there are any
        cards = [f.card for f in spec.forced if f.where == where]
        if cards:
            out[where] = cards
    # A game stopped at the engine's turn limit has no result (the rulebook has no limit): it is counted lost, and
    # told apart here; the score (counted when a game ends, by victory or defeat) leaves it out.
    cut = [r for r in records if at_turn_limit(r.reason)]
    out["unfinished"] = len(cut)
    ended = [r for r in records if not at_turn_limit(r.reason)]
    points = score_summary([r.score for r in ended], [r.outcome == "won" for r in ended],
                           [r.unit_scores for r in ended])
    if points is not None:
        out["victory_points"] = points
    won_turns = [r.turns for r in records if r.outcome == "won"]
    out["mean_turns_to_win"] = sum(won_turns) / len(won_turns) if won_turns else None
    out.update(measures.summary(records))
    if spec.check_invariants:
        broken = [(r.index, r.seed, v) for r in records for v in r.violations]
        out["invariants"] = {"checked": True, "games_with_violations": len({i for i, _, _ in broken}),
                             "violations": len(broken),
                             "first": [{"game": i, "seed": seed, "violation": v} for i, seed, v in broken[:20]]}
    return out


def plot(summary: dict[str, Any], records: Sequence[GameRecord], path: str | Path) -> None:
    """Draw the outcomes (turns, won and lost) and each measure's distribution to a file (tools/plots.py)."""
    from ddaydice.interpreter.tools.plots import simulate_plot

    simulate_plot(summary, records, path)


def _natural(sector: str) -> tuple[tuple[int, int | str], ...]:
    """Sector ids in reading order: s2 before s10 (numbers compared as numbers)."""
    return tuple((0, int(part)) if part.isdigit() else (1, part) for part in re.split(r"(\d+)", sector) if part)

