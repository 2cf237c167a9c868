"""The interpreter's contracts: determinism, save/load, invariants over many random games."""

from __future__ import annotations

import functools

import pytest

from ddaydice.dsl.diagnostics import RuleError
from ddaydice.dsl.loader import Content, load
from ddaydice.interpreter.core.decisions import Decision, check_answer
from ddaydice.interpreter.core.state import digest, from_json, to_json
from ddaydice.interpreter.game import _PLAN_KEYS, Game
from ddaydice.interpreter.policies.deciders import RandomDecider, ReferencePolicy, Scripted


@functools.cache
def content() -> Content:
    loaded, diags = load(packs=["house-awards"])
    assert loaded is not None, diags
    return loaded


def maps() -> list[str]:
    return sorted(content().maps)


def test_same_seed_same_game() -> None:
    a = Game(content(), "exercise-tiger", players=2, seed=7, variant="advanced-training",
             deciders=[RandomDecider(1), RandomDecider(2)], trace=True)
    b = Game(content(), "exercise-tiger", players=2, seed=7, variant="advanced-training",
             deciders=[RandomDecider(1), RandomDecider(2)], trace=True)
    a.run()
    b.run()
    assert [(e.turn, e.phase, e.unit, e.kind, e.detail) for e in a.state.log] == \
        [(e.turn, e.phase, e.unit, e.kind, e.detail) for e in b.state.log]
    assert digest(a.state) == digest(b.state)


def test_different_seed_different_game() -> None:
    digests = set()
    for seed in range(5):
        g = Game(content(), "exercise-tiger", seed=seed, variant="advanced-training", deciders=ReferencePolicy())
        g.run()
        digests.add(digest(g.state))
    assert len(digests) > 1


@pytest.mark.parametrize(("map_id", "variant", "players", "options", "packs"), [
    ("exercise-tiger", "practice-run", 1, (), ()),
    ("exercise-tiger", "advanced-training", 3, ("victory-points",), ()),
    ("omaha-beach", None, 2, ("german-player", "battle-conditions", "badges"), ("atlantikwall",)),
    ("exercise-fabius", None, 1, ("german-player",), ("atlantikwall",)),
])
def test_a_game_keeps_every_attribute_in_its_slots(map_id: str, variant: str | None, players: int,
                                                   options: tuple[str, ...], packs: tuple[str, ...]) -> None:
    """Every attribute of a game is one that core/api.py's GameAPI declares, held in a slot (Game.__slots__): one
    set outside them (a new attribute not declared there) lands in the instance's own dict, which slows every
    method look-up of the game. Declare it in GameAPI."""
    loaded, _ = load(packs=list(packs))
    assert loaded is not None
    game = Game(loaded, map_id, players=players, seed=5, variant=variant, options=options, trace=True,
                deciders=[RandomDecider(k) for k in range(players + 1)])
    game.unasked = []
    game.run()
    own = getattr(game, "__dict__", {})  # compiled (scripts/compile), a game has no instance dict at all
    assert own == {}, f"attributes outside Game.__slots__ (declare them in GameAPI): {sorted(own)}"


@pytest.mark.parametrize(("map_id", "variant", "options"), [
    ("exercise-tiger", "practice-run", ()),
    ("omaha-beach", None, ("german-player", "battle-conditions")),
])
def test_a_game_of_a_shared_plan_holds_every_value_of_it_in_its_place(map_id: str, variant: str | None,
                                                                        options: tuple[str, ...]) -> None:
    """The second game of a map shares the first's plan (Game.take_plan): each of the plan's values, stored by
    name in the order of _PLAN_KEYS, is the very object the first game worked out, under the same name (an int,
    an equal one)."""
    loaded, _ = load(packs=["atlantikwall"])
    assert loaded is not None
    first, second = (Game(loaded, map_id, players=2, seed=seed, variant=variant, options=options,
                          deciders=[ReferencePolicy()] * 3) for seed in (1, 2))
    assert len(first.plan_values()) == len(_PLAN_KEYS)
    for name in _PLAN_KEYS:
        mine, theirs = getattr(second, name), getattr(first, name)
        # (a compiled game keeps an int unboxed: read, it is an equal int, not the same object)
        assert mine is theirs or (type(mine) is int and type(theirs) is int and mine == theirs), name
    second.run()  # and it plays


def test_tracing_changes_nothing() -> None:
    a = Game(content(), "exercise-tiger", seed=3, deciders=ReferencePolicy(), trace=True)
    b = Game(content(), "exercise-tiger", seed=3, deciders=ReferencePolicy(), trace=False)
    a.run()
    b.run()
    assert a.state.log and not b.state.log
    assert digest(a.state) == digest(b.state)


def test_save_and_load_lose_nothing() -> None:
    g = Game(content(), "exercise-tiger", players=3, seed=11, variant="advanced-training",
             deciders=[RandomDecider(k) for k in range(3)], trace=True)
    for _ in range(4):
        g.run_turn()
    text = to_json(g.state)
    back = from_json(text)
    assert to_json(back) == text
    assert digest(back) == digest(g.state)
    # The restored state plays on exactly like the original, random generator included.
    g2 = Game(content(), "exercise-tiger", players=3, seed=11, variant="advanced-training",
              deciders=[RandomDecider(k) for k in range(3)], state=back)
    for d1, d2 in zip(g.deciders, g2.deciders, strict=True):
        assert isinstance(d1, RandomDecider) and isinstance(d2, RandomDecider)
        d2.rng.setstate(d1.rng.getstate())
    g.run()
    g2.run()
    assert digest(g.state) == digest(g2.state)


