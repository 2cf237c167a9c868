"""A position captured from a game: the scenario file that sets up the same state (docs/scenarios.md, "Capture a
position").

:func:`play_until` plays a game to the end of a phase of a turn; :func:`capture_position` writes the scenario of
the state there (every Unit, the decks and the Pool in order, the Sectors, the grants, the generator as its seed
and the words drawn since); :func:`restore` is the other half, called when a scenario is set up: what set-up and the
scenario's other keys leave, the position's keys set. The two agree when :func:`~ddaydice.interpreter.core.state.
position_digest` of the game and of the scenario are the same.
"""

from __future__ import annotations

import io
import os
import random
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ruamel.yaml import YAML

from ddaydice.dsl.limits import MAX_DRAWS, MAX_SCENARIO_TURNS
from ddaydice.interpreter.core.state import Die, Grant, Unit, new_rng
from ddaydice.interpreter.core.values import PHASES, Paused
from ddaydice.interpreter.mechanisms import decks
from ddaydice.interpreter.tools.scenario_file import dice_places, parse_die

if TYPE_CHECKING:
    from ddaydice.interpreter.core.api import Decider, GameView
    from ddaydice.interpreter.core.decisions import Decision
    from ddaydice.interpreter.game import Game
    from ddaydice.interpreter.tools.scenario_file import ScenarioFile, UnitSetup

AWARD = decks.AWARD_DECK  # the base game's Award deck in `decks:`, `discards:` (the state's award_deck, award_discard)


def parse_moment(text: str) -> tuple[int, str]:
    """``TURN.PHASE`` (``3.combat``): the end of that phase of that turn; ValueError says what is wrong."""
    turn, _, phase = text.partition(".")
    if not turn.isdigit() or not phase:
        raise ValueError(f"'{text}' is not TURN.PHASE (3.combat: turn 3, after its combat phase)")
    if phase not in PHASES:
        raise ValueError(f"no phase '{phase}' (phases: {', '.join(PHASES)})")
    if not 1 <= int(turn) <= MAX_SCENARIO_TURNS:
        raise ValueError(f"turn {turn}: a turn from 1 to {MAX_SCENARIO_TURNS}")
    return int(turn), phase


def play_until(game: Game, turn: int, phase: str) -> bool:
    """Play ``game`` until the end of ``phase`` of ``turn`` (after the end of the turn for its last phase, as a
    scenario's ``phase: combat`` step ends it); False if the game ended before that moment."""
    game.pause_after = (turn, phase)
    try:
        game.run()
    except Paused:
        return True
    finally:
        game.pause_after = None
    return False


def ended_before(game: Game, moment: tuple[int, str], reached: bool) -> str | None:
    """Why there is no position to capture at ``moment`` (the game ended before it, or in that phase), or None."""
    s = game.state
    turn, phase = moment
    if not reached:
        return (f"the game ended ({s.outcome or 'unfinished'}) in turn {s.turn}, before the end of turn {turn}'s "
                f"{phase} phase")
    if s.outcome is not None:
        return f"the game ended ({s.outcome}) in turn {turn}'s {phase} phase: a position is one of a game going on"
    return None


class Recorder:
    """A decider that hands every decision to ``inner`` and, once ``recording``, notes each player's answers (as a
    scenario's ``answers:`` write them: an option's number, or a list of them)."""

    def __init__(self, inner: Decider) -> None:
        self.inner = inner
        self.recording = False
        self.answers: dict[str, list[int | list[int]]] = {}

    def decide(self, game: GameView, decision: Decision) -> tuple[int, ...]:
        picks = self.inner.decide(game, decision)
        if self.recording:
            self.answers.setdefault(decision.unit, []).append(picks[0] if len(picks) == 1 else list(picks))
        return picks


