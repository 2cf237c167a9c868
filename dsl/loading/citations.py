"""Where the rulebook writes each entry's rule: the ``rulebook`` and ``rulings`` of cards, Sectors, Sector
attributes, the game rules' entries, the queries, the phases, the order of precedence and the optional rules
(schema.Cited), checked once all is read (a ruling's number that is none, or a query a ruling names that no
rules/queries.yaml lists: LOAD013; a ruling that no rules/rulings.yaml loaded lists: LOAD010) and gathered by the
owner of each one's effect, the name a query's derivation gives its source (``query:ID`` for a query's own,
``phase:ID`` for a phase's, ``precedence`` for the order of precedence's)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ddaydice.dsl import schema
from ddaydice.dsl.diagnostics import Diagnostic, did_you_mean
from ddaydice.dsl.limits import RulingRule
from ddaydice.dsl.loading.content import Citation
from ddaydice.dsl.loading.reading import Builder
from ddaydice.dsl.yamlsrc import YamlDoc, position, shorten


def _cited(b: Builder) -> Iterator[tuple[str, schema.Cited, YamlDoc, Any]]:
    """Every entry that may cite the rulebook, under the owner of its effect, with its file and node."""
    for query, doc, node in b.pending_queries:
        yield f"query:{query.id}", query, doc, node
    for rule, doc, node in b.pending_rules:
        yield f"rule:{rule.id}", rule, doc, node
    yield from b.pending_cited
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
    """The citations of the content read, by owner; every entry of a ``rulings:`` list is checked, and every
    mistake reported at its place at once: a number that is none, or a query no rules/queries.yaml lists (LOAD013),
    a number that no rules/rulings.yaml of the base game or of a pack loaded lists (LOAD010)."""
    listed: schema.RulingRules | None = b.rules.get("rulings.yaml")
    titles = {r.id: r.title for r in listed.rulings} if listed else {}
    queries = {query.id: query.name for query, _, _ in b.pending_queries}
    out: dict[str, Citation] = {}
    for owner, entry, doc, node in _cited(b):
        for j, ref in enumerate(entry.rulings):
            b.diags.extend(_ruling_problems(ref, ["rulings", j, *(["ruling"] if _mapped(node, j) else [])],
                                            doc, node, titles))
            for k, query in enumerate(ref.query):
                if query not in queries:
                    path: list[str | int] = ["rulings", j, "query"]
                    if isinstance(node["rulings"][j]["query"], list):
                        path.append(k)
                    line, col = position(node, path)
                    b.diags.append(Diagnostic(
                        "LOAD013", f"no query '{shorten(query)}': a ruling is about a query of rules/queries.yaml",
                        doc.file, line, col, width=len(query), hint=did_you_mean(query, queries)
                        or "the queries are those of rules/queries.yaml (`dday vocab`); leave 'query:' out for "
                        "a ruling about all that the entry does"))
        if entry.rulebook or entry.rulings:
            out[owner] = Citation(entry.rulebook, tuple((r.ruling, titles.get(r.ruling, "")) for r in entry.rulings),
                                  tuple(r.query for r in entry.rulings) if any(r.query for r in entry.rulings)
                                  else ())
    return out


def _mapped(node: Any, j: int) -> bool:
    """Whether the ``j``-th entry of the node's ``rulings:`` is a mapping ({ruling: N, query: ...})."""
    return isinstance(node["rulings"][j], dict)


def _ruling_problems(ref: schema.RulingRef, path: list[str | int], doc: YamlDoc, node: Any,
                     titles: dict[str, str]) -> list[Diagnostic]:
    """What is wrong with a ruling's number, at its place: LOAD013 when it is no number, LOAD010 when no
    rules/rulings.yaml lists it; nothing when it names a ruling."""
    if ref.ruling in titles:
        return []
    line, col = position(node, path)
    if RulingRule.written(ref.ruling) is None:
        said = (f"'{shorten(ref.ruling)}' is no ruling's number" if ref.ruling else
                "no ruling's number here: a number (7.3), or {ruling: 7.3, query: def}")
        return [Diagnostic(
            "LOAD013", said, doc.file, line, col, width=max(1, len(ref.ruling)),
            hint=did_you_mean(ref.ruling, titles) or "a ruling's number is numbers joined by dots (7.3, 8.10), or "
            "a pack's own words and numbers joined by '.' or '-' (X-1); at most "
            f"{RulingRule.MAX_CHARS} characters")]
    return [Diagnostic(
        "LOAD010", f"no ruling '{shorten(ref.ruling)}': rules/rulings.yaml lists no ruling of this number",
        doc.file, line, col, width=len(ref.ruling),
        hint=did_you_mean(ref.ruling, titles) or "the rulings are those of docs/rulings.md (rules/"
        "rulings.yaml); a pack lists its own in its rules/rulings.yaml")]
