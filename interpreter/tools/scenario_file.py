"""A scenario file: its schema (the situation, the steps, the checks), reading it, and every check of its
mistakes before it runs, each located at its line (docs/scenarios.md).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any, Literal

import attrs

from ddaydice.dsl.diagnostics import Diagnostic, RuleError, did_you_mean, sort_key
from ddaydice.dsl.json_schema import SchemaPart
from ddaydice.dsl.limits import (
    MAX_CHOICES,
    MAX_DRAWS,
    MAX_RESOURCE,
    MAX_SCENARIO_TURNS,
    MAX_SEED,
    MAX_STEPS,
    MAX_VIRTUAL_RESULTS,
    Range,
)
from ddaydice.dsl.loader import Content
from ddaydice.dsl.yamlsrc import YamlDoc, position, read_yaml, shorten, structure
from ddaydice.interpreter.core.option_rules import OptionRules
from ddaydice.interpreter.core.state import Die, GameState, Unit
from ddaydice.interpreter.mechanisms import decks
from ddaydice.interpreter.mechanisms.options import reachable
from ddaydice.interpreter.tools.scenario_names import Names, step_name_problems
from ddaydice.interpreter.tools.scenario_placed import placed_problems
from ddaydice.interpreter.tools.scenario_steps import ANSWER_FORMS, answer_ok, check_step, step_schema
from ddaydice.interpreter.tools.setups import map_hint

MARKERS = ("chevron-1", "chevron-2", "chevron-3", "must-move", "battle-cry", "cant-stay")
STATUSES = ("active", "safe", "dead")
# A Unit's resources in a scenario, and how many of a card or resource a trade moves.
Amount = Annotated[int, Range(0, MAX_RESOURCE)]
Turn = Annotated[int, Range(0, MAX_SCENARIO_TURNS)]
Order = Annotated[int, Range(0, MAX_CHOICES)]
Count = Annotated[int, Range(-MAX_CHOICES, MAX_CHOICES)]  # the play order of a card or grant (when it came into play)


@attrs.frozen
class UnitSetup:
    id: str
    sector: str | None = None
    soldiers: Amount | None = None
    stars: Amount | None = None
    courage: Amount | None = None
    item_points: Amount | None = None
    specialists: tuple[str, ...] | None = None
    dead: tuple[str, ...] = ()
    items: tuple[str, ...] = ()
    vehicle: str | None = None
    awards: tuple[str, ...] = ()
    visited: tuple[str, ...] | None = None
    marker: str | None = None
    status: str | None = None
    cards: tuple[str, ...] = ()  # cards of an expansion's decks the Unit holds (Badges)
    used_items: tuple[str, ...] = ()  # Items used earlier in the game
    # What a position captured from a game holds besides (docs/scenarios.md, "Capture a position"); None: as
    # set-up leaves it.
    hand: tuple[str, ...] | None = None  # Regular Specialists in hand
    used_awards: tuple[str, ...] | None = None
    conquered: str | None = None
    kept_tally: tuple[str, ...] | None = None  # a Final Tally kept for next turn (results as in `tally:`)
    trading_pool: tuple[str, ...] | None = None  # an option's Trading Pool's dice
    entered_turn: Turn | None = None
    moved_turn: Annotated[int, Range(-1, MAX_SCENARIO_TURNS)] | None = None
    recruited: Amount | None = None
    found: Amount | None = None
    awards_drawn: Amount | None = None
    counters: dict[str, Count] | None = None  # the limits' counters ("used:bazooka", "drew:badge@t3")
    came_into_play: dict[str, Order] | None = None  # card -> when it came into play (the order within a tier)


@attrs.frozen
class SectorSetup:
    """A Sector's state in a captured position: attributes gained (and when), its last MGF roll."""

    attributes: tuple[str, ...] = ()
    acquired: dict[str, Order] = attrs.Factory(dict)
    mgf_roll: tuple[Annotated[int, Range(1, 6)], ...] | None = None
    mgf_turn: Annotated[int, Range(-1, MAX_SCENARIO_TURNS)] = -1


@attrs.frozen
class GrantSetup:
    """A modifier granted for a while (``def -7 this turn``), as the state holds it (core/state.py, Grant)."""

    owner: str
    tier: str
    query: str
    op: str
    text: str
    expires: str  # turn:N, phase:N:PHASE, never
    clause: Amount = 0
    value: Annotated[int, Range(-MAX_RESOURCE, MAX_RESOURCE)] | None = None
    args: tuple[str, ...] = ()
    unit: str | None = None
    sector: str | None = None
    order: Order = 0
    by: str | None = None  # the player whose card granted it (named in derivations)


@attrs.frozen
class Conquest:
    """A Bunker a Unit survived, and when (the options' scores read them)."""

    unit: str
    bunker: str
    turn: Turn


