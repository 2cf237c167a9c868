"""Phase 2, Upkeep: Skulls cancel, RWB bonuses score, the Final Tally is collected, the Unit marker advances."""

from __future__ import annotations

from mypy_extensions import mypyc_attr, trait

from ddaydice.dsl.words.english import amount_of
from ddaydice.dsl.words.events import TALLY_READ
from ddaydice.interpreter.core.api import GameAPI
from ddaydice.interpreter.core.state import (
    NEXT_MARKER,
    STAY_FORBIDDEN,
    Die,
    Unit,
)
from ddaydice.interpreter.core.values import die_label


@trait
@mypyc_attr(allow_interpreted_subclasses=True)
class UpkeepPhase(GameAPI):
    """Phase 2, Upkeep: Skulls cancel, RWB bonuses score, the Final Tally is collected, the Unit marker advances."""

    def counts_face(self, face: str) -> bool:
        if self.keep_faces is not None:
            return face in self.keep_faces
        if face == "star" and "stars" in self.ignore:
            return False
        return not (face == "tool" and "tools" in self.ignore)

    def phase_upkeep(self) -> None:
        for unit in (self.side_players() if self.state.sides else []) + self.acting():
            self.upkeep_for(unit)

    def upkeep_for(self, unit: Unit) -> None:
        self.fire("upkeep", unit)
        tally = unit.tally
        # ruling: the straight is read on the Final Tally, before Skulls cancel anything.
        if self.keep_faces is None and unit.awards_drawn == 0 and self._face_set <= {d.face for d in tally}:
            self.fire("straight", unit)
        rwb_on = "rwb" not in self.ignore
        # The Skulls' RWB (Dead Man's Gift; the German's Distribution) is read before Skulls cancel: its
        # three Skulls cancel nothing.
        gift_id, others = self._rwb_plan.get(unit.side) or self._plan_rwb(unit.side)
        gift: list[Die] = []
        if rwb_on and gift_id:  # of fewer colours than the player rolls if a card says so (gift-colours)
            gift = self._rwb_dice(unit, gift_id, self.value("gift-colours", unit))
        self._cancel(unit, exclude=gift)
        # ruling 1.9: what reads the Final Tally's results ('on final-tally if same-face >= 4', 'per star') reads the
        # complete one: every result added in Phase 1, each die a Skull cancelled left out.
        self.fire(TALLY_READ, unit)
        if unit.status != "active":
            return  # what read the Final Tally wiped the Unit out: it collects nothing
        if rwb_on:
            if gift:
                self._score_rwb(unit, gift_id, gift)
            for _ in range(4):
                scored = False
                free = self._rwb_free(unit)
                for rid, needs in others:
                    if not needs <= free:
                        continue  # some colour shows no free die of this face
                    dice = self._rwb_dice(unit, rid)
                    if dice:
                        self._score_rwb(unit, rid, dice)
                        scored = True
                        free = self._rwb_free(unit)
                if not scored:
                    break
        self._collect(unit)
        if not unit.side:
            self._advance_marker(unit)

    def _plan_rwb(self, side: str) -> tuple[str, tuple[tuple[str, frozenset[tuple[str | None, str]]], ...]]:
        """A player's RWB table, once per plan: the Skulls' RWB ('' if none), and each other RWB with the (face,
        colour) pairs it needs among the free dice of the Final Tally."""
        table = self.side_rwb[side] if side else self.rwb_sources
        colours = self.side_defs[side].colours if side else self.content.dice.colours
        gift_id = next((rid for rid in table if self.rwb_faces.get(rid) == "skull"), "")
        others = tuple((rid, frozenset((self.rwb_faces.get(rid), colour) for colour in colours))
                       for rid in table if rid != gift_id)
        found = self._rwb_plan[side] = (gift_id, others)
        return found

    @staticmethod
    def _rwb_free(unit: Unit) -> set[tuple[str, str | None]]:
        """The (face, colour) pairs of the Final Tally's dice that could still score an RWB bonus."""
        return {(d.face, d.colour) for d in unit.tally if not d.cancelled and d.source != "rwb-used"}

    def _rwb_dice(self, unit: Unit, rid: str, need: int | None = None) -> list[Die]:
        """The free dice of the RWB's face that score it: one of each colour the player rolls, or of ``need``
        different colours (the first in the colours' order), else none."""
        face = self.rwb_faces.get(rid)
        colours = self.side_defs[unit.side].colours if unit.side else self.content.dice.colours
        need = len(colours) if need is None else min(need, len(colours))
        picked: list[Die] = []
        for colour in colours:
            die = next((d for d in unit.tally if d.face == face and d.colour == colour and not d.cancelled
                        and d.source != "rwb-used"), None)
            if die is not None:
                picked.append(die)
                if len(picked) == need:
                    return picked
        return []

    def _score_rwb(self, unit: Unit, rid: str, dice: list[Die]) -> None:
        for d in dice:
            d.source = "rwb-used"
        src = self.side_rwb[unit.side][rid] if unit.side else self.rwb_sources[rid]
        if self.tracing:
            self.log("rwb", f"{unit.name} scores {src.name}", unit, src.owner, src.tier)
        self.fire("rwb", unit, only=src)
        self.fire("rwb", unit)

    def skulls_cancel(self, unit: Unit, *, use: bool = False) -> bool:
        """Whether the Skulls of the Unit's Final Tally cancel other results: not in a variant that ignores Skulls
        or keeps no Skull face, nor for a Unit allowed to ignore them ('ignore skulls', the permission
        ignore-skulls; ``use``: its Skulls are about to cancel, and a limited permission is used)."""
        if "skulls" in self.ignore or (self.keep_faces is not None and "skull" not in self.keep_faces):
            return False
        return not self.flag("ignore-skulls", unit, use=use)

    @staticmethod
    def cancellable(d: Die) -> bool:
        """Whether a Skull may cancel this result: a die (ruling 1.10: '1 other die'; a result an effect added,
        coloured or not, is on no die), not a Skull, not cancelled already."""
        return d.real and d.face != "skull" and not d.cancelled

    def _cancel(self, unit: Unit, exclude: list[Die]) -> None:
        # ruling 1.8: the dice of the Skulls' RWB by identity, not by value (a blue Skull traded in equals the
        # blue Skull of the RWB, and was taken for it)
        gift = {id(d) for d in exclude}
        skulls = [d for d in unit.tally if d.face == "skull" and id(d) not in gift]
        n = len(skulls) - self.value("skulls-ignored", unit)
        if n <= 0 or not any(self.cancellable(d) for d in unit.tally) or not self.skulls_cancel(unit, use=True):
            return  # no Skull would cancel anything; a Unit that ignores them uses its permission when one would
        for _ in range(max(n, 0)):
            targets = [d for d in unit.tally if self.cancellable(d)]
            if not targets:
                return
            i = self.ask_keys(unit, "cancel", f"{unit.name}: a Skull cancels which result?",
                              [(d.index, d.face, d.colour) for d in targets], die_label)
            targets[i].cancelled = True

    def _collect(self, unit: Unit) -> None:
        worth = self._face_worth
        if not worth:
            # What each face of the Final Tally is worth in this game (variants count only some faces), once per
            # plan.
            for face in self._faces:
                if not self.counts_face(face):
                    continue
                if self._soldier_faces.get(face):
                    worth[face] = ("soldiers", self._soldier_faces[face])
                elif face in {"star", "courage"}:
                    worth[face] = ("stars" if face == "star" else "courage", 1)
                elif face == "tool":
                    worth[face] = ("tools", 1)
        soldiers = stars = courage = tools = 0
        for d in unit.tally:
            if d.cancelled:
                continue
            got = worth.get(d.face)
            if got is None:
                continue
            what = got[0]
            if what == "soldiers":
                soldiers += got[1]
            elif what == "tools":
                tools += 1
            elif what == "courage":
                courage += got[1]
            else:
                stars += got[1]
        table = self.content.dice.tool_table
        points = table[tools] if tools < len(table) else table[-1] + (tools - len(table) + 1) * \
            self.content.dice.tool_table_step
        unit.soldiers += soldiers
        unit.stars += stars
        unit.courage += courage
        unit.item_points += points
        if self.tracing:
            gains = {"soldiers": soldiers, "stars": stars, "courage": courage}
            self.log("collect", f"{unit.name} collects {amount_of(soldiers, 'soldiers')}, {amount_of(stars, 'stars')}, "
                     f"{amount_of(courage, 'courage')}, {amount_of(points, 'item-points')}", unit, gains=gains,
                     item_points=points)

    def _advance_marker(self, unit: Unit) -> None:
        if unit.marker in STAY_FORBIDDEN:
            return
        if not self.flag("marker-advance", unit, use=True):
            return
        nxt = NEXT_MARKER.get(unit.marker)
        stay = self.value("stay-turns", unit)
        if nxt is None or unit.chevrons() >= stay:
            unit.marker = "must-move"
        else:
            unit.marker = nxt
