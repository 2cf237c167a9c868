"""Scenario files: set up any situation, run part of a turn, and check what follows.

A scenario is YAML (see docs/scenarios.md)::

    scenario: The Medic saves one Soldier per phase, not two
    map: exercise-tiger
    variant: advanced-training
    seed: 1
    ruling: |                      # optional: the reasoning and the rulebook line it rests on
      ...
    units:
      - {id: u1, sector: s5, soldiers: 6, specialists: [medic]}
    tally:                         # fixed Final Tallies ("locked red skull", "white courage", "courage")
      u1: [red courage, red courage, white star, white star, blue tool, blue tool]
    rolls: [6, 2]                  # the next d6 results the game's generator gives (MGF, Landmines, 1d6)
    answers:                       # the players' choices, in order (an index, a list, or an option's label)
      u1: [lose 3 Soldiers]
    steps:
      - phase: combat
    expect:
      - u1.soldiers: 3
      - query def for u1: 3

Steps: ``phase: NAME``, ``turn``, ``turns: N``, ``game``, ``use: CARD`` (with ``unit:``), ``move: SECTOR``,
``recruit: CARD``, ``find: CARD``, ``trade: u2`` (with ``give: soldiers`` and ``amount: 1``, from ``unit:``);
any step may say ``refused: REASON`` when the rules must refuse it (a code of tools/refusals.py or a part of
the refusal's message; ``true``: any reason), and give its own ``answers:``. Scripts are strict: an answer
never consumed fails the scenario at its step's line. A check's value may be a matcher (``{count: 3}``,
``{contains: medic}``, ``{one-of: [s3, s4]}``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Final

import attrs

from ddaydice.dsl.diagnostics import DDayError, Diagnostic, RuleError, did_you_mean
from ddaydice.dsl.loader import Content, pack_named_in_file
from ddaydice.dsl.touches import PRICE_QUERIES
from ddaydice.dsl.vocab import QueryInfo
from ddaydice.dsl.yamlsrc import YamlDoc, position, read_yaml, shorten
from ddaydice.interpreter.core.precedence import Derivation
from ddaydice.interpreter.core.state import Event, Unit
from ddaydice.interpreter.core.values import PHASES, TRADE_RESOURCES
from ddaydice.interpreter.game import Game
from ddaydice.interpreter.mechanisms import decks, options
from ddaydice.interpreter.mechanisms.options import score
from ddaydice.interpreter.policies.deciders import ReferencePolicy, Scripted
from ddaydice.interpreter.tools import capture, counts
from ddaydice.interpreter.tools.refusals import Refusal, move_refused, purchase_refused, trade_refused, use_refused
from ddaydice.interpreter.tools.scenario_file import (
    MARKERS,
    OTHER_QUERIES,
    STATUSES,
    ScenarioFile,
    UnitSetup,
    as_matcher,
    dice_places,
    load_scenario,
    parse_die,
    parse_query,
    unit_named,
    validate,
)
from ddaydice.interpreter.tools.scenario_steps import checks_nothing
from ddaydice.interpreter.tools.scenario_tally import fixed_tally_step

__all__ = ["MARKERS", "STATUSES", "Check", "Result", "ScenarioFile", "UnitSetup", "build", "evaluate_query",
           "load_scenario", "parse_query", "resolve_packs", "run", "run_step", "validate"]

class ScriptedRandom(random.Random):
    """The game's generator, giving fixed d6 results first (``rolls:``), then seeded ones."""

    def __init__(self, seed: int, script: Sequence[int]) -> None:
        super().__init__(seed)
        self.script = list(script)

    def random(self) -> float:
        # The engine rolls every die as int(random() * 6) + 1: a scripted result r comes back as r.
        if self.script:
            return (self.script.pop(0) - 1 + 0.5) / 6
        return super().random()

    def getrandbits(self, k: int, /) -> int:
        # Defined, so that shuffles and draws take the seeded bits as a plain generator does (a subclass that
        # defines random() alone would shuffle with random(): a game played on from a scenario would differ).
        return super().getrandbits(k)


class SetupRandom(ScriptedRandom):
    """The generator of a scenario's set-up: scripted d6 results for an option's rolls (the Unit marker),
    while shuffles and draws use the seeded bits as a plain generator would (the Award deck's order)."""


