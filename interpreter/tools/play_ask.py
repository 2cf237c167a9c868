"""How ``dday play`` takes a player's answer at a prompt: the numbers its options carry (a die keeps its number
for the turn), an option named by a word of it, the cards' texts asked for with ``? NAME``, and the questions that
need no answer (casualties with only Soldiers to lose).

The options a decision offers are read through their labels (English) and their keys (data: a card's id, a die's
face and colour); no card is named here.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from ddaydice.dsl.yamlsrc import shorten
from ddaydice.interpreter.core.api import GameView
from ddaydice.interpreter.core.decisions import Decision

_WORD = re.compile(r"[\w'-]+")


def _is_die(key: Any) -> bool:
    """A die offered in a decision (the key ``die_label`` reads): (its index, face, colour)."""
    return (isinstance(key, tuple) and len(key) == 3 and isinstance(key[0], int) and not isinstance(key[0], bool)
            and isinstance(key[1], str))


def option_numbers(game: GameView | None, decision: Decision) -> tuple[int, ...]:
    """The number each option is shown with and answered by: the dice a decision offers (which to Lock, to
    re-roll, to cancel) keep the number of their place on the table (the Unit's dice, as its 'dice:' line lists
    them), so a die answers to the same number all the turn, a Locked one never offered again; any other option
    is numbered 1..n."""
    plain = tuple(range(1, len(decision.options) + 1))
    keys = decision.keys
    if game is None or not keys or len(keys) != len(decision.options) or not all(_is_die(k) for k in keys):
        return plain
    tally = game.state.unit(decision.unit).tally
    taken: set[int] = set()
    numbers: list[int] = []
    for key in keys:
        place = next((i for i, d in enumerate(tally) if i not in taken and (d.index, d.face, d.colour) == key), None)
        if place is None:
            return plain
        taken.add(place)
        numbers.append(place + 1)
    return tuple(numbers)


def numbers_text(numbers: Sequence[int]) -> str:
    """The numbers a player may type: '1..4' when they follow each other, else '1, 3, 5, 6'."""
    if list(numbers) == list(range(1, len(numbers) + 1)):
        return f"1..{len(numbers)}"
    return ", ".join(map(str, numbers))


def _names(key: Any) -> set[str]:
    """The names an option's key gives it, besides its label: a card's id, a die's face and colour."""
    parts = key if isinstance(key, tuple) else (key,)
    return {p.lower() for p in parts if isinstance(p, str) and p}


def _has_words(label: str, words: list[str], *, start: bool) -> bool:
    """Whether ``words`` are words of ``label`` one after the other (the last one begun only, with ``start``)."""
    have = [w.lower() for w in _WORD.findall(label)]
    n = len(words)
    for i in range(len(have) - n + 1):
        if have[i:i + n - 1] == words[:-1] and (have[i + n - 1].startswith(words[-1]) if start
                                                 else have[i + n - 1] == words[-1]):
            return True
    return False


def named(text: str, decision: Decision) -> tuple[list[int], bool]:
    """The options a name picks, and whether it is an exact one: the whole label; else a label's start; else a
    word (or words) of it, or a name its key gives it (a card's id, a die's face); else the start of a word of it.
    The first of these that any option answers to is taken (several options: the answer is ambiguous, unless they
    read alike, as two dice of the same colour and face)."""
    labels = [label.lower() for label in decision.options]
    said = text.strip().lower()
    words = [w.lower() for w in _WORD.findall(said)]
    keys = decision.keys if len(decision.keys) == len(labels) else ()
    def answers(i: int, level: int) -> bool:
        if level == 0:
            return labels[i] == said
        if level == 1:
            return labels[i].startswith(said)
        if not words:
            return False
        if level == 2:
            return _has_words(labels[i], words, start=False) or (bool(keys) and said in _names(keys[i]))
        return _has_words(labels[i], words, start=True)

    for level in range(4):
        found = [i for i in range(len(labels)) if answers(i, level)]
        if found:
            return found, len({labels[i] for i in found}) == 1
    return [], False


