"""What a card is worth to a Unit, read from its compiled effect: each clause's kind of effect, priced in Soldiers.

A card is read once (per content) into a :class:`Profile`: its body (a Specialist's ``soldier-value``) and a
list of :class:`Term` s, each a worth in Soldiers per unit of a scale (once, per turn left, per Advance left,
per turn and Unit) that counts only in some circumstances (a Climb ahead, Landmines ahead, team play, ...).
The worth of each kind of effect (a DEF lowered once, casualties saved each Combat, a die re-rolled each turn,
Soldiers gained on each Advance, ...) is in :data:`~.model.EFFECT_WORTH`; no card is named: a modder's card is
read like the printed ones. What the card is worth now is the sum of its terms over what lies ahead of the Unit
(:func:`worth`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Final

from ddaydice.dsl import ast as dsl_ast
from ddaydice.dsl.loader import Content
from ddaydice.interpreter.policies.heuristic.cardtext import condition_mentions
from ddaydice.interpreter.policies.heuristic.model import EFFECT_WORTH as W
from ddaydice.interpreter.policies.heuristic.model import MGF_MEAN, RWB_FACE_WORTH
from ddaydice.interpreter.policies.heuristic.percontent import memos
from ddaydice.interpreter.policies.heuristic.statements import amount_of, assigned, words_of

#: The circumstances a term counts in (see Ahead.holds).
_ALWAYS: Final = ""


class Term:
    """``worth`` Soldiers per unit of ``scale`` ('once', 'turns', 'advances', 'turns-units'), counted only
    ``when`` ('' always; 'climbing', 'not-climbing', 'cry', 'not-cry', 'mines', 'barrier', 'team', 'solo',
    'bunker', 'skulls'). (The classes here are plain classes rather than attrs ones, so that they are native
    classes when compiled with mypyc: Final attributes, equality and hash by value where an attrs frozen class's
    were used.)"""

    __slots__ = ("scale", "when", "worth")

    def __init__(self, worth: float, scale: str = "once", when: str = _ALWAYS) -> None:
        self.worth: Final = worth
        self.scale: Final = scale
        self.when: Final = when

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Term):
            return NotImplemented
        return (self.worth, self.scale, self.when) == (other.worth, other.scale, other.when)

    def __hash__(self) -> int:
        return hash((self.worth, self.scale, self.when))


class Profile:
    """What a card does, by kind of effect: its body (``soldier-value``, None when it sets none), its terms,
    whether it gives a Skull (a Climb's help), and whether any clause was read at all; and what the route planner
    and the dice count on (:class:`Traits`)."""

    __slots__ = ("body", "memo", "needs_ahead", "read", "skull_giver", "terms", "traits")

    def __init__(self, body: float | None, terms: tuple[Term, ...], skull_giver: bool, read: bool,
                 traits: Traits) -> None:
        self.body: Final = body
        self.terms: Final = terms
        self.skull_giver: Final = skull_giver
        self.read: Final = read
        self.traits: Final = traits
        #: What the card is worth, by what lies ahead (worth's memo).
        self.memo: Final[dict[Ahead, float]] = {}
        #: Whether a term counts only in circumstances of the map ahead (a Climb, a Battle Cry, Landmines).
        self.needs_ahead: Final = any(
            t.when in {"climbing", "not-climbing", "cry", "not-cry", "mines", "barrier"} for t in terms)


class Traits:
    """What the heuristic's plans count on from a card held, read from its effect."""

    __slots__ = (
        "advance_cut",
        "barriers_use",
        "breaker",
        "bunker_def",
        "casualties_saved",
        "cry_use",
        "mines_ignored",
        "on_advance",
        "on_move",
        "per_locked_skull",
        "shared",
        "tally_courage",
        "tally_tools",
    )

    def __init__(self, *, casualties_saved: float = 0.0, mines_ignored: bool = False, barriers_use: bool = False,
                 cry_use: bool = False, breaker: float = 0.0, on_advance: float = 0.0, on_move: float = 0.0,
                 advance_cut: float = 0.0, bunker_def: float = 0.0, tally_tools: int = 0, tally_courage: int = 0,
                 per_locked_skull: bool = False, shared: bool = False) -> None:
        self.casualties_saved: Final = casualties_saved  # standing: casualties -N (in every Combat)
        self.mines_ignored: Final = mines_ignored  # standing: Landmines ignored
        self.barriers_use: Final = barriers_use  # a use: Barriers ignored this turn
        self.cry_use: Final = cry_use  # a use: a Battle Cry (the RWB bonus of the Courage triple)
        self.breaker: Final = breaker  # a use: DEF -N this turn, in a Bunker too
        self.on_advance: Final = on_advance  # Soldiers gained on each Advance
        self.on_move: Final = on_move  # Soldiers gained on each move
        self.advance_cut: Final = advance_cut  # standing: advance-cost -N
        self.bunker_def: Final = bunker_def  # standing: DEF -N in a Bunker
        self.tally_tools: Final = tally_tools  # Tools added to each Final Tally
        self.tally_courage: Final = tally_courage  # Courage added to each Final Tally
        self.per_locked_skull: Final = per_locked_skull  # a gain for each Locked Skull
        self.shared: Final = shared  # its effect reaches other Units' plans (Locks, costs, trades)

    @property
    def planned(self) -> bool:
        """An Item the route planner counts on (a Bunker's DEF, a Climb, a Battle Cry, a Barrier)."""
        return bool(self.breaker) or self.cry_use or self.barriers_use


class Ahead:
    """What the worth of a card depends on: Advances and turns left, and what lies ahead of the Unit (a dict key:
    its hash is worked out once)."""

    __slots__ = (
        "_hash",
        "advances",
        "barrier",
        "bunker",
        "climbing",
        "cry",
        "mines",
        "skulls",
        "team",
        "turns",
        "units",
    )

    def __init__(self, advances: int, turns: int, units: int, team: bool, bunker: bool, skulls: bool,
                 climbing: bool = False, cry: bool = False, barrier: bool = False, mines: bool = False) -> None:
        self.advances: Final = advances
        self.turns: Final = turns
        self.units: Final = units  # Units still active
        self.team: Final = team  # more than one Unit in the game
        self.bunker: Final = bunker  # the map has a Bunker
        self.skulls: Final = skulls  # Skulls count in this game
        self.climbing: Final = climbing
        self.cry: Final = cry
        self.barrier: Final = barrier
        self.mines: Final = mines
        self._hash: Final = hash(self._fields())

    def _fields(self) -> tuple[int, int, int, bool, bool, bool, bool, bool, bool, bool]:
        return (self.advances, self.turns, self.units, self.team, self.bunker, self.skulls, self.climbing, self.cry,
                self.barrier, self.mines)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Ahead):
            return NotImplemented
        return self._fields() == other._fields()

    def __hash__(self) -> int:
        return self._hash

    def holds(self, when: str) -> bool:
        if not when:
            return True
        if when.startswith("not-"):
            return not bool(getattr(self, when[4:]))
        if when == "solo":
            return not self.team
        return bool(getattr(self, when))

    def scale(self, scale: str) -> float:
        if scale == "turns":
            return float(self.turns)
        if scale == "advances":
            return float(self.advances)
        if scale == "turns-units":
            return float(self.turns * max(1, self.units))
        return 1.0