@attrs.frozen
class Check:
    label: str
    passed: bool
    expected: Any
    actual: Any
    derivation: Derivation | None = None
    message: str = ""
    where: tuple[str | int, ...] = ()  # the check's place in the scenario's YAML: its step, expectation or answers
    line: int = 0  # that place in the file (0: not known)
    column: int = 0

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"check": self.label, "passed": self.passed, "expected": self.expected,
                               "actual": self.actual}
        if self.line:
            out["line"], out["column"] = self.line, self.column
        if self.message:
            out["message"] = self.message
        if self.derivation is not None and not self.passed:
            out["derivation"] = self.derivation.as_json()
        return out


@attrs.frozen
class Warned:
    """A warning of a scenario's run, at the step it is about: its code, its message, its place as text
    ('file:line:col', or '') and as a path in the file."""

    code: str
    message: str
    place: str
    where: tuple[str | int, ...]

    def __str__(self) -> str:
        return f"{self.place + ': ' if self.place else ''}{self.code} {self.message}"


@attrs.frozen
class Result:
    file: str
    title: str
    checks: tuple[Check, ...]
    error: str | None = None
    ruling: str = ""
    error_where: tuple[str | int, ...] = ()  # the step (or expectation) the error stopped the scenario at
    trace: tuple[Event, ...] = ()  # what happened, when run traced (dday scenario run --trace)
    warnings: tuple[Warned, ...] = ()  # what the run may not mean (a Phase 1 skipped: SCEN008), at its step
    traced: bool = False  # run traced: its trace is told, even empty (an error before anything happened)
    seconds: float = attrs.field(default=0.0, eq=False)  # how long it took to check and run (a JUnit report's time)
    checks_nothing: bool = False  # it passes whatever the rules do (tools/scenario_steps.py checks_nothing)

    @property
    def passed(self) -> bool:
        return self.error is None and all(c.passed for c in self.checks)


# The moments at which the turn offers the uses of cards, by the phase it offers them in (interpreter/phases/):
# a `use:` step in a phase is tried at these and no other. Phase 2 offers none: the cards of "during upkeep" are
# offered at the end of Phase 1 (dsl/words/events.py WINDOWS), so a scenario plays them in phase roll. Phase 4's
# "after-roll" is left out: the turn offers it only within a move (across Landmines, into a Random Sector), which a
# `move:` step makes.
# tests/test_scenario_phases.py checks this table against the points whole games offer, phase by phase.
PHASE_POINTS = {
    "roll": ("after-first-roll", "after-final-tally"),
    "upkeep": (),
    "purchase": ("purchase",),
    "movement": ("movement",),
    "combat": ("before-mgf", "after-mgf"),
}
# Moments a phase offers only inside another step: a roll about to take effect, Phase 4's within a move; a roll a
# map makes in another phase ('roll-attribute' at Upkeep, ruling 10.10) within that phase's step.
_OTHER_ROLL = ("after-roll-other",)
WITHIN_A_STEP = {"roll": _OTHER_ROLL, "upkeep": _OTHER_ROLL, "purchase": _OTHER_ROLL, "movement": ("after-roll",),
                 "combat": _OTHER_ROLL}

def build(sc: ScenarioFile, content: Content, *, trace: bool = False) -> Game:
    deciders = [Scripted(list(sc.answers.get(u.id, [])), ReferencePolicy() if sc.fallback == "reference" else None)
                for u in sc.units]
    # Another side's players come after the Units, in the order of rules/sides.yaml.
    deciders += [Scripted(list(sc.answers.get(d.id, [])), ReferencePolicy() if sc.fallback == "reference" else None)
                 for d in content.sides.sides if d.option in sc.options]
    # `rolls:` start at set-up (an option's Unit-marker rolls); the seeded rolls after them start afresh.
    setup_rng = SetupRandom(sc.seed, sc.rolls)
    game = Game(content, sc.map, players=len(sc.units), seed=sc.seed, variant=sc.variant, options=sc.options,
                deciders=deciders, trace=trace, rng=setup_rng)
    state = game.state
    rng = ScriptedRandom(sc.seed, setup_rng.script)
    state.rng = rng
    game.rng = rng
    state.turn = sc.turn
    state.phase = sc.phase or "roll"
    for setup, unit in zip(sc.units, state.units, strict=True):
        _apply(setup, unit, game)
    for setup in sc.sides:
        _apply(setup, state.unit(setup.id), game)
    options.retell_lists(state)  # the set-up's lists without the cards the Units now hold
    colours = set(content.vocab.colours)
    faces = {f.id for f in content.dice.faces}
    per = content.dice.dice_per_colour
    for uid, results in sc.tally.items():
        unit = state.unit(uid)
        order = list(game.side_defs[unit.side].colours if unit.side else content.dice.colours)
        dice = []
        seen: dict[str, int] = {}
        for text in results:
            die, _ = parse_die(text, colours, faces, dice_places(content))
            assert die is not None
            if die.colour is not None and die.real and die.index < 0:  # the next die of its colour
                k = seen.get(die.colour, 0)
                seen[die.colour] = k + 1
                die.index = (order.index(die.colour) if die.colour in order else len(order)) * per + k
            elif not die.real and not die.source:
                die.source = "scenario"
            dice.append(die)
        unit.tally = dice
    state.bunker_specialists.update(sc.bunker_specialists)
    state.conquered.extend(sc.conquered)
    for raw, cards in sc.decks.items():  # an expansion's decks in a known order (the YAML reader spells '-' '_')
        state.decks[str(raw).replace("_", "-")] = list(cards)
    for raw, cards in sc.discards.items():
        state.discards[str(raw).replace("_", "-")] = list(cards)
    state.in_play = list(sc.in_play)
    if sc.piles:  # the piles replace the Pool's Items: only their tops may be found
        state.piles = [list(p) for p in sc.piles if p]
        state.pool = [c for c in state.pool if content.card_kinds[c] != "item"] + [p[0] for p in state.piles]
    for sid in sc.entered:
        state.sectors[sid].entered = True
    for u in state.units:
        state.sectors[u.sector].entered = True
    capture.restore(sc, game)  # a position captured from a game: the rest of its state
    game.sources_changed()  # the situation set up here replaces the set-up's cards and attributes
    return game


