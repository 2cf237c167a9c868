"""The ``dday`` command line: the ``main`` group, with one module per command registered on it.

=============  ==========================================
``validate``   :mod:`ddaydice.interpreter.cli.validate`
``list``       :mod:`ddaydice.interpreter.cli.listing`
``scenario``   :mod:`ddaydice.interpreter.cli.scenario` (``scenario run``)
``explain``    :mod:`ddaydice.interpreter.cli.explain`
``simulate``   :mod:`ddaydice.interpreter.cli.simulate`
``play``       :mod:`ddaydice.interpreter.cli.play`
``replay``     :mod:`ddaydice.interpreter.cli.replay`
``card``       :mod:`ddaydice.interpreter.cli.card`
``conflicts``  :mod:`ddaydice.interpreter.cli.conflicts`
``render``     :mod:`ddaydice.interpreter.cli.render`
``compare``    :mod:`ddaydice.interpreter.cli.compare`
``impact``     :mod:`ddaydice.interpreter.cli.impact`
``sweep``      :mod:`ddaydice.interpreter.cli.sweep`
``lsp``        :mod:`ddaydice.interpreter.cli.lsp` (a language server for editors)
``grammar``    :mod:`ddaydice.interpreter.cli.grammar` (TextMate grammars for editors)
=============  ==========================================

What several commands share is :mod:`ddaydice.interpreter.cli.common`. A command module imports ``common`` and
never this module. Heavy modules are imported inside each command, so ``dday --help`` starts fast.
Exit status: 0 when all is well, 1 when content has errors (or a scenario fails),
2 for a usage error or unusable input.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import sys
from typing import Any

import click

from ddaydice.interpreter.cli import (
    card,
    compare,
    conflicts,
    explain,
    grammar,
    impact,
    listing,
    lsp,
    new,
    play,
    render,
    replay,
    scenario,
    schema,
    simulate,
    sweep,
    validate,
)
from ddaydice.interpreter.cli.common import SuggestingGroup, echo


class Dday(SuggestingGroup):
    """The ``dday`` group: every command runs through :meth:`main`, which ends a failed write of the output in a
    one-line error, never a traceback."""

    words: tuple[str, ...] = ()  # the command line's words (after 'dday'), as given to main

    def main(self, *args: Any, **kwargs: Any) -> Any:
        """Run the command line. A write to standard output that fails (a full disk, a closed file) ends the
        command with one line on standard error and status 1; a pipe closed by its reader (``| head``) ends it
        quietly (click's own handling)."""
        given = kwargs.get("args", args[0] if args else None)
        self.words = tuple(str(w) for w in (sys.argv[1:] if given is None else given))
        try:
            return super().main(*args, **kwargs)
        except OSError as exc:
            with contextlib.suppress(OSError, ValueError):  # what is left in the buffer goes nowhere, quietly
                os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            what = f"{exc.filename}: " if exc.filename else "cannot write the output: "
            echo(f"Error: {what}{exc.strerror or exc}", err=True)  # made printable, as every error
            sys.exit(1)

    def invoke(self, ctx: click.Context) -> Any:
        """Run the command. A usage error (exit status 2) of a command asked for ``--format json`` also prints a
        JSON object on standard output, ``{"error": "usage", "message": ..., "exit_status": 2}``, so that a
        machine reading the output always reads JSON; the message goes to standard error as for text."""
        try:
            return super().invoke(ctx)
        except click.UsageError as exc:
            if asks_json(self.words):
                click.echo(json.dumps({"error": "usage", "message": exc.format_message(),
                                       "exit_status": exc.exit_code}, indent=2, ensure_ascii=False))
            raise


def asks_json(words: tuple[str, ...]) -> bool:
    """Whether a command line asks for JSON output (``--format json`` or ``--format=json``)."""
    return "--format=json" in words or any(a == "--format" and b == "json" for a, b in itertools.pairwise(words))


@click.group(cls=Dday, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="ddaydice", prog_name="dday")
def main() -> None:
    """A rules-as-data engine for D-Day Dice.

    Every card, Sector attribute and rule is data written in a small effect
    language; the engine applies them in the rulebook's order of precedence.
    """


for _command in (validate.validate, listing.list_, scenario.scenario, explain.explain, simulate.simulate,
                 play.play, replay.replay, card.card, conflicts.conflicts, render.render,
                 schema.schema, new.new, lsp.lsp, grammar.grammar):
    main.add_command(_command)
for _command in (compare.compare, impact.impact, sweep.sweep):  # simulation as a balance tool (docs/simulation.md)
    main.add_command(_command)
