"""Map files (a pack's or the base game's maps/, or one given on its own), read by one routine, and each map's own
consistency once the cards are known: its sectors, lines, starting sectors and Bunker, the cards it lists or
places, its variants and its random tables."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ddaydice.dsl import schema
from ddaydice.dsl.diagnostics import Diagnostic, did_you_mean
from ddaydice.dsl.loading.reading import Builder, an
from ddaydice.dsl.sandbox import shown_path
from ddaydice.dsl.vocab import Vocabulary
from ddaydice.dsl.yamlsrc import YamlDoc, position


def load_maps(b: Builder, maps_dir: Path, pack: str | None, root: Path | None = None) -> None:
    for path in b.yaml_files(maps_dir, root or maps_dir):
        doc = b.read_declaring(path, "maps")
        if doc is not None:
            load_map_file(b, doc, pack)
    if maps_dir in b.unlisted:
        b.not_read("maps", shown_path(maps_dir))

def load_map_file(b: Builder, doc: YamlDoc, pack: str | None) -> None:
    """A map file, of a folder maps/ or given on its own, once read (:meth:`Builder.read`): registered under its
    id, its provenance and its Sectors' checked (a Sector without a note of its own has its map's)."""
    bm = b.take_file(doc, doc.data, schema.BattleMap, Path(doc.file).stem)
    if bm is None:
        b.not_read("maps", doc.file)  # the map it declares is not known
        return
    if b.claim(f"map:{bm.id}", bm.id, doc, doc.data, pack, "map"):
        b.maps[bm.id] = (bm, doc)
        b.check_provenance(bm.provenance, bm.note, doc, doc.data)
        for i, sec in enumerate(bm.sectors):
            b.check_provenance(sec.provenance, sec.note or bm.note, doc, doc.data["sectors"][i], doc.data)


def check_map(b: Builder, bm: schema.BattleMap, doc: YamlDoc, vocab: Vocabulary) -> None:
    """A map's own consistency, in this order: its sectors, its lines, its starting sectors and Bunker, the
    cards it lists or places, its random tables. (Its effects are checked with all the others.)"""
    check_map_ids(b, bm, doc)
    seen = check_map_sectors(b, bm, doc)
    check_map_lines(b, bm, doc, seen)
    check_map_start(b, bm, doc)
    check_map_cards(b, bm, doc, seen)
    check_map_tables(b, bm, doc)
    check_map_variants(b, bm, doc, seen)

# The lists of a map whose entries have ids (check_map_ids), by field: what one entry is called.
MAP_LISTS = (("sectors", "sector"), ("attributes", "attribute"), ("tables", "table"), ("variants", "variant"))


def check_map_ids(b: Builder, bm: schema.BattleMap, doc: YamlDoc) -> None:
    """Ids given twice in one of a map's lists (its Sectors, attributes, tables, variants): DUP001 at the second,
    naming the first's line. Effects name these by id, so the later would silently stand for the earlier."""
    for field, noun in MAP_LISTS:
        first: dict[str, int] = {}
        for i, entry in enumerate(getattr(bm, field)):
            line, col = position(doc.data, [field, i, "id"])
            if entry.id not in first:
                first[entry.id] = line
                continue
            b.diags.append(Diagnostic(
                "DUP001", f"duplicate {noun} id '{entry.id}' in map '{bm.id}' (first defined at "
                f"{doc.file}:{first[entry.id]})", doc.file, line, col, width=len(entry.id),
                hint=f"give each {noun} of the map an id of its own"))

def check_map_sectors(b: Builder, bm: schema.BattleMap, doc: YamlDoc) -> set[str]:
    """Each sector's DEF, Special Damage and starting Specialists; returns the map's sector ids."""
    data = doc.data
    seen = {s.id for s in bm.sectors}
    for i, sec in enumerate(bm.sectors):
        if not sec.defense:
            line, col = position(data, ["sectors", i, "defense"])
            b.diags.append(Diagnostic("MAP003", f"sector '{sec.id}' has no DEF value", doc.file, line, col,
                                         hint="write its printed DEF: 'def: [4]' (or one per chevron: "
                                         "'def: [4, 6, 8]')"))
        if sec.special_damage is not None and sec.special_damage not in {"specialist", "courage", "none"}:
            line, col = position(data, ["sectors", i, "special_damage"])
            b.diags.append(Diagnostic("SCHEMA004", f"unknown Special Damage '{sec.special_damage}'",
                                         doc.file, line, col, hint="specialist, courage or none"))
        if sec.start is not None:
            for j, spec in enumerate(sec.start.specialists):
                ref(b, spec, "specialist", doc, data, ["sectors", i, "start", "specialists", j],
                         f"sector '{sec.id}' starts with")
            for j, spec in enumerate(sec.start.regular_specialists or ()):
                ref(b, spec, "specialist", doc, data,
                         ["sectors", i, "start", "regular_specialists", j],
                         f"sector '{sec.id}' deals")
    return seen