def _apply(setup: UnitSetup, unit: Unit, game: Game) -> None:
    for field in ("sector", "soldiers", "stars", "courage", "item_points", "vehicle", "marker", "status"):
        value = getattr(setup, field)
        if value is not None:
            setattr(unit, field, value)
    if setup.specialists is not None:
        unit.specialists = list(setup.specialists)
    unit.dead = list(setup.dead)
    unit.items = list(setup.items)
    unit.used_items = list(setup.used_items)
    unit.awards = list(setup.awards)
    unit.cards = list(setup.cards)
    if not unit.side:
        unit.visited = list(setup.visited) if setup.visited is not None else [unit.sector]
        if unit.sector not in unit.visited:
            unit.visited.append(unit.sector)
    unit.entered_turn = 0
    state = game.state
    held = game.held_cards(unit)
    for card in held:
        game._came_into_play(unit, card)
    # A held card, a dead Specialist and a used Item are where the game would have them: out of the Pool, the
    # hand, the Award deck and every expansion's deck (one copy: a card a deck holds twice keeps the other), so
    # that no Unit recruits the dead Specialist or finds the used Item again (001:215, 001:226).
    for card in (*held, *unit.dead, *unit.used_items):
        for pile in (state.pool, state.hands.get(unit.id, []), state.award_deck, *state.decks.values()):
            if card in pile:
                pile.remove(card)


class TurnCursor:
    """Where the scenario's turn stands, so that phase steps follow the turn. A phase step runs in the current turn
    if its phase comes after the last one run there (phases may be skipped); otherwise, or after a Combat or a
    whole turn, it is the next turn's, begun as the turn begins one: the turn that was running ends (what lasts
    "until the end of the turn" ends), the counter advances, the limits of a turn start afresh and an expansion's
    start-of-turn cards are drawn. Whole turns (``turn``, ``turns: N``, ``game``) begin with the next turn too, the
    turn the game stands in ended first. The game first stands at the scenario's ``phase:`` (default roll), not yet
    run; ``at: PHASE`` stands at another phase's start, not yet run."""

    def __init__(self, phase: str | None) -> None:
        self.at = PHASES.index(phase) if phase in PHASES else 0  # the first phase this turn may still run
        self.ended = False  # the turn ended (a Combat's end of turn, or whole turns run)

    def done(self, phase: str) -> None:
        """The game stands at the end of ``phase`` (``phase-done: true``: a position captured from a game): the
        phases after it run in this turn; after the Combat (or a pack's phase within it, the Assault), the turn
        has ended and the next phase step begins the next turn."""
        if phase in PHASES[:-1]:
            self.at = PHASES.index(phase) + 1
        else:
            self.at, self.ended = len(PHASES), True

    def before(self, game: Game, step: Any) -> None:
        """Before a phase step (``phase: P``, run it; ``at: P``, stand at its start, not yet run): begin the next
        turn when P does not come later in this one."""
        if step in ("turn", "game") or (isinstance(step, dict) and step.get("turns")):
            # whole turns begin with the next one: the turn the game stands in ends first, as the turn ends it
            if not self.ended and game.state.turn > 0 and game.state.outcome is None:
                game.end_of_turn()
            return
        phase = step.get("phase", step.get("at")) if isinstance(step, dict) else None
        if phase not in PHASES:
            return
        i = PHASES.index(phase)
        if i < self.at or self.ended:
            if not self.ended and game.state.outcome is None:
                game.end_of_turn()
            if game.state.outcome is None:
                game.begin_turn()
            self.ended = False
        self.at = i + 1 if "phase" in step else i

    def after(self, step: Any) -> None:
        if step in ("turn", "game") or (isinstance(step, dict) and "turns" in step):
            self.ended, self.at = True, len(PHASES)
        elif isinstance(step, dict) and step.get("phase") == PHASES[-1]:
            self.ended = True  # run_step ran the end of the turn after the Combat


