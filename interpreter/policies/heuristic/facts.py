"""What a map's Sectors do and where a Unit can still go, read once from the Sectors' effects."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Final

from ddaydice.dsl.schema import Sector
from ddaydice.interpreter.core.api import GameView
from ddaydice.interpreter.game import Game
from ddaydice.interpreter.policies.deciders import ReferencePolicy

if TYPE_CHECKING:
    from ddaydice.interpreter.core.state import Unit


class Facts:
    """What a Sector's effects do, read once from their DSL text. (A plain class rather than an attrs one, so that
    it is a native class when compiled with mypyc; its attributes are Final.)"""

    __slots__ = (
        "award",
        "battle_cry_only",
        "bunker",
        "climb",
        "combat_loss",
        "combat_loss_unless",
        "courage",
        "courage_penalty",
        "enter_soldiers",
        "enter_unless",
        "free_cards",
        "no_battle_cry",
        "no_entry_after",
        "no_stay",
        "printed_cost",
        "retreat",
        "skulls",
        "special_damage",
        "stars",
        "tools",
    )

    def __init__(self, *, courage: int = 0, stars: int = 0, tools: int = 0, skulls: int = 0, courage_penalty: int = 0,
                 enter_soldiers: float = 0.0, free_cards: tuple[str, ...] = (), award: bool = False,
                 combat_loss: float = 0.0, combat_loss_unless: str = "", climb: int = 0, battle_cry_only: bool = False,
                 no_battle_cry: bool = False, no_stay: bool = False, retreat: str | None = None,
                 enter_unless: str | None = None, no_entry_after: tuple[str, ...] = (), bunker: bool = False,
                 printed_cost: int | None = None, special_damage: str | None = None) -> None:
        self.courage: Final = courage  # per turn, added to the Final Tally
        self.stars: Final = stars
        self.tools: Final = tools
        self.skulls: Final = skulls
        self.courage_penalty: Final = courage_penalty
        self.enter_soldiers: Final = enter_soldiers
        self.free_cards: Final = free_cards
        self.award: Final = award
        self.combat_loss: Final = combat_loss  # Mortar Fire, Booby Traps
        self.combat_loss_unless: Final = combat_loss_unless
        self.climb: Final = climb  # Skulls needed to Advance from here
        self.battle_cry_only: Final = battle_cry_only
        self.no_battle_cry: Final = no_battle_cry
        self.no_stay: Final = no_stay
        self.retreat: Final = retreat
        self.enter_unless: Final = enter_unless  # Sector that must be conquered before entering
        self.no_entry_after: Final = no_entry_after  # no entry for a Unit that has been in all these Sectors
        # The Sector as printed (read natively here: the map's Sector is an attrs class, each field a generic read)
        self.bunker: Final = bunker
        self.printed_cost: Final = printed_cost  # its own Advance cost, None: the line's
        self.special_damage: Final = special_damage  # the MGF sixes' special damage here (the Sector's, else the map's)


_ADD: Final = re.compile(r"^on final-tally: add (\d+) (courage|star|tool|skull)")
_REMOVE: Final = re.compile(r"^on final-tally: remove (\d+) (star|courage)")
_FREE: Final = re.compile(r"(?:recruit|find) ([a-z-]+) free")
_CLIMB: Final = re.compile(r"forbid advance unless count skull >= (\d+)")
_RETREAT: Final = re.compile(r"retreat ([a-z0-9-]+)")
_ENTER_UNLESS: Final = re.compile(r"forbid enter unless conquered ([a-z0-9-]+)")
_NO_ENTRY_AFTER: Final = re.compile(r"^forbid enter if ((?:visited [a-z0-9-]+(?: and )?)+)$")


def _parse_facts(texts: Iterable[str], printed: Sector, map_damage: str | None) -> Facts:
    """A Sector's facts from the texts of its effects, and as printed (``map_damage``: the map's special damage)."""
    f: dict[str, Any] = {"bunker": printed.bunker, "printed_cost": printed.cost,
                         "special_damage": printed.special_damage or map_damage}
    cards: list[str] = []
    for text in texts:
        for raw in text.splitlines():
            line = raw.strip()
            if (m := _ADD.match(line)) is not None:
                key = {"courage": "courage", "star": "stars", "tool": "tools", "skull": "skulls"}[m.group(2)]
                f[key] = f.get(key, 0) + int(m.group(1))
            elif (m := _REMOVE.match(line)) is not None:
                if m.group(2) == "courage":  # Stars taken away are not counted by the plan
                    f["courage_penalty"] = f.get("courage_penalty", 0) + int(m.group(1))
            elif line.startswith(("on enter:", "on first-enter")) and "gain 1d6 soldiers" in line:
                f["enter_soldiers"] = f.get("enter_soldiers", 0.0) + 3.5
            elif (m := _FREE.search(line)) is not None and line.startswith(("on enter", "on first-enter")):
                cards.append(m.group(1))
            elif "draw-award" in line and line.startswith(("on enter", "on first-enter")):
                f["award"] = True
            elif line.startswith("on combat") and "lose 1d6 soldiers" in line:
                f["combat_loss"] = f.get("combat_loss", 0.0) + 3.5
                if "unless has " in line:
                    f["combat_loss_unless"] = line.split("unless has ", 1)[1].split(":", 1)[0].strip()
            elif (m := _CLIMB.search(line)) is not None:
                f["climb"] = int(m.group(1))
            elif line == "require battle-cry":
                f["battle_cry_only"] = True
            elif line.startswith("forbid battle-cry"):
                f["no_battle_cry"] = True
            elif line == "forbid stay":
                f["no_stay"] = True
            elif "retreat" in line and (m := _RETREAT.search(line)) is not None:
                f["retreat"] = m.group(1)
            elif (m := _ENTER_UNLESS.search(line)) is not None:
                f["enter_unless"] = m.group(1)
            elif (m := _NO_ENTRY_AFTER.match(line)) is not None:
                f["no_entry_after"] = tuple(re.findall(r"visited ([a-z0-9-]+)", m.group(1)))
    if cards:
        f["free_cards"] = tuple(cards)
    return Facts(**f)


def facts(game: GameView, sid: str) -> Facts:
    """The facts of Sector ``sid`` as it is now (its attributes drawn), read once."""
    state = game.state
    attrs_now = state.sectors[sid].attributes
    # A Sector with no attribute drawn: found among the last game's by its name alone (a game's content, map and
    # variant do not change). The game is told by its state and content, held rather than the game itself, which
    # would then outlive its run. They and the table are one tuple, read and replaced whole: a sweep plays games in
    # threads, and each reads the table of its own game.
    content = game.content
    last = _LAST.game
    if not attrs_now and last[0] is state and last[1] is content:
        hit = last[2].get(sid)
        if hit is not None:
            return hit
    key = (id(content), game.map.id, game.variant.id if game.variant else None, sid,
           tuple(attrs_now) if attrs_now else ())
    found = _FACTS.get(key)
    if found is None:
        found = _parse_facts((src.text for src in game._sector_sources(sid)), game.sectors[sid],
                             game.map.special_damage)
        if len(_FACTS) > 4096:
            _FACTS.clear()
        _FACTS[key] = found
    if not attrs_now:
        if last[0] is not state or last[1] is not content:
            last = _LAST.game = (state, content, {})
        last[2][sid] = found
    return found


class _Last:
    """The game (its state and content) facts() last read plain Sectors of, and their facts by Sector (one slot,
    replaced whole)."""

    __slots__ = ("game",)

    def __init__(self) -> None:
        self.game: tuple[object, object, dict[str, Facts]] = (None, None, {})


_LAST: Final = _Last()
_FACTS: Final[dict[tuple[Any, ...], Facts]] = {}


def first_entry_sectors(game: GameView) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Sectors whose first entry gives something (a free card, an Award) or where a card waits; and Sectors
    that draw a random attribute."""
    key = (id(game.content), game.map.id, game.variant.id if game.variant else None)
    found = _FIRSTS.get(key)
    if found is None:
        placed = {p.sector for p in game.map.placed}
        texts = {sid: " ".join(src.text for src in game._sector_sources(sid)) for sid in game.sectors}
        found = (tuple(sid for sid in game.sectors if sid in placed or "first-enter" in texts[sid]),
                 tuple(sid for sid in game.sectors if "attribute" in texts[sid]))
        _FIRSTS[key] = found
    return found


