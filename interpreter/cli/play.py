"""``dday play MAP``: a game at the terminal, a person deciding every choice (or policies playing some players).

What the player sees and the decider that asks a person are :mod:`ddaydice.interpreter.tools.play`; this module
sets the game up, says what in it is our reconstruction, runs it and reports the end.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import click

from ddaydice.interpreter.cli.common import (
    SEED,
    check_setup,
    echo,
    load_or_exit,
    option_option,
    pack_option,
    provenance_warning,
)

if TYPE_CHECKING:
    from ddaydice.dsl.loader import Content
    from ddaydice.interpreter.game import Game


Say = Callable[[str], None]


def terminal_width() -> int | None:
    """The width the player's lines are fitted to (tools/play.py ``fit``): the terminal's (``COLUMNS`` when it is
    set, as shutil reads it), or None when standard output is no terminal and ``COLUMNS`` is not set (a pipe, a
    log, a test: the lines stay whole)."""
    if "COLUMNS" not in os.environ and not sys.stdout.isatty():
        return None
    return shutil.get_terminal_size().columns


def _sayer(width: int | None) -> Say:
    """How the game speaks: every line made printable (as ``echo`` does), then fitted to ``width``."""
    from ddaydice.dsl.diagnostics import printable
    from ddaydice.interpreter.tools.play import fit

    def say(text: str = "") -> None:
        echo(fit(printable(str(text)), width))
    return say


def _parse_auto(auto: tuple[str, ...], players: int, sides: list[str] | None = None) -> dict[int, str]:
    """Which players a policy plays: Units by number (1..players), then other sides' players (the German).

    A general ``--auto POLICY`` is every player's; ``--auto WHO=POLICY`` is one player's and wins over the general
    one whatever the order they are given in. Two different policies for every player, or for one player, are a
    usage error (the same one given twice is not)."""
    from ddaydice.interpreter.policies.names import check_policy

    sides = sides or []
    general: dict[str, str] = {}  # policy -> the --auto that gave it
    specific: dict[int, tuple[str, str]] = {}  # player -> (policy, the --auto that gave it)
    names = {**{i: f"u{i}" for i in range(1, players + 1)},
             **{players + 1 + k: side for k, side in enumerate(sides)}}
    for item in auto:
        who, eq, policy = item.partition("=")
        if not eq:
            who, policy = "", item
        try:
            check_policy(policy)
        except ValueError as exc:
            raise click.UsageError(f"--auto {item}: {exc}") from exc
        if not eq:
            general.setdefault(policy, item)
            if len(general) > 1:
                raise click.UsageError(
                    f"--auto {' and --auto '.join(general.values())}: two policies for every player; give one, "
                    "and WHO=POLICY for a player who plays otherwise")
            continue
        if who in sides:
            target = players + 1 + sides.index(who)
        elif who.startswith("u") and who[1:].isdigit() and 1 <= int(who[1:]) <= players:
            target = int(who[1:])
        else:
            others = f" or {', '.join(sides)}" if sides else ""
            raise click.UsageError(f"--auto {item}: no player '{who}' (Units are u1..u{players}{others})")
        before = specific.setdefault(target, (policy, item))
        if before[0] != policy:
            raise click.UsageError(f"--auto {before[1]} and --auto {item}: two policies for {names[target]}; "
                                   "give one")
    chosen = dict.fromkeys(names, next(iter(general))) if general else {}
    chosen.update({t: policy for t, (policy, _) in specific.items()})
    return chosen


@click.command()
@click.argument("map_id", metavar="MAP")
@click.option("--variant", help="A variant of the map (exercise-tiger: practice-run, basic-training, ...).")
@click.option("--players", type=click.IntRange(1, 4), default=1, show_default=True)
@click.option("--seed", type=SEED, default=None, help="The game's seed (random if not given; printed).")
@option_option()
@pack_option()
@click.option("--auto", "auto", multiple=True,
              help="Let a policy play: 'heuristic' (every player) or 'u2=reference' (one Unit) or "
                   "'german=heuristic' (Atlantikwall's German player). Repeatable; a player named (u2=...) plays "
                   "his own policy whatever the order, the others the general one.")
@click.option("--save", "save_path", type=click.Path(dir_okay=False, path_type=Path),
              help="Save the finished game (seed and choices) to replay it with 'dday replay'.")
@click.option("--trace/--no-trace", default=False, help="Print every event of the game as it happens.")
@click.option("--check-invariants", is_flag=True,
              help="Check the rulebook's guarantees (rules/invariants.yaml) after every phase; exit 1 on a violation.")
def play(map_id: str, variant: str | None, players: int, seed: int | None, options: tuple[str, ...],
         packs: tuple[str, ...], auto: tuple[str, ...], save_path: Path | None, trace: bool,
         check_invariants: bool) -> None:
    """Play a game at the terminal, deciding every choice (or let policies play some Units)."""
    import random as _random

    from ddaydice.dsl.diagnostics import DDayError
    from ddaydice.dsl.writing import write_problem
    from ddaydice.interpreter.core.option_rules import OptionRules
    from ddaydice.interpreter.game import Game
    from ddaydice.interpreter.policies.registry import make_policy
    from ddaydice.interpreter.tools.play import Human, fit, save_replay
    from ddaydice.interpreter.tools.setups import SetupEntry

    if save_path is not None:  # before the game starts: a game is never played only to be lost
        problem = write_problem(save_path)
        if problem is not None:
            raise click.UsageError(f"--save {save_path}: {problem}")
    content = load_or_exit(packs=list(packs))
    if seed is None:
        seed = _random.SystemRandom().randrange(10**9)
    # Every problem of the set-up at once (map, variant, options, players), as dday simulate tells them.
    check_setup(SetupEntry(map=map_id, variant=variant, players=players, options=tuple(options), packs=tuple(packs)),
                content)
    try:
        rules = OptionRules.build(content, options)
    except DDayError as exc:
        raise click.UsageError(str(exc)) from exc
    sides = [d.id for d in content.sides.sides if d.option in rules.options]  # other sides' players (the German)
    autos = _parse_auto(auto, players, sides)
    if rules.automated_units:  # automated Units (solitaire Atlantikwall) decide nothing themselves
        autos.update({i: autos.get(i, "reference") for i in range(1, players + 1)})
    from ddaydice.dsl.diagnostics import printable

    width = terminal_width()
    say = _sayer(width)
    human = Human(ask=lambda prompt: click.prompt(fit(printable(prompt), width), default="", show_default=False,
                                                  prompt_suffix=""),
                  say=say, width=width)
    deciders = [make_policy(autos[i], seed + i) if i in autos else human for i in range(1, players + 1 + len(sides))]
    from ddaydice.interpreter.tools.invariants import CheckedGame, Watch

    watch = Watch(report=lambda v: say(f"! {v.text()} (seed {seed})")) if check_invariants else None
    try:
        if watch is None:
            game = Game(content, map_id, players=players, seed=seed, variant=variant, options=options,
                        deciders=deciders, trace=trace)
        else:
            game = CheckedGame(content, map_id, players=players, seed=seed, variant=variant, options=options,
                               deciders=deciders, trace=trace, watch=watch)
    except DDayError as exc:
        raise click.UsageError(str(exc)) from exc
    bm = content.maps[map_id]
    say(f"{bm.name}{' - ' + variant if variant else ''}: {players} Unit(s), seed {seed}")
    _echo_reconstructions(content, game, map_id, say)
    _run(game, trace, say, automatic=human not in deciders)
    _echo_end(content, game, say)
    if save_path is not None:
        try:
            save_replay(save_path, game, players=players, packs=packs)
        except OSError as exc:
            raise click.ClickException(f"{save_path}: the game could not be saved: {exc.strerror}") from exc
        say(f"saved to {save_path} (replay it with: dday replay {save_path})")
    if watch is not None and watch.violations:
        again = " ".join(["dday play", map_id, *(["--variant", variant] if variant else []), "--players", str(players),
                          "--seed", str(seed), *(x for p in packs for x in ("--pack", p)),
                          *(x for o in options for x in ("--option", o)), *(x for a in auto for x in ("--auto", a)),
                          "--check-invariants"])
        say(f"{len(watch.violations)} invariant violation(s); replay: {again}"
                   + ("" if save_path else " (with the same choices: add --save FILE, then dday replay FILE)"))
        sys.exit(1)


def _echo_reconstructions(content: Content, game: Game, map_id: str, say: Say) -> None:
    """The notes on what in this game is our reconstruction: the map, Awards, the Units' cards, other decks."""
    bm = content.maps[map_id]
    warn = provenance_warning(content, map_id)
    if warn:
        say(warn)
    reconstructed = sorted({content.cards[c].name for c in game.state.award_deck
                            if content.cards[c].provenance == "reconstructed"})
    if reconstructed:
        say("note: these Awards are RECONSTRUCTIONS (the rulebook prints no Award texts): "
                   + ", ".join(reconstructed))
    note = content.award_deck_note(len(game.state.award_deck))
    if note and game.state.award_deck:
        say(f"note: {note}")
    s0 = game.state
    held = {c for u in s0.units for c in (*u.specialists, *u.items)} | {c for h in s0.hands.values() for c in h}
    allied = {c for c in (*s0.pool, *s0.placed, *held, *bm.vehicles)
              if c in content.cards and content.card_kinds[c] in {"specialist", "item", "vehicle"}}
    ours_cards = sorted(content.cards[c].name for c in allied if content.cards[c].provenance == "reconstructed")
    if ours_cards:
        say("note: these Specialists, Items and Vehicles of the game are RECONSTRUCTIONS (their texts are not "
                   "all printed; 'dday card ID' says what is ours): " + ", ".join(ours_cards))
    for side in s0.sides:  # another side's Reserve (the German's Specialists and Items)
        side_kinds = [k for k in content.kinds.kinds if k.side == side.side and k.held_as is not None]
        for kd in side_kinds:
            cards = [c for c in s0.pool if content.card_kinds.get(c) == kd.id]
            ours = sorted(content.cards[c].name for c in cards if content.cards[c].provenance == "reconstructed")
            if ours:
                say(f"note: {len(ours)} of the {len(cards)} {kd.plural or kd.name} of the {side.name} are "
                           "RECONSTRUCTIONS (the rulebook names some and prints none whole): " + ", ".join(ours))
    for kind, cards in sorted(game.state.decks.items()):  # an expansion's decks in this game
        ours = sorted(content.cards[c].name for c in cards if content.cards[c].provenance == "reconstructed")
        if ours:
            name = content.kind_def(kind)
            say(f"note: {len(ours)} of the {len(cards)} {name.plural if name else kind} are RECONSTRUCTIONS "
                       f"(not printed in the rulebook): " + ", ".join(ours))