# The steps the turn lets a Unit take in one phase only, and how the refusal says so.
ACTION_PHASES = {"recruit": "purchase", "find": "purchase", "trade": "purchase", "move": "movement"}
ACTION_WORDS = {"recruit": "Specialists are recruited", "find": "Items and Vehicles are found",
                "trade": "Units trade", "move": "Units move"}


def run_step(game: Game, step: Any) -> Refusal | None:
    """Run one step; returns why when the rules refuse it."""
    s = game.state
    if step == "turn":
        game.run_turn()
        return None
    if step == "game":
        game.run()
        return None
    assert isinstance(step, dict)
    unit = s.unit(str(step.get("unit", "u1")))
    for action, phase in ACTION_PHASES.items():
        if action in step and s.phase != phase:
            return Refusal("timing", f"{ACTION_WORDS[action]} in the {phase.capitalize()} phase, not in phase "
                           f"'{s.phase}' (set the phase with `phase:` or a phase step)")
    if "phase" in step:
        if s.turn == 0:
            s.turn = 1
        game.run_phase(step["phase"])
        if step["phase"] == "combat":
            game.end_of_turn()
        return None
    if "at" in step:  # the game stands at the start of that phase, not yet run: the steps after it act in it
        if s.turn == 0:
            s.turn = 1
        s.phase = step["at"]
        return None
    if "turns" in step:
        for _ in range(int(step["turns"])):
            if s.outcome is None:
                game.run_turn()
        return None
    if "use" in step:
        return _use(game, unit, str(step["use"]))
    if "move" in step:
        to = str(step["move"])
        for move in game.legal_moves(unit):
            if move.to == to:
                game.do_move(unit, move)
                return None
        return move_refused(game, unit, to)
    for purchase in ("recruit", "find"):
        if purchase in step:
            card = str(step[purchase])
            if game.buy(unit, purchase, card):
                return None
            return purchase_refused(game, unit, purchase, card)
    if "draw" in step:
        return _draw(game, unit, str(step["draw"]))
    if "trade" in step:
        return _trade(game, unit, step)
    raise RuleError(f"unknown step {step!r}")


def _use(game: Game, unit: Unit, card: str) -> Refusal | None:
    """``use: CARD``: a card the Unit holds (or a rule's, an option's, a side's or one in play) is used."""
    s = game.state
    if card not in game.held_cards(unit) and not card.startswith(("rule:", "option:", "side:")) \
            and card not in s.in_play:
        return Refusal("not-held", f"{unit.name} does not hold the {game._name_of(card)}")
    # A card is played at the moments of the phase the game stands in (set it with `phase:`).
    points = PHASE_POINTS.get(s.phase, ())
    for point in points:
        for src, i, hook, held in game.available_uses(unit, point):
            if src.owner == card:
                game.perform_use(unit, src, i, hook, held)
                return None
    return use_refused(game, unit, card, points, s.phase)


def _draw(game: Game, unit: Unit, deck: str) -> Refusal | None:
    """``draw: KIND``: the draw of a deck: the game's turn draw (Battle Conditions), or the Unit's (a Badge; the
    base game's Award deck, its top Award as an effect's 'draw-award random')."""
    kind = game.content.kind_def(deck)
    if deck != decks.AWARD_DECK and (kind is None or kind.id not in game.state.decks):
        return Refusal("no-deck", f"there is no deck '{deck}' in this game (is its optional rule on?)")
    if kind is not None and kind.held_by == "game":
        decks.draw_for_turn(game, kind.id)
        return None
    if not decks.can_draw(game, unit, deck):
        card = f"a {kind.name}" if kind is not None else "an Award"
        return Refusal("limit", f"{unit.name} may not draw {card} now (its deck is empty, or the draws of a turn "
                       "are made)")
    decks.draw(game, unit, deck, 1)
    return None


