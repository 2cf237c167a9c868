"""The loaded, checked content (:class:`Content`), and the tier each kind of source ranks its effects in."""

from __future__ import annotations

from collections.abc import Mapping

import attrs

from ddaydice.dsl import schema
from ddaydice.dsl.compile import EffectSource
from ddaydice.dsl.diagnostics import Diagnostic
from ddaydice.dsl.vocab import Vocabulary

SOURCE_KIND_TIER_DEFAULT = {"rwb": "rules", "attribute": "sectors"}


def tier_of(precedence: schema.PrecedenceRules, kind: str) -> str:
    """The tier the effects of a kind of source rank in (rules/precedence.yaml): the tier that lists the kind, else
    the default for it (an RWB with the rules, a Sector's attribute with the Sectors), else the rules'."""
    for tier in precedence.tiers:
        if kind in tier.sources:
            return tier.id
    return SOURCE_KIND_TIER_DEFAULT.get(kind, "rules")


@attrs.frozen
class Citation:
    """An entry's place in the rulebook and the rulings (number, title) that decide how it reads (schema.Cited):
    what ``dday explain`` prints under each step of a derivation, and ``dday card`` under a card."""

    rulebook: str
    rulings: tuple[tuple[str, str], ...]
    #: The queries each ruling is about (``{ruling: N, query: ...}``), in the order of ``rulings``; () for a ruling
    #: about all that the entry does. Empty: every ruling is.
    queries: tuple[tuple[str, ...], ...] = ()

    def about(self, query: str) -> Citation:
        """The citation under a step of ``query``: the rulebook's place, and the rulings about that query or about
        all that the entry does."""
        scopes = self.queries or ((),) * len(self.rulings)
        kept = [(ruling, scope) for ruling, scope in zip(self.rulings, scopes, strict=True)
                if not scope or query in scope]
        return Citation(self.rulebook, tuple(r for r, _ in kept), tuple(s for _, s in kept))

    def scope(self, i: int) -> tuple[str, ...]:
        """The queries the ``i``-th ruling is about; () for all."""
        return self.queries[i] if self.queries else ()

    def as_json(self) -> dict[str, object]:
        return {"rulebook": self.rulebook or None, "rulings": [number for number, _ in self.rulings]}

    def lines(self) -> list[str]:
        """The citation as text: the rulebook's place, then each ruling with its title."""
        out = [f"rulebook: {self.rulebook}"] if self.rulebook else []
        return out + [f"ruling {number}: {title}" for number, title in self.rulings]


@attrs.frozen
class Content:
    root: str
    dice: schema.DiceRules
    resources: schema.ResourceRules
    precedence: schema.PrecedenceRules
    phases: schema.PhaseRules
    queries: schema.QueryRules
    rwb: schema.RwbRules
    game: schema.GameRules
    options: Mapping[str, schema.OptionDef]
    cards: Mapping[str, schema.Card]
    card_kinds: Mapping[str, str]
    maps: Mapping[str, schema.BattleMap]
    effects: Mapping[str, EffectSource]
    packs: Mapping[str, schema.Manifest]
    vocab: Vocabulary
    origins: Mapping[str, tuple[str, int, int]]
    warnings: tuple[Diagnostic, ...] = ()
    owner_pack: Mapping[str, str] = attrs.field(factory=dict)
    kinds: schema.KindRules = attrs.field(factory=lambda: schema.KindRules("rulebook"))
    sides: schema.SideRules = attrs.field(factory=lambda: schema.SideRules("rulebook"))
    # Where the rulebook writes each entry's rule, by the owner of its effect (a card's id, 'map/sector',
    # 'rule:ID', 'option:ID'), and 'query:ID' for a query's base (dsl/loading/citations.py)
    citations: Mapping[str, Citation] = attrs.field(factory=dict)

    def side_def(self, side: str) -> schema.SideDef | None:
        """Another side than the Units (rules/sides.yaml): the German player of Atlantikwall."""
        return next((d for d in self.sides.sides if d.id == side), None)

    def kind_def(self, kind: str) -> schema.KindDef | None:
        """The declaration of a kind of card an expansion adds (rules/kinds.yaml); None for the base kinds."""
        return next((k for k in self.kinds.kinds if k.id == kind), None)

    def held_as(self, card: str) -> str:
        """What a card is held as: its kind, or, for a kind an expansion declares, the kind it is held like (another
        side's Specialists and Items: ``held_as``); '' for an unknown card."""
        kind = self.card_kinds.get(card, "")
        declared = self.kind_def(kind)
        return (declared.held_as or kind) if declared is not None else kind

    def tier_of(self, kind: str) -> str:
        return tier_of(self.precedence, kind)

    def beyond_turn_limits(self, kind: str, tier: str) -> bool:
        """Whether what a source of this kind, ranking in this tier, grants (a Specialist recruited, an Item found,
        an Award drawn) is outside the game rules' limits per turn and does not count toward them (rulings 1.6,
        2.5): its tier is marked ``beyond-turn-limits`` (rules/precedence.yaml: Awards, Sector attributes; a pack's
        Battle Conditions), or its kind is, whatever its tier (rules/rwb.yaml: the RWB bonuses; a kind of card a
        pack declares in rules/kinds.yaml)."""
        if kind == "rwb" and self.rwb.beyond_turn_limits:
            return True
        declared = self.kind_def(kind)
        if declared is not None and declared.beyond_turn_limits:
            return True
        return any(t.beyond_turn_limits for t in self.precedence.tiers if t.id == tier)

    def asks_no_permission(self, tier: str) -> bool:
        """Whether the actions of effects ranking in this tier go without asking the permission they would ask (a
        find 'find', a re-roll of a Skull 'reroll-skull'): the tier is marked ``asks-no-permission`` in
        rules/precedence.yaml (Awards: ruling 7.5). The engine and ``dday conflicts`` read it alike."""
        return any(t.asks_no_permission for t in self.precedence.tiers if t.id == tier)

    def cards_of(self, kind: str) -> list[schema.Card]:
        return [c for cid, c in self.cards.items() if self.card_kinds[cid] == kind]

    def award_deck_note(self, in_game: int | None = None) -> str | None:
        """Says so when the Award deck is smaller than the printed 12 cards (``in_game``: a game's deck size,
        which leaves out the cards an optional rule keeps out)."""
        n = len(self.cards_of("award")) if in_game is None else in_game
        if n < 12:
            return (f"the Award deck has {n} of the printed 12 cards: the rulebook prints no Award "
                    "texts; load the 'house-awards' pack for stand-ins")
        return None
