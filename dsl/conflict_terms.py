"""How the conflict finder names what a pair is about: the content's tiers and queries in words, one effect's side
of a pair (its statement, its English, the RWB it comes from, where it can be rolled) and the value the rules give
a query where the pair meets."""

from __future__ import annotations

from ddaydice.dsl.conflict_records import Member, Side
from ddaydice.dsl.conflict_words import compact_names, number_text, subject
from ddaydice.dsl.loader import Content
from ddaydice.dsl.render import Renderer
from ddaydice.dsl.touches import MapView, Placed


class Terms:
    """The content's tiers and queries, and how a pair's sides and values are said."""

    def __init__(self, content: Content) -> None:
        self.content = content
        self.tiers = {t.id: i for i, t in enumerate(content.precedence.tiers)}
        self.tier_names = {t.id: t.name for t in content.precedence.tiers}
        self.queries = content.vocab.queries
        self.renderer = Renderer()

    def tier_index(self, tier: str) -> int:
        return self.tiers.get(tier, 0)

    def tier_name(self, tier: str) -> str:
        return self.tier_names.get(tier, tier)

    def query_text(self, q: str) -> str:
        info = self.queries.get(q)
        return info.text if info is not None else q

    def qname(self, q: str) -> str:
        """A query's name, as the English of effects says it: 'DEF', 'the number of Locked dice'."""
        info = self.queries.get(q)
        if info is not None and info.name:
            return info.name
        name = self.renderer.query(q)
        return f"the permission '{name}'" if info is not None and info.kind == "flag" else name

    def qphrase(self, q: str) -> str:
        """What the pair disagrees on: the query's name, or its title and what it is."""
        info = self.queries.get(q)
        if info is not None and info.name:
            return subject(info.name)
        text = self.query_text(q)
        name = subject(self.qname(q))
        return f"{name}, {text}" if "(" in text else f"{name} ({text})"

    def side(self, p: Placed, mv: MapView | None) -> Side:
        t = p.touch
        src = t.source
        clause = src.tree.clauses[t.clause]
        english = src.english[t.clause] if t.clause < len(src.english) else ""
        via = None
        if t.via is not None:
            vpos = t.via.tree.clauses[t.via_clause].pos
            vtext = t.via.english[t.via_clause] if t.via_clause < len(t.via.english) else ""
            via = f"the {t.via.name} RWB it grants ({vpos.file}:{vpos.line}): {vtext}"
        where = None
        if mv is not None and "/attribute:" in src.owner:
            spots = sorted(p.sectors, key=lambda s: sector_order(mv, s))
            where = "a Random Attribute; it can be rolled in " + (
                compact_names([mv.sector_name(s) for s in spots]) if spots else "no Sector")
        name = f"the {src.name} RWB" if src.kind == "rwb" else src.name
        member = Member(src.owner, name, clause.pos.file, clause.pos.line)
        shown = f"{t.shown} -> {t.statement}" if t.shown else t.statement
        return Side((member,), src.kind, t.tier, src.tier, t.op, shown, english, via, where, t.value)

    def base(self, mv: MapView, q: str, where: frozenset[str]) -> tuple[int | None, str]:
        """The game rules' value where the pair meets, when one value can be said, and how to say it."""
        info = self.queries.get(q)
        if q in {"def", "mgf-dice"}:
            values = {(mv.defense[s][0] if q == "def" else mv.mgf[s]) for s in where}
            noun = "printed DEF" if q == "def" else "printed MGF"
            if len(values) == 1:
                v = next(iter(values))
                if len(where) == 1:
                    return v, f"{v}, the {noun} of {mv.sector_name(next(iter(where)))}"
                return v, f"{v}, the {noun}"
            return None, f"the {noun}"
        if info is not None and isinstance(info.default, int) and not isinstance(info.default, bool):
            return info.default, f"{number_text(info.default)}, the rules' value"
        return None, "its value before"


def sector_order(mv: MapView, sid: str) -> tuple[int, str]:
    ids = [s.id for s in mv.bm.sectors]
    return (ids.index(sid) if sid in ids else len(ids), sid)
