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
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from xml.sax.saxutils import escape

import attrs

from ddaydice.dsl import schema
from ddaydice.dsl.diagnostics import DDayError, did_you_mean
from ddaydice.dsl.loader import Content

# ----------------------------------------------------------------- geometry
BOX_W = 260.0
COL_GAP = 70.0
PITCH = BOX_W + COL_GAP
ROW_GAP = 84.0
PAD = 10.0
MARGIN = 30.0
ROW_LABEL_W = 100.0
BOARD_PAD = 48.0  # the board's edge around the boxes: room for a detour round the outer Sectors
PANEL_GAP = 40.0
PANEL_W = 360.0
BODY_SIZE = 11.0
BODY_LH = 14.0
FONT = "DejaVu Sans, Verdana, Arial, sans-serif"

# ----------------------------------------------------------------- colours
INK = "#222222"
PAPER = "#f6f1e3"
BOARD = "#e4dcc4"
LATERAL = "#2f5d8a"
MINE_RED = "#b3261e"
COURAGE = "#d35400"
START_GREEN = "#2e7d32"
RECON = "#a0522d"
BUNKER_FILL = "#cfc8b8"
MUTED = "#9a9a9a"

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
        found = [v for v in bm.variants if v.id == variant]
        if not found:
            ids = [v.id for v in bm.variants]
            hint = (did_you_mean(variant, ids) or "variants: " + ", ".join(ids)) if ids else \
                f"{bm.name} has no variants"
            raise RenderError(f"map '{map_id}' has no variant '{variant}' ({hint})")
        var = found[0]
    return _Drawing(content, bm, var).svg()


# ----------------------------------------------------------------- text
_NARROW = dict.fromkeys(" .,:;'!|il", 0.30) | dict.fromkeys("()[]{}jft-/\"", 0.37) | {"r": 0.42, "I": 0.30}
_WIDE = {"m": 0.98, "w": 0.82, "M": 0.87, "W": 1.0, "%": 0.95, "@": 1.0}


def text_width(text: str, size: float, *, bold: bool = False) -> float:
    """An estimate of the width of a text in DejaVu Sans (a little generous, never short)."""
    total = 0.0
    for ch in text:
        if ch in _NARROW:
            w = _NARROW[ch]
        elif ch in _WIDE:
            w = _WIDE[ch]
        elif ch.isdigit():
            w = 0.64
        elif ch.isupper():
            w = 0.72
        elif ch.islower():
            w = 0.62
        else:
            w = 0.70
        total += w
    return total * size * (1.1 if bold else 1.0)


def wrap(text: str, width: float, size: float, *, bold: bool = False) -> list[str]:
    """Greedy word wrap to a width in pixels; a word longer than the width is cut."""
    lines: list[str] = []
    current = ""
    for word in text.split():
        candidate = f"{current} {word}" if current else word
        if text_width(candidate, size, bold=bold) <= width:
            current = candidate
            continue
        if current:
            lines.append(current)
        rest = word
        while text_width(rest, size, bold=bold) > width and len(rest) > 1:
            cut = len(rest)
            while cut > 1 and text_width(rest[:cut] + "-", size, bold=bold) > width:
                cut -= 1
            lines.append(rest[:cut] + "-")
            rest = rest[cut:]
        current = rest
    if current:
        lines.append(current)
    return lines or [""]


def _n(v: float) -> str:
    s = f"{v:.1f}"
    return s[:-2] if s.endswith(".0") else s


