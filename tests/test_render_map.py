"""``dday render``: the SVG drawing of a battle map.

The SVG of every bundled map is snapshot-tested as an .svg file (open it in a browser to look at
it; ``pytest --snapshot-update`` after a deliberate change). The other tests read the SVG as XML
and check what an owner of the printed board relies on: every Sector drawn, black shields black,
Landmines on the right lines, reconstructions marked, no box over another, no line through a box.
"""

from __future__ import annotations

import functools
import itertools
import os
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import attrs
import pytest
from click.testing import CliRunner
from syrupy.assertion import SnapshotAssertion
from syrupy.extensions.single_file import SingleFileSnapshotExtension, WriteMode

from ddaydice.dsl.loader import Content, load
from ddaydice.interpreter.cli import main
from ddaydice.interpreter.tools.render_map import RenderError, render_svg, text_width, wrap

NS = {"svg": "http://www.w3.org/2000/svg"}
TIGER_LANDMINES = {("s2", "s3"), ("s5", "s7"), ("s5", "s8"), ("s7", "s9"), ("s8", "s10")}


class SvgSnapshot(SingleFileSnapshotExtension):
    file_extension = "svg"
    _write_mode = WriteMode.TEXT


@functools.cache
def content() -> Content:
    """The bundled content with every bundled pack, for the maps the packs add (Exercise Fabius)."""
    loaded, diags = load(packs="all")
    assert loaded is not None, diags
    return loaded


def bundled_maps() -> list[str]:
    return sorted(content().maps)


@functools.cache
def tree(map_id: str, variant: str | None = None) -> ET.Element:
    return ET.fromstring(render_svg(content(), map_id, variant))


def groups(root: ET.Element, cls: str) -> list[ET.Element]:
    return [g for g in root.iter(f"{{{NS['svg']}}}g") if cls in (g.get("class") or "").split()]


def texts(elem: ET.Element) -> list[str]:
    return ["".join(t.itertext()) for t in elem.iter(f"{{{NS['svg']}}}text")]


def box_of(group: ET.Element) -> tuple[float, float, float, float]:
    rect = group.find("svg:rect", NS)
    assert rect is not None
    x, y = float(rect.get("x", "0")), float(rect.get("y", "0"))
    return x, y, x + float(rect.get("width", "0")), y + float(rect.get("height", "0"))


def points(d: str) -> list[tuple[float, float]]:
    return [(float(a), float(b)) for a, b in re.findall(r"(-?[\d.]+),(-?[\d.]+)", d)]


# ------------------------------------------------------------------ snapshots
def test_nine_base_maps_and_the_packs_maps() -> None:
    base, diags = load()
    assert base is not None, diags
    assert len(base.maps) == 9
    assert sorted(set(bundled_maps()) - set(base.maps)) == ["exercise-fabius"]
    assert content().owner_pack["map:exercise-fabius"] == "atlantikwall"


@pytest.mark.parametrize("map_id", bundled_maps())
def test_svg_snapshot(map_id: str, snapshot: SnapshotAssertion) -> None:
    assert render_svg(content(), map_id) == snapshot(extension_class=SvgSnapshot)


@pytest.mark.parametrize("variant", ["practice-run", "basic-training", "advanced-training"])
def test_variant_snapshot(variant: str, snapshot: SnapshotAssertion) -> None:
    assert render_svg(content(), "exercise-tiger", variant) == snapshot(extension_class=SvgSnapshot)


def test_deterministic() -> None:
    assert render_svg(content(), "operation-deadstick") == render_svg(content(), "operation-deadstick")


# ------------------------------------------------------------------ what is drawn
@pytest.mark.parametrize("map_id", bundled_maps())
def test_well_formed_and_every_sector_drawn(map_id: str) -> None:
    root = ET.fromstring(render_svg(content(), map_id))  # raises on malformed XML
    assert root.tag == f"{{{NS['svg']}}}svg"
    drawn = [g.get("data-sector") for g in groups(root, "sector")]
    assert sorted(drawn, key=str) == sorted(s.id for s in content().maps[map_id].sectors)
    for sec in content().maps[map_id].sectors:
        (group,) = [g for g in groups(root, "sector") if g.get("data-sector") == sec.id]
        words = " ".join(texts(group))
        assert sec.name.split()[-1] in words
        assert "/".join(str(d) for d in sec.defense) in texts(group)


@pytest.mark.parametrize("map_id", bundled_maps())
def test_every_line_drawn(map_id: str) -> None:
    bm = content().maps[map_id]
    drawn = {(g.get("data-from"), g.get("data-to")) for g in groups(tree(map_id), "line")}
    for ln in bm.lines:
        for a in ln.from_:
            for b in ln.to:
                assert (a, b) in drawn or (b, a) in drawn, (a, b)