def worth(profile: Profile, ahead: Ahead) -> float:
    """What the card's effects are worth over what lies ahead (its body aside)."""
    found = profile.memo.get(ahead)
    if found is None:
        if len(profile.memo) > 256:
            profile.memo.clear()
        found = profile.memo[ahead] = sum(t.worth * ahead.scale(t.scale) for t in profile.terms
                                          if ahead.holds(t.when))
    return found


def profile(content: Content, card: str) -> Profile:
    """The card's profile, read once per content."""
    return profiles(content)[card]


class Profiles(dict[str, Profile]):
    """The profiles of one content's cards, each read when first asked for."""

    def __init__(self, content: Content) -> None:
        super().__init__()
        self.content = content
        self._shared: frozenset[str] | None = None

    def __missing__(self, card: str) -> Profile:
        found = self[card] = _read(self.content, card)
        return found

    @property
    def shared(self) -> frozenset[str]:
        """The cards whose effect reaches other Units' plans (Traits.shared)."""
        if self._shared is None:
            self._shared = frozenset(c for c in self.content.cards if self[c].traits.shared)
        return self._shared


def profiles(content: Content) -> Profiles:
    """The profiles of ``content``'s cards."""
    # (asked hundreds of times a game, of the same content; the pair is read and replaced whole: a sweep plays games
    # in threads)
    last = _LAST.pair
    found = last[1]
    if last[0] is content and found is not None:
        return found
    return _profiles(content)