def read_answer(raw: str, decision: Decision, numbers: Sequence[int] | None = None) -> tuple[int, ...] | str:
    """The options a player's answer picks, or what is wrong with it, in one line. An answer is option numbers
    (``numbers``: each option's, as shown; 1..n when None), or an option's name (its label, the start of it, or
    a word of it that no other option has: a card's name or id, a die's face); several, separated by commas
    ('tool, star'), where several are picked."""
    options = decision.options
    shown = list(numbers) if numbers is not None else list(range(1, len(options) + 1))
    among = numbers_text(shown)
    need = answer_hint(decision)
    picks: list[int] = []
    for part in raw.split(","):
        words = part.split()
        if all(w.isdigit() for w in words):
            for w in words:
                if int(w) not in shown:
                    return f"  not a legal answer: choose {need} among {among}"
                picks.append(shown.index(int(w)))
            continue
        found, one = named(part, decision)
        if not found or not one:
            said = shorten(part.strip())
            if not found:
                return (f"  '{said}' is no option here: type an option's number ({among}) or its name, or ? for "
                        "help")
            which = ", ".join(f"{shown[i]} ({options[i]})" for i in found)
            return f"  '{said}' names options {which}: type more of it, or a number"
        picks.append(next((i for i in found if i not in picks), found[0]))
    if decision.max_picks == 1 and len(picks) != 1:
        return "  please type one option number (or ? for help)"
    if len(set(picks)) != len(picks) or not decision.min_picks <= len(picks) <= decision.max_picks:
        return f"  not a legal answer: choose {need} among {among}"
    return tuple(picks)


def how_many(decision: Decision) -> str:
    """How many options an answer picks when it picks several: 'exactly 2', '0 to 4; empty for none'."""
    need = (f"exactly {decision.min_picks}" if decision.min_picks == decision.max_picks
            else f"{decision.min_picks} to {decision.max_picks}")
    return need + ("; empty for none" if decision.min_picks == 0 else "")


def answer_hint(decision: Decision, numbers: Sequence[int] | None = None) -> str:
    """What the answer is, in words, as the prompt says it: 'a number', 'numbers separated by spaces (exactly 2)';
    with the ``numbers`` shown when they are not 1..n (the dice keep their numbers: 'a number among 5, 6')."""
    among = "" if numbers is None or list(numbers) == list(range(1, len(numbers) + 1)) \
        else f" among {numbers_text(numbers)}"
    return f"a number{among}" if decision.max_picks == 1 \
        else f"numbers{among} separated by spaces ({how_many(decision)})"


def offered_cards(game: GameView, decision: Decision, picked: Sequence[int] | None = None) -> list[str]:
    """The cards the options offer (``picked``: those options only), each once, in the order offered."""
    keys = decision.keys if len(decision.keys) == len(decision.options) else ()
    out: list[str] = []
    for i, key in enumerate(keys):
        if picked is not None and i not in picked:
            continue
        for part in key if isinstance(key, tuple) else (key,):
            if isinstance(part, str) and part in game.content.cards and part not in out:
                out.append(part)
    return out


def card_texts(game: GameView, decision: Decision, name: str) -> list[str]:
    """What ``? NAME`` (or ``?`` alone, NAME empty) shows at a prompt: the text of each card the options offer
    (the options NAME picks), as ``dday card`` gives it; [] when they offer none."""
    from ddaydice.interpreter.tools.card_info import card_info

    picked = named(name, decision)[0] if name.strip() else None
    if picked == [] and name.strip():
        return [f"  '{shorten(name.strip())}' is no option here: ? NAME shows the card an option offers"]
    out: list[str] = []
    for cid in offered_cards(game, decision, picked):
        info = card_info(game.content, cid)
        cost = f" ({info['cost']} {info['cost_unit']})" if info["cost"] is not None and info["cost_unit"] else ""
        ours = " [reconstructed]" if info["reconstructed"] else ""
        out.append(f"  {info['name']}{cost}{ours}: {' '.join(info['text'].split())}")
    return out


def unasked(decision: Decision) -> tuple[int, ...] | None:
    """The answer a decision takes without asking the player, where his choice changes nothing: casualties with
    only Soldiers to lose (no Specialist to choose) lose them at once, as many as are due (the rulebook:
    "subtract that number from the total number of Soldiers"). None: he is asked."""
    if decision.kind != "casualty" or not decision.keys:
        return None
    if all(isinstance(k, tuple) and k[:1] == ("soldiers",) for k in decision.keys):
        return (0,)
    return None
