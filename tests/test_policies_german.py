"""The heuristic against the German player (Atlantikwall, module 1).

Time is on the German's side: a Unit that farms Soldiers in the lower Sectors while he grows each turn loses
(before the planner counted him, the heuristic won 34% of Exercise Fabius games with the German on, the
reference policy 64%). These games are seeded; a regression shows as a lost margin.
"""

from __future__ import annotations

import functools
from pathlib import Path

from pack_kit import card, make_pack

from ddaydice.dsl.loader import Content, load
from ddaydice.interpreter.game import Game
from ddaydice.interpreter.policies.heuristic import HeuristicPolicy, against_foe, foe_pressure
from ddaydice.interpreter.policies.registry import make_policy
from ddaydice.interpreter.policies.side_policy import SidePolicy
from ddaydice.interpreter.tools.simulate import game_seed

GERMAN = ("german-player",)


@functools.cache
def content() -> Content:
    loaded, diags = load(packs=["atlantikwall"])
    assert loaded is not None, diags
    return loaded


def wins(map_id: str, allied: str, german: str, games: int, variant: str | None = None) -> int:
    won = 0
    for i in range(games):
        seed = game_seed(7, i)
        g = Game(content(), map_id, players=1, seed=seed, variant=variant, options=GERMAN,
                 deciders=[make_policy(allied, seed), make_policy(german, seed + 1)])
        won += g.run() == "won"
    return won


def test_heuristic_beats_the_reference_policy_with_the_german_on() -> None:
    # As `dday simulate --policy P` plays them: the same policy for the Units and the German.
    heuristic = wins("exercise-fabius", "heuristic", "heuristic", 60)
    reference = wins("exercise-fabius", "reference", "reference", 60)
    assert heuristic >= 32, heuristic  # 53% or more (it was 34% when it lingered in the lower Sectors)
    assert heuristic + 6 >= reference, (heuristic, reference)


def test_against_the_same_german_the_heuristic_is_far_better_than_the_reference_policy() -> None:
    heuristic = wins("exercise-fabius", "heuristic", "heuristic", 40)
    reference = wins("exercise-fabius", "reference", "heuristic", 40)
    assert heuristic >= reference + 12, (heuristic, reference)


def test_the_plan_reads_what_hurts_each_side_from_the_cards() -> None:
    g = Game(content(), "exercise-fabius", players=1, seed=1, options=GERMAN, deciders=[HeuristicPolicy()])
    cards = content().cards
    kinds = content().card_kinds
    # The German's cards in play that take from the Units every turn (Soldiers, DEF, MGF dice, Courage).
    pressure = {c: foe_pressure(g, c) for c in cards if kinds.get(c) == "german-specialist"}
    assert any(p[0] > 0 for p in pressure.values())
    assert any(p[1] > 0 for p in pressure.values())
    # The Units' cards written 'to the german' are worth something; the base game's are not.
    against = {c: against_foe(g, c) for c in cards if kinds.get(c) in {"specialist", "item"}}
    assert sum(1 for v in against.values() if any(v)) >= 5
    assert not any(v for c, v in against.items() if cards[c].provenance != "reconstructed" and any(v))


def test_the_german_never_gives_himself_a_skull() -> None:
    from ddaydice.interpreter.core.decisions import Decision

    g = Game(content(), "exercise-fabius", players=1, seed=1, options=GERMAN, deciders=[HeuristicPolicy()])
    g.run_turn()
    german = g.state.sides[0]
    faces = ("skull", "star", "one-soldier", "two-soldiers", "courage", "tool")
    d = Decision("choose", german.id, "Discipline: which result to add?", faces, keys=faces)
    assert faces[SidePolicy().decide(g, d)[0]] == "two-soldiers"


def test_what_a_modders_cards_take_is_read_from_their_compiled_effects(tmp_path: Path) -> None:
    """The pressure of the German's cards and what a Unit's card takes from him are read from the compiled effect,
    not its wording (clauses joined by ';', a recipient before the duration, spaces): several actions in one use
    are all counted, an 'if option' use counts only with that option
    on and an 'unless option' one only with it off, and what is given to the German is worth nothing in a game
    without him."""
    german = [card("raider", "use once per turn during purchase if option solitaire-atlantikwall: "
                             "lose 2 soldiers to all units, lose 1 courage to all units", grade=None),
              card("spotter", "use once per turn before mgf unless option solitaire-atlantikwall: "
                              "mgf-dice +2 to another unit this turn, def  +1 this turn to another unit", grade=None),
              card("shouter", "forbid stay; use before mgf: mgf-dice +2 this turn to another unit; "
                              "use once per turn during purchase: lose 1 soldiers to all units", grade=None)]
    bribe = card("bribe", "use: lose 2 stars to the german, sacrifice 1 specialist to the german")
    pack = make_pack(tmp_path, "raiders", {"german.yaml": "kind: german-specialist\ncards:\n" + "".join(german),
                                           "items.yaml": "kind: item\ncards:\n" + bribe})
    loaded, diags = load(packs=["atlantikwall"], extra=[pack])
    assert loaded is not None, diags

    def game(*options: str) -> Game:
        return Game(loaded, "exercise-fabius", players=1, seed=1, options=options, deciders=[HeuristicPolicy()])

    solo = game("german-player", "solitaire-atlantikwall")
    versus = game("german-player")
    assert foe_pressure(solo, "raider") == (2.0, 1.0, False)
    assert foe_pressure(versus, "raider") == (0.0, 0.0, False)
    assert foe_pressure(solo, "spotter") == (0.0, 0.0, False)
    assert foe_pressure(versus, "spotter") == (2 * 3.5 + 1.0, 0.0, True)  # MGF dice at their mean, 3.5 each
    assert foe_pressure(versus, "shouter") == (1.0, 0.0, False)  # (the MGF dice not once per turn: not steady)
    assert against_foe(versus, "bribe") == (2 * 0.6 + 3.0, 0.0)  # Stars at 0.6, a Specialist at 3
    assert against_foe(game(), "bribe") == (0.0, 0.0)


def test_the_german_gives_up_first_a_card_that_comes_back_read_from_its_effect(tmp_path: Path) -> None:
    """A casualty the German must take falls on a Specialist who goes back to his Reserve when lost: a card whose own
    effect allows 'back-to-pool' with no condition, however it is written; one allowed it only under a condition is
    worth its price (it was found by the line 'allow back-to-pool' of the card's text)."""
    from ddaydice.interpreter.core.decisions import Decision

    german = [card("conscript", "allow  back-to-pool", cost=4, grade=None),  # (two spaces: the same effect)
              card("volunteer", "allow back-to-pool if option solitaire-atlantikwall", cost=2, grade=None),
              card("sergeant", "def +1", cost=3, grade=None)]
    pack = make_pack(tmp_path, "reserve", {"german.yaml": "kind: german-specialist\ncards:\n" + "".join(german)})
    loaded, diags = load(packs=["atlantikwall"], extra=[pack])
    assert loaded is not None, diags
    g = Game(loaded, "exercise-fabius", players=1, seed=1, options=GERMAN, deciders=[HeuristicPolicy()])
    him = g.state.sides[0].id
    ids = ("sergeant", "volunteer", "conscript")
    d = Decision("sacrifice", him, "Sacrifice which Specialist?", ids, keys=ids)
    assert ids[SidePolicy().decide(g, d)[0]] == "conscript"
    d = Decision("sacrifice", him, "Sacrifice which Specialist?", ids[:2], keys=ids[:2])
    assert ids[SidePolicy().decide(g, d)[0]] == "volunteer"  # the cheaper
