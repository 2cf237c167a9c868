"""Hover and go-to-definition: what the id or word under the cursor is, and where it is defined.

A card id, anywhere it stands as a value (a card's own ``id:``, a map's list, a scenario's ``specialists:``) or in
an effect, shows the card as ``dday card`` describes it (:mod:`ddaydice.interpreter.tools.card_info`): its kind,
cost, text, effect and the effect's English, provenance, where the rulebook writes it and the rulings on it, and
where it comes into play; definition goes to its ``id:``. An optional rule or a map id does the same. A word of an
effect shows its entry of the language's reference (:func:`ddaydice.dsl.reference.entry`, the page
docs/dsl-reference.md is made of); a Sector id (or a Sector attribute's) in a map file, its own ``id:`` or in the
map's effects, the Sector, with where the rulebook writes it and the rulings on it as a card shows them.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import attrs

from ddaydice.dsl import words
from ddaydice.dsl.loader import Content
from ddaydice.dsl.reference import entry
from ddaydice.interpreter.tools.card_info import card_info, citation_info, citation_lines
from ddaydice.interpreter.tools.lsp.text import Token, in_effect, is_key, is_value, phrase_at, token_at

# the names of several words (targets: 'all units', 'the german'), longest first
PHRASES = tuple(sorted((s.name for s in words.WORDS if " " in s.name), key=len, reverse=True))
# what an id may name, as the loader's origins key it
ID_KINDS = ("card", "option", "map")


@attrs.frozen
class Place:
    """Where something is defined: a file (as the loader names it) and its 1-based line and column."""

    file: str
    line: int
    column: int
    width: int


@attrs.frozen
class Found:
    """What stands under the cursor: its Markdown description and the token it covers."""

    markdown: str
    token: Token


def map_of(content: Content, path: Path) -> str | None:
    """The id of the map the file at ``path`` holds, if it is a map file of the content."""
    real = os.path.realpath(path)
    for mid in content.maps:
        where = content.origins.get(f"map:{mid}")
        if where is not None and os.path.realpath(where[0]) == real:
            return mid
    return None


def _owner(contents: Sequence[Content], kind: str, ident: str) -> Content | None:
    return next((c for c in contents if f"{kind}:{ident}" in c.origins), None)


def hover(contents: Sequence[Content], path: Path, lines: Sequence[str], line: int, char: int) -> Found | None:
    """The description of the id or word at the cursor (``contents``: the document's content first, then the
    bundled content with every pack), or None."""
    tok = token_at(lines, line, char)
    if tok is None or not contents:
        return None
    effect = in_effect(lines, line, char)
    value = is_value(lines, tok)
    if effect or value or is_key(lines, tok):
        text = describe_id(contents, tok.text)
        if text is not None:
            return Found(text, tok)
    mid = map_of(contents[0], path) if effect or value else None
    if mid is not None:
        text = describe_sector(contents[0], mid, tok.text)
        if text is not None:
            return Found(text, tok)
    if not effect:
        return None
    name = phrase_at(lines, tok, PHRASES) or tok.text
    text = entry(name, contents[0])
    return Found(text, tok) if text is not None else None


def describe_id(contents: Sequence[Content], ident: str) -> str | None:
    """A card, an optional rule or a map of that id, in Markdown."""
    owner = _owner(contents, "card", ident)
    if owner is not None and ident in owner.cards:
        return card_markdown(card_info(owner, ident))
    owner = _owner(contents, "option", ident)
    if owner is not None and ident in owner.options:
        opt = owner.options[ident]
        src = owner.effects.get(f"option:{ident}")
        english = "\n".join(f"- {line}" for line in (src.english if src else ()))
        return "\n\n".join(part for part in (f"**{opt.name}** (`{ident}`): optional rule", opt.text.strip(),
                                             english) if part)
    owner = _owner(contents, "map", ident)
    if owner is not None and ident in owner.maps:
        bm = owner.maps[ident]
        return f"**{bm.name}** (`{ident}`): battle map, {len(bm.sectors)} Sectors ({bm.provenance})"
    return None


def describe_sector(content: Content, mid: str, ident: str) -> str | None:
    """A Sector (or a named attribute) of the map, by its id, in Markdown."""
    bm = content.maps[mid]
    for sec in bm.sectors:
        if sec.id == ident:
            src = content.effects.get(f"{mid}/{sec.id}")
            english = "\n".join(f"- {line}" for line in (src.english if src else ()))
            defense = "/".join(str(d) for d in sec.defense)
            head = (f"**{sec.name}** (`{sec.id}`): Sector of {bm.name}, row {sec.row}, DEF {defense}"
                    + (f", MGF {sec.mgf}" if sec.mgf else "") + (", Bunker" if sec.bunker else ""))
            cited = citation_markdown(citation_info(content.citations.get(f"{mid}/{sec.id}")))
            return "\n\n".join(part for part in (head, sec.text.strip(), english, cited) if part)
    for attr in bm.attributes:
        if attr.id == ident:
            src = content.effects.get(f"{mid}/attribute:{attr.id}")
            english = "\n".join(f"- {line}" for line in (src.english if src else ()))
            cited = citation_markdown(citation_info(content.citations.get(f"{mid}/attribute:{attr.id}")))
            return "\n\n".join(part for part in (f"**{attr.name}** (`{attr.id}`): attribute of {bm.name}", english,
                                                   cited) if part)
    return None


def card_markdown(info: dict[str, Any]) -> str:
    """A card as ``dday card`` shows it (the same data: :func:`card_info`), in Markdown for a hover."""
    kind = info["kind_name"]
    grade = f" ({info['grade']})" if info["grade"] and info["grade"] != info["kind"] else ""
    cost = f", {info['cost']} {info['cost_unit'] or ''}".rstrip() if info["cost"] is not None else ""
    flag = "  \n**RECONSTRUCTED: not an official card**" if info["reconstructed"] else ""
    parts = [f"**{info['name']}** (`{info['id']}`): {kind}{grade}{cost}{flag}", info["text"]]
    effect = info["effect"].rstrip("\n")
    parts.append(f"```\n{effect}\n```" if effect else "*(no effect)*")
    if info["english"]:
        parts.append("In English:\n\n" + "\n".join(f"- {line}" for line in info["english"]))
    source = f"provenance: {info['provenance']}" + (f": {info['note']}" if info["note"] else "")
    parts.append(source + "  \n" + (f"pack: {info['pack']}" if info["pack"] else "the base game"))
    parts.append(citation_markdown(info))
    parts.append(_availability(info))
    return "\n\n".join(p for p in parts if p)


def citation_markdown(info: dict[str, Any]) -> str:
    """Where the rulebook writes an entry and the rulings on it (:func:`citation_lines`), as a hover's lines: a
    card's and a Sector's alike; "" for an entry that cites nothing."""
    return "  \n".join(f"**{label}** {said}" for label, said in citation_lines(info))


def _availability(info: dict[str, Any]) -> str:
    """On which maps the card comes into play (as listed, in a variant, with an optional rule)."""
    shown = []
    for m in info["maps"]:
        if m["as_listed"]["available"]:
            shown.append(m["name"])
        elif any(v["available"] for v in m["variants"]):
            shown.append(m["name"] + " (a variant)")
        else:
            shown.append(m["name"] + " (an optional rule)")
    if not shown:
        return "*In no game on any map.*"
    return "Comes into play on: " + ", ".join(shown) + f" (`dday card {info['id']}` says how)"


def definition(contents: Sequence[Content], path: Path, lines: Sequence[str], line: int,
               char: int) -> Place | None:
    """Where the card, optional rule or map at the cursor is defined (its ``id:``); in a map, a Sector's."""
    tok = token_at(lines, line, char)
    if tok is None or not contents:
        return None
    effect = in_effect(lines, line, char)
    if effect or is_value(lines, tok) or is_key(lines, tok):
        for kind in ID_KINDS:
            owner = _owner(contents, kind, tok.text)
            if owner is not None:
                file, at_line, col = owner.origins[f"{kind}:{tok.text}"]
                return Place(file, at_line, col, len(tok.text))
    if effect and map_of(contents[0], path) is not None:
        pattern = re.compile(rf"^\s*-?\s*id:\s*({re.escape(tok.text)})\s*(#.*)?$")
        for i, text in enumerate(lines):
            m = pattern.match(text)
            if m is not None:
                return Place(str(path), i + 1, m.start(1) + 1, len(tok.text))
    return None
