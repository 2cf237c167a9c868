"""``dday new pack|card|scenario``: the files of a pack, laid out as the loader reads them, ready to fill in.

Every file starts with the line that names its JSON Schema, so that an editor with a YAML language server
completes and checks its keys (``dday schema``); the schemas are written into the pack's ``schemas/``. A card is
``reconstructed`` with a note saying it is the author's own (docs/modding.md, "Provenance"); a scenario stub
fails until its check is filled in. Nothing is ever overwritten, and every file is written atomically: a card is
added to its kind's file (cards/KINDS.yaml) only after the file is read as ``dday validate`` reads it, with an id no
other card has.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

import click

from ddaydice.dsl.writing import write_problem
from ddaydice.interpreter.cli.common import SuggestingGroup, echo, write_file

if TYPE_CHECKING:
    from ddaydice.dsl.diagnostics import Diagnostic
    from ddaydice.dsl.loader import Content
    from ddaydice.dsl.schema import KindDef
    from ddaydice.dsl.yamlsrc import YamlDoc

CARD_KINDS = {"specialist": "specialists", "item": "items", "vehicle": "vehicles", "award": "awards"}
GRADES = {"specialist": "regular", "item": "regular", "vehicle": None, "award": "award"}
COST = {"specialist": 2, "item": 2, "vehicle": 4, "award": None}
EFFECTS = {"specialist": "on upkeep: gain 1 soldiers", "item": "use: gain 1 courage",
           "vehicle": "def -1", "award": "use: gain 2 courage"}
# A kind an expansion declares (rules/kinds.yaml), by how its cards are held: like a Specialist or an Item (bought:
# a cost), held by a Unit and used like an Item (a Badge, a Decoration), or in play for every Unit (a Battle
# Condition): its placeholder effect and cost.
DECLARED = {"specialist": ("on upkeep: gain 1 soldiers", 2), "item": ("use: gain 1 courage", 2),
            "unit": ("use: gain 1 courage", None), "game": ("def -1", None)}
def _slug(text: str, what: str) -> str:
    """``text`` as an id (the loader's: dsl/sandbox.py's is_slug, slug_for), or a usage error."""
    from ddaydice.dsl.sandbox import is_slug, slug_for

    slug = text if is_slug(text) else slug_for(text)
    if slug is None:
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
    write_file(path, text)
    echo(f"wrote {path}", err=True)


def _refuse(diags: list[Diagnostic], message: str) -> NoReturn:
    """Print the problems as ``dday validate`` does, then refuse: nothing was written."""
    from ddaydice.dsl.diagnostics import SourceCache, render_all

    click.echo(render_all(diags, SourceCache()))
    raise click.ClickException(f"{message}: nothing was written")


def _manifest(pack: Path) -> tuple[str, list[str]]:
    """The pack's id and the packs it requires, read from its pack.yaml as the loader reads it (the folder's name
    when it names no id); a pack.yaml that cannot be read is refused with its problems."""
    from ddaydice.dsl.loader import read_source
    from ddaydice.dsl.sandbox import inside, is_slug

    manifest = pack / "pack.yaml"
    if not manifest.is_file():
        raise click.BadParameter(f"{pack} has no pack.yaml: make one with `dday new pack {pack}`",
                                 param_hint="--pack")
    _real, problem = inside(manifest, pack)
    doc, diags = (None, [problem]) if problem is not None else read_source(manifest)
    if doc is None or any(d.severity == "error" for d in diags):
        _refuse(diags, f"{manifest} cannot be read")
    data = doc.data if isinstance(doc.data, dict) else {}
    pid, requires = data.get("id"), data.get("requires")
    return (pid if isinstance(pid, str) and is_slug(pid) else _slug(pack.resolve().name, "--pack"),
            [r for r in requires if isinstance(r, str)] if isinstance(requires, list) else [])


def _held_as(pack: Path, cid: str) -> tuple[str, tuple[str, str, str | None] | None]:
    """How a Unit of the scenario holds the card, by the kind of the pack's card file that has it; or a problem
    (where, message, hint) when the pack has no such card."""
    from ddaydice.dsl.diagnostics import did_you_mean
    from ddaydice.dsl.loader import pack_cards

    field = {"specialist": "specialists: [{}]", "item": "items: [{}]", "vehicle": "vehicle: {}",
             "award": "awards: [{}]"}
    cards = pack_cards(pack)
    kind = cards.get(cid, ("",))[0]
    if kind in field:
        return ", " + field[kind].format(cid), None
    return "", ("CARD", f"no card '{cid}' in {pack / 'cards'}",
                did_you_mean(cid, cards) or f"make it with `dday new card KIND {cid}`")


#: The map (and its variant) of a new scenario, unless one is given.
DEFAULT_MAP, DEFAULT_VARIANT = "exercise-tiger", "advanced-training"


def _setup_problems(pack: Path, requires: list[str], map_id: str,
                    variant: str | None) -> list[tuple[str, str, str | None]]:
    """The problems of the scenario's map and variant, checked as ``dday simulate`` checks its set-up (tools/setups.py),
    against the content with the pack; with the bundled packs it requires when the pack itself does not load yet (a
    pack being written: ``dday validate`` tells why)."""
    from ddaydice.dsl.loader import bundled_pack_ids
    from ddaydice.dsl.places import absolute
    from ddaydice.interpreter.tools.setups import SetupEntry, check, content_for

    packs: tuple[str, ...] = (str(absolute(pack)),)
    if content_for(packs) is None:
        packs = tuple(r for r in requires if r in bundled_pack_ids())
    where = {"map": "--map", "variant": "--variant"}
    return [(where.get(key, key), message, hint)
            for key, message, hint, *_ in check(SetupEntry(map=map_id, variant=variant, packs=packs), content_for)]


def _a(kind: str) -> str:
    return ("an " if kind[:1] in set("aeiou") else "a ") + kind


def _taken(cid: str, kind: str, path: Path, pack: Path, requires: list[str]) -> None:
    """Refuse an id some card already has: one of the pack's (of any kind), or one of the base game's or of a
    bundled expansion the pack requires, which the pack's card would replace only with 'overrides: true'."""
    from ddaydice.dsl.loader import bundled_pack_ids, load_cached, pack_cards

    own = pack_cards(pack)
    if cid in own:
        held, file, line, col = own[cid]
        if Path(file).resolve() == path.resolve():
            raise click.ClickException(f"{path} already has a card '{cid}': nothing was written")
        raise click.ClickException(f"the pack already has a card '{cid}' ({_a(held)}, {file}:{line}:{col}): "
                                   "nothing was written; give the new card an id of its own")
    bundled = bundled_pack_ids()
    packs = [r for r in requires if r in bundled]
    content, _ = load_cached(packs=packs)
    if content is None and packs:
        content, _ = load_cached()
    if content is None or cid not in content.cards:
        return
    owner = content.owner_pack.get(f"card:{cid}")
    of = f"the expansion '{owner}'" if owner else "the base game"
    file, line, _col = content.origins.get(f"card:{cid}", ("", 0, 0))
    card, held = content.cards[cid], content.card_kinds[cid]
    replace = (f"; to replace {card.name} in games with your pack, write your {kind} with 'overrides: true' beside "
               "its id (docs/modding.md, § 2.3)") if held == kind else ""  # an override keeps the card's kind
    raise click.ClickException(
        f"'{cid}' is the id of the {held} {card.name} of {of}" + (f" ({file}:{line})" if file else "")
        + f": nothing was written. A card of your own needs an id of its own{replace}")


