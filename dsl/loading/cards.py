"""Card files (a pack's or the base game's cards/, or one given on its own): the envelope (its ``kind``, its list of
cards), each card on its own (salvaged when it has problems, so that one broken card hides no other), registered
under its id (duplicates, overrides of a card of the same kind); and a pack's cards read for ``dday new``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ddaydice.dsl import schema
from ddaydice.dsl.diagnostics import Diagnostic, did_you_mean, suggest
from ddaydice.dsl.loading.discovery import pack_dirs
from ddaydice.dsl.loading.reading import Builder, an
from ddaydice.dsl.places import bundled_root
from ddaydice.dsl.sandbox import inside, is_slug, looked_at, shown_path, slug_for
from ddaydice.dsl.yamlsrc import YamlDoc, position, read_yaml, salvaged, shorten


def load_cards(b: Builder, cards_dir: Path, pack: str | None, root: Path | None = None) -> None:
    for path in b.yaml_files(cards_dir, root or cards_dir):
        doc = b.read_declaring(path, "cards")
        if doc is not None:
            load_card_file(b, doc, pack)
    if cards_dir in b.unlisted:
        b.not_read("cards", shown_path(cards_dir))

def load_card_file(b: Builder, doc: YamlDoc, pack: str | None) -> None:
    """A card file, of a folder cards/ or given on its own, once read (:meth:`Builder.read`): its envelope, then
    each card."""
    found = card_envelope(b, doc)
    if found is None:
        b.not_read("cards", doc.file)  # its cards are not known
        return
    cf, nodes = found
    for i, node in enumerate(nodes):
        card, left_out = take_card(b, doc, node, i)
        if card is None:
            # No id to stand under (_card_stand_ins): its effect is still checked (after the vocabulary is
            # known), so every error shows at once.
            if isinstance(node, dict) and isinstance(node.get("effect"), str):
                b.broken_cards.append((str(node.get("id", f"card {i + 1}")), cf.kind, doc, node))
            continue
        add_card(b, card, cf.kind, doc, node, pack, left_out)

def take_card(b: Builder, doc: YamlDoc, node: Any, i: int) -> tuple[schema.Card | None, frozenset[str]]:
    """The ``i``-th card of a card file, its problems told as :meth:`Builder.take` tells them; when it has any, what
    of it reads (:func:`salvaged`, with :func:`_card_stand_ins`) and the keys not taken as written, so that it is
    checked as any card is (DUP001, PROV001, its cost, its options, its effect) and known to what names it (no
    XREF001 for a card that is there): every problem told once, and the load fails all the same."""
    card = b.take(doc, node, schema.Card, ["cards", i])
    if card is not None:
        return card, frozenset()
    return salvaged(node, schema.Card, _card_stand_ins(node))

def add_card(b: Builder, card: schema.Card, kind: str, doc: YamlDoc, node: Any, pack: str | None,
             left_out: frozenset[str] = frozenset()) -> None:
    """A card of a card file, checked and registered under its id (``left_out``: the keys of a card with
    problems that were not taken as written, whose checks are left to the problem told of them)."""
    # An 'overrides' that cannot be read, on an id that is taken: whether the card replaces the other or is a
    # duplicate is not known, so neither DUP001, DUP002 nor DUP003 is told (the card first loaded stays).
    unsure = "overrides" in left_out and f"card:{card.id}" in b.origins
    if unsure or not same_kind_override(b, card, kind, doc, node, pack):
        if card.effect:
            b.broken_cards.append((card.id, kind, doc, node))  # its effect is still checked
        return
    if b.claim(f"card:{card.id}", card.id, doc, node, pack, "card", overrides=card.overrides):
        b.cards[card.id] = (card, kind, doc, node)
    elif card.effect:
        b.broken_cards.append((card.id, kind, doc, node))  # a duplicate (DUP001): its effect is still checked
    b.check_provenance(card.provenance, card.note, doc, node)
    if kind in {"specialist", "item", "vehicle"} and card.cost is None and "cost" not in left_out:
        line, col = position(node, ["id"], key=True)
        b.diags.append(Diagnostic("SCHEMA003", f"missing required key 'cost' for {an(kind)}", doc.file, line, col))

def card_envelope(b: Builder, doc: YamlDoc, declared: tuple[str, ...] = ()) -> tuple[schema.CardFile, list[Any]] | None:
    """A card file's envelope (its ``kind``, and ``cards`` a list), checked before each card on its own, so that
    one broken card hides no other; None, with its diagnostics, when it is not well-formed. ``declared``: kinds
    known beside those of the rules read so far (a required expansion's, for a file read alone)."""
    data = doc.data
    envelope = data.copy() if isinstance(data, dict) else data  # a CommentedMap copy keeps the positions
    if isinstance(envelope, dict):
        envelope["cards"] = []
    cf = b.take_file(doc, envelope, schema.CardFile, Path(doc.file).stem)
    if cf is None:
        return None
    kinds = known_kinds(b) + [k for k in declared if k not in known_kinds(b)]
    if cf.kind not in kinds:
        line, col = position(data, ["kind"])
        owner = bundled_kind_owner(b, cf.kind)
        hint = (f"the kind '{cf.kind}' is declared by the expansion '{owner}': load it (--pack {owner}, or "
                f"'requires: [{owner}]' in your pack.yaml)" if owner else
                did_you_mean(cf.kind, kinds) or "kinds: " + ", ".join(kinds))
        b.diags.append(Diagnostic("SCHEMA004", f"'kind': '{cf.kind}' is not allowed", doc.file, line, col,
                                     hint=hint))
        meant = None if owner else suggest(cf.kind, kinds)
        if meant is None:
            return None
        # A slip ('vehicles' for 'vehicle'): the cards are read as that kind's, so that what names them is not
        # told of as well (XREF001 at a map's list, DSL102 at an 'offer'): one mistake, one error. The load still
        # fails on the kind.
        cf = schema.CardFile(kind=meant, cards=cf.cards)
    nodes = data.get("cards")
    if not isinstance(nodes, list):
        line, col = position(data, ["cards"], key=True)
        b.diags.append(Diagnostic("SCHEMA003" if nodes is None else "SCHEMA004",
                                     "missing required key 'cards'" if nodes is None else
                                     "'cards': expected a list of cards", doc.file, line, col))
        return None
    return cf, nodes

def same_kind_override(b: Builder, card: schema.Card, kind: str, doc: YamlDoc, node: Any, pack: str | None) -> bool:
    """Whether a card that says 'overrides: true' is of the kind of the card it would replace (or replaces
    none). An override takes the replaced card's place in every map, deck and list that names it: of another
    kind, it is refused (DUP003, at its 'overrides'), and the card it names stays as it was."""
    replaced = b.cards.get(card.id)
    if not card.overrides or pack is None or replaced is None or replaced[1] == kind:
        return True
    if b.owner_pack.get(f"card:{card.id}") == pack:
        return True  # a duplicate within one pack: DUP001 (claim)
    line, col = position(node, ["overrides"], key=True)
    b.diags.append(Diagnostic(
        "DUP003", f"'{card.id}' overrides {an(replaced[1])}, but is written as {an(kind)}: an override keeps "
        "the kind of the card it replaces", doc.file, line, col, width=len("overrides"),
        hint=f"to replace the {replaced[1]} '{card.id}', write it in a card file of 'kind: {replaced[1]}'; "
        f"a new {kind} takes an id of its own"))
    return False

def bundled_kind_owner(b: Builder, kind: str) -> str | None:
    """The expansion under this tree whose rules/kinds.yaml declares ``kind``, for a hint when it is not loaded."""
    for pack_dir in pack_dirs(b.root):
        kinds_file = pack_dir / "rules" / "kinds.yaml"
        looked_at(kinds_file)
        readable = kinds_file.is_file() and inside(kinds_file, pack_dir) == (kinds_file.resolve(), None)
        doc, _ = read_yaml(str(kinds_file)) if readable else (None, [])
        declared = doc.data.get("kinds") if doc is not None and isinstance(doc.data, dict) else None
        if isinstance(declared, list) and any(isinstance(k, dict) and k.get("id") == kind for k in declared):
            return pack_dir.name
    return None

def known_kinds(b: Builder) -> list[str]:
    """The base game's kinds of cards and those the rules loaded so far declare (rules/kinds.yaml)."""
    declared: schema.KindRules | None = b.rules.get("kinds.yaml")
    return list(schema.BASE_KINDS) + [k.id for k in (declared.kinds if declared else ())]


def _card_stand_ins(node: Any) -> dict[str, Any]:
    """What a card with problems takes, for the checks after it, in place of a required key that is missing or wrong
    (:func:`take_card`). Its id: as written, or, when that is text but no id, the id it stands for
    (:func:`slug_for`: 'Bar_Foo' is 'bar-foo', the id its SCHEMA004 proposes), which a map, a side or a card that
    names it most likely writes (an id in a list of cards must be one); a DUP001 for it then tells that the fix
    the hint proposes would take an id that is taken. None when no id can be read (missing, a
    number, a list, a text with no id in it): such a card is named by nothing and not registered, for an id of
    ours would be one nobody wrote, named in later messages (DUP001, OPT003) and hints; its effect is checked all
    the same. Its name: its id (names are for people). Text: empty. Provenance 'rulebook' asks for no note (no
    PROV001 for a provenance that was wrong or missing)."""
    written = node.get("id") if isinstance(node, dict) else None
    ident = written if is_slug(written) else slug_for(written) if isinstance(written, str) else None
    out: dict[str, Any] = {"text": "", "provenance": "rulebook"}
    return out | ({"id": ident, "name": ident} if ident else {})


def read_card_file(path: Path, pack_dir: Path, kind: str) -> tuple[YamlDoc | None, list[Diagnostic]]:
    """A pack's card file of ``kind`` (the base game's, or one the content the pack loads with declares), read as
    the loader reads it, before a card is added
    to it (``dday new card``): the document when it is well-formed, and what ``dday validate`` would say of its
    place and envelope (a link out of the pack, a file that cannot be read as YAML, ``kind`` and ``cards`` of the
    wrong shape), or that it holds another kind of card. Its cards themselves are not checked here."""
    b = Builder(bundled_root())
    if not b.allowed(path, pack_dir):
        return None, b.diags
    doc = b.read(path)
    if doc is None:
        return None, b.diags
    given = doc.data.get("kind") if isinstance(doc.data, dict) else None
    if isinstance(given, str) and given != kind:  # before the envelope: a kind the pack declares is not known here
        line, col = position(doc.data, ["kind"])
        b.diags.append(Diagnostic("SCHEMA004", f"'kind': '{shorten(given)}' is not allowed in the file of {kind} cards",
                                  doc.file, line, col, width=len(given),
                                  hint=f"this file holds {shorten(given)} cards: add a card of that kind to it, or "
                                  f"give the {kind} cards a file of their own"))
        return None, b.diags
    return (doc if card_envelope(b, doc, (kind,)) is not None else None), b.diags


def pack_cards(pack_dir: Path) -> dict[str, tuple[str, str, int, int]]:
    """The cards a pack's folder defines, by id: each one's kind and place (file, line, column), read as the loader
    reads them (links out of the pack refused); a file or a card that cannot be read is left out, for ``dday
    validate`` to report."""
    b = Builder(bundled_root())
    found: dict[str, tuple[str, str, int, int]] = {}
    for path in b.yaml_files(pack_dir / "cards", pack_dir):
        doc = b.read(path)
        data = doc.data if doc is not None else None
        kind, nodes = (data.get("kind"), data.get("cards")) if isinstance(data, dict) else (None, None)
        if not isinstance(kind, str) or not isinstance(nodes, list):
            continue
        for i, node in enumerate(nodes):
            cid = node.get("id") if isinstance(node, dict) else None
            if isinstance(cid, str) and cid not in found and doc is not None:
                found[cid] = (kind, doc.file, *position(data, ["cards", i, "id"]))
    return found