def shared_cards(content: Content) -> frozenset[str]:
    """The cards of ``content`` whose effect reaches other Units' plans (Profiles.shared; a Profiles, a dict, is not
    a native class, and its property is a generic call: the answer is kept with the content asked last)."""
    last = _LAST.pair
    found = last[2]
    if last[0] is content and found is not None:
        return found
    ps = profiles(content)
    found = ps.shared
    _LAST.pair = (content, ps, found)
    return found


def _profiles(content: Content) -> Profiles:
    """profiles' answer when ``content`` is not the one asked last."""
    kept = memos(content)
    hit: Profiles | None = kept.profiles
    if hit is None:
        hit = kept.profiles = Profiles(content)
    _LAST.pair = (content, hit, None)
    return hit


class _Last:
    """The content profiles() was last asked of, its profiles and, once asked, its shared cards (a native class: read
    without a generic call, where a Profiles, a dict, is not native)."""

    __slots__ = ("pair",)

    def __init__(self) -> None:
        self.pair: tuple[Content | None, Profiles | None, frozenset[str] | None] = (None, None, None)


_LAST: Final = _Last()


def _read(content: Content, card: str) -> Profile:
    source = content.effects.get(card)
    body: float | None = None
    terms: list[Term] = []
    read = False
    for clause in source.tree.clauses if source is not None else ():
        b = clause.body
        if clause.scope is not None and clause.scope.kind == "the-german":
            continue
        if isinstance(b, dsl_ast.Modifier):
            st = b.statement
            if st.verb.name == "soldier-value":
                n = amount_of(st)
                if n is not None:
                    body = n
                    read = True
                continue
            found = _standing(content, st, b.condition, clause.scope)
        elif isinstance(b, dsl_ast.Trigger):
            found = [t for action in b.actions for t in _best(_triggered(b.event.name, o) for o in action.options)]
        else:
            reusable = b.limit is not None and b.limit.period == "turn"
            found = [t for action in b.actions
                     for t in _best(_used(content, o, reusable) for o in action.options)]
        if found is not None:
            read = True
            terms += found
    skull = any(t.when == "climbing" for t in terms)
    return Profile(body, tuple(terms), skull, read, _traits(content, source.tree if source is not None else None))


