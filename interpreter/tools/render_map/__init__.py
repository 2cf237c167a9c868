"""Draw a battle map as SVG, for an owner of the printed board to check the data against it.

``render_svg(content, map_id, variant)`` is a pure function of the loaded content: no third-party
library, no clock, no randomness; the same content gives the same bytes.

What is drawn, and where it comes from:

* rows from the beach (bottom) to the Bunker (top); each Sector is a box placed by its ``row`` and
  ``column`` (evenly spaced in its row when ``column`` is missing);
* in each box: the Sector's number and name, its DEF shield (black for ``black: true``, several
  values "4/6/8" for DEF by turn), one MGF symbol per MGF die, its Special Damage, the Courage
  printed on a Bunker, the Sector's attributes in plain English (the effect's English rendering),
  the cards placed there, and a starting Sector's resources;
* the lines: an Advance is an arrow upwards with its Courage cost in a marker at its left end, a
  lateral line has arrows at both ends, Landmines are a mine on the line, a Barrier is a thick
  bar across it;
* reconstructed Sectors have a dashed border, a hatched corner and a "reconstructed" tag, and the
  title of a reconstructed map says RECONSTRUCTION;
* a map that joins two boards (Operation Deadstick) is drawn head to head: the first board upright at
  the bottom, the second turned round above it, their Bunkers meeting in the middle.

Text widths are estimated (DejaVu Sans / Verdana metrics), so wrapping needs no font library.

The modules: ``layout`` places the boxes and routes the lines (with ``geometry`` and ``text``); ``canvas``
has the SVG primitives; ``board`` draws the board, ``panel`` the title block and the legend beside it;
``drawing`` puts them together; ``style`` holds the sizes and colours.
"""

from __future__ import annotations

from ddaydice.dsl import schema
from ddaydice.dsl.diagnostics import DDayError, did_you_mean
from ddaydice.dsl.loader import Content
from ddaydice.interpreter.tools.render_map.drawing import Drawing
from ddaydice.interpreter.tools.render_map.text import text_width, wrap

__all__ = ["RenderError", "render_svg", "text_width", "wrap"]


class RenderError(DDayError):
    """The map or the variant asked for does not exist."""


def render_svg(content: Content, map_id: str, variant: str | None = None) -> str:
    """The SVG text of a battle map (optionally as one of its variants plays it)."""
    bm = content.maps.get(map_id)
    if bm is None:
        hint = did_you_mean(map_id, content.maps) or "maps: " + ", ".join(sorted(content.maps))
        raise RenderError(f"no map named '{map_id}' ({hint})")
    var: schema.Variant | None = None
    if variant is not None:
        problem = bm.variant_problem(variant)
        if problem is not None:
            raise RenderError(problem[0] + (f"; {problem[1]}" if problem[1] else ""))
        var = next(v for v in bm.variants if v.id == variant)
    return Drawing(content, bm.played_as(var), var).svg()

