"""What the heuristic remembers during one game: its plans, the engine's answers it re-uses, its intents."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ddaydice.interpreter.core.api import GameView
from ddaydice.interpreter.policies.heuristic.dicevalue import DiceContext
from ddaydice.interpreter.policies.heuristic.effectworth import shared_cards
from ddaydice.interpreter.policies.heuristic.planner import TurnView

if TYPE_CHECKING:
    from ddaydice.interpreter.core.state import Unit


#: What Memory.cost's answers depend on besides the card, numbered (Memory.cost_now).
CostNow = int
#: What Memory.may_enter's answers depend on besides the Sector, numbered (Memory.enter_now).
EnterNow = int


class Memory:
    """One game's memory (the policy starts a new one with each game); the caches are bounded. (A plain class rather
    than an attrs one, so that it is a native class when compiled with mypyc.)"""

    __slots__ = (
        "ahead",
        "asides",
        "assigned",
        "cards",
        "counts",
        "ctx",
        "firsts",
        "fixed",
        "foe_seen",
        "intent",
        "nows",
        "quick",
        "rerolls",
        "stars",
        "statics",
        "target_memo",
        "view_key",
    )

    def __init__(self) -> None:
        #: The key of the Unit's view last worked out (the dice contexts are remembered by it).
        self.view_key: tuple[Any, ...] | None = None
        #: The cards in play the last plan worked out depends on, numbered (the key of the values that depend on
        #: them: use_cards; 0, none yet).
        self.cards = 0
        #: The game (its state) of which ``first_entry_sectors`` was last read, and its answer.
        self.firsts: tuple[Any, tuple[tuple[str, ...], tuple[str, ...]]] | None = None
        self.quick: dict[tuple[Any, ...], tuple[Any, TurnView]] = {}
        self.target_memo: dict[tuple[Any, ...], tuple[frozenset[str], bool, bool]] = {}
        #: The objectives shared out between the Units (params._assign: the same for every Unit asked of), by what
        #: target_memo's keys hold but the Unit.
        self.assigned: dict[tuple[Any, ...], dict[str, str]] = {}
        self.counts: dict[tuple[Any, ...], int] = {}
        self.statics: dict[tuple[Any, ...], int] = {}
        self.ahead: dict[tuple[Any, ...], tuple[bool, bool, bool, bool]] = {}
        self.ctx: dict[tuple[Any, ...], DiceContext] = {}
        #: What one more Star is worth (values.star_value), by what it reads.
        self.stars: dict[tuple[Any, ...], float] = {}
        #: The other side's player seen at the first decision of each turn: turn -> (his Soldiers, the highest
        #: printed DEF the Units then occupied, where they fought the turn before).
        self.foe_seen: dict[int, tuple[int, int]] = {}
        #: Per (turn, Unit): the re-rolls made, the dice Locked (index -> (face, colour)), the dice set aside.
        self.rerolls: dict[tuple[int, str], int] = {}
        self.fixed: dict[tuple[int, str], dict[int, tuple[str, str]]] = {}
        self.asides: dict[tuple[int, str], set[int]] = {}
        #: What a card about to be used is meant to do ('reroll', 'recolour', 'reface'), for the questions it asks.
        self.intent: dict[str, Any] = {}
        #: What the keys of ``statics`` depend on, numbered (_number: use_cards, cost_now, enter_now).
        self.nows: dict[tuple[Any, ...], int] = {}

    def use_cards(self, cards: tuple[Any, ...]) -> None:
        """The cards in play the plan now worked out depends on (static's keys hold their number, cheaper to hash
        than the cards)."""
        self.cards = self._number(cards)

    def count(self, game: GameView, unit: Unit) -> int:
        """The Unit's Soldiers, its Specialists included (the engine's count, remembered)."""
        key = (unit.id, unit.soldiers, tuple(unit.specialists))
        found = self.counts.get(key)
        if found is None:
            if len(self.counts) > 256:
                self.counts.clear()
            found = self.counts[key] = game.soldier_count(unit)
        return found

    def cost(self, game: GameView, unit: Unit, spec: str, now: CostNow | None = None) -> int:
        """What recruiting ``spec`` costs the Unit, in Stars (remembered while what can change it stays the same:
        cost_now; a card that says its own price, which may depend on anything of the Unit, is asked each time, and
        so is every price while one of this turn's grants changes the prices; ``now``: cost_now's, when the caller
        asks of many cards at the same moment)."""
        if spec in game.own_prices or _granted(game, "specialist-cost"):
            return game.value("specialist-cost", unit, card=spec)
        if now is None:
            now = self.cost_now(game, unit)
        key = ("cost", spec, now)
        found = self.statics.get(key)
        if found is None:
            found = self.statics[key] = game.value("specialist-cost", unit, card=spec)
        return found

    def may_enter(self, game: GameView, unit: Unit, sector: str, now: EnterNow | None = None) -> bool:
        """Whether the Unit may enter ``sector`` (as the rules stand now: asked afresh while one of this turn's
        grants changes it; ``now``: enter_now's, when the caller asks of many Sectors at the same moment)."""
        if _granted(game, "enter"):
            return game.flag("enter", unit, sector=sector)
        if now is None:
            now = self.enter_now(game, unit)
        drawn = game.state.sectors[sector].attributes
        key = ("enter", sector, now, tuple(drawn) if drawn else None)
        found = self.statics.get(key)
        if found is None:
            found = self.statics[key] = int(game.flag("enter", unit, sector=sector))
        return bool(found)

    def cost_now(self, game: GameView, unit: Unit) -> CostNow:
        """What cost's answers depend on besides the card, as it is now (numbered: the keys hash an int): the Unit,
        its Specialists and Vehicle, the Specialists in play that reach other Units, the cards drawn into play for
        every Unit, and the Unit's Sector with its attributes."""
        s = game.state
        shared = shared_cards(game.content)
        return self._number(("cost", unit.id, tuple(unit.specialists),
                             tuple(c for u in s.units for c in u.specialists if c in shared), unit.vehicle,
                             tuple(s.in_play), unit.sector, tuple(s.sectors[unit.sector].attributes)))

    def enter_now(self, game: GameView, unit: Unit) -> EnterNow:
        """What may_enter's answers depend on besides the Sector (and its attributes), as it is now (numbered)."""
        s = game.state
        return self._number(("enter", unit.id, len(unit.visited), tuple(s.conquered),
                             sum(1 for st in s.sectors.values() if st.entered), tuple(s.in_play)))

    def _number(self, what: tuple[Any, ...]) -> int:
        """The number of ``what`` in this game (a new one, from 1, when first met)."""
        numbers = self.nows
        n = numbers.get(what)
        if n is None:
            if len(numbers) > 4096:  # (numbered anew: the answers kept under the old numbers go with them)
                numbers.clear()
                self.statics.clear()
                self.cards = 0  # (the plan's cards, no longer numbered: as before any)
            n = numbers[what] = len(numbers) + 1
        return n

    def static(self, game: GameView, unit: Unit, query: str, sector: str | None, base: int | None = None, *,
               cards: bool = False) -> int:
        """A value of the Unit in ``sector`` (None: where it stands) that changes only with the cards in play and that
        Sector's attributes: remembered under them while something in play modifies it there. Asked afresh (and not
        kept) while nothing does (the engine's answer is then a table look-up, cheaper than the key and exact), and
        while one of this turn's grants changes the query."""
        s = game.state
        where = sector if sector is not None else unit.sector
        if _granted(game, query) or not game.touched(query, where):
            return self._ask(game, unit, query, sector, base)
        drawn = s.sectors[where].attributes
        sig: object = tuple((u.id, tuple(u.specialists), u.vehicle) for u in s.units) if cards else self.cards
        key = (query, unit.id, where, base, sig, tuple(drawn) if drawn else None)
        found = self.statics.get(key)
        if found is None:
            if len(self.statics) > 4096:
                self.statics.clear()
            found = self.statics[key] = self._ask(game, unit, query, sector, base)
        return found

    @staticmethod
    def _ask(game: GameView, unit: Unit, query: str, sector: str | None, base: int | None) -> int:
        """The engine's value of ``query`` for the Unit (static's)."""
        if base is not None:
            return game.value(query, unit, base=base)
        return game.value(query, unit, sector=sector) if sector is not None else game.value(query, unit)


def _granted(game: GameView, query: str) -> bool:
    """Does one of this turn's grants change ``query``?"""
    grants = game.state.grants
    return bool(grants) and any(g.query == query for g in grants)
