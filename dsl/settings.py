"""The registry of option settings: every key an optional rule (rules/options/) may set, in one table.

An optional rule is data: a DSL ``effect`` (hooks in tier ``rules``) and ``settings`` that switch on
general mechanisms of the interpreter (set-up, availability, recipients, objectives, dice trading,
scoring). This module says which keys exist, what their values look like and what they mean; the
loader checks every option against it, ``docs/optional-rules.md`` describes it, and
:mod:`ddaydice.interpreter.mechanisms.options` turns the values into behaviour. No option id appears in the
interpreter: a new option is a new YAML file, and a new kind of setting is a new row here plus its
mechanism there.

Values are parsed here (so content errors are caught at load time, with a place in the file) into
plain tuples the interpreter reads.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any, Literal

import attrs

from ddaydice.dsl.diagnostics import Diagnostic, did_you_mean
from ddaydice.dsl.yamlsrc import YamlDoc, position

Kind = Literal["int", "bool", "str", "list"]
RECIPIENTS = ("other", "self", "nobody")
SOURCE_KINDS = ("rule", "rwb", "option", "sector", "specialist", "item", "vehicle", "award")


@attrs.frozen
class SettingSpec:
    name: str
    kind: Kind
    group: str
    summary: str
    values: str = ""
    minimum: int | None = None
    maximum: int | None = None


_S = SettingSpec

SETTINGS: tuple[SettingSpec, ...] = (
    # -------------------------------------------------------------- set-up
    _S("max-players", "int", "set-up", "The most Units the game may have (solitaire: 1).", "a whole number, 1 to 4",
       1, 4),
    _S("printed-start", "bool", "set-up",
       "false: ignore the starting resources printed on the map (Soldiers, Stars, Courage, Item Points); the "
       "Specialists printed at a start still join.", "true or false"),
    _S("start-RESOURCE", "int", "set-up",
       "Each Unit starts with exactly this many of the resource (start-soldiers, start-stars, start-courage, "
       "start-item-points), in place of the printed number.", "a whole number", 0),
    _S("marker-rolls", "int", "set-up",
       "At set-up each Unit rolls its Unit marker this many times and adds up the results of 'marker-table'.",
       "a whole number", 0, 20),
    _S("marker-table", "list", "set-up",
       "What each face of the Unit marker (rules/game.yaml, marker-faces) gives when rolled at set-up; a face "
       "not listed gives nothing.", "a list of 'FACE: N RESOURCE' or 'FACE: nothing'"),
    # -------------------------------------------------------- availability
    _S("regular-specialists", "str", "availability",
       "Each Unit's hand of Regular Specialists: the map's list, all of them, or drawn at random from the "
       "whole Regular deck by cost (each Unit draws from its own deck).",
       "'map', 'all', or 'by-cost COST:N ...' (by-cost 2:3 3:3 4:1)"),
    _S("unique-specialists", "str", "availability",
       "The Unique Specialists in the Pool: the map's list, all of them, or N per player drawn at random.",
       "'map', 'all', or 'N per player'"),
    _S("special-items", "str", "availability",
       "The Special Items in the Pool: the map's list, all of them, or N per player drawn at random (Regular "
       "Items stay available; Items a map places in a Sector stay there).",
       "'map', 'all', or 'N per player'"),
    # ---------------------------------------------------------- recipients
    _S("another-unit", "str", "recipients",
       "Who 'to another unit' reaches: another Unit of the player's choice (other; the player himself when "
       "he is alone), the player himself (self), or nobody (the part is dropped).", "other, self or nobody"),
    _S("another-unit-in", "list", "recipients",
       "The same, for effects of one kind of source only (award, item, rwb, ...), overriding 'another-unit'.",
       "a list of 'KIND: other|self|nobody'"),
    # ---------------------------------------------------------- objectives
    _S("automated-units", "bool", "set-up",
       "true: the Units are automated (solitaire Atlantikwall; interpreter/mechanisms/automaton.py): a random start "
       "in the first row, 2 turns in each Sector, lateral sweeps and Advances along the edges, no resources kept, no "
       "casualties, no Sector attribute but 'can't stay here', Barriers crossed only from a dead end; the "
       "Landmines and MGF another side's rules switch off hit that side's player; no Assault: a Unit entering a "
       "final Bunker ends the game, which the side wins if he still stands.", "true or false"),
    _S("side-loses-at-zero", "bool", "objectives",
       "true: a player of another side (rules/sides.yaml) who has no Soldier left, his Specialists counted, "
       "loses the game (solitaire Atlantikwall); by default he fights on.", "true or false"),
    # ------------------------------------------------------------- trading
    _S("trading-pool", "int", "trading",
       "A Unit that may trade dice (dice-trade) and has no other Unit to trade with trades with its own "
       "Trading Pool: this many dice (2 of each colour for 6), rolled once when it first may trade, each "
       "traded once, 1 die per turn.", "a whole number", 1, 60),
    # ------------------------------------------------------------- scoring
    _S("score", "list", "scoring",
       "Points scored at the end of every game, won or lost, for each Unit: TERM times POINTS, added up (the "
       "terms are listed below).", "a list of 'TERM: POINTS'"),
    _S("group-score", "str", "scoring",
       "The group's score: the lowest Unit's (lowest) or the sum (total).", "lowest or total"),
    _S("score-also", "list", "scoring",
       "Terms added to the score table of another option in play (Badge of Honour: -10 VP per Badge drawn, "
       "'if you use the Victory Points'); nothing is scored without such a table.", "a list of 'TERM: POINTS'"),
    # --------------------------------------------------------------- decks
    _S("keep-used", "str", "decks",
       "Cards of these kinds (an expansion's, rules/kinds.yaml) stay with the Unit when used, instead of "
       "going to their discard pile; each may then be used once per turn (Badge of Honour).",
       "kinds of cards, separated by spaces (badge)"),
    _S("item-piles", "int", "decks",
       "The Items of the Pool are shuffled and split into this many piles as equal as can be; only the top "
       "card of each pile may be found, and the card under a found one becomes available (Chaotic "
       "Resupply: 2).", "a whole number", 1, 10),
)

SCORE_TERMS: dict[str, str] = {
    "bunkers-entered": "Bunkers the Unit successfully entered (it survived the Combat that followed)",
    "first-in-bunker": "1 if the Unit successfully entered a Bunker on the turn the first Bunker was entered",
    "last-sector": "the number of the last Sector the Unit visited before a Bunker (its current one if it "
                   "never reached a Bunker)",
    "specialists": "the Unit's Specialists left alive",
    "awards": "the Awards the Unit obtained, held or played (face-up and face-down)",
    "RESOURCE": "what the Unit has left of a resource (soldiers, stars, courage, item-points)",
    "drawn-KIND": "the cards of a kind the Unit drew from its deck during the game (drawn-badge)",
}

_BY_NAME = {s.name: s for s in SETTINGS}


def spec_of(key: str, resources: Iterable[str]) -> SettingSpec | None:
    """The spec of a key; ``start-RESOURCE`` keys exist for every resource of rules/resources.yaml."""
    if key in _BY_NAME:
        return _BY_NAME[key]
    if key.startswith("start-") and key[6:] in set(resources):
        return _BY_NAME["start-RESOURCE"]
    return None


def known_keys(resources: Iterable[str]) -> list[str]:
    keys = [s.name for s in SETTINGS if s.name != "start-RESOURCE"]
    return keys + [f"start-{r}" for r in resources]


@attrs.frozen
class Names:
    """The content names setting values may use."""

    resources: Mapping[str, str]  # alias -> canonical
    marker_faces: tuple[str, ...]


Parsed = Any


def parse(key: str, value: Any, names: Names) -> tuple[Parsed, str | None]:
    """A setting's value, parsed; or an error message."""
    spec = spec_of(key, set(names.resources.values()))
    if spec is None:
        return None, f"unknown setting '{key}'"
    if spec.kind == "int":
        if isinstance(value, bool) or not isinstance(value, int):
            return None, f"'{key}' takes {spec.values}"
        too_low = spec.minimum is not None and value < spec.minimum
        if too_low or (spec.maximum is not None and value > spec.maximum):
            low = spec.minimum if spec.minimum is not None else "-"
            high = spec.maximum if spec.maximum is not None else "any"
            return None, f"'{key}' must be from {low} to {high}, not {value}"
        return value, None
    if spec.kind == "bool":
        if not isinstance(value, bool):
            return None, f"'{key}' takes true or false"
        return value, None
    if spec.kind == "str":
        if not isinstance(value, str):
            return None, f"'{key}' takes {spec.values}"
        return _parse_text(key, value.strip(), names)
    if not isinstance(value, list):
        return None, f"'{key}' takes {spec.values}"
    out: list[Any] = []
    seen: set[str] = set()
    for item in value:
        entry, problem = _parse_entry(key, str(item).strip(), names)
        if problem is not None:
            return None, problem
        if entry[0] in seen:
            return None, f"'{key}' lists '{entry[0]}' twice"
        seen.add(entry[0])
        out.append(entry)
    return tuple(out), None


