"""What Specialists, Items, Stars, Tools and cards are worth to a Unit, in Soldiers, for the map ahead."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ddaydice.dsl import ast as dsl_ast
from ddaydice.interpreter.core.api import GameView
from ddaydice.interpreter.policies.heuristic.cardtext import against_foe, statement_kind
from ddaydice.interpreter.policies.heuristic.facts import facts, reachable
from ddaydice.interpreter.policies.heuristic.foe import foe
from ddaydice.interpreter.policies.heuristic.memory import Memory
from ddaydice.interpreter.policies.heuristic.model import ITEM_POINT_VALUE, SKULL_HELPERS

if TYPE_CHECKING:
    from ddaydice.interpreter.core.state import Unit


def remaining(game: GameView, unit: Unit) -> tuple[int, int]:
    """(Advances left, turns left), roughly, from the row of the Unit to the Bunker's."""
    rows = [sec.row for sec in game.sectors.values() if sec.bunker]
    top = max(rows) if rows else 6
    here = game.sectors[unit.sector].row
    adv = max(1, top - here)
    return adv, 2 * adv + 1


def spec_value(game: GameView, unit: Unit, spec: str) -> float:
    """A Specialist's worth to this Unit, in Soldiers, for the rest of the map."""
    adv, turns = remaining(game, unit)
    body = float(game.value("soldier-value", unit, card=spec)) if spec in unit.specialists else (
        6.0 if spec == "paratrooper" else 1.0)
    per: dict[str, float] = {
        "beachmaster": 3.0 * adv,
        "medic": 1.0 * turns,
        "engineer": 5.0,
        "minesweeper": 3.0,
        "pathfinder": 1.2 * adv + 1,
        "platoon-leader": 0.6 * adv,
        "general": 0.25 * turns * max(1, len(game.state.active_units())),
        "sharpshooter": 0.3 * turns,
        "corporal": 0.35 * turns,
        "scout": 0.25 * turns,
        "veteran": 0.15 * turns,
        "chaplain": 0.1 * turns,
        "hero": 2.0,
        "captain": 0.2 * turns,
        "messenger": 0.5,
        "quartermaster": 0.8,
        "marksman": 0.5 * turns,
        "grenadier": 2.0,
        "lieutenant": 0.5 if len(game.state.units) > 1 else 0.3,
        "decoy": 0.5,
        "point-man": 1.0,
        "combat-photographer": 0.5,
        "war-correspondent": 0.2,
    }
    extra = per.get(spec, 0.5)
    if spec == "engineer" and not any(sec.bunker for sec in game.sectors.values()):
        extra = 0.0
    if spec == "marksman" and "skulls" in game.ignore:
        extra = 0.0
    if game.state.sides and foe(game) is not None:
        once, each = against_foe(game, spec)
        extra += once + 0.6 * each * adv  # a Unit that rushes him has about one turn per Advance left
    return body + extra


def ahead(mem: Memory, game: GameView, unit: Unit) -> tuple[bool, bool, bool, bool]:
    """What lies ahead of the Unit: (a Climb, a Battle-Cry-only Sector, a Barrier, Landmines)."""
    key = (id(game.state), unit.id, unit.sector, len(unit.visited))
    found = mem.ahead.get(key)
    if found is None:
        reach = reachable(game, unit)
        climb = any(facts(game, s).climb for s in reach)
        cry = any(facts(game, s).battle_cry_only for s in reach)
        barrier = any(bar for s in reach for *_r, bar in game.moves[s])
        mines = any(m for s in reach for _t, _k, _c, m, _b in game.moves[s]) and "landmines" not in game.ignore
        found = mem.ahead[key] = (climb, cry, barrier, mines)
        if len(mem.ahead) > 256:
            mem.ahead.clear()
    return found