def _traits(content: Content, tree: dsl_ast.Effect | None) -> Traits:
    """What the planner and the dice count on from the card (see Traits)."""
    t: dict[str, Any] = {}
    faces = {r.id: r.face for r in content.rwb.rwb}
    for clause in tree.clauses if tree is not None else ():
        b = clause.body
        if clause.scope is not None and clause.scope.kind == "the-german":
            continue
        if clause.scope is not None and clause.scope.kind == "all-units":
            t["shared"] = True
        if isinstance(b, dsl_ast.Modifier):
            st = b.statement
            verb, n, words = st.verb.name, amount_of(st), words_of(st)
            if verb in {"locked-dice", "item-cost", "specialist-cost"} or (verb == "allow" and any(
                    w.startswith("trade") or w.endswith("trade") for w in words)):
                t["shared"] = True
            if n is None or assigned(st):
                if verb == "ignore" and "landmines" in words:
                    t["mines_ignored"] = True
                continue
            if verb == "casualties" and n < 0:
                t["casualties_saved"] = max(t.get("casualties_saved", 0.0), -n)
            elif verb == "advance-cost" and n < 0:
                t["advance_cut"] = t.get("advance_cut", 0.0) - n
            elif verb == "def" and n < 0 and condition_mentions(b.condition, "bunker") > 0:
                t["bunker_def"] = t.get("bunker_def", 0.0) - n
            continue
        for action in b.actions:
            for option in action.options:
                for part in option.parts():
                    st = part.statement
                    verb, n, words = st.verb.name, amount_of(st), words_of(st)
                    if isinstance(b, dsl_ast.Trigger):
                        event = b.event.name
                        if verb == "gain" and "soldiers" in words | {w + "s" for w in words} and n is not None:
                            if st.per is not None and {"locked", "skull"} <= {w.name for w in st.per.words}:
                                t["per_locked_skull"] = True
                            elif event == "advance":
                                t["on_advance"] = t.get("on_advance", 0.0) + n
                            elif event == "move":
                                t["on_move"] = t.get("on_move", 0.0) + n
                        elif verb == "add" and event == "final-tally" and n is not None:
                            if "tool" in words:
                                t["tally_tools"] = t.get("tally_tools", 0) + int(n)
                            elif "courage" in words:
                                t["tally_courage"] = t.get("tally_courage", 0) + int(n)
                        continue
                    if verb == "ignore" and "barriers" in words:
                        t["barriers_use"] = True
                    elif verb == "rwb" and any(faces.get(w) == "courage" for w in words):
                        t["cry_use"] = True
                    elif (verb == "def" and n is not None and n < 0 and not assigned(st)
                          and condition_mentions(b.condition, "bunker") >= 0):
                        t["breaker"] = t.get("breaker", 0.0) - n
    return Traits(**t)


def _best(options: Iterable[list[Term] | None]) -> list[Term]:
    """Of an 'or' between options, the one worth most once (what the Unit will choose), read options only."""
    read = [o for o in options if o is not None]
    if not read:
        return []
    return max(read, key=lambda ts: sum(t.worth for t in ts))


def _base(content: Content, query: str) -> float | None:
    q = next((q for q in content.queries.queries if q.id == query), None)
    return float(q.base) if q is not None and isinstance(q.base, int) and not isinstance(q.base, bool) else None


def _standing(content: Content, st: dsl_ast.Statement, cond: dsl_ast.Condition | None,
              scope: dsl_ast.Target | None) -> list[Term] | None:
    """A standing effect (a modifier that holds while the card is in play)."""
    verb = st.verb.name
    n = amount_of(st)
    words = words_of(st)
    if verb == "casualties" and n is not None and n < 0:
        return [Term(-n * W["casualties-saved"], "turns")]
    if verb == "def" and n is not None and not assigned(st):
        if condition_mentions(cond, "bunker") > 0:
            return [Term(-n, "once", "bunker")]
        return [Term(-n * W["def-per-turn"], "turns")]
    if verb == "mgf-dice" and n is not None and not assigned(st):
        return [Term(-n * MGF_MEAN * W["def-per-turn"], "turns")]
    if verb == "ignore":
        out = []
        if "landmines" in words:
            out.append(Term(W["landmines-ignored"]))
        if "barriers" in words:
            out.append(Term(W["barriers-ignored"], "once", "barrier"))
        if "special-damage" in words:
            out.append(Term(W["special-damage-ignored"], "turns"))
        if "mgf-casualties" in words:
            out.append(Term(MGF_MEAN * W["def-per-turn"], "turns"))
        return out
    if verb == "advance-cost" and n is not None and not assigned(st):
        return [Term(-n * W["advance-cost"], "advances")]
    if verb == "locked-dice" and n is not None:
        base = _base(content, verb)
        fewer = (base - n) if assigned(st) and base is not None else -n
        scale = "turns-units" if scope is not None and scope.kind == "all-units" else "turns"
        return [Term(fewer * W["lock-fewer"], scale)]
    if verb == "skulls-ignored" and n is not None and not assigned(st):
        return [Term(n * W["skull-ignored"], "turns", "skulls")]
    if verb in {"item-cost", "specialist-cost"} and n is not None and not assigned(st):
        return [Term(-n * W["cost-cut"])]
    if verb == "stay-turns" and n is not None and not assigned(st):
        return [Term(n * W["stay"])]
    if verb == "allow":
        if "dice-trade" in words:
            return [Term(W["allow-trade-team"], "once", "team"), Term(W["allow-trade-solo"], "once", "solo")]
        return [Term(W["allow"])]
    if verb == "finds-per-turn":
        return []
    return None