def _trade(game: Game, unit: Unit, step: dict[str, Any]) -> Refusal | None:
    """``trade: UNIT`` (``give:``, ``amount:``): the Unit gives a resource (``amount`` of it, one at a time), an
    Item, a tradeable card, its Vehicle or a Specialist to another Unit, among what the turn's trade offers it
    (phases/purchase.py, ``trade_options``); the first of them it may not give is refused, and why."""
    oid = str(step["trade"])
    raw = str(step.get("give", "soldiers"))
    what = raw.replace("-", "_") if raw.replace("-", "_") in TRADE_RESOURCES else raw  # card ids keep their '-'
    amount = int(step.get("amount", 1))
    offered = (oid, what) in {key for _, key in game.trade_options(unit)}
    if not offered or (what in TRADE_RESOURCES and dict(game.tradeable_resources(unit))[what] < amount):
        return trade_refused(game, unit, oid, what, amount)  # refused whole: nothing is given
    for _ in range(amount if what in TRADE_RESOURCES else 1):
        game.give(unit, oid, what)
    return None


def query_form(info: QueryInfo) -> str:
    """How a query of the rules is written, read off its subject and base (rules/queries.yaml): always for a Unit;
    a Sector's value in the Unit's Sector or the one named; a card's value of the card named; and a base the rules
    compute from the moment (the Courage a line costs, a loss) given with ``from N``."""
    return (f"{info.id} for UNIT" + (" [in SECTOR]" if info.subject == "sector" else "")
            + (" of CARD" if info.subject == "card" else "") + (" from N" if _given_base(info) else ""))


def _given_base(info: QueryInfo) -> bool:
    """Whether the caller gives the query its base (advance-cost, casualties): computed, but from no Sector or card."""
    return info.default is None and info.subject not in {"sector", "card"}


def _price_query(game: Game, card: str) -> str | None:
    """The query that prices a card, by what it is held as (dsl/touches.py), or None (an Award is never bought)."""
    kind = game.content.card_kinds.get(card, "")
    declared = game.content.kind_def(kind)
    return PRICE_QUERIES.get((declared.held_as or kind) if declared is not None else kind)


def _with_hint(message: str, hint: str | None) -> str:
    """A problem and its hint: a suggestion after a ';', a list of what there is in brackets."""
    return message + ("" if not hint else f" {hint}" if hint.startswith("(") else f"; {hint}")


def query_problems(game: Game, name: str, uid: str | None, sector: str | None, card: str | None,
                   base: int | None) -> list[str]:
    """Every reason a query (read by ``parse_query``) cannot be asked of this game, each with a hint where one is
    likely: an unknown query, Unit, Sector or card; a clause the query does not take or lacks; a card the query
    does not price."""
    problems: list[str] = []
    info = game.queries.get(name)
    if info is None and name not in OTHER_QUERIES:
        known = sorted({*game.queries, *OTHER_QUERIES})
        problems.append(_with_hint(f"unknown query '{shorten(name, 40)}'",
                                   did_you_mean(name, known) or f"(queries: {', '.join(known)})"))
    unit = None
    if uid is not None:
        try:
            unit = unit_named(game.state, uid)
        except RuleError as exc:
            problems.append(str(exc))
    if sector is not None and sector not in game.sectors:
        problems.append(_with_hint(f"no Sector '{shorten(sector, 40)}' on {game.map.name}",
                                   did_you_mean(sector, game.sectors) or f"(Sectors: {', '.join(game.sectors)})"))
    if card is not None and card not in game.content.cards:
        its_kind = [cid for cid in game.content.cards if _price_query(game, cid) == name]  # a cost: its kind first
        problems.append(_with_hint(f"no card '{shorten(card, 40)}' in the content loaded",
                                   did_you_mean(card, its_kind) or did_you_mean(card, game.content.cards)))
    if info is None and name not in OTHER_QUERIES:
        return problems
    if info is None:
        form = OTHER_QUERIES[name]
        needs = {"for", "in"} if name == "may-enter" else {"for"}
        takes = needs
    else:
        form = query_form(info)
        needs = {"for"} | ({"of"} if info.subject == "card" else set()) | ({"from"} if _given_base(info) else set())
        takes = needs | {"in"}
    given = {"for": uid, "in": sector, "of": card, "from": base}
    extra = [f"'{word}'" for word, value in given.items() if value is not None and word not in takes]
    if extra:
        problems.append(f"{name} takes no {' or '.join(extra)} (write: {form})")
    elif any(given[word] is None for word in needs):
        problems.append(f"write: {form}")
    elif info is not None and info.subject == "sector" and info.default is None and sector is None \
            and unit is not None and not unit.sector:  # its base is a Sector's: another side stands in none
        problems.append(f"{uid} stands in no Sector: write: {info.id} for {uid} in SECTOR")
    if not problems and card is not None and name in PRICE_QUERIES.values():
        kind = game.content.card_kinds.get(card, "")
        priced = _price_query(game, card)
        if priced != name:
            problems.append(_with_hint(f"{name} prices no {kind} ('{card}' is one)",
                                       f"did you mean '{priced} for {uid} of {card}'?" if priced
                                       else f"a {kind} is never bought"))
    return problems