def item_value(mem: Memory, game: GameView, unit: Unit, item: str) -> float:
    """An Item's (or Vehicle's) worth to this Unit, in Soldiers, for what lies ahead of it."""
    _adv, turns = remaining(game, unit)
    climbing, cry_needed, barrier, mines = ahead(mem, game, unit)
    solo = len(game.state.units) == 1
    base: dict[str, float] = {
        "bangalore-torpedo": 8.0, "bazooka": 7.0, "flame-thrower": 10.0, "gammon-bomb": 3.5,
        "field-radio": 5.0, "walkie-talkie": 2.0, "signalling-lamp": 6.0, "medal-case": 3.5,
        "grenade": 3.5, "flak-vest": 4.0, "mortar": 0.5 if solo else 2.0, "pocket-bible": 2.0,
        "lucky-charm": 1.0, "command-jacket": 2.5, "dexedrine": 12.0 if cry_needed else 3.0,
        "whistle": 2.0, "mine-detector": 2.0 if mines else 0.0, "binoculars": 7.0 if climbing else 3.0,
        "carrier-pigeon": 0.0 if solo else 0.5, "shoulder-patch": 3.0, "ammo-box": 2.0,
        "dispatch-case": 0.0 if solo else 1.0, "grappling-hook": 8.0 if climbing else -1.0,
        "rope-ladder": 9.0 if climbing else -1.0, "rangefinder": 6.0 if climbing else 1.5,
        "strategic-map": 1.0, "toolkit": 2.5, "wirecutters": 1.0 if barrier else 0.0,
        "tank": 0.7 * turns, "half-track": 0.2 * turns, "armored-car": 0.3 * turns, "bulldozer": 0.4 * turns,
        "jeep": 0.35 * turns, "ambulance": 1.0 * turns,
    }
    v = base[item] if item in base else max(0.5, card_worth(mem, game, unit, item)
                                            + _standing_worth(game, item, turns, mines))
    if game.state.sides and foe(game) is not None:
        once, each = against_foe(game, item)
        v += once + 0.6 * each * _adv
    if climbing and item in SKULL_HELPERS:
        # Each more Skull-giver helps less: the first turns a 21% Climb into a 47% one.
        held = sum(1 for i in unit.items if i in SKULL_HELPERS) - (1 if item in unit.items else 0)
        v /= 1.0 + held
    return v


def star_value(mem: Memory, game: GameView, unit: Unit) -> float:
    """What one more Star is worth: the best Specialist per Star within reach."""
    if not game.counts_face("star"):
        return 0.0
    best = 0.0
    hand = game.state.hands.get(unit.id, [])
    pool = [p for p in game.state.pool if game.content.card_kinds.get(p) == "specialist"]
    for spec in hand + pool:
        if spec in unit.specialists or spec in unit.dead:
            continue
        cost = mem.cost(game, unit, spec)
        if cost <= 0:
            continue
        best = max(best, spec_value(game, unit, spec) / cost)
    return 0.7 * best


def tool_value(game: GameView) -> float:
    """What one more Item Point is worth (nothing when no Item can be found)."""
    if not game.counts_face("tool"):
        return 0.0
    if not any(game.content.card_kinds.get(p) == "item" for p in game.state.pool):
        return 0.0
    return ITEM_POINT_VALUE


def draw_value(mem: Memory, game: GameView, unit: Unit, name: str) -> float:
    """What a card drawn at random from a deck (a Badge) is worth, in Soldiers: the mean over the kind's cards
    this game can hold of what each one's use does (card_worth)."""
    kind = next((k for k in game.content.kinds.kinds if name in {k.id, k.name.lower(), k.plural.lower()}), None)
    if kind is None:
        return 0.0
    cards = [cid for cid, k in game.content.card_kinds.items() if k == kind.id and not game._unavailable(cid)]
    return sum(card_worth(mem, game, unit, cid) for cid in cards) / len(cards) if cards else 0.0


def card_worth(mem: Memory, game: GameView, unit: Unit, card: str) -> float:
    """What playing a card is worth, read from its use effect: resources gained at their value, a defence or a
    cheaper move a little (it waits for the turn that needs it), anything else less."""
    source = game.content.effects.get(card)
    worth = 0.0
    for clause in source.tree.clauses if source is not None else ():
        body = clause.body
        if not isinstance(body, dsl_ast.Use):
            continue
        for action in body.actions:
            worth += max((sum(_statement_worth(mem, game, unit, st, option.recipient is not None)
                              for st in (option.statement, *(o.statement for o in option.also)))
                          for option in action.options), default=0.0)
    return worth


def _standing_worth(game: GameView, card: str, turns: float, mines: bool) -> float:
    """What a card's standing changes (a Vehicle's 'advance-cost -1') are worth over the turns ahead."""
    source = game.content.effects.get(card)
    per_turn = {"defence": 0.5, "cost": 0.3, "mines": 0.3 if mines else 0.0}
    worth = 0.0
    for clause in source.tree.clauses if source is not None else ():
        if isinstance(clause.body, dsl_ast.Modifier):
            worth += per_turn.get(statement_kind(clause.body.statement, False), 0.0) * turns
    return worth


def _statement_worth(mem: Memory, game: GameView, unit: Unit, st: dsl_ast.Statement, to_another: bool) -> float:
    """What one statement of a card's use is worth to the Unit."""
    kind = statement_kind(st, to_another)
    if st.verb.name == "gain":
        n = next((a.value for a in st.args if isinstance(a, dsl_ast.Number)), 1)
        what = next((a.name for a in st.args if isinstance(a, dsl_ast.Word)), "")
        per = {"soldiers": 1.0, "courage": 0.8, "stars": star_value(mem, game, unit), "item-points": 0.25}
        return n * per.get(what, 0.5) * (0.8 if to_another else 1.0)
    return {"defence": 2.0, "cost": 1.0, "mines": 1.0, "gain": 1.5, "self-cost": -1.0}.get(kind, 0.5)
