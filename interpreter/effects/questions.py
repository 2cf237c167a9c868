"""The questions an effect's conditions ask: counts and predicates."""

from __future__ import annotations

from mypy_extensions import trait

from ddaydice.dsl.diagnostics import RuleError
from ddaydice.dsl.effect_context import Answers
from ddaydice.interpreter.core.values import USED
from ddaydice.interpreter.effects.context import ContextBase
from ddaydice.interpreter.mechanisms import decks


@trait
class Questions(ContextBase, Answers):
    """The questions an effect's conditions ask: counts and predicates."""

    __slots__ = ()

    def count(self, what: tuple[str, ...]) -> int:
        u = self._me()
        # (Loops rather than sum() of generators: compiled, each is a generator object and a generic call.)
        n = 0
        if what[0] == "locked":
            for d in u.tally:
                if d.locked and d.face == what[1] and not d.cancelled:
                    n += 1
            return n
        if what[0] in {"rwbs", "rwb"}:
            # The RWB bonuses scored this turn, from their dice: 3 of a face each, fewer for a Dead Man's Gift of
            # fewer colours (gift-colours), which is the only RWB of its face; so a face's RWB dice, 3 a bonus,
            # the remainder one more.
            by_face: dict[str, int] = {}
            for d in u.tally:
                if d.source == "rwb-used":
                    by_face[d.face] = by_face.get(d.face, 0) + 1
            for k in by_face.values():
                n += (k + 2) // 3
            return n
        if what[0] in {"specialists", "specialist"}:
            return len(u.specialists)
        if what[0] == "active-skulls":
            return decks.active_skulls(self.game, u)
        if what[0] == "units-after-first":
            return max(len(self.game.state.units) - 1, 0)
        if what[0] == "tagged":
            return len(decks.tagged(self.game, u, what[1]))
        face = what[0]
        for d in u.tally:
            if d.face == face and not d.cancelled:
                n += 1
        return n

    def predicate(self, name: str, args: tuple[str, ...]) -> int:
        g = self.game
        u = self.unit
        sector = self.sector or (u.sector if u else None)
        match name:  # the rules' Award purchase reads bunker, have and can-draw every turn: first
            case "bunker":
                return sector is not None and g.sectors[sector].bunker
            case "have":
                if u is None:
                    return 0
                have = u.resource(args[0])
                if have is None:
                    raise RuleError(f"no resource '{args[0]}'")
                return have
            case "can-draw":
                return u is not None and decks.can_draw(g, u, args[0])
            case "has":
                return u is not None and args[0] in g.held_cards(u)
            case "count":
                return self.count(args) if u else 0
            case "same-face":
                if u is None:
                    return 0
                counts: dict[str, int] = {}
                most = 0
                for d in u.tally:
                    if not d.cancelled:
                        n = counts[d.face] = counts.get(d.face, 0) + 1
                        if n > most:  # noqa: PLR1730 (compiled, a comparison of two ints; max() is a generic call)
                            most = n
                return most
            case "chevrons":
                return u.chevrons() if u else 0
            case "turns-here":
                return (g.state.turn - u.entered_turn) if u else 0
            case "occupied":
                return any(o is not u and o.sector == sector for o in g.state.active_units())
            case "option":
                return args[0] in g.options
            case "players":
                return len(g.state.units)
            case "in-play":
                return any(args[0] in g.held_cards(o) for o in g.players() if o.status == "active")
            case "front-row":
                return sector is not None and sector in g.front_row
            case "next-to-bunker":
                return sector is not None and sector in g.next_to_bunker
            case "occupied-by-us":
                return any(o.sector == args[0] for o in g.state.active_units())
            case "conquered":
                # A Bunker is conquered by a Unit that survives entering it; another Sector, by entering it.
                if g.sectors[args[0]].bunker:
                    return args[0] in g.state.conquered
                return g.state.sectors[args[0]].entered and not any(
                    s.start is not None and s.id == args[0] for s in g.map.sectors)
            case "battle-cry":
                return u is not None and g.flag("battle-cry", u)
            case "allowed":
                return u is not None and g.flag(args[0], u, sector=sector)
            case "visited":
                return u is not None and args[0] in u.visited
            case "started-alone":
                starters = [o for o in g.state.units if o.visited[:1] == [args[0]]]
                return u is not None and starters == [u]
            case "colours":
                return len({d.colour for d in u.tally if d.face == args[0] and d.colour and not d.cancelled}) \
                    if u else 0
            case "active-skulls":
                return decks.active_skulls(g, u) if u else 0
            case "card-is":
                return self.card == args[0]
            case "drawn":
                return g.drawing is not None and g.kind_of.get(g.drawing) == args[0]
            case "holds":
                return decks.holds(g, u, args[0]) if u else 0
            case "tagged":
                return len(decks.tagged(g, u, args[0])) if u else 0
            case "times-used":
                return u.counters.get(USED + self.source.owner, 0) if u else 0
        raise RuleError(f"no predicate '{name}'")
