"""Actions on cards: sacrifices, recruits, finds, offers, Awards, decks and discards, decoys, replacements."""

from __future__ import annotations

from mypy_extensions import trait

from ddaydice.dsl import ast
from ddaydice.dsl.render import Renderer
from ddaydice.interpreter.core.state import Unit
from ddaydice.interpreter.effects.context import ContextBase
from ddaydice.interpreter.mechanisms import decks


@trait
class CardActions(ContextBase):
    """Actions on cards: sacrifices, recruits, finds, offers, Awards, decks and discards, decoys, replacements."""

    __slots__ = ()

    def sacrifice(self, what: str | int, recipient: str | None = None) -> None:
        g = self.game
        if what == "self":
            g.lose_specialist(self._me(), self.source.owner, forced=False)
            return
        # With a recipient, another player loses the Specialist and chooses which (rulebook, Atlantikwall:
        # "the loss is always the choice of the Allied Unit's player").
        for u in self._recipients(recipient):
            if isinstance(what, int):
                for _ in range(what):
                    g.sacrifice_choice(u, f"{self.source.name}: {'lose' if recipient else 'sacrifice'} a Specialist")
            else:
                g.lose_specialist(u, what, forced=True)

    def _within_turn_limits(self) -> bool:
        """Whether what this effect grants is held to the game rules' limits per turn, and counts toward them
        (rulings 1.6, 2.5): read for a recruit, a find and an Award drawn alike. The rules' own grants (a straight's
        Award), Specialists' and Items' (the Shoulder Patch) are held to them; what the rules' data marks
        ``beyond-turn-limits`` is not: a tier (Awards, Sector attributes) or a kind of source (the RWB bonuses)."""
        return not self.game.content.beyond_turn_limits(self.source.kind, self.source.tier)

    def _refused(self, what: str, why: str) -> None:
        """Tell in the trace that a grant (a recruit, a find, an Award drawn) gives nothing, and why: a limit of the
        game rules, a Specialist dead, a card held already or not there, nothing left to take. Every grant of the
        effect context that comes to nothing says so here."""
        if self.game.tracing:
            u = self._me()
            self.game.log("refused", f"{self.source.name}: {u.name} {what} (refused: {why})", u,
                          self.source.owner, self.source.tier)

    def _give(self, u: Unit, card: str) -> None:
        """The Unit gains a card this effect grants (a recruit, a find): the game's watchers hear the grant and its
        source first (the invariant of purchases tells a grant beyond the turn's limits from one within them)."""
        g = self.game
        if g.watchers:
            for w in g.watchers:
                w.granted(g, u, card, self.source)
        g.gain_card(u, card)

    def _give_named(self, u: Unit, card: str) -> str | None:
        """A grant that names its card takes that card from where it lies (ruling 2.7): the Pool; a Sector or its
        deck, out of which it goes (no later draw gives it again), or the box, when it is in no one's hands (a map's
        Special Item). None when the Unit took it; otherwise why it is not there to give."""
        g = self.game
        if card not in g.state.pool:
            why = self._taken(u, card)
            if why is not None:
                return why
            deck = decks.waiting(g, card)
            if deck is not None:
                deck.remove(card)
        self._give(u, card)
        return None

    def _taken(self, u: Unit, card: str) -> str | None:
        """Why a card a grant names is not there to give, when it lies in neither the Pool nor a Sector: another
        player holds it (a Regular Specialist excepted: each player has his own), it is dead, used, discarded or
        abandoned (ruling 2.7). None: it is in no one's hands (in its deck, or a map's Special Item out of the box),
        and a grant gives it."""
        g = self.game
        spec = g.content.cards.get(card)
        own_copy = g.kind_of.get(card) == "specialist" and spec is not None and spec.grade == "regular"
        for o in g.players():
            if o is not u and not own_copy and card in g.held_cards(o):
                return f"{o.name} has {'him' if g.kind_of.get(card) == 'specialist' else 'it'}"
            if card in o.dead and not own_copy:
                return "he is dead"
            if card in o.used_items or card in o.used_awards:
                return "it has been used"
        if card in g.state.abandoned:
            return "it was abandoned"
        if decks.discarded(g, card):
            return "it has been discarded"
        return None

    def recruit(self, what: str | int, free: bool) -> None:
        g = self.game
        u = self._me()
        if isinstance(what, str) and (what in u.specialists or what in u.dead):
            self._refused(f"does not recruit the {g._name_of(what)}",
                          "he is dead" if what in u.dead else f"{u.name} has him already")
            return
        # ruling 2.3, 2.5: an Award's or a Sector's recruit is outside the 1-Specialist-per-turn limit; an Item's
        # (the Shoulder Patch's) counts toward it.
        counted = self._within_turn_limits()
        if counted and u.recruited >= (most := g.value("recruits-per-turn", u)):
            self._refused("recruits no Specialist", f"{most} Specialist{'s' if most != 1 else ''} per turn")
            return
        if isinstance(what, str):
            if (why := self._give_named(u, what)) is not None:
                self._refused(f"does not recruit the {g._name_of(what)}", why)
                return
            if counted:
                u.recruited += 1
            return
        kind = g._side_kind(u, "specialist")  # another side's player recruits from his own Reserve
        options = [c for c, _ in g.recruitable(u)] if not free else [
            c for c in g.state.hands.get(u.id, []) + [p for p in g.state.pool if g.kind_of[p] == kind]
            if c not in u.specialists and c not in u.dead]
        if not options:
            self._refused("recruits no Specialist", "none is left to recruit" if free else
                          "none is left that it can pay for")
            return
        i = g.ask_one(u, "recruit", f"{self.source.name}: recruit which Specialist?",
                      [g._name_of(c) for c in options], options)
        if not free:
            u.stars -= g.value("specialist-cost", u, card=options[i])
        self._give(u, options[i])
        if counted:
            u.recruited += 1

    def find(self, what: str | int, free: bool, kind: str = "item") -> None:
        g = self.game
        u = self._me()
        # rulings 10.3, 7.5: "Items can't be found here" stops every find in that Sector (a Special Find RWB's
        # too), except an Award's, which asks no permission (rulebook, RULE CONFLICTS: Awards override everything).
        if not self._permitted("find", use=True):
            self._refused("finds nothing", "nothing can be found here")
            return
        if isinstance(what, str) and what in g.held_cards(u):
            self._refused(f"does not find the {g._name_of(what)}", f"{u.name} has it already")
            return
        # ruling 1.6, 2.5: an Award's, a Sector's, a Battle Condition's or an RWB's find is outside the
        # 1-Item-per-turn limit; an Item's, a Vehicle's or a Specialist's counts toward it, and is held to it.
        counted = self._within_turn_limits()
        if counted and u.found >= (most := g.value("finds-per-turn", u)):
            self._refused(self._not_found(what, kind), f"{most} Item{'s' if most != 1 else ''} per turn")
            return
        why = self._found(u, what, free, kind)
        if why is None:
            if counted:
                u.found += 1
        elif why:
            self._refused(self._not_found(what, kind), why)

    def _not_found(self, what: str | int, kind: str) -> str:
        """What the trace says a find that gives nothing did not find: the card it names, or the kind of card."""
        if isinstance(what, str):
            return f"does not find the {self.game._name_of(what)}"
        return f"finds no {'Vehicle' if kind == 'vehicle' else 'Item'}"

    def _found(self, u: Unit, what: str | int, free: bool, kind: str) -> str | None:
        """The find itself: the card named, or one the player chooses (of ``kind``), taken for its cost unless
        free. None when the Unit took one; otherwise why not ("": the player chose nothing, as the trace tells)."""
        pay = "" if free else " that it can pay for"
        g = self.game
        if isinstance(what, int) and kind == "used-item":
            # One of the player's own used Items, back in hand for its cost (the German's Ingenuity).
            used = [c for c in dict.fromkeys(u.used_items) if free or g.value("item-cost", u, card=c) <= u.item_points]
            if not used:
                return f"no used Item{pay}"
            i = g.ask_one(u, "find", f"{self.source.name}: find which used Item again?",
                          ["nothing"] + [g._name_of(c) for c in used], [None, *used])
            if i == 0:
                return ""
            card = used[i - 1]
            if not free:
                u.item_points -= g.value("item-cost", u, card=card)
            u.used_items.remove(card)
            u.items.append(card)
            g._came_into_play(u, card)
            if g.tracing:
                g.log("gain-card", f"{u.name} finds the used {g._name_of(card)} again", u, card)
            return None
        if isinstance(what, int) and kind == "vehicle":
            if u.side:
                return "Vehicles are the Units'"
            vehicles = [c.id for c in g.content.cards_of("vehicle") if c.id not in g.state.abandoned
                        and not g._unavailable(c.id) and not any(o.vehicle == c.id for o in g.state.units)]
            if not vehicles:
                return "no Vehicle is left"
            i = g.ask_one(u, "find", f"{self.source.name}: take which Vehicle?", [g._name_of(v) for v in vehicles],
                          vehicles)
            self._give(u, vehicles[i])
            return None
        if isinstance(what, str):
            if not free and what not in g.state.pool and what not in g.state.placed:
                return f"the {g._name_of(what)} is not there to find"
            return self._give_named(u, what)
        options = g.findable(u, free=True)
        if not free:
            options = [(c, g.value("item-cost", u, card=c)) for c, _ in options]
            options = [(c, cost) for c, cost in options if cost <= u.item_points]
        if not options:
            return f"no Item is left{pay}"
        labels = ["nothing"] + [g._name_of(c) for c, _ in options]
        i = g.ask_one(u, "find", f"{self.source.name}: find which Item?", labels, [None, *options])
        if i == 0:
            return ""
        card, _ = options[i - 1]
        if not free:
            u.item_points -= g.value("item-cost", u, card=card)
        self._give(u, card)
        return None

    def offer(self, card: str) -> None:
        g = self.game
        if card in g.content.cards and card not in g.state.abandoned:
            g.state.placed.setdefault(card, f"offer:{self.sector}")

    def draw_award(self, how: str) -> None:
        g = self.game
        u = self._me()
        deck = g.state.award_deck
        # ruling 2.1, 2.5: "A Unit cannot draw more than 1 Award per turn", a game rule a Sector's Award outranks.
        counted = self._within_turn_limits()
        if counted and u.awards_drawn:
            self._refused("draws no Award", "1 Award per turn")
            return
        if how not in ("random", "choice"):  # an Award named, taken from where it lies (ruling 2.7)
            why = f"{u.name} has it already" if how in u.awards else self._give_named(u, how)
            if why is not None:
                self._refused(f"does not draw the {g._name_of(how)}", why)
            elif counted:
                u.awards_drawn += 1
            return
        if not deck:
            self._refused("draws no Award", "the Award deck is empty")
            return
        i = 0 if how == "random" else g.ask_one(u, "choose", f"{self.source.name}: choose an Award",
                                                 [g._name_of(a) for a in deck], deck, topic="award")
        decks.take_award(g, u, i, counted)

    def gain_rwb(self, rwb: str) -> None:
        g = self.game
        u = self._me()
        if g.tracing and not self.rwb_acts(rwb):  # ruling 10.9: an option chosen for its other parts
            g.log("no-rwb", f"{self.source.name}: the {g.rwb_sources[rwb].name} does nothing for {u.name} here (it "
                  f"acts only{self.rwb_acts_only(rwb)})", u, self.source.owner, self.source.tier)
        g.fire("rwb", u, only=g.rwb_sources[rwb])
        g.fire("rwb", u)

    def rwb_acts_only(self, rwb: str) -> str:
        """When the bonus's own effect acts, in English: its 'on rwb' clauses' conditions (' if a Battle Cry RWB
        here is allowed'), what the trace and a refusal say of an 'rwb' that would do nothing (ruling 10.9)."""
        src = self.game.rwb_sources[rwb]
        said = Renderer({}, {q.id: q.name for q in self.game.content.vocab.queries.values() if q.name})
        return " or".join(said.condition(c.body.condition) for c in src.tree.clauses
                          if isinstance(c.body, ast.Trigger) and c.body.event.name == "rwb")

    def rwb_acts(self, rwb: str) -> bool:
        """Whether the bonus's own effect would act for this Unit where it stands: one of its 'on rwb' clauses has
        no condition, or one that holds (ruling 10.9: otherwise 'rwb' cannot be chosen, nor a use that does only
        that offered)."""
        g = self.game
        u = self._me()
        src = g.rwb_sources[rwb]
        return any(hook.condition is None or hook.condition.holds(g.context(u, u, src, u.sector or None))
                   for hook in src.compiled.triggers if hook.event == "rwb")

    def die_instead(self) -> None:
        g = self.game
        u = self._me()
        losing = g._losing
        me = self.source.owner
        if losing is None or losing == me or me not in u.specialists:
            return
        pick = g.ask_one(u, "choose", f"{g._name_of(me)}: be lost in place of the {g._name_of(losing)}?",
                         ["no", "yes"], topic="in-place")
        if pick == 1:
            g._decoy = me

    def instead(self) -> None:
        """'instead': the pending event whose trigger runs this does not happen (effects/events.py, ``would``)."""
        g = self.game
        if g.pending and not g.pending[-1].replaced_by:
            g.pending[-1].replaced_by = self.source.name

    def draw(self, deck: str, count: int) -> None:
        why = decks.draw(self.game, self._me(), deck, count)
        if why:
            self._refused(f"draws no {decks.kind_name(self.game, deck)}" if count == 1 else "draws no more cards",
                          why)

    def discard(self, what: str | int, recipient: str | None = None, kind: str = "item") -> None:
        if what == "self":
            decks.discard(self.game, self._me(), what, self.source)
            return
        for u in self._recipients(recipient):
            decks.discard(self.game, u, what, self.source, kind)

    def cancel(self, deck: str) -> None:
        decks.cancel(self.game, self._me(), deck)

    def arrange_top(self, deck: str, count: int) -> None:
        decks.arrange_top(self.game, self._me(), deck, count, self.source)

    def pick(self, deck: str, count: int) -> None:
        decks.pick(self.game, self._me(), deck, count, self.source)
