"""The records of ``dday conflicts`` (:mod:`ddaydice.dsl.conflicts` finds them): a conflict, its two sides and the
effects on each, the orders the engine can apply them in and what comes out, and the report of every map; their
kinds, in the order they are listed, and as JSON."""

from __future__ import annotations

from typing import Literal

import attrs

from ddaydice.dsl.conflict_words import compact_names

Kind = Literal["same-tier", "permission", "value", "override", "idle-override", "replacement"]
KIND_ORDER: dict[str, int] = {"same-tier": 0, "permission": 1, "value": 2, "override": 3, "idle-override": 4,
                              "replacement": 5}
KIND_TITLES: dict[str, str] = {
    "same-tier": "(a) same tier, no stated order",
    "permission": "(b) permission against permission",
    "value": "(c) a set against another change",
    "override": "(d) explicit override",
    "idle-override": "(d) override with nothing to overrule",
    "replacement": "(e) a replacement against another effect of its event",
}


@attrs.frozen
class Member:
    """One effect on one side of a pair (several when identical Sector clauses are merged)."""

    owner: str
    name: str
    file: str
    line: int


@attrs.frozen
class Side:
    members: tuple[Member, ...]
    kind: str  # the source's kind (specialist, sector, rwb, ...)
    tier: str  # the tier the engine gives the change
    source_tier: str  # the source's own tier (differs for a card that grants an RWB)
    op: str
    value: str  # the statement as written ('def -2')
    english: str  # the clause in English
    via: str | None = None  # the RWB the change comes from, for a card that grants one
    where: str | None = None  # for a Random Attribute: where it can be rolled
    amount: tuple[int, int] | None = None  # a number's change or value (least, greatest), when known

    @property
    def name(self) -> str:
        return compact_names([m.name for m in self.members])

    @property
    def location(self) -> str:
        files = sorted({m.file for m in self.members})
        if len(files) == 1:
            return files[0] + ":" + ", ".join(str(m.line) for m in self.members)
        return ", ".join(f"{m.file}:{m.line}" for m in self.members)

    def as_json(self) -> dict[str, object]:
        out: dict[str, object] = {
            "sources": [attrs.asdict(m) for m in self.members],
            "name": self.name,
            "kind": self.kind,
            "tier": self.tier,
            "op": self.op,
            "dsl": self.value,
            "english": self.english,
        }
        if self.source_tier != self.tier:
            out["source_tier"] = self.source_tier
        if self.via:
            out["via"] = self.via
        if self.where:
            out["where"] = self.where
        if self.amount is not None:
            out["amount"] = list(self.amount)
        return out


@attrs.frozen
class Outcome:
    """One order the engine can apply the pair in, and what comes out (numbers: least and greatest)."""

    first: str  # 'a' or 'b': which applies first
    low: int | None = None
    high: int | None = None
    flag: bool | None = None
    base: int | None = None  # the base value the outcome was computed from, when one was needed


@attrs.frozen
class Conflict:
    kind: Kind
    map_id: str | None  # None: cards and rules only; they meet on every map in ``maps``
    maps: tuple[str, ...]
    query: str
    query_text: str
    a: Side
    b: Side | None
    disagree: str
    resolution: str
    rules: tuple[str, ...]
    winner: str | None  # 'a', 'b', 'later' (same tier: the one that came into play later), or None
    value: str | None  # the resulting value, when it can be said
    outcomes: tuple[Outcome, ...] = ()
    sectors: tuple[str, ...] = ()  # where they meet (names), on a map
    where: str = ""  # where they meet, in words
    not_in: tuple[tuple[str, tuple[str, ...]], ...] = ()  # (map, set-ups where the pair cannot meet)
    only_in: tuple[tuple[str, tuple[str, ...]], ...] = ()  # (map, the only set-ups where it can, if not as listed)

    def as_json(self) -> dict[str, object]:
        return {
            "kind": self.kind,
            "map": self.map_id,
            "maps": list(self.maps),
            "query": self.query,
            "query_text": self.query_text,
            "a": self.a.as_json(),
            "b": self.b.as_json() if self.b is not None else None,
            "disagree": self.disagree,
            "resolution": self.resolution,
            "rules": list(self.rules),
            "winner": self.winner,
            "value": self.value,
            "sectors": list(self.sectors),
            "where": self.where,
            "not_in": {m: list(v) for m, v in self.not_in},
            "only_in": {m: list(v) for m, v in self.only_in},
        }

    def sort_key(self) -> tuple[object, ...]:
        b = self.b
        return (KIND_ORDER[self.kind], self.query, self.a.members[0].file, self.a.members[0].line,
                b.members[0].file if b else "", b.members[0].line if b else 0, self.a.value, b.value if b else "")


@attrs.frozen
class Report:
    conflicts: tuple[Conflict, ...]
    maps: tuple[str, ...]  # every map analysed, in order

    def counts(self) -> dict[str, int]:
        out = dict.fromkeys(KIND_ORDER, 0)
        for c in self.conflicts:
            out[c.kind] += 1
        return out