@attrs.frozen
class Death:
    """The record of a Unit's casualties: Soldiers lost in a Sector, or the Unit wiped out there."""

    unit: str
    sector: str
    turn: Turn
    lost: Amount | None = None
    wiped: bool = False


@attrs.frozen
class ScenarioFile:
    scenario: str
    map: str
    units: tuple[UnitSetup, ...]
    variant: str | None = None
    options: tuple[str, ...] = ()
    packs: tuple[str, ...] = ()
    seed: Annotated[int, Range(-MAX_SEED + 1, MAX_SEED - 1)] = 0  # (as play and replay take it)
    ruling: str = ""
    tally: dict[str, list[str]] = attrs.Factory(dict)
    rolls: tuple[int, ...] = ()
    answers: dict[str, list[Any]] = attrs.Factory(dict)
    fallback: Literal["reference", "none"] = "reference"
    turn: Annotated[int, Range(0, MAX_SCENARIO_TURNS)] = 1
    phase: str | None = None
    steps: Annotated[tuple[Any, ...], SchemaPart(step_schema())] = ()
    expect: tuple[Any, ...] = ()
    bunker_specialists: dict[str, Amount] = attrs.Factory(dict)
    conquered: tuple[str, ...] = ()
    entered: tuple[str, ...] = ()
    decks: dict[str, list[str]] = attrs.Factory(dict)  # an expansion's decks, top card first, by kind
    discards: dict[str, list[str]] = attrs.Factory(dict)  # their discard piles
    in_play: tuple[str, ...] = ()  # drawn cards in play for every Unit (Battle Conditions)
    piles: tuple[tuple[str, ...], ...] = ()  # an option's piles of Items (item-piles), top first
    # Players of another side (rules/sides.yaml: the German), by side id: their resources and cards.
    sides: tuple[UnitSetup, ...] = ()
    # A position captured from a game (docs/scenarios.md, "Capture a position"): the rest of the state.
    phase_done: bool = False  # the game stands at the end of `phase` (already run), not before it
    draws: Annotated[int, Range(0, MAX_DRAWS)] = 0  # the generator's 32-bit words drawn since `seed`
    pool: tuple[str, ...] | None = None  # the Pool in order (None: as set-up leaves it)
    placed: dict[str, str] | None = None  # card -> the Sector where it waits
    abandoned: tuple[str, ...] = ()  # Vehicles abandoned
    sectors: dict[str, SectorSetup] = attrs.Factory(dict)
    grants: tuple[GrantSetup, ...] = ()
    conquests: tuple[Conquest, ...] = ()
    deaths: tuple[Death, ...] = ()
    shortfall: Amount = 0
    play_order: Order | None = None
    first_bunker_turn: Turn | None = None


def _raw(node: Any) -> Any:
    """Plain data with the file's own keys (free-form parts: steps, answers, expectations)."""
    if isinstance(node, dict):
        return {str(k): _raw(v) for k, v in node.items()}
    if isinstance(node, list):
        return [_raw(v) for v in node]
    return node


def load_scenario(path: Path, content: Content, text: str | None = None
                  ) -> tuple[tuple[ScenarioFile, YamlDoc] | None, list[Diagnostic]]:
    """Read a scenario file (``text``: what an editor holds for it, unsaved) and check it against the content,
    every mistake located."""
    doc, diags = read_yaml(str(path), text)
    if doc is None:
        return None, diags
    sc, diags = structure(doc, doc.data, ScenarioFile)
    if sc is None:
        return None, sorted(diags, key=sort_key)
    data = doc.data
    sc = attrs.evolve(sc, steps=tuple(_raw(data.get("steps", []))), expect=tuple(_raw(data.get("expect", []))),
                      answers=_raw(data.get("answers", {})), tally=_raw(data.get("tally", {})))
    sc = _position_keys(sc, data)
    return (sc, doc), validate(sc, doc, content)


def validate(sc: ScenarioFile, doc: YamlDoc, content: Content) -> list[Diagnostic]:
    """A scenario that sets up an impossible state is rejected with located errors."""
    check = _Validation(sc, doc, content)
    if sc.map not in content.maps:
        check.err(["map"], f"no map '{sc.map}'", map_hint(content, sc.map, tuple(sc.packs)))
        return check.out
    check.map_and_options()
    specs = check.specialists()
    check.sides()
    check.units(specs)
    check.players()
    check.tallies_and_rolls()
    check.cards_and_decks()
    check.phase_and_steps()
    check.answers()
    check.expectations()
    check.position()
    return check.out


def _ids(mapping: dict[str, Any]) -> dict[str, Any]:
    """A mapping keyed by ids as the file spells them (the YAML reader spells a key's '-' as '_'; ids never hold
    '_')."""
    return {str(k).replace("_", "-"): v for k, v in mapping.items()}