def evaluate_query(game: Game, text: str, *, explain: bool = True) -> tuple[Any, Derivation | None]:
    """A query's value in the game's state and, with ``explain``, its derivation; a RuleError with every problem
    of the query's text at once when it cannot be asked."""
    if counts.is_count(text):  # a count of the language: 'tagged explosion above 2 for u1'
        return counts.explain_count(game, text)
    name, uid, sector, card, base = parse_query(text)
    problems = query_problems(game, name, uid, sector, card, base)
    if problems:
        raise RuleError("; ".join(problems))
    unit = unit_named(game.state, uid) if uid is not None else None
    if name == "may-enter":
        assert unit is not None and sector is not None  # query_problems: may-enter for UNIT in SECTOR
        return game.explain_entry(unit, sector)
    if name == "locked-and-rolled":
        assert unit is not None
        return [game.value("locked-dice", unit), game.value("dice-rolled", unit)], None
    if name == "soldier-count":
        assert unit is not None
        return game.soldier_count(unit), None
    value, derivation = game.query(name, unit, sector=sector, card=card, base=base, explain=explain)
    if game.queries[name].kind == "flag":
        return bool(value), derivation  # compiled, a permission may come out as 1 or 0 (core/precedence.py)
    return value, derivation


def actual_value(game: Game, path: str) -> Any:
    s = game.state
    if "." not in path:
        path = path.replace("_", "-")  # the YAML reader spells an `expect:` key's '-' as '_' (award-deck)
    if path == "in-play":
        return s.in_play
    if path == "piles":
        return s.piles
    if path.split()[0] in {"deck", "discard"} and len(path.split()) == 2:  # deck KIND, discard KIND
        if path.split()[1] == decks.AWARD_DECK:  # the base game's Award deck, named as the packs' decks are
            return s.award_deck if path.split()[0] == "deck" else s.award_discard
        return (s.decks if path.split()[0] == "deck" else s.discards).get(path.split()[1], [])
    if path in {"outcome", "reason", "turn", "phase", "pool", "award-deck", "conquered"}:
        return {"outcome": s.outcome, "reason": s.reason, "turn": s.turn, "phase": s.phase, "pool": s.pool,
                "award-deck": s.award_deck, "conquered": s.conquered}[path]
    if path == "score":  # the options' score table (victory-points): the group's score
        result = score(game)
        return result.group if result is not None else None
    if "." in path:
        uid, field = path.split(".", 1)
        unit = s.unit(uid)
        field = field.replace("-", "_")
        if field == "score":
            result = score(game)
            return result.units[uid] if result is not None else None
        if field == "hand":
            return s.hands.get(uid, [])
        if field == "trading_pool":
            return [f"{d.colour} {d.face}" for d in unit.trading_pool or []]
        if field == "tally":
            # (as `tally:` writes a result: a coloured result no die gave, an effect's, is 'virtual')
            return [f"{'locked ' if d.locked else ''}{'virtual ' if d.colour and not d.real else ''}"
                    f"{d.colour + ' ' if d.colour else ''}{d.face}" + (" (cancelled)" if d.cancelled else "")
                    for d in unit.tally]
        if field == "soldier_count":
            return game.soldier_count(unit)
        if field == "chevrons":
            return unit.chevrons()
        return getattr(unit, field)
    raise RuleError(f"cannot check '{path}'")


def _norm(value: Any) -> Any:
    """A value as checks compare it: tuples as lists, and a yes/no apart from a number (in Python ``True == 1``: a
    check of a count passed against ``true``, a permission's against ``1``)."""
    if isinstance(value, tuple | list):
        return [_norm(v) for v in value]
    if isinstance(value, bool):
        return (_YES_NO, value)
    return value


_YES_NO: Final = object()  # (the mark _norm puts on a yes/no)


