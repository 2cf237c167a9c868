"""``dday play MAP``: a game at the terminal, a person deciding every choice (or policies playing some players).

What the player sees and the decider that asks a person are :mod:`ddaydice.interpreter.tools.play`; this module
sets the game up, says what in it is our reconstruction, runs it and reports the end.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from ddaydice.interpreter.cli.common import (
    SEED,
    check_setup,
    echo,
    forced_cards,
    forced_options,
    load_or_exit,
    option_option,
    pack_option,
    provenance_warning,
    terminal_width,
)

if TYPE_CHECKING:
    from ddaydice.dsl.loader import Content
    from ddaydice.interpreter.core.api import Decider
    from ddaydice.interpreter.game import Game
    from ddaydice.interpreter.tools.forced import Forced
    from ddaydice.interpreter.tools.invariants import Violation, Watch
    from ddaydice.interpreter.tools.play import Human


Say = Callable[[str], None]


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
@forced_options()
@click.option("--auto", "auto", multiple=True,
              help="Let a policy play: 'heuristic' (every player) or 'u2=reference' (one Unit) or "
                   "'german=heuristic' (Atlantikwall's German player). Repeatable; a player named (u2=...) plays "
                   "his own policy whatever the order, the others the general one.")
@click.option("--save", "save_path", type=click.Path(dir_okay=False, path_type=Path),
              help="Save the game (seed and choices) to replay it with 'dday replay': when it ends, or as far as "
                   "it went when it is abandoned or its output closes.")
@click.option("--trace/--no-trace", default=False, help="Print every event of the game as it happens.")
@click.option("--check-invariants", is_flag=True,
              help="Check the rulebook's guarantees (rules/invariants.yaml) after every phase; exit 1 on a violation.")
@click.option("-q", "--quiet", is_flag=True,
              help="When policies play every player: no line per turn (each player's Sector and Soldiers), only "
                   "the result.")
def play(map_id: str, variant: str | None, players: int, seed: int | None, options: tuple[str, ...],
         packs: tuple[str, ...], give: tuple[str, ...], pool: tuple[str, ...], auto: tuple[str, ...],
         save_path: Path | None, trace: bool, check_invariants: bool, quiet: bool) -> None:
    """Play a game at the terminal, deciding every choice (or let policies play some Units).

    At a prompt: an option's number (several, separated by spaces, where several are picked) or its name (or a
    word of it: a card's name, a die's face); '?' or 'help' for help, '? NAME' for a card's text; 'undo' to take
    back your last decision (the game is replayed from its seed); 'quit' to abandon the game."""
    import random as _random

    from ddaydice.dsl.diagnostics import DDayError
    from ddaydice.interpreter.core.option_rules import OptionRules
    from ddaydice.interpreter.policies.registry import make_policy
    from ddaydice.interpreter.tools.play import Human, fit
    from ddaydice.interpreter.tools.setups import SetupEntry, unwinnable_setup

    _check_save(save_path, give or pool)
    content = load_or_exit(packs=list(packs))
    if seed is None:
        seed = _random.SystemRandom().randrange(10**9)
    # Every problem of the set-up at once (map, variant, options, players), as dday simulate tells them.
    check_setup(SetupEntry(map=map_id, variant=variant, players=players, options=tuple(options), packs=tuple(packs),
                           give=give, pool=pool), content)
    forced = forced_cards(give, pool)
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
                  say=say, width=width, tell_events=not trace)
    try:
        table = Table(content, map_id, players=players, seed=seed, variant=variant, options=options, forced=forced,
                      trace=True,
                      deciders=lambda: [make_policy(autos[i], seed + i) if i in autos else human
                                        for i in range(1, players + 1 + len(sides))],
                      report=say if check_invariants else None)
    except DDayError as exc:
        raise click.UsageError(str(exc)) from exc
    try:
        say(f"{content.maps[map_id].name}{' - ' + variant if variant else ''}: {players} Unit(s), seed {seed}"
            + "".join(f", {words}: {', '.join(cards)}" for words, cards in (("given to each Unit", give),
                                                                             ("in the Pool", pool)) if cards))
        _echo_reconstructions(content, table.game, map_id, say)
        hopeless = unwinnable_setup(content, map_id, players=players, variant=variant, options=options, forced=forced)
        if hopeless is not None:
            say(f"warning: {hopeless}")
        _echo_sides(table.game, say)
        _run(table, human, trace, say, automatic=human not in table.game.deciders, quiet=quiet)
        _echo_end(content, table.game, say)
    except (EOFError, click.Abort):  # abandoned at the prompt (Ctrl-D, quit, Ctrl-C): the game so far is saved
        with contextlib.suppress(OSError):
            say("\ngame abandoned")
        _save(table, save_path, packs, say)
        sys.exit(1)
    except (OSError, KeyboardInterrupt):
        # The output closed (| head) or failed, or a Ctrl-C between the turns of a game the policies play: the game
        # so far is saved, then the error is reported as every command's is (Dday.main, click).
        _save(table, save_path, packs, None)
        raise
    _save(table, save_path, packs, say)
    watch = table.watch
    if watch is not None and watch.violations:
        again = " ".join(["dday play", map_id, *(["--variant", variant] if variant else []), "--players", str(players),
                          "--seed", str(seed), *(x for p in packs for x in ("--pack", p)),
                          *(x for o in options for x in ("--option", o)), *(x for a in auto for x in ("--auto", a)),
                          *(x for f in forced for x in (f"--{f.where}", f.card)),
                          "--check-invariants"])
        say(f"{len(watch.violations)} invariant violation(s); replay: {again}"
                   + ("" if save_path else " (with the same choices: add --save FILE, then dday replay FILE)"))
        sys.exit(1)


def _check_save(save_path: Path | None, forced: tuple[str, ...]) -> None:
    """``--save FILE``, before the game starts (a game is never played only to be lost): a file that can be written,
    and a game that its replay can play again (a saved game names its packs and options, not cards forced in)."""
    from ddaydice.dsl.writing import write_problem

    if save_path is None:
        return
    if forced:
        raise click.UsageError(f"--save {save_path}: a saved game does not keep the cards --give and --pool force "
                               "in, so dday replay could not play it again; drop --save, or the cards")
    problem = write_problem(save_path)
    if problem is not None:
        raise click.UsageError(f"--save {save_path}: {problem}")


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


def _echo_sides(game: Game, say: Say) -> None:
    """Another side's rules in short (the German's), when the game starts."""
    from ddaydice.interpreter.tools.play_show import side_lines

    for line in side_lines(game):
        say(line)


class Table:
    """The game at the table and how it is set up: again from its seed when the player takes back a decision (an
    undo replays it, the policies made anew so that they decide as they did), or to where its choices end (a game
    saved unfinished stands there, as its replay will). ``report``: where invariant violations are told, once each
    (--check-invariants; None: not checked). ``trace``: the game's events recorded (``dday play`` always records
    them: the player is told some of them, ``--trace`` prints them all)."""

    def __init__(self, content: Content, map_id: str, *, players: int, seed: int, variant: str | None,
                 options: tuple[str, ...], trace: bool, deciders: Callable[[], list[Decider]],
                 report: Say | None, forced: tuple[Forced, ...] = ()) -> None:
        self.content = content
        self.map_id = map_id
        self.setup: dict[str, Any] = {"players": players, "seed": seed, "variant": variant, "options": options}
        if forced:  # cards given or put into the Pool at the start (--give, --pool: tools/forced.py)
            self.setup["forced"] = forced
        self.trace = trace
        self.deciders = deciders
        self.report = report
        self.reported: set[str] = set()
        self.watch: Watch | None = None
        self.game = self._set_up()

    def again(self) -> None:
        """Set the game up again from its seed (an undo: the human player's answers are replayed)."""
        self.game = self._set_up()

    def _set_up(self) -> Game:
        from ddaydice.interpreter.tools.invariants import Watch
        from ddaydice.interpreter.tools.simulate import game_class

        kind = game_class("forced" in self.setup, self.report is not None)
        if self.report is None:
            return kind(self.content, self.map_id, deciders=self.deciders(), trace=self.trace, **self.setup)
        self.watch = Watch(report=self._violation)
        return kind(self.content, self.map_id, deciders=self.deciders(), trace=self.trace, watch=self.watch,
                    **self.setup)

    def _violation(self, violation: Violation) -> None:
        """Tell a violation, unless a game set up again by an undo already told it."""
        text = f"! {violation.text()} (seed {self.setup['seed']})"
        if self.report is not None and text not in self.reported:
            self.reported.add(text)
            self.report(text)

    def so_far(self) -> Game:
        """The game as it is saved: the game itself when it has ended, else replayed from its seed to where its
        choices end (tools/play.py ``play_out``), as ``dday replay`` will stand."""
        from ddaydice.interpreter.policies.deciders import Scripted
        from ddaydice.interpreter.tools.play import UpToTheEnd, play_out
        from ddaydice.interpreter.tools.simulate import game_class

        if self.game.state.outcome is not None:
            return self.game
        game = game_class("forced" in self.setup, False)(
            self.content, self.map_id, deciders=Scripted(list(self.game.state.choices), UpToTheEnd()), **self.setup)
        play_out(game)
        return game


def _save(table: Table, path: Path | None, packs: tuple[str, ...], say: Say | None) -> None:
    """Save the game, ended or so far (``--save``), atomically; tell where (``say``; None: the output is gone)."""
    from ddaydice.interpreter.tools.play import save_replay

    if path is None:
        return
    game = table.so_far()
    try:
        save_replay(path, game, players=table.setup["players"], packs=packs)
    except OSError as exc:
        raise click.ClickException(f"{path}: the game could not be saved: {exc.strerror}") from exc
    if say is not None:
        so_far = "" if game.state.outcome is not None else "the game so far (unfinished) "
        say(f"{so_far}saved to {path} (replay it with: dday replay {path})")


def _run(table: Table, human: Human, trace: bool, say: Say, *, automatic: bool = False,
         quiet: bool = False) -> None:
    """Play the game to its end (lost after 60 turns). An ``undo`` at the prompt sets it up again (Table.again),
    the human player's answers but the last replayed, his question asked again; the trace goes on where it was
    (what an undo changed in a turn already traced is traced again). When every player is automatic (``--auto``),
    a Ctrl-C is taken at the end of a turn, never inside the (compiled) engine (tools/interrupts.py); with a player
    at the prompt, at once. After each turn: the trace (``trace``), else what the game did unasked since the last
    question (Human.tell), or, when every player is automatic, the turn's line (unless ``quiet``)."""
    from ddaydice.dsl.diagnostics import DDayError
    from ddaydice.interpreter.tools import interrupts
    from ddaydice.interpreter.tools.play import Undo
    from ddaydice.interpreter.tools.play_show import turn_line

    shown: list[str] = []
    try:
        with interrupts.between_games() if automatic else contextlib.nullcontext():
            while table.game.state.outcome is None:
                game = table.game
                if game.out_of_turns():
                    break
                try:
                    game.run_turn()
                except Undo:
                    human.undone()
                    table.again()
                    continue
                if trace:
                    shown = _trace(game, shown, say)
                elif automatic:
                    if not quiet:
                        say(turn_line(game))
                else:
                    human.tell(game)
                interrupts.check()
            table.game.finish()  # (as Game.run ends a game: the invariants checked at its end)
    except DDayError as exc:
        raise click.ClickException(str(exc)) from exc


def _trace(game: Game, shown: list[str], say: Say) -> list[str]:
    """Print the game's events not yet ``shown``; returns them all. An undo replays the game: the events it gives
    again are not printed twice, and where a turn already printed went otherwise, it is printed from there."""
    events = [event.detail for event in game.state.log]
    same = next((i for i, (a, b) in enumerate(zip(shown, events, strict=False)) if a != b),
                min(len(shown), len(events)))
    if same < len(shown):
        say("  · (undone: from here the game went otherwise)")
    for detail in events[same:]:
        say(f"  · {detail}")
    return events


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
