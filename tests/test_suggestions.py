""""Did you mean": the names a modder or a player misspells, against the names there are.

``suggest`` is the one place a misspelt name finds the name it stands for (dsl/diagnostics.py): every "did you
mean" of the loader, the checker, scenarios, set-ups and the command line asks it. The table below is made of
realistic slips (a letter dropped, doubled, swapped or changed, a wrong case, a British or American spelling, a
plural, '_' or a space for '-') against the real candidate sets, each giving the name meant, and of words that are
no slip of any name (other words, and the French words of docs' glossary for things the game names in English),
giving nothing: a wrong guess is worse than none.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from pathlib import Path

import attrs
import pytest
from click.testing import CliRunner

from ddaydice.dsl import parser, schema, words
from ddaydice.dsl.diagnostics import did_you_mean, suggest
from ddaydice.dsl.loader import Content, bundled_pack_ids, load
from ddaydice.dsl.yamlsrc import attr_to_key
from ddaydice.interpreter.cli import main


@cache
def content() -> Content:
    loaded, diags = load(packs="all")
    assert loaded is not None, diags
    return loaded


def _keys(cls: type) -> set[str]:
    return {attr_to_key(f.name) for f in attrs.fields(cls)}


def _dsl_words() -> set[str]:
    return set(parser.keywords()) | {w for kind in ("action", "predicate", "event", "modifier", "moment", "counter",
                                                   "target") for w in words.words(kind)}


# The candidate sets names are looked up in, as the bundled content and every bundled pack define them.
SETS: dict[str, Callable[[], set[str]]] = {
    "resources": lambda: set(content().vocab.resources),
    "faces": lambda: set(content().vocab.faces) | set(content().vocab.face_aliases) | {"any"},
    "colours": lambda: set(content().vocab.colours) | {"any-colour"},
    "queries": lambda: set(content().vocab.queries),
    "phases": lambda: set(content().vocab.phases),
    "tiers": lambda: set(content().vocab.tiers),
    "cards": lambda: set(content().cards),
    "options": lambda: set(content().options),
    "maps": lambda: set(content().maps),
    "packs": lambda: set(bundled_pack_ids()),
    "sectors": lambda: {s.id for m in content().maps.values() for s in m.sectors},
    "dsl": _dsl_words,
    "card keys": lambda: _keys(schema.Card),
    "dice keys": lambda: _keys(schema.DiceRules),
}

TYPOS = [
    # (candidate set, what was written, the name meant)
    ("resources", "courag", "courage"),          # a letter dropped
    ("resources", "courrage", "courage"),        # doubled
    ("resources", "soldeirs", "soldiers"),       # two swapped
    ("resources", "stras", "stars"),
    ("resources", "soldierz", "soldier"),       # as close to 'soldiers': forms of one word, the shortest
    ("resources", "Courage", "courage"),         # a wrong case
    ("resources", "STARS", "stars"),
    ("resources", "item_points", "item-points"),  # '_' or a space for '-'
    ("resources", "Item Points", "item-points"),
    ("faces", "skul", "skull"),
    ("faces", "skulls", "skull"),                # a plural
    ("faces", "two_soldiers", "two-soldiers"),
    ("faces", "one soldier", "one-soldier"),
    ("faces", "tools", "tool"),
    ("colours", "whit", "white"),
    ("colours", "blakc", "black"),
    ("colours", "Red", "red"),
    ("colours", "any-color", "any-colour"),      # American for British
    ("colours", "any colour", "any-colour"),
    ("queries", "mgf-dise", "mgf-dice"),
    ("queries", "MGF dice", "mgf-dice"),
    ("queries", "advance_cost", "advance-cost"),
    ("queries", "locked-die", "locked-dice"),
    ("queries", "recruit-per-turn", "recruits-per-turn"),
    ("queries", "Item_Cost", "item-cost"),
    ("phases", "purchace", "purchase"),
    ("phases", "Combat", "combat"),
    ("phases", "upkeeps", "upkeep"),
    ("tiers", "item-vehicles", "items-vehicles"),
    ("tiers", "award", "awards"),
    ("cards", "bazoka", "bazooka"),
    ("cards", "ambulence", "ambulance"),
    ("cards", "binocular", "binoculars"),
    ("cards", "armoured-car", "armored-car"),   # British for American
    ("cards", "bangalore_torpedo", "bangalore-torpedo"),
    ("cards", "Bangalore Torpedo", "bangalore-torpedo"),
    ("options", "blind_start", "blind-start"),
    ("options", "badge-of-honor", "badge-of-honour"),
    ("options", "Badges", "badges"),
    ("maps", "utah_beach", "utah-beach"),
    ("maps", "Omaha Beach", "omaha-beach"),
    ("maps", "pointe-du-hock", "pointe-du-hoc"),
    ("maps", "exercice-tiger", "exercise-tiger"),
    ("maps", "utah", "utah-beach"),             # a word left out
    ("packs", "atlantikwal", "atlantikwall"),
    ("packs", "Atlantikwall", "atlantikwall"),
    ("packs", "atlantic-wall", "atlantikwall"),
    ("packs", "house_awards", "house-awards"),
    ("sectors", "S1", "s1"),
    ("sectors", "bunker_east", "bunker-east"),
    ("sectors", "s88", "s8"),                   # in a short name, a letter doubled
    ("dsl", "gian", "gain"),
    ("dsl", "discrad", "discard"),
    ("dsl", "recolor", "recolour"),
    ("dsl", "colour", "colours"),               # the predicate 'colours'
    ("dsl", "Reroll", "reroll"),
    ("dsl", "first_roll", "first-roll"),
    ("dsl", "teh", "the"),                      # in a short name, two letters swapped
    ("dsl", "advancing", "advance"),            # another form of the word
    ("dsl", "drawing", "draw"),
    ("dsl", "in-bunker", "bunker"),             # a word too many
    ("card keys", "Cost", "cost"),
    ("card keys", "only_in", "only-in"),
    ("card keys", "provenence", "provenance"),
    ("card keys", "txt", "text"),
    ("card keys", "ids", "id"),
    ("card keys", "tag", "tags"),
    ("dice keys", "colour", "colours"),
    ("dice keys", "dice-per-color", "dice-per-colour"),
    ("dice keys", "dice_per_colour", "dice-per-colour"),
]

UNRELATED = [
    # (candidate set, what was written): no name of the set is meant
    ("resources", "colour"),     # once 'courage'
    ("resources", "soldat"),     # French, once 'soldier'
    ("resources", "rouge"),      # once 'courage'
    ("resources", "crâne"),      # once 'courage'
    ("faces", "colour"),         # once 'courage'
    ("faces", "etoile"),         # once 'tool'
    ("faces", "crane"),
    ("colours", "blanc"),        # once 'black': blanc is white
    ("colours", "table"),        # once 'blue'
    ("colours", "suite"),        # once 'white'
    ("queries", "magic"),        # once 'mgf-dice'
    ("queries", "castle"),       # once 'casualties'
    ("queries", "train"),        # once 'trade'
    ("phases", "move"),
    ("phases", "horse"),
    ("cards", "train"),
    ("cards", "foo"),
    ("cards", "medaille"),
    ("cards", "tireur-d-elite"),
    ("options", "hello"),
    ("packs", "atlantic"),
    ("sectors", "s42"),
    ("sectors", "secteur"),
    ("dsl", "foo"),              # once 'for'
    ("dsl", "weather"),          # once 'another'
    ("dsl", "window"),           # once 'win'
    ("dsl", "crane"),            # once 'cancel'
    ("dsl", "outil"),            # once 'until'
    ("dsl", "secteur"),          # once 'sector'
    ("dsl", "trouver"),          # once 'remove'
    ("card keys", "colour"),
    ("card keys", "price"),
    ("dice keys", "weather"),
]


@pytest.mark.parametrize(("pool", "written", "meant"), TYPOS)
def test_a_slip_is_suggested_the_name_it_stands_for(pool: str, written: str, meant: str) -> None:
    names = SETS[pool]()
    assert meant in names and written not in names
    assert suggest(written, names) == meant


@pytest.mark.parametrize(("pool", "written"), UNRELATED)
def test_a_word_that_is_no_slip_is_suggested_nothing(pool: str, written: str) -> None:
    names = SETS[pool]()
    assert written not in names
    assert suggest(written, names) is None


def test_two_names_as_close_are_no_suggestion() -> None:
    """'s21' is one slip from 's1', 's2' and 's20' alike: no guess between them."""
    assert suggest("s21", ["s1", "s2", "s20"]) is None
    assert suggest("bazooka-joe-3", ["bazooka-joe-1", "bazooka-joe-2"]) is None
    assert suggest("bazooka-joe-3", ["bazooka-joe-2", "badges"]) == "bazooka-joe-2"


def test_a_suggestion_is_the_name_as_written_among_the_candidates() -> None:
    """Spelling is compared alike (case, '_', spaces), and the candidate is given as it is written."""
    assert suggest("this-turn", ["this turn", "next turn"]) == "this turn"
    assert suggest("README.MD", ["README.md", "pack.yaml"]) == "README.md"
    assert did_you_mean("Cards", ["cards", "rules"]) == "did you mean 'cards'?"
    assert suggest("", ["a"]) is None
    assert suggest("-", ["a", "-"]) is None


def test_an_unknown_resource_gets_no_wrong_guess(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """'gain 2 colour' in a card was told "did you mean 'courage'?"; now the resources there are are listed."""
    (tmp_path / "p" / "cards").mkdir(parents=True)
    (tmp_path / "p" / "pack.yaml").write_text("id: p\nname: P\nversion: '1'\ntext: A pack.\n"
                                              "provenance: reconstructed\nnote: a test\n", encoding="utf-8")
    (tmp_path / "p" / "cards" / "items.yaml").write_text(
        "kind: item\ncards:\n  - id: paint\n    name: Paint\n    grade: regular\n    cost: 2\n    text: Paint.\n"
        "    effect: |\n      use: gain 2 colour\n    provenance: reconstructed\n    note: a test\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["validate", "p"])
    assert result.exit_code == 1, result.output
    assert "p/cards/items.yaml:9:19: DSL102 gain: unknown resource 'colour'" in result.output
    assert "courage'?" not in result.output
    assert "hint: one of: courage, item-point, item-points, soldier, soldiers, star, stars" in result.output


def test_an_unknown_colour_in_a_tally_is_suggested_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The colour of a die in a scenario's tally read "(did you mean 'did you mean 'white'?')"."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "q.yaml").write_text(
        "scenario: a tally\nmap: exercise-tiger\nvariant: advanced-training\nfallback: none\n"
        "units:\n  - {id: u1, sector: s1, soldiers: 4}\ntally: {u1: [whte star]}\nexpect:\n  - u1.soldiers: 4\n",
        encoding="utf-8")
    result = CliRunner().invoke(main, ["scenario", "run", "q.yaml"])
    assert result.exit_code == 2, result.output
    assert "unknown colour 'whte'; did you mean 'white'?" in result.output
    assert "did you mean 'did you mean" not in result.output
