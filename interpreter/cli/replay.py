"""``dday replay FILE``: replay a saved game (``dday play --save``) from its seed and choices.

A replay is input like any other: it is read only from a regular file within its limit, every field is checked,
the packs it names must be bundled ones or folders inside the current folder, and every problem is reported at its
place in the file (docs/security.md).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

import click

from ddaydice.interpreter.cli.common import echo, echo_diagnostics, input_file, load_or_exit

if TYPE_CHECKING:
    from ddaydice.dsl.diagnostics import Diagnostic
    from ddaydice.dsl.loader import Content
    from ddaydice.interpreter.game import Game
    from ddaydice.interpreter.tools.capture import Recorder
    from ddaydice.interpreter.tools.play import Replay


def moment_option(ctx: click.Context, param: click.Parameter, value: str | None) -> tuple[int, str] | None:
    """``--until TURN.PHASE``, read (a usage error when it cannot be)."""
    from ddaydice.interpreter.tools.capture import parse_moment

    if value is None:
        return None
    try:
        return parse_moment(value)
    except ValueError as exc:
        raise click.BadParameter(str(exc), ctx, param) from exc


def check_capture(until: tuple[int, str] | None, to_scenario: Path | None) -> None:
    """``--until`` and ``--to-scenario`` go together; the scenario's file can be written (before the game is
    played, so that a game is never played only to find its position cannot be saved)."""
    from ddaydice.dsl.writing import write_problem

    if (until is None) != (to_scenario is None):
        raise click.UsageError("--until TURN.PHASE and --to-scenario FILE go together (the position at that moment, "
                               "written as a scenario)")
    if to_scenario is not None:
        problem = write_problem(to_scenario)
        if problem is not None:
            raise click.UsageError(f"--to-scenario {to_scenario}: {problem}")


def write_position(game: Game, content: Content, out: Path, *, until: tuple[int, str], source: str, command: str,
                   packs: list[tuple[str, str]], recorder: Recorder | None = None) -> None:
    """Write the game's position as a scenario file (atomically), read it back as ``dday scenario run`` does, set
    it up and compare the two positions' digests; exit 1 when they differ. ``source``: the game, as the title
    names it; ``command``: the command that captured it; ``packs``: each pack as the command named it and as
    the loader found it; ``recorder``: the game's decider, to play the game on to its end and write the rest
    as steps, answers and checks (``--play-on``), which the scenario must pass."""
    from ddaydice.dsl.writing import write_atomically
    from ddaydice.interpreter.core.state import position_digest
    from ddaydice.interpreter.core.values import PHASES
    from ddaydice.interpreter.tools import capture, scenario

    s = game.state
    turn, phase = until
    moment = f"turn {turn}, after its {phase} phase" + (" (the end of the turn)" if phase == PHASES[-1] else "")
    data = capture.capture_position(game, title=f"The position of {source} at {moment}",
                                    packs=[capture.relative_pack(name, found, out) for name, found in packs])
    digest = position_digest(s)
    if recorder is not None:
        capture.play_on(game, phase, recorder, data)
    rest = ", ".join(f"- phase: {p}" for p in PHASES[PHASES.index(phase) + 1:])
    header = (f"A position captured from a game: {command}\n"
              + (f"It stands at {moment}; to play on, add steps:\n"
                 + (f"the rest of the turn ({rest}), then " if rest else "") + "- turn, - turns: N or - game.\n"
                 if recorder is None else
                 f"It stands at {moment}; its steps and answers play the game on to its end, as it was played.\n")
              + f"Position digest (the state without the trace and the choices): {digest}")
    try:
        write_atomically(out, capture.scenario_text(data, header))
    except OSError as exc:
        raise click.ClickException(f"{out}: the scenario could not be written: {exc.strerror}") from exc
    loaded, diags = scenario.load_scenario(out, content)
    same = False
    ran: bool | None = None
    if loaded is not None and not diags:
        again = scenario.build(loaded[0], content)
        same = position_digest(again.state) == digest
        if recorder is not None:
            result, _ = scenario.run(loaded[0], content, str(out), doc=loaded[1])
            ran = result.passed
            if not ran:
                echo(f"the scenario does not play on as the game did: {result.error or 'a check failed'}")
    if diags:
        echo_diagnostics(diags, "text", 50)
    echo(f"captured {moment} to {out} (position digest {digest}); set up from the file: "
               + ("identical" if same else "DIFFERENT")
               + ("" if ran is None else f"; played on to the end: {'the same' if ran else 'NOT the same'}"))
    if not same or ran is False:
        sys.exit(1)


@click.command()
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--trace/--no-trace", default=False, help="Print every event of the replayed game.")
@click.option("--until", metavar="TURN.PHASE", callback=moment_option,
              help="With --to-scenario (refused without it): the moment whose position is written, the end of that "
                   "phase of that turn (3.movement; the end of the turn for combat).")
@click.option("--to-scenario", type=click.Path(dir_okay=False, path_type=Path),
              help="Write the position at --until as a scenario file (docs/scenarios.md, \"Capture a position\").")
@click.option("--play-on", is_flag=True,
              help="With --to-scenario: add the rest of the game (steps, every answer, its end as checks).")
def replay(file: Path, trace: bool, until: tuple[int, str] | None, to_scenario: Path | None, play_on: bool) -> None:
    """Replay a saved game from its seed and choices; checks it ends in the same state. With --until and
    --to-scenario: the position at that moment, as a scenario file."""
    from ddaydice.dsl.diagnostics import DDayError, Diagnostic
    from ddaydice.interpreter.game import Game
    from ddaydice.interpreter.policies.deciders import Scripted
    from ddaydice.interpreter.tools.capture import Recorder, ended_before, play_until
    from ddaydice.interpreter.tools.play import (
        ChoicesEnd,
        UpToTheEnd,
        play_out,
        read_replay,
        replay_packs,
        replay_place,
    )

    check_capture(until, to_scenario)
    if play_on and to_scenario is None:
        raise click.UsageError("--play-on adds the rest of the game to the scenario of --to-scenario")
    input_file(file, "replay")
    saved, diags = read_replay(file)
    if saved is None:
        _fail(diags)
    packs, diags = replay_packs(saved)
    if diags:
        _fail(diags)
    if play_on and not saved.finished:
        _fail([Diagnostic("REPLAY007", "--play-on: this game was saved unfinished (it has no outcome): there is no "
                          "rest of the game to add", saved.file, *replay_place(saved, "outcome"),
                          hint="capture its position without --play-on")])
    content = load_or_exit(packs=packs)
    # A game saved unfinished is replayed to where its choices end (UpToTheEnd stops it there).
    script = Scripted(list(saved.choices), fallback=None if saved.finished else UpToTheEnd())
    recorder = Recorder(script) if play_on else None
    try:
        game = Game(content, saved.map, players=saved.players, seed=saved.seed, variant=saved.variant,
                    options=saved.options, deciders=recorder or script, trace=trace)
    except DDayError as exc:
        line, col = replay_place(saved, "map")
        _fail([Diagnostic("REPLAY005", f"the game cannot be set up: {exc}", saved.file, line, col)])
    reached = False
    try:
        if until is None:
            play_out(game)
        else:
            reached = play_until(game, *until)
    except ChoicesEnd:
        reached = False
    except (DDayError, ValueError, KeyError, TypeError, IndexError) as exc:
        line, col = replay_place(saved, "choices")
        _fail([Diagnostic("REPLAY006", f"the replay diverged: {exc}", saved.file, line, col,
                          hint="the choices do not fit the game this seed and content give")])
    if until is not None and to_scenario is not None:
        problem = ended_before(game, until, reached)
        if problem is not None:
            line, col = replay_place(saved, "turns")
            _fail([Diagnostic("REPLAY007", problem, saved.file, line, col,
                              hint="capture a moment of the game before its end")])
        command = (f"dday replay {file} --until {until[0]}.{until[1]} --to-scenario {to_scenario}"
                   + (" --play-on" if play_on else ""))
        write_position(game, content, to_scenario, until=until, source=file.name, command=command,
                       packs=list(zip(saved.packs, packs, strict=True)), recorder=recorder)
        return
    if trace:
        for event in game.state.log:
            echo(f"  turn {event.turn} {event.phase}: {event.detail}")
    left = len(script.answers) - script.used
    if left:  # a choice the game never asked for: the file was edited, or made by other content
        line, col = replay_place(saved, "choices")
        _fail([Diagnostic("REPLAY006", f"the replay diverged: {left} choice(s) left over when the game ended "
                          f"(from choice {script.used + 1} of {len(script.answers)})", saved.file, line, col,
                          hint="the game never asked for them: the choices do not fit the game this seed and "
                               "content give")])
    _verdict(game, saved)


def _verdict(game: Game, saved: Replay) -> NoReturn:
    """Say how the replay ended: the game's end (or, saved unfinished, where its choices end) and whether its state
    is the one the file records; exit 0 when it is, 1 otherwise."""
    from ddaydice.interpreter.core.state import digest

    found = digest(game.state)
    if saved.digest is None:
        verdict = f"the file records no digest to compare with: not checked (digest {found})"
    elif found == saved.digest:
        verdict = f"final state identical (digest {found})"
    else:
        verdict = f"final state DIFFERENT (digest {found}; the file records {saved.digest})"
    if saved.finished:
        echo(f"replayed: the game is {game.state.outcome} after {game.state.turn} turn(s); {verdict}")
    else:
        echo(f"replayed: the game was saved unfinished; its {len(saved.choices)} choice(s) end in turn "
             f"{game.state.turn}, {game.state.phase} phase; {verdict.replace('final state', 'position there')}")
    sys.exit(0 if found == saved.digest else 1)


def _fail(diags: list[Diagnostic]) -> NoReturn:
    """Print the replay's problems and exit 1."""
    echo_diagnostics(diags, "text", 50)
    echo(f"{len(diags)} error(s): the replay could not be run", err=True)
    sys.exit(1)