def check_map_lines(b: Builder, bm: schema.BattleMap, doc: YamlDoc, seen: set[str]) -> None:
    """Lines to sectors the map lacks (``seen``: its sector ids), advance lines without a Courage cost,
    and line costs other than the printed cost of the sector they lead to."""
    data = doc.data
    sector_ids = [s.id for s in bm.sectors]
    priced = {s.id: s.cost for s in bm.sectors if s.cost is not None}
    for i, ln in enumerate(bm.lines):
        for side in ("from_", "to"):
            for j, sid in enumerate(getattr(ln, side)):
                if sid not in seen:
                    line, col = position(data, ["lines", i, side, j])
                    hint = did_you_mean(sid, seen) or "sectors of this map: " + ", ".join(dict.fromkeys(
                        sector_ids))
                    b.diags.append(Diagnostic("XREF002", f"line refers to unknown sector '{sid}'",
                                                 doc.file, line, col, hint=hint, width=len(sid)))
        if ln.kind == "advance" and ln.cost is None and not all(t in priced for t in ln.to):
            line, col = position(data, ["lines", i])
            b.diags.append(Diagnostic("MAP002", "an advance line needs its Courage 'cost'",
                                         doc.file, line, col, hint="write 'cost: N', the Courage it takes to "
                                         "advance along it (or give the Sectors it leads to their own 'cost')"))
        for t in ln.to:
            if ln.cost is not None and ln.kind == "advance" and priced.get(t, ln.cost) != ln.cost:
                line, col = position(data, ["lines", i, "cost"])
                b.diags.append(Diagnostic(
                    "MAP005", f"the line costs {ln.cost} Courage, but '{t}' is printed with {priced[t]}",
                    doc.file, line, col, hint="entering a Sector with its own 'cost' costs that; "
                    "drop the line's cost"))

def check_map_start(b: Builder, bm: schema.BattleMap, doc: YamlDoc) -> None:
    """A number of players that can play it, enough players for the Units its starting sectors need, a starting
    sector, and a Bunker."""
    fewest, most = bm.players
    if fewest > most:
        line, col = position(doc.data, ["players"])
        b.diags.append(Diagnostic("MAP007", f"map '{bm.id}' is for {fewest} to {most} players: no number of "
                                     "players can play it", doc.file, line, col,
                                     hint=f"write the fewest players first: 'players: [{most}, {fewest}]'"))
    floor = sum(s.start.at_least for s in bm.sectors if s.start is not None)
    if floor > bm.players[1]:
        line, col = position(doc.data, ["players"]) if "players" in doc.data else (1, 1)
        b.diags.append(Diagnostic("MAP006", f"map '{bm.id}' needs at least {floor} Units at its "
                                     f"starting sectors, but allows {bm.players[1]} players",
                                     doc.file, line, col, hint="lower the starting sectors' 'at-least', or "
                                     "allow more players"))
    if not any(s.start is not None for s in bm.sectors):
        b.diags.append(Diagnostic("MAP001", f"map '{bm.id}' has no starting sector", doc.file, 1, 1,
                                     hint="give a sector 'start:' with its starting resources"))
    if not any(s.bunker for s in bm.sectors):
        b.diags.append(Diagnostic("MAP001", f"map '{bm.id}' has no Bunker", doc.file, 1, 1,
                                     hint="mark the objective sector 'bunker: true'"))

