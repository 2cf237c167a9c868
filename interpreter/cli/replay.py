"""``dday replay FILE``: replay a saved game (``dday play --save``) from its seed and choices."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from ddaydice.interpreter.cli.common import load_or_exit


@click.command()
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--trace/--no-trace", default=False, help="Print every event of the replayed game.")
def replay(file: Path, trace: bool) -> None:
    """Replay a saved game from its seed and choices; checks it ends in the same state."""
    from ddaydice.dsl.diagnostics import DDayError
    from ddaydice.interpreter.core.state import digest
    from ddaydice.interpreter.game import Game
    from ddaydice.interpreter.policies.deciders import Scripted

    try:
        data = json.loads(file.read_text(encoding="utf-8"))
        if data.get("format") != "ddaydice-replay/1":
            raise ValueError("not a ddaydice replay (format ddaydice-replay/1)")
        content = load_or_exit(packs=list(data.get("packs", [])))
        script = Scripted(list(data["choices"]))
        game = Game(content, data["map"], players=int(data["players"]), seed=int(data["seed"]),
                    variant=data.get("variant"), options=data.get("options", []), deciders=script, trace=trace)
        game.run()
    except (ValueError, KeyError, TypeError) as exc:
        raise click.ClickException(f"{file}: cannot replay: {exc}") from exc
    except DDayError as exc:
        raise click.ClickException(f"{file}: the replay diverged: {exc}") from exc
    if trace:
        for event in game.state.log:
            click.echo(f"  turn {event.turn} {event.phase}: {event.detail}")
    same = digest(game.state) == data.get("digest")
    click.echo(f"replayed: the game is {game.state.outcome} after {game.state.turn} turn(s); "
               f"final state {'identical' if same else 'DIFFERENT'} (digest {digest(game.state)})")
    sys.exit(0 if same else 1)
