"""The heuristic values and plays cards by what their effects do, not by their ids.

- The policies name no card: their source is scanned for every card id loaded (the base game, every bundled pack, the
  example pack and the test pack), written in quotes.
- A card's worth is read from its compiled effect (heuristic/effectworth.py); the printed cards keep the worth the
  heuristic gave them when it named them.
- A modder's card that only changes dice (tests/packs/dice-and-costs/) is played when it helps and kept otherwise.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

import pytest
from pack_kit import card as card_yaml
from pack_kit import make_pack

from ddaydice.dsl.loader import Content, load
from ddaydice.interpreter.core.state import Die
from ddaydice.interpreter.game import Game
from ddaydice.interpreter.policies.heuristic import HeuristicPolicy
from ddaydice.interpreter.policies.heuristic.effectworth import profile
from ddaydice.interpreter.tools.forced import Forced
from ddaydice.interpreter.tools.simulate import Spec, play_one

ROOT = Path(__file__).parent.parent
POLICIES = ROOT / "interpreter" / "policies"
PACK = Path(__file__).parent / "packs" / "dice-and-costs"
EXAMPLE = ROOT / "docs" / "example-pack" / "field-kitchen"

@functools.cache
def every_card() -> Content:
    loaded, diags = load(packs="all", extra=[PACK, EXAMPLE])
    assert loaded is not None, diags
    return loaded


@functools.cache
def with_pack() -> Content:
    loaded, diags = load(extra=[PACK])
    assert loaded is not None, diags
    return loaded


def test_the_policies_name_no_card() -> None:
    """No card id appears in quotes in interpreter/policies/ (the heuristic reads every card from its effect)."""
    ids = set(every_card().cards)
    assert {"medic", "bazooka", "loaded-die", "hot-coffee", "crossfire"} <= ids
    quoted = re.compile(r"""["']([a-z0-9-]+)["']""")
    naming: dict[str, set[str]] = {}
    for path in sorted(POLICIES.rglob("*.py")):
        found = {m for m in quoted.findall(path.read_text(encoding="utf-8")) if m in ids}
        if found:
            naming[path.relative_to(POLICIES).as_posix()] = found
    assert naming == {}, f"card ids in the policies: {naming}"


def test_the_engine_and_tools_name_no_rule_of_the_content() -> None:
    """No rule of the game's or option's effect ('rule:buy-award', 'option:...', 'side:...') is named in quotes in
    interpreter/: the purchase of an Award is offered by its own condition (rules/game.yaml), read by the
    heuristic from its effect (an Award bought with Courage), refused by the runner as any condition."""
    content = every_card()
    owners = {k for k in content.effects if k.startswith(("rule:", "option:", "side:"))}
    assert "rule:buy-award" in owners
    quoted = re.compile(r"""["']((?:rule|option|side):[a-z0-9-]+)["']""")
    naming: dict[str, set[str]] = {}
    for path in sorted((ROOT / "interpreter").rglob("*.py")):
        found = {m for m in quoted.findall(path.read_text(encoding="utf-8")) if m in owners}
        if found:
            naming[path.relative_to(ROOT).as_posix()] = found
    assert naming == {}, f"rules of the content named in Python: {naming}"


@pytest.mark.parametrize(("card", "climbing", "worth"), [
    ("bazooka", False, 7.0), ("bangalore-torpedo", False, 8.0), ("gammon-bomb", False, 3.5),
    ("field-radio", False, 5.0), ("pocket-bible", False, 2.0), ("lucky-charm", False, 1.0),
    ("flak-vest", False, 4.0), ("signalling-lamp", False, 6.0), ("shoulder-patch", False, 3.0),
    ("grappling-hook", True, 8.0), ("grappling-hook", False, -1.0), ("rope-ladder", True, 9.0),
    ("binoculars", True, 7.0), ("binoculars", False, 3.0), ("rangefinder", True, 6.0), ("rangefinder", False, 1.5),
    ("loaded-die", False, 3.0), ("loaded-die", True, 7.0), ("climbing-spikes", True, 8.0),
    ("climbing-spikes", False, -1.0), ("dice-cup", False, 1.0), ("forced-march", False, 2.0),
])
def test_an_items_worth_is_read_from_its_effect(card: str, climbing: bool, worth: float) -> None:
    from ddaydice.interpreter.policies.heuristic.effectworth import Ahead
    from ddaydice.interpreter.policies.heuristic.effectworth import worth as effect_worth

    ahead = Ahead(advances=4, turns=9, units=1, team=False, bunker=True, skulls=True, climbing=climbing)
    assert effect_worth(profile(every_card(), card), ahead) == pytest.approx(worth)


def test_a_specialists_worth_is_read_from_his_effect() -> None:
    pol = HeuristicPolicy()
    g = Game(with_pack(), "omaha-beach", seed=1, deciders=pol)
    u = g.state.units[0]
    adv, turns = pol.remaining(g, u)
    assert pol.spec_value(g, u, "medic") == pytest.approx(1.0 + turns)  # 'casualties -1 once per phase'
    assert pol.spec_value(g, u, "beachmaster") == pytest.approx(1.0 + 3.0 * adv)  # 'on advance: gain 3 soldiers'
    assert pol.spec_value(g, u, "pathfinder") == pytest.approx(1.0 + 1.2 * adv + 1)  # 'on move: gain 1 soldier'
    assert pol.spec_value(g, u, "engineer") == pytest.approx(6.0)  # 'def -5 if bunker'
    assert pol.spec_value(g, u, "paratrooper") == pytest.approx(6.5)  # 'soldier-value = 6'
    assert pol.spec_value(g, u, "corporal") == pytest.approx(1.0 + 0.35 * turns)  # a re-roll once per turn


def _tally(faces: list[tuple[str, str]]) -> list[Die]:
    return [Die(face, colour, i) for i, (colour, face) in enumerate(faces)]


def test_a_modders_die_changing_card_is_played_when_it_helps() -> None:
    pol = HeuristicPolicy()
    g = Game(with_pack(), "exercise-tiger", seed=1, variant="advanced-training", deciders=pol)
    u = g.state.units[0]
    u.items += ["loaded-die", "dice-cup"]
    g.state.phase = "roll"
    # A Skull that cancels a 2 Soldiers: turning it (or re-rolling it) is worth more than keeping the cards.
    u.tally = _tally([("red", "skull"), ("red", "two-soldiers"), ("white", "two-soldiers"), ("white", "courage"),
                      ("blue", "two-soldiers"), ("blue", "one-soldier")])
    assert pol.wants_use(g, u, "loaded-die", "after-final-tally")
    assert pol.memory.intent["reface"] == ("red skull", pol.memory.intent["reface"][1])
    assert pol.wants_use(g, u, "dice-cup", "after-final-tally")
    assert pol.memory.intent["reroll"] == 0  # the Skull
    # Not at another moment, and not when every die already shows what the Unit wants.
    assert not pol.wants_use(g, u, "loaded-die", "before-mgf")
    u.tally = _tally([("red", "two-soldiers"), ("red", "two-soldiers"), ("white", "two-soldiers"),
                      ("white", "courage"), ("blue", "two-soldiers"), ("blue", "courage")])
    assert not pol.wants_use(g, u, "loaded-die", "after-final-tally")
    assert not pol.wants_use(g, u, "dice-cup", "after-final-tally")


def test_a_modders_skull_giving_card_is_played_when_a_climb_needs_it() -> None:
    pol = HeuristicPolicy()
    g = Game(with_pack(), "pointe-du-hoc", seed=1, deciders=pol)
    u = g.state.units[0]
    u.items += ["climbing-spikes"]
    g.state.phase = "roll"
    three = [("red", "skull"), ("red", "skull"), ("white", "skull"), ("white", "courage"), ("blue", "two-soldiers"),
             ("blue", "one-soldier")]
    u.tally = _tally(three)
    # On the beach, no Climb: a Skull only costs a result.
    assert not pol.wants_use(g, u, "climbing-spikes", "after-final-tally")
    # Below the cliff (4 Skulls to Advance) with 3: the fourth completes the Climb.
    u.sector, u.visited = "s9", [u.sector, "s9"]
    assert pol.wants_use(g, u, "climbing-spikes", "after-final-tally")
    u.tally = _tally([("red", "skull"), ("red", "two-soldiers"), ("white", "skull"), ("white", "courage"),
                      ("blue", "two-soldiers"), ("blue", "one-soldier")])
    # Two Skulls short with one Skull-giver: a Skull alone makes no Climb; with a second Skull-giver held, it does.
    assert not pol.wants_use(g, u, "climbing-spikes", "after-final-tally")
    u.items += ["grappling-hook"]
    assert pol.wants_use(g, u, "climbing-spikes", "after-final-tally")
    u.tally = _tally([("red", "skull")] * 4 + [("blue", "two-soldiers"), ("blue", "one-soldier")])
    assert not pol.wants_use(g, u, "climbing-spikes", "after-final-tally")  # the Climb is made already


def test_in_whole_games_the_modders_cards_are_played() -> None:
    """Given to the Unit at the start, the pack's Items are used in the heuristic's games (legal answers all along)."""
    content = with_pack()
    used: dict[str, int] = {}
    for card, map_id in (("loaded-die", "exercise-tiger"), ("dice-cup", "exercise-tiger"),
                         ("forced-march", "omaha-beach")):
        spec = Spec(map_id, "advanced-training" if map_id == "exercise-tiger" else None, 1, "heuristic", seed=0,
                    forced=(Forced(card),))
        used[card] = sum(card in play_one(content, spec, i).items_used for i in range(12))
    assert all(n >= 6 for n in used.values()), used


def test_an_mgf_change_until_an_event_is_played_before_mgf(tmp_path: Path) -> None:
    """'use before mgf: mgf-dice = 0 until move' lasts at least through this turn's MGF, as 'this turn' does: the
    heuristic plays it in the same shape as the Grenade (before the MGF roll)."""
    from ddaydice.interpreter.game import Game
    from ddaydice.interpreter.policies.deciders import ReferencePolicy
    from ddaydice.interpreter.policies.heuristic.cardtext import use_shape

    pack = make_pack(tmp_path, "smoke", {"items.yaml": "kind: item\ncards:\n"
                     + card_yaml("smoke-pot", "use before mgf: mgf-dice = 0 until move")
                     + card_yaml("smoke-jar", "use before mgf: mgf-dice = 0 this turn")})
    content, diags = load(extra=[pack])
    assert content is not None, diags
    game = Game(content, "exercise-tiger", variant="advanced-training", deciders=ReferencePolicy())
    assert use_shape(game, "smoke-pot").kind == use_shape(game, "smoke-jar").kind == "mgf-before"


def test_a_replacement_is_made_when_its_price_is_less_than_the_casualties(tmp_path: Path) -> None:
    """'use when casualties: instead, lose 2 courage' (the word 'instead'): the heuristic replaces the casualties
    about to fall when the Courage is spare (its route ahead does not need it) or the Unit would be wiped out, and
    a price in Soldiers only when it is less than the casualties."""
    pack = make_pack(tmp_path, "cover", {"items.yaml": "kind: item\ncards:\n"
                     + card_yaml("foxhole", "use when casualties: instead, lose 2 courage")
                     + card_yaml("meat-shield", "use when casualties: instead, lose 3 soldiers")})
    content, diags = load(extra=[pack])
    assert content is not None, diags
    pol = HeuristicPolicy()
    g = Game(content, "exercise-tiger", seed=1, variant="advanced-training", deciders=pol)
    u = g.state.units[0]
    u.items += ["foxhole", "meat-shield"]
    u.soldiers, u.courage = 12, 20
    g.pending_casualties = 5
    assert pol.wants_use(g, u, "foxhole", "when-casualties")        # spare Courage for 5 Soldiers
    assert pol.wants_use(g, u, "meat-shield", "when-casualties")    # 3 Soldiers for 5
    g.pending_casualties = 2
    assert not pol.wants_use(g, u, "meat-shield", "when-casualties")  # 3 Soldiers for 2: no
    u.courage = 0
    assert not pol.wants_use(g, u, "foxhole", "when-casualties")    # the route ahead needs Courage it has not
    g.pending_casualties = 12
    assert pol.wants_use(g, u, "foxhole", "when-casualties")        # the Unit would be wiped out
    assert not pol.wants_use(g, u, "foxhole", "after-final-tally")  # replacing is for the event's moment


def _facts_of(*texts: str, options: tuple[str, ...] = ()) -> dict[str, object]:
    """The heuristic's facts of a plain Sector whose effects are ``texts`` (each a DSL effect), as a dict."""
    from ddaydice.dsl.parser import SourceMap, parse_effect
    from ddaydice.dsl.schema import Sector
    from ddaydice.interpreter.policies.heuristic.facts import sector_facts

    trees = []
    for text in texts:
        tree, diags = parse_effect(text, SourceMap("maps/modded.yaml"))
        assert tree is not None and not diags, diags
        trees.append(tree)
    printed = Sector(id="s1", name="Sector 1", row=1, defense=(6,), provenance="reconstructed")
    found = sector_facts(trees, printed, None, options)
    names = ("award", "battle_cry_only", "climb", "combat_loss", "combat_loss_unless", "courage", "courage_penalty",
             "enter_soldiers", "enter_unless", "free_cards", "no_battle_cry", "no_entry_after", "no_stay", "retreat",
             "skulls", "stars", "tools")
    return {n: getattr(found, n) for n in names}


def test_a_sectors_facts_are_read_from_its_effect_not_its_wording() -> None:
    """What the heuristic's planner counts on in a Sector is read from the compiled effect: a modder's Sector whose
    clauses are written otherwise (several actions on one line, clauses joined by ';', another order, more spaces,
    its effects split in two) has the
    same facts as the same Sector written line by line."""
    ours = _facts_of(
        "on final-tally: add 1 courage\non final-tally: add 2 star\non final-tally: remove 1 courage\n"
        "on first-enter: find flame-thrower free\non enter: gain 1d6 soldiers\n"
        "on combat unless has minesweeper: lose 1d6 soldiers\nforbid advance unless count skull >= 4\n"
        "forbid battle-cry\nforbid stay\nforbid enter unless conquered s2\n"
        "use during movement if turns-here >= 3: retreat s7\n")
    theirs = _facts_of(
        "use during movement if turns-here >= 3: retreat s7; forbid  stay\n"
        "on final-tally: add 1 courage, add 2 star, remove 1 courage\n"
        "on enter: gain 1d6 soldiers\non first-enter: find flame-thrower free",
        "forbid enter unless conquered s2 ; forbid battle-cry\n"
        "forbid advance unless count skull >= 4\non combat unless has minesweeper: lose 1d6 soldiers")
    assert ours == theirs
    assert ours == {"award": False, "battle_cry_only": False, "climb": 4, "combat_loss": 3.5,
                    "combat_loss_unless": "minesweeper", "courage": 1, "courage_penalty": 1, "enter_soldiers": 3.5,
                    "enter_unless": "s2", "free_cards": ("flame-thrower",), "no_battle_cry": True,
                    "no_entry_after": (), "no_stay": True, "retreat": "s7", "skulls": 0, "stars": 2, "tools": 0}


def test_a_sectors_facts_read_only_what_holds_always() -> None:
    """A Final Tally's gain that holds only sometimes, a permission forbidden only in some case, and an 'or'
    between gains are not counted on; 'forbid enter if visited A and visited B' is a Sector closed to a Unit that
    has been in both."""
    assert _facts_of("on final-tally if same-face >= 4: add 1 courage\nforbid stay if bunker\n"
                     "require battle-cry if bunker") == _facts_of("")
    assert _facts_of("forbid enter if visited s2 and visited s3")["no_entry_after"] == ("s2", "s3")
    assert _facts_of("on enter: draw-award random once per game")["award"] is True


def test_the_plan_reads_a_sectors_values_again_once_it_gains_an_attribute(tmp_path: Path) -> None:
    """The Locked dice, dice rolled and turns a Unit may stay in a Sector are remembered for the game with the cards
    in play and that Sector's attributes: Sword Beach's Sector 7 that rolls High Ground ('No dice are Locked') is
    planned with none Locked from then on (they were remembered by the Sector alone: 2 for the rest of the game).
    While one of this turn's grants changes a value (a modder's 'locked-dice = 3 this turn'), it is asked afresh,
    and not kept past the grant."""
    from ddaydice.interpreter.policies.deciders import ReferencePolicy
    from ddaydice.interpreter.policies.heuristic.memory import Memory
    from ddaydice.interpreter.tools.forced import ForcedGame

    pack = make_pack(tmp_path, "grip", {"items.yaml": "kind: item\ncards:\n"
                     + card_yaml("steady-grip", "use: locked-dice = 3 this turn")})
    content, diags = load(extra=[pack])
    assert content is not None, diags
    game = ForcedGame(content, "sword-beach", seed=1, forced=[Forced("steady-grip")], deciders=ReferencePolicy())
    unit, mem = game.state.units[0], Memory()
    assert mem.static(game, unit, "locked-dice", "s7") == mem.static(game, unit, "locked-dice", "s6") == 2
    game.state.sectors["s7"].attributes.append("high-ground")
    game.sources_changed()
    assert mem.static(game, unit, "locked-dice", "s7") == 0
    assert mem.static(game, unit, "locked-dice", "s6") == 2
    source = content.effects["steady-grip"]
    game.perform_use(unit, source, 0, source.compiled.uses[0], "steady-grip")
    assert mem.static(game, unit, "locked-dice", "s6") == game.value("locked-dice", unit, sector="s6") == 3
    game.state.grants.clear()  # (the turn ends)
    game.sources_changed()
    assert mem.static(game, unit, "locked-dice", "s6") == 2


def test_a_sectors_value_is_read_afresh_once_the_drawn_card_that_changed_it_leaves() -> None:
    """A value the plan reads of a Sector is remembered only while something in play changes it there: once Rain
    ('Every Unit rolls only 5 dice this turn', drawn into play) leaves, the Unit rolls 6 dice again in the plan (the 5
    were remembered with the cards held, which Rain's leaving did not change: 5 dice for the rest of the game).
    While Rain is in play it is read as it stands."""
    from ddaydice.interpreter.mechanisms.decks import put_in_play
    from ddaydice.interpreter.policies.deciders import ReferencePolicy
    from ddaydice.interpreter.policies.heuristic.memory import Memory

    content, diags = load(packs=["atlantikwall"])
    assert content is not None, diags
    game = Game(content, "gold-beach", seed=1, options=["battle-conditions"], deciders=ReferencePolicy())
    unit, mem = game.state.units[0], Memory()
    game.state.in_play.clear()
    game.sources_changed()
    put_in_play(game, "rain")
    assert mem.static(game, unit, "dice-rolled", "s2") == game.value("dice-rolled", unit, sector="s2") == 5
    game.state.in_play.remove("rain")
    game.sources_changed()
    assert mem.static(game, unit, "dice-rolled", "s2") == game.value("dice-rolled", unit, sector="s2") == 6
    put_in_play(game, "rain")
    assert mem.static(game, unit, "dice-rolled", "s2") == 5


def test_a_price_and_a_way_in_are_read_as_they_stand_while_a_grant_lasts(tmp_path: Path) -> None:
    """What a Specialist costs and whether a Sector may be entered are remembered while what can change them stays
    the same; while one of this turn's grants changes them (a modder's 'specialist-cost -2 this turn', 'forbid enter
    this turn') they are asked afresh, and after it they are as before (they were remembered without the grants:
    the price before the grant stood through it). ('enter' is a Sector's permission: a Unit's grant of it closes
    the Sector the Unit stands in.)"""
    from ddaydice.interpreter.policies.deciders import ReferencePolicy
    from ddaydice.interpreter.policies.heuristic.memory import Memory
    from ddaydice.interpreter.tools.forced import ForcedGame

    pack = make_pack(tmp_path, "kit", {"items.yaml": "kind: item\ncards:\n"
                     + card_yaml("cheap-talk", "use: specialist-cost -2 this turn")
                     + card_yaml("barricade", "use: forbid enter this turn")})
    content, diags = load(extra=[pack])
    assert content is not None, diags
    game = ForcedGame(content, "exercise-tiger", seed=1, variant="advanced-training",
                      forced=[Forced("cheap-talk"), Forced("barricade")], deciders=ReferencePolicy())
    unit, mem = game.state.units[0], Memory()
    spec = next(c.id for c in content.cards_of("specialist") if (c.cost or 0) >= 3 and c.id not in game.own_prices)
    here = unit.sector
    price = mem.cost(game, unit, spec)
    assert mem.may_enter(game, unit, here)
    for card in ("cheap-talk", "barricade"):
        source = content.effects[card]
        game.perform_use(unit, source, 0, source.compiled.uses[0], card)
    assert mem.cost(game, unit, spec) == game.value("specialist-cost", unit, card=spec) == price - 2
    assert not mem.may_enter(game, unit, here)
    game.state.grants.clear()  # (the turn ends)
    game.sources_changed()
    assert mem.cost(game, unit, spec) == price
    assert mem.may_enter(game, unit, here)


def test_dice_in_an_effect_are_worth_their_mean(tmp_path: Path) -> None:
    """'gain 1d6 soldiers' is worth 3.5 Soldiers, as 'def -1d6' is 3.5 DEF: an unsigned roll counts at its mean (it
    was read as 0)."""
    from ddaydice.interpreter.policies.heuristic.effectworth import Ahead
    from ddaydice.interpreter.policies.heuristic.effectworth import worth as effect_worth

    pack = make_pack(tmp_path, "rations", {"items.yaml": "kind: item\ncards:\n"
                     + card_yaml("rolled-rations", "use: gain 2d6 soldiers")
                     + card_yaml("counted-rations", "use: gain 7 soldiers")})
    content, diags = load(extra=[pack])
    assert content is not None, diags
    ahead = Ahead(advances=4, turns=9, units=1, team=False, bunker=True, skulls=True, climbing=False)
    rolled = effect_worth(profile(content, "rolled-rations"), ahead)
    assert rolled > 0
    assert rolled == pytest.approx(effect_worth(profile(content, "counted-rations"), ahead))


def test_a_sectors_clause_for_an_optional_rule_counts_only_in_games_with_it() -> None:
    """'on first-enter if option solitaire: find X free' (Merville Battery's Sector 9) gives X only in a solitaire
    game, its 'unless option solitaire' twin only in others: the planner counts the one card the game gives."""
    text = ("on first-enter if option solitaire: find signalling-lamp free\n"
            "on first-enter unless option solitaire: find dexedrine free\n"
            "forbid stay if option solitaire")
    assert _facts_of(text)["free_cards"] == ("dexedrine",)
    assert _facts_of(text)["no_stay"] is False
    alone = _facts_of(text, options=("solitaire",))
    assert alone["free_cards"] == ("signalling-lamp",)
    assert alone["no_stay"] is True  # a condition of the options alone, that holds: always
    assert _facts_of("forbid stay if option solitaire and bunker", options=("solitaire",))["no_stay"] is False


def test_a_card_edited_and_loaded_again_is_read_afresh(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A modder edits a card and loads the pack again in the same process (a notebook, a sweep's worker that meets
    other packs): the heuristic reads the new effect. CPython gives a freed object's id to a later one, so a memo
    keyed by the content's id could serve the old card's reading to the new content: simulated here by an ``id``
    that gives every content the same one (in the pure-Python modules; heuristic/percontent.py checks identity)."""
    import builtins

    from ddaydice.interpreter.policies.deciders import ReferencePolicy
    from ddaydice.interpreter.policies.heuristic import cardtext, effectworth, facts, percontent

    def one_id(obj: object) -> int:
        return 1 if isinstance(obj, Content) else builtins.id(obj)

    for module in (cardtext, effectworth, facts, percontent):
        monkeypatch.setattr(module, "id", one_id, raising=False)
    read = []
    for i, effect in enumerate(("use: gain 3 courage", "use: lose 1 soldiers to the german", "use: reface 1 die blue")):
        pack = make_pack(tmp_path / str(i), "kit",
                         {"items.yaml": "kind: item\ncards:\n" + card_yaml("kit-bag", effect)})
        content, diags = load(packs=("atlantikwall",), extra=[pack])
        assert content is not None, diags
        game = Game(content, "omaha-beach", options=("german-player",), deciders=ReferencePolicy())
        read.append((cardtext.generic_use(game, "kit-bag"), cardtext.use_shape(game, "kit-bag").kind,
                     cardtext.against_foe(game, "kit-bag"), len(profile(content, "kit-bag").terms) > 0))
    assert read == [("gain", "gain", (0.0, 0.0), True),
                    ("", "", (1.0, 0.0), False),  # a cost to the Unit: never played for itself
                    ("reface", "reface", (0.0, 0.0), True)]