def play_on(game: Game, phase: str, recorder: Recorder, data: dict[str, Any]) -> None:
    """Play ``game`` on from the end of ``phase`` to its end, as the turn does, and add to the scenario ``data``
    what does the same: the steps (the rest of the turn's phases, then the game), every player's answers (with
    ``fallback: none``) and the end as checks."""
    recorder.recording = True
    steps: list[Any] = []
    if phase != PHASES[-1]:
        for rest in PHASES[PHASES.index(phase) + 1:]:
            if game.state.outcome is not None:
                break
            game.run_phase(rest)
            steps.append({"phase": rest})  # a scenario's `phase: combat` ends the turn, as the turn does
        if game.state.outcome is None:
            game.end_of_turn()
    if game.state.outcome is None:
        game.run()
        steps.append("game")
    s = game.state
    data["answers"] = dict(recorder.answers)
    data["fallback"] = "none"
    data["steps"] = steps
    data["expect"] = [{"outcome": s.outcome}, {"turn": s.turn},
                      *({f"{u.id}.{field}": getattr(u, field)} for u in (*s.units, *s.sides)
                        for field in ("status", "soldiers"))]


# ---------------------------------------------------------------------------------------------- the generator
def draws_since_seed(rng: random.Random, seed: int, limit: int = MAX_DRAWS) -> int | None:
    """How many 32-bit words ``rng`` has drawn since it was seeded with ``seed`` (None if it is not that seed's
    generator within ``limit`` words). The Mersenne Twister's state after n words is its seed's state with its
    index at n modulo 624: the state is compared once per block of 624 words."""
    target = rng.getstate()
    fresh = new_rng(seed)
    if fresh.getstate() == target:
        return 0
    index = target[1][-1]
    if not isinstance(index, int) or not 1 <= index <= 624:
        return None
    fresh.getrandbits(32 * index)
    n = index
    while n <= limit:
        if fresh.getstate() == target:
            return n
        fresh.getrandbits(32 * 624)
        n += 624
    return None


def advance(rng: random.Random, words: int) -> None:
    """Draw ``words`` 32-bit words from ``rng`` (in blocks, so that a large number stays small in memory)."""
    while words > 0:
        step = min(words, 1 << 16)
        rng.getrandbits(32 * step)
        words -= step


# ---------------------------------------------------------------------------------------------- dice as text
def die_text(d: Die, index: int | None = None) -> str:
    """A result as a scenario writes it (tools/scenario_file.py, parse_die): ``index`` is the place the reader
    would give it (None: none), ``die N`` is written when the die's own differs."""
    words = ["locked"] if d.locked else []
    if d.cancelled:
        words.append("cancelled")
    if not d.real and d.colour is not None:
        words.append("virtual")
    if d.colour is not None:
        words.append(d.colour)
    words.append(d.face)
    if d.index >= 0 and d.index != index:
        words += ["die", str(d.index + 1)]
    if d.source and not (not d.real and d.colour is None and d.source == "scenario"):
        words += ["from", d.source]
    return " ".join(words)


def tally_texts(game: Game, unit: Unit) -> list[str]:
    """A Final Tally as the scenario's ``tally:`` sets it: a real die's place is written only where the reader
    would give another (it gives the next place of the die's colour)."""
    order = list(game.side_defs[unit.side].colours if unit.side else game.content.dice.colours)
    per = game.content.dice.dice_per_colour
    seen: dict[str, int] = {}
    out = []
    for d in unit.tally:
        inferred = None
        if d.colour is not None and d.real:
            k = seen.get(d.colour, 0)
            inferred = (order.index(d.colour) if d.colour in order else len(order)) * per + k
            if inferred == d.index:
                seen[d.colour] = k + 1
        out.append(die_text(d, inferred))
    return out


def _dice(game: Game, texts: tuple[str, ...]) -> list[Die]:
    colours = set(game.content.vocab.colours)
    faces = {f.id for f in game.content.dice.faces}
    out = []
    for text in texts:
        die, _ = parse_die(text, colours, faces, dice_places(game.content))
        assert die is not None  # checked when the scenario was read
        out.append(die)
    return out