def _parse_text(key: str, text: str, names: Names) -> tuple[Parsed, str | None]:
    words = text.split()
    if key == "regular-specialists":
        if text in {"map", "all"}:
            return (text,), None
        if words and words[0] == "by-cost" and len(words) > 1:
            draws: list[tuple[int, int]] = []
            for w in words[1:]:
                cost, _, n = w.partition(":")
                if not (cost.isdigit() and n.isdigit()):
                    return None, f"'{key}': cannot read '{w}' (write COST:N, as in by-cost 2:3 3:3 4:1)"
                draws.append((int(cost), int(n)))
            return ("by-cost", tuple(draws)), None
        return None, f"'{key}' takes 'map', 'all' or 'by-cost COST:N ...', not '{text}'"
    if key in {"unique-specialists", "special-items"}:
        if text in {"map", "all"}:
            return (text,), None
        if len(words) == 3 and words[0].isdigit() and words[1:] == ["per", "player"]:
            return ("per-player", int(words[0])), None
        return None, f"'{key}' takes 'map', 'all' or 'N per player', not '{text}'"
    if key == "keep-used":
        return (tuple(words), None) if words else (None, f"'{key}' takes kinds of cards, not '{text}'")
    choices = {"another-unit": RECIPIENTS, "group-score": ("lowest", "total")}
    allowed = choices.get(key, ())
    if text not in allowed:
        hint = did_you_mean(text, allowed)
        return None, f"'{key}' takes {' or '.join(allowed)}, not '{text}'" + (f" ({hint})" if hint else "")
    return text, None


