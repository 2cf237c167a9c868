"""The heuristic policy: always legal, deterministic, and better than the reference policy.

The engine checks every answer a decider gives (an illegal one is a RuleError), so playing whole games
on every map with the heuristic is the legality test. Its strength is measured against the reference
policy of DESIGN.md section 10 on the same seeds.
"""

from __future__ import annotations

import functools
import math

import pytest

from ddaydice.dsl import ast as dsl_ast
from ddaydice.dsl.loader import Content, load
from ddaydice.interpreter.core.api import GameAPI
from ddaydice.interpreter.core.decisions import Decision
from ddaydice.interpreter.core.state import digest
from ddaydice.interpreter.game import Game
from ddaydice.interpreter.policies.deciders import ReferencePolicy
from ddaydice.interpreter.policies.heuristic import HeuristicPolicy
from ddaydice.interpreter.policies.heuristic.uses import deadly_turn
from ddaydice.interpreter.policies.heuristic.values import card_worth
from ddaydice.interpreter.policies.registry import make_policy
from ddaydice.interpreter.tools.simulate import Spec, game_seed, run, wilson


@functools.cache
def content() -> Content:
    loaded, diags = load()
    assert loaded is not None, diags
    return loaded


def prints_only(map_id: str, variant: str | None) -> bool:
    """A variant that only prints other DEFs (Rising DEF): it plays the rules of the map as listed, so its fewest
    players and a few games are enough to check the answers where several DEFs are read."""
    return any(v.id == variant and v.sectors and not v.ignore for v in content().maps[map_id].variants)


def configs() -> list[tuple[str, str | None, int]]:
    out: list[tuple[str, str | None, int]] = []
    for map_id in sorted(content().maps):
        bmap = content().maps[map_id]
        lo, hi = bmap.players
        for variant in (None, *(v.id for v in bmap.variants)):
            counts = (max(lo, 1),) if prints_only(map_id, variant) else (1, 2, 3)
            out += [(map_id, variant, players) for players in counts if lo <= players <= hi]
    return out


def play(map_id: str, variant: str | None, players: int, seed: int) -> Game:
    g = Game(content(), map_id, players=players, seed=seed, variant=variant,
             deciders=[make_policy("heuristic", seed + k) for k in range(players)])
    g.run()
    return g


@pytest.mark.parametrize(("map_id", "variant", "players"), configs())
def test_heuristic_answers_are_always_legal(map_id: str, variant: str | None, players: int) -> None:
    # Every answer goes through the engine's check; an illegal one raises. Games must also end.
    games = 3 if prints_only(map_id, variant) else 10 if players < 3 else 4
    for i in range(games):
        g = play(map_id, variant, players, game_seed(99, i))
        assert g.state.outcome in {"won", "lost"}


def test_heuristic_is_deterministic() -> None:
    for map_id, variant, players in (("exercise-tiger", "advanced-training", 2), ("pointe-du-hoc", None, 1),
                                     ("operation-deadstick", None, 2), ("gold-beach", None, 2)):
        a = play(map_id, variant, players, 12345)
        b = play(map_id, variant, players, 12345)
        assert digest(a.state) == digest(b.state), map_id
        assert a.state.choices == b.state.choices


def test_a_policy_reused_for_a_second_game_plays_it_as_a_fresh_one() -> None:
    # Its caches are per game: the second game must be the same as with a brand-new policy.
    reused = HeuristicPolicy()
    Game(content(), "juno-beach", seed=1, deciders=[reused]).run()
    again = Game(content(), "juno-beach", seed=2, deciders=[reused])
    again.run()
    fresh = Game(content(), "juno-beach", seed=2, deciders=[HeuristicPolicy()])
    fresh.run()
    assert digest(again.state) == digest(fresh.state)


def test_a_policy_reused_for_a_second_game_with_the_german_plays_him_as_a_fresh_one() -> None:
    # The German's own policy (side_policy.py) remembers which uses it played this turn and which Specialists the
    # rules want: for a game, not for the policy's life. (It kept them: a second game on Exercise Fabius, played
    # by a reused policy, differed from a fresh one's every time.)
    for seed in (1, 2):
        reused = HeuristicPolicy()
        Game(content_with_packs(), "exercise-fabius", seed=seed, options=("german-player",),
             deciders=[reused, reused]).run()
        again = Game(content_with_packs(), "exercise-fabius", seed=seed + 100, options=("german-player",),
                     deciders=[reused, reused])
        again.run()
        fresh = Game(content_with_packs(), "exercise-fabius", seed=seed + 100, options=("german-player",),
                     deciders=[HeuristicPolicy(), HeuristicPolicy()])
        fresh.run()
        assert digest(again.state) == digest(fresh.state)
        assert again.state.choices == fresh.state.choices