def run(sc: ScenarioFile, content: Content, file: str = "", *, trace: bool = False,
        doc: YamlDoc | None = None) -> tuple[Result, Game | None]:
    """Set the scenario up, run its steps and make its checks. An error while running names its place in the
    file (``doc``: the scenario's YAML) when it is known."""
    try:
        game = build(sc, content, trace=trace)
    except DDayError as exc:
        return Result(file, sc.scenario, (), f"set-up failed: {exc}", sc.ruling), None
    checks: list[Check] = []
    warnings: list[Warned] = []
    where: list[str | int] = []

    def at(message: str) -> str:
        if doc is None or not where:
            return message
        line, col = position(doc.data, where)
        return f"{doc.file}:{line}:{col}: {message}"

    def locate(path: list[str | int]) -> str:
        if doc is None:
            return ""
        line, col = position(doc.data, path)
        return f"{doc.file}:{line}:{col}"

    script = _Script(sc, content, game, locate)
    cursor = TurnCursor(sc.phase)
    if sc.phase_done:
        cursor.done(sc.phase or PHASES[0])
    fixed_tally_turn = game.state.turn if sc.tally else None  # the turn whose Phase 1 `tally:` stands for
    try:
        for j, step in enumerate(sc.steps):
            where[:] = ["steps", j]
            expected_refusal = step.get("refused") if isinstance(step, dict) else None
            if game.state.outcome is not None:
                raise RuleError(f"the game has ended ({game.state.outcome}: {game.state.reason}) before step "
                                f"{shorten(repr(step), 60)}: no step runs after the end (check it with `outcome:`)")
            script.begin(j, step)
            cursor.before(game, step)
            fixed_tally_turn, skipped = fixed_tally_step(game, sc, step, fixed_tally_turn)
            if skipped:
                warnings.append(Warned("SCEN008", skipped, locate(where), tuple(where)))
            refusal = run_step(game, step)
            cursor.after(step)
            label = at(f"step {shorten(repr(step), 80)}")
            if expected_refusal not in (None, False):
                matched = refusal is not None and refusal.matches(expected_refusal)
                checks.append(Check(label + " is refused", matched,
                                    "refused" if expected_refusal is True else f"refused: {expected_refusal}",
                                    str(refusal) if refusal is not None else "allowed",
                                    refusal.derivation if refusal is not None else None, where=tuple(where)))
            elif refusal is not None:
                checks.append(Check(label, False, "allowed", f"refused: {refusal.code}", refusal.derivation,
                                    message=refusal.message, where=tuple(where)))
                break
            left = script.end_of_step(last=j == len(sc.steps) - 1)
            if left is not None:
                checks.append(Check(label + ": every scripted answer is consumed", False, "consumed", left[0],
                                    message=left[1], where=tuple(where)))
                break
        if not sc.steps:
            left = script.end_of_step(last=True)
            if left is not None:
                where[:] = ["answers"]
                checks.append(Check(at("answers: every scripted answer is consumed"), False, "consumed", left[0],
                                    message=left[1], where=tuple(where)))
        check_expectations(game, sc, checks, where)
    except DDayError as exc:
        return Result(file, sc.scenario, _placed(checks, doc), at(str(exc)), sc.ruling, tuple(where),
                      warnings=tuple(warnings)), game
    except (KeyError, AttributeError, ValueError, TypeError, IndexError) as exc:
        return Result(file, sc.scenario, _placed(checks, doc), at(f"cannot evaluate: {shorten(str(exc), 120)}"),
                      sc.ruling, tuple(where), warnings=tuple(warnings)), game
    return Result(file, sc.scenario, _placed(checks, doc), None, sc.ruling, warnings=tuple(warnings),
                  checks_nothing=checks_nothing(sc.steps, sc.expect, sc.answers, sc.fallback)), game


def check_expectations(game: Game, sc: ScenarioFile, checks: list[Check], where: list[str | int]) -> None:
    """The scenario's ``expect:`` checked against the game as it stands, each check added to ``checks``; ``where``
    follows the entry being checked (an error names its place)."""
    for j, item in enumerate(sc.expect):
        pairs = item.items() if isinstance(item, dict) else []
        for raw_key, expected in pairs:
            where[:] = ["expect", j, raw_key]
            key = str(raw_key)
            if key.startswith("query "):
                value, derivation = evaluate_query(game, key)
                checks.append(Check(key, matches(value, expected), expected, value, derivation, where=tuple(where)))
            else:
                value = _norm(actual_value(game, key))
                checks.append(Check(key, matches(value, expected), expected, value, where=tuple(where)))


def _placed(checks: list[Check], doc: YamlDoc | None) -> tuple[Check, ...]:
    """The checks with their line and column in the scenario file (for the JSON and JUnit reports)."""
    if doc is None:
        return tuple(checks)
    out = []
    for c in checks:
        line, column = position(doc.data, list(c.where)) if c.where else (0, 0)
        out.append(attrs.evolve(c, line=line, column=column))
    return tuple(out)


