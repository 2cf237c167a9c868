"""The layout of a battle map: boards, rows and Sector boxes (their places, sizes and contents) and the paths
of the lines between them. Nothing here writes SVG."""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from ddaydice.dsl import schema
from ddaydice.dsl.loader import Content
from ddaydice.interpreter.tools.render_map.geometry import (
    Point,
    path_length,
    seg_hits_rect,
    segments_cross,
    segments_overlap,
)
from ddaydice.interpreter.tools.render_map.style import (
    BODY_LH,
    BODY_SIZE,
    BOX_W,
    COL_GAP,
    MARGIN,
    PAD,
    PITCH,
    ROW_GAP,
    ROW_LABEL_W,
)
from ddaydice.interpreter.tools.render_map.text import plural, text_width, wrap


@attrs.define
class Item:
    """One block of a box's body: its kind decides its style."""

    kind: str  # "sd", "cost", "attr", "card", "note"
    lines: list[str]
    muted: bool = False
    value: int | None = None


@attrs.define
class Box:
    """A Sector's box: its board, its slot (the drawn row, from the bottom), its column, its contents and, once
    laid out, its place and size."""

    sector: schema.Sector
    board: int
    slot: int
    col: float
    name_lines: list[str] = attrs.Factory(list)
    items: list[Item] = attrs.Factory(list)
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
class Conn:
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


class Layout:
    """Where everything goes: the boards, each Sector's box (its place, size and contents) and each line's path."""

    def __init__(self, content: Content, bm: schema.BattleMap, var: schema.Variant | None) -> None:
        self.content = content
        self.bm = bm
        self.var = var
        self.ignore: frozenset[str] = frozenset(var.ignore) if var else frozenset()
        self.boxes: dict[str, Box] = {}
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
                self.boxes[s.id] = Box(s, b, slot, col)
                self.slot_rows[slot] = (b, s.row)
            base += rhi - rlo + 1
            self.board_names.append(self.board_name(group) if len(boards) > 1 else "")

    # ------------------------------------------------------------ box contents
    def fill(self, box: Box) -> None:
        sec = box.sector
        ignored_attrs = "attributes" in self.ignore
        box.shield_w = max(38.0, text_width(self.def_text(sec), 15, bold=True) + 16)
        name_w = BOX_W - 2 * PAD - 34 - box.shield_w - 8
        box.name_lines = wrap(sec.name, name_w, 13, bold=True)[:3]
        inner = BOX_W - 2 * PAD
        sd = self.special_damage(sec)
        if sd is not None:
            muted = bool({"special-damage", "mgf"} & self.ignore)
            box.items.append(Item("sd", wrap(self.special_damage_name(sd) + " on each MGF 6", inner - 16,
                                              BODY_SIZE), muted))
        if sec.cost is not None:
            box.items.append(Item("cost", wrap(f"Entering costs {sec.cost} Courage, from any line", inner - 26,
                                                BODY_SIZE), value=sec.cost))
        if sec.black:
            box.items.append(Item("note", wrap("Black shield: can't stay here; leave at the next Phase 4", inner,
                                                BODY_SIZE)))
        if sec.bunker and not sec.objective:
            box.items.append(Item("note", wrap("Not an objective: no Unit has to conquer it", inner, BODY_SIZE)))
        src = self.content.effects.get(f"{self.bm.id}/{sec.id}")
        for line in src.english if src is not None else ():
            box.items.append(Item("attr", wrap(line, inner - 10, BODY_SIZE), ignored_attrs))
        for pc in self.bm.placed:
            if pc.sector == sec.id:
                box.items.append(Item("card", wrap(f"{self.card_name(pc.card)}: free for the first Unit",
                                                    inner - 18, BODY_SIZE, bold=True), ignored_attrs))
        if ignored_attrs and any(i.kind in ("attr", "card") for i in box.items):
            box.items.append(Item("note", ["(attributes ignored in this variant)"], True))
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
        parts = [plural(st.soldiers, "Soldier", "Soldiers")]
        if st.stars:
            parts.append(plural(st.stars, "Star", "Stars"))
        if st.courage:
            parts.append(f"{st.courage} Courage")
        if st.item_points:
            parts.append(plural(st.item_points, "Item Point", "Item Points"))
        parts += [self.card_name(c) for c in st.specialists]
        lines = wrap("START: " + ", ".join(parts), width - 8, BODY_SIZE, bold=True)
        if st.at_least:
            lines += wrap(f"at least {plural(st.at_least, 'Unit starts', 'Units start')} here", width - 8,
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
    def connections(self) -> list[Conn]:
        conns: list[Conn] = []
        index: dict[tuple[str, str, str, int | None, bool, bool], Conn] = {}
        for ln in self.bm.lines:
            for a in ln.from_:
                for b in ln.to:
                    if a not in self.boxes or b not in self.boxes or a == b:
                        continue
                    back = index.get((b, a, ln.kind, ln.cost, ln.landmines, ln.barrier))
                    if back is not None and ln.kind == "advance":
                        back.both_ways = True
                        continue
                    conn = Conn(a, b, ln.kind, ln.cost, ln.landmines, ln.barrier)
                    index[(a, b, ln.kind, ln.cost, ln.landmines, ln.barrier)] = conn
                    conns.append(conn)
        return conns

    def attach(self, conns: list[Conn]) -> None:
        """Chooses each end's side of its box, then spreads the ends met on one side along it."""
        ends: dict[tuple[str, str], list[tuple[float, str, Conn, bool]]] = {}
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

    def route(self, c: Conn, drawn: Sequence[Sequence[Point]] = ()) -> list[Point]:
        """A straight line if it crosses no other box, else the detour through a gap that crosses
        the fewest lines already drawn, and then the shortest."""
        others = [(b.x - 4, b.y - 4, b.x + b.w + 4, b.y + b.h + 4)
                  for sid, b in sorted(self.boxes.items()) if sid not in (c.a, c.b)]

        def clear(path: Sequence[Point]) -> bool:
            return not any(seg_hits_rect(path[i], path[i + 1], r) for i in range(len(path) - 1) for r in others)

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
            return sum(1 + 2 * segments_overlap(path[i], path[i + 1], other[j], other[j + 1])
                       for other in drawn for i in range(len(path) - 1) for j in range(len(other) - 1)
                       if segments_cross(path[i], path[i + 1], other[j], other[j + 1])
                       or segments_overlap(path[i], path[i + 1], other[j], other[j + 1]))

        best, key = min(good, key=lambda g: (crossings(g[0]), round(path_length(g[0]), 3), g[0]))
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

    def route_all(self, conns: list[Conn]) -> None:
        """Every line's path: straight lines first, so that detours can keep clear of them."""
        for c in conns:
            c.path = self.route(c, ())
        drawn = [c.path for c in conns if len(c.path) == 2]
        self.channels.clear()
        self.stubs.clear()
        for c in conns:
            if len(c.path) > 2:
                c.path = self.route(c, drawn)
                drawn.append(c.path)