def _position_keys(sc: ScenarioFile, data: Any) -> ScenarioFile:
    """A captured position's mappings keyed by ids (cards, Sectors, attributes) and by counters, with the file's
    own keys."""
    def player(setup: UnitSetup, raw: Any) -> UnitSetup:
        counters = raw.get("counters") if isinstance(raw, dict) else None
        return attrs.evolve(setup, counters=_raw(counters) if setup.counters is not None else None,
                            came_into_play=_ids(setup.came_into_play) if setup.came_into_play is not None else None)

    raw_units, raw_sides = data.get("units") or [], data.get("sides") or []
    return attrs.evolve(
        sc, units=tuple(player(u, r) for u, r in zip(sc.units, raw_units, strict=False)),
        sides=tuple(player(u, r) for u, r in zip(sc.sides, raw_sides, strict=False)),
        placed=_ids(sc.placed) if sc.placed is not None else None,
        sectors={k: attrs.evolve(v, acquired=_ids(v.acquired)) for k, v in _ids(sc.sectors).items()})


class _Validation:
    """The checks of :func:`validate`, in the order their diagnostics are reported."""

    def __init__(self, sc: ScenarioFile, doc: YamlDoc, content: Content) -> None:
        self.sc = sc
        self.doc = doc
        self.content = content
        self.out: list[Diagnostic] = []
        self.rules: OptionRules | None = None  # the optional rules' settings, once they are known to build

    def err(self, path: list[str | int], message: str, hint: str | None = None, code: str = "SCEN001") -> None:
        line, col = position(self.doc.data, path)
        self.out.append(Diagnostic(code, message, self.doc.file, line, col, hint=hint))

    def err_in_key(self, path: list[str | int], part: tuple[int, int], message: str, hint: str | None) -> None:
        """A problem of a part of the key at ``path`` (its offset in the key and its width): the caret under it."""
        line, col = position(self.doc.data, path, key=True)
        lines = self.doc.text.splitlines()
        quoted = 0 < line <= len(lines) and lines[line - 1][col - 1:col] in {"'", '"'}
        start, width = part
        self.out.append(Diagnostic("SCEN001", message, self.doc.file, line, col + quoted + start, hint=hint,
                                   width=max(width, 1)))

    def map_and_options(self) -> None:
        sc, content, err = self.sc, self.content, self.err
        bm = content.maps[sc.map]
        wrong = bm.variant_problem(sc.variant) if sc.variant is not None else None
        if wrong is not None:
            err(["variant"], *wrong)
        for i, opt in enumerate(sc.options):
            if opt not in content.options:
                err(["options", i], f"no optional rule '{opt}'", did_you_mean(opt, content.options))

    def specialists(self) -> set[str]:
        """The Specialists that can be in play on the scenario's map, variant and options (an option that cannot be
        built is reported on ``options``)."""
        sc, content = self.sc, self.content
        bm = content.maps[sc.map]
        variant = next((v for v in bm.variants if v.id == sc.variant), None)
        specs = set(variant.specialists) if variant and variant.specialists is not None else set(bm.specialists)
        # Unique Specialists an optional rule adds to the Pool whatever the map ('only-in' it: Atlantikwall's Sniper).
        specs |= {cid for cid, card in content.cards.items() if content.card_kinds[cid] == "specialist"
                  and card.only_in and card.grade == "unique" and any(o in sc.options for o in card.only_in)}
        for s in bm.sectors:
            if s.start:
                specs |= set(s.start.specialists)
        if all(opt in content.options for opt in sc.options):
            try:  # Specialists an option makes available (Bazooka Joe's second level, Wild Specialists)
                self.rules = OptionRules.build(content, sc.options)
                specs |= {c for c in reachable(self.rules, content) if content.card_kinds.get(c) == "specialist"}
            except RuleError as exc:
                self.err(["options"], str(exc))
        return specs

    def sides(self) -> None:
        """Another side's players (the German): in this game, in no Sector, holding their own side's cards."""
        sc, content, err = self.sc, self.content, self.err
        side_ids = [d.id for d in content.sides.sides if d.option in sc.options]
        for i, side in enumerate(sc.sides):
            if side.id not in side_ids:
                err(["sides", i, "id"], f"no side '{side.id}' in this game" + ("" if side_ids else
                                                                             " (no optional rule of a side is on)"),
                    did_you_mean(side.id, side_ids))
            if side.sector is not None or side.visited is not None or side.marker is not None:
                err(["sides", i, "id"], "another side's player stands in no Sector and has no marker")
            for field in ("specialists", "dead", "items", "used_items"):
                for j, cid in enumerate(getattr(side, field) or ()):
                    kdef = content.kind_def(content.card_kinds.get(cid, ""))
                    role = "specialist" if field in {"specialists", "dead"} else "item"
                    if kdef is None or kdef.side != side.id or kdef.held_as != role:
                        pool = [c for c, k in content.card_kinds.items() if (content.kind_def(k) or kdef) is not None
                                and getattr(content.kind_def(k), "side", None) == side.id]
                        err(["sides", i, field, j], f"'{cid}' is no {role} of the side '{side.id}'",
                            did_you_mean(cid, pool))
            for j, cid in enumerate(side.cards):
                kdef = content.kind_def(content.card_kinds.get(cid, ""))
                if kdef is None or kdef.held_by != "unit":
                    err(["sides", i, "cards", j], f"'{cid}' is no card a player holds from a deck (a Decoration)")

    def units(self, specs: set[str]) -> None:
        """The Units: numbered in order, in Sectors of the map, with cards of the right kinds available there
        (``specs``: the Specialists that can be in play)."""
        sc, content, err = self.sc, self.content, self.err
        sectors = {s.id for s in content.maps[sc.map].sectors}
        effects_text = " ".join(e.text for k, e in content.effects.items() if k.startswith(f"{sc.map}/"))
        for i, u in enumerate(sc.units):
            if u.id != f"u{i + 1}":
                err(["units", i, "id"], f"Units are numbered in order: expected 'u{i + 1}', found '{u.id}'")
            if u.sector is not None and u.sector not in sectors:
                err(["units", i, "sector"], f"map '{sc.map}' has no sector '{u.sector}'",
                    did_you_mean(u.sector, sectors))
            for j, v in enumerate(u.visited or ()):
                if v not in sectors:
                    err(["units", i, "visited", j], f"map '{sc.map}' has no sector '{v}'", did_you_mean(v, sectors))
            if u.marker is not None and u.marker not in MARKERS:
                err(["units", i, "marker"], f"no marker face '{shorten(u.marker)}'", did_you_mean(u.marker, MARKERS))
            if u.status is not None and u.status not in STATUSES:
                err(["units", i, "status"], f"no status '{shorten(u.status)}' (a Unit is {', '.join(STATUSES)})",
                    did_you_mean(u.status, STATUSES))
            for field, kind in (("specialists", "specialist"), ("dead", "specialist"), ("items", "item"),
                                ("used_items", "item"),
                                ("awards", "award")):
                for j, cid in enumerate(getattr(u, field) or ()):
                    if content.card_kinds.get(cid) != kind:
                        pool = [c for c, k in content.card_kinds.items() if k == kind]
                        err(["units", i, field, j], f"no {kind} '{cid}'", did_you_mean(cid, pool))
                    elif kind == "specialist" and cid not in specs and cid not in effects_text:
                        err(["units", i, field, j], f"the {content.cards[cid].name} is not available on this map"
                            + (f" ({sc.variant})" if sc.variant else ""), self.bring_hint(cid, specs))
            if u.vehicle is not None and content.card_kinds.get(u.vehicle) != "vehicle":
                err(["units", i, "vehicle"], f"no vehicle '{u.vehicle}'",
                    did_you_mean(u.vehicle, [c for c, k in content.card_kinds.items() if k == "vehicle"]))

    def bring_hint(self, cid: str, specs: set[str]) -> str:
        """What brings a Specialist the scenario's game has not: the optional rule it comes with ('only-in'), if
        the scenario does not switch it on; and the Specialists the game has."""
        content = self.content
        missing = [o for o in content.cards[cid].only_in if o not in self.sc.options and o in content.options]
        bring = (f"it comes with the optional rule {' or '.join(repr(o) for o in missing)}: add it to 'options:'; "
                 if missing else "")
        return bring + "available: " + ", ".join(sorted(specs))

    def players(self) -> None:
        """As many Units as the map is for (maps/: ``players``), and as an optional rule allows (a solitaire's)."""
        sc, bm = self.sc, self.content.maps[self.sc.map]
        (lo, hi), n = bm.players, len(sc.units)
        most = self.rules.max_players if self.rules is not None else None
        if not lo <= n <= hi:
            self.err(["units", hi] if n > hi else ["units"], f"{bm.name} is for {lo} to {hi} players, not {n}")
        elif self.rules is not None and most is not None and n > most:
            self.err(["units", most], f"the optional rule '{self.rules.origin['max-players']}' is for at most "
                     f"{most} player(s), not {n}")

    def tallies_and_rolls(self) -> None:
        """`tally:` and `answers:` of players in the scenario, dice results that exist and no more dice than the
        player rolls, d6 results 1 to 6."""
        sc, err = self.sc, self.err
        ids = [u.id for u in sc.units] + [s.id for s in sc.sides]
        for key in list(sc.tally) + list(sc.answers):
            if key not in ids:
                where = "tally" if key in sc.tally else "answers"
                err([where, key], f"no Unit '{key}' in this scenario", did_you_mean(key, ids))
        for uid, results in sc.tally.items():  # a list of text: structured before (SCHEMA004 otherwise)
            self.dice(["tally", uid], results, uid)
        if len(sc.rolls) > MAX_CHOICES:
            err(["rolls"], f"more than {MAX_CHOICES} rolls")
            return
        for j, r in enumerate(sc.rolls):
            if not 1 <= r <= 6:
                err(["rolls", j], f"a d6 result must be 1 to 6, found {r}")

    def dice(self, path: list[str | int], results: Sequence[str], player: str, pool: int | None = None) -> None:
        """Results of dice (a Final Tally, a kept one; a Trading Pool, of ``pool`` dice): each one readable, no more
        dice than the player rolls (rules/dice.yaml: so many of each of its colours) or the pool holds, the error
        at the first die too many; results no die gave (an effect's: colourless, ``virtual``) up to
        MAX_VIRTUAL_RESULTS."""
        content = self.content
        colours, faces = set(content.vocab.colours), {f.id for f in content.dice.faces}
        own, per, places = rolled(content, player), content.dice.dice_per_colour, dice_places(content)
        most = len(own) * per if pool is None else pool
        real = virtual = 0
        for j, text in enumerate(results):
            die, problem = parse_die(text, colours, faces, places)
            if die is None:
                self.err([*path, j], problem or "")
            elif die.real and (real := real + 1) == most + 1:
                self.err([*path, j], f"more dice than the {most} a Trading Pool holds" if pool is not None else
                         f"more dice than the {most} a player rolls ({per} of each of its colours: {', '.join(own)})",
                         "a result an effect adds is written without a colour, or 'virtual'")
            elif not die.real and (virtual := virtual + 1) == MAX_VIRTUAL_RESULTS + 1:
                self.err([*path, j], f"more than {MAX_VIRTUAL_RESULTS} results no die gave")

    def cards_and_decks(self) -> None:
        """Cards of an expansion's decks: held by Units, in decks and discard piles, in piles, in play."""
        sc, content, err = self.sc, self.content, self.err
        for i, u in enumerate(sc.units):
            for j, cid in enumerate(u.cards):
                kdef = content.kind_def(content.card_kinds.get(cid, ""))
                if kdef is None or kdef.held_by != "unit":
                    err(["units", i, "cards", j], f"'{cid}' is no card a Unit holds from a deck (a Badge)")
        names = decks.deck_names(content)
        for key, piles in (("decks", sc.decks), ("discards", sc.discards)):
            for raw, cards in piles.items():
                if str(raw).replace("_", "-") not in names:
                    err([key, raw], f"no deck '{raw}'", did_you_mean(str(raw), names))
                    continue
                kdef = content.kind_def(str(raw).replace("_", "-"))
                if kdef is None:  # the base game's Award deck (its cards checked with a position's keys)
                    continue
                for j, cid in enumerate(cards):
                    if content.card_kinds.get(cid) != kdef.id:
                        err([key, raw, j], f"'{cid}' is no {kdef.name}")
        for i, pile in enumerate(sc.piles):
            for j, cid in enumerate(pile):
                if content.card_kinds.get(cid) != "item":
                    err(["piles", i, j], f"no item '{cid}'")
        for j, cid in enumerate(sc.in_play):
            kdef = content.kind_def(content.card_kinds.get(cid, ""))
            if kdef is None or kdef.held_by != "game":
                err(["in_play", j], f"'{cid}' is no card in play for every Unit (a Battle Condition)")

    def phase_and_steps(self) -> None:
        sc, err = self.sc, self.err
        phases = [p.id for p in self.content.phases.phases]  # a pack's phases too (Atlantikwall's assault)
        if sc.phase is not None and sc.phase not in phases:
            err(["phase"], f"no phase '{shorten(sc.phase)}'", did_you_mean(sc.phase, phases))
        if len(sc.steps) > MAX_STEPS:
            err(["steps"], f"more than {MAX_STEPS} steps")
            return
        players = [u.id for u in sc.units] + [s.id for s in sc.sides]
        names = Names(self.content, sc.map, tuple(players))
        for j, step in enumerate(sc.steps):
            problem = check_step(step, players)
            if problem:
                err(["steps", j], problem)
                continue
            for key, message, hint in step_name_problems(step, names):  # the cards, Sectors, Units it names
                err(["steps", j, key], message, hint)

    def answers(self) -> None:
        """Each player's answers: a list of option numbers, labels, or lists of them."""
        for uid, answers in self.sc.answers.items():  # a list: structured before (SCHEMA004 otherwise)
            if len(answers) > MAX_CHOICES:
                self.err(["answers", uid], f"more than {MAX_CHOICES} answers")
                continue
            for j, answer in enumerate(answers):
                if not answer_ok(answer):
                    self.err(["answers", uid, j], ANSWER_FORMS)

    def expectations(self) -> None:
        """Each check of ``expect:``: a mapping of what to check (``u1.soldiers``, ``query def for u1``) to its
        value; the query readable, the players and fields known."""
        sc, err = self.sc, self.err
        players = [u.id for u in sc.units] + [s.id for s in sc.sides]
        for j, item in enumerate(sc.expect):
            if not isinstance(item, dict) or not item:
                err(["expect", j], "a check is a mapping: '- u1.soldiers: 3' or '- query def for u1: 2'")
                continue
            for key, expected in item.items():
                in_key = _check_expectation(str(key), players, self.content, sc.map)
                in_value = _check_matcher(expected) if in_key is None else None
                if in_key is not None:  # the caret under the part of the key that is wrong
                    self.err_in_key(["expect", j, key], in_key[2], in_key[0], in_key[1])
                elif in_value is not None:
                    err(["expect", j, key], *in_value)

    def position(self) -> None:
        """The keys of a position captured from a game: cards, Sectors and players that exist, dice results that
        can be read, grants of known tiers and durations."""
        sc, content, err = self.sc, self.content, self.err
        sectors = {s.id for s in content.maps[sc.map].sectors}
        players = [u.id for u in sc.units] + [s.id for s in sc.sides]

        def card(path: list[str | int], cid: str, kinds: set[str] | None = None) -> None:
            if cid not in content.card_kinds or (kinds is not None and content.card_kinds[cid] not in kinds):
                err(path, f"no card '{shorten(cid)}'" + (f" ({', '.join(sorted(kinds))})" if kinds else ""),
                    did_you_mean(cid, [c for c, k in content.card_kinds.items() if kinds is None or k in kinds]))

        def sector(path: list[str | int], sid: str) -> None:
            if sid not in sectors:
                err(path, f"map '{sc.map}' has no sector '{shorten(sid)}'", did_you_mean(sid, sectors))

        for key, group in (("units", sc.units), ("sides", sc.sides)):
            for i, u in enumerate(group):
                for field in ("hand", "used_awards"):
                    for j, cid in enumerate(getattr(u, field) or ()):
                        card([key, i, field, j], cid, {"specialist"} if field == "hand" else {"award"})
                for cid in u.came_into_play or {}:
                    card([key, i, "came_into_play", cid], cid)
                if u.conquered is not None:
                    sector([key, i, "conquered"], u.conquered)
                self.dice([key, i, "kept_tally"], u.kept_tally or (), u.id)
                # a Trading Pool holds the dice its option rolls, or (a card's) as many as the player rolls
                pool = max(self.rules.trading_pool if self.rules else 0,
                           len(rolled(content, u.id)) * content.dice.dice_per_colour)
                self.dice([key, i, "trading_pool"], u.trading_pool or (), u.id, pool)
        if "award" in sc.decks or "award" in sc.discards:
            for key, piles in (("decks", sc.decks), ("discards", sc.discards)):
                for j, cid in enumerate(piles.get("award", [])):
                    card([key, "award", j], cid, {"award"})
        for j, cid in enumerate(sc.pool or ()):
            card(["pool", j], cid)
        for cid, where in (sc.placed or {}).items():
            card(["placed", cid], cid)
            sector(["placed", cid], where.split(":", 1)[-1])
        for cid, code, message, hint in placed_problems(content, sc.map, sc.placed or {}):
            err(["placed", cid], message, hint, code)
        for j, cid in enumerate(sc.abandoned):
            card(["abandoned", j], cid, {"vehicle"})
        for sid in sc.sectors:
            sector(["sectors", sid], sid)
        tiers = {t.id for t in content.precedence.tiers}
        for j, g in enumerate(sc.grants):
            if g.tier not in tiers:
                err(["grants", j, "tier"], f"no tier '{shorten(g.tier)}'", did_you_mean(g.tier, tiers))
            for key, who in (("unit", g.unit), ("by", g.by)):
                if who is not None and who not in players:
                    err(["grants", j, key], f"no Unit '{shorten(who)}' in this scenario", did_you_mean(who, players))
            if g.sector is not None:
                sector(["grants", j, "sector"], g.sector)
            parts = g.expires.split(":")
            if not (g.expires == "never" or (parts[0] == "turn" and len(parts) == 2 and parts[1].isdigit())
                    or (parts[0] == "phase" and len(parts) == 3 and parts[1].isdigit())
                    or (parts[0] == "until" and len(parts) == 3 and parts[2] in players)):
                err(["grants", j, "expires"], f"a grant expires 'never', 'turn:N', 'phase:N:PHASE' or "
                    f"'until:EVENT:UNIT', found '{shorten(g.expires)}'")
        records: list[tuple[str, int, str, str]] = [("conquests", j, c.unit, c.bunker) for j, c in
                                                    enumerate(sc.conquests)]
        records += [("deaths", j, d.unit, d.sector) for j, d in enumerate(sc.deaths)]
        for key, j, uid, sid in records:
            if uid not in players:
                err([key, j, "unit"], f"no Unit '{shorten(uid)}' in this scenario", did_you_mean(uid, players))
            sector([key, j], sid)