def _card_fields(kind: str, cid: str, declared: KindDef | None) -> list[tuple[str, str | int]]:
    """The new card's fields, in order: placeholders for the modder to replace (the effect: one line). A kind an
    expansion declares (``declared``) has no grade, and a cost only when its cards are bought (held as Specialists
    or Items)."""
    if declared is not None:
        effect, cost = DECLARED[declared.held_as or declared.held_by]
        grade = None
    else:
        effect, cost, grade = EFFECTS[kind], COST[kind], GRADES[kind]
    return [("id", cid), ("name", _title(cid)), ("text", "The card's text, as printed."),
            ("provenance", "reconstructed"), ("note", "Invented for this pack; not a card of D-Day Dice."),
            *((("grade", grade),) if grade else ()),
            *((("cost", cost),) if cost else ()),
            ("effect", effect + "\n")]


def _kinds(pack: Path, requires: list[str]) -> dict[str, KindDef | None]:
    """The kinds of card the pack may hold, each with its declaration: the base game's (None), and those the content
    it loads with declares (rules/kinds.yaml of the bundled packs it requires, and its own when it loads)."""
    from ddaydice.dsl.loader import bundled_pack_ids, load_cached
    from ddaydice.dsl.places import absolute

    out: dict[str, KindDef | None] = dict.fromkeys(CARD_KINDS)
    content, _ = load_cached(packs=[str(absolute(pack))])
    if content is None:  # a pack being written: the kinds of the bundled packs it requires
        content, _ = load_cached(packs=[r for r in requires if r in bundled_pack_ids()])
    for declared in content.kinds.kinds if content is not None else ():
        out.setdefault(declared.id, declared)
    return out