# ---------------------------------------------------------------------------------------------- restore
def restore(sc: ScenarioFile, game: Game) -> None:
    """Set what a position's keys give, over what set-up and the scenario's other keys left."""
    s = game.state
    if sc.draws:
        advance(game.rng, sc.draws)
    for setup in (*sc.units, *sc.sides):
        _restore_player(setup, s.unit(setup.id), game)
    if AWARD in s.decks:  # the base game's Award deck is the state's own list, not an expansion's deck
        s.award_deck = s.decks.pop(AWARD)
    if AWARD in s.discards:
        s.award_discard = s.discards.pop(AWARD)
    if sc.pool is not None:
        s.pool = list(sc.pool)
    if sc.placed is not None:
        s.placed = dict(sc.placed)
    if sc.piles:
        s.piles = [list(p) for p in sc.piles]
    s.abandoned = list(sc.abandoned) or s.abandoned
    for sid, sec in sc.sectors.items():
        state = s.sectors[sid]
        state.attributes = list(sec.attributes)
        state.acquired = dict(sec.acquired)
        state.mgf_roll = list(sec.mgf_roll) if sec.mgf_roll is not None else None
        state.mgf_turn = sec.mgf_turn
    s.grants = [Grant(g.owner, g.clause, g.tier, g.query, g.op, g.value, tuple(g.args), g.text, g.expires, g.unit,
                      g.sector, g.order, g.by) for g in sc.grants] or s.grants
    s.conquests = [{"unit": c.unit, "bunker": c.bunker, "turn": c.turn} for c in sc.conquests] or s.conquests
    deaths = [{"unit": d.unit, "sector": d.sector, **({"wiped": True} if d.wiped else {"lost": d.lost or 0}),
               "turn": d.turn} for d in sc.deaths]
    s.deaths = deaths or s.deaths
    s.shortfall = sc.shortfall
    if sc.play_order is not None:
        s.play_order = sc.play_order
    if sc.first_bunker_turn is not None:
        s.first_bunker_turn = sc.first_bunker_turn


def _restore_player(setup: UnitSetup, unit: Unit, game: Game) -> None:
    for field in ("conquered", "entered_turn", "moved_turn", "recruited", "found", "awards_drawn"):
        value = getattr(setup, field)
        if value is not None:
            setattr(unit, field, value)
    if setup.hand is not None:
        game.state.hands[unit.id] = list(setup.hand)
    if setup.used_awards is not None:
        unit.used_awards = list(setup.used_awards)
    if setup.kept_tally is not None:
        unit.kept_tally = _dice(game, setup.kept_tally)
    if setup.trading_pool is not None:
        unit.trading_pool = _dice(game, setup.trading_pool)
    if setup.counters is not None:
        unit.counters = dict(setup.counters)
    if setup.came_into_play is not None:
        unit.came_into_play = dict(setup.came_into_play)


# ---------------------------------------------------------------------------------------------- capture
def capture_position(game: Game, *, title: str, packs: list[str]) -> dict[str, Any]:
    """The scenario of the game's state now, as plain data in the order a reader takes it in (``packs``: as the
    scenario file names them)."""
    s = game.state
    draws = draws_since_seed(s.rng, s.seed)
    if draws is None:
        raise ValueError(f"the game's generator is not its seed's after at most {MAX_DRAWS} draws")
    out: dict[str, Any] = {"scenario": title, "map": s.map_id}
    if s.variant:
        out["variant"] = s.variant
    if s.options:
        out["options"] = list(s.options)
    if packs:
        out["packs"] = packs
    out |= {"seed": s.seed, "draws": draws, "turn": s.turn, "phase": s.phase, "phase-done": True,
            "units": [_player(game, u) for u in s.units]}
    if s.sides:
        out["sides"] = [_player(game, u) for u in s.sides]
    tallies = {u.id: tally_texts(game, u) for u in (*s.units, *s.sides) if u.tally}
    if tallies:
        out["tally"] = tallies
    out["pool"] = list(s.pool)
    out["decks"] = {AWARD: list(s.award_deck)} | {k: list(v) for k, v in s.decks.items()}
    discards = ({AWARD: list(s.award_discard)} if s.award_discard else {}) | {k: list(v) for k, v in
                                                                             s.discards.items()}
    if discards:
        out["discards"] = discards
    listed: tuple[tuple[str, Any], ...] = (("in-play", list(s.in_play)), ("piles", [list(p) for p in s.piles]),
                                           ("placed", dict(s.placed)), ("abandoned", list(s.abandoned)))
    for key, value in listed:
        if value or key == "placed":
            out[key] = value
    sectors = {sid: _sector(sec.attributes, sec.acquired, sec.mgf_roll, sec.mgf_turn)
               for sid, sec in s.sectors.items() if sec.attributes or sec.acquired or sec.mgf_roll is not None
               or sec.mgf_turn != -1}
    if sectors:
        out["sectors"] = sectors
    out["entered"] = [sid for sid, sec in s.sectors.items() if sec.entered]
    records: tuple[tuple[str, Any], ...] = (
        ("conquered", list(s.conquered)), ("bunker-specialists", dict(s.bunker_specialists)),
        ("grants", [_grant(g) for g in s.grants]), ("conquests", [dict(c) for c in s.conquests]),
        ("deaths", [dict(d) for d in s.deaths]))
    for key, value in records:
        if value:
            out[key] = value
    if s.shortfall:
        out["shortfall"] = s.shortfall
    out["play-order"] = s.play_order
    if s.first_bunker_turn is not None:
        out["first-bunker-turn"] = s.first_bunker_turn
    return out


