"""The names a scenario's steps give, checked against the content the scenario loads before it runs: the card a
step uses, recruits, finds or gives, the Sector it moves into, the deck it draws, the Unit that takes it or is
traded with. What each action and key names is the table of steps (tools/scenario_steps.py, ``STEP_NAMES``); each
kind of name is one entry of :data:`NAME_KINDS`: the names that exist and how a wrong one is reported.

A name that does not exist is an error at its line, with the closest name there is (docs/scenarios.md): left to
the run, it would be refused (``not-held``, ``unavailable``, ``illegal-move``) and a ``refused:`` would take the
misspelling for the rules' answer.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Any

import attrs

from ddaydice.dsl.diagnostics import did_you_mean
from ddaydice.dsl.loader import Content
from ddaydice.dsl.yamlsrc import shorten
from ddaydice.interpreter.core.values import TRADE_RESOURCES
from ddaydice.interpreter.mechanisms import decks
from ddaydice.interpreter.tools.scenario_steps import STEP_NAMES


@attrs.frozen
class Names:
    """What a scenario's names are checked against: the content it loads, its map, its players."""

    content: Content
    map: str
    players: tuple[str, ...]

    def cards(self, *kinds: str, held_as: str | None = None) -> list[str]:
        """The cards of these kinds, and of the kinds an expansion declares held as ``held_as`` (a side's
        Specialists and Items)."""
        def fits(kind: str) -> bool:
            kdef = self.content.kind_def(kind)
            return kind in kinds or (held_as is not None and kdef is not None and kdef.held_as == held_as)
        return [cid for cid, kind in self.content.card_kinds.items() if fits(kind)]


def _usable(n: Names) -> list[str]:
    """What ``use:`` names: a card (held or in play), a rule's use, an optional rule's, a side's."""
    c = n.content
    return [*c.card_kinds, *(f"option:{o}" for o in c.options), *(f"side:{d.id}" for d in c.sides.sides),
            *dict.fromkeys(k.split("@", 1)[0] for k in c.effects if k.startswith("rule:"))]


def _no_use(name: str, _map: str) -> str:
    """The message for a ``use:`` that names nothing: by its prefix, a rule's, an optional rule's or a side's."""
    prefix, _, rest = name.partition(":")
    what = {"rule": "rule '{}' with a use", "option": "optional rule '{}'", "side": "side '{}'"}.get(prefix)
    return f"no {what.format(shorten(rest))}" if what and rest else f"no card '{shorten(name)}' to use"


@attrs.frozen
class NameKind:
    """A kind of name: the names of it that exist, and the message for one that does not (given the name and the
    scenario's map)."""

    names: Callable[[Names], Collection[str]]
    missing: Callable[[str, str], str]


# Each kind of name of the table of steps (scenario_steps.STEP_NAMES).
NAME_KINDS: dict[str, NameKind] = {
    "usable": NameKind(_usable, _no_use),
    "sector": NameKind(lambda n: [s.id for s in n.content.maps[n.map].sectors],
                       lambda name, m: f"map '{m}' has no sector '{shorten(name)}'"),
    "specialist": NameKind(lambda n: n.cards("specialist", held_as="specialist"),
                           lambda name, _: f"no specialist '{shorten(name)}'"),
    "findable": NameKind(lambda n: n.cards("item", "vehicle", held_as="item"),
                         lambda name, _: f"no item or vehicle '{shorten(name)}'"),
    "deck": NameKind(lambda n: decks.deck_names(n.content), lambda name, _: f"no deck '{shorten(name)}'"),
    "player": NameKind(lambda n: n.players, lambda name, _: f"no Unit '{shorten(name)}' in this scenario"),
    "tradeable": NameKind(lambda n: [*(r.replace("_", "-") for r in TRADE_RESOURCES), *TRADE_RESOURCES,
                                     *n.content.card_kinds],
                          lambda name, _: f"no resource or card '{shorten(name)}' to give"),
}


def step_name_problems(step: Any, names: Names) -> list[tuple[str, str, str | None]]:
    """Every name of a step (already known to be well formed: scenario_steps.check_step) that does not exist, as
    (the action or key that gives it, the message, a hint)."""
    if not isinstance(step, dict):
        return []
    out: list[tuple[str, str, str | None]] = []
    for key, value in step.items():
        kind = STEP_NAMES.get(str(key))
        if kind is None:
            continue
        known = NAME_KINDS[kind].names(names)
        name = str(value)
        if name not in known:
            out.append((str(key), NAME_KINDS[kind].missing(name, names.map), did_you_mean(name, known)))
    return out