def check_map_cards(b: Builder, bm: schema.BattleMap, doc: YamlDoc, seen: set[str]) -> None:
    """The cards the map lists, those it places (in sectors it has: ``seen``), and those its variants
    list: each must exist and be of the kind listed."""
    data = doc.data
    for field, kind in (("specialists", "specialist"), ("items", "item"), ("vehicles", "vehicle")):
        for j, cid in enumerate(getattr(bm, field)):
            ref(b, cid, kind, doc, data, [field, j], f"map '{bm.id}' lists")
    for j, pc in enumerate(bm.placed):
        ref(b, pc.card, None, doc, data, ["placed", j, "card"], f"map '{bm.id}' places")
        if pc.sector not in seen:
            line, col = position(data, ["placed", j, "sector"])
            b.diags.append(Diagnostic("XREF002", f"unknown sector '{pc.sector}'", doc.file, line, col,
                                         hint=did_you_mean(pc.sector, seen)))
    for k, var in enumerate(bm.variants):
        for field, kind in (("specialists", "specialist"), ("items", "item"), ("vehicles", "vehicle")):
            for j, cid in enumerate(getattr(var, field) or ()):
                ref(b, cid, kind, doc, data, ["variants", k, field, j], f"variant '{var.id}' lists")

def check_map_variants(b: Builder, bm: schema.BattleMap, doc: YamlDoc, seen: set[str]) -> None:
    """The Sectors a variant prints otherwise: each a sector of the map (``seen``), once, with a DEF."""
    data = doc.data
    for k, var in enumerate(bm.variants):
        given: set[str] = set()
        for i, vs in enumerate(var.sectors):
            where: list[str | int] = ["variants", k, "sectors", i]
            if vs.id not in seen:
                line, col = position(data, [*where, "id"])
                b.diags.append(Diagnostic("XREF002", f"variant '{var.id}' prints unknown sector '{vs.id}'",
                                             doc.file, line, col, width=len(vs.id),
                                             hint=did_you_mean(vs.id, seen) or "sectors of this map: "
                                             + ", ".join(s.id for s in bm.sectors)))
            elif vs.id in given:
                line, col = position(data, [*where, "id"])
                b.diags.append(Diagnostic("DUP001", f"variant '{var.id}' prints sector '{vs.id}' twice",
                                             doc.file, line, col))
            elif not vs.defense:
                line, col = position(data, [*where, "defense"])
                b.diags.append(Diagnostic("MAP003", f"variant '{var.id}' gives sector '{vs.id}' no DEF value",
                                             doc.file, line, col))
            given.add(vs.id)

def check_map_tables(b: Builder, bm: schema.BattleMap, doc: YamlDoc) -> None:
    """Random attribute tables: 6 results each, every one an attribute of the map."""
    data = doc.data
    attr_ids = {a.id for a in bm.attributes}
    for k, tab in enumerate(bm.tables):
        if len(tab.results) != 6:
            line, col = position(data, ["tables", k, "results"])
            b.diags.append(Diagnostic("MAP004", f"table '{tab.id}' has {len(tab.results)} results: it needs 6 "
                                         "(one per face of a d6)", doc.file, line, col))
        for j, res in enumerate(tab.results):
            if res not in attr_ids:
                line, col = position(data, ["tables", k, "results", j])
                b.diags.append(Diagnostic("XREF003", f"table result '{res}' is not an attribute of the map",
                                             doc.file, line, col, hint=did_you_mean(res, attr_ids)))

def ref(b: Builder, cid: str, kind: str | None, doc: YamlDoc, node: Any, path: list[str | int], what: str) -> None:
    line, col = position(node, path)
    if cid not in b.cards and b.unchecked(cid, doc.file, line, col):
        return
    if cid not in b.cards:
        pool = [c for c, (_, k, _, _) in b.cards.items() if kind is None or k == kind]
        noun = kind or "card"
        b.diags.append(Diagnostic("XREF001", f"{what} {noun} '{cid}' that does not exist",
                                     doc.file, line, col, hint=did_you_mean(cid, pool), width=len(cid)))
        return
    actual = b.cards[cid][1]
    if kind is not None and actual != kind:
        b.diags.append(Diagnostic("XREF004", f"{what} '{cid}' as {an(kind)}, but it is {an(actual)}",
                                     doc.file, line, col, width=len(cid),
                                     hint=f"name {an(kind)} here; list {an(actual)} under '{actual}s:'"
                                     + (" (the Pool), or offer it in one Sector ('on enter: offer " + cid + "')"
                                        if actual == "vehicle" else "")))
