"""The names content may use: read from rules/ and the loaded cards and maps.

The checker resolves every argument against a :class:`Vocabulary`. Built-in
verbs live in :mod:`ddaydice.dsl.words`; everything a rulebook or an expansion
defines (faces, colours, resources, queries, permissions, RWB bonuses, tiers,
phases, cards, sectors) arrives here as data.
"""

from __future__ import annotations

from collections.abc import Mapping

import attrs


@attrs.frozen
class QueryInfo:
    """A value the interpreter computes and effects modify (rules/queries.yaml)."""

    id: str
    kind: str  # "number" or "flag"
    default: int | bool | None
    minimum: int | None
    subject: str
    text: str
    name: str = ""
    used: str = ""  # a number the turn uses up: when (rules/queries.yaml 'used'); "" for one only asked


@attrs.frozen
class Vocabulary:
    faces: frozenset[str]
    colours: frozenset[str]
    resources: Mapping[str, str]  # alias -> canonical
    queries: Mapping[str, QueryInfo]
    ignorables: frozenset[str]
    rwbs: frozenset[str]
    tiers: tuple[str, ...]
    phases: tuple[str, ...]
    cards: Mapping[str, str]  # id -> kind
    options: frozenset[str] = frozenset()
    sectors: frozenset[str] = frozenset()
    attributes: frozenset[str] = frozenset()
    tables: frozenset[str] = frozenset()
    in_map: bool = False
    face_aliases: Mapping[str, str] = attrs.field(factory=dict)
    kinds: frozenset[str] = frozenset()  # kinds of cards an expansion declares (rules/kinds.yaml)
    decks: frozenset[str] = frozenset()  # those of them whose cards form a deck
    tags: frozenset[str] = frozenset()  # the tags the loaded cards carry ('tags: [explosion]')
    cards_unread: bool = False  # some card file could not be read: a name that may be its card is not checked

    def numbers(self) -> set[str]:
        return {q.id for q in self.queries.values() if q.kind == "number"}

    def flags(self) -> set[str]:
        return {q.id for q in self.queries.values() if q.kind == "flag"}

    def cards_of(self, kind: str) -> set[str]:
        return {cid for cid, k in self.cards.items() if k == kind}

    def for_map(self, sectors: frozenset[str], attributes: frozenset[str], tables: frozenset[str]) -> Vocabulary:
        return attrs.evolve(self, sectors=sectors, attributes=attributes, tables=tables, in_map=True)


# The minimal vocabulary the built-in rules define, for tests and tools that
# need one without reading files. The loader builds the real one from rules/.
def minimal() -> Vocabulary:
    return Vocabulary(
        faces=frozenset({"skull", "star", "one-soldier", "two-soldiers", "courage", "tool"}),
        colours=frozenset({"red", "white", "blue"}),
        resources={"soldiers": "soldiers", "soldier": "soldiers", "stars": "stars", "star": "stars",
                   "courage": "courage", "item-points": "item-points", "item-point": "item-points"},
        queries={},
        ignorables=frozenset(),
        rwbs=frozenset(),
        tiers=("rules", "sectors", "specialists", "items-vehicles", "awards"),
        phases=("roll", "upkeep", "purchase", "movement", "combat"),
        cards={},
    )
