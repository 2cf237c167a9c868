"""``dday new pack|card|scenario``: the files of a pack, laid out as the loader reads them, ready to fill in.

Every file starts with the line that names its JSON Schema, so that an editor with a YAML language server
completes and checks its keys (``dday schema``); the schemas are written into the pack's ``schemas/``. A card is
``reconstructed`` with a note saying it is the author's own (docs/modding.md, "Provenance"); a scenario stub
fails until its check is filled in. Nothing is ever overwritten, and every file is written atomically.
"""

from __future__ import annotations

import re
from pathlib import Path

import click

from ddaydice.interpreter.cli.common import output_problem
from ddaydice.interpreter.cli.render import write_atomically

CARD_KINDS = {"specialist": "specialists", "item": "items", "vehicle": "vehicles", "award": "awards"}
GRADES = {"specialist": "regular", "item": "special", "vehicle": None, "award": "award"}
COST = {"specialist": "2", "item": "2", "vehicle": "4", "award": None}
EFFECTS = {"specialist": "on upkeep: gain 1 soldiers", "item": "use: gain 1 courage",
           "vehicle": "def -1", "award": "use: gain 2 courage"}
_SLUG = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")


def _slug(text: str, what: str) -> str:
    slug = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
    if not _SLUG.fullmatch(slug):
        raise click.BadParameter(f"cannot make an id of {text!r}: use lower-case letters, digits and '-'",
                                 param_hint=what)
    return slug


def _title(slug: str) -> str:
    return " ".join(w.capitalize() for w in slug.split("-"))


def _schema_line(file: Path, pack: Path, kind: str) -> str:
    rel = Path(*[".."] * (len(file.relative_to(pack).parts) - 1), "schemas", f"{kind}.json")
    return f"# yaml-language-server: $schema={rel.as_posix()}\n"


def _write_new(path: Path, text: str) -> None:
    if path.exists():
        raise click.ClickException(f"{path} exists: nothing was written (dday new never overwrites a file)")
    _write(path, text)
    click.echo(f"wrote {path}", err=True)


def _write(path: Path, text: str) -> None:
    """Write a file atomically, making its folders; a failure is an error naming the file, not a traceback."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomically(path, text)
    except OSError as exc:
        raise click.ClickException(f"cannot write {path}: {exc.strerror or exc}") from exc


def _pack_of(pack: Path) -> str:
    manifest = pack / "pack.yaml"
    if not manifest.is_file():
        raise click.BadParameter(f"{pack} has no pack.yaml: make one with `dday new pack {pack}`",
                                 param_hint="--pack")
    found = re.search(r"^id:\s*([a-z0-9-]+)\s*$", manifest.read_text(encoding="utf-8"), re.MULTILINE)
    return found.group(1) if found else _slug(pack.resolve().name, "--pack")


def _held_as(pack: Path, cid: str) -> str:
    """How a Unit of the scenario holds the card, by the kind of the pack's card file that has it."""
    field = {"specialist": "specialists: [{}]", "item": "items: [{}]", "vehicle": "vehicle: {}",
             "award": "awards: [{}]"}
    for path in sorted((pack / "cards").glob("*.yaml")):
        text = path.read_text(encoding="utf-8")
        kind = re.search(r"^kind:\s*([a-z-]+)\s*$", text, re.MULTILINE)
        if kind and kind.group(1) in field and re.search(rf"^\s*-\s*id:\s*{re.escape(cid)}\s*$", text,
                                                          re.MULTILINE):
            return ", " + field[kind.group(1)].format(cid)
    raise click.BadParameter(f"no card '{cid}' in {pack / 'cards'}: make it with `dday new card KIND {cid}`",
                             param_hint="CARD")


@click.group("new")
def new() -> None:
    """Start a pack, a card or a scenario: files laid out as the loader reads them, ready to fill in.

    Each file names its JSON Schema on its first line (an editor with a YAML language server then completes
    and checks its keys); nothing is ever overwritten.
    """