# What ``UNIT.FIELD`` may check, besides a Unit's own attributes (core/state.py).
UNIT_CHECKS = frozenset({"score", "hand", "trading_pool", "tally", "soldier_count", "chevrons"})
GAME_CHECKS = frozenset({"outcome", "reason", "turn", "phase", "pool", "award-deck", "conquered", "in-play", "piles",
                         "score"})


# The matchers a check's value may be instead of the value itself (docs/scenarios.md).
MATCHERS = ("count", "contains", "one-of")


def as_matcher(expected: Any) -> dict[str, Any] | None:
    """A check's expected value as a matcher (``{count: 3}``, ``{contains: medic}``, ``{one-of: [a, b]}``), by
    word, or None when it is a plain value. The YAML reader may spell a key's '-' as '_' (one_of)."""
    if not isinstance(expected, dict) or not expected:
        return None
    words = {str(k).replace("_", "-"): v for k, v in expected.items()}
    return words if any(w in MATCHERS for w in words) else None


def _check_matcher(expected: Any) -> tuple[str, str | None] | None:
    """Why a matcher cannot be read (and a hint), or None (a plain value is never wrong here)."""
    matcher = as_matcher(expected)
    if matcher is None:
        return None
    for word, want in matcher.items():
        if word not in MATCHERS:
            return f"no matcher '{shorten(word)}' (matchers: {', '.join(MATCHERS)})", did_you_mean(word, MATCHERS)
        if word == "count" and (isinstance(want, bool) or not isinstance(want, int) or want < 0):
            return "'count' takes a whole number from 0", None
        if word == "one-of" and (not isinstance(want, list) or not want):
            return "'one-of' takes a list of the values allowed", None
        if word == "contains" and (want is None or isinstance(want, dict) or want == []):
            return "'contains' takes a value, or a list of the values that must all be there", None
    return None