def _run(game: Game, trace: bool, say: Say, *, automatic: bool = False) -> None:
    """Play the game to its end (lost after 60 turns); exit 1 when the player abandons it. When every player is
    automatic (``--auto``), a Ctrl-C is taken at the end of a turn, never inside the (compiled) engine
    (tools/interrupts.py); with a player at the prompt, at once."""
    from ddaydice.dsl.diagnostics import DDayError
    from ddaydice.interpreter.tools import interrupts

    shown = 0
    try:
        with interrupts.between_games() if automatic else contextlib.nullcontext():
            while game.state.outcome is None:
                if game.state.turn >= 60:
                    game.end("lost", "no result after 60 turns")
                    break
                game.run_turn()
                if trace:
                    for event in game.state.log[shown:]:
                        say(f"  · {event.detail}")
                    shown = len(game.state.log)
                interrupts.check()
    except (EOFError, click.Abort):
        say("\ngame abandoned")
        sys.exit(1)
    except DDayError as exc:
        raise click.ClickException(str(exc)) from exc


def _echo_end(content: Content, game: Game, say: Say) -> None:
    """The outcome, each player's line and an option's score table."""
    from ddaydice.interpreter.mechanisms.options import score, score_text
    from ddaydice.interpreter.tools.play import unit_line

    who = "for the Allies " if game.state.sides else ""
    say(f"\nThe game is {game.state.outcome.upper() if game.state.outcome else '?'} {who}after "
               f"{game.state.turn} turn(s): {game.state.reason}")
    for u in game.players():
        say("  " + unit_line(game, u.id))
    scored = score(game)
    if scored is not None:  # an option's score table, counted at the end of every game, won or lost
        table = content.options[game.option_rules.origin["score"]].name
        say(f"{table}:")
        for line in score_text(game, scored):
            say(line)
