"""``dday simulate MAP``: play many games with a policy and report win rate, turns, deaths and use of cards.

The games are played by :mod:`ddaydice.interpreter.tools.simulate`; this module checks the set-up, shows
progress and prints the summary.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from ddaydice.interpreter.cli.common import (
    capped_jobs,
    check_setup,
    echo,
    forced_cards,
    forced_options,
    games_option,
    jobs_option,
    load_or_exit,
    option_option,
    pack_option,
    plot_option,
    policy_option,
    progress,
    provenance_warning,
    seed_option,
    write_plot,
)
from ddaydice.interpreter.cli.replay import check_capture, moment_option, write_position

if TYPE_CHECKING:
    from ddaydice.dsl.loader import Content
    from ddaydice.interpreter.tools.simulate import Spec


@click.command()
@click.argument("map_id", metavar="MAP")
@click.option("--variant", help="A variant of the map (exercise-tiger: practice-run, basic-training, ...).")
@click.option("--players", type=click.IntRange(1, 4), default=1, show_default=True, help="Units in each game.")
@games_option(1000)
@policy_option("--policy", default="reference", show_default=True,
               help_text="Who plays: random, reference, heuristic, or a player of graded skill (novice, casual, "
                         "expert, or skill:S, the expert slipping on a share 1 - S of his decisions; "
                         "docs/simulation.md).")
@policy_option("--side-policy", default=None,
               help_text="The policy of another side's player (Atlantikwall's German); default: --policy.")
@seed_option()
@jobs_option()
@option_option()
@pack_option()
@forced_options()
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="A summary, or JSON.")
@plot_option("Draw the turns played and each measure's histogram")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
@click.option("--check-invariants", is_flag=True,
              help="Check the rulebook's guarantees (rules/invariants.yaml) after every phase; exit 1 on a violation.")
@click.option("--game", "game_index", type=click.IntRange(min=0), default=None,
              help="Play only game I of the run (as numbered from --seed): the replay of a reported game.")
@click.option("--until", metavar="TURN.PHASE", callback=moment_option,
              help="With --to-scenario and --game (refused without them): the moment whose position is written, the "
                   "end of that phase of that turn (3.movement; combat: the end of the turn).")
@click.option("--to-scenario", type=click.Path(dir_okay=False, path_type=Path),
              help="With --game and --until: write the position then as a scenario file (docs/scenarios.md).")
def simulate(map_id: str, variant: str | None, players: int, games: int, policy: str, side_policy: str | None,
             seed: int, jobs: int, options: tuple[str, ...], packs: tuple[str, ...], give: tuple[str, ...],
             pool: tuple[str, ...], fmt: str, plot_path: Path | None,
             quiet: bool, check_invariants: bool, game_index: int | None, until: tuple[int, str] | None,
             to_scenario: Path | None) -> None:
    """Play many games with a policy and report win rate, turns, deaths and use of cards."""
    from ddaydice.interpreter.tools import simulate as sim
    from ddaydice.interpreter.tools.setups import SetupEntry

    check_capture(until, to_scenario)
    if to_scenario is not None and game_index is None:
        raise click.UsageError("--to-scenario captures one game: name it with --game I")

    jobs = capped_jobs(jobs, games)
    content = load_or_exit(packs=list(packs), fmt=fmt)
    spec = sim.Spec(map_id, variant, players, policy, seed, tuple(options), tuple(packs), side_policy,
                    forced_cards(give, pool), check_invariants=check_invariants)
    first = game_index or 0
    if game_index is not None:
        games = 1
    # Fail fast, before any worker starts, on every problem of the set-up at once (map, variant, options, players,
    # cards given), as dday compare and dday sweep check theirs.
    check_setup(SetupEntry(map=map_id, variant=variant, players=players, policy=policy, side_policy=side_policy,
                           options=tuple(options), packs=tuple(packs), give=give, pool=pool), content)
    warn = provenance_warning(content, map_id)
    if warn and fmt == "text":
        echo(warn, err=True)
    # The map's declared end, which no game of this set-up can meet (Gold Beach, one Unit, no solitaire option),
    # the cards forced in given.
    hopeless = sim.unwinnable_spec(content, spec)
    if hopeless is not None and fmt == "text":
        echo(f"warning: {hopeless}", err=True)
    sides = other_sides(content, spec)
    if side_policy is not None and not sides:  # an option that does nothing here is told, as --jobs capped is
        echo(f"note: --side-policy {side_policy} is not used: no other side plays against the Units in this "
                   "set-up (another side's player comes with an optional rule of a pack: dday list rules --pack all)",
                   err=True)
    if until is not None and to_scenario is not None and game_index is not None:
        _capture(content, spec, game_index, until, to_scenario)
        return
    with progress(games, f"simulating {map_id}", not quiet and fmt == "text") as bar:
        records, seconds = sim.run(content, spec, games, jobs=jobs, progress=bar, first=first)
    summary = sim.summarise(spec, records, seconds, jobs)
    if hopeless is not None:  # (a list, for any warning a later check may add)
        summary["warnings"] = [hopeless]
    if fmt == "json":
        echo(json.dumps(summary, indent=2))
    else:
        _echo_summary(spec, summary, jobs, sides)
    if plot_path is not None:  # after the results: a plot that fails after all loses none of them
        write_plot(lambda: sim.plot(summary, records, plot_path), plot_path)
    broken = [r for r in records if r.violations]
    for r in broken[:20]:  # a violation: the game, its seed, what broke, and the command that replays it
        echo(f"game {r.index} (seed {r.seed}): " + "; ".join(r.violations), err=True)
        echo(f"  replay: {sim.replay_command(spec, r.index)}", err=True)
    if broken:
        sys.exit(1)


def _capture(content: Content, spec: Spec, index: int, until: tuple[int, str], out: Path) -> None:
    """``--game I --until TURN.PHASE --to-scenario OUT``: game I of the run played to that moment, its position
    written as a scenario file."""
    from ddaydice.interpreter.tools import simulate as sim
    from ddaydice.interpreter.tools.capture import ended_before, play_until

    game, _watch = sim.game_of(content, spec, index)
    problem = ended_before(game, until, play_until(game, *until))
    if problem is not None:
        raise click.ClickException(f"game {index}: {problem}")
    command = sim.replay_command(spec, index).replace(" --check-invariants", "") + \
        f" --until {until[0]}.{until[1]} --to-scenario {out}"
    write_position(game, content, out, until=until, source=f"game {index} of a run (seed {spec.seed})",
                   command=command, packs=[(p, p) for p in spec.packs])


def other_sides(content: Content, spec: Spec) -> list[str]:
    """The names of the sides that play against the Units in a run's set-up (Atlantikwall's German), as its games
    are set up (the options a variant or another option brings included)."""
    from ddaydice.interpreter.game import Game
    from ddaydice.interpreter.policies.registry import make_policy

    game = Game(content, spec.map_id, players=spec.players, seed=0, variant=spec.variant, options=spec.options,
                deciders=make_policy(spec.policy))
    return [d.name for d in content.sides.sides if d.option in game.options]


def pack_names(packs: tuple[str, ...]) -> list[str]:
    """The packs of a run by short names, for a header a person reads: a bundled pack by its id, a pack folder by
    its folder's name (a pack's folder is named by its id), never a long path."""
    return [Path(p).name if "/" in p or p.startswith(".") else p for p in packs]


def forced_text(spec: Spec) -> str:
    """The cards a run forces in (--give, --pool), for its header: ", given to each Unit: medic" (none: "")."""
    out = ""
    for where, words in (("give", "given to each Unit"), ("pool", "in the Pool")):
        cards = [f.card for f in spec.forced if f.where == where]
        if cards:
            out += f", {words}: {', '.join(cards)}"
    return out


def _echo_summary(spec: Spec, summary: dict[str, Any], jobs: int, sides: list[str]) -> None:
    """The summary of a run, for a person (``sides``: those that play against the Units)."""
    from ddaydice.interpreter.core.values import MAX_TURNS
    from ddaydice.interpreter.tools.simulate import per_game_text

    map_id, variant, players, policy, seed = spec.map_id, spec.variant, spec.players, spec.policy, spec.seed
    options, side_policy = spec.options, spec.side_policy
    lo, hi = summary["win_rate_ci95"]
    title = map_id + (f" ({variant})" if variant else "")
    echo(f"{title}, {players} player(s), policy {policy}, seed {seed}, options: "
         f"{', '.join(options) or 'none'}" + (f", packs: {', '.join(pack_names(spec.packs))}" if spec.packs else "")
         + forced_text(spec))
    echo(f"  games        {summary['games']}")
    echo(f"  won          {summary['wins']} = {summary['win_rate']:.1%}  (95% CI {lo:.1%} to {hi:.1%})")
    if sides:  # another side plays against the Units: the games the Units did not win are his
        echo(f"               (won by the Allied Units; the {', '.join(sides)}, policy "
                   f"{side_policy or policy}, won the others)")
    if summary["unfinished"]:
        from ddaydice.interpreter.core.values import MAX_TURNS  # (the engine's modules: only when a command runs)

        echo(f"  unfinished   {summary['unfinished']} of the games lost had no result after {MAX_TURNS} turns (the "
             "engine's limit; the rulebook has none): their score is left out")
    echo(f"  turns        mean {summary['mean_turns']:.2f}, min {summary['turns_min']}, "
               f"max {summary['turns_max']}")
    if summary["wiped_out_by_sector"]:
        echo("  wiped out in " + ", ".join(f"{k}: {v}" for k, v in summary["wiped_out_by_sector"].items()))
    if summary["soldiers_lost_by_sector"]:
        echo("  Soldiers lost per game, by sector: " + ", ".join(
            f"{k}: {v:.2f}" for k, v in summary["soldiers_lost_by_sector"].items()))
    if summary["specialists_recruited"]:
        echo("  Specialists: " + ", ".join(f"{k} {v}" for k, v in summary["specialists_recruited"].items()))
    if summary["items_found"]:
        echo("  Items and Vehicles found: " + ", ".join(f"{k} {v}" for k, v in summary["items_found"].items()))
    if summary["items_used"]:
        echo("  Items and Awards used: " + ", ".join(f"{k} {v}" for k, v in summary["items_used"].items()))
    if summary["uses_played"]:
        echo("  uses played, a game: " + ", ".join(
            f"{k} {per_game_text(v['per_game'])}" for k, v in summary["uses_played"].items()))
    points = summary.get("victory_points")
    if points:  # an option's score table (victory-points), counted at the end of every game
        g, won, lost = points["group"], points["group_won"], points["group_lost"]
        echo(f"  score        group mean {g['mean']:.1f}, min {g['min']}, max {g['max']}; won games "
                   f"mean {won['mean']:.1f}, lost games mean {lost['mean']:.1f}; per Unit mean "
                   f"{points['unit']['mean']:.1f}")
    from ddaydice.interpreter.tools.measures import table_lines

    for line in table_lines(summary):
        echo(line)
    if "invariants" in summary:
        inv = summary["invariants"]
        echo(f"  invariants   checked after every phase: {inv['violations']} violation(s) in "
                   f"{inv['games_with_violations']} game(s)")
    echo(f"  speed        {summary['games_per_s']:.0f} games/s ({summary['seconds']:.2f} s, {jobs} job(s))")
