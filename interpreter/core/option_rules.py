"""The options of one game as a value: the options asked for and those they require, their settings merged and
parsed. The mechanisms these settings switch on live in ``interpreter/mechanisms/options.py``."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import attrs

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


@attrs.frozen
class OptionRules:
    """The options of one game, their requirements included, and their merged, parsed settings."""

    options: tuple[str, ...] = ()
    settings: Mapping[str, Any] = attrs.field(factory=dict)
    origin: Mapping[str, str] = attrs.field(factory=dict)
    # Read in every phase of every turn: worked out once.
    automated_units: bool = attrs.field(init=False)

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "automated_units", bool(self.settings.get("automated-units", False)))

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
    def max_players(self) -> int | None:
        value = self.settings.get("max-players")
        return int(value) if value is not None else None

    @property
    def printed_start(self) -> bool:
        return bool(self.settings.get("printed-start", True))

    @property
    def start(self) -> dict[str, int]:
        """Resources (as Unit attributes) every Unit starts with, in place of the printed ones."""
        return {k[6:].replace("-", "_"): int(v) for k, v in self.settings.items() if k.startswith("start-")}

    @property
    def marker_rolls(self) -> int:
        return int(self.settings.get("marker-rolls", 0))

    @property
    def marker_table(self) -> dict[str, tuple[int, str]]:
        return {face: (n, res) for face, n, res in self.settings.get("marker-table", ())}

    # -------------------------------------------------------- availability
    @property
    def regular(self) -> tuple[Any, ...]:
        return tuple(self.settings.get("regular-specialists", MAP))

    @property
    def unique(self) -> tuple[Any, ...]:
        return tuple(self.settings.get("unique-specialists", MAP))

    @property
    def special_items(self) -> tuple[Any, ...]:
        return tuple(self.settings.get("special-items", MAP))

    # ---------------------------------------------------------- the others
    def another_unit(self, kind: str) -> str:
        """How 'to another unit' resolves in an effect of this kind of source: other, self or nobody."""
        for k, how in self.settings.get("another-unit-in", ()):
            if k == kind:
                return str(how)
        return str(self.settings.get("another-unit", "other"))

    @property
    def every_objective(self) -> bool:
        return self.settings.get("objectives") == "every"

    @property
    def side_loses_at_zero(self) -> bool:
        return bool(self.settings.get("side-loses-at-zero", False))

    @property
    def trading_pool(self) -> int:
        return int(self.settings.get("trading-pool", 0))

    @property
    def score_terms(self) -> tuple[tuple[str, int], ...]:
        """The score table, with the terms other options add to it ('score-also'; nothing without a table)."""
        table = tuple(self.settings.get("score", ()))
        return table + tuple(self.settings.get("score-also", ())) if table else ()

    # ---------------------------------------------------- decks (interpreter/mechanisms/decks.py)
    @property
    def keep_used(self) -> tuple[str, ...]:
        """Kinds of cards that stay with their Unit when used (once per turn each)."""
        return tuple(self.settings.get("keep-used", ()))

    @property
    def item_piles(self) -> int:
        """Piles the Pool's Items are split into, only their tops findable (0: no piles)."""
        return int(self.settings.get("item-piles", 0))

    @property
    def group_score(self) -> str:
        return str(self.settings.get("group-score", "lowest"))
