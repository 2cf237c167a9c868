"""JSON Schemas of the content files, generated from the attrs classes the loader structures them into.

The loader reads each file into a class of dsl/schema.py with a strict cattrs converter (dsl/yamlsrc.py): no
number for text, no text for a list, whole numbers within their ``Range``, ids that are slugs, no unknown key.
The schema of a file is written from the same classes by the same rules, so it is never written twice:
``dday schema KIND`` prints it, ``schemas/KIND.json`` publishes it (tests/test_json_schema.py checks that the
published files are the generated ones, and that every bundled file is valid against its schema).

A YAML language server (VS Code's YAML extension, any editor with one) reads the schema named on a file's
first line and completes and checks its keys as they are typed::

    # yaml-language-server: $schema=../schemas/cards.json

Keys are written as the documentation writes them (``item-points``); the loader also takes ``item_points``, the
schema does not, so that an editor offers one spelling. The schema checks the shape of a file; what only the loader
knows (an id that refers to a card of another
file, an effect's words) is still checked by ``dday validate``.
"""

from __future__ import annotations

import types
import typing
from typing import Any, Literal

import attrs

from ddaydice.dsl import schema
from ddaydice.dsl.limits import MAX_TABLE_NUMBER, IdRule, Range, RulingRefRule, RulingRule
from ddaydice.dsl.sandbox import SLUG
from ddaydice.dsl.yamlsrc import attr_to_key


class SchemaPart:
    """A mark for a free-form part of a file (kept as plain data by its reader and checked by its own code, a
    scenario's steps): the JSON Schema written for it, from the tables that code checks against, so that an
    editor completes and checks it too (``Annotated[tuple[Any, ...], SchemaPart({...})]``)."""

    __slots__ = ("fragment",)

    def __init__(self, fragment: dict[str, Any]) -> None:
        self.fragment = fragment


# Each kind of content file: the class its YAML is structured into, and where such files live.
KINDS: dict[str, tuple[type[Any], str]] = {
    "pack": (schema.Manifest, "an expansion pack's manifest: expansions/NAME/pack.yaml, PACK/pack.yaml"),
    "cards": (schema.CardFile, "a file of cards of one kind: cards/*.yaml, PACK/cards/*.yaml"),
    "map": (schema.BattleMap, "a battle map: maps/*.yaml, PACK/maps/*.yaml"),
    "option": (schema.OptionDef, "an optional rule: rules/options/*.yaml, PACK/rules/options/*.yaml"),
    "dice": (schema.DiceRules, "the dice: rules/dice.yaml"),
    "resources": (schema.ResourceRules, "the resources: rules/resources.yaml"),
    "precedence": (schema.PrecedenceRules, "the precedence tiers: rules/precedence.yaml"),
    "phases": (schema.PhaseRules, "the phases of a turn: rules/phases.yaml"),
    "queries": (schema.QueryRules, "the values effects change: rules/queries.yaml"),
    "rwb": (schema.RwbRules, "the Red, White and Blue bonuses: rules/rwb.yaml, PACK/rules/rwb.yaml"),
    "game": (schema.GameRules, "the game rules' effects: rules/game.yaml, PACK/rules/game.yaml"),
    "kinds": (schema.KindRules, "the kinds of cards a pack declares: PACK/rules/kinds.yaml"),
    "sides": (schema.SideRules, "the other sides than the Units (the German player): PACK/rules/sides.yaml"),
    "rulings": (schema.RulingRules, "the rulings content may cite: rules/rulings.yaml, PACK/rules/rulings.yaml"),
}