@pytest.mark.parametrize("map_id", bundled_maps())
def test_reconstruction_marks(map_id: str) -> None:
    bm = content().maps[map_id]
    root = tree(map_id)
    title = "".join(root.find("svg:title", NS).itertext())  # type: ignore[union-attr]
    status = " ".join(t for g in [root] for t in texts(g))
    sectors = groups(root, "sector")
    if bm.provenance == "reconstructed":
        assert "RECONSTRUCTION" in title
        assert "RECONSTRUCTION" in status
        assert "As printed" not in status
        for g in sectors:
            assert "reconstructed" in (g.get("class") or "").split()
            assert "reconstructed" in texts(g)
            assert any(p.get("class") == "recon-corner" for p in g.iter(f"{{{NS['svg']}}}path"))
            assert box_rect(g).get("stroke-dasharray")
    else:
        assert bm.provenance == "printed-board"
        assert "RECONSTRUCTION" not in title and "RECONSTRUCTION" not in status
        assert "As printed" in status
        for g in sectors:
            assert "reconstructed" not in (g.get("class") or "").split()
            assert "reconstructed" not in texts(g)
            assert box_rect(g).get("stroke-dasharray") is None


def box_rect(group: ET.Element) -> ET.Element:
    rect = group.find("svg:rect", NS)
    assert rect is not None
    return rect


def test_exercise_tiger_black_shields() -> None:
    shields = {}
    for g in groups(tree("exercise-tiger"), "sector"):
        (shield,) = [p for p in g.iter(f"{{{NS['svg']}}}path") if "shield" in (p.get("class") or "")]
        shields[g.get("data-sector")] = (shield.get("class"), shield.get("fill"))
    assert shields["s4"] == ("shield black", "#000000")
    assert shields["s6"] == ("shield black", "#000000")
    for sid, (cls, fill) in shields.items():
        if sid not in ("s4", "s6"):
            assert (cls, fill) == ("shield white", "#ffffff"), sid


def test_exercise_tiger_landmines() -> None:
    lines = groups(tree("exercise-tiger"), "line")
    mined = {(g.get("data-from"), g.get("data-to")) for g in lines if "landmines" in (g.get("class") or "").split()}
    assert mined == TIGER_LANDMINES
    for g in lines:
        has_mine = bool(groups(g, "mine"))
        assert has_mine == ((g.get("data-from"), g.get("data-to")) in TIGER_LANDMINES)


def test_exercise_tiger_courage_costs() -> None:
    costs = {}
    for g in groups(tree("exercise-tiger"), "line"):
        markers = groups(g, "courage")
        costs[(g.get("data-from"), g.get("data-to"))] = [texts(m)[0] for m in markers]
    assert costs[("s1", "s2")] == ["1"]
    assert costs[("s5", "s7")] == ["2"]
    assert costs[("s8", "s10")] == ["3"]
    assert costs[("s9", "bunker")] == ["4"]
    assert costs[("s2", "s3")] == []  # lateral: no cost


def test_merville_barriers() -> None:
    bm = content().maps["merville-battery"]
    expected = {(a, b) for ln in bm.lines if ln.barrier for a in ln.from_ for b in ln.to}
    lines = groups(tree("merville-battery"), "line")
    barred = {(g.get("data-from"), g.get("data-to")) for g in lines if groups(g, "barrier")}
    assert barred == expected == {("s3", "s6"), ("s5", "s6"), ("s5", "s9"), ("s6", "s9"), ("s8", "s9")}


def test_placed_cards_and_starts() -> None:
    utah = {g.get("data-sector"): " ".join(texts(g)) for g in groups(tree("utah-beach"), "sector")}
    assert "Flame-Thrower: free for the first Unit" in utah["s12"]
    assert "Shoulder Patch: free for the first Unit" in utah["s10"]
    assert "START: 0 Soldiers, Corporal" in utah["s2"]
    assert "START: 4 Soldiers" in utah["s1"]
    bunkers = [g.get("data-sector") for g in groups(tree("gold-beach"), "bunker")]
    assert bunkers == ["bunker-west", "bunker-east"]


def test_special_damage_and_mgf() -> None:
    omaha = {g.get("data-sector"): g for g in groups(tree("omaha-beach"), "sector")}
    assert "Special Damage: -1 Specialist on each MGF 6" in " ".join(texts(omaha["s5"]))
    assert not any("Special Damage" in t for t in texts(omaha["s7"]))  # says none
    utah = {g.get("data-sector"): g for g in groups(tree("utah-beach"), "sector")}
    assert len(groups(utah["s14"], "mgf")) == 2
    assert len(groups(utah["s13"], "mgf")) == 1
    assert groups(utah["bunker"], "mgf") == []


