"""``dday render MAP``: a battle map drawn as SVG, to compare with the printed board."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from ddaydice.dsl.writing import write_atomically, write_problem
from ddaydice.interpreter.cli.common import check_map, echo, load_or_exit, pack_option


@click.command("render")
@click.argument("map_id", metavar="MAP")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path),
              help="Write the SVG to this file (atomically); without it, the SVG goes to standard output.")
@click.option("--variant", help="Draw the map as a variant plays it (exercise-tiger: practice-run, ...).")
@pack_option("An expansion to load for its maps")
def render(map_id: str, output: Path | None, variant: str | None, packs: tuple[str, ...]) -> None:
    """Draw a battle map as SVG: rows, Sectors, DEF shields, MGF, lines, Courage costs, Landmines,
    Barriers, starting resources and every Sector attribute in plain English, with a legend.

    Reconstructed maps and Sectors are marked as such, so that an owner of the printed board
    can check the data against it.
    """
    from ddaydice.interpreter.tools.render_map import RenderError, render_svg

    if output is not None:
        problem = write_problem(output)
        if problem is not None:
            raise click.UsageError(f"-o {output}: {problem}")
    content = load_or_exit(packs=list(packs))
    check_map(content, map_id, packs)
    try:
        svg = render_svg(content, map_id, variant)
    except RenderError as exc:
        raise click.UsageError(str(exc)) from exc
    bm = content.maps[map_id]
    if output is None:
        sys.stdout.write(svg)
        sys.stdout.flush()
    else:
        try:
            write_atomically(output, svg)
        except OSError as exc:
            raise click.ClickException(f"cannot write {output}: {exc.strerror or exc}") from exc
        echo(f"wrote {output} ({bm.name}{', ' + variant if variant else ''})", err=True)
    if bm.provenance == "reconstructed":
        echo(f"note: {bm.name} is a RECONSTRUCTION, not the printed board (the drawing says so)", err=True)