def test_heuristic_draws_no_random_numbers() -> None:
    # The game's generator is the only source of randomness: the heuristic's choices leave its state
    # exactly where the same rolls would (checked by replaying the recorded choices).
    from ddaydice.interpreter.policies.deciders import Scripted

    g = play("utah-beach", None, 2, 4242)
    replay = Game(content(), "utah-beach", players=2, seed=4242,
                  deciders=Scripted([list(c) for c in g.state.choices]))
    replay.run()
    assert digest(replay.state) == digest(g.state)


def test_unknown_decisions_fall_back_to_a_legal_answer() -> None:
    g = Game(content(), "exercise-tiger", seed=1, deciders=[HeuristicPolicy()])
    d = Decision("something-new", "u1", "a question no policy has seen", ("a", "b"), ("a", "b"))
    answer = HeuristicPolicy().decide(g, d)
    assert len(answer) == 1 and 0 <= answer[0] < 2


def test_heuristic_beats_the_reference_on_advanced_training() -> None:
    games = 80
    spec = Spec("exercise-tiger", "advanced-training", 1, "heuristic", 2024)
    heuristic, _ = run(content(), spec, games)
    reference, _ = run(content(), Spec("exercise-tiger", "advanced-training", 1, "reference", 2024), games)
    h = sum(r.outcome == "won" for r in heuristic)
    r = sum(r.outcome == "won" for r in reference)
    # Two-proportion z-test, one-sided, at far beyond the 0.1% level; the 95% intervals do not even touch.
    p = (h + r) / (2 * games)
    z = (h - r) / games / math.sqrt(2 * p * (1 - p) / games)
    assert z > 3.5, (h, r, z)
    assert wilson(h, games)[0] > wilson(r, games)[1], (h, r)


def test_heuristic_wins_where_the_reference_cannot() -> None:
    # Merville's Bunker is entered only with a Battle Cry, which the reference policy never takes; Gold
    # Beach's two Bunkers need Units to split. The heuristic wins both.
    for map_id, players in (("merville-battery", 1), ("gold-beach", 2)):
        heuristic, _ = run(content(), Spec(map_id, None, players, "heuristic", 7), 20)
        reference, _ = run(content(), Spec(map_id, None, players, "reference", 7), 20)
        assert sum(r.outcome == "won" for r in reference) == 0, map_id
        assert sum(r.outcome == "won" for r in heuristic) >= 15, map_id


@functools.cache
def content_with_packs() -> Content:
    loaded, diags = load(packs=["atlantikwall", "house-awards"])
    assert loaded is not None, diags
    return loaded


def test_cards_the_heuristic_has_no_rule_for_are_read_from_their_effect() -> None:
    """An expansion's or a modder's card is played by what its use does, never ignored for want of a rule."""
    from ddaydice.interpreter.policies.heuristic import generic_use

    g = Game(content_with_packs(), "exercise-tiger", seed=1, variant="advanced-training", options=["badges"],
             deciders=HeuristicPolicy())
    kinds = {cid: generic_use(g, cid) for cid in ("channel-crossing-clasp", "star-of-france-and-germany",
                                                   "hedgerow-star", "seawall-medal", "field-medical-badge",
                                                   "parachutist-wings", "ranger-tab", "combat-photographer",
                                                   "dispatch-case", "military-aide")}
    assert kinds == {"channel-crossing-clasp": "gain", "star-of-france-and-germany": "gain", "hedgerow-star": "gain",
                     "seawall-medal": "defence", "field-medical-badge": "defence", "parachutist-wings": "cost",
                     "ranger-tab": "mines", "combat-photographer": "", "dispatch-case": "", "military-aide": "gain"}


