"""The SVG primitives of the drawing: text, DEF shields, MGF sights, Courage markers, Landmines, Barriers and
arrowheads, appended as lines of SVG to ``out``."""

from __future__ import annotations

import math

from ddaydice.interpreter.tools.render_map.geometry import Point
from ddaydice.interpreter.tools.render_map.style import BODY_SIZE, COURAGE, INK, MINE_RED, MUTED
from ddaydice.interpreter.tools.render_map.text import num, xml_text


class Canvas:
    """A list of SVG elements, and the shapes of the board drawn into it."""

    def __init__(self) -> None:
        self.out: list[str] = []

    def add(self, s: str) -> None:
        self.out.append(s)

    def text(self, x: float, y: float, s: str, *, size: float = BODY_SIZE, bold: bool = False,
             italic: bool = False, fill: str = INK, anchor: str = "start", cls: str = "") -> None:
        attrs_ = [f'x="{num(x)}"', f'y="{num(y)}"', f'font-size="{num(size)}"']
        if bold:
            attrs_.append('font-weight="bold"')
        if italic:
            attrs_.append('font-style="italic"')
        if fill != INK:
            attrs_.append(f'fill="{fill}"')
        if anchor != "start":
            attrs_.append(f'text-anchor="{anchor}"')
        if cls:
            attrs_.append(f'class="{cls}"')
        self.add(f"<text {' '.join(attrs_)}>{xml_text(s)}</text>")

    def shield(self, x: float, y: float, w: float, h: float, label: str, *, black: bool, size: float = 15,
               caption: bool = True) -> None:
        fill, ink = ("#000000", "#ffffff") if black else ("#ffffff", "#000000")
        d = (f"M{num(x)},{num(y)} L{num(x + w)},{num(y)} L{num(x + w)},{num(y + h * 0.55)} "
             f"Q{num(x + w)},{num(y + h * 0.85)} {num(x + w / 2)},{num(y + h)} "
             f"Q{num(x)},{num(y + h * 0.85)} {num(x)},{num(y + h * 0.55)} Z")
        cls = "shield black" if black else "shield white"
        self.add(f'<path class="{cls}" d="{d}" fill="{fill}" stroke="#000000" stroke-width="2"/>')
        if caption:
            self.text(x + w / 2, y + 9, "DEF", size=7, bold=True, fill=ink, anchor="middle")
            self.text(x + w / 2, y + h * 0.62, label, size=size, bold=True, fill=ink, anchor="middle")
        else:
            self.text(x + w / 2, y + h * 0.5, label, size=size, bold=True, fill=ink, anchor="middle")

    def mgf_icon(self, x: float, y: float, *, muted: bool = False) -> None:
        """A gun sight: one per MGF die."""
        col = MUTED if muted else MINE_RED
        self.add(f'<g class="mgf"><circle cx="{num(x)}" cy="{num(y)}" r="7" fill="#ffffff" stroke="{col}" '
                 f'stroke-width="2"/><path d="M{num(x - 9)},{num(y)} H{num(x + 9)} M{num(x)},{num(y - 9)} '
                 f'V{num(y + 9)}" stroke="{col}" stroke-width="1.6"/>'
                 f'<circle cx="{num(x)}" cy="{num(y)}" r="2" fill="{col}"/></g>')

    def courage_marker(self, x: float, y: float, value: int | None, *, cls: str = "courage") -> None:
        self.add(f'<g class="{cls}"><circle cx="{num(x)}" cy="{num(y)}" r="10" fill="{COURAGE}" stroke="#ffffff" '
                 f'stroke-width="2"/>')
        self.text(x, y + 4, "?" if value is None else str(value), size=12, bold=True, fill="#ffffff",
                  anchor="middle")
        self.add("</g>")

    def mine(self, x: float, y: float, *, muted: bool = False) -> None:
        col = MUTED if muted else "#111111"
        spikes = " ".join(
            f"M{num(x + 6 * math.cos(a))},{num(y + 6 * math.sin(a))} L{num(x + 11 * math.cos(a))},"
            f"{num(y + 11 * math.sin(a))}" for a in (k * math.pi / 4 for k in range(8)))
        self.add(f'<g class="mine"><circle cx="{num(x)}" cy="{num(y)}" r="13" fill="#ffffff" stroke="{MINE_RED}" '
                 f'stroke-width="1.5"/><path d="{spikes}" stroke="{col}" stroke-width="2.2"/>'
                 f'<circle cx="{num(x)}" cy="{num(y)}" r="6" fill="{col}"/></g>')

    def barrier(self, x: float, y: float, ux: float, uy: float, half: float = 24.0) -> None:
        """A thick bar across the line, with barbs: the line is impassable."""
        nx, ny = -uy, ux
        x0, y0, x1, y1 = x - nx * half, y - ny * half, x + nx * half, y + ny * half
        barbs = " ".join(
            f"M{num(x + nx * t - 4)},{num(y + ny * t - 4)} L{num(x + nx * t + 4)},{num(y + ny * t + 4)} "
            f"M{num(x + nx * t - 4)},{num(y + ny * t + 4)} L{num(x + nx * t + 4)},{num(y + ny * t - 4)}"
            for t in (-half * 0.6, 0.0, half * 0.6))
        self.add(f'<g class="barrier"><path d="M{num(x0)},{num(y0)} L{num(x1)},{num(y1)}" stroke="#4a2c0f" '
                 f'stroke-width="9" stroke-linecap="round"/><path d="{barbs}" stroke="#f6f1e3" '
                 f'stroke-width="1.6"/></g>')

    def arrowhead(self, tip: Point, ux: float, uy: float, colour: str) -> None:
        bx, by = tip[0] - ux * 11, tip[1] - uy * 11
        nx, ny = -uy * 5, ux * 5
        self.add(f'<path d="M{num(tip[0])},{num(tip[1])} L{num(bx + nx)},{num(by + ny)} '
                 f'L{num(bx - nx)},{num(by - ny)} Z" fill="{colour}"/>')