@pytest.mark.parametrize("map_id", bundled_maps())
def test_no_box_overlaps_another_and_no_line_crosses_a_box(map_id: str) -> None:
    root = tree(map_id)
    boxes = {g.get("data-sector"): box_of(g) for g in groups(root, "sector")}
    items = sorted(boxes.items(), key=lambda kv: str(kv[0]))
    for i, (a, ra) in enumerate(items):
        for b, rb in items[i + 1:]:
            apart = ra[2] <= rb[0] or rb[2] <= ra[0] or ra[3] <= rb[1] or rb[3] <= ra[1]
            assert apart, (a, b)
    for g in groups(root, "line"):
        path = g.find("svg:path", NS)
        assert path is not None
        pts = points(path.get("d", ""))
        for sid, (x0, y0, x1, y1) in boxes.items():
            if sid in (g.get("data-from"), g.get("data-to")):
                continue
            for (ax, ay), (bx, by) in itertools.pairwise(pts):
                # sample the segment: no point of it may be inside another Sector's box
                for k in range(1, 40):
                    px, py = ax + (bx - ax) * k / 40, ay + (by - ay) * k / 40
                    assert not (x0 < px < x1 and y0 < py < y1), (g.get("data-from"), g.get("data-to"), sid)


@pytest.mark.parametrize("map_id", bundled_maps())
def test_text_fits_in_its_box(map_id: str) -> None:
    """Every text in a Sector's box ends inside the box (by the renderer's own width estimate)."""
    for g in groups(tree(map_id), "sector"):
        x0, _, x1, _ = box_of(g)
        for t in g.iter(f"{{{NS['svg']}}}text"):
            if t.get("text-anchor") in ("middle", "end"):
                continue
            size = float(t.get("font-size", "11"))
            end = float(t.get("x", "0")) + text_width("".join(t.itertext()), size, bold=t.get("font-weight") == "bold")
            assert x0 < float(t.get("x", "0")) and end <= x1, ("".join(t.itertext()), g.get("data-sector"))


def test_deadstick_boards_head_to_head() -> None:
    root = tree("operation-deadstick")
    boxes = {g.get("data-sector"): box_of(g) for g in groups(root, "sector")}
    # Merville at the bottom, beach down; Sword above it, turned round, its beach at the top
    assert boxes["m-s1"][1] > boxes["m-s13"][1] > boxes["m-bunker"][1]
    assert boxes["m-bunker"][1] > boxes["s-bunker"][1] > boxes["s-s14"][1] > boxes["s-s2"][1]
    assert boxes["s-s1"][0] > boxes["s-s3"][0]  # turned: Sword's Sector 1 on the right
    words = " ".join(texts(root))
    assert "Merville Battery (N-08)" in words and "Sword Beach (N-06)" in words


# ------------------------------------------------------------------ variants and odd data
def test_variant_says_what_it_ignores() -> None:
    words = " ".join(texts(tree("exercise-tiger", "practice-run")))
    assert "Practice Run" in words
    assert "Ignored: Sector attributes; Machine Gun Fire (MGF); Landmines" in words
    assert "MGF (1 die) - ignored" in words
    assert "(attributes ignored in this variant)" in words
    full = " ".join(texts(tree("exercise-tiger", "advanced-training")))
    assert "Nothing is ignored" in full
    assert "ignored" not in full.replace("Nothing is ignored", "")


def test_unknown_map_or_variant() -> None:
    with pytest.raises(RenderError, match="did you mean 'omaha-beach'"):
        render_svg(content(), "omaha")
    with pytest.raises(RenderError, match="did you mean 'practice-run'"):
        render_svg(content(), "exercise-tiger", "practise-run")
    with pytest.raises(RenderError, match=r"has no variant 'practice-run' \(variants: rising-def\)"):
        render_svg(content(), "gold-beach", "practice-run")
    bare = attrs.evolve(content().maps["gold-beach"], variants=())
    with pytest.raises(RenderError, match=r"has no variant 'practice-run' \(it has none\)"):
        render_svg(attrs.evolve(content(), maps={**content().maps, "gold-beach": bare}), "gold-beach", "practice-run")


def test_a_variant_draws_the_defs_it_prints() -> None:
    """Omaha Beach's Rising DEF variant prints Sector 3 as DEF 5 / 8 / 11; the map as listed, DEF 5."""
    assert "5/8/11" in " ".join(texts(tree("omaha-beach", "rising-def")))
    assert "5/8/11" not in " ".join(texts(tree("omaha-beach")))