def _plural(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


# ----------------------------------------------------------------- layout records
@attrs.define
class _Item:
    """One block of a box's body: its kind decides its style."""

    kind: str  # "sd", "cost", "attr", "card", "note"
    lines: list[str]
    muted: bool = False
    value: int | None = None


@attrs.define
class _Box:
    sector: schema.Sector
    board: int
    slot: int
    col: float
    name_lines: list[str] = attrs.Factory(list)
    items: list[_Item] = attrs.Factory(list)
    start_lines: list[str] = attrs.Factory(list)
    shield_w: float = 38.0
    natural_h: float = 0.0
    x: float = 0.0
    y: float = 0.0
    w: float = BOX_W
    h: float = 0.0

    @property
    def cx(self) -> float:
        return self.x + self.w / 2

    @property
    def cy(self) -> float:
        return self.y + self.h / 2


@attrs.define
class _Conn:
    """One drawn line between two Sectors (a line of the map file names several pairs)."""

    a: str
    b: str
    kind: str
    cost: int | None
    landmines: bool
    barrier: bool
    both_ways: bool = False
    side_a: str = ""
    side_b: str = ""
    pa: tuple[float, float] = (0.0, 0.0)
    pb: tuple[float, float] = (0.0, 0.0)
    path: list[tuple[float, float]] = attrs.Factory(list)


Point = tuple[float, float]


# ----------------------------------------------------------------- geometry helpers
def _seg_hits_rect(p: Point, q: Point, rect: tuple[float, float, float, float]) -> bool:
    """Whether segment p-q enters the rectangle (x0, y0, x1, y1) (Liang-Barsky)."""
    x0, y0, x1, y1 = rect
    dx, dy = q[0] - p[0], q[1] - p[1]
    t0, t1 = 0.0, 1.0
    for pk, qk in ((-dx, p[0] - x0), (dx, x1 - p[0]), (-dy, p[1] - y0), (dy, y1 - p[1])):
        if pk == 0:
            if qk < 0:
                return False
            continue
        r = qk / pk
        if pk < 0:
            t0 = max(t0, r)
        else:
            t1 = min(t1, r)
        if t0 > t1:
            return False
    return True


def _segments_cross(p1: Point, p2: Point, p3: Point, p4: Point) -> bool:
    """Whether two segments cross at a point inside both (touching ends do not count)."""

    def side(a: Point, b: Point, c: Point) -> float:
        return (c[1] - a[1]) * (b[0] - a[0]) - (b[1] - a[1]) * (c[0] - a[0])

    d1, d2, d3, d4 = side(p3, p4, p1), side(p3, p4, p2), side(p1, p2, p3), side(p1, p2, p4)
    if any(abs(d) < 1e-6 for d in (d1, d2, d3, d4)):
        return False
    return (d1 > 0) != (d2 > 0) and (d3 > 0) != (d4 > 0)


def _segments_overlap(p1: Point, p2: Point, p3: Point, p4: Point) -> bool:
    """Whether two horizontal (or two vertical) segments run along each other, closer than 6 px."""
    for k in (0, 1):  # k = 1: horizontal segments (same y), k = 0: vertical ones (same x)
        o = 1 - k
        if p1[o] == p2[o] and p3[o] == p4[o] and abs(p1[o] - p3[o]) < 6:
            lo1, hi1 = sorted((p1[k], p2[k]))
            lo2, hi2 = sorted((p3[k], p4[k]))
            if min(hi1, hi2) - max(lo1, lo2) > 2:
                return True
    return False


def _length(path: Sequence[Point]) -> float:
    return sum(math.dist(path[i], path[i + 1]) for i in range(len(path) - 1))


def _along(path: Sequence[Point], dist: float) -> tuple[Point, Point]:
    """The point at a distance along a polyline, and the unit direction there."""
    for i in range(len(path) - 1):
        seg = math.dist(path[i], path[i + 1])
        if seg == 0:
            continue
        ux, uy = (path[i + 1][0] - path[i][0]) / seg, (path[i + 1][1] - path[i][1]) / seg
        if dist <= seg or i == len(path) - 2:
            d = min(dist, seg)
            return (path[i][0] + ux * d, path[i][1] + uy * d), (ux, uy)
        dist -= seg
    return path[0], (1.0, 0.0)


# ----------------------------------------------------------------- the drawing
class _Drawing:
    def __init__(self, content: Content, bm: schema.BattleMap, var: schema.Variant | None) -> None:
        self.content = content
        self.bm = bm
        self.var = var
        self.ignore: frozenset[str] = frozenset(var.ignore) if var else frozenset()
        self.out: list[str] = []
        self.boxes: dict[str, _Box] = {}
        self.board_names: list[str] = []
        self.slot_rows: dict[int, tuple[int, int]] = {}  # slot -> (board, row)
        self.slot_y: dict[int, tuple[float, float]] = {}
        self.channels: dict[tuple[str, float], int] = {}
        self.stubs: dict[tuple[str, str], int] = {}

    # ------------------------------------------------------------ names
    def card_name(self, cid: str) -> str:
        card = self.content.cards.get(cid)
        return card.name if card is not None else cid

    def special_damage(self, sec: schema.Sector) -> str | None:
        """The Special Damage a Sector's MGF deals (the Sector's own, else the map's), if any."""
        sd = sec.special_damage or self.bm.special_damage
        if sec.mgf <= 0 or sd is None or sd == "none":
            return None
        return sd

    def special_damage_name(self, sd: str) -> str:
        for rule in self.content.game.special_damage:
            if rule.id == sd:
                return rule.name
        return f"Special Damage: {sd}"

    # ------------------------------------------------------------ boards and places
    def split_boards(self) -> list[list[schema.Sector]]:
        """One board, unless places collide: then the id prefixes (m-, s-) name the boards."""
        sectors = list(self.bm.sectors)
        placed = [(s.row, s.column) for s in sectors if s.column is not None]
        if len(set(placed)) == len(placed):
            return [sectors]
        groups: dict[str, list[schema.Sector]] = {}
        for s in sectors:
            groups.setdefault(s.id.split("-", 1)[0] if "-" in s.id else "", []).append(s)
        if len(groups) < 2:
            return [sectors]
        for group in groups.values():
            spots = [(s.row, s.column) for s in group if s.column is not None]
            if len(set(spots)) != len(spots):
                return [sectors]
        return list(groups.values())

    def board_name(self, group: Sequence[schema.Sector]) -> str:
        words = [s.name.split()[0] for s in group if s.name.split()]
        if not words or any(w != words[0] for w in words):
            return ""
        word = words[0]
        matches = [m for m in self.content.maps.values() if m.id != self.bm.id and m.name.split()[0] == word]
        if len(matches) == 1:
            m = matches[0]
            return f"{m.name} ({m.number})" if m.number else m.name
        return word

    @staticmethod
    def columns(group: Sequence[schema.Sector]) -> dict[str, float]:
        """Each Sector's column; a missing one is spread evenly in its row, around the board's middle."""
        known = [s.column for s in group if s.column is not None]
        rows: dict[int, list[schema.Sector]] = {}
        for s in group:
            rows.setdefault(s.row, []).append(s)
        widest = max(len(r) for r in rows.values())
        middle = (min(known) + max(known)) / 2 if known else (widest + 1) / 2
        cols: dict[str, float] = {}
        for members in rows.values():
            missing = [s for s in members if s.column is None]
            placed = [s.column for s in members if s.column is not None]
            for s in members:
                if s.column is not None:
                    cols[s.id] = s.column
            if not missing:
                continue
            if not placed:
                n = len(missing)
                for i, s in enumerate(missing):
                    cols[s.id] = middle + i - (n - 1) / 2
            else:
                right = max(placed)
                for i, s in enumerate(missing, start=1):
                    cols[s.id] = right + i
        return cols

    def place(self) -> None:
        boards = self.split_boards()
        base = 0
        for b, group in enumerate(boards):
            cols = self.columns(group)
            lo, hi = min(cols.values()), max(cols.values())
            rlo, rhi = min(s.row for s in group), max(s.row for s in group)
            turned = b % 2 == 1
            for s in group:
                col = lo + hi - cols[s.id] if turned else cols[s.id]
                slot = base + (rhi - s.row if turned else s.row - rlo)
                self.boxes[s.id] = _Box(s, b, slot, col)
                self.slot_rows[slot] = (b, s.row)
            base += rhi - rlo + 1
            self.board_names.append(self.board_name(group) if len(boards) > 1 else "")

    # ------------------------------------------------------------ box contents
    def fill(self, box: _Box) -> None:
        sec = box.sector
        ignored_attrs = "attributes" in self.ignore
        box.shield_w = max(38.0, text_width(self.def_text(sec), 15, bold=True) + 16)
        name_w = BOX_W - 2 * PAD - 34 - box.shield_w - 8
        box.name_lines = wrap(sec.name, name_w, 13, bold=True)[:3]
        inner = BOX_W - 2 * PAD
        sd = self.special_damage(sec)
        if sd is not None:
            muted = bool({"special-damage", "mgf"} & self.ignore)
            box.items.append(_Item("sd", wrap(self.special_damage_name(sd) + " on each MGF 6", inner - 16,
                                              BODY_SIZE), muted))
        if sec.cost is not None:
            box.items.append(_Item("cost", wrap(f"Entering costs {sec.cost} Courage, from any line", inner - 26,
                                                BODY_SIZE), value=sec.cost))
        if sec.black:
            box.items.append(_Item("note", wrap("Black shield: can't stay here; leave at the next Phase 4", inner,
                                                BODY_SIZE)))
        if sec.bunker and not sec.objective:
            box.items.append(_Item("note", wrap("Not an objective: no Unit has to conquer it", inner, BODY_SIZE)))
        src = self.content.effects.get(f"{self.bm.id}/{sec.id}")
        for line in src.english if src is not None else ():
            box.items.append(_Item("attr", wrap(line, inner - 10, BODY_SIZE), ignored_attrs))
        for pc in self.bm.placed:
            if pc.sector == sec.id:
                box.items.append(_Item("card", wrap(f"{self.card_name(pc.card)}: free for the first Unit",
                                                    inner - 18, BODY_SIZE, bold=True), ignored_attrs))
        if ignored_attrs and any(i.kind in ("attr", "card") for i in box.items):
            box.items.append(_Item("note", ["(attributes ignored in this variant)"], True))
        if sec.start is not None:
            box.start_lines = self.start_lines(sec.start, inner)
        header = max(46.0, len(box.name_lines) * 16 + 14)
        mgf_row = 22.0 if sec.mgf > 0 else 0.0
        body = sum(len(i.lines) * BODY_LH + 4 for i in box.items)
        banner = len(box.start_lines) * BODY_LH + 10 if box.start_lines else 0.0
        footer = (20.0 if sec.provenance == "reconstructed" else 6.0) + (6.0 if sec.bunker else 0.0)
        box.natural_h = max(96.0, PAD + header + mgf_row + body + (6 if body else 0) + banner + footer)

    @staticmethod
    def def_text(sec: schema.Sector) -> str:
        return "/".join(str(d) for d in sec.defense) or "?"

    def start_lines(self, st: schema.Start, width: float) -> list[str]:
        parts = [_plural(st.soldiers, "Soldier", "Soldiers")]
        if st.stars:
            parts.append(_plural(st.stars, "Star", "Stars"))
        if st.courage:
            parts.append(f"{st.courage} Courage")
        if st.item_points:
            parts.append(_plural(st.item_points, "Item Point", "Item Points"))
        parts += [self.card_name(c) for c in st.specialists]
        lines = wrap("START: " + ", ".join(parts), width - 8, BODY_SIZE, bold=True)
        if st.at_least:
            lines += wrap(f"at least {_plural(st.at_least, 'Unit starts', 'Units start')} here", width - 8,
                          BODY_SIZE)
        if st.regular_specialists is not None:
            names = ", ".join(self.card_name(c) for c in st.regular_specialists)
            lines += wrap(f"Regular Specialists: {names}", width - 8, BODY_SIZE)
        return lines

    # ------------------------------------------------------------ vertical layout
    def layout(self, top: float) -> float:
        """Sets every box's place; returns the bottom of the board area."""
        slots = sorted(self.slot_rows, reverse=True)
        heights = {s: max(b.natural_h for b in self.boxes.values() if b.slot == s) for s in slots}
        min_col = min(b.col for b in self.boxes.values())
        y = top
        prev: int | None = None
        for s in slots:
            if prev is not None and self.slot_rows[prev][0] != self.slot_rows[s][0]:
                y += 20  # a seam between two boards
            self.slot_y[s] = (y, heights[s])
            for b in self.boxes.values():
                if b.slot == s:
                    b.x = MARGIN + ROW_LABEL_W + (b.col - min_col) * PITCH
                    b.y = y
                    b.h = heights[s]
            y += heights[s] + ROW_GAP
            prev = s
        return y - ROW_GAP

    # ------------------------------------------------------------ lines
    def connections(self) -> list[_Conn]:
        conns: list[_Conn] = []
        index: dict[tuple[str, str, str, int | None, bool, bool], _Conn] = {}
        for ln in self.bm.lines:
            for a in ln.from_:
                for b in ln.to:
                    if a not in self.boxes or b not in self.boxes or a == b:
                        continue
                    back = index.get((b, a, ln.kind, ln.cost, ln.landmines, ln.barrier))
                    if back is not None and ln.kind == "advance":
                        back.both_ways = True
                        continue
                    conn = _Conn(a, b, ln.kind, ln.cost, ln.landmines, ln.barrier)
                    index[(a, b, ln.kind, ln.cost, ln.landmines, ln.barrier)] = conn
                    conns.append(conn)
        return conns

    def attach(self, conns: list[_Conn]) -> None:
        """Chooses each end's side of its box, then spreads the ends met on one side along it."""
        ends: dict[tuple[str, str], list[tuple[float, str, _Conn, bool]]] = {}
        for c in conns:
            ba, bb = self.boxes[c.a], self.boxes[c.b]
            if ba.slot == bb.slot:
                c.side_a, c.side_b = ("right", "left") if ba.x < bb.x else ("left", "right")
            elif bb.y < ba.y:
                c.side_a, c.side_b = "top", "bottom"
            else:
                c.side_a, c.side_b = "bottom", "top"
            key_a = bb.cy if c.side_a in ("left", "right") else bb.cx
            key_b = ba.cy if c.side_b in ("left", "right") else ba.cx
            ends.setdefault((c.a, c.side_a), []).append((key_a, c.b, c, True))
            ends.setdefault((c.b, c.side_b), []).append((key_b, c.a, c, False))
        for (sid, side), members in sorted(ends.items()):
            box = self.boxes[sid]
            members.sort(key=lambda m: (m[0], m[1]))
            n = len(members)
            along = box.h if side in ("left", "right") else box.w
            step = min(46.0, (along - 40) / max(n - 1, 1))
            for i, (_, _, c, is_a) in enumerate(members):
                off = (i - (n - 1) / 2) * step
                if side == "top":
                    p = (box.cx + off, box.y)
                elif side == "bottom":
                    p = (box.cx + off, box.y + box.h)
                elif side == "left":
                    p = (box.x, box.cy + off)
                else:
                    p = (box.x + box.w, box.cy + off)
                if is_a:
                    c.pa = p
                else:
                    c.pb = p

    def route(self, c: _Conn, drawn: Sequence[Sequence[Point]] = ()) -> list[Point]:
        """A straight line if it crosses no other box, else the detour through a gap that crosses
        the fewest lines already drawn, and then the shortest."""
        others = [(b.x - 4, b.y - 4, b.x + b.w + 4, b.y + b.h + 4)
                  for sid, b in sorted(self.boxes.items()) if sid not in (c.a, c.b)]

        def clear(path: Sequence[Point]) -> bool:
            return not any(_seg_hits_rect(path[i], path[i + 1], r) for i in range(len(path) - 1) for r in others)

        straight = [c.pa, c.pb]
        if clear(straight):
            return straight
        # a detour: out of each box, along a gap between columns (or rows), and in; detours that
        # share a gap or leave the same side of a box are spread apart so that none overlap
        unit = {"top": (0.0, -1.0), "bottom": (0.0, 1.0), "left": (-1.0, 0.0), "right": (1.0, 0.0)}
        la = 16.0 + 12.0 * self.stubs.get((c.a, c.side_a), 0)
        lb = 16.0 + 12.0 * self.stubs.get((c.b, c.side_b), 0)
        da, db = unit[c.side_a], unit[c.side_b]
        qa = (c.pa[0] + da[0] * la, c.pa[1] + da[1] * la)
        qb = (c.pb[0] + db[0] * lb, c.pb[1] + db[1] * lb)
        xs = sorted({round(b.x - COL_GAP / 2, 1) for b in self.boxes.values()}
                    | {round(b.x + b.w + COL_GAP / 2, 1) for b in self.boxes.values()})
        ys = sorted({round(y - ROW_GAP / 2, 1) for y, _ in self.slot_y.values()}
                    | {round(y + h + ROW_GAP / 2, 1) for y, h in self.slot_y.values()})

        def shifted(key: tuple[str, float]) -> float:
            k = self.channels.get(key, 0)
            return key[1] + (k + 1) // 2 * 14.0 * (1 if k % 2 else -1)

        candidates: list[tuple[list[Point], tuple[str, float]]] = []
        for x in xs:
            sx = shifted(("x", x))
            candidates.append(([c.pa, qa, (sx, qa[1]), (sx, qb[1]), qb, c.pb], ("x", x)))
        for y in ys:
            sy = shifted(("y", y))
            candidates.append(([c.pa, qa, (qa[0], sy), (qb[0], sy), qb, c.pb], ("y", y)))
        good = [(p, key) for p, key in candidates if clear(p)]
        if not good:
            return straight

        def crossings(path: Sequence[Point]) -> int:
            return sum(1 + 2 * _segments_overlap(path[i], path[i + 1], other[j], other[j + 1])
                       for other in drawn for i in range(len(path) - 1) for j in range(len(other) - 1)
                       if _segments_cross(path[i], path[i + 1], other[j], other[j + 1])
                       or _segments_overlap(path[i], path[i + 1], other[j], other[j + 1]))

        best, key = min(good, key=lambda g: (crossings(g[0]), round(_length(g[0]), 3), g[0]))
        self.channels[key] = self.channels.get(key, 0) + 1
        for end in ((c.a, c.side_a), (c.b, c.side_b)):
            self.stubs[end] = self.stubs.get(end, 0) + 1
        # drop points that lie on a straight run
        slim = [best[0]]
        for i in range(1, len(best) - 1):
            (x0, y0), (x1, y1), (x2, y2) = slim[-1], best[i], best[i + 1]
            if abs((x1 - x0) * (y2 - y0) - (y1 - y0) * (x2 - x0)) > 1e-6:
                slim.append(best[i])
        slim.append(best[-1])
        return slim

    # ------------------------------------------------------------ svg primitives
    def add(self, s: str) -> None:
        self.out.append(s)

    def text(self, x: float, y: float, s: str, *, size: float = BODY_SIZE, bold: bool = False,
             italic: bool = False, fill: str = INK, anchor: str = "start", cls: str = "") -> None:
        attrs_ = [f'x="{_n(x)}"', f'y="{_n(y)}"', f'font-size="{_n(size)}"']
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
        self.add(f"<text {' '.join(attrs_)}>{escape(s)}</text>")

    def shield(self, x: float, y: float, w: float, h: float, label: str, *, black: bool, size: float = 15,
               caption: bool = True) -> None:
        fill, ink = ("#000000", "#ffffff") if black else ("#ffffff", "#000000")
        d = (f"M{_n(x)},{_n(y)} L{_n(x + w)},{_n(y)} L{_n(x + w)},{_n(y + h * 0.55)} "
             f"Q{_n(x + w)},{_n(y + h * 0.85)} {_n(x + w / 2)},{_n(y + h)} "
             f"Q{_n(x)},{_n(y + h * 0.85)} {_n(x)},{_n(y + h * 0.55)} Z")
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
        self.add(f'<g class="mgf"><circle cx="{_n(x)}" cy="{_n(y)}" r="7" fill="#ffffff" stroke="{col}" '
                 f'stroke-width="2"/><path d="M{_n(x - 9)},{_n(y)} H{_n(x + 9)} M{_n(x)},{_n(y - 9)} '
                 f'V{_n(y + 9)}" stroke="{col}" stroke-width="1.6"/>'
                 f'<circle cx="{_n(x)}" cy="{_n(y)}" r="2" fill="{col}"/></g>')

    def courage_marker(self, x: float, y: float, value: int | None, *, cls: str = "courage") -> None:
        self.add(f'<g class="{cls}"><circle cx="{_n(x)}" cy="{_n(y)}" r="10" fill="{COURAGE}" stroke="#ffffff" '
                 f'stroke-width="2"/>')
        self.text(x, y + 4, "?" if value is None else str(value), size=12, bold=True, fill="#ffffff",
                  anchor="middle")
        self.add("</g>")

    def mine(self, x: float, y: float, *, muted: bool = False) -> None:
        col = MUTED if muted else "#111111"
        spikes = " ".join(
            f"M{_n(x + 6 * math.cos(a))},{_n(y + 6 * math.sin(a))} L{_n(x + 11 * math.cos(a))},"
            f"{_n(y + 11 * math.sin(a))}" for a in (k * math.pi / 4 for k in range(8)))
        self.add(f'<g class="mine"><circle cx="{_n(x)}" cy="{_n(y)}" r="13" fill="#ffffff" stroke="{MINE_RED}" '
                 f'stroke-width="1.5"/><path d="{spikes}" stroke="{col}" stroke-width="2.2"/>'
                 f'<circle cx="{_n(x)}" cy="{_n(y)}" r="6" fill="{col}"/></g>')

    def barrier(self, x: float, y: float, ux: float, uy: float, half: float = 24.0) -> None:
        """A thick bar across the line, with barbs: the line is impassable."""
        nx, ny = -uy, ux
        x0, y0, x1, y1 = x - nx * half, y - ny * half, x + nx * half, y + ny * half
        barbs = " ".join(
            f"M{_n(x + nx * t - 4)},{_n(y + ny * t - 4)} L{_n(x + nx * t + 4)},{_n(y + ny * t + 4)} "
            f"M{_n(x + nx * t - 4)},{_n(y + ny * t + 4)} L{_n(x + nx * t + 4)},{_n(y + ny * t - 4)}"
            for t in (-half * 0.6, 0.0, half * 0.6))
        self.add(f'<g class="barrier"><path d="M{_n(x0)},{_n(y0)} L{_n(x1)},{_n(y1)}" stroke="#4a2c0f" '
                 f'stroke-width="9" stroke-linecap="round"/><path d="{barbs}" stroke="#f6f1e3" '
                 f'stroke-width="1.6"/></g>')

    def arrowhead(self, tip: Point, ux: float, uy: float, colour: str) -> None:
        bx, by = tip[0] - ux * 11, tip[1] - uy * 11
        nx, ny = -uy * 5, ux * 5
        self.add(f'<path d="M{_n(tip[0])},{_n(tip[1])} L{_n(bx + nx)},{_n(by + ny)} L{_n(bx - nx)},{_n(by - ny)} Z" '
                 f'fill="{colour}"/>')

    # ------------------------------------------------------------ drawing parts
    def draw_box(self, box: _Box) -> None:
        sec = box.sector
        recon = sec.provenance == "reconstructed"
        classes = ["sector"] + (["bunker"] if sec.bunker else []) + (["start"] if sec.start else []) + \
            (["reconstructed"] if recon else [])
        self.add(f'<g class="{" ".join(classes)}" id="sector-{escape(sec.id)}" data-sector="{escape(sec.id)}">')
        x, y, w, h = box.x, box.y, box.w, box.h
        dash = ' stroke-dasharray="8 5"' if recon else ""
        if sec.bunker:
            self.add(f'<rect x="{_n(x)}" y="{_n(y)}" width="{_n(w)}" height="{_n(h)}" rx="3" fill="url(#concrete)" '
                     f'stroke="#000000" stroke-width="5"{dash}/>')
            self.add(f'<rect x="{_n(x + 6)}" y="{_n(y + 6)}" width="{_n(w - 12)}" height="{_n(h - 12)}" rx="2" '
                     f'fill="none" stroke="#000000" stroke-width="1.5"/>')
        else:
            self.add(f'<rect x="{_n(x)}" y="{_n(y)}" width="{_n(w)}" height="{_n(h)}" rx="6" fill="{PAPER}" '
                     f'stroke="{INK}" stroke-width="2"{dash}/>')
        # header: number badge, name, DEF shield
        bx, by = x + PAD + 14, y + PAD + 14
        if sec.bunker:
            self.add(f'<rect x="{_n(bx - 14)}" y="{_n(by - 14)}" width="28" height="28" fill="#000000"/>')
            self.text(bx, by + 5, "B", size=15, bold=True, fill="#ffffff", anchor="middle")
        elif sec.number is not None:
            self.add(f'<circle cx="{_n(bx)}" cy="{_n(by)}" r="14" fill="{INK}"/>')
            self.text(bx, by + 5, str(sec.number), size=14, bold=True, fill="#ffffff", anchor="middle")
        for i, line in enumerate(box.name_lines):
            self.text(x + PAD + 34, y + PAD + 14 + i * 16, line, size=13, bold=True)
        if sec.bunker and "bunker" not in sec.name.lower():
            self.text(x + PAD + 34, y + PAD + 14 + len(box.name_lines) * 16, "BUNKER", size=10, bold=True,
                      fill="#000000")
        self.shield(x + w - PAD - box.shield_w, y + PAD - 4, box.shield_w, 46, self.def_text(sec), black=sec.black)
        cy = y + PAD + max(46.0, len(box.name_lines) * 16 + 14)
        if sec.mgf > 0:
            muted = "mgf" in self.ignore
            for k in range(sec.mgf):
                self.mgf_icon(x + PAD + 9 + k * 22, cy + 8, muted=muted)
            self.text(x + PAD + sec.mgf * 22 + 4, cy + 12, f"MGF ({_plural(sec.mgf, 'die', 'dice')})"
                      + (" - ignored" if muted else ""), size=10, bold=True, fill=MUTED if muted else MINE_RED)
            cy += 22
        for item in box.items:
            self.draw_item(item, x, cy)
            cy += len(item.lines) * BODY_LH + 4
        if box.start_lines:
            bh = len(box.start_lines) * BODY_LH + 8
            top = y + h - (20 if recon else 6) - (6 if sec.bunker else 0) - bh
            self.add(f'<rect class="start-banner" x="{_n(x + 4)}" y="{_n(top)}" width="{_n(w - 8)}" '
                     f'height="{_n(bh)}" rx="3" fill="{START_GREEN}"/>')
            for i, line in enumerate(box.start_lines):
                self.text(x + PAD, top + 15 + i * BODY_LH, line, size=BODY_SIZE, bold=i == 0, fill="#ffffff")
        if recon:
            s = 22.0
            self.add(f'<path class="recon-corner" d="M{_n(x + w)},{_n(y + h - s)} L{_n(x + w)},{_n(y + h)} '
                     f'L{_n(x + w - s)},{_n(y + h)} Z" fill="url(#hatch)" stroke="{RECON}" stroke-width="1"/>')
            self.text(x + w - s - 4, y + h - (12 if sec.bunker else 6), "reconstructed", size=9, italic=True,
                      fill=RECON, anchor="end", cls="recon-tag")
        self.add("</g>")

    def draw_item(self, item: _Item, x: float, top: float) -> None:
        fill = MUTED if item.muted else INK
        indent = 10.0
        if item.kind == "sd":
            fill = MUTED if item.muted else MINE_RED
            self.add(f'<path d="M{_n(x + PAD + 5)},{_n(top + 1)} L{_n(x + PAD + 11)},{_n(top + 12)} '
                     f'L{_n(x + PAD - 1)},{_n(top + 12)} Z" fill="{fill}"/>')
            indent = 16.0
        elif item.kind == "cost":
            self.courage_marker(x + PAD + 9, top + 6, item.value, cls="courage bunker-cost")
            indent = 26.0
        elif item.kind == "card":
            self.add(f'<rect x="{_n(x + PAD)}" y="{_n(top + 1)}" width="9" height="12" rx="1.5" fill="#ffffff" '
                     f'stroke="{fill}" stroke-width="1.3"/>')
            indent = 16.0
        elif item.kind == "attr":
            self.add(f'<circle cx="{_n(x + PAD + 3)}" cy="{_n(top + 6.5)}" r="2" fill="{fill}"/>')
        else:
            indent = 0.0
        for i, line in enumerate(item.lines):
            self.text(x + PAD + indent, top + 11 + i * BODY_LH, line, size=BODY_SIZE, fill=fill,
                      bold=item.kind == "card", italic=item.kind == "note")

    def draw_conn(self, c: _Conn) -> None:
        path = c.path
        mines_muted = "landmines" in self.ignore
        colour = LATERAL if c.kind == "lateral" else INK
        if c.landmines and not mines_muted:
            colour = MINE_RED
        classes = ["line", c.kind] + (["landmines"] if c.landmines else []) + (["barrier"] if c.barrier else []) \
            + (["both-ways"] if c.both_ways else [])
        self.add(f'<g class="{" ".join(classes)}" data-from="{escape(c.a)}" data-to="{escape(c.b)}">')
        d = "M" + " L".join(f"{_n(px)},{_n(py)}" for px, py in path)
        dash = ' stroke-dasharray="6 4"' if c.barrier else ""
        width = 2.4 if c.kind == "advance" else 2.0
        self.add(f'<path d="{d}" fill="none" stroke="{colour}" stroke-width="{width}"{dash} '
                 f'stroke-linejoin="round"/>')
        # arrowheads: at the far end of an Advance, at both ends of a lateral line
        end_dir = _along(path, _length(path) - 0.01)[1]
        self.arrowhead(path[-1], end_dir[0], end_dir[1], colour)
        if c.kind == "lateral" or c.both_ways:
            sx, sy = _along(path, 0.01)[1]
            self.arrowhead(path[0], -sx, -sy, colour)
        total = _length(path)
        mid, (ux, uy) = _along(path, total / 2)
        if c.barrier:
            self.barrier(mid[0], mid[1], ux, uy)
        if c.landmines:
            at = mid if not c.barrier else _along(path, total / 2 + 30)[0]
            self.mine(at[0], at[1], muted=mines_muted)
        if c.kind == "advance" and (c.cost is not None or not self.priced(c.b)):
            # the Courage cost is printed at the left end of the line (the lower end of a line that
            # goes straight up)
            dx = path[-1][0] - path[0][0]
            left_first = dx > 0 if abs(dx) > 30 else path[0][1] > path[-1][1]
            crowded = c.barrier or c.landmines
            first = _along(path, 0.01)[1] if left_first else _along(path, total - 0.01)[1]
            dist = 16.0 if crowded and total < 130 else max(30.0, 20.0 / max(abs(first[1]), 0.05))
            dist = min(dist, total / 3)
            at = _along(path, dist)[0] if left_first else _along(path, total - dist)[0]
            self.courage_marker(at[0], at[1], c.cost)
        self.add("</g>")

    def priced(self, sid: str) -> bool:
        box = self.boxes.get(sid)
        return box is not None and box.sector.cost is not None

    # ------------------------------------------------------------ title and side panel
    def title_block(self, width: float) -> float:
        bm = self.bm
        y = MARGIN + 22
        head = f"BATTLE MAP {bm.number} · {bm.name}" if bm.number else f"SCENARIO · {bm.name}"
        if self.var is not None:
            head += f" — {self.var.name.split(': ', 1)[-1]}"
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
        if self.var is not None:
            y += 4
            ignored = [IGNORE_LABELS.get(i, i) for i in self.var.ignore]
            if self.var.keep_faces:
                faces = {f.id: f.name for f in self.content.dice.faces}
                kept = ", ".join(faces.get(f, f) for f in self.var.keep_faces)
                ignored.append(f"every die result except {kept}")
            line = f"Variant: {self.var.name}. " + (
                "Ignored: " + "; ".join(ignored) + "." if ignored else "Nothing is ignored: every attribute applies.")
            for part in wrap(line, width, 12, bold=True):
                self.text(MARGIN, y, part, size=12, bold=True, fill="#6a1b9a", cls="variant")
                y += 16
            for part in wrap(" ".join(self.var.text.split()), width, 12):
                self.text(MARGIN, y, part, size=12, fill="#6a1b9a")
                y += 16
        return y + 14

    def panel(self, x: float, top: float) -> float:
        """The legend and the map's lists; returns its bottom."""
        w = PANEL_W
        self.add(f'<g class="legend" transform="translate({_n(x)},{_n(top)})">')
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
        self.out.insert(self.panel_at, f'<rect class="legend-frame" x="{_n(x)}" y="{_n(top)}" width="{_n(w)}" '
                                       f'height="{_n(y + 10)}" rx="6" fill="#ffffff" stroke="{INK}" '
                                       f'stroke-width="1.5"/>')
        return bottom

    def legend_glyph(self, kind: str, x: float, y: float) -> None:
        if kind == "shield":
            self.shield(x + 6, y - 17, 40, 34, "4/6/8", black=False, size=10, caption=False)
        elif kind == "black":
            self.shield(x + 10, y - 17, 32, 34, "6", black=True, size=13, caption=False)
        elif kind == "mgf":
            self.mgf_icon(x + 26, y)
        elif kind == "sd":
            self.add(f'<path d="M{_n(x + 26)},{_n(y - 7)} L{_n(x + 33)},{_n(y + 6)} L{_n(x + 19)},{_n(y + 6)} Z" '
                     f'fill="{MINE_RED}"/>')
        elif kind == "advance":
            self.add(f'<path d="M{_n(x + 26)},{_n(y + 16)} V{_n(y - 12)}" stroke="{INK}" stroke-width="2.4"/>')
            self.arrowhead((x + 26, y - 16), 0, -1, INK)
            self.courage_marker(x + 26, y + 6, 2)
        elif kind == "lateral":
            self.add(f'<path d="M{_n(x + 4)},{_n(y)} H{_n(x + 48)}" stroke="{LATERAL}" stroke-width="2"/>')
            self.arrowhead((x, y), -1, 0, LATERAL)
            self.arrowhead((x + 52, y), 1, 0, LATERAL)
        elif kind == "mine":
            self.add(f'<path d="M{_n(x)},{_n(y)} H{_n(x + 52)}" stroke="{MINE_RED}" stroke-width="2"/>')
            self.mine(x + 26, y)
        elif kind == "barrier":
            self.add(f'<path d="M{_n(x)},{_n(y)} H{_n(x + 52)}" stroke="{INK}" stroke-width="2" '
                     f'stroke-dasharray="6 4"/>')
            self.barrier(x + 26, y, 1, 0, half=15)
        elif kind == "start":
            self.add(f'<rect x="{_n(x)}" y="{_n(y - 9)}" width="52" height="18" rx="3" fill="{START_GREEN}"/>')
            self.text(x + 26, y + 4, "START", size=9, bold=True, fill="#ffffff", anchor="middle")
        elif kind == "card":
            self.add(f'<rect x="{_n(x + 20)}" y="{_n(y - 8)}" width="12" height="16" rx="2" fill="#ffffff" '
                     f'stroke="{INK}" stroke-width="1.3"/>')
        elif kind == "bunker":
            self.add(f'<rect x="{_n(x)}" y="{_n(y - 13)}" width="52" height="26" fill="url(#concrete)" '
                     f'stroke="#000000" stroke-width="4"/>')
        elif kind == "recon":
            self.add(f'<rect x="{_n(x)}" y="{_n(y - 13)}" width="52" height="26" rx="4" fill="{PAPER}" '
                     f'stroke="{INK}" stroke-width="2" stroke-dasharray="8 5"/>')
            self.add(f'<path d="M{_n(x + 52)},{_n(y + 1)} L{_n(x + 52)},{_n(y + 13)} L{_n(x + 40)},{_n(y + 13)} Z" '
                     f'fill="url(#hatch)" stroke="{RECON}"/>')

    def panel_facts(self) -> list[tuple[str, str]]:
        bm, var = self.bm, self.var
        facts: list[tuple[str, str]] = []
        lo, hi = bm.players
        facts.append(("Players", f"{lo} to {hi}" if lo != hi else str(lo)))
        dealt: dict[str, list[str]] = {}
        for sec in bm.sectors:
            sd = self.special_damage(sec)
            if sd is not None:
                dealt.setdefault(sd, []).append(sec.name)
        for sd, where in sorted(dealt.items()):
            name = self.special_damage_name(sd).removeprefix("Special Damage: ")
            facts.append(("Special Damage", f"{name} on each MGF 6, in " + ", ".join(where)))
        specialists = var.specialists if var is not None and var.specialists is not None else bm.specialists
        items = var.items if var is not None and var.items is not None else bm.items
        vehicles = var.vehicles if var is not None and var.vehicles is not None else bm.vehicles
        facts.append(("Specialists", ", ".join(self.card_name(c) for c in specialists) or "none"))
        if var is not None and var.items is not None and not var.items:
            facts.append(("Items", "none (no Items at all, Regular Items included)"))
        else:
            facts.append(("Special Items", (", ".join(self.card_name(c) for c in items) or "none")
                          + "; the Regular Items are always available"))
        if vehicles:
            facts.append(("Vehicles", ", ".join(self.card_name(c) for c in vehicles)))
        names = {a.id: a.name for a in bm.attributes}
        for tab in bm.tables:
            facts.append((tab.name, ", ".join(f"{i} {names.get(r, r)}" for i, r in enumerate(tab.results, 1))))
        if bm.variants and var is None:
            facts.append(("Variants", ", ".join(f"{v.name} (--variant {v.id})" for v in bm.variants)))
        rules = self.content.effects.get(f"{bm.id}/rules")
        if rules is not None and rules.english:
            facts.append(("Scenario rules", " ".join(rules.english)))
        if bm.provenance == "reconstructed" and bm.note:
            facts.append(("What is stated and what is ours", " ".join(bm.note.split())))
        return facts

    def row_labels(self) -> None:
        for slot, (y, h) in sorted(self.slot_y.items()):
            board, row = self.slot_rows[slot]
            boxes = [b for b in self.boxes.values() if b.slot == slot]
            label = "Bunker" if all(b.sector.bunker for b in boxes) else f"Row {row}"
            self.text(MARGIN, y + h / 2 + 4, label, size=12, bold=True, fill="#5d4a1f", cls="row-label")
            if row == min(r for b2, r in self.slot_rows.values() if b2 == board) and self.board_names[board]:
                self.text(MARGIN, y + h / 2 + 20, "beach", size=10, italic=True, fill="#5d4a1f")

    # ------------------------------------------------------------ assembly
    def svg(self) -> str:
        self.place()
        for box in self.boxes.values():
            self.fill(box)
        cols = [b.col for b in self.boxes.values()]
        board_w = ROW_LABEL_W + (max(cols) - min(cols)) * PITCH + BOX_W
        body: list[str] = []
        self.out = body
        title_w = board_w + BOARD_PAD + PANEL_GAP + PANEL_W
        top = self.title_block(title_w)
        title_parts = self.out
        self.out = []
        bottom = self.layout(top + 30)
        conns = self.connections()
        self.attach(conns)
        for c in conns:  # straight lines first, so that detours can keep clear of them
            c.path = self.route(c, ())
        drawn = [c.path for c in conns if len(c.path) == 2]
        self.channels.clear()
        self.stubs.clear()
        for c in conns:
            if len(c.path) > 2:
                c.path = self.route(c, drawn)
                drawn.append(c.path)
        board_x0 = MARGIN + ROW_LABEL_W - BOARD_PAD
        board_x1 = MARGIN + board_w + BOARD_PAD
        self.add(f'<rect class="board" x="{_n(board_x0)}" y="{_n(top)}" width="{_n(board_x1 - board_x0)}" '
                 f'height="{_n(bottom - top + 30)}" rx="8" fill="{BOARD}" stroke="#8d7b4f" stroke-width="1.5"/>')
        self.board_seams(board_x0, board_x1)
        self.add(f'<text x="{_n((board_x0 + board_x1) / 2)}" y="{_n(top + 18)}" font-size="11" '
                 f'text-anchor="middle" fill="#5d4a1f" font-style="italic">'
                 f'{escape(self.edge_label(top=True))}</text>')
        self.add(f'<text x="{_n((board_x0 + board_x1) / 2)}" y="{_n(bottom + 22)}" font-size="11" '
                 f'text-anchor="middle" fill="#5d4a1f" font-style="italic">'
                 f'{escape(self.edge_label(top=False))}</text>')
        self.row_labels()
        for sid in sorted(self.boxes, key=lambda s: (self.boxes[s].slot, self.boxes[s].x)):
            self.draw_box(self.boxes[sid])
        for c in conns:
            self.draw_conn(c)
        self.panel_at = len(self.out)
        panel_bottom = self.panel(board_x1 + PANEL_GAP, top)
        board_parts = self.out
        width = board_x1 + PANEL_GAP + PANEL_W + MARGIN
        height = max(bottom + 30, panel_bottom) + MARGIN
        head = [
            '<?xml version="1.0" encoding="UTF-8"?>',
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{_n(width)}" height="{_n(height)}" '
            f'viewBox="0 0 {_n(width)} {_n(height)}" font-family="{FONT}" fill="{INK}" '
            f'data-map="{escape(self.bm.id)}" data-provenance="{self.bm.provenance}">',
            f"<title>{escape(self.plain_title())}</title>",
            "<defs>",
            f'<pattern id="hatch" patternUnits="userSpaceOnUse" width="6" height="6" '
            f'patternTransform="rotate(45)"><rect width="6" height="6" fill="#ffffff"/>'
            f'<line x1="0" y1="0" x2="0" y2="6" stroke="{RECON}" stroke-width="3"/></pattern>',
            f'<pattern id="concrete" patternUnits="userSpaceOnUse" width="10" height="10">'
            f'<rect width="10" height="10" fill="{BUNKER_FILL}"/><circle cx="3" cy="3" r="0.9" fill="#a59d8b"/>'
            f'<circle cx="8" cy="7" r="0.7" fill="#a59d8b"/></pattern>',
            "</defs>",
            f'<rect width="{_n(width)}" height="{_n(height)}" fill="#fbf8ef"/>',
        ]
        return "\n".join([*head, *title_parts, *board_parts, "</svg>"]) + "\n"

    panel_at = 0

    def plain_title(self) -> str:
        bm = self.bm
        base = f"Battle Map {bm.number}: {bm.name}" if bm.number else bm.name
        if self.var is not None:
            base += f" ({self.var.name})"
        return base + (" - RECONSTRUCTION" if bm.provenance == "reconstructed" else "")

    def edge_label(self, *, top: bool) -> str:
        names = self.board_names
        if len(names) > 1:
            return f"{names[-1]}: its beach at the top (turned head to head)" if top else \
                f"{names[0]}: its beach at the bottom"
        return "inland: the Bunker" if top else "the beach"

    def board_seams(self, x0: float, x1: float) -> None:
        """Between two boards: a seam line and each board's name."""
        slots = sorted(self.slot_y)
        for lower, upper in itertools.pairwise(slots):
            if self.slot_rows[lower][0] == self.slot_rows[upper][0]:
                continue
            y_low = self.slot_y[lower][0]
            y_up = self.slot_y[upper][0] + self.slot_y[upper][1]
            seam = (y_low + y_up) / 2
            self.add(f'<path class="seam" d="M{_n(x0)},{_n(seam)} H{_n(x1)}" stroke="#8d7b4f" stroke-width="3" '
                     f'stroke-dasharray="14 6"/>')
            self.text(x1 - 8, seam - 6, f"▲ {self.board_names[self.slot_rows[upper][0]]}", size=11, bold=True,
                      fill="#5d4a1f", anchor="end")
            self.text(x1 - 8, seam + 16, f"▼ {self.board_names[self.slot_rows[lower][0]]}", size=11, bold=True,
                      fill="#5d4a1f", anchor="end")

