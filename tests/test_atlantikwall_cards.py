"""Atlantikwall module 1's cards: the deck sizes the rulebook states, and the honesty of every card.

Each card's behaviour is settled by its scenario in tests/scenarios/atlantikwall/ (german-spec-*, german-item-*,
decoration-*, allied-*); these tests check what a scenario cannot say well: the sizes of the German Reserve and
of the Decoration deck, the 1:6 ratio of black Decorations, the cards solitaire removes, and that every card says
what is the rulebook's and what is ours.
"""

from __future__ import annotations

import functools
from pathlib import Path

import pytest

from ddaydice.dsl.loader import Content, load

SCENARIOS = Path(__file__).resolve().parent / "scenarios" / "atlantikwall"
SOLO = "solitaire-atlantikwall"


@functools.cache
def pack() -> Content:
    loaded, diags = load(packs=["atlantikwall"])
    assert loaded is not None, diags
    return loaded


def ids(kind: str) -> list[str]:
    return [c.id for c in pack().cards_of(kind)]


def test_the_german_reserve_holds_14_specialists_and_16_items() -> None:
    # Rulebook, module 1: the German Reserve's Specialists and Items (14 and 16).
    assert len(ids("german-specialist")) == 14
    assert len(ids("german-item")) == 16


def test_the_decoration_deck_holds_21_cards_3_of_them_black() -> None:
    # "There is 1 black Decoration for 6 normal ones. If you change the deck, keep this 1:6 ratio."
    cards = pack().cards_of("decoration")
    black = [c.id for c in cards if "black" in c.tags]
    assert len(cards) == 21
    assert len(black) == 3
    assert (len(cards) - len(black)) == 6 * len(black)
    assert "gold-wound-badge" in black


def test_every_black_decoration_is_played_when_drawn_and_discarded() -> None:
    for card in pack().cards_of("decoration"):
        text = card.effect or ""
        if "black" in card.tags:
            assert text.strip().startswith("on drawn:") and "discard self" in text, card.id
        else:
            assert "on drawn" not in text, card.id


def test_the_cards_the_rulebook_removes_in_solitaire() -> None:
    # "Decorations & Items unavailable in solo play: remove these cards from your decks."
    removed = {c.id for kind in ("decoration", "german-item") for c in pack().cards_of(kind)
               if SOLO in c.unavailable_in}
    assert removed == {"flak-badge", "german-cross", "gestapo-plate", "gold-wound-badge", "rad-badge",
                       "war-merit-cross", "westwall-medal", "booby-traps", "gas", "goliath-mine", "mg42",
                       "molotov-cocktail", "tracer-rounds"}


@pytest.mark.parametrize("kind", ["german-specialist", "german-item", "decoration", "specialist", "item"])
def test_every_module_1_card_has_an_effect_a_note_and_says_it_is_reconstructed(kind: str) -> None:
    cards = [c for c in pack().cards_of(kind)
             if kind not in {"specialist", "item"} or "german-player" in c.only_in]
    assert cards
    for card in cards:
        assert card.effect and card.effect.strip(), card.id
        assert card.provenance == "reconstructed" and card.note, card.id
        if kind in {"german-specialist", "german-item", "specialist", "item"}:
            assert card.cost is not None, card.id


def test_every_module_1_card_has_a_scenario() -> None:
    prefix = {"german-specialist": "german-spec-", "german-item": "german-item-", "decoration": "decoration-",
              "specialist": "allied-", "item": "allied-"}
    for kind, start in prefix.items():
        for card in pack().cards_of(kind):
            if kind in {"specialist", "item"} and "german-player" not in card.only_in:
                continue
            assert (SCENARIOS / f"{start}{card.id}.yaml").exists(), card.id