def test_the_heuristic_plays_a_gain_at_once_and_keeps_a_defence_for_a_turn_that_needs_it() -> None:
    pol = HeuristicPolicy()
    g = Game(content_with_packs(), "exercise-tiger", seed=1, variant="advanced-training", deciders=pol)
    u = g.state.units[0]
    u.items += ["channel-crossing-clasp", "seawall-medal"]
    assert pol.wants_use(g, u, "channel-crossing-clasp", "after-final-tally")
    # On the beach with 20 Soldiers, nothing to advance to that it can pay for: no turn worth a DEF -5.
    u.courage = 0
    assert not deadly_turn(pol.memory, g, u)
    assert not pol.wants_use(g, u, "seawall-medal", "after-final-tally")
    u.soldiers = 1  # the same Sector's losses would now wipe it out
    assert deadly_turn(pol.memory, g, u)
    assert pol.wants_use(g, u, "seawall-medal", "after-final-tally")


def test_a_card_drawn_at_random_is_worth_the_mean_of_its_deck() -> None:
    pol = HeuristicPolicy()
    g = Game(content_with_packs(), "omaha-beach", players=2, seed=0, options=["badges"], deciders=pol)
    u = g.state.units[0]
    badges = [cid for cid, kind in g.content.card_kinds.items() if kind == "badge"]
    mean = sum(card_worth(pol.memory, g, u, cid) for cid in badges) / len(badges)
    assert pol.option_value(g, u, _option("draw 1 badge")) == pytest.approx(mean) and mean > 0
    assert card_worth(pol.memory, g, u, "combat-infantryman-badge") == pytest.approx(2.0)  # gain 2 Soldiers
    # Against 'gain 3 Soldiers' the reconstructed deck is worth less: the heuristic takes the Soldiers.
    assert mean < pol.option_value(g, u, _option("gain 3 soldiers"))


def _option(text: str) -> dsl_ast.Option:
    """The first option of the use 'use: TEXT' (an option of an 'or', as the heuristic is asked to value it)."""
    from ddaydice.dsl.parser import SourceMap, parse_effect

    tree, diags = parse_effect(f"use: {text}", SourceMap("cards/test.yaml"))
    assert tree is not None and not diags, diags
    body = tree.clauses[0].body
    assert isinstance(body, dsl_ast.Use)
    return body.actions[0].options[0]


def test_an_item_the_heuristic_has_no_value_for_is_valued_by_its_effect() -> None:
    """A modder's Item or an expansion's Vehicle is worth what its effect does, so the heuristic finds it."""
    pol = HeuristicPolicy()
    g = Game(content_with_packs(), "exercise-tiger", seed=1, variant="advanced-training",
             options=["atlantikwall-material"], deciders=pol)
    u = g.state.units[0]
    # The Tractor: 'for units here: advance-cost -1', worth a Courage saved on every Advance ahead.
    adv, _turns = pol.remaining(g, u)
    assert adv > 0
    assert pol.item_value(g, u, "tractor") == pytest.approx(0.6 * adv)
    # An Award-like use: 'gain 8 soldiers' (Channel Crossing Clasp) is worth its 8 Soldiers.
    assert pol.item_value(g, u, "channel-crossing-clasp") == pytest.approx(8.0)
    # A printed Item is read the same way: 'gain 5 soldiers'.
    assert pol.item_value(g, u, "field-radio") == pytest.approx(5.0)


class _Duck:
    """A decider of one's own with a ``decide_keys`` method, not derived from KeysDecider."""

    def __init__(self) -> None:
        self.reference = ReferencePolicy()
        self.from_keys = 0

    def decide(self, game: GameAPI, decision: Decision) -> tuple[int, ...]:
        return self.reference.decide(game, decision)

    def decide_keys(self, game: GameAPI, unit: str, kind: str, keys: tuple[object, ...], min_picks: int
                    ) -> tuple[int, ...]:
        self.from_keys += 1
        return self.reference.decide_keys(game, unit, kind, keys, min_picks)


def test_a_decider_with_a_decide_keys_method_of_its_own_answers_from_keys() -> None:
    # The engine's fast protocol takes any decider with the method (KeysMethod), as it takes the reference policy,
    # a KeysDecider: both play the same game.
    duck = _Duck()
    games = [Game(content(), "exercise-tiger", variant="practice-run", seed=seed, deciders=decider)
             for seed in (3, 4) for decider in (duck, ReferencePolicy())]
    for game in games:
        game.run()
    assert duck.from_keys > 20
    for mine, reference in zip(games[::2], games[1::2], strict=True):
        assert digest(mine.state) == digest(reference.state)
        assert mine.state.choices == reference.state.choices


