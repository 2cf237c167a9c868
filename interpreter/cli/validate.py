"""``dday validate [PATH...]``: check content (YAML, keys, types, references, provenance and every effect)."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from ddaydice.interpreter.cli.common import check_paths, echo_diagnostics


@click.command()
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@click.option("--root", type=click.Path(path_type=Path, file_okay=False),
              help="Validate this content tree (rules/, cards/, maps/, expansions/) instead of the bundled one.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="json prints a list of {file, line, column, code, severity, message}.")
@click.option("--max-errors", type=click.IntRange(min=1), default=50, show_default=True,
              help="Show at most this many diagnostics (the rest are counted).")
@click.option("--pack", "packs", multiple=True,
              help="With PATHs: also load this bundled expansion under them (repeatable; 'all').")
def validate(paths: tuple[Path, ...], root: Path | None, fmt: str, max_errors: int, packs: tuple[str, ...]) -> None:
    """Check content: YAML, keys, types, references, provenance and every effect.

    With no PATH, all bundled content (with every bundled expansion) is checked.
    A PATH may be a content file or an expansion folder; it is checked on top of
    the bundled base game, with the bundled expansions its pack.yaml requires
    and those named by --pack.
    """
    import time

    from ddaydice.dsl.validate import validate as check

    check_paths(root, paths)
    started = time.perf_counter()
    content, diags = check(paths, root=root, packs=packs)
    elapsed = time.perf_counter() - started
    errors = [d for d in diags if d.severity == "error"]
    echo_diagnostics(diags, fmt, max_errors)
    if fmt == "text":
        if content is None:
            warnings = len(diags) - len(errors)
            click.echo(f"{len(errors)} error(s), {warnings} warning(s)", err=True)
        else:
            n_effects = sum(1 for e in content.effects.values() if e.tree.clauses)
            click.echo(f"ok: {len(content.cards)} cards, {len(content.maps)} maps, {len(content.options)} optional "
                       f"rules, {len(content.packs)} expansions, {n_effects} effects checked in {elapsed:.2f}s",
                       err=True)
            note = content.award_deck_note()
            if note:
                click.echo(f"note: {note}", err=True)
    sys.exit(1 if errors else 0)
