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

from ddaydice.interpreter.cli.common import echo_diagnostics, input_file, load_or_exit

if TYPE_CHECKING:
    from ddaydice.dsl.diagnostics import Diagnostic


@click.command()
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--trace/--no-trace", default=False, help="Print every event of the replayed game.")
def replay(file: Path, trace: bool) -> None:
    """Replay a saved game from its seed and choices; checks it ends in the same state."""
    from ddaydice.dsl.diagnostics import DDayError, Diagnostic
    from ddaydice.interpreter.core.state import digest
    from ddaydice.interpreter.game import Game
    from ddaydice.interpreter.policies.deciders import Scripted
    from ddaydice.interpreter.tools.play import read_replay, replay_packs, replay_place

    input_file(file, "replay")
    saved, diags = read_replay(file)
    if saved is None:
        _fail(diags)
    packs, diags = replay_packs(saved)
    if diags:
        _fail(diags)
    content = load_or_exit(packs=packs)
    script = Scripted(list(saved.choices))
    try:
        game = Game(content, saved.map, players=saved.players, seed=saved.seed, variant=saved.variant,
                    options=saved.options, deciders=script, trace=trace)
    except DDayError as exc:
        line, col = replay_place(saved, "map")
        _fail([Diagnostic("REPLAY005", f"the game cannot be set up: {exc}", saved.file, line, col)])
    try:
        game.run()
    except (DDayError, ValueError, KeyError, TypeError, IndexError) as exc:
        line, col = replay_place(saved, "choices")
        _fail([Diagnostic("REPLAY006", f"the replay diverged: {exc}", saved.file, line, col,
                          hint="the choices do not fit the game this seed and content give")])
    if trace:
        for event in game.state.log:
            click.echo(f"  turn {event.turn} {event.phase}: {event.detail}")
    same = digest(game.state) == saved.digest
    click.echo(f"replayed: the game is {game.state.outcome} after {game.state.turn} turn(s); "
               f"final state {'identical' if same else 'DIFFERENT'} (digest {digest(game.state)})")
    sys.exit(0 if same else 1)


def _fail(diags: list[Diagnostic]) -> NoReturn:
    """Print the replay's problems and exit 1."""
    echo_diagnostics(diags, "text", 50)
    click.echo(f"{len(diags)} error(s): the replay could not be run", err=True)
    sys.exit(1)