def _player(game: Game, u: Unit) -> dict[str, Any]:
    """A Unit (or another side's player) with every field of its state but its Final Tally (``tally:``)."""
    out: dict[str, Any] = {"id": u.id}
    if not u.side:
        out |= {"sector": u.sector, "marker": u.marker}
    out |= {"status": u.status, "soldiers": u.soldiers, "stars": u.stars, "courage": u.courage,
            "item-points": u.item_points, "specialists": list(u.specialists)}
    for key, value in (("dead", u.dead), ("items", u.items), ("used-items", u.used_items), ("vehicle", u.vehicle),
                       ("awards", u.awards), ("used-awards", u.used_awards), ("cards", u.cards)):
        if value:
            out[key] = list(value) if isinstance(value, list) else value
    if u.id in game.state.hands:
        out["hand"] = list(game.state.hands[u.id])
    if not u.side:
        out["visited"] = list(u.visited)
    if u.conquered is not None:
        out["conquered"] = u.conquered
    if u.kept_tally is not None:
        out["kept-tally"] = [die_text(d) for d in u.kept_tally]
    if u.trading_pool is not None:
        out["trading-pool"] = [die_text(d) for d in u.trading_pool]
    out |= {"entered-turn": u.entered_turn, "moved-turn": u.moved_turn}
    for key, n in (("recruited", u.recruited), ("found", u.found), ("awards-drawn", u.awards_drawn)):
        if n:
            out[key] = n
    if u.counters:
        out["counters"] = dict(u.counters)
    if u.came_into_play:
        out["came-into-play"] = dict(u.came_into_play)
    return out


def _sector(attributes: list[str], acquired: dict[str, int], mgf_roll: list[int] | None,
            mgf_turn: int) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if attributes:
        out["attributes"] = list(attributes)
    if acquired:
        out["acquired"] = dict(acquired)
    if mgf_roll is not None:
        out["mgf-roll"] = list(mgf_roll)
    if mgf_turn != -1:
        out["mgf-turn"] = mgf_turn
    return out


def _grant(g: Grant) -> dict[str, Any]:
    out: dict[str, Any] = {"owner": g.owner, "tier": g.tier, "query": g.query, "op": g.op}
    if g.value is not None:
        out["value"] = g.value
    if g.args:
        out["args"] = list(g.args)
    out |= {"text": g.text, "expires": g.expires}
    for key, value in (("clause", g.clause), ("unit", g.unit), ("sector", g.sector), ("by", g.by)):
        if value:
            out[key] = value
    out["order"] = g.order
    return out


def scenario_text(data: dict[str, Any], header: str) -> str:
    """The scenario as YAML: the mappings of the file in block style, their lists of plain values on one line;
    ``header``: comment lines at the top."""
    yaml = YAML(typ="safe", pure=True)
    yaml.default_flow_style = None
    yaml.sort_base_mapping_type_on_output = False  # type: ignore[assignment]
    yaml.width = 4096
    buffer = io.StringIO()
    yaml.dump(data, buffer)
    lines = [f"# {line}".rstrip() for line in header.splitlines()]
    return "\n".join(lines) + "\n" + buffer.getvalue()


def relative_pack(name: str, resolved: str, out: Path) -> str:
    """A pack as the captured scenario at ``out`` names it: a bundled pack by its id (``resolved`` is the id), a
    pack folder by its path from the scenario's folder (the loader reads it so: tools/scenario.py,
    resolve_packs)."""
    if resolved == name and not Path(name).is_absolute() and "/" not in name:
        return name
    path = Path(os.path.relpath(Path(resolved).resolve(), out.parent.resolve())).as_posix()
    return path if "/" in path else f"./{path}"  # a folder beside the scenario, named as a path, not as an id