@new.command("pack")
@click.argument("folder", type=click.Path(path_type=Path, file_okay=False))
@click.option("--name", help="The pack's name, as players read it (default: from the folder's name, its id).")
def new_pack(folder: Path, name: str | None) -> None:
    """A pack folder: pack.yaml, cards/, scenarios/ and the JSON Schemas in schemas/.

    The folder's name is the pack's id, as the loader reads a pack (lower-case letters, digits and '-':
    my-rations); a name that is no id is refused, with the id to use. --name gives the pack the name
    players read (My Rations).
    """
    from ddaydice.dsl.limits import MAX_ID_CHARS
    from ddaydice.dsl.sandbox import is_slug, slug_problem
    from ddaydice.dsl.yamlsrc import shorten
    from ddaydice.interpreter.cli.schema import kinds, schema_text

    for part in (folder, *(folder / sub for sub in ("cards", "scenarios", "schemas"))):  # before anything is written
        problem = output_problem(part, folder=True)
        if problem is not None:
            raise click.BadParameter(problem, param_hint="FOLDER")
    pid = folder.resolve().name
    if not is_slug(pid):  # the loader knows a pack by its folder's name, which must be its id (PACK001)
        made = re.sub(r"[^a-z0-9]+", "-", pid.lower()).strip("-")[:MAX_ID_CHARS].strip("-")
        raise click.BadParameter(
            f"a pack's folder is named by the pack's id, and '{shorten(pid, MAX_ID_CHARS)}' is no id "
            f"({slug_problem(pid)})"
            + (f": name it '{made}'" + ("" if name else f" (--name '{_title(made)}' gives the pack its name)")
               if made else ""), param_hint="FOLDER")
    manifest = folder / "pack.yaml"
    _write_new(manifest, _schema_line(manifest, folder, "pack") + (
        f"id: {pid}\n"
        f"name: {name or _title(pid)}\n"
        'version: "0.1"\n'
        "text: >-\n"
        "  What this pack adds to the game, in a sentence or two.\n"
        "provenance: reconstructed\n"
        "note: >-\n"
        "  Say which parts are your own (all of it, for a pack of your invention): no rulebook describes them.\n"
        "requires: []\n"))
    for sub in ("cards", "scenarios"):
        (folder / sub).mkdir(exist_ok=True)
    for kind in sorted(kinds()):
        _write(folder / "schemas" / f"{kind}.json", schema_text(kind))
    click.echo(f"wrote {len(kinds())} schemas into {folder / 'schemas'}", err=True)
    click.echo(f"next: dday new card item my-item --pack {folder}", err=True)


@new.command("card")
@click.argument("kind", type=click.Choice(sorted(CARD_KINDS)))
@click.argument("card_id", metavar="ID")
@click.option("--pack", "pack", type=click.Path(path_type=Path, file_okay=False), default=Path(),
              show_default=True, help="The pack folder (with pack.yaml).")
def new_card(kind: str, card_id: str, pack: Path) -> None:
    """A card of KIND (specialist, item, vehicle, award), added to the pack's cards/KINDS.yaml."""
    _pack_of(pack)
    cid = _slug(card_id, "ID")
    path = pack / "cards" / f"{CARD_KINDS[kind]}.yaml"
    entry = (f"  - id: {cid}\n"
             f"    name: {_title(cid)}\n"
             "    text: The card's text, as printed.\n"
             "    provenance: reconstructed\n"
             "    note: Invented for this pack; not a card of D-Day Dice.\n"
             + (f"    grade: {GRADES[kind]}\n" if GRADES[kind] else "")
             + (f"    cost: {COST[kind]}\n" if COST[kind] else "")
             + "    effect: |\n"
             f"      {EFFECTS[kind]}\n")
    if path.exists():
        text = path.read_text(encoding="utf-8")
        if re.search(rf"^\s*-\s*id:\s*{re.escape(cid)}\s*$", text, re.MULTILINE):
            raise click.ClickException(f"{path} already has a card '{cid}': nothing was written")
        write_atomically(path, text + ("" if text.endswith("\n") else "\n") + entry)
        click.echo(f"added {cid} to {path}", err=True)
    else:
        _write_new(path, _schema_line(path, pack, "cards") + f"kind: {kind}\ncards:\n" + entry)
    click.echo(f"next: dday new scenario {cid} --pack {pack}; dday validate {pack}", err=True)


@new.command("scenario")
@click.argument("card_id", metavar="CARD")
@click.option("--pack", "pack", type=click.Path(path_type=Path, file_okay=False), default=Path(),
              show_default=True, help="The pack folder (with pack.yaml).")
@click.option("--map", "map_id", default="exercise-tiger", show_default=True)
@click.option("--variant", default="advanced-training", show_default=True)
def new_scenario(card_id: str, pack: Path, map_id: str, variant: str) -> None:
    """A scenario for CARD in the pack's scenarios/: it fails until its check says what the card must do."""
    pid = _pack_of(pack)
    cid = _slug(card_id, "CARD")
    path = pack / "scenarios" / f"{cid}.yaml"
    held = _held_as(pack, cid)
    _write_new(path, _schema_line(path, pack, "scenario") + (
        f'scenario: "{_title(cid)}: what it does (one sentence)"\n'
        f"map: {map_id}\n"
        f"variant: {variant}\n"
        f"packs: [{pid}]\n"
        "fallback: none\n"
        "ruling: |\n"
        "  The card's text, and how you read it where it could be read two ways.\n"
        "units:\n"
        f"  - {{id: u1, sector: s1, soldiers: 4, courage: 1{held}}}\n"
        "steps:\n"
        f"  - {{use: {cid}}}   # or a phase: '- phase: combat'\n"
        "expect:\n"
        '  - u1.courage: "fill in"   # what the card must leave: this check fails until you write it\n'))
    click.echo(f"next: dday scenario run {path}", err=True)