def _check_expectation(key: str, players: Sequence[str], content: Content, map_id: str
                       ) -> tuple[str, str | None, tuple[int, int]] | None:
    """Why a check's key cannot be read, a hint, and the part of the key that is wrong (its offset and width); or
    None. A query's name, Unit, Sector and card must exist (the content's queries, the map's Sectors): a misspelt
    one is the file's mistake, found before the run, not a check that fails."""
    whole = (0, len(key))
    if key.startswith("query "):
        try:
            name, uid, sector, card, _base = parse_query(key)
        except (RuleError, ValueError) as exc:
            return shorten(str(exc), 120), None, whole
        queries = sorted({*content.vocab.queries, *OTHER_QUERIES})
        sectors = [s.id for s in content.maps[map_id].sectors] if map_id in content.maps else None
        for word, value, known, what in (
                ("query", name, queries, "query"), ("for", uid, players, "Unit"),
                ("in|at|into", sector, sectors, "Sector"), ("of", card, list(content.card_kinds), "card")):
            if value is None or known is None or value in known:
                continue
            found = re.search(rf"\b(?:{word})\s+({re.escape(value)})(?:\s|$)", key.replace("_", "-"))
            where = (found.start(1), len(value)) if found else whole
            if what == "query":
                return (f"unknown query '{shorten(value, 40)}'",
                        did_you_mean(value, known) or f"queries: {', '.join(known)}", where)
            return (f"no {what} '{shorten(value)}'" + (" in this scenario" if what == "Unit" else ""),
                    did_you_mean(value, known), where)
        return None
    words = key.replace("_", "-").split() if "." not in key else [key]
    if len(words) == 2 and words[0] in {"deck", "discard"}:
        return None
    if "." not in key:
        if key.replace("_", "-") in GAME_CHECKS:
            return None
        hint = did_you_mean(key, GAME_CHECKS) or (
            "write UNIT.FIELD (u1.soldiers), 'query NAME for UNIT', or one of: " + ", ".join(sorted(GAME_CHECKS)))
        return f"cannot check '{shorten(key)}'", hint, whole
    uid, field = key.split(".", 1)
    if uid not in players:
        return f"no Unit '{shorten(uid)}' in this scenario", did_you_mean(uid, players), (0, len(uid))
    fields = {f.name for f in attrs.fields(Unit)} | UNIT_CHECKS
    name = field.replace("-", "_")
    if name not in fields:
        return f"a Unit has no '{shorten(field)}' to check", did_you_mean(name, fields), (len(uid) + 1, len(field))
    return None