def json_schema(kind: str) -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of one kind of content file (a key of ``KINDS``)."""
    cls, where = KINDS[kind]
    return schema_for(cls, where)


def schema_for(cls: type[Any], where: str) -> dict[str, Any]:
    """The JSON Schema of a file read into the attrs class ``cls`` by the strict converter (``where``: what the
    file is and where it lives, its title). Free-form parts (``Any``) accept anything: their own checks say more."""
    defs: dict[str, Any] = {}
    root = _object(cls, defs)
    out: dict[str, Any] = {"$schema": "https://json-schema.org/draft/2020-12/schema",
                           "title": f"D-Day Dice content: {where}", **root}
    defs.pop(cls.__name__, None)
    if defs:
        out["$defs"] = dict(sorted(defs.items()))
    return out


def _object(cls: type[Any], defs: dict[str, Any]) -> dict[str, Any]:
    """An attrs class as an object: its fields under their YAML keys, those without a default required."""
    hints = typing.get_type_hints(cls, include_extras=True)
    props: dict[str, Any] = {}
    required: list[str] = []
    for field in attrs.fields(cls):
        key = attr_to_key(field.name)
        props[key] = _type(hints[field.name], defs)
        if field.default is attrs.NOTHING:
            required.append(key)
    out: dict[str, Any] = {"type": "object", "properties": props, "additionalProperties": False}
    if required:
        out["required"] = required
    doc = (cls.__doc__ or "").strip()
    if doc and not doc.startswith(f"{cls.__name__}("):  # attrs writes no docstring; a generated one says nothing
        out["description"] = " ".join(doc.split())
    return out


def _type(tp: Any, defs: dict[str, Any]) -> dict[str, Any]:
    """One type as the strict converter takes it (dsl/yamlsrc.py ``_strict_converter``)."""
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if origin is typing.Annotated:
        out = _type(args[0], defs)
        for mark in args[1:]:
            if isinstance(mark, Range):
                out.update(minimum=mark.low, maximum=mark.high)
            elif isinstance(mark, IdRule):
                out.update(pattern=f"^{SLUG.pattern}$")
            elif isinstance(mark, RulingRule):  # text, or a number as written (7.3)
                out = {"anyOf": [{"type": "string", "pattern": f"^{RulingRule.PATTERN}$",
                                  "maxLength": RulingRule.MAX_CHARS}, {"type": "number"}]}
            elif isinstance(mark, RulingRefRule):  # a number, or {ruling: NUMBER, query: ID or [IDS]}
                number = {"anyOf": [{"type": "string", "pattern": f"^{RulingRule.PATTERN}$",
                                     "maxLength": RulingRule.MAX_CHARS}, {"type": "number"}]}
                query = {"type": "string", "pattern": f"^{SLUG.pattern}$"}
                out = {"anyOf": [number, {
                    "type": "object", "properties": {"ruling": number, "query": {
                        "anyOf": [query, {"type": "array", "items": query}]}},
                    "required": ["ruling"], "additionalProperties": False}]}
            elif isinstance(mark, SchemaPart):
                out = dict(mark.fragment)
        return out
    if origin in (typing.Union, types.UnionType):
        options = [_type(a, defs) for a in args]
        return options[0] if len(options) == 1 else {"anyOf": options}
    if origin is Literal:
        return {"enum": list(args)}
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return {"type": "array", "items": _type(args[0], defs)}
        return {"type": "array", "prefixItems": [_type(a, defs) for a in args], "items": False,
                "minItems": len(args)}
    if origin is list:
        return {"type": "array", "items": _type(args[0], defs) if args else {}}
    if tp == _SETTINGS_TYPE:
        return {"type": "object", "additionalProperties": _SETTING}
    if origin is dict:
        return {"type": "object", "additionalProperties": _type(args[1], defs)}
    if tp is Any:
        return {}
    if tp is type(None):
        return {"type": "null"}
    if tp is bool:
        return {"type": "boolean"}
    if tp is int:
        return {"type": "integer"}
    if tp is float:
        return {"type": "number"}
    if tp is str:
        return {"type": "string"}
    if attrs.has(tp):
        if tp.__name__ not in defs:
            defs[tp.__name__] = {}  # a placeholder first: a class may contain itself
            defs[tp.__name__] = _object(tp, defs)
        return {"$ref": f"#/$defs/{tp.__name__}"}
    raise TypeError(f"no JSON Schema for {tp!r}")


_SETTINGS_TYPE = dict[str, int | bool | str | list[str]]
# An optional rule's settings (yamlsrc ``_settings``): bounded numbers, true/false, text, or lists of text.
_SETTING = {"anyOf": [{"type": "integer", "minimum": -MAX_TABLE_NUMBER, "maximum": MAX_TABLE_NUMBER},
                      {"type": "boolean"}, {"type": "string"}, {"type": "array", "items": {"type": "string"}}]}