def _parse_entry(key: str, text: str, names: Names) -> tuple[Parsed, str | None]:
    head, sep, tail = text.partition(":")
    head, tail = head.strip(), tail.strip()
    if not sep or not head or not tail:
        return None, f"'{key}': cannot read '{text}' (write 'NAME: VALUE')"
    if key == "marker-table":
        if head not in names.marker_faces:
            hint = did_you_mean(head, names.marker_faces)
            return None, f"'{key}': no marker face '{head}'" + (f" ({hint})" if hint else
                                                                   f" (faces: {', '.join(names.marker_faces)})")
        if tail == "nothing":
            return (head, 0, ""), None
        words = tail.split()
        if len(words) != 2 or not words[0].isdigit() or words[1] not in names.resources:
            return None, f"'{key}': '{text}' must give 'N RESOURCE' or 'nothing'"
        return (head, int(words[0]), names.resources[words[1]]), None
    if key == "another-unit-in":
        if head not in SOURCE_KINDS:
            return None, f"'{key}': no kind of source '{head}' (kinds: {', '.join(SOURCE_KINDS)})"
        if tail not in RECIPIENTS:
            return None, f"'{key}': '{tail}' is not one of {', '.join(RECIPIENTS)}"
        return (head, tail), None
    # score
    term = names.resources.get(head, head)
    if (term not in SCORE_TERMS or term in {"RESOURCE", "drawn-KIND"}) and term not in names.resources.values() \
            and not (term.startswith("drawn-") and term != "drawn-KIND"):
        pool = [t for t in SCORE_TERMS if t != "RESOURCE"] + sorted(set(names.resources.values()))
        hint = did_you_mean(head, pool)
        return None, f"'{key}': no score term '{head}'" + (f" ({hint})" if hint else f" (terms: {', '.join(pool)})")
    try:
        points = int(tail)
    except ValueError:
        return None, f"'{key}': '{tail}' is not a whole number of points"
    return (term, points), None


def check_options(options: Mapping[str, tuple[Any, YamlDoc, Any]], names: Names,
                  card_unavailable: Iterable[tuple[str, tuple[str, ...], YamlDoc, Any]],
                  unchecked: Callable[[str, str, int, int], bool] | None = None) -> list[Diagnostic]:
    """Every option's settings and requirements, and every card's ``unavailable-in``, against the registry; a
    name no option has is not reported when ``unchecked(name, file, line, col)`` says it may be one of a file that
    could not be read (loading/reading.py Builder.unchecked)."""
    def missing(oid: str, file: str, line: int, col: int) -> bool:
        return oid not in options and not (unchecked is not None and unchecked(oid, file, line, col))

    out: list[Diagnostic] = []
    resources = sorted(set(names.resources.values()))
    for oid, (opt, doc, node) in options.items():
        for raw_key, value in opt.settings.items():
            key = str(raw_key).replace("_", "-")  # the YAML reader spells keys with '_'; ids never hold one
            _, problem = parse(key, value, names)
            if problem is not None:
                path: list[str | int] = ["settings", key]
                if isinstance(value, list):  # point at the entry at fault
                    for j, item in enumerate(value):
                        if _parse_entry(key, str(item).strip(), names)[1] is not None:
                            path.append(j)
                            break
                unknown = problem.startswith("unknown setting")
                line, col = position(node, path, key=unknown)  # an unknown setting: its name is the mistake
                hint = did_you_mean(key, known_keys(resources)) if unknown else None
                out.append(Diagnostic("OPT001", problem, doc.file, line, col,
                                      hint=hint or "see docs/optional-rules.md for every setting"))
        for j, req in enumerate(opt.requires):
            line, col = position(node, ["requires", j])
            if missing(req, doc.file, line, col):
                out.append(Diagnostic("OPT002", f"option '{oid}' requires '{req}', which does not exist",
                                      doc.file, line, col, hint=did_you_mean(req, options)))
            elif req == oid:
                out.append(Diagnostic("OPT002", f"option '{oid}' requires itself", doc.file, line, col))
    if options:
        for cid, unavailable, doc, node in card_unavailable:
            for j, oid in enumerate(unavailable):
                line, col = position(node, ["unavailable_in", j])
                if missing(oid, doc.file, line, col):
                    out.append(Diagnostic("OPT003", f"card '{cid}' is unavailable in '{oid}', which is no "
                                          "optional rule", doc.file, line, col, severity="warning",
                                          hint=did_you_mean(oid, options)))
    return out


def settings_of(raw: Mapping[str, Any]) -> dict[str, Any]:
    """An option's settings with their keys spelt as in the file (hyphens)."""
    return {str(k).replace("_", "-"): v for k, v in raw.items()}
