"""Where the rulebook writes each entry's rule: the ``rulebook`` and ``rulings`` of cards, Sectors, Sector
attributes, the game rules' entries, the queries and the optional rules (schema.Cited), checked once all is read
(a ruling that no rules/rulings.yaml loaded lists: LOAD010) and gathered by the owner of each one's effect, the
name a query's derivation gives its source (``query:ID`` for a query's own)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ddaydice.dsl import schema
from ddaydice.dsl.diagnostics import Diagnostic, did_you_mean
from ddaydice.dsl.loading.content import Citation
from ddaydice.dsl.loading.reading import Builder
from ddaydice.dsl.yamlsrc import YamlDoc, position, shorten


def _cited(b: Builder) -> Iterator[tuple[str, schema.Cited, YamlDoc, Any]]:
    """Every entry that may cite the rulebook, under the owner of its effect, with its file and node."""
    for query, doc, node in b.pending_queries:
        yield f"query:{query.id}", query, doc, node
    for rule, doc, node in b.pending_rules:
        yield f"rule:{rule.id}", rule, doc, node
    for rule, doc, node in b.pending_damage:
        yield f"special-damage:{rule.id}", rule, doc, node
    for oid, (opt, doc, node) in b.options.items():
        yield f"option:{oid}", opt, doc, node
    for cid, (card, _, doc, node) in b.cards.items():
        yield cid, card, doc, node
    for mid, (bm, doc) in b.maps.items():
        for i, sec in enumerate(bm.sectors):
            yield f"{mid}/{sec.id}", sec, doc, doc.data["sectors"][i]
        for i, attr in enumerate(bm.attributes):
            yield f"{mid}/attribute:{attr.id}", attr, doc, doc.data["attributes"][i]


def check_citations(b: Builder) -> dict[str, Citation]:
    """The citations of the content read, by owner; a ruling that no rules/rulings.yaml of the base game or of a
    pack loaded lists is LOAD010, at its place."""
    listed: schema.RulingRules | None = b.rules.get("rulings.yaml")
    titles = {r.id: r.title for r in listed.rulings} if listed else {}
    out: dict[str, Citation] = {}
    for owner, entry, doc, node in _cited(b):
        for j, number in enumerate(entry.rulings):
            if number not in titles:
                line, col = position(node, ["rulings", j])
                b.diags.append(Diagnostic(
                    "LOAD010", f"no ruling '{shorten(number)}': rules/rulings.yaml lists no ruling of this number",
                    doc.file, line, col, width=len(number),
                    hint=did_you_mean(number, titles) or "the rulings are those of docs/rulings.md (rules/"
                    "rulings.yaml); a pack lists its own in its rules/rulings.yaml"))
        if entry.rulebook or entry.rulings:
            out[owner] = Citation(entry.rulebook, tuple((n, titles.get(n, "")) for n in entry.rulings))
    return out
