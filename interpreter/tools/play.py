"""Playing at the terminal: what a player at the table sees, and a decider that asks a person.

Each question shows the map and where every Unit stands, each Unit's
resources, the dice (Locked ones marked) and then asks the choice in plain
words with its legal options, numbered. Policies can play some Units.
A finished game is saved as its seed and its choices, and replays exactly.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs

from ddaydice.interpreter.core.api import GameView
from ddaydice.interpreter.core.decisions import Decision

FACE_SYMBOL = {"skull": "Skull", "star": "Star", "one-soldier": "1 Soldier", "two-soldiers": "2 Soldiers",
               "courage": "Courage", "tool": "Tool"}


def board(game: GameView) -> str:
    """The map by rows (top first), with the Units' positions."""
    rows: dict[int, list[str]] = {}
    where: dict[str, list[str]] = {}
    for u in game.state.units:
        mark = u.id.upper() + ("*" if u.status == "safe" else "x" if u.status == "dead" else "")
        where.setdefault(u.sector, []).append(mark)
    for sec in sorted(game.map.sectors, key=lambda s: (s.row, s.column or 0, game._number(s.id))):
        defense = "/".join(map(str, sec.defense))
        shield = f"[{defense}]" if sec.black else f"({defense})"
        mgf = f" MGF{sec.mgf}" if sec.mgf else ""
        units = (" <" + ",".join(where[sec.id]) + ">") if sec.id in where else ""
        rows.setdefault(sec.row, []).append(f"{sec.name}{shield}{mgf}{units}")
    # The Courage printed on the line below each row (what an Advance into the row costs).
    costs: dict[int, set[int]] = {}
    for line in game.map.lines:
        if line.kind == "advance":
            for to in line.to:
                target = game.sectors[to]
                costs.setdefault(target.row, set()).add(target.cost if target.cost is not None else (line.cost or 0))
    lines = []
    for row in sorted(rows, reverse=True):
        cost = "/".join(str(c) for c in sorted(costs.get(row, ())))
        label = f"row {row}" + (f" ({cost} Courage to Advance here)" if cost else "")
        lines.append(f"  {label}: " + "   ".join(rows[row]))
    lines.append("  (DEF in brackets: [black shield] = can't stay here; MGF n = n Machine Gun Fire dice; "
                 "<U1> = Units; * safe, x wiped out)")
    return "\n".join(lines)


def sector_notes(game: GameView, sector_id: str) -> str:
    """A Sector's attributes in plain English (what a player reads on the board)."""
    if "attributes" in game.ignore:
        return ""
    src = game.content.effects.get(f"{game.map.id}/{sector_id}")
    return " ".join(src.english) if src is not None else ""


def unit_line(game: GameView, uid: str, viewer: str | None = None) -> str:
    """A player's resources and cards. Another side's player (the German) stands in no Sector; his cards
    drawn from a deck (Decorations) are secret until played: only he (``viewer``) sees which they are."""
    u = game.state.unit(uid)
    where = f"in {game.sectors[u.sector].name} ({u.marker})" if u.sector else "in the Bunker (never moves)"
    parts = [f"{u.name} [{u.status}] {where}",
             f"Soldiers {u.soldiers}", f"Stars {u.stars}", f"Courage {u.courage}", f"Item Points {u.item_points}"]
    if u.specialists:
        parts.append("Specialists: " + ", ".join(game._name_of(s) for s in u.specialists))
    if u.items:
        parts.append("Items: " + ", ".join(game._name_of(s) for s in u.items))
    if u.vehicle:
        parts.append("Vehicle: " + game._name_of(u.vehicle))
    if u.awards:
        parts.append("Awards: " + ", ".join(game._name_of(s) for s in u.awards))
    held: dict[str, list[str]] = {}  # cards of an expansion's decks (Badges), by kind
    secret = bool(u.side) and viewer != u.id
    for card in u.cards:
        kind = game.content.kind_def(game.content.card_kinds[card])
        held.setdefault(kind.plural or kind.name if kind else "Cards", []).append(
            "(secret)" if secret else game._name_of(card))
    parts += [f"{kind}: " + ", ".join(names) for kind, names in held.items()]
    if u.side and game.state.turn == 0:  # his start is given when the game starts ('on game-start')
        parts.append("his starting forces come when the game starts")
    return "; ".join(parts)