def _per_event(event: str, soldiers: float, per: bool) -> list[Term]:
    """``soldiers`` worth of gain each time ``event`` happens."""
    if per:
        return [Term(soldiers * W["per-locked-skull"], "turns", "skulls")]
    if event == "advance":
        return [Term(soldiers, "advances")]
    if event == "move":
        return [Term(soldiers * W["per-move"], "advances"), Term(soldiers)]
    if event == "rwb":
        return [Term(soldiers * W["per-rwb"], "turns")]
    if event in {"upkeep", "turn-start", "final-tally"}:
        return [Term(soldiers, "turns")]
    return [Term(soldiers * W["per-other-event"], "turns")]


def _resource(st: dsl_ast.Statement) -> tuple[float, str] | None:
    n = amount_of(st)
    what = next((a.name for a in st.args if isinstance(a, dsl_ast.Word)), "")
    if n is None:
        return None
    return n, what.removesuffix("s")  # 'soldiers' and 'soldier', 'item-points' and 'item-point' alike


def _triggered(event: str, option: dsl_ast.Option) -> list[Term] | None:
    """What one option of a triggered effect is worth, each time its event happens."""
    out: list[Term] = []
    for part in option.parts():
        st = part.statement
        verb = st.verb.name
        if part.recipient is not None and part.recipient.kind in {"another-unit", "the-german"}:
            continue
        if verb == "gain" and (r := _resource(st)) is not None:
            n, what = r
            out += _per_event(event, n * W.get("gain-" + what, W["gain-other"]), st.per is not None)
        elif verb == "add" and (r := _resource(st)) is not None and event == "final-tally":
            n, what = r
            out.append(Term(n * W.get("add-each-turn-" + what, W["add-each-turn-other"]), "turns"))
        elif verb == "absorb":
            out.append(Term(W["absorb"]))
        elif verb == "die-instead":
            out.append(Term(W["die-instead"]))
        elif verb == "lose" and (r := _resource(st)) is not None:
            out += _per_event(event, -r[0] * W.get("gain-" + r[1], W["gain-other"]), st.per is not None)
        else:
            return None
    return out


def _used(content: Content, option: dsl_ast.Option, reusable: bool) -> list[Term] | None:
    """What one option of a card's use is worth: once (an Item, a Badge), or each turn (a use once per turn)."""
    out: list[Term] = []
    for part in option.parts():
        found = _use_part(content, part, reusable)
        if found is None:
            return None
        out += found
    return out


def _use_part(content: Content, part: dsl_ast.Option, reusable: bool) -> list[Term] | None:
    st = part.statement
    verb = st.verb.name
    words = words_of(st)
    n = amount_of(st)
    to = part.recipient.kind if part.recipient is not None else None
    if to == "the-german":
        return []  # what hurts another side's player is counted apart (cardtext.against_foe)
    if to == "another-unit" and verb in {"lose", "sacrifice", "discard"}:
        return []
    each = "turns" if reusable else "once"
    if verb == "gain" and (r := _resource(st)) is not None:
        v = r[0] * W.get("gain-" + r[1], W["gain-other"])
        if to == "another-unit":
            return [Term(v * W["to-another"], "once", "team")]
        return [Term(v, each)]
    if verb == "reroll":
        return [Term((n or 1.0) * W["reroll-each-turn" if reusable else "reroll"], each)]
    if verb == "recolour":
        return [Term((n or 1.0) * W["recolour-each-turn" if reusable else "recolour"], each)]
    if verb == "reface":
        if "skull" in words:  # Skulls turned into something else: no help for a Climb
            return [Term(W["reface-skulls"], each)]
        one_colour = bool(words & set(content.dice.colours))
        count = n or 1.0
        plain = W["reface-colour" if one_colour else "reface"] * count
        climb = W["reface-colour-climbing" if one_colour else "reface-climbing"]
        return [Term(plain, each, "not-climbing"), Term(climb, each, "climbing")]
    if verb == "add":
        count = n or 1.0
        if "skull" in words:
            extra = W["skull-to-all"] if to == "all-units" else 0.0
            return [Term(W["skull-climbing"] + extra, each, "climbing"), Term(W["skull-not-climbing"], each,
                                                                             "not-climbing")]
        face = next((w for w in words if w in W_ADD), "")
        return [Term(count * W_ADD.get(face, W["add-other"]), each)]
    if verb == "def":
        if n is None or n > 0:
            return [] if to in {"another-unit", "all-units"} else None
        if assigned(st):
            return [Term(W["def-to-zero"], each)]
        return [Term(-n, each)]
    if verb == "mgf-dice":
        if n is None or n > 0:
            return [] if to in {"another-unit", "all-units"} else None
        v = W["mgf-off"] if assigned(st) or n < 0 else 0.0
        if part.duration == "permanently":
            v = W["mgf-off-permanently"]
        if to == "adjacent-sector":
            return [Term(W["mgf-off-adjacent-team"], each, "team"), Term(W["mgf-off-adjacent-solo"], each, "solo")]
        return [Term(v, each)]
    return _use_part_more(content, part, verb, words, n, to, each)