def matches(value: Any, expected: Any) -> bool:
    """Whether a checked value is what the check expects: the value itself, or a matcher (``{count: 3}``,
    ``{contains: medic}`` or a list of cards, ``{one-of: [a, b]}``; several keys must all hold)."""
    matcher = as_matcher(expected)
    if matcher is None:
        return bool(_norm(value) == _norm(expected))
    value = _norm(value)
    for word, want in matcher.items():
        if word == "count":
            if not isinstance(value, list | str | dict) or len(value) != want:
                return False
        elif word == "contains":
            wanted = _norm(want) if isinstance(want, list) else [_norm(want)]
            if not isinstance(value, list | str) or any(
                    (not isinstance(w, str) if isinstance(value, str) else False) or w not in value for w in wanted):
                return False
        elif word == "one-of" and value not in [_norm(w) for w in want]:
            return False
    return True


class _Script:
    """The players' scripted answers while the steps run: a step's own ``answers:`` go first, and must all be
    consumed when the step ends; the file's ``answers:`` must all be consumed when the last step ends. Each
    answer keeps its place in the file (to name it when it is left over), and a question not asked because it
    had a single legal option is noted, to explain an answer left for it."""

    def __init__(self, sc: ScenarioFile, content: Content, game: Game,
                 locate: Callable[[list[str | int]], str]) -> None:
        players = [u.id for u in sc.units] + [d.id for d in content.sides.sides if d.option in sc.options]
        self.scripts = {p: d for p, d in zip(players, game.deciders, strict=False) if isinstance(d, Scripted)}
        self.origins: dict[str, list[list[str | int]]] = {
            p: [["answers", p, k] for k in range(len(d.answers))] for p, d in self.scripts.items()}
        self.game = game
        self.locate = locate  # an answer's place in the file ("file:line:col"; "" without the file's text)
        self.until: dict[str, int] = {}  # the position in a player's script his step's answers end at
        game.unasked = []

    def begin(self, j: int, step: Any) -> None:
        self.until = {}
        answers = step.get("answers") if isinstance(step, dict) else None
        for raw, given in (answers or {}).items():
            player = str(raw)
            script = self.scripts[player]
            script.answers[script.used:script.used] = list(given)
            self.origins[player][script.used:script.used] = [["steps", j, "answers", raw, k]
                                                             for k in range(len(given))]
            self.until[player] = script.used + len(given)

    def end_of_step(self, *, last: bool) -> tuple[dict[str, list[Any]], str] | None:
        """The answers left over when a step ends (its own, and the file's after the last step) and why, or
        None."""
        left: dict[str, list[Any]] = {}
        where: list[str] = []
        for player, script in self.scripts.items():
            end = len(script.answers) if last else self.until.get(player, script.used)
            if script.used < end:
                left[player] = script.answers[script.used:end]
                for answer, path in zip(left[player], self.origins[player][script.used:end], strict=True):
                    place = self.locate(path)
                    where.append(f"{player}: {shorten(repr(answer), 60)}" + (f" ({place})" if place else ""))
        if not left:
            return None
        message = "never consumed: " + "; ".join(where)
        unasked = [u for u in self.game.unasked or () if u[0] in left]
        if unasked:
            message += "; not asked, a single legal option: " + "; ".join(
                f"{p} {prompt!r} (only {option!r})" for p, _kind, prompt, option in unasked[-5:])
        return left, message


def resolve_packs(file: Path, text: str | None = None) -> tuple[list[str], list[Diagnostic]]:
    """The packs a scenario file names (``packs:``), as the loader takes them: a bundled pack by its id; the pack
    folder the scenario file lives in, by its id (a modder's pack keeps its scenarios inside it); or a pack
    folder by a path relative to the scenario file, inside the current folder (docs/security.md). A bad entry
    is a diagnostic at its line of the scenario file. A file that cannot be read names no packs (loading it
    reports why). ``text``: what an editor holds for the file, unsaved."""
    doc, _ = read_yaml(str(file), text)
    if doc is None or not isinstance(doc.data, dict) or not isinstance(doc.data.get("packs"), list):
        return [], []
    out: list[str] = []
    diags: list[Diagnostic] = []
    for i, name in enumerate(doc.data["packs"]):
        found, problem = pack_named_in_file(name, file, file.parent)
        if problem is not None:
            line, col = position(doc.data, ["packs", i])
            diags.append(attrs.evolve(problem, file=doc.file, line=line, column=col))
        elif found is not None:
            out.append(found)
    return out, diags
