"""The title block above the board and the panel beside it (the legend and the map's lists)."""

from __future__ import annotations

from ddaydice.dsl.setups import offered_vehicles
from ddaydice.interpreter.tools.render_map.canvas import Canvas
from ddaydice.interpreter.tools.render_map.layout import Layout
from ddaydice.interpreter.tools.render_map.style import (
    BODY_LH,
    BODY_SIZE,
    INK,
    LATERAL,
    MARGIN,
    MINE_RED,
    PANEL_W,
    PAPER,
    RECON,
    START_GREEN,
)
from ddaydice.interpreter.tools.render_map.text import num, wrap

IGNORE_LABELS = {
    "attributes": "Sector attributes",
    "mgf": "Machine Gun Fire (MGF)",
    "landmines": "Landmines",
    "faces": "die faces",
    "skulls": "Skulls",
    "rwb": "RWB bonuses",
    "requirements": "Sector requirements",
    "special-damage": "Special Damage",
    "stars": "Star results",
    "tools": "Tool results",
    "awards": "Awards",
}


class TitleBlock(Canvas):
    """The map's title, its provenance, its text and the variant drawn."""

    def __init__(self, lay: Layout) -> None:
        super().__init__()
        self.lay = lay

    def draw(self, width: float) -> float:
        """Draws the title block ``width`` wide; returns where the board can start below it."""
        bm = self.lay.bm
        y = MARGIN + 22
        head = f"BATTLE MAP {bm.number} · {bm.name}" if bm.number else f"SCENARIO · {bm.name}"
        if self.lay.var is not None:
            head += f" — {self.lay.var.name.split(': ', 1)[-1]}"
        for line in wrap(head, width, 24, bold=True):
            self.text(MARGIN, y, line, size=24, bold=True, cls="title")
            y += 30
        if bm.provenance == "reconstructed":
            status = ("RECONSTRUCTION — not the printed board: the rulebook gives only some notes on this map; "
                      "the layout and every number it does not state are ours.")
            colour = MINE_RED
        elif bm.provenance == "printed-board":
            status = "As printed: read off the printed board."
            colour = START_GREEN
        else:
            status = "From the rulebook."
            colour = START_GREEN
        for line in wrap(status, width, 14, bold=True):
            self.text(MARGIN, y, line, size=14, bold=True, fill=colour, cls="provenance")
            y += 19
        for line in wrap(" ".join(bm.text.split()), width, 12):
            self.text(MARGIN, y, line, size=12, italic=True)
            y += 16
        if self.lay.var is not None:
            y += 4
            ignored = [IGNORE_LABELS.get(i, i) for i in self.lay.var.ignore]
            if self.lay.var.keep_faces:
                faces = {f.id: f.name for f in self.lay.content.dice.faces}
                kept = ", ".join(faces.get(f, f) for f in self.lay.var.keep_faces)
                ignored.append(f"every die result except {kept}")
            line = f"Variant: {self.lay.var.name}. " + (
                "Ignored: " + "; ".join(ignored) + "." if ignored else "Nothing is ignored: every attribute applies.")
            for part in wrap(line, width, 12, bold=True):
                self.text(MARGIN, y, part, size=12, bold=True, fill="#6a1b9a", cls="variant")
                y += 16
            for part in wrap(" ".join(self.lay.var.text.split()), width, 12):
                self.text(MARGIN, y, part, size=12, fill="#6a1b9a")
                y += 16
        return y + 14