def _kind_file(kind: str, declared: KindDef | None) -> str:
    """The name of the pack's file of ``kind`` cards (cards/NAME.yaml): the kind's plural, as an id."""
    if declared is None:
        return CARD_KINDS[kind]
    return "-".join((declared.plural or f"{declared.name}s").lower().split())


def _unknown_kind(kind: str, kinds: list[str]) -> NoReturn:
    """A kind the pack's content does not declare: the likely one, or the bundled expansion that declares it."""
    from ddaydice.dsl.diagnostics import did_you_mean
    from ddaydice.dsl.loader import bundled_pack_ids, load_cached

    owner = next((p for p in sorted(bundled_pack_ids()) if (c := load_cached(packs=[p])[0]) is not None
                  and c.kind_def(kind) is not None), None)
    hint = (f"the kind '{kind}' is declared by the expansion '{owner}': add 'requires: [{owner}]' to the pack's "
            "pack.yaml" if owner else did_you_mean(kind, kinds) or "")
    raise click.BadParameter(f"no kind of card '{kind}' in the pack's content (kinds: {', '.join(kinds)})"
                             + (f"; {hint}" if hint else ""), param_hint="KIND")


def _entry(fields: list[tuple[str, str | int]], dash: int, key: int) -> str:
    """A card as a block list's item: its '-' at column ``dash``, its keys at column ``key``."""
    lines = []
    for i, (name, value) in enumerate(fields):
        lead = " " * dash + "-" + " " * (key - dash - 1) if i == 0 else " " * key
        if isinstance(value, str) and value.endswith("\n"):
            lines.append(f"{lead}{name}: |")
            lines += [" " * (key + 2) + line for line in value.splitlines()]
        else:
            lines.append(f"{lead}{name}: {value}")
    return "\n".join(lines) + "\n"


def _appended(doc: YamlDoc, fields: list[tuple[str, str | int]]) -> str | None:
    """The file's text with the card written after its last one, as its cards are written, when they are a block
    list that ends the file; else None."""
    cards = doc.data["cards"]
    if not cards or cards.fa.flow_style() or list(doc.data)[-1] != "cards":
        return None
    dash = cards.lc.col
    line, col = cards.lc.item(0)
    key = col if line == cards.lc.line and col > dash else dash + 2
    return doc.text + ("" if doc.text.endswith("\n") else "\n") + _entry(fields, dash, key)


def _dumped(doc: YamlDoc, fields: list[tuple[str, str | int]]) -> str:
    """The file's data with the card added, written again by ruamel's round-trip writer (comments kept, the list
    made a block list), in the layout of the files ``dday new`` writes."""
    import io

    from ruamel.yaml import YAML
    from ruamel.yaml.comments import CommentedMap
    from ruamel.yaml.scalarstring import LiteralScalarString

    yaml = YAML(typ="rt", pure=True)
    yaml.indent(mapping=2, sequence=4, offset=2)
    yaml.width = 4096
    yaml.preserve_quotes = True
    data = yaml.load(doc.text)
    cards = data["cards"]
    cards.fa.set_block_style()
    cards.append(CommentedMap([(name, LiteralScalarString(value) if isinstance(value, str) and "\n" in value
                                else value) for name, value in fields]))
    out = io.StringIO()
    yaml.dump(data, out)
    return out.getvalue()


def _keeps(doc: YamlDoc, text: str, cid: str) -> bool:
    """Whether ``text`` reads as the file did, with the card ``cid`` after its cards."""
    from ddaydice.dsl.yamlsrc import read_yaml

    again, diags = read_yaml(doc.file, text)
    if again is None or diags or not isinstance(again.data, dict):
        return False
    old, new = dict(doc.data), dict(again.data)
    cards = new.pop("cards", None)
    return (isinstance(cards, list) and old.pop("cards") == cards[:-1] and old == new
            and isinstance(cards[-1], dict) and cards[-1].get("id") == cid)


