"""The board: its background, edges and seams, the row labels, every Sector's box and every line."""

from __future__ import annotations

import itertools

from ddaydice.interpreter.tools.render_map.canvas import Canvas
from ddaydice.interpreter.tools.render_map.geometry import along, path_length
from ddaydice.interpreter.tools.render_map.layout import Box, Conn, Item, Layout
from ddaydice.interpreter.tools.render_map.style import (
    BOARD,
    BODY_LH,
    BODY_SIZE,
    INK,
    LATERAL,
    MARGIN,
    MINE_RED,
    MUTED,
    PAD,
    PAPER,
    RECON,
    START_GREEN,
)
from ddaydice.interpreter.tools.render_map.text import num, plural, xml_text


class BoardPainter(Canvas):
    """Draws the board of a layout whose boxes are placed and whose lines are routed."""

    def __init__(self, lay: Layout) -> None:
        super().__init__()
        self.lay = lay

    def draw(self, x0: float, x1: float, top: float, bottom: float, conns: list[Conn]) -> None:
        """The board from ``x0`` to ``x1`` and from ``top`` to ``bottom`` (below the last row's boxes)."""
        self.add(f'<rect class="board" x="{num(x0)}" y="{num(top)}" width="{num(x1 - x0)}" '
                 f'height="{num(bottom - top + 30)}" rx="8" fill="{BOARD}" stroke="#8d7b4f" stroke-width="1.5"/>')
        self.board_seams(x0, x1)
        self.add(f'<text x="{num((x0 + x1) / 2)}" y="{num(top + 18)}" font-size="11" '
                 f'text-anchor="middle" fill="#5d4a1f" font-style="italic">'
                 f'{xml_text(self.edge_label(top=True))}</text>')
        self.add(f'<text x="{num((x0 + x1) / 2)}" y="{num(bottom + 22)}" font-size="11" '
                 f'text-anchor="middle" fill="#5d4a1f" font-style="italic">'
                 f'{xml_text(self.edge_label(top=False))}</text>')
        self.row_labels()
        boxes = self.lay.boxes
        for sid in sorted(boxes, key=lambda s: (boxes[s].slot, boxes[s].x)):
            self.draw_box(boxes[sid])
        for c in conns:
            self.draw_conn(c)

    def draw_box(self, box: Box) -> None:
        sec = box.sector
        recon = sec.provenance == "reconstructed"
        classes = ["sector"] + (["bunker"] if sec.bunker else []) + (["start"] if sec.start else []) + \
            (["reconstructed"] if recon else [])
        self.add(f'<g class="{" ".join(classes)}" id="sector-{xml_text(sec.id)}" data-sector="{xml_text(sec.id)}">')
        x, y, w, h = box.x, box.y, box.w, box.h
        dash = ' stroke-dasharray="8 5"' if recon else ""
        if sec.bunker:
            self.add(f'<rect x="{num(x)}" y="{num(y)}" width="{num(w)}" height="{num(h)}" rx="3" fill="url(#concrete)" '
                     f'stroke="#000000" stroke-width="5"{dash}/>')
            self.add(f'<rect x="{num(x + 6)}" y="{num(y + 6)}" width="{num(w - 12)}" height="{num(h - 12)}" rx="2" '
                     f'fill="none" stroke="#000000" stroke-width="1.5"/>')
        else:
            self.add(f'<rect x="{num(x)}" y="{num(y)}" width="{num(w)}" height="{num(h)}" rx="6" fill="{PAPER}" '
                     f'stroke="{INK}" stroke-width="2"{dash}/>')
        # header: number badge, name, DEF shield
        bx, by = x + PAD + 14, y + PAD + 14
        if sec.bunker:
            self.add(f'<rect x="{num(bx - 14)}" y="{num(by - 14)}" width="28" height="28" fill="#000000"/>')
            self.text(bx, by + 5, "B", size=15, bold=True, fill="#ffffff", anchor="middle")
        elif sec.number is not None:
            self.add(f'<circle cx="{num(bx)}" cy="{num(by)}" r="14" fill="{INK}"/>')
            self.text(bx, by + 5, str(sec.number), size=14, bold=True, fill="#ffffff", anchor="middle")
        for i, line in enumerate(box.name_lines):
            self.text(x + PAD + 34, y + PAD + 14 + i * 16, line, size=13, bold=True)
        if sec.bunker and "bunker" not in sec.name.lower():
            self.text(x + PAD + 34, y + PAD + 14 + len(box.name_lines) * 16, "BUNKER", size=10, bold=True,
                      fill="#000000")
        self.shield(x + w - PAD - box.shield_w, y + PAD - 4, box.shield_w, 46, self.lay.def_text(sec), black=sec.black)
        cy = y + PAD + max(46.0, len(box.name_lines) * 16 + 14)
        if sec.mgf > 0:
            muted = "mgf" in self.lay.ignore
            for k in range(sec.mgf):
                self.mgf_icon(x + PAD + 9 + k * 22, cy + 8, muted=muted)
            self.text(x + PAD + sec.mgf * 22 + 4, cy + 12, f"MGF ({plural(sec.mgf, 'die', 'dice')})"
                      + (" - ignored" if muted else ""), size=10, bold=True, fill=MUTED if muted else MINE_RED)
            cy += 22
        for item in box.items:
            self.draw_item(item, x, cy)
            cy += len(item.lines) * BODY_LH + 4
        if box.start_lines:
            bh = len(box.start_lines) * BODY_LH + 8
            top = y + h - (20 if recon else 6) - (6 if sec.bunker else 0) - bh
            self.add(f'<rect class="start-banner" x="{num(x + 4)}" y="{num(top)}" width="{num(w - 8)}" '
                     f'height="{num(bh)}" rx="3" fill="{START_GREEN}"/>')
            for i, line in enumerate(box.start_lines):
                self.text(x + PAD, top + 15 + i * BODY_LH, line, size=BODY_SIZE, bold=i == 0, fill="#ffffff")
        if recon:
            s = 22.0
            self.add(f'<path class="recon-corner" d="M{num(x + w)},{num(y + h - s)} L{num(x + w)},{num(y + h)} '
                     f'L{num(x + w - s)},{num(y + h)} Z" fill="url(#hatch)" stroke="{RECON}" stroke-width="1"/>')
            self.text(x + w - s - 4, y + h - (12 if sec.bunker else 6), "reconstructed", size=9, italic=True,
                      fill=RECON, anchor="end", cls="recon-tag")
        self.add("</g>")

    def draw_item(self, item: Item, x: float, top: float) -> None:
        fill = MUTED if item.muted else INK
        indent = 10.0
        if item.kind == "sd":
            fill = MUTED if item.muted else MINE_RED
            self.add(f'<path d="M{num(x + PAD + 5)},{num(top + 1)} L{num(x + PAD + 11)},{num(top + 12)} '
                     f'L{num(x + PAD - 1)},{num(top + 12)} Z" fill="{fill}"/>')
            indent = 16.0
        elif item.kind == "cost":
            self.courage_marker(x + PAD + 9, top + 6, item.value, cls="courage bunker-cost")
            indent = 26.0
        elif item.kind == "card":
            self.add(f'<rect x="{num(x + PAD)}" y="{num(top + 1)}" width="9" height="12" rx="1.5" fill="#ffffff" '
                     f'stroke="{fill}" stroke-width="1.3"/>')
            indent = 16.0
        elif item.kind == "attr":
            self.add(f'<circle cx="{num(x + PAD + 3)}" cy="{num(top + 6.5)}" r="2" fill="{fill}"/>')
        else:
            indent = 0.0
        for i, line in enumerate(item.lines):
            self.text(x + PAD + indent, top + 11 + i * BODY_LH, line, size=BODY_SIZE, fill=fill,
                      bold=item.kind == "card", italic=item.kind == "note")

    def draw_conn(self, c: Conn) -> None:
        path = c.path
        mines_muted = "landmines" in self.lay.ignore
        colour = LATERAL if c.kind == "lateral" else INK
        if c.landmines and not mines_muted:
            colour = MINE_RED
        classes = ["line", c.kind] + (["landmines"] if c.landmines else []) + (["barrier"] if c.barrier else []) \
            + (["both-ways"] if c.both_ways else [])
        self.add(f'<g class="{" ".join(classes)}" data-from="{xml_text(c.a)}" data-to="{xml_text(c.b)}">')
        d = "M" + " L".join(f"{num(px)},{num(py)}" for px, py in path)
        dash = ' stroke-dasharray="6 4"' if c.barrier else ""
        width = 2.4 if c.kind == "advance" else 2.0
        self.add(f'<path d="{d}" fill="none" stroke="{colour}" stroke-width="{width}"{dash} '
                 f'stroke-linejoin="round"/>')
        # arrowheads: at the far end of an Advance, at both ends of a lateral line
        end_dir = along(path, path_length(path) - 0.01)[1]
        self.arrowhead(path[-1], end_dir[0], end_dir[1], colour)
        if c.kind == "lateral" or c.both_ways:
            sx, sy = along(path, 0.01)[1]
            self.arrowhead(path[0], -sx, -sy, colour)
        total = path_length(path)
        mid, (ux, uy) = along(path, total / 2)
        if c.barrier:
            self.barrier(mid[0], mid[1], ux, uy)
        if c.landmines:
            at = mid if not c.barrier else along(path, total / 2 + 30)[0]
            self.mine(at[0], at[1], muted=mines_muted)
        if c.kind == "advance" and (c.cost is not None or not self.priced(c.b)):
            # the Courage cost is printed at the left end of the line (the lower end of a line that
            # goes straight up)
            dx = path[-1][0] - path[0][0]
            left_first = dx > 0 if abs(dx) > 30 else path[0][1] > path[-1][1]
            crowded = c.barrier or c.landmines
            first = along(path, 0.01)[1] if left_first else along(path, total - 0.01)[1]
            dist = 16.0 if crowded and total < 130 else max(30.0, 20.0 / max(abs(first[1]), 0.05))
            dist = min(dist, total / 3)
            at = along(path, dist)[0] if left_first else along(path, total - dist)[0]
            self.courage_marker(at[0], at[1], c.cost)
        self.add("</g>")

    def priced(self, sid: str) -> bool:
        box = self.lay.boxes.get(sid)
        return box is not None and box.sector.cost is not None

    def row_labels(self) -> None:
        for slot, (y, h) in sorted(self.lay.slot_y.items()):
            board, row = self.lay.slot_rows[slot]
            boxes = [b for b in self.lay.boxes.values() if b.slot == slot]
            label = "Bunker" if all(b.sector.bunker for b in boxes) else f"Row {row}"
            self.text(MARGIN, y + h / 2 + 4, label, size=12, bold=True, fill="#5d4a1f", cls="row-label")
            if row == min(r for b2, r in self.lay.slot_rows.values() if b2 == board) and self.lay.board_names[board]:
                self.text(MARGIN, y + h / 2 + 20, "beach", size=10, italic=True, fill="#5d4a1f")

    def edge_label(self, *, top: bool) -> str:
        names = self.lay.board_names
        if len(names) > 1:
            return f"{names[-1]}: its beach at the top (turned head to head)" if top else \
                f"{names[0]}: its beach at the bottom"
        return "inland: the Bunker" if top else "the beach"

    def board_seams(self, x0: float, x1: float) -> None:
        """Between two boards: a seam line and each board's name."""
        slots = sorted(self.lay.slot_y)
        for lower, upper in itertools.pairwise(slots):
            if self.lay.slot_rows[lower][0] == self.lay.slot_rows[upper][0]:
                continue
            y_low = self.lay.slot_y[lower][0]
            y_up = self.lay.slot_y[upper][0] + self.lay.slot_y[upper][1]
            seam = (y_low + y_up) / 2
            self.add(f'<path class="seam" d="M{num(x0)},{num(seam)} H{num(x1)}" stroke="#8d7b4f" stroke-width="3" '
                     f'stroke-dasharray="14 6"/>')
            self.text(x1 - 8, seam - 6, f"▲ {self.lay.board_names[self.lay.slot_rows[upper][0]]}", size=11, bold=True,
                      fill="#5d4a1f", anchor="end")
            self.text(x1 - 8, seam + 16, f"▼ {self.lay.board_names[self.lay.slot_rows[lower][0]]}", size=11, bold=True,
                      fill="#5d4a1f", anchor="end")

