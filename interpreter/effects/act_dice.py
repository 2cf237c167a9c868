"""Actions on the Final Tally: results added and removed; dice re-rolled, changed, recoloured, copied, kept."""

from __future__ import annotations

from typing import Any

import attrs
from mypy_extensions import trait

from ddaydice.dsl.words.actions_tally import REROLL_SKULL
from ddaydice.interpreter.core.state import (
    Die,
)
from ddaydice.interpreter.effects.context import ContextBase


@trait
class DiceActions(ContextBase):
    """Actions on the Final Tally: results added and removed; dice re-rolled, changed, recoloured, copied, kept."""

    __slots__ = ()

    def add_result(self, face: str, amount: int, colour: str | None, recipient: str | None) -> None:
        g = self.game
        faces = [f.id for f in g.content.dice.faces]
        for u in self._recipients(recipient):
            for _ in range(min(amount, 12)):
                chosen = face
                if face == "any":
                    chosen = faces[g.ask_one(u, "choose", f"{self.source.name}: which result to add?", faces, faces,
                                               topic="add-result", detail=colour)]
                col = colour
                if colour == "any-colour":
                    cols = list(g.content.dice.colours)
                    col = cols[g.ask_one(u, "choose", f"{self.source.name}: which colour?", cols, cols,
                                         topic="add-colour", detail=chosen)]
                u.tally.append(Die(chosen, col, -1, real=False, source=self.source.owner))
                if g.tracing:
                    g.log("add-result", f"{u.name}'s tally gains a {col or 'colourless'} {chosen}", u,
                          self.source.owner, self.source.tier)

    def remove_result(self, face: str, amount: int) -> None:
        u = self._me()
        removed = 0
        for d in list(u.tally):
            if removed >= amount:
                break
            if d.face == face and not d.cancelled:
                u.tally.remove(d)
                removed += 1
        if removed and self.game.tracing:
            self.game.log("remove-result", f"{u.name}'s tally loses {removed} {face}", u, self.source.owner,
                          self.source.tier)

    def _no_die(self, what: str) -> None:
        """Tell in the trace that the effect found no die to act on (a card played so is spent all the same:
        ruling 10.8)."""
        if self.game.tracing:
            u = self._me()
            self.game.log("no-die", f"{self.source.name}: {u.name} has no die to {what}; nothing changes", u,
                          self.source.owner, self.source.tier)

    def _dice(self, filters: tuple[str, ...]) -> list[Die]:
        u = self._me()
        g = self.game
        colours = set(g.content.dice.colours)
        faces = {f.id for f in g.content.dice.faces}
        out = []
        for d in u.tally:
            if not d.real and "any-roll" not in filters:
                continue
            if d.locked and "locked" not in filters:
                continue
            if any(f in colours for f in filters) and d.colour not in filters:
                continue
            if any(f in faces for f in filters) and d.face not in filters:
                continue
            out.append(d)
        return out

    def reroll(self, count: int | None, filters: tuple[str, ...]) -> None:
        g = self.game
        u = self._me()
        skulls_ok = self._permitted(REROLL_SKULL)  # rulings 7.4, 7.5
        cands = [d for d in self._dice(filters) if skulls_ok or d.face != "skull"]
        skull = False  # a Skull re-rolled: the re-roll uses the permission (a limit on it counts it)
        faces = [f.id for f in g.content.dice.faces]
        if not cands:
            self._no_die("re-roll")
            return
        if count is None:  # 'reroll all die': every die the filters allow, nobody chooses
            for d in cands:
                old = d.face
                skull = skull or old == "skull"
                d.face = faces[g.d6() - 1]
                g.log("reroll", f"{u.name} re-rolls {d.colour} {old} -> {d.face}", u, self.source.owner,
                      self.source.tier)
            if skull:
                self._permitted(REROLL_SKULL, use=True)
            return
        for _ in range(count):
            if not cands:
                break
            i = g.ask_one(u, "choose", f"{self.source.name}: re-roll which die?",
                          [f"{d.colour} {d.face}" for d in cands], [(d.index, d.face) for d in cands],
                          topic="reroll-die")
            d = cands.pop(i)
            old = d.face
            skull = skull or old == "skull"
            d.face = faces[g.d6() - 1]
            if g.tracing:
                g.log("reroll", f"{u.name} re-rolls {d.colour} {old} -> {d.face}", u, self.source.owner,
                      self.source.tier)
        if skull:
            self._permitted(REROLL_SKULL, use=True)

    def reface(self, count: int | None, filters: tuple[str, ...], same: bool, face: str | None = None) -> None:
        """Change the result of dice of the Final Tally (``filters``; 'any-roll': MGF and Landmine dice too) to
        a face the player chooses, or to ``face`` when the effect names it."""
        g = self.game
        u = self._me()
        faces = [f.id for f in g.content.dice.faces]
        targets: list[Any] = list(self._dice(filters))
        if "any-roll" in filters:
            for sid, sec in g.state.sectors.items():
                if sec.mgf_roll and sec.mgf_turn == g.state.turn and sid == u.sector:
                    targets += [("mgf", sid, i) for i in range(len(sec.mgf_roll))]
            if g.open_roll is not None:  # a roll about to take effect (a Landmine die, a Random Attribute roll)
                targets += [("open", "", i) for i in range(len(g.open_roll.dice))]
        if not targets:
            self._no_die("change")
            return
        if count is None:
            chosen = targets
        else:
            chosen = []
            for _ in range(count):
                if not targets:
                    break
                i = g.ask_one(u, "choose", f"{self.source.name}: change which die?",
                              [self._label(t) for t in targets], list(range(len(targets))), topic="reface-die")
                chosen.append(targets.pop(i))
        new_face: str | None = face
        for t in chosen:
            if isinstance(t, tuple):
                what, sid, i = t
                rolls: list[int] | None = g.state.sectors[sid].mgf_roll if what == "mgf" else None
                name = "MGF"
                if what == "open" and g.open_roll is not None:
                    rolls, name = g.open_roll.dice, g.open_roll.name
                assert rolls is not None
                pick = g.ask_one(u, "choose", f"{self.source.name}: set the {name} die to?",
                                  [str(n) for n in range(1, 7)], topic="set-die", detail=name)
                old = rolls[i]
                rolls[i] = pick + 1
                if g.tracing:
                    g.log("reface", f"{u.name} changes {self._label(t)} from {old} to {rolls[i]}", u,
                          self.source.owner, self.source.tier)
                continue
            if face is None and (new_face is None or not same):
                new_face = faces[g.ask_one(u, "choose", f"{self.source.name}: change {t.colour} {t.face} to?",
                                           faces, faces, topic="reface-face", detail=t.colour)]
            t.face = new_face
            if g.tracing:
                g.log("reface", f"{u.name} changes a {t.colour} die to {new_face}", u, self.source.owner,
                      self.source.tier)

    def _label(self, t: Any) -> str:
        if isinstance(t, tuple):
            if t[0] == "open" and self.game.open_roll is not None:
                return f"the {self.game.open_roll.name} die"
            return f"MGF die {t[2] + 1}"
        return f"{t.colour} {t.face}"

    def recolour(self, count: int, filters: tuple[str, ...]) -> None:
        g = self.game
        u = self._me()
        cands = self._dice(filters)
        cols = list(g.content.dice.colours)
        if not cands and count > 0:
            self._no_die("recolour")
            return
        for _ in range(count):
            if not cands:
                return
            i = g.ask_one(u, "choose", f"{self.source.name}: change the colour of which die?",
                          [f"{d.colour} {d.face}" for d in cands], [(d.index, d.face) for d in cands],
                          topic="recolour-die")
            d = cands.pop(i)
            d.colour = cols[g.ask_one(u, "choose", "to which colour?", cols, cols, topic="recolour-colour")]

    def copy_tally(self) -> None:
        g = self.game
        u = self._me()
        others = [o for o in g.state.active_units() if o is not u]
        if not others:
            return
        i = g.ask_one(u, "choose", f"{self.source.name}: copy whose Final Tally?", [o.name for o in others],
                      [o.id for o in others], topic="copy-tally")
        u.tally = [attrs.evolve(d, locked=False) for d in others[i].tally if d.real]

    def keep_tally(self) -> None:
        u = self._me()
        u.kept_tally = [attrs.evolve(d, cancelled=False) for d in u.tally if d.real]

    def steal(self, count: int, filters: tuple[str, ...]) -> None:
        """Take dice from an opponent's Final Tally (another side's player); colours change by colour-alias."""
        g = self.game
        me = self._me()
        foes = g.state.active_units() if me.side else g.side_players()
        if not foes:
            return
        foe = foes[g.ask_one(me, "choose", f"{self.source.name}: take a die from whom?", [f.name for f in foes],
                             [f.id for f in foes], topic="take-from")] if len(foes) > 1 else foes[0]
        side = g.side_defs.get(foe.side or me.side or "")
        alias = dict(side.colour_alias) if side is not None else {}
        colours = set(g.content.dice.colours) | {c for d in g.side_defs.values() for c in d.colours}
        faces = {f.id for f in g.content.dice.faces}
        for _ in range(count):
            cands = [d for d in foe.tally if d.real and not d.cancelled and d.source != "rwb-used"
                     and (not d.locked or "locked" in filters)
                     and (not any(f in colours for f in filters) or d.colour in filters)
                     and (not any(f in faces for f in filters) or d.face in filters)]
            if not cands:
                return
            i = g.ask_one(me, "choose", f"{self.source.name}: take which die from {foe.name}?",
                          [f"{d.colour} {d.face}" for d in cands], [(d.index, d.face, d.colour) for d in cands],
                          topic="take-die")
            d = cands[i]
            foe.tally.remove(d)
            me.tally.append(attrs.evolve(d, colour=alias.get(d.colour or "", d.colour), locked=False, index=-1))
            if g.tracing:
                g.log("steal", f"{me.name} takes a {d.colour} {d.face} from {foe.name}'s Final Tally", me,
                      self.source.owner, self.source.tier)

    def pool_trade(self, count: int) -> None:
        """Trade dice one for one with the player's own trading pool of 6 extra dice, 2 of each of his colours
        (rolled when first needed, and again when empty)."""
        g = self.game
        me = self._me()
        colours = list(g.side_defs[me.side].colours) if me.side else list(g.content.dice.colours)
        faces = [f.id for f in g.content.dice.faces]
        for _ in range(count):
            if not me.trading_pool:
                me.trading_pool = [Die(faces[g.d6() - 1], colours[(k // 2) % len(colours)], -1) for k in range(6)]
                if g.tracing:
                    g.log("trading-pool", f"{me.name} rolls a trading pool: " + ", ".join(
                        f"{d.colour} {d.face}" for d in me.trading_pool), me)
            pool = me.trading_pool
            mine = [d for d in me.tally if d.real and not d.cancelled]
            if not mine:
                return
            pick = g.ask_one(me, "dice-trade", f"{self.source.name}: take which die of the trading pool?",
                             ["no trade"] + [f"{d.colour} {d.face}" for d in pool], [None, *range(len(pool))])
            if pick == 0:
                return
            taken = pool.pop(pick - 1)
            give = g.ask_one(me, "dice-trade", f"{self.source.name}: give which die for the {taken.colour} "
                             f"{taken.face}?", [f"{d.colour} {d.face}" for d in mine],
                             [(d.index, d.face, d.colour) for d in mine])
            given = mine[give]
            me.tally[me.tally.index(given)] = Die(taken.face, taken.colour, given.index)
            if g.tracing:
                g.log("dice-trade", f"{me.name} gives {given.colour} {given.face} for the pool's {taken.colour} "
                      f"{taken.face}", me, self.source.owner, self.source.tier)

    def second_tally(self) -> None:
        """Roll a separate Final Tally (every real die re-rolled, Locks ignored) and keep either one."""
        g = self.game
        me = self._me()
        faces = [f.id for f in g.content.dice.faces]
        real = [d for d in me.tally if d.real]
        new = [attrs.evolve(d, face=faces[g.d6() - 1], locked=False, cancelled=False) for d in real]
        labels = ["keep the original: " + ", ".join(f"{d.colour} {d.face}" for d in real),
                  "keep the new one: " + ", ".join(f"{d.colour} {d.face}" for d in new)]
        if g.ask_one(me, "choose", f"{self.source.name}: which Final Tally?", labels, topic="which-tally") == 1:
            me.tally = new + [d for d in me.tally if not d.real]