def test_def_by_turn_and_missing_columns() -> None:
    c = content()
    bm = c.maps["exercise-tiger"]
    sectors = tuple(attrs.evolve(s, column=None, defense=(4, 6, 8) if s.id == "s5" else s.defense)
                    for s in bm.sectors)
    odd = attrs.evolve(c, maps={**c.maps, "exercise-tiger": attrs.evolve(bm, sectors=sectors)})
    root = ET.fromstring(render_svg(odd, "exercise-tiger"))
    by_id = {g.get("data-sector"): g for g in groups(root, "sector")}
    assert "4/6/8" in texts(by_id["s5"])
    boxes = {sid: box_of(g) for sid, g in by_id.items()}
    # evenly spaced in each row, centred on the same middle
    assert boxes["s4"][0] < boxes["s5"][0] < boxes["s6"][0]
    assert boxes["s5"][0] - boxes["s4"][0] == pytest.approx(boxes["s6"][0] - boxes["s5"][0])
    assert boxes["s1"][0] == pytest.approx(boxes["s5"][0]) == pytest.approx(boxes["bunker"][0])
    assert boxes["s2"][0] < boxes["s1"][0] < boxes["s3"][0]


def test_wrap() -> None:
    assert wrap("", 100, 11) == [""]
    lines = wrap("Requirement: sacrifice 1 Specialist to move here.", 120, 11)
    assert len(lines) > 1 and all(text_width(x, 11) <= 120 for x in lines)
    assert " ".join(lines) == "Requirement: sacrifice 1 Specialist to move here."
    cut = wrap("Supercalifragilisticexpialidocious", 60, 11)
    assert all(text_width(x, 11) <= 60 for x in cut) and len(cut) > 1


# ------------------------------------------------------------------ the command
def test_cli_writes_a_file(tmp_path: Path) -> None:
    out = tmp_path / "tiger.svg"
    result = CliRunner().invoke(main, ["render", "exercise-tiger", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert out.read_text(encoding="utf-8") == render_svg(content(), "exercise-tiger")
    assert "wrote" in result.stderr
    assert list(tmp_path.iterdir()) == [out]  # no temporary file left behind


def test_cli_draws_a_packs_map() -> None:
    result = CliRunner().invoke(main, ["render", "exercise-fabius", "--pack", "atlantikwall"])
    assert result.exit_code == 0, result.output
    assert result.stdout == render_svg(content(), "exercise-fabius")
    assert "RECONSTRUCTION" in result.stderr
    missing = CliRunner().invoke(main, ["render", "exercise-fabius"])
    assert missing.exit_code == 2


def test_cli_stdout_and_variant() -> None:
    result = CliRunner().invoke(main, ["render", "exercise-tiger", "--variant", "basic-training"])
    assert result.exit_code == 0, result.output
    assert result.stdout == render_svg(content(), "exercise-tiger", "basic-training")
    recon = CliRunner().invoke(main, ["render", "omaha-beach"])
    assert recon.exit_code == 0
    assert recon.stdout.startswith("<?xml")
    assert "RECONSTRUCTION" in recon.stderr


def test_cli_unknown_map_is_a_usage_error() -> None:
    result = CliRunner().invoke(main, ["render", "omaha"])
    assert result.exit_code == 2
    assert "did you mean 'omaha-beach'?" in result.stderr
    result = CliRunner().invoke(main, ["render", "exercise-tiger", "--variant", "practise-run"])
    assert result.exit_code == 2
    assert "did you mean 'practice-run'?" in result.stderr


def test_cli_failed_save_keeps_the_old_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "map.svg"
    out.write_text("the old drawing", encoding="utf-8")

    def broken_fsync(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", broken_fsync)
    result = CliRunner().invoke(main, ["render", "juno-beach", "-o", str(out)])
    assert result.exit_code == 1
    assert "cannot write" in result.stderr and "No space left on device" in result.stderr
    assert out.read_text(encoding="utf-8") == "the old drawing"
    assert list(tmp_path.iterdir()) == [out]


@pytest.mark.parametrize(("args", "said"), [
    (["render", "exercise-fabius"], "no map 'exercise-fabius' (it is in the pack 'atlantikwall', not loaded: "
                                    "add --pack atlantikwall"),
    (["render", "exercise-tigr"], "no map 'exercise-tigr' (did you mean 'exercise-tiger'?)"),
    (["conflicts", "--map", "exercise-fabius"], "add --pack atlantikwall"),
])
def test_a_map_of_a_bundled_pack_not_loaded_says_which_pack(args: list[str], said: str) -> None:
    """As simulate and play say it: a map of Atlantikwall drawn without its pack was offered 'exercise-tiger'."""
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2
    assert said in " ".join(result.output.split()), result.output