def in_play_lines(game: GameView) -> list[str]:
    """The cards drawn into play for every Unit (Battle Conditions), with their text."""
    return [f"in play: {game._name_of(c)}: {game.content.cards[c].text.strip()}" for c in game.state.in_play]


def tally_line(game: GameView, uid: str) -> str:
    u = game.state.unit(uid)
    if not u.tally:
        return ""
    dice = []
    for d in u.tally:
        text = f"{d.colour or 'virtual'} {FACE_SYMBOL.get(d.face, d.face)}"
        if d.locked:
            text += " (Locked)"
        if d.cancelled:
            text += " (cancelled)"
        dice.append(text)
    return "dice: " + ", ".join(dice)


@attrs.define
class Human:
    """A person at the terminal. ``ask`` reads a line; ``say`` prints."""

    ask: Callable[[str], str]
    say: Callable[[str], None]
    last_turn: int = -1
    last_in_play: tuple[int, tuple[str, ...]] = (-1, ())

    def decide(self, game: GameView, decision: Decision) -> tuple[int, ...]:
        s = game.state
        if s.turn != self.last_turn:
            self.last_turn = s.turn
            self.say(f"\n=== Turn {s.turn} ===")
            self.say(board(game))
            if game.option_rules.automated_units:  # solitaire Atlantikwall: where the automated Unit stands
                for u in s.units:
                    since = max(u.entered_turn, 1)
                    self.say(f"  {u.name} (automated) in {game.sectors[u.sector].name} since turn {since}; it "
                             f"stays {1 if game.sectors[u.sector].black else 2} Combat(s) in a Sector"
                             + "".join(f", with the {game._name_of(c)}" for c in u.specialists))
        if s.in_play and (s.turn, tuple(s.in_play)) != self.last_in_play:
            self.last_in_play = (s.turn, tuple(s.in_play))
            for line in in_play_lines(game):
                self.say(line)
        for other in s.sides:  # another side's player (the German): his forces, his Decorations secret
            if other.id != decision.unit:
                self.say("  " + unit_line(game, other.id, decision.unit))
        self.say(f"\n[{s.phase}] " + unit_line(game, decision.unit, decision.unit))
        tally = tally_line(game, decision.unit)
        if tally:
            self.say("  " + tally)
        self.say(decision.prompt)
        for i, label in enumerate(decision.options):
            self.say(f"  {i + 1}. {label}")
            target = getattr(decision.keys[i], "to", None) if i < len(decision.keys) else None
            if decision.kind == "move" and isinstance(target, str):
                notes = sector_notes(game, target)
                if notes:
                    self.say(f"       {notes}")
        multi = decision.max_picks != 1
        if multi:
            need = (f"exactly {decision.min_picks}" if decision.min_picks == decision.max_picks
                    else f"{decision.min_picks} to {decision.max_picks}")
            hint = f"numbers separated by spaces ({need}; empty for none)" if decision.min_picks == 0 else \
                f"numbers separated by spaces ({need})"
        else:
            hint = "a number"
        while True:
            raw = self.ask(f"your choice ({hint}): ").strip()
            try:
                picks = tuple(int(x) - 1 for x in raw.replace(",", " ").split()) if raw else ()
            except ValueError:
                self.say("  please type option numbers")
                continue
            if not multi and len(picks) != 1:
                self.say("  please type one option number")
                continue
            bad = [p + 1 for p in picks if not 0 <= p < len(decision.options)]
            if bad or len(set(picks)) != len(picks) or not decision.min_picks <= len(picks) <= decision.max_picks:
                self.say(f"  not a legal answer: choose {hint} among 1..{len(decision.options)}")
                continue
            return picks


def save_replay(path: Path, game: GameView, *, players: int, packs: tuple[str, ...]) -> None:
    s = game.state
    data: dict[str, Any] = {
        "format": "ddaydice-replay/1",
        "map": s.map_id, "variant": s.variant, "players": players, "seed": s.seed, "options": list(s.options),
        "packs": list(packs), "choices": s.choices, "outcome": s.outcome, "turns": s.turn,
    }
    from ddaydice.interpreter.core.state import digest

    data["digest"] = digest(s)
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(json.dumps(data, indent=1), encoding="utf-8")
    tmp.replace(path)  # a failed save leaves the old file intact
