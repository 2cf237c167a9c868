"""``dday schema [KIND]``: the JSON Schema of a kind of content file, for editors and content CI."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from ddaydice.dsl.writing import write_problem
from ddaydice.interpreter.cli.common import echo, write_file


def kinds() -> dict[str, tuple[type[Any], str]]:
    """Every kind of file a schema is published for: the content files (dsl/json_schema.py) and scenarios.
    Imported only when asked, so that ``dday --help`` starts fast."""
    from ddaydice.dsl.json_schema import KINDS
    from ddaydice.interpreter.tools.scenario_file import ScenarioFile

    return {**KINDS, "scenario": (ScenarioFile, "a scenario: PACK/scenarios/*.yaml, any file run by dday scenario run "
                                                "(docs/scenarios.md)")}


def schema_text(kind: str) -> str:
    from ddaydice.dsl.json_schema import schema_for

    cls, where = kinds()[kind]
    return json.dumps(schema_for(cls, where), indent=2, ensure_ascii=False) + "\n"


@click.command("schema")
@click.argument("kind", required=False)
@click.option("-o", "--output", type=click.Path(path_type=Path),
              help="Write to this file (with KIND) or, without KIND, every schema into this folder as KIND.json; "
                   "atomically. Without it, the schema goes to standard output.")
def schema(kind: str | None, output: Path | None) -> None:
    """The JSON Schema of a kind of content file, generated from the classes the loader reads it into.

    Without KIND, lists the kinds (or, with -o DIR, writes them all). Name the schema on a file's first line
    for a YAML language server (VS Code's YAML extension) to complete and check its keys as you type:

        # yaml-language-server: $schema=../schemas/cards.json

    The schema checks a file's shape; `dday validate` checks the rest (ids, effects, cross-references).
    """
    from ddaydice.dsl.diagnostics import did_you_mean

    known = kinds()
    if kind is not None and kind not in known:
        hint = did_you_mean(kind, known) or "kinds: " + ", ".join(sorted(known))
        raise click.BadParameter(f"no kind of content file '{kind}' ({hint})", param_hint="KIND")
    if kind is not None:
        if output is None:
            click.echo(schema_text(kind), nl=False)
            return
        if output.is_dir():
            raise click.UsageError(f"{output} is a folder: give a file name, or leave out KIND to write them all")
        problem = write_problem(output)
        if problem is not None:
            raise click.UsageError(f"-o {output}: {problem}")
        write_file(output, schema_text(kind))
        echo(f"wrote {output}", err=True)
        return
    if output is None:
        width = max(map(len, known))
        for name, (_cls, where) in sorted(known.items()):
            click.echo(f"  {name:<{width}}  {where}")
        return
    if output.exists() and not output.is_dir():
        raise click.UsageError(f"{output} is a file: without KIND, -o names the folder to write every schema into")
    problem = write_problem(output, folder=True)
    if problem is not None:
        raise click.UsageError(f"-o {output}: {problem}")
    for name in sorted(known):
        write_file(output / f"{name}.json", schema_text(name))
    echo(f"wrote {len(known)} schemas into {output}", err=True)


