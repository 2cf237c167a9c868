"""Policies: deciders that play Units by themselves.

- ``random``: uniform among legal answers, seeded per game.
- ``reference``: DESIGN.md section 10, fixed and deterministic (benchmarks, cross-implementation checks).
- ``heuristic``: a competent player: re-rolls towards what it needs, recruits and finds by a priority
  list, uses Items when they pay, advances with a margin of Soldiers.

A policy sees the whole game (as a player at the table does) and answers a
:class:`~ddaydice.interpreter.deciders.Decision` with option indices.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import attrs

from ddaydice.interpreter.deciders import Decider, Decision, RandomDecider, ReferencePolicy

if TYPE_CHECKING:
    from ddaydice.interpreter.engine import Game, Move
    from ddaydice.interpreter.state import Unit

POLICIES = ("random", "reference", "heuristic")

# What a good Unit wants, best first.
SPECIALIST_PRIORITY = ("medic", "beachmaster", "paratrooper", "veteran", "engineer", "minesweeper", "general",
                       "hero", "pathfinder", "chaplain", "platoon-leader", "scout", "sharpshooter", "corporal",
                       "quartermaster", "messenger", "captain", "marksman", "grenadier", "lieutenant", "decoy",
                       "point-man", "combat-photographer", "war-correspondent")
ITEM_PRIORITY = ("bangalore-torpedo", "bazooka", "field-radio", "flame-thrower", "signalling-lamp", "gammon-bomb",
                 "flak-vest", "walkie-talkie", "grenade", "pocket-bible", "mortar", "mine-detector", "lucky-charm",
                 "command-jacket", "dexedrine", "whistle", "medal-case", "toolkit", "binoculars")
INSTANT_GOOD = ("field-radio", "walkie-talkie", "pocket-bible", "signalling-lamp", "lucky-charm", "medal-case",
                "command-jacket")
DEF_BREAKERS = ("bangalore-torpedo", "bazooka", "gammon-bomb", "flame-thrower", "grenade", "flak-vest", "mortar")


@attrs.define
class HeuristicPolicy:
    """A competent player; deterministic given the game (it draws no random numbers)."""

    margin: int = 3
    fallback: ReferencePolicy = attrs.Factory(ReferencePolicy)

    def decide(self, game: Game, decision: Decision) -> tuple[int, ...]:
        unit = game.state.unit(decision.unit)
        kind = decision.kind
        if kind == "lock":
            return self._lock(game, unit, decision)
        if kind == "reroll":
            return self._reroll(game, unit, decision)
        if kind == "cancel":
            return (self._cancel(decision),)
        if kind == "recruit":
            return (self._ranked(decision, SPECIALIST_PRIORITY),)
        if kind == "find":
            return (self._ranked(decision, ITEM_PRIORITY),)
        if kind == "use":
            return (self._use(game, unit, decision),)
        if kind == "move":
            return (self._move(game, unit, decision),)
        if kind == "casualty":
            return (self._casualty(decision),)
        if kind == "or":
            return (self._or(game, unit, decision),)
        if kind == "absorb":
            return (self._absorb(game, unit, decision),)
        if kind == "mulligan":
            return (1,)
        return self.fallback.decide(game, decision)

    # ---------------------------------------------------------------- dice
    def _wants(self, game: Game, unit: Unit) -> list[str]:
        need = game.courage_to_bunker.get(unit.sector, 0)
        if unit.courage < min(need, 4):
            return ["two-soldiers", "courage", "one-soldier", "tool", "star", "skull"]
        return ["two-soldiers", "one-soldier", "courage", "tool", "star", "skull"]

    def _lock(self, game: Game, unit: Unit, d: Decision) -> tuple[int, ...]:
        order = self._wants(game, unit)
        rank = {f: i for i, f in enumerate(order)}
        best = sorted(range(len(d.options)), key=lambda i: (rank.get(d.keys[i][1], 99), d.keys[i][0]))
        return tuple(sorted(best[: d.min_picks]))

    def _reroll(self, game: Game, unit: Unit, d: Decision) -> tuple[int, ...]:
        keep = {"one-soldier", "two-soldiers", "courage"}
        faces = [k[1] for k in d.keys]
        # Keep Tools when they pile up (Item Points grow fast), Stars when a Specialist is close.
        if faces.count("tool") >= 3:
            keep.add("tool")
        if unit.stars + faces.count("star") >= 3 and faces.count("star") >= 2:
            keep.add("star")
        if faces.count("skull") >= 3:
            keep.add("skull")
        return tuple(i for i, f in enumerate(faces) if f not in keep)

    def _cancel(self, d: Decision) -> int:
        order = ("skull", "star", "tool", "one-soldier", "courage", "two-soldiers")
        rank = {f: i for i, f in enumerate(order)}
        return min(range(len(d.options)), key=lambda i: (rank.get(d.keys[i][1], 99), i))

    # --------------------------------------------------------- purchases
    def _ranked(self, d: Decision, priority: tuple[str, ...]) -> int:
        rank = {c: i for i, c in enumerate(priority)}
        cands = [(rank.get(k if isinstance(k, str) else k[0] if isinstance(k, tuple) else "", 99), i)
                 for i, k in enumerate(d.keys) if k is not None]
        if not cands:
            return 0
        # Anything is better than nothing: a Specialist counts as a Soldier, an Item is a spare shot.
        return min(cands)[1]

    def _use(self, game: Game, unit: Unit, d: Decision) -> int:
        sector = game.sectors[unit.sector]
        for i, key in enumerate(d.keys):
            if key is None:
                continue
            owner = key[0]
            if owner in INSTANT_GOOD:
                return i
            if owner in DEF_BREAKERS and "mgf" in d.prompt and (sector.bunker or max(sector.defense) >= 8):
                return i
        return 0

    # ------------------------------------------------------------ moving
    def _move(self, game: Game, unit: Unit, d: Decision) -> int:
        moves: list[Move] = list(d.keys)
        stay = next((i for i, m in enumerate(moves) if m.kind == "stay"), None)
        soldiers = game.soldier_count(unit)

        def danger(m: Move) -> float:
            sec = game.sectors[m.to or unit.sector]
            mines = 3.5 if m.landmines else 0.0
            return sec.defense[0] + 3.5 * sec.mgf + mines

        choices = [(danger(m), game._number(m.to or ""), i) for i, m in enumerate(moves) if m.kind != "stay"]
        advances = [(danger(m), game._number(m.to or ""), i) for i, m in enumerate(moves) if m.kind == "advance"]
        if advances:
            dmg, _, best = min(advances)
            target = game.sectors[moves[best].to or ""]
            if target.bunker and soldiers > dmg + self.margin:
                return best
            need = game.courage_to_bunker.get(moves[best].to or "", 0)
            if soldiers > dmg + self.margin + 2 and unit.courage - moves[best].cost >= min(need, 3):
                return best
        if stay is not None:
            here = game.sectors[unit.sector]
            if here.bunker or unit.marker not in {"chevron-3"} or not choices:
                return stay
        if choices:
            return min(choices)[2]
        return stay if stay is not None else 0

    # ---------------------------------------------------------- casualties
    def _casualty(self, d: Decision) -> int:
        for i, key in enumerate(d.keys):
            if key[0] == "soldiers":
                return i
        worst = len(SPECIALIST_PRIORITY)
        rank = {c: i for i, c in enumerate(SPECIALIST_PRIORITY)}
        return max(range(len(d.keys)), key=lambda i: rank.get(d.keys[i][1], worst))

    def _or(self, game: Game, unit: Unit, d: Decision) -> int:
        labels = [o.lower() for o in d.options]
        for i, label in enumerate(labels):
            if "soldier" in label and "gain" in label:
                return i
        return 0

    def _absorb(self, game: Game, unit: Unit, d: Decision) -> int:
        if "courage" in d.prompt.lower():
            need = game.courage_to_bunker.get(unit.sector, 0)
            spare = max(0, unit.courage - need)
            return min(spare, len(d.options) - 1)
        return len(d.options) - 1


def make_policy(name: str, seed: int = 0) -> Decider:
    if name == "random":
        return RandomDecider(seed)
    if name == "reference":
        return ReferencePolicy()
    if name == "heuristic":
        return HeuristicPolicy()
    raise ValueError(f"no policy '{name}' (policies: {', '.join(POLICIES)})")


def describe(name: str) -> str:
    return {"random": "uniformly random legal choices (seeded)",
            "reference": "the fixed reference policy of DESIGN.md section 10",
            "heuristic": "a competent player (priorities, margins, Items when they pay)"}.get(name, name)


__all__: list[Any] = ["POLICIES", "HeuristicPolicy", "describe", "make_policy"]
