"""``dday grammar``: the TextMate grammars of the effect language, for syntax colour in editors."""

from __future__ import annotations

import json
from pathlib import Path

import click

from ddaydice.dsl.writing import write_atomically, write_problem
from ddaydice.interpreter.cli.common import echo, load_or_exit, pack_option


def grammar_files(packs: tuple[str, ...]) -> dict[str, str]:
    """Every file of the editor extension, by name, as text: generated from the grammar, the registry of words
    and the names of the content loaded (the bundled base game, every bundled pack, and those of ``packs``)."""
    from ddaydice.dsl.textmate import files

    content = load_or_exit(packs=["all", *packs])
    return {name: json.dumps(data, indent=2, ensure_ascii=False) + "\n"
            for name, data in files(content.vocab).items()}


@click.command("grammar")
@click.option("-o", "--output", type=click.Path(path_type=Path, file_okay=False),
              help="Write the extension's files into this folder (atomically). Without it, the effect language's "
                   "grammar goes to standard output.")
@pack_option("Also colour the names this pack defines (its values, permissions, kinds, tags; every bundled one's "
             "are)")
def grammar(output: Path | None, packs: tuple[str, ...]) -> None:
    """The TextMate grammars of the effect language: syntax colour for effects in VS Code (and any editor that
    reads TextMate grammars), inside the 'effect: |' blocks of the YAML content files too.

    Generated from the effect language's grammar (dsl/effect.lark), its registry of words (dsl/words.py) and
    the names the rules define. The bundled ones are in editors/vscode/, an extension folder: copy it into
    ~/.vscode/extensions/ (docs/modding.md, "Editor support").
    """
    from ddaydice.dsl.textmate import GRAMMAR_FILE

    problem = write_problem(output, folder=True) if output is not None else None
    if problem is not None:
        raise click.UsageError(f"-o {output}: {problem}")
    texts = grammar_files(packs)
    if output is None:
        click.echo(texts[GRAMMAR_FILE], nl=False)
        return
    try:
        output.mkdir(parents=True, exist_ok=True)
        for name, text in sorted(texts.items()):
            write_atomically(output / name, text)
    except OSError as exc:
        raise click.ClickException(f"cannot write into {output}: {exc.strerror or exc}") from exc
    echo(f"wrote {len(texts)} files into {output}", err=True)