@click.group("new", cls=SuggestingGroup)
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
    from ddaydice.dsl.sandbox import is_slug, slug_for, slug_problem
    from ddaydice.dsl.yamlsrc import shorten
    from ddaydice.interpreter.cli.schema import kinds, schema_text

    for part in (folder, *(folder / sub for sub in ("cards", "scenarios", "schemas"))):  # before anything is written
        problem = write_problem(part, folder=True)
        if problem is not None:
            raise click.BadParameter(problem, param_hint="FOLDER")
    pid = folder.resolve().name
    if not is_slug(pid):  # the loader knows a pack by its folder's name, which must be its id (PACK001)
        made = slug_for(pid[:MAX_ID_CHARS])
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
        write_file(folder / "schemas" / f"{kind}.json", schema_text(kind))
    echo(f"wrote {len(kinds())} schemas into {folder / 'schemas'}", err=True)
    echo(f"next: dday new card item my-item --pack {folder}", err=True)


@new.command("card")
@click.argument("kind", metavar="KIND")
@click.argument("card_id", metavar="ID")
@click.option("--pack", "pack", type=click.Path(path_type=Path, file_okay=False), default=Path(),
              show_default=True, help="The pack folder (with pack.yaml).")
def new_card(kind: str, card_id: str, pack: Path) -> None:
    """A card of KIND (specialist, item, vehicle, award, or a kind the pack's content declares: an expansion's the
    pack requires, such as Atlantikwall's badge, battle-condition or decoration), added to the pack's
    cards/KINDS.yaml.

    The file is read first as `dday validate` reads it: one that is no card file of KIND inside the pack is
    refused with its problems, and so is an id another card has (the pack's, the base game's or a required
    expansion's). The card goes after the file's last one; the old file stays as it was if the write fails.
    """
    from ddaydice.dsl.loader import read_card_file
    from ddaydice.dsl.sandbox import inside

    _pid, requires = _manifest(pack)
    kinds = _kinds(pack, requires)
    if kind not in kinds:
        _unknown_kind(kind, list(kinds))
    cid = _slug(card_id, "ID")
    path = pack / "cards" / f"{_kind_file(kind, kinds[kind])}.yaml"
    fields = _card_fields(kind, cid, kinds[kind])
    if not path.exists() and not path.is_symlink():
        _real, problem = inside(path.parent, pack)
        if problem is not None:
            _refuse([problem], f"{path.parent} is not the pack's")
        _taken(cid, kind, path, pack, requires)
        _write_new(path, _schema_line(path, pack, "cards") + f"kind: {kind}\ncards:\n" + _entry(fields, 2, 4))
    else:
        doc, diags = read_card_file(path, pack, kind)
        if doc is None or any(d.severity == "error" for d in diags):
            _refuse(diags, f"{path} is not a card file of {kind}s that a card can be added to")
        _taken(cid, kind, path, pack, requires)
        text = _appended(doc, fields)
        if text is None or not _keeps(doc, text, cid):
            text = _dumped(doc, fields)
        if not _keeps(doc, text, cid):
            raise click.ClickException(f"the card could not be added to {path} keeping what it holds: nothing was "
                                       "written; add it by hand")
        write_file(path.resolve(), text)  # a link inside the pack (one out of it is refused): the file it leads to
        echo(f"added {cid} to {path}", err=True)
    echo(f"next: dday new scenario {cid} --pack {pack}; dday validate {pack}", err=True)


@new.command("scenario")
@click.argument("card_id", metavar="CARD")
@click.option("--pack", "pack", type=click.Path(path_type=Path, file_okay=False), default=Path(),
              show_default=True, help="The pack folder (with pack.yaml).")
