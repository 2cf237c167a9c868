"""Queries: a value or a permission, its base from the rules, every modifier in play combined by precedence."""

from __future__ import annotations

import attrs
from mypy_extensions import mypyc_attr, trait

from ddaydice.dsl.compile import EffectSource, ModifierHook, limit_words
from ddaydice.dsl.diagnostics import RuleError
from ddaydice.interpreter.core.api import GameAPI
from ddaydice.interpreter.core.inplay import Modifier
from ddaydice.interpreter.core.precedence import Contribution, Derivation, NotApplied, Step, combine
from ddaydice.interpreter.core.state import (
    STAY_FORBIDDEN,
    Unit,
)
from ddaydice.interpreter.core.values import COST_QUERIES, OWN_BASE


@trait
@mypyc_attr(allow_interpreted_subclasses=True)
class Queries(GameAPI):
    """Queries: a value or a permission, its base from the rules, every modifier in play combined by precedence."""

    def query(self, name: str, unit: Unit | None, *, sector: str | None = None, card: str | None = None,
              base: int | None = None, explain: bool = False, consume: bool = False,
              clamp: bool = True) -> tuple[int, Derivation | None]:
        info = self.queries.get(name)
        if info is None:
            raise RuleError(f"unknown query '{name}'")
        if sector is None and unit is not None:
            sector = unit.sector or None  # another side's player stands in no Sector
        state = self.state
        if name == "def" and state.shortfall and sector is not None:
            return self._def_with_shortfall(unit, sector, card, explain, consume, clamp)
        base_source = "game rules"
        if base is None:
            base, base_source = self._base(name, unit, sector, card, explain or consume)
        grants = [g for g in state.grants if g.query == name] if state.grants else []
        bunker_n = state.bunker_specialists.get(sector, 0) if name == "def" and sector is not None \
            and state.bunker_specialists else 0
        own = self.own_prices.get(card) if card is not None and self.own_prices and name in _COSTS else None
        if not explain and not grants and not bunker_n and own is None and (name not in self.in_play().queries
                                                                            or not self.touched(name, sector)):
            # The common case: nothing in play changes this value; only the rules' clamp applies.
            least = self.query_minimum[name]
            if least is not None and base < least:
                return least, None
            return base, None
        consumed: list[tuple[Unit, str, int]] = []
        candidates = self._candidates(name, sector, unit)
        idle: list[NotApplied] | None = [] if explain else None
        contributions = self._contributions(name, candidates, unit, sector, card, consume, consumed, idle)
        for g in grants:
            if g.unit is not None and (unit is None or g.unit != unit.id):
                continue
            if g.sector is not None and g.sector != sector:
                continue
            by = self.state.unit(g.by) if g.by is not None else None
            contributions.append(Contribution(g.owner, _credited(self._name_of(g.owner), by),
                                              self.tier_index.get(g.tier, 0), g.tier, g.op, g.value,
                                              (g.order, g.owner), g.args, g.text))
        if own is not None and card is not None:
            contributions += self._own_price(own, unit, sector, card)
        if bunker_n:
            contributions.append(Contribution("rule:bunker-specialists", "Specialists beside the Bunker",
                                              0, "rules", "add", -bunker_n, (-1, "rule"), (),
                                              f"{bunker_n} surviving Specialist(s) of earlier Units"))
        if not contributions and not explain and (clamp or not candidates):
            least = self.query_minimum[name]
            if least is not None and base < least:
                return least, None
            return base, None
        # A limited effect ("once per phase") is used up only when it applied, not when it was overruled: of a
        # permission, the one modifier that gives it (two copies of a card that allow it: the later one).
        overruled: set[int] | None = set() if consume and consumed and unit is not None else None
        value, derivation = combine(base, contributions, self.query_minimum[name] if clamp else None, explain=explain,
                                    query=name, subject=self._subject(unit, sector, card) if explain else "",
                                    base_source=base_source, overruled=overruled)
        if derivation is not None and idle:
            derivation = attrs.evolve(derivation, not_applied=tuple(idle))
        if derivation is not None and info.kind == "flag":
            # A permission is a bool, shown as one; compiled (compiled.txt), an `int` is a C integer, in which a
            # bool is 0 or 1 (core/precedence.py).
            value, derivation = bool(value), derivation.as_flag()
        if overruled is not None:
            for counter, key, k in consumed:
                if id(contributions[k]) not in overruled:
                    counter.counters[key] = counter.counters.get(key, 0) + 1
        return value, derivation

    def _contributions(self, name: str, candidates: list[Modifier], unit: Unit | None, sector: str | None,
                       card: str | None, consume: bool, consumed: list[tuple[Unit, str, int]],
                       idle: list[NotApplied] | None = None) -> list[Contribution]:
        """What each standing modifier in play that reaches the subject adds to the query; a limited one that
        would apply is noted in ``consumed`` when the query uses it up (``consume``). ``idle``, when explaining:
        receives the modifiers that reach the subject and do not apply (a condition that does not hold, a limit
        used up)."""
        info = self.queries[name]
        sector_subject = info.subject == "sector"
        contributions: list[Contribution] = []
        taken: dict[str, int] | None = None  # the limited candidates admitted, by count (copies of a card)
        for src, owner, played, i, hook in candidates:
            if not self._scoped(owner, hook.scope, unit, sector, sector_subject):
                continue
            if card is not None and owner is not None and card != src.owner and info.subject == "card" \
                    and src.owner in self.content.cards \
                    and name not in _COSTS and card in self.held_cards(owner):
                # ruling: a held card's change to a value of a card in play speaks of the card itself
                # (the Paratrooper "counts as 6", not his comrades; the Messenger alone may be traded);
                # costs (Messenger, Quartermaster) are changed for any card.
                continue
            ctx = self.context(unit or owner, owner, src, sector, card)
            if hook.condition is not None and not hook.condition.holds(ctx):
                if idle is not None and hook.op != "require":
                    idle.append(NotApplied(src.owner, _credited(src.name, owner), src.tier, _clause(src, hook),
                                           "its condition does not hold"))
                continue
            if hook.op == "require":
                continue
            if hook.limit is not None:
                # Counted on the Unit that benefits, so that a Vehicle's "for units here ... once per phase"
                # (Ambulance) serves each Unit present; 'per card': on the Unit holding the card (_limit_count),
                # once for each copy it holds (each copy is a candidate of its own: ``taken`` counts them).
                counter, key = self._limit_count(unit or owner, owner, src.owner, "modifier", i, hook.limit,
                                                  sector)
                if counter is not None:
                    if taken is None:
                        taken = {}
                    before = taken.get(key, 0)
                    if self._limit_left(counter, key, owner, src.owner, hook.limit) <= before:
                        if idle is not None:
                            idle.append(NotApplied(src.owner, _credited(src.name, owner), src.tier,
                                                   _clause(src, hook), f"{LIMIT_USED_UP} ({limit_words(hook.limit)})"))
                        continue
                    taken[key] = before + 1
                    if consume:
                        consumed.append((counter, key, len(contributions)))
            value = hook.value(ctx) if hook.value is not None else None
            contributions.append(Contribution(src.owner, _credited(src.name, owner), self._tier(src), src.tier,
                                              hook.op, value, (played, src.owner),
                                              tuple(map(str, hook.args)) if hook.op == "protect" else (),
                                              hook.text))
        return contributions

    def _own_price(self, src: EffectSource, unit: Unit | None, sector: str | None, card: str) -> list[Contribution]:
        """A card's own price while it waits to be bought ('cost = 0 if have soldiers < 3'): its clauses whose
        condition holds for the Unit that would buy it (that Unit, its Sector), a contribution of the card's tier;
        nothing once a player holds the card."""
        if unit is None or any(card in self.held_cards(p) for p in self.players() if p.status == "active"):
            return []
        out: list[Contribution] = []
        for hook in src.compiled.waiting:
            ctx = self.context(unit, unit, src, sector, card)
            if hook.condition is not None and not hook.condition.holds(ctx):
                continue
            value = hook.value(ctx) if hook.value is not None else None
            out.append(Contribution(src.owner, f"{src.name} (its own price)", self._tier(src), src.tier, hook.op,
                                    value, (0, src.owner), (), hook.text))
        return out

    def _def_with_shortfall(self, unit: Unit | None, sector: str, card: str | None, explain: bool, consume: bool,
                            clamp: bool) -> tuple[int, Derivation | None]:
        """The DEF of a Sector for the Units while another side's casualties fell short this turn: the DEF
        the Units suffer (never below 0), then lowered by 1 per missing Soldier; below 0 only unclamped
        (each Unit there gains the difference: interpreter combat)."""
        shortfall = self.state.shortfall
        self.state.shortfall = 0
        try:
            value, derivation = self.query("def", unit, sector=sector, card=card, explain=explain, consume=consume)
        finally:
            self.state.shortfall = shortfall
        lowered = int(value) - shortfall
        final = max(lowered, 0) if clamp else lowered
        if derivation is not None:
            step = Step("rule:shortfall", "missing Soldiers of the other side", "rules", "add", -shortfall,
                        int(value), final, text=f"{shortfall} Soldier(s) missing from the other side's casualties "
                        "lower the DEF of every Sector")
            derivation = attrs.evolve(derivation, steps=(*derivation.steps, step), value=final)
        return final, derivation

    def value(self, name: str, unit: Unit | None, sector: str | None = None, card: str | None = None,
              base: int | None = None) -> int:
        """A number query's value (no derivation): a table lookup when nothing can change it."""
        if base is None:
            fixed = self.static_values.get(name)
            if fixed is not None:
                return fixed
            state = self.state
            if not state.grants:
                where = _where(unit, sector)
                if name not in self.in_play().queries or not self.touched(name, where):
                    default = self.defaults.get(name)
                    if default is not None:
                        return int(default)  # nothing in play touches it here in this epoch
                    if name in OWN_BASE and where is not None and not (
                            name == "def" and (state.shortfall or state.bunker_specialists)) and not (
                            card is not None and name in _COSTS and card in self.own_prices):
                        # nothing touches it and nothing lowers it: its base (a Sector's DEF, a card's printed
                        # cost), clamped, as the query would answer
                        v = self._base(name, unit, where, card, False)[0]
                        least = self.query_minimum[name]
                        return int(least if least is not None and v < least else v)
        elif name not in self.live_queries:
            return base
        v, _ = self.query(name, unit, sector=sector, card=card, base=base)
        return int(v)

    def card_values(self, name: str, unit: Unit, cards: list[str]) -> list[int]:
        """A number query of each card of a list (what each costs the Unit), in one pass: the printed values
        when nothing in play changes the query, each card's own query otherwise."""
        fixed = self.static_values.get(name)
        if fixed is not None:
            return [fixed] * len(cards)
        grants = self.state.grants
        own = self.own_prices
        if self.touched(name, unit.sector or None) or (grants and any(g.query == name for g in grants)) \
                or (own and name in _COSTS and any(card in own for card in cards)):
            return [self.value(name, unit, card=card) for card in cards]
        minimum = self.query_minimum[name]
        if name in _COSTS:
            printed = self.printed_costs
            if minimum is None or minimum <= 0:  # (a printed cost is never below 0)
                return [printed[card] for card in cards]
            return [max(printed[card], minimum) for card in cards]
        sector = unit.sector or None
        bases = [int(self._base(name, unit, sector, card, False)[0]) for card in cards]
        return bases if minimum is None else [minimum if base < minimum else base for base in bases]

    def used_up(self, name: str, unit: Unit, card: str | None = None) -> list[str]:
        """The limited modifiers of a query that would reach the Unit (of ``card``) but whose limit is used up
        ('Messenger (Unit 2): allow trade-specialist once per turn per card, not applied: its limit is used up (once
        per turn per card)'): why a permission a card gives is not given now."""
        idle: list[NotApplied] = []
        sector = unit.sector or None
        self._contributions(name, self._candidates(name, sector, unit), unit, sector, card, False, [], idle)
        return [f"{n.source_name}: {n.text}, not applied: {n.reason}" for n in idle
                if n.reason.startswith(LIMIT_USED_UP)]

    def flag(self, name: str, unit: Unit | None, sector: str | None = None, card: str | None = None,
             use: bool = False) -> bool:
        """A permission (no derivation): a table lookup when nothing can change it. ``use``: the engine acts on it
        now (a Unit trades, finds, Advances, crosses Landmines, a Specialist goes back to the Pool...), and the
        modifier that gives it, if limited ('allow find once per turn'), is used: counted where its limit says
        (see :meth:`query`). The one place a permission's limit is counted; a permission only read (to list what
        a Unit may do, by a policy, an explanation) uses nothing."""
        fixed = self.static_flags.get(name)
        if fixed is not None:
            return fixed
        if not self.state.grants and (name not in self.in_play().queries or
                                      not self.touched(name, _where(unit, sector))):
            default = self.defaults.get(name)
            if default is not None:
                return bool(default)  # nothing in play touches it here in this epoch
        v, _ = self.query(name, unit, sector=sector, card=card, consume=use)
        return bool(v)

    def _subject(self, unit: Unit | None, sector: str | None, card: str | None) -> str:
        parts = []
        if unit is not None:
            parts.append(unit.name)
        if sector is not None:
            parts.append(self.sectors[sector].name)
        if card is not None:
            parts.append(self._name_of(card))
        return ", ".join(parts)

    def _base(self, name: str, unit: Unit | None, sector: str | None, card: str | None, label: bool = True
              ) -> tuple[int, str]:
        """The value before any effect, and where it comes from (worded only when ``label``: a derivation)."""
        info = self.queries[name]
        if name == "def":
            assert sector is not None
            defense = self.printed_def[sector]
            turn = unit.chevrons() if unit is not None and unit.sector == sector else 1
            idx = min(max(turn, 1), len(defense)) - 1
            if not label:
                return defense[idx], ""
            return defense[idx], f"{self.sectors[sector].name}'s printed DEF" + (
                f" (DEF #{idx + 1})" if len(defense) > 1 else "")
        if name == "mgf-dice":
            assert sector is not None
            if "mgf" in self.ignore:
                return 0, "ignored in this variant"
            if not label:
                return self.printed_mgf[sector], ""
            return self.printed_mgf[sector], f"{self.sectors[sector].name}'s MGF symbols"
        if name == "stay":
            if unit is None:
                return True, "game rules"
            must = unit.marker in STAY_FORBIDDEN
            return (not must), ("the Unit marker shows it must move" if must else "game rules")
        if name in _COSTS and card is not None:
            return self.content.cards[card].cost or 0, f"{self._name_of(card)}'s printed cost" if label else ""
        if info.default is None:
            return 0, "game rules"
        return info.default, "game rules"


_COSTS = COST_QUERIES  # a card's printed cost is their base


def _credited(name: str, player: Unit | None) -> str:
    """How a contribution's source is named in a derivation: the effect's name, and the player whose card it is
    (a Unit, another side's player: 'Engineer (Unit 1)', 'Maschinengewehr-Schütze (German)'), for a held card's
    standing modifier and for what a card granted alike."""
    return f"{name} ({player.name})" if player is not None else name


def _where(unit: Unit | None, sector: str | None) -> str | None:
    """The Sector a query speaks of: the one named, else the Unit's (another side's player stands in none)."""
    if sector is not None:
        return sector
    return (unit.sector or None) if unit is not None else None


#: Why a limited modifier did not apply (a derivation's ``not_applied``; ``used_up``).
LIMIT_USED_UP = "its limit is used up"


def _clause(src: EffectSource, hook: ModifierHook) -> str:
    """The line of an effect that holds a modifier, as written (with its condition and limit), for an explanation:
    the one at the modifier's place in the file (two clauses may read alike); its statement alone when the effect's
    text does not keep its lines there."""
    lines = src.text.splitlines()
    k = hook.pos.line - src.line
    if 0 <= k < len(lines) and hook.text in lines[k]:
        return lines[k].strip()
    return hook.text