def test_every_choose_question_has_a_topic() -> None:
    """Every 'choose' question the engine asks says what it is about (Decision.topic): the policies read the topic,
    never the prompt, which begins with a card's name (a modder's 'Re-roll Which Die' Badge must not be read as a
    re-roll). Checked in the source: each ask_one(..., "choose", ...) call passes topic=."""
    import ast as pyast
    from pathlib import Path

    missing: list[str] = []
    root = Path(__file__).parent.parent / "interpreter"
    for path in sorted(root.rglob("*.py")):
        for node in pyast.walk(pyast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, pyast.Call) and isinstance(node.func, pyast.Attribute)
                    and node.func.attr == "ask_one" and len(node.args) > 1
                    and isinstance(node.args[1], pyast.Constant) and node.args[1].value == "choose"
                    and not any(k.arg == "topic" for k in node.keywords)):
                missing.append(f"{path.relative_to(root)}:{node.lineno}")
    assert missing == []


def test_the_heuristic_answers_by_the_questions_topic_not_its_prompt() -> None:
    """A question whose prompt (a card's name, then the question) reads like another is answered by its topic; the
    colour of a result to add comes from the question's detail."""
    pol = HeuristicPolicy()
    g = Game(content(), "omaha-beach", players=2, seed=1, deciders=[pol, pol])
    u1, u2 = g.state.units
    u2.soldiers = 1  # the neediest comrade
    prompt = "Re-Roll Which Die: which other Unit?"  # a card named 'Re-Roll Which Die'
    d = Decision("choose", u1.id, prompt, (u1.name, u2.name), (u1.id, u2.id), topic="other-unit")
    assert pol.decide(g, d) == (1,)
    faces = tuple(f.id for f in content().dice.faces)
    white = Decision("choose", u1.id, "Orders: which result to add?", faces, faces, topic="add-result", detail="white")
    plain = Decision("choose", u1.id, "White Flag: which result to add?", faces, faces, topic="add-result")
    from ddaydice.interpreter.policies.heuristic.dice import best_add
    assert faces[pol.decide(g, white)[0]] == best_add(pol.memory, g, u1, "white")[0]
    assert faces[pol.decide(g, plain)[0]] == best_add(pol.memory, g, u1, None)[0]


def test_a_casualty_is_chosen_by_the_casualties_left_not_the_units_number() -> None:
    """The casualties left to take are the question's detail: a Specialist who stands for many Soldiers (the
    Paratrooper, 'soldier-value = 6', on Merville Battery) is the better loss when many are left, not when one is.
    (The prompt, 'Unit 2 must lose 6 more', was read for its first number: the Unit's.)"""
    pol = HeuristicPolicy()
    g = Game(content(), "merville-battery", players=2, seed=1, deciders=[pol, pol])
    u = g.state.units[1]
    u.soldiers, u.specialists = 0, ["paratrooper", "point-man"]
    g.sources_changed()
    keys = (("specialist", "paratrooper"), ("specialist", "point-man"))

    def pick(left: int) -> str:
        d = Decision("casualty", u.id, f"{u.name} must lose {left} more (combat)", (), keys,
                     labeler=str, detail=left)
        return str(keys[pol.decide(g, d)[0]][1])

    assert pick(6) == "paratrooper"
    assert pick(1) == "point-man"


def test_the_plan_is_worked_out_again_when_this_turns_grants_change() -> None:
    """The plan of a Unit is shared by the decisions (and the comrades) that see the same game; this turn's grants are
    part of what it sees by what they are, not by how many there are (one grant ending as another starts kept the
    old plan)."""
    from ddaydice.interpreter.core.state import Grant
    from ddaydice.interpreter.policies.heuristic.views import view

    g = Game(content(), "omaha-beach", seed=3, deciders=[ReferencePolicy()])
    unit, mem = g.state.units[0], HeuristicPolicy().memory

    def grant(query: str, value: int) -> Grant:
        return Grant(owner="test", clause=0, tier="items", query=query, op="+", value=value, args=(),
                     text=f"{query} {value:+d} this turn", expires=f"turn:{g.state.turn}", unit=unit.id)

    g.state.grants.append(grant("def", -3))
    first = view(mem, g, unit)
    g.state.choices.append([0])  # (a later decision: the same plan is found again)
    assert view(mem, g, unit) is first
    g.state.grants[:] = [grant("advance-cost", -1)]
    g.state.choices.append([0])
    assert view(mem, g, unit) is not first