def rolled(content: Content, player: str) -> tuple[str, ...]:
    """The colours of the dice a player rolls: the game's (rules/dice.yaml), or another side's (its sides.yaml)."""
    return next((d.colours for d in content.sides.sides if d.id == player), content.dice.colours)


def dice_places(content: Content) -> int:
    """The dice a player rolls, the most of any side (rules/dice.yaml: its colours, so many of each): ``die N`` of a
    result is 1 to this."""
    colours = [len(content.dice.colours), *(len(d.colours) for d in content.sides.sides)]
    return max(colours) * content.dice.dice_per_colour


def parse_die(text: str, colours: set[str], faces: set[str], places: int) -> tuple[Die | None, str | None]:
    """``[locked] [cancelled] [virtual] [colour] face [die N] [from SOURCE]``: a result of a Final Tally. A result
    with a colour is a die's unless ``virtual``; ``die N`` is its place among the dice (red 1 is die 1), else the
    next of its colour, 1 to ``places`` (:func:`dice_places`); ``from SOURCE`` names what added or spent it."""
    words = text.split()
    locked, cancelled, virtual = ("locked" in words), ("cancelled" in words), ("virtual" in words)
    words = [w for w in words if w not in {"locked", "cancelled", "virtual"}]
    source = ""
    if len(words) >= 2 and words[-2] == "from":
        source, words = words[-1], words[:-2]
    index = -1
    if len(words) >= 2 and words[-2] == "die":
        place = words[-1]
        if not (place.isascii() and place.isdigit() and len(place) <= 3 and 1 <= int(place) <= places):
            return None, f"'die N' is a die's place, 1 to {places}, found {shorten(text)!r}"
        index, words = int(place) - 1, words[:-2]
    colour = None
    if len(words) == 2:
        colour, face = words
    elif len(words) == 1:
        face = words[0]
    else:
        return None, f"a result is '[locked] [colour] face', found {text!r}"
    if colour is not None and colour not in colours:
        hint = did_you_mean(colour, colours)
        return None, f"unknown colour '{colour}'" + (f"; {hint}" if hint else "")
    if face not in faces:
        hint = did_you_mean(face, faces)
        return None, f"unknown face '{face}'" + (f"; {hint}" if hint else "")
    return Die(face, colour, index, locked=locked, real=colour is not None and not virtual, cancelled=cancelled,
               source=source), None


