"""``dday explain FILE 'tagged explosion above 2 for u1'``: a count of the effect language, explained.

A ``per`` tail multiplies an amount by a count (``lose 1 soldiers per tagged explosion above 2``: Atlantikwall's
Playing with Fire). Its derivation is the count's: one line per card that makes it, then the limit ``above N``
takes off, clamped at 0. The count is the one the compiled effect reads (``decks.tagged``), so the explained
value is the value the game uses.
"""

from __future__ import annotations

from ddaydice.dsl.diagnostics import RuleError
from ddaydice.interpreter.core.api import GameAPI
from ddaydice.interpreter.core.precedence import Derivation, Step
from ddaydice.interpreter.mechanisms import decks
from ddaydice.interpreter.tools.scenario_file import unit_named

COUNTERS = frozenset({"tagged"})


def is_count(text: str) -> bool:
    """Whether a query text is a count (``tagged TAG [above N] for UNIT``) rather than a query of the rules."""
    words = text.replace("_", "-").split()
    if words and words[0] == "query":
        words = words[1:]
    return bool(words) and words[0] in COUNTERS


def explain_count(game: GameAPI, text: str) -> tuple[int, Derivation]:
    """The count and its derivation: each card the Unit holds with the tag (+1), then the limit (-N), at least 0."""
    words = text.replace("_", "-").split()
    if words and words[0] == "query":
        words = words[1:]
    if len(words) < 4 or words[-2] != "for":
        raise RuleError(f"write: tagged TAG [above N] for UNIT (not {text!r})")
    unit = unit_named(game.state, words[-1])
    what, above = words[:-2], None
    if len(what) == 4 and what[2] == "above" and what[3].isdigit():
        above = int(what[3])
        what = what[:2]
    if len(what) != 2:
        raise RuleError(f"write: tagged TAG [above N] for UNIT (not {text!r})")
    tag = what[1]
    if not any(tag in card.tags for card in game.content.cards.values()):
        raise RuleError(f"no card carries the tag '{tag}'")
    steps: list[Step] = []
    value = 0
    for cid in decks.tagged(game, unit, tag):
        steps.append(Step(cid, f"{game.content.cards[cid].name} ({unit.name})", game.content.card_kinds.get(cid, ""),
                          "add", 1, value, value + 1, text=f"marked {tag}"))
        value += 1
    clamp = None
    if above is not None:
        after = max(value - above, 0)
        reason = "never below 0" if value - above < 0 else None
        steps.append(Step(f"above {above}", f"the limit (above {above})", "count", "add", -above, value, after,
                          reason=reason))
        clamp = 0
        value = after
    name = " ".join(words[:-2])
    return value, Derivation(name, unit.name, 0, f"cards marked {tag} held", tuple(steps), value, clamp)
