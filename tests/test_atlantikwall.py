"""The Atlantikwall pack (expansions/atlantikwall/): its mechanisms beyond the scenario files.

The module rules are settled by the scenarios in tests/scenarios/atlantikwall/; these tests check what a
scenario cannot say well: the base game is unchanged when the pack is loaded with no option on, the
general mechanisms name no card or module, the honesty of the content, random games with every option,
Chaotic Resupply's piles, and the commands of the issue.
"""

from __future__ import annotations

import functools
import inspect
import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from ddaydice.dsl.loader import Content, load
from ddaydice.interpreter.cli import main
from ddaydice.interpreter.core.api import GameView
from ddaydice.interpreter.core.decisions import Decision
from ddaydice.interpreter.core.state import digest
from ddaydice.interpreter.game import Game
from ddaydice.interpreter.mechanisms import decks as decks_mod
from ddaydice.interpreter.policies.deciders import RandomDecider, ReferencePolicy

PACK = Path(__file__).resolve().parent.parent / "expansions" / "atlantikwall"
MODULE_OPTIONS = ("battle-conditions", "persistent-weather", "advanced-observation", "badges", "badge-of-honour",
                  "badge-of-courage", "badge-of-assistance", "chaotic-resupply", "atlantikwall-material")
GENERAL_VEHICLES = {"mine-clearing-tank", "tractor"}
GENERAL_AWARDS = {"star-of-france-and-germany", "grunwald-cross", "resistance-medal", "volunteer-service-medal"}


@functools.cache
def base() -> Content:
    loaded, diags = load()
    assert loaded is not None, diags
    return loaded


@functools.cache
def pack() -> Content:
    loaded, diags = load(packs=["atlantikwall"])
    assert loaded is not None, diags
    return loaded


