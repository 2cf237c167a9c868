"""The options of one game as a value: the options asked for and those they require, their settings merged and
parsed. The mechanisms these settings switch on live in ``interpreter/mechanisms/options.py``."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ddaydice.dsl.diagnostics import RuleError
from ddaydice.dsl.loader import Content
from ddaydice.dsl.settings import Names, parse, settings_of

MAP = ("map",)


def names_of(content: Content) -> Names:
    return Names(resources=content.vocab.resources, marker_faces=tuple(f.id for f in content.game.marker_faces))


def _add_option(content: Content, order: list[str], oid: str, why: str | None) -> None:
    """Adds an optional rule and, before what follows it, the rules it requires."""
    if oid in order:
        return
    if oid not in content.options:
        known = ", ".join(sorted(content.options)) or "none"
        raise RuleError(f"no optional rule '{oid}'" + (f" (required by '{why}')" if why else "")
                        + f" (there are: {known})")
    order.append(oid)
    for req in content.options[oid].requires:
        _add_option(content, order, req, oid)


class OptionRules:
    """The options of one game, their requirements included, and their merged, parsed settings.

    A value: made once per game plan and never changed. What the turn reads is worked out once, as attributes
    (a plain class, which mypyc makes native: compiled.txt)."""

    def __init__(self, options: tuple[str, ...] = (), settings: Mapping[str, Any] | None = None,
                 origin: Mapping[str, str] | None = None) -> None:
        s: Mapping[str, Any] = {} if settings is None else settings
        self.options = options
        self.settings = s
        self.origin: Mapping[str, str] = {} if origin is None else origin
        self.automated_units = bool(s.get("automated-units", False))
        value = s.get("max-players")
        self.max_players: int | None = int(value) if value is not None else None
        self.printed_start = bool(s.get("printed-start", True))
        self.marker_rolls = int(s.get("marker-rolls", 0))
        self.regular: tuple[Any, ...] = tuple(s.get("regular-specialists", MAP))
        self.unique: tuple[Any, ...] = tuple(s.get("unique-specialists", MAP))
        self.special_items: tuple[Any, ...] = tuple(s.get("special-items", MAP))
        self.side_loses_at_zero = bool(s.get("side-loses-at-zero", False))
        self.trading_pool = int(s.get("trading-pool", 0))
        table = tuple(s.get("score", ()))
        # the score table, with the terms other options add to it ('score-also'; nothing without a table)
        self.score_terms: tuple[tuple[str, int], ...] = table + tuple(s.get("score-also", ())) if table else ()
        # kinds of cards that stay with their Unit when used, once per turn each (interpreter/mechanisms/decks.py)
        self.keep_used: tuple[str, ...] = tuple(s.get("keep-used", ()))
        self.item_piles = int(s.get("item-piles", 0))  # piles the Pool's Items are split into (0: no piles)
        self.group_score = str(s.get("group-score", "lowest"))

    def __repr__(self) -> str:
        return f"OptionRules(options={self.options!r}, settings={dict(self.settings)!r})"

    @classmethod
    def build(cls, content: Content, wanted: Iterable[str]) -> OptionRules:
        order: list[str] = []
        for oid in wanted:
            _add_option(content, order, oid, None)
        names = names_of(content)
        settings: dict[str, Any] = {}
        origin: dict[str, str] = {}
        raw_of: dict[str, Any] = {}
        for oid in order:
            for key, raw in settings_of(content.options[oid].settings).items():
                value, problem = parse(key, raw, names)
                if problem is not None:
                    raise RuleError(f"optional rule '{oid}': {problem}")
                if key in settings and raw_of[key] != raw:
                    raise RuleError(f"the optional rules '{origin[key]}' and '{oid}' cannot be played together: "
                                    f"they set '{key}' to {raw_of[key]!r} and {raw!r}")
                settings[key] = value
                origin[key] = oid
                raw_of[key] = raw
        return cls(tuple(order), settings, origin)

    # -------------------------------------------------------------- set-up
    @property
    def start(self) -> dict[str, int]:
        """Resources (as Unit attributes) every Unit starts with, in place of the printed ones."""
        return {k[6:].replace("-", "_"): int(v) for k, v in self.settings.items() if k.startswith("start-")}

    @property
    def marker_table(self) -> dict[str, tuple[int, str]]:
        return {face: (n, res) for face, n, res in self.settings.get("marker-table", ())}

    # ---------------------------------------------------------- the others
    def another_unit(self, kind: str) -> str:
        """How 'to another unit' resolves in an effect of this kind of source: other, self or nobody."""
        for k, how in self.settings.get("another-unit-in", ()):
            if k == kind:
                return str(how)
        return str(self.settings.get("another-unit", "other"))
