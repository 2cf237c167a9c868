"""A scenario's steps (docs/scenarios.md): the kinds of step, the keys a step may add, the JSON Schema of
``steps:`` and the check of one step before the scenario runs; written from the same tables (the step kinds,
each kind's refusal codes in tools/refusals.py), so that an editor flags what ``dday scenario run`` refuses."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ddaydice.dsl.diagnostics import did_you_mean
from ddaydice.dsl.limits import MAX_CHOICES, MAX_RESOURCE, MAX_SCENARIO_TURNS, MAX_STEPS
from ddaydice.dsl.yamlsrc import shorten
from ddaydice.interpreter.core.values import PHASES
from ddaydice.interpreter.tools.refusals import CODES as REFUSAL_CODES
from ddaydice.interpreter.tools.refusals import STEP_CODES

# The steps a scenario runs (docs/scenarios.md), what each does, and the keys a step may add to its action.
STEP_KINDS: dict[str, str] = {
    "phase": "run this phase of the turn (the next turn's when it does not come later in this one)",
    "at": "stand at the start of this phase, not yet run (the next turn's when it does not come later in this one)",
    "turn": "run a whole turn",
    "turns": "run this many whole turns (fewer if the game ends)",
    "game": "run the game to its end",
    "use": "the Unit uses a card it holds, a card in play, an option's (option:ID), a rule's (rule:ID) or a side's "
           "(side:ID) use, at the moments of the phase the game stands in",
    "move": "the Unit moves into this Sector (Phase 4)",
    "recruit": "the Unit recruits this Specialist (Phase 3)",
    "find": "the Unit finds this Item or Vehicle (Phase 3)",
    "trade": "the Unit gives another Unit (this one) what `give:` names, `amount:` of a resource (Phase 3)",
    "draw": "the draw of a deck: the turn's (Battle Conditions) or the Unit's (a Badge)",
}
STEP_KEYS = ("unit", "refused", "give", "amount", "answers")
# What the value of an action or a key names, for the actions and keys that name something of the game: each is
# checked against the content the scenario loads before it runs (tools/scenario_names.py, which knows each kind of
# name), so that a misspelt name is an error at its line, never a refusal a `refused:` would take for the rules'.
# The others take a phase (`phase`, `at`), a number (`turns`, `amount`), nothing (`turn`, `game`), a refusal or
# answers, and check_step checks them.
STEP_NAMES: dict[str, str] = {
    "use": "usable", "move": "sector", "recruit": "specialist", "find": "findable", "draw": "deck",
    "trade": "player", "unit": "player", "give": "tradeable",
}


def step_schema() -> dict[str, Any]:
    """The JSON Schema of ``steps:``, from the tables the steps are checked against (:func:`_check_step`)."""
    def refused(kind: str) -> dict[str, Any]:
        codes = STEP_CODES.get(kind)
        if codes is None:
            return {"const": False, "description": f"a '{kind}' step is never refused"}
        return {"description": "the step must be refused: true (any reason), a refusal's code, or a part of its "
                               "message (two words or more)",
                "anyOf": [{"type": "boolean"}, {"enum": list(codes)},
                          {"type": "string", "pattern": r"\S\s+\S", "maxLength": 200}]}
    value: dict[str, dict[str, Any]] = {
        "phase": {"enum": list(PHASES)}, "at": {"enum": list(PHASES)},
        "turns": {"type": "integer", "minimum": 0, "maximum": MAX_SCENARIO_TURNS},
        "turn": {"enum": [None, True]}, "game": {"enum": [None, True]}}
    keys: dict[str, Any] = {
        "unit": {"type": "string", "description": "who takes the step (default u1)"},
        "give": {"type": "string", "description": "a trade's resource (soldiers, courage, stars, item-points) "
                                                  "or card"},
        "amount": {"type": "integer", "minimum": 0, "maximum": MAX_RESOURCE},
        "answers": {"type": "object", "description": "the answers of this step alone, by player",
                    "additionalProperties": {"type": "array", "maxItems": MAX_CHOICES}}}
    steps: list[dict[str, Any]] = [{"enum": ["turn", "game"]}]
    for kind, what in STEP_KINDS.items():
        steps.append({"type": "object", "description": what, "required": [kind], "additionalProperties": False,
                      "properties": {kind: value.get(kind, {"type": "string"}), **keys,
                                     "refused": refused(kind)}})
    return {"type": "array", "maxItems": MAX_STEPS, "items": {"anyOf": steps}}


def check_step(step: Any, players: Sequence[str] = ()) -> str | None:
    """Why a step cannot be run (checked before the scenario runs), or None; the names it gives (a card, a Sector,
    a Unit: :data:`STEP_NAMES`) are checked against the content after it (tools/scenario_names.py)."""
    if isinstance(step, str):
        return None if step in {"turn", "game"} else \
            f"unknown step '{shorten(step)}' (steps: {', '.join(STEP_KINDS)})"
    if not isinstance(step, dict):
        return "a step is a word (turn, game) or a mapping such as {phase: combat}"
    kinds = [k for k in step if k in STEP_KINDS]
    if len(kinds) != 1:
        unknown = [str(k) for k in step if k not in STEP_KINDS and k not in STEP_KEYS]
        hint = did_you_mean(unknown[0], list(STEP_KINDS)) if len(kinds) == 0 and len(unknown) == 1 else ""
        return f"a step names one action of: {', '.join(STEP_KINDS)}" + (f" ({hint})" if hint else "")
    kind = kinds[0]
    value = step[kind]
    if kind in {"phase", "at"} and value not in PHASES:
        hint = did_you_mean(str(value), list(PHASES))
        return f"no phase '{shorten(str(value))}' (" + (f"{hint}; " if hint else "") + f"phases: {', '.join(PHASES)})"
    extra = set(step) - {kind, *STEP_KEYS}
    if extra:
        return f"unknown key(s) in step: {shorten(', '.join(sorted(map(str, extra))))}"
    if kind == "turns" and (isinstance(value, bool) or not isinstance(value, int)
                            or not 0 <= value <= MAX_SCENARIO_TURNS):
        return f"'turns' is a whole number from 0 to {MAX_SCENARIO_TURNS}"
    if kind in {"turn", "game"} and value not in (None, True):
        return f"'{kind}' takes no value"
    if kind not in {"phase", "at", "turns", "turn", "game"} and not isinstance(value, str):
        return f"'{kind}' names a card, a Sector, a deck or a Unit: expected text"
    if "amount" in step and (isinstance(step["amount"], bool) or not isinstance(step["amount"], int)
                             or not 0 <= step["amount"] <= MAX_RESOURCE):
        return f"'amount' is a whole number from 0 to {MAX_RESOURCE}"
    if "give" in step and not isinstance(step["give"], str):
        return "'give' names a resource or a card: expected text"
    if "refused" in step and not isinstance(step["refused"], bool) and (
            not isinstance(step["refused"], str) or not step["refused"].strip() or len(step["refused"]) > 200):
        return ("'refused' is the reason expected: a refusal's code (" + ", ".join(REFUSAL_CODES) + ") or a part "
                "of its message; or true (any reason)")
    refused = step.get("refused")
    if isinstance(refused, str) and len(refused.split()) == 1 and refused.strip() not in REFUSAL_CODES:
        hint = did_you_mean(refused.strip(), REFUSAL_CODES)
        return (f"no refusal code '{shorten(refused.strip())}'" + (f" ({hint})" if hint else "") + "; a part of the "
                "refusal's message has two words or more")
    if refused not in (None, False) and kind not in STEP_CODES:
        return f"a '{kind}' step is never refused (steps that can be: {', '.join(STEP_CODES)})"
    if isinstance(refused, str) and refused.strip() in REFUSAL_CODES and refused.strip() not in STEP_CODES[kind]:
        return (f"a '{kind}' step is never refused for '{refused.strip()}' (its refusals: "
                f"{', '.join(STEP_CODES[kind])})")
    if "answers" in step:
        answers = step["answers"]
        if not isinstance(answers, dict) or not all(isinstance(a, list) for a in answers.values()):
            return "a step's 'answers' are lists of answers by player: {u1: [lose 3 Soldiers]}"
        for who, given in answers.items():
            if players and str(who) not in players:
                return f"no Unit '{shorten(str(who))}' in this scenario"
            if len(given) > MAX_CHOICES or not all(answer_ok(a) for a in given):
                return ANSWER_FORMS
    return None


#: What an answer of a scenario may be, as an error says it.
ANSWER_FORMS = ("an answer is an option's number or label, a list of them, or {answer: A, not-offered: [labels]} "
                "(A, once the question is seen to offer none of the labels)")


def answer_ok(answer: Any, nested: bool = False) -> bool:
    if isinstance(answer, bool):
        return False
    if isinstance(answer, int):
        return 0 <= answer <= MAX_CHOICES
    if isinstance(answer, str):
        return len(answer) <= 200
    if isinstance(answer, list) and not nested:
        return len(answer) <= 50 and all(answer_ok(a, nested=True) for a in answer)
    if isinstance(answer, dict) and not nested:  # {answer: A, not-offered: [labels]}: A, once none is offered
        absent = answer.get("not-offered")
        labels = absent if isinstance(absent, list) else [absent]
        return set(answer) == {"answer", "not-offered"} and answer_ok(answer["answer"]) \
            and isinstance(answer["answer"], int | str | list) and 0 < len(labels) <= 50 \
            and all(isinstance(x, str) and 0 < len(x) <= 200 for x in labels)
    return False


def checks_nothing(steps: Sequence[Any], expect: Sequence[Any], answers: Mapping[str, Sequence[Any]],
                   fallback: str) -> bool:
    """Whether a scenario checks nothing: it passes whatever the rules do, as long as it can be set up and its
    steps run. It checks something when it has an expectation (``expect:``), a step the rules can refuse (an action
    of :data:`STEP_CODES`: it must be allowed, or refused as its ``refused:`` says), a scripted answer (one that is
    no option, or is left over, fails) or a step under ``fallback: none`` (a question without an answer fails).
    ``dday scenario run`` warns of such a scenario (docs/scenarios.md): a position captured without ``--play-on``
    is one, a starting point for ``dday explain`` and for checks to add."""
    if any(expect) or any(answers.values()) or (steps and fallback == "none"):
        return False
    return not any(isinstance(step, dict) and (any(kind in STEP_CODES for kind in step)
                                               or any(dict(step.get("answers") or {}).values()))
                   for step in steps)