def dday(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output


# ------------------------------------------------------------------ the pack
def test_the_pack_loads_cleanly_and_adds_its_optional_rules() -> None:
    loaded, diags = load(packs=["atlantikwall"])
    assert loaded is not None and not diags, diags
    assert set(MODULE_OPTIONS) <= set(loaded.options)
    assert {loaded.owner_pack[f"option:{o}"] for o in MODULE_OPTIONS} == {"atlantikwall"}
    man = loaded.packs["atlantikwall"]
    assert man.requires == () and man.provenance == "reconstructed" and man.note.strip()
    assert man.pending == () and "german-player" in loaded.options  # every module is implemented


def test_battle_conditions_rank_between_sector_attributes_and_specialists_and_badges_with_items() -> None:
    tiers = [t.id for t in pack().precedence.tiers]
    assert tiers == ["rules", "sectors", "battle-conditions", "specialists", "items-vehicles", "awards"]
    assert pack().tier_of("battle-condition") == "battle-conditions"
    assert pack().tier_of("badge") == "items-vehicles"
    assert [t.id for t in base().precedence.tiers] == ["rules", "sectors", "specialists", "items-vehicles", "awards"]


def test_only_crossfire_and_the_military_aide_are_the_rulebooks() -> None:
    """The text prints one Battle Condition and one Badge in full; every other card of those decks is ours."""
    c = pack()
    mine = {cid: card for cid, card in c.cards.items() if c.owner_pack.get(f"card:{cid}") == "atlantikwall"}
    by_kind: dict[str, set[str]] = {}
    for cid in mine:
        by_kind.setdefault(c.card_kinds[cid], set()).add(cid)
    assert {cid for cid in mine if mine[cid].provenance == "rulebook"} == {"crossfire", "military-aide"}
    for cid, card in mine.items():
        if card.provenance == "reconstructed":
            assert card.note.strip(), cid
    assert len(by_kind["battle-condition"]) >= 12 and len(by_kind["badge"]) >= 10
    weather = {cid for cid in by_kind["battle-condition"] if "weather" in mine[cid].tags}
    assert weather and weather < by_kind["battle-condition"]


def test_module_one_cards_stay_out_of_every_game() -> None:
    """The Atlantikwall Allied cards apply only with the German player's rules: without his option never in
    play, even when an option makes every Specialist and Special Item available."""
    for options in ((), ("bazooka-joe-2",), ("chaotic-resupply",), ("wild-specialists",)):
        g = Game(pack(), "omaha-beach", players=2, seed=1, options=options, deciders=ReferencePolicy())
        cards = set(g.state.pool) | {c for hand in g.state.hands.values() for c in hand}
        cards |= {c for pile in g.state.piles for c in pile}
        assert not cards & {"sniper", "sniper-scope", "scharfschutze"}, options


# ------------------------------------------------------ the base is unchanged
@pytest.mark.parametrize("map_id", ["exercise-tiger", "omaha-beach", "gold-beach"])
def test_loading_the_pack_with_no_option_changes_no_game(map_id: str) -> None:
    variant = "advanced-training" if map_id == "exercise-tiger" else None
    for seed in range(6):
        a = Game(base(), map_id, players=2, seed=seed, variant=variant,
                 deciders=[RandomDecider(seed), ReferencePolicy()])
        b = Game(pack(), map_id, players=2, seed=seed, variant=variant,
                 deciders=[RandomDecider(seed), ReferencePolicy()])
        a.run()
        b.run()
        assert (a.state.outcome, a.state.turn, a.state.choices) == (b.state.outcome, b.state.turn, b.state.choices)
        assert not b.state.decks and not b.state.in_play


def test_the_battle_cry_is_the_base_one_unless_badges_are_on() -> None:
    plain = Game(pack(), "exercise-tiger", seed=0, deciders=ReferencePolicy())
    with_badges = Game(pack(), "exercise-tiger", seed=0, options=("badges",), deciders=ReferencePolicy())
    assert plain.rwb_sources["battle-cry"].owner == "rwb:battle-cry"
    assert with_badges.rwb_sources["battle-cry"].owner == "rwb:battle-cry@badges"
    assert "rwb:battle-cry@badges" not in {s.owner for s in plain.rwb_sources.values()}
    assert [s.owner for s in plain.global_sources] == [s.owner for s in Game(
        base(), "exercise-tiger", seed=0, deciders=ReferencePolicy()).global_sources]


# ---------------------------------------------------------- general material
class _Recorder:
    """Answers every question with its first option, and keeps the questions."""

    def __init__(self) -> None:
        self.asked: list[tuple[str, ...]] = []

    def decide(self, game: GameView, decision: Decision) -> tuple[int, ...]:
        self.asked.append(tuple(decision.options))
        return (0,)


@pytest.mark.parametrize("on", [False, True])
def test_the_general_material_joins_the_decks_only_with_its_optional_rule(on: bool) -> None:
    """The two Vehicles and four Awards of the general material are 'only-in: [atlantikwall-material]': with
    the pack loaded and the rule off, the Award deck and the Legion of Merit's Vehicles are the base game's."""
    options = ("atlantikwall-material",) if on else ()
    rec = _Recorder()
    g = Game(pack(), "exercise-tiger", players=1, seed=2, variant="advanced-training", options=options,
             deciders=[rec])
    assert (set(g.state.award_deck) >= GENERAL_AWARDS) is on
    assert not on or not set(g.state.award_deck) - GENERAL_AWARDS - {a.id for a in base().cards_of("award")}
    unit = g.state.units[0]
    unit.awards.append("legion-of-merit")
    src = pack().effects["legion-of-merit"]
    g.perform_use(unit, src, 0, src.compiled.uses[0], "legion-of-merit")
    offered = {label for labels in rec.asked for label in labels}
    names = {pack().cards[v].name for v in GENERAL_VEHICLES}
    assert (names <= offered) is on, offered
    assert {"Jeep", "Tank"} <= offered


def test_exercise_fabius_is_the_packs_reconstructed_map_and_easier_than_tiger() -> None:
    c = pack()
    bm = c.maps["exercise-fabius"]
    assert c.owner_pack["map:exercise-fabius"] == "atlantikwall"
    assert bm.provenance == "reconstructed" and "everything on it is ours" in bm.note
    assert bm.players == (1, 4)
    assert "exercise-fabius" not in base().maps
    tiger = c.maps["exercise-tiger"]
    assert max(s.defense[0] for s in bm.sectors) < max(s.defense[0] for s in tiger.sectors)
    for players in (1, 2, 3, 4):
        won = {}
        for map_id, variant in (("exercise-fabius", None), ("exercise-tiger", "advanced-training")):
            games = [Game(c, map_id, players=players, seed=seed, variant=variant, deciders=ReferencePolicy())
                     for seed in range(40)]
            for g in games:
                g.run()
            won[map_id] = sum(g.state.outcome == "won" for g in games)
        assert won["exercise-fabius"] > won["exercise-tiger"], (players, won)


# ----------------------------------------------------------- no special case
def test_no_card_kind_or_option_of_the_pack_is_named_in_the_interpreter() -> None:
    """The engine grew general mechanisms only: no id of the pack appears in its code."""
    c = pack()
    ids = {cid for cid in c.cards if c.owner_pack.get(f"card:{cid}") == "atlantikwall"}
    ids |= {k.id for k in c.kinds.kinds} | set(MODULE_OPTIONS) | {"atlantikwall", "weather", "german-player"}
    ids |= {d.id for d in c.sides.sides} | {r.id for r in c.rwb.rwb if r.side}
    root = Path(inspect.getfile(decks_mod)).parents[1]  # the whole interpreter package, every layer
    for path in sorted(root.rglob("*.py")):
        if path.relative_to(root).parts[0] == "policies":
            continue  # the heuristic policy still names cards it knows (to be valued from their effects instead)
        text = path.read_text(encoding="utf-8")
        for ident in ids:
            assert not re.search(rf"['\"]{re.escape(ident)}['\"]", text), f"'{ident}' is named in {path}"


# ----------------------------------------------------------- the decks in play
def test_the_battle_condition_is_drawn_first_thing_in_each_turn() -> None:
    g = Game(pack(), "exercise-tiger", seed=4, variant="advanced-training", options=("battle-conditions",),
             deciders=ReferencePolicy(), trace=True)
    assert len(g.state.decks["battle-condition"]) == sum(1 for k in pack().card_kinds.values()
                                                         if k == "battle-condition")
    for _ in range(3):
        if g.state.outcome is not None:
            break
        before = len(g.state.log)
        g.run_turn()
        events = g.state.log[before:]
        first = next(e for e in events if e.kind not in {"set-up", "discard", "reshuffle"})
        assert first.kind == "draw" and first.phase == "turn-start", first
        assert len(g.state.in_play) == 1


def test_the_deck_is_reshuffled_when_it_runs_out() -> None:
    g = Game(pack(), "exercise-tiger", seed=2, variant="advanced-training", options=("battle-conditions",),
             deciders=ReferencePolicy())
    n = len(g.state.decks["battle-condition"])
    seen = []
    for _ in range(n + 3):
        decks_mod.draw_for_turn(g, "battle-condition")
        seen.append(g.state.in_play[0])
    assert sorted(seen[:n]) == sorted(set(seen[:n]))  # each card once before the reshuffle
    total = len(g.state.decks["battle-condition"]) + len(g.state.discards["battle-condition"]) + len(g.state.in_play)
    assert total == n


def test_chaotic_resupply_offers_only_the_top_of_two_piles() -> None:
    c = pack()
    g = Game(c, "omaha-beach", seed=5, options=("chaotic-resupply",), deciders=ReferencePolicy())
    s = g.state
    items = [p for p in s.pool if c.card_kinds[p] == "item"]
    assert len(s.piles) == 2 and abs(len(s.piles[0]) - len(s.piles[1])) <= 1
    assert sorted(items) == sorted(p[0] for p in s.piles)
    everything = {cid for cid, card in c.cards.items() if c.card_kinds[cid] == "item" and not g._unavailable(cid)}
    placed = set(s.placed)
    assert {x for p in s.piles for x in p} == everything - placed  # every Regular and Special Item
    unit = s.units[0]
    taken = s.piles[0][0]
    under = s.piles[0][1]
    g.gain_card(unit, taken)
    assert taken not in s.pool and under in s.pool and s.piles[0][0] == under
    while s.piles and len(s.piles) == 2:  # empty one pile: only the other stays in play
        g.gain_card(unit, s.piles[0][0])
    assert len(s.piles) == 1 and [p for p in s.pool if c.card_kinds[p] == "item"] == [s.piles[0][0]]


def test_random_games_with_every_module_option_stay_legal() -> None:
    for map_id in ("exercise-tiger", "omaha-beach", "pointe-du-hoc", "gold-beach"):
        for seed in range(3):
            g = Game(pack(), map_id, players=3 if map_id != "pointe-du-hoc" else 2, seed=seed,
                     options=(*MODULE_OPTIONS, "victory-points"),
                     deciders=[RandomDecider(seed), RandomDecider(seed + 1), RandomDecider(seed + 2)])
            g.run()
            s = g.state
            assert s.outcome in {"won", "lost"}
            assert len(s.in_play) <= 2
            for kind in ("battle-condition", "badge"):
                held = [c for u in s.units for c in u.cards if pack().card_kinds[c] == kind]
                count = len(s.decks[kind]) + len(s.discards[kind]) + len(held)
                count += len([c for c in s.in_play if pack().card_kinds[c] == kind])
                assert count == sum(1 for k in pack().card_kinds.values() if k == kind), (map_id, seed, kind)


def test_a_game_with_the_modules_saves_and_replays() -> None:
    def play() -> Game:
        g = Game(pack(), "exercise-tiger", players=2, seed=11, variant="advanced-training",
                 options=("battle-conditions", "badges", "badge-of-courage"),
                 deciders=[RandomDecider(3), RandomDecider(4)])
        g.run()
        return g

    assert digest(play().state) == digest(play().state)


# ---------------------------------------------------------------- commands
def test_validate_list_conflicts_and_simulate() -> None:
    code, out = dday("validate")
    assert code == 0, out
    assert "warning" not in out.lower(), out
    code, out = dday("list", "--pack", "atlantikwall")
    assert code == 0, out
    for name in ("crossfire", "military-aide", "battle-conditions", "badges", "chaotic-resupply", "exercise-fabius",
                 "atlantikwall-material", *sorted(GENERAL_VEHICLES | GENERAL_AWARDS)):
        assert name in out
    code, out = dday("list", "--pack", "atlantikwall", "--format", "json")
    rows = json.loads(out)
    assert {r["kind"] for r in rows} >= {"battle-condition", "badge"}
    code, out = dday("conflicts", "--pack", "atlantikwall")
    assert code == 0, out
    code, out = dday("simulate", "exercise-tiger", "--variant", "advanced-training", "--pack", "atlantikwall",
                     "--option", "battle-conditions", "--option", "badges", "--games", "60", "--quiet", "--format",
                     "json")
    assert code == 0, out
    assert json.loads(out)["games"] == 60
    code, out = dday("simulate", "exercise-fabius", "--pack", "atlantikwall", "--option", "atlantikwall-material",
                     "--option", "battle-conditions", "--players", "3", "--games", "20", "--quiet", "--format", "json")
    assert code == 0, out
    assert json.loads(out)["games"] == 20


def test_an_option_of_the_pack_needs_the_pack() -> None:
    code, out = dday("simulate", "exercise-tiger", "--option", "battle-conditions", "--games", "1", "--quiet")
    assert code == 2 and "no optional rule 'battle-conditions'" in out


def test_the_readme_names_every_optional_rule() -> None:
    text = (PACK / "README.md").read_text(encoding="utf-8")
    for oid in MODULE_OPTIONS:
        assert f"`{oid}`" in text, oid


def test_explain_loads_the_packs_a_scenario_names() -> None:
    scenario = Path(__file__).resolve().parent / "scenarios" / "atlantikwall" / "bc-overrides-locked-dice.yaml"
    code, out = dday("explain", str(scenario), "locked-dice", "for", "u1")
    assert code == 0, out
    assert "locked-dice for u1 = 3" in out
    assert re.search(r"sectors\s+Exercise Tiger, Sector 7: set 0: 2 -> 0\s+\[overruled by Clear Skies", out), out
