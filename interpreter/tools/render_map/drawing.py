"""The whole drawing: lay the map out, draw the title, the board and the panel, and put the SVG together."""

from __future__ import annotations

from ddaydice.dsl import schema
from ddaydice.dsl.loader import Content
from ddaydice.interpreter.tools.render_map.board import BoardPainter
from ddaydice.interpreter.tools.render_map.layout import Layout
from ddaydice.interpreter.tools.render_map.panel import Legend, TitleBlock
from ddaydice.interpreter.tools.render_map.style import (
    BOARD_PAD,
    BOX_W,
    BUNKER_FILL,
    FONT,
    INK,
    MARGIN,
    PANEL_GAP,
    PANEL_W,
    PITCH,
    RECON,
    ROW_LABEL_W,
)
from ddaydice.interpreter.tools.render_map.text import num, xml_text


class Drawing:
    """A battle map (optionally as one of its variants plays it), laid out and drawn."""

    def __init__(self, content: Content, bm: schema.BattleMap, var: schema.Variant | None) -> None:
        self.lay = Layout(content, bm, var)

    def svg(self) -> str:
        lay = self.lay
        lay.place()
        for box in lay.boxes.values():
            lay.fill(box)
        cols = [b.col for b in lay.boxes.values()]
        board_w = ROW_LABEL_W + (max(cols) - min(cols)) * PITCH + BOX_W
        title = TitleBlock(lay)
        top = title.draw(board_w + BOARD_PAD + PANEL_GAP + PANEL_W)
        bottom = lay.layout(top + 30)
        conns = lay.connections()
        lay.attach(conns)
        lay.route_all(conns)
        board_x0 = MARGIN + ROW_LABEL_W - BOARD_PAD
        board_x1 = MARGIN + board_w + BOARD_PAD
        board = BoardPainter(lay)
        board.draw(board_x0, board_x1, top, bottom, conns)
        legend = Legend(lay)
        panel_bottom = legend.draw(board_x1 + PANEL_GAP, top)
        width = board_x1 + PANEL_GAP + PANEL_W + MARGIN
        height = max(bottom + 30, panel_bottom) + MARGIN
        head = [
            '<?xml version="1.0" encoding="UTF-8"?>',
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{num(width)}" height="{num(height)}" '
            f'viewBox="0 0 {num(width)} {num(height)}" font-family="{FONT}" fill="{INK}" '
            f'data-map="{xml_text(lay.bm.id)}" data-provenance="{lay.bm.provenance}">',
            f"<title>{xml_text(self.plain_title())}</title>",
            "<defs>",
            f'<pattern id="hatch" patternUnits="userSpaceOnUse" width="6" height="6" '
            f'patternTransform="rotate(45)"><rect width="6" height="6" fill="#ffffff"/>'
            f'<line x1="0" y1="0" x2="0" y2="6" stroke="{RECON}" stroke-width="3"/></pattern>',
            f'<pattern id="concrete" patternUnits="userSpaceOnUse" width="10" height="10">'
            f'<rect width="10" height="10" fill="{BUNKER_FILL}"/><circle cx="3" cy="3" r="0.9" fill="#a59d8b"/>'
            f'<circle cx="8" cy="7" r="0.7" fill="#a59d8b"/></pattern>',
            "</defs>",
            f'<rect width="{num(width)}" height="{num(height)}" fill="#fbf8ef"/>',
        ]
        return "\n".join([*head, *title.out, *board.out, *legend.out, "</svg>"]) + "\n"

    def plain_title(self) -> str:
        bm = self.lay.bm
        base = f"Battle Map {bm.number}: {bm.name}" if bm.number else bm.name
        if self.lay.var is not None:
            base += f" ({self.lay.var.name})"
        return base + (" - RECONSTRUCTION" if bm.provenance == "reconstructed" else "")