_FIRSTS: Final[dict[tuple[Any, ...], tuple[tuple[str, ...], tuple[str, ...]]]] = {}


def sector_uses_offered(game: GameView, sector: str) -> bool:
    """Does the engine offer a Sector's own uses (Pointe-du-Hoc's retreat) to a Unit standing there?

    Probed once per map on a throwaway game, so the planner counts on the retreat only where it exists.
    """
    key = (id(game.content), game.map.id, game.variant.id if game.variant else None, sector)
    found = _OFFERED.get(key)
    if found is None:
        probe = Game(game.content, game.map.id, players=1, seed=0,
                     variant=game.variant.id if game.variant else None, options=game.options,
                     deciders=[ReferencePolicy()])
        u = probe.state.units[0]
        probe.state.turn = 10
        u.sector, u.visited, u.entered_turn, u.marker = sector, [sector], 1, "must-move"
        owner = f"{game.map.id}/{sector}"
        found = any(src.owner == owner for src, *_rest in probe.available_uses(u, "movement"))
        _OFFERED[key] = found
    return found


_OFFERED: Final[dict[tuple[Any, ...], bool]] = {}


def reachable(game: GameView, unit: Unit) -> list[str]:
    """The Sectors the Unit may still reach (its own first), in the map's order."""
    seen = {unit.sector}
    todo = [unit.sector]
    while todo:
        x = todo.pop()
        nxt = [to for to, _kind, _cost, _mines, _barrier in game.moves[x]]
        retreat = facts(game, x).retreat
        if retreat is not None:
            nxt.append(retreat)
        for to in nxt:
            if to not in seen and to not in unit.visited:
                seen.add(to)
                todo.append(to)
    return [unit.sector] + [s for s in game.sectors if s in seen and s != unit.sector]