@click.option("--map", "map_id", default=DEFAULT_MAP, show_default=True)
@click.option("--variant", help=f"A variant of the map (default: {DEFAULT_VARIANT} on {DEFAULT_MAP}, else none).")
def new_scenario(card_id: str, pack: Path, map_id: str, variant: str | None) -> None:
    """A scenario for CARD in the pack's scenarios/: it fails until its check says what the card must do.

    CARD must be a card of the pack, and the map and its variant must be in the game with the pack (the base game's,
    a required pack's or the pack's own): anything else is refused, every problem at once, and nothing is written.
    """
    from ddaydice.interpreter.tools.setups import problems_text

    pid, requires = _manifest(pack)
    cid = _slug(card_id, "CARD")
    path = pack / "scenarios" / f"{cid}.yaml"
    if variant is None and map_id == DEFAULT_MAP:
        variant = DEFAULT_VARIANT
    held, card_problem = _held_as(pack, cid)
    problems = [*([card_problem] if card_problem else []), *_setup_problems(pack, requires, map_id, variant)]
    if problems:
        raise click.UsageError(problems_text(problems) + "\nnothing was written")
    stub = _Stub(cid, map_id, variant, pid, held)
    _write_new(path, _schema_line(path, pack, "scenario") + _runnable(stub, pack, path).text())
    echo(f"next: dday scenario run {path}", err=True)


def _bringers(content: Content, cid: str) -> list[str]:
    """The optional rules to try for a card the map does not offer: those it says it comes with ('only-in') first,
    then those that make the most Specialists available and the fewest other cards (an option that cannot be built
    alone is left out)."""
    from ddaydice.dsl.diagnostics import RuleError
    from ddaydice.interpreter.core.option_rules import OptionRules
    from ddaydice.interpreter.mechanisms.options import reachable

    def reach(option: str) -> tuple[int, int]:  # (Specialists made available, - every card made available)
        try:
            cards = reachable(OptionRules.build(content, (option,)), content)
        except RuleError:
            return -1, 0
        return sum(content.card_kinds.get(c) == "specialist" for c in cards), -len(cards)

    only_in = content.cards[cid].only_in
    reaches = {o: reach(o) for o in content.options}
    ranked = sorted(content.options, key=lambda o: (o not in only_in, [-n for n in reaches[o]], o))
    return [o for o in ranked if o in only_in or reaches[o][0] >= 0]


@dataclasses.dataclass(frozen=True)
class _Stub:
    """A new scenario's text: the card held by Unit 1 on the map, one step and the check to fill in."""

    cid: str
    map_id: str
    variant: str | None
    pid: str
    held: str
    options: tuple[str, ...] = ()
    uses: bool = True  # the card has a use: the step uses it (else a phase is played)

    def text(self) -> str:
        steps = f"steps:\n  - {{use: {self.cid}}}   # or a phase: '- phase: combat'\n" if self.uses else \
            "steps: []   # none: the check reads the position set up (or play one: '- phase: combat')\n"
        return (f'scenario: "{_title(self.cid)}: what it does (one sentence)"\n'
                f"map: {self.map_id}\n"
                + (f"variant: {self.variant}\n" if self.variant else "")
                + (f"options: [{', '.join(self.options)}]\n" if self.options else "") +
                f"packs: [{self.pid}]\n"
                "fallback: none\n"
                "ruling: |\n"
                "  The card's text, and how you read it where it could be read two ways.\n"
                "units:\n"
                f"  - {{id: u1, sector: s1, soldiers: 4, courage: 1{self.held}}}\n"
                + steps +
                "expect:\n"
                '  - u1.courage: "fill in"   # what the card must leave: this check fails until you write it\n')


def _runnable(stub: _Stub, pack: Path, path: Path) -> _Stub:
    """The stub as a scenario that runs and fails only its own check (docs/modding.md): a step that uses the card
    only when it has a use, and, for a card the map does not offer (a new Specialist is on no map), the first
    optional rule that brings it, found by checking the stub as ``dday scenario run`` does. A pack that does not
    load yet keeps the plain stub (``dday validate`` says why)."""
    from ddaydice.dsl.places import absolute
    from ddaydice.interpreter.tools.scenario_file import load_scenario
    from ddaydice.interpreter.tools.setups import content_for

    content = content_for((str(absolute(pack)),))
    if content is None or stub.cid not in content.effects:
        return stub
    stub = dataclasses.replace(stub, uses=bool(content.effects[stub.cid].compiled.uses))

    def problems(candidate: _Stub) -> list[str]:
        _, diags = load_scenario(path, content, text=candidate.text())
        return [d.message for d in diags if d.severity == "error"]

    if not problems(stub):
        return stub
    for option in _bringers(content, stub.cid):
        tried = dataclasses.replace(stub, options=(option,))
        if not problems(tried):
            return tried
    return stub