def _use_part_more(content: Content, part: dsl_ast.Option, verb: str, words: set[str], n: float | None,
                   to: str | None, each: str) -> list[Term] | None:
    """The worth of a use's part, for the verbs :func:`_use_part` leaves: casualties, what is ignored, costs,
    draws, RWB bonuses, free cards, losses, permissions and the team's tallies."""
    st = part.statement
    if verb == "casualties":
        if n is None:
            return None
        if assigned(st):
            return [Term(W["casualties-to-zero"], each)]
        return [Term(-n * W["casualties-now"], each)]
    if verb == "ignore":
        out = []
        if "mgf-casualties" in words:
            out.append(Term(MGF_MEAN, each))
        if "special-damage" in words:
            out.append(Term(W["special-damage-now"], each))
        if "landmines" in words:
            out.append(Term(W["landmines-now"], each, "mines"))
        if "barriers" in words:
            out.append(Term(W["barriers-now"], each, "barrier"))
        return out
    if verb == "advance-cost":
        if n is None or n > 0:
            return [] if to in {"another-unit", "all-units"} else None
        return [Term(W["advance-free"] if assigned(st) else -n * W["advance-cheaper"], each)]
    if verb == "draw-award":
        return [Term(W["draw-award"], each)]
    if verb == "draw":
        return [Term((n or 1.0) * W["draw"], each)]
    if verb == "rwb":
        bonus = next(iter(words), "")
        face = next((r.face for r in content.rwb.rwb if r.id == bonus), "")
        if face == "courage":
            return [Term(W["rwb-cry-needed"], each, "cry"), Term(W["rwb-cry"], each, "not-cry")]
        return [Term(RWB_FACE_WORTH.get(face, W["gain-other"]), each)]
    if verb in {"recruit", "find"} and "free" in words:
        return [Term(W["free-card"], each)]
    if verb == "lose" and (r := _resource(st)) is not None:
        return [Term(-r[0] * W.get("gain-" + r[1], W["gain-other"]), each)]
    if verb == "sacrifice" and "self" in words:
        return [Term(W["self-sacrifice"], each)]
    if verb == "discard" and "self" in words:
        return []
    if verb == "allow":
        if words & {"trade-anywhere", "dice-trade"}:
            return [Term(W["allow-trade-team"], each, "team")]
        if "stay" in words:
            return [Term(W["allow-stay"], each)]
        return [Term(W["allow"], each)]
    if verb == "copy-tally":
        return [Term(W["copy-tally"], each, "team")]
    if verb == "keep-tally":
        return [Term(W["keep-tally"], each)]
    if verb == "swap-sectors":
        return [Term(W["swap-sectors"], each)]
    return None


#: What a result added to the Final Tally by a use is worth, by face.
W_ADD: Final = {"tool": W["add-tool"], "courage": W["add-courage"], "star": W["add-star"]}