def test_an_illegal_answer_names_the_legal_ones() -> None:
    d = Decision("move", "u1", "move?", ("stay", "advance to Sector 2"))
    with pytest.raises(RuleError, match=r"0: stay; 1: advance to Sector 2"):
        check_answer(d, (5,))
    game = Game(content(), "exercise-tiger", variant="practice-run", deciders=ReferencePolicy())
    with pytest.raises(RuleError, match="not an option"):
        Scripted(["retreat"]).decide(game, d)


def test_scripted_answers_by_label() -> None:
    d = Decision("move", "u1", "move?", ("stay", "advance to Sector 2"))
    game = Game(content(), "exercise-tiger", variant="practice-run", deciders=ReferencePolicy())
    assert Scripted(["advance"]).decide(game, d) == (1,)


@pytest.mark.parametrize("map_id", maps())
def test_a_game_with_the_reference_policy_finishes_on_every_map(map_id: str) -> None:
    bm = content().maps[map_id]
    players = max(1, bm.players[0])
    g = Game(content(), map_id, players=players, seed=1, deciders=ReferencePolicy())
    assert g.run() in {"won", "lost"}
    assert g.state.outcome is not None


def _check_invariants(g: Game) -> None:
    s = g.state
    for u in s.units:
        for attr in ("soldiers", "stars", "courage", "item_points"):
            assert getattr(u, attr) >= 0, (attr, u)
        assert u.sector in g.sectors
        assert len(set(u.visited)) == len(u.visited), u.visited
        assert u.sector in u.visited
        assert not set(u.specialists) & set(u.dead)
        if u.status == "active":
            assert g.soldier_count(u) > 0 or s.outcome is not None


@pytest.mark.parametrize("map_id", maps())
def test_invariants_hold_in_random_games(map_id: str) -> None:
    """Thousands of seeded random games: no negative resource, no revisit, Soldiers change only by logged
    events, every game ends."""
    bm = content().maps[map_id]
    games = 150 if map_id != "exercise-tiger" else 1000
    for seed in range(games):
        players = bm.players[0] + seed % (bm.players[1] - bm.players[0] + 1)
        variant = None
        if bm.variants:
            variant = bm.variants[seed % len(bm.variants)].id
        g = Game(content(), map_id, players=players, seed=seed, variant=variant,
                 deciders=[RandomDecider(seed * 10 + k) for k in range(players)], trace=seed % 25 == 0)
        turns = 0
        while g.state.outcome is None:
            before = {u.id: u.soldiers for u in g.state.units}
            logged = len(g.state.log)
            g.run_turn()
            turns += 1
            _check_invariants(g)
            if g.tracing:
                for u in g.state.units:
                    if u.soldiers != before[u.id]:
                        kinds = {e.kind for e in g.state.log[logged:] if e.unit == u.id}
                        assert kinds & {"collect", "gain", "casualties", "trade", "lose", "absorb"}, (u.id, kinds)
            assert turns <= 61
        assert g.state.outcome in {"won", "lost"}


def test_every_word_of_the_language_has_an_implementation() -> None:
    """The interpreter implements every predicate and action the registry offers (no drift)."""
    import ast
    from pathlib import Path

    from ddaydice.dsl import words
    from ddaydice.interpreter.effects.ctx import Ctx

    # Ctx.predicate's source, read from its file (a compiled engine's method has no source to inspect)
    path = Path(__file__).parents[1] / "interpreter" / "effects" / "questions.py"
    text = path.read_text()
    source = next(ast.get_source_segment(text, node) or "" for node in ast.walk(ast.parse(text))
                  if isinstance(node, ast.FunctionDef) and node.name == "predicate")
    for name in words.words("predicate"):
        assert f'"{name}"' in source, f"predicate '{name}' has no case in Ctx.predicate"
    for name in words.words("action"):
        method = {"rwb": "gain_rwb", "add": "add_result", "remove": "remove_result"}.get(name, name.replace("-", "_"))
        assert hasattr(Ctx, method), f"action '{name}' has no Ctx.{method}"


def test_an_overruled_limited_effect_keeps_its_use() -> None:
    """The Medic's "1 per phase" is used up only when it applied, not when a higher tier overruled it."""
    from ddaydice.interpreter.core.state import Grant

    g = Game(content(), "exercise-tiger", seed=1, variant="advanced-training", deciders=ReferencePolicy())
    u = g.state.units[0]
    u.specialists = ["medic"]
    g.state.turn, g.state.phase = 1, "combat"
    g.state.grants.append(Grant("victoria-cross", 0, "awards", "casualties", "set", 0, (), "casualties = 0",
                                "turn:1", u.id))
    assert g.query("casualties", u, base=5, consume=True)[0] == 0
    g.state.grants.clear()
    assert g.query("casualties", u, base=5, consume=True)[0] == 4  # the Medic still saves one
    assert g.query("casualties", u, base=5, consume=True)[0] == 5  # and now his save is spent


def test_the_cards_an_effect_names_are_whole_words() -> None:
    """The plan of a game follows the cards its effects name; 'sniper' is not named by 'sniper-scope'."""
    from ddaydice.interpreter.core.values import cards_named

    ids = ["sniper", "sniper-scope", "grenade", "stick-grenade", "medic"]
    assert cards_named(["use: discard 1 sniper-scope", "gain 1 stick-grenade"], ids) == {"sniper-scope",
                                                                                         "stick-grenade"}
    assert cards_named(["join sniper in sector 3"], ids) == {"sniper"}
    assert cards_named(["gain 1 vehicle"], ids) == {"vehicle"}
    assert cards_named(["advance"], ids) == set()