class Legend(Canvas):
    """The legend of the symbols and the map's facts: players, Special Damage, cards, tables, variants, notes."""

    def __init__(self, lay: Layout) -> None:
        super().__init__()
        self.lay = lay

    def draw(self, x: float, top: float) -> float:
        """The legend and the map's lists; returns its bottom."""
        w = PANEL_W
        self.add(f'<g class="legend" transform="translate({num(x)},{num(top)})">')
        y = 24.0
        self.text(12, y, "LEGEND", size=15, bold=True)
        y += 12
        rows: list[tuple[str, str]] = [
            ("shield", "DEF: Soldiers lost in each Combat here; 4/6/8 = DEF on the 1st/2nd/3rd turn here"),
            ("black", "Black shield: can't stay here (leave at the next Phase 4)"),
            ("mgf", "Machine Gun Fire: one sight per MGF die"),
            ("sd", "Special Damage, dealt by each 6 an MGF die rolls"),
            ("advance", "Advance: goes up only; the marker at its left end is its Courage cost"),
            ("lateral", "Lateral line: both ways"),
            ("mine", "Landmines on the line: crossing it costs 1 die of losses"),
            ("barrier", "Barrier: impassable line"),
            ("start", "Starting Sector and its starting resources"),
            ("card", "A card placed here: free for the first Unit to enter"),
            ("bunker", "Bunker: the objective"),
            ("recon", "Reconstructed: not read off a printed board"),
        ]
        for kind, label in rows:
            lines = wrap(label, w - 76, BODY_SIZE)
            h = max(36.0, len(lines) * BODY_LH + 14)
            gx, gy = 12.0, y + h / 2
            self.legend_glyph(kind, gx, gy)
            for i, line in enumerate(lines):
                self.text(70, y + h / 2 - (len(lines) - 1) * BODY_LH / 2 + 4 + i * BODY_LH, line)
            y += h
        y += 10
        for title, body in self.panel_facts():
            self.text(12, y + 12, title, size=12, bold=True)
            y += 16
            for line in wrap(body, w - 24, BODY_SIZE):
                self.text(12, y + 12, line)
                y += BODY_LH
            y += 8
        self.add("</g>")
        bottom = top + y + 10
        self.out.insert(0, f'<rect class="legend-frame" x="{num(x)}" y="{num(top)}" width="{num(w)}" '
                           f'height="{num(y + 10)}" rx="6" fill="#ffffff" stroke="{INK}" stroke-width="1.5"/>')
        return bottom

    def legend_glyph(self, kind: str, x: float, y: float) -> None:
        if kind == "shield":
            self.shield(x + 6, y - 17, 40, 34, "4/6/8", black=False, size=10, caption=False)
        elif kind == "black":
            self.shield(x + 10, y - 17, 32, 34, "6", black=True, size=13, caption=False)
        elif kind == "mgf":
            self.mgf_icon(x + 26, y)
        elif kind == "sd":
            self.add(f'<path d="M{num(x + 26)},{num(y - 7)} L{num(x + 33)},{num(y + 6)} L{num(x + 19)},{num(y + 6)} Z" '
                     f'fill="{MINE_RED}"/>')
        elif kind == "advance":
            self.add(f'<path d="M{num(x + 26)},{num(y + 16)} V{num(y - 12)}" stroke="{INK}" stroke-width="2.4"/>')
            self.arrowhead((x + 26, y - 16), 0, -1, INK)
            self.courage_marker(x + 26, y + 6, 2)
        elif kind == "lateral":
            self.add(f'<path d="M{num(x + 4)},{num(y)} H{num(x + 48)}" stroke="{LATERAL}" stroke-width="2"/>')
            self.arrowhead((x, y), -1, 0, LATERAL)
            self.arrowhead((x + 52, y), 1, 0, LATERAL)
        elif kind == "mine":
            self.add(f'<path d="M{num(x)},{num(y)} H{num(x + 52)}" stroke="{MINE_RED}" stroke-width="2"/>')
            self.mine(x + 26, y)
        elif kind == "barrier":
            self.add(f'<path d="M{num(x)},{num(y)} H{num(x + 52)}" stroke="{INK}" stroke-width="2" '
                     f'stroke-dasharray="6 4"/>')
            self.barrier(x + 26, y, 1, 0, half=15)
        elif kind == "start":
            self.add(f'<rect x="{num(x)}" y="{num(y - 9)}" width="52" height="18" rx="3" fill="{START_GREEN}"/>')
            self.text(x + 26, y + 4, "START", size=9, bold=True, fill="#ffffff", anchor="middle")
        elif kind == "card":
            self.add(f'<rect x="{num(x + 20)}" y="{num(y - 8)}" width="12" height="16" rx="2" fill="#ffffff" '
                     f'stroke="{INK}" stroke-width="1.3"/>')
        elif kind == "bunker":
            self.add(f'<rect x="{num(x)}" y="{num(y - 13)}" width="52" height="26" fill="url(#concrete)" '
                     f'stroke="#000000" stroke-width="4"/>')
        elif kind == "recon":
            self.add(f'<rect x="{num(x)}" y="{num(y - 13)}" width="52" height="26" rx="4" fill="{PAPER}" '
                     f'stroke="{INK}" stroke-width="2" stroke-dasharray="8 5"/>')
            self.add(f'<path d="M{num(x + 52)},{num(y + 1)} L{num(x + 52)},{num(y + 13)} '
                     f'L{num(x + 40)},{num(y + 13)} Z" fill="url(#hatch)" stroke="{RECON}"/>')

    def panel_facts(self) -> list[tuple[str, str]]:
        bm, var = self.lay.bm, self.lay.var
        facts: list[tuple[str, str]] = []
        lo, hi = bm.players
        facts.append(("Players", f"{lo} to {hi}" if lo != hi else str(lo)))
        dealt: dict[str, list[str]] = {}
        for sec in bm.sectors:
            sd = self.lay.special_damage(sec)
            if sd is not None:
                dealt.setdefault(sd, []).append(sec.name)
        for sd, where in sorted(dealt.items()):
            name = self.lay.special_damage_name(sd).removeprefix("Special Damage: ")
            facts.append(("Special Damage", f"{name} on each MGF 6, in " + ", ".join(where)))
        specialists = var.specialists if var is not None and var.specialists is not None else bm.specialists
        items = var.items if var is not None and var.items is not None else bm.items
        vehicles = var.vehicles if var is not None and var.vehicles is not None else bm.vehicles
        facts.append(("Specialists", ", ".join(self.lay.card_name(c) for c in specialists) or "none"))
        if var is not None and var.items is not None and not var.items:
            facts.append(("Items", "none (no Items at all, Regular Items included)"))
        else:
            facts.append(("Special Items", (", ".join(self.lay.card_name(c) for c in items) or "none")
                          + "; the Regular Items are always available"))
        # the Vehicles in the Pool (the list), then those a Sector offers, found there only
        found = [self.lay.card_name(c) for c in vehicles]
        found += [f"{self.lay.card_name(c)} (in {where})" for c, where in offered_vehicles(self.lay.content, bm)
                  if c not in vehicles]
        if found:
            facts.append(("Vehicles", ", ".join(found)))
        names = {a.id: a.name for a in bm.attributes}
        for tab in bm.tables:
            facts.append((tab.name, ", ".join(f"{i} {names.get(r, r)}" for i, r in enumerate(tab.results, 1))))
        if bm.variants and var is None:
            facts.append(("Variants", ", ".join(f"{v.name} (--variant {v.id})" for v in bm.variants)))
        rules = self.lay.content.effects.get(f"{bm.id}/rules")
        if rules is not None and rules.english:
            facts.append(("Scenario rules", " ".join(rules.english)))
        if bm.provenance == "reconstructed" and bm.note:
            facts.append(("What is stated and what is ours", " ".join(bm.note.split())))
        return facts