#: The queries asked like the rules' values (rules/queries.yaml) but answered otherwise, each as it is written.
OTHER_QUERIES = {"may-enter": "may-enter for UNIT in SECTOR", "locked-and-rolled": "locked-and-rolled for UNIT",
                 "soldier-count": "soldier-count for UNIT"}


def parse_query(text: str) -> tuple[str, str | None, str | None, str | None, int | None]:
    """``def for u1``, ``advance-cost for u1 in s7``, ``item-cost for u1 of bazooka``, ``casualties for u1 from 7``."""
    # An `expect:` key comes through the YAML reader, which renames every '-' of a key to '_'
    # ("query may-enter for u1" arrives as "query may_enter for u1"); ids never hold '_', so undo it.
    words = text.replace("_", "-").split()
    if words and words[0] == "query":
        words = words[1:]
    if not words:
        raise RuleError("empty query")
    name = words[0]
    unit = sector = card = None
    base = None
    seen: dict[str, str] = {}  # each clause once: 'for u1 for u2' names two Units, and the query speaks of one
    i = 1
    while i < len(words) - 1:
        key, value = words[i], words[i + 1]
        clause = "in" if key in {"in", "at", "into"} else key
        if clause in seen:
            raise RuleError(f"'{key}' twice in query {shorten(text, 100)!r} (after '{seen[clause]}'): a query "
                            "has one Unit, one Sector, one card and one base")
        seen[clause] = f"{key} {shorten(value, 40)}"
        if key == "for":
            unit = value
        elif key in {"in", "at", "into"}:
            sector = value
        elif key == "of":
            card = value
        elif key == "from":
            if not value.isdigit() or len(value) > 4 or int(value) > MAX_RESOURCE:
                raise RuleError(f"'from' takes a whole number from 0 to {MAX_RESOURCE}, found '{shorten(value)}'")
            base = int(value)
        else:
            raise RuleError(f"cannot read '{key}' in query {text!r} (write: NAME for UNIT [in SECTOR] [of CARD] "
                            "[from N])")
        i += 2
    if i < len(words):
        raise RuleError(f"query {text!r} ends with '{words[-1]}' alone")
    return name, unit, sector, card, base


def unit_named(state: GameState, uid: str) -> Unit:
    """The Unit (or another side's player) a query or count names; a RuleError naming those there, and the
    closest, when there is none."""
    ids = [u.id for u in (*state.units, *state.sides)]
    if uid not in ids:
        hint = did_you_mean(uid, ids)
        raise RuleError(f"no Unit '{shorten(uid, 40)}' in this scenario (Units: {', '.join(ids) or 'none'})"
                        + (f"; {hint}" if hint else ""))
    return state.unit(uid)
