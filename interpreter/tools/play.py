"""Playing at the terminal: what a player at the table sees, and a decider that asks a person.

Each question shows the map and where every Unit stands, each Unit's
resources, the dice (Locked ones marked) and then asks the choice in plain
words with its legal options, numbered; the player answers with numbers or a name, or asks for help, takes back
his last decision (an undo replays the game from its seed) or quits. Policies can play some Units.
A game is saved as its seed and its choices, and replays exactly: a finished game to its end, one saved unfinished
(abandoned, or its output closed) to where its choices end.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import attrs

from ddaydice.dsl.diagnostics import Diagnostic
from ddaydice.dsl.limits import MAX_CHOICES, MAX_NESTING, MAX_PLAYERS, MAX_REPLAY_BYTES, MAX_SEED
from ddaydice.dsl.loader import pack_named_in_file
from ddaydice.dsl.sandbox import read_text
from ddaydice.dsl.writing import write_atomically
from ddaydice.dsl.yamlsrc import shorten
from ddaydice.interpreter.core.api import GameView
from ddaydice.interpreter.core.decisions import Decision
from ddaydice.interpreter.tools.play_ask import (
    answer_hint,
    card_texts,
    how_many,
    numbers_text,
    option_numbers,
    read_answer,
    unasked,
)
from ddaydice.interpreter.tools.play_show import MARK, board_legend, news, side_at_zero

FACE_SYMBOL = {"skull": "Skull", "star": "Star", "one-soldier": "1 Soldier", "two-soldiers": "2 Soldiers",
               "courage": "Courage", "tool": "Tool"}


#: The narrowest width the player's lines are fitted to (a narrower terminal gets lines of this width).
MIN_WIDTH = 40
_LEAD = re.compile(r" *(?:\d+\. +)?")  # a line's indentation and list number ('  3. ')
_SPACES = str.maketrans("\n\v\f\r", "    ")  # (the other white space a line may hold reads as spaces, as textwrap's)


def display_width(text: str) -> int:
    """The columns ``text`` takes at a terminal: an East Asian wide or fullwidth character (unicodedata
    ``east_asian_width`` W or F) takes two, a combining mark none, any other character one. Every line the player
    sees is fitted by this measure (``fit``, the board's rows), never by its count of characters."""
    return sum(0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def fit(text: str, width: int | None) -> str:
    """``text`` fitted to a terminal ``width`` wide (at least :data:`MIN_WIDTH`; columns, as ``display_width``
    counts them): each line wider is wrapped at its spaces, its continuation lines indented under its text (past
    a list number, '  3. '), or two more than the line when it has none, so that a continued line reads as one.
    None: unchanged (not a terminal: a pipe or a log keeps its lines)."""
    if width is None:
        return text
    width = max(width, MIN_WIDTH)
    return "\n".join(_fit_line(line, width) for line in text.split("\n"))


def _fit_line(line: str, width: int) -> str:
    if display_width(line) <= width:
        return line
    match = _LEAD.match(line)
    lead = match.group() if match else ""
    hang = " " * min(len(lead) + (0 if lead.strip() else 2), width // 2)
    tail = line[len(line.rstrip()):]  # (a prompt's last space stays, for the answer typed after it)
    return "\n".join(_wrapped(line[len(lead):], width, lead, hang)) + tail


def _wrapped(text: str, width: int, first: str, later: str) -> list[str]:
    """``text`` wrapped as textwrap.fill wraps it (at its spaces, spaces dropped where a line breaks, a word wider
    than a line cut), each line at most ``width`` columns (``display_width``) with its indent, ``first`` for the
    first line, ``later`` for the others."""
    chunks = [c for c in re.split(r"( +)", text.expandtabs().translate(_SPACES)) if c][::-1]
    lines: list[str] = []
    while chunks:
        line: list[str] = []
        used = 0
        room = width - len(later if lines else first)
        if lines and not chunks[-1].strip():
            del chunks[-1]
        while chunks and used + display_width(chunks[-1]) <= room:
            used += display_width(chunks[-1])
            line.append(chunks.pop())
        if chunks and display_width(chunks[-1]) > room:  # a word no line holds: as much of it as this one takes
            word, cut, taken = chunks[-1], 0, used
            while cut < len(word) and (taken + display_width(word[cut]) <= room or (cut == 0 and not line)):
                taken += display_width(word[cut])
                cut += 1
            if cut:
                line.append(word[:cut])
                chunks[-1] = word[cut:]
        if line and not line[-1].strip():
            del line[-1]
        if line:
            lines.append((later if lines else first) + "".join(line))
    return lines


def _packed(cells: list[str], width: int, indent: str) -> list[str]:
    """A board row's Sectors on as few lines as ``width`` takes, each line ``indent``-ed, a Sector never split
    (unless it is wider alone: then wrapped as prose)."""
    lines: list[str] = []
    for cell in cells:
        if lines and display_width(lines[-1]) + 3 + display_width(cell) <= width:
            lines[-1] += "   " + cell
        else:
            lines.append(indent + cell)
    return [fit(line, width) for line in lines]


def board(game: GameView, width: int | None = None) -> str:
    """The map by rows (top first), with the Units' positions. Fitted to a terminal ``width`` wide (None: one
    line a row): a row that does not fit has its label on a line, then its Sectors, as many a line as fit,
    indented under it; the legend is wrapped as prose."""
    rows: dict[int, list[str]] = {}
    where: dict[str, list[str]] = {}
    marked, legend = board_legend(game, lambda sector: sector_notes(game, sector))
    for u in game.state.units:
        mark = u.id.upper() + ("*" if u.status == "safe" else "x" if u.status == "dead" else "")
        where.setdefault(u.sector, []).append(mark)
    for sec in sorted(game.map.sectors, key=lambda s: (s.row, s.column or 0, game._number(s.id))):
        defense = "/".join(map(str, sec.defense))
        shield = f"[{defense}]" if sec.black else f"({defense})"
        mgf = f" MGF{sec.mgf}" if sec.mgf else ""
        units = (" <" + ",".join(where[sec.id]) + ">") if sec.id in where else ""
        mark = MARK if sec.id in marked else ""
        rows.setdefault(sec.row, []).append(f"{sec.name}{shield}{mgf}{mark}{units}")
    # The Courage printed on the line below each row (what an Advance into the row costs).
    costs: dict[int, set[int]] = {}
    for line in game.map.lines:
        if line.kind == "advance":
            for to in line.to:
                target = game.sectors[to]
                costs.setdefault(target.row, set()).add(target.cost if target.cost is not None else (line.cost or 0))
    lines: list[str] = []
    for row in sorted(rows, reverse=True):
        cost = "/".join(str(c) for c in sorted(costs.get(row, ())))
        label = f"  row {row}" + (f" ({cost} Courage to Advance here)" if cost else "") + ":"
        whole = f"{label} " + "   ".join(rows[row])
        if width is None or display_width(whole) <= max(width, MIN_WIDTH):
            lines.append(whole)
        else:
            lines += [fit(label, width), *_packed(rows[row], max(width, MIN_WIDTH), "    ")]
    lines.append(fit("  (DEF in brackets: [black shield] = can't stay here; MGF n = n Machine Gun Fire dice; "
                     "<U1> = Units; * safe, x wiped out" + (f"; {MARK} = told below" if marked else "") + ")", width))
    lines += [fit(line, width) for line in legend]
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
    at_zero = side_at_zero(game, uid)
    if at_zero:
        parts.append(at_zero)
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


class Undo(Exception):
    """The player takes back his last decision (``undo`` at a prompt): the game is set up again from its seed and
    replayed with his answers but the last (``Human.replaying``), the policies and the dice deciding as before."""


class Quit(EOFError):
    """The player abandons the game (``quit`` at a prompt), as a Ctrl-D (end of input) does."""


def help_lines(decision: Decision, numbers: Sequence[int] | None = None, cards: Sequence[str] = ()) -> list[str]:
    """The help a player gets at a prompt (``?`` or ``help``): the options (``numbers``: as shown; 1..n when None),
    the texts of the cards they offer (``cards``: play_ask.card_texts), how to answer, the commands."""
    name = ("the option as written, the start of it, or a word of it no other option has (a card's name or id, "
            "a die's face)")
    shown = list(numbers) if numbers is not None else list(range(1, len(decision.options) + 1))
    among = numbers_text(shown)
    return [
        f"help: {decision.prompt}",
        *(f"  {shown[i]}. {label}" for i, label in enumerate(decision.options)),
        *(["The cards offered:", *cards] if cards else []),
        f"Answer with one option: its number ({among}), or its name: {name}." if decision.max_picks == 1 else
        f"Answer with options ({how_many(decision)}): their numbers ({among}) separated by spaces, or their "
        f"names separated by commas (an option's name: {name}).",
        "Commands:",
        "  ? or help  this help",
        "  ? NAME     the text of the card an option offers (by its number or name)",
        "  undo       take back your last decision: the game is replayed from its seed with your choices but the "
        "last, and you are asked that question again (the dice and the policies decide as before)",
        "  quit       abandon the game (as Ctrl-D does); with --save, the game so far is saved",
    ]


@attrs.define
class Human:
    """A person at the terminal. ``ask`` reads a line; ``say`` prints. ``answers``: the answers he gave this game,
    in order; ``replaying``: the answers given again, unasked, when an ``undo`` replays the game."""

    ask: Callable[[str], str]
    say: Callable[[str], None]
    width: int | None = None  # the terminal's, the board is laid out for (None: not a terminal; see fit)
    last_turn: int = -1
    last_in_play: tuple[int, tuple[str, ...]] = (-1, ())
    answers: list[tuple[int, ...]] = attrs.field(factory=list)
    replaying: list[tuple[int, ...]] = attrs.field(factory=list)
    tell_events: bool = True  # tell what the game did unasked (play_show.news); False: the trace tells it all
    told: int = 0  # the game's events told so far
    resync: bool = False  # after an undo: the events up to the question asked again were told already

    def undone(self) -> None:
        """Take back the last answer: the game set up again replays the others (``decide`` gives them unasked),
        then shows the board and asks that question again."""
        self.say("  undo: your last decision is taken back; the game is replayed from its seed up to it")
        self.replaying = self.answers[:-1]
        self.answers = []
        self.last_turn = -1
        self.last_in_play = (-1, ())
        self.told, self.resync = 0, True  # (the game set up again logs its events anew)

    def tell(self, game: GameView) -> None:
        """Tell what the game did unasked since the last time (play_show.news); nothing while an undo replays
        the game, which did it all before."""
        lines, self.told = news(game, self.told)
        if self.tell_events and not self.replaying and not self.resync:
            for line in lines:
                self.say(line)

    def decide(self, game: GameView, decision: Decision) -> tuple[int, ...]:
        given = unasked(decision)
        if given is not None:  # nothing to choose (casualties with only Soldiers): told, not asked, not undone
            if not self.replaying:
                self.tell(game)  # (what came before it first: the DEF and MGF charged)
                self.say(f"{decision.prompt}: {decision.options[given[0]]} (only Soldiers to lose: nothing to "
                         "choose)")
            return given
        if self.replaying:
            picks = self.replaying.pop(0)
        else:
            self._show(game, decision)
            self.resync = False
            picks = self._answer(game, decision)
        self.answers.append(picks)
        return picks

    def _answer(self, game: GameView, decision: Decision) -> tuple[int, ...]:
        numbers = option_numbers(game, decision)
        while True:
            raw = self.ask(f"your choice ({answer_hint(decision, numbers)}): ").strip()
            command = raw.lower()
            if command in {"?", "help"}:
                for line in help_lines(decision, numbers, card_texts(game, decision, "")):
                    self.say(line)
                continue
            if command.startswith("? "):
                name = raw[2:].strip()
                if name.isdigit() and int(name) in numbers:  # an option by its number
                    name = decision.options[numbers.index(int(name))]
                for line in card_texts(game, decision, name) or ["  no card is offered there"]:
                    self.say(line)
                continue
            if command == "undo":
                if self.answers:
                    raise Undo
                self.say("  nothing to undo: this is your first decision")
                continue
            if command == "quit":
                raise Quit
            picks = read_answer(raw, decision, numbers)
            if isinstance(picks, str):
                self.say(picks)
                continue
            return picks

    def _show(self, game: GameView, decision: Decision) -> None:
        """What the player sees before a question: the board at a new turn, the cards in play, the players, the
        question and its options."""
        s = game.state
        if s.turn != self.last_turn:
            self.last_turn = s.turn
            self.say(f"\n=== Turn {s.turn} ===")
            self.say(board(game, self.width))
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
        self.tell(game)
        for other in s.sides:  # another side's player (the German): his forces, his Decorations secret
            if other.id != decision.unit:
                self.say("  " + unit_line(game, other.id, decision.unit))
        self.say(f"\n[{s.phase}] " + unit_line(game, decision.unit, decision.unit))
        tally = tally_line(game, decision.unit)
        if tally:
            self.say("  " + tally)
        self.say(decision.prompt)
        numbers = option_numbers(game, decision)
        for i, label in enumerate(decision.options):
            self.say(f"  {numbers[i]}. {label}")
            target = getattr(decision.keys[i], "to", None) if i < len(decision.keys) else None
            if decision.kind == "move" and isinstance(target, str):
                notes = sector_notes(game, target)
                if notes:
                    self.say(f"       {notes}")


REPLAY_FORMAT = "ddaydice-replay/1"


class ChoicesEnd(Exception):
    """A saved game's choices have run out where the game asks for one more: the replay of a game saved unfinished
    (abandoned, or its output closed) stops there."""


class UpToTheEnd:
    """The decider after a saved game's last choice (``Scripted``'s fallback): it stops the game (ChoicesEnd)."""

    def decide(self, game: GameView, decision: Decision) -> tuple[int, ...]:
        raise ChoicesEnd(decision.describe())


def play_out(game: Any) -> bool:
    """Play ``game`` (a Game) to its end, or to where its saved choices end (``UpToTheEnd``): True when it ended,
    False when it stopped unfinished."""
    try:
        game.run()
    except ChoicesEnd:
        return False
    return True


def save_replay(path: Path, game: GameView, *, players: int, packs: tuple[str, ...]) -> None:
    """Save the game (its seed and choices) to ``path`` atomically: written to a temporary file in the same
    folder, then renamed over ``path``; a failed save leaves the old file as it was and no temporary file. A game
    saved unfinished has no outcome (null); ``game`` then stands where its choices end (``play_out``), as its
    replay will, and the digest is its state's there."""
    s = game.state
    data: dict[str, Any] = {
        "format": REPLAY_FORMAT,
        "map": s.map_id, "variant": s.variant, "players": players, "seed": s.seed, "options": list(s.options),
        "packs": list(packs), "choices": s.choices, "outcome": s.outcome, "turns": s.turn,
    }
    from ddaydice.interpreter.core.state import digest

    data["digest"] = digest(s)
    write_atomically(path, json.dumps(data, indent=1))


@attrs.frozen
class Replay:
    """A saved game, as ``dday replay`` reads it (every field checked)."""

    file: str
    map: str
    players: int
    seed: int
    variant: str | None
    options: tuple[str, ...]
    packs: tuple[str, ...]
    choices: tuple[Any, ...]
    digest: str | None
    text: str
    finished: bool = True  # False: saved unfinished (no outcome), replayed to where its choices end


def _place(text: str, key: str) -> tuple[int, int]:
    """The line and column of ``"key":`` in a replay's JSON text (1, 1 if it is not there)."""
    m = re.search(r'"' + re.escape(key) + r'"\s*:', text)
    if m is None:
        return 1, 1
    before = text[:m.start()]
    return before.count("\n") + 1, m.start() - (before.rfind("\n") + 1) + 1


def _depth(data: Any) -> int:
    """How deep lists and objects nest in ``data`` (iteratively: no recursion limit)."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(data, 1)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, dict | list):
            deepest = max(deepest, depth)
            if deepest > MAX_NESTING:
                return deepest
            stack.extend((child, depth + 1) for child in (node.values() if isinstance(node, dict) else node))
    return deepest


def _choice_ok(choice: Any, nested: bool = False) -> bool:
    if isinstance(choice, bool):
        return False
    if isinstance(choice, int):
        return 0 <= choice <= MAX_CHOICES
    if isinstance(choice, str):
        return len(choice) <= 200
    if isinstance(choice, list) and not nested:
        return len(choice) <= 50 and all(_choice_ok(c, nested=True) for c in choice)
    return False


def read_replay(path: Path) -> tuple[Replay | None, list[Diagnostic]]:
    """A saved game, every field checked; or None and the diagnostics, each at its place in the file. The file
    must be a regular file of at most :data:`MAX_REPLAY_BYTES` bytes, of JSON nesting at most :data:`MAX_NESTING`
    deep, with finite numbers."""
    file = str(path)
    raw, problem = read_text(path, file, MAX_REPLAY_BYTES,
                             too_large="a saved game is written by dday play --save: this file is not one")
    if raw is None:
        return None, [problem] if problem is not None else []
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[:exc.start].count(b"\n") + 1
        return None, [Diagnostic("REPLAY001", "not UTF-8 text", file, line, 1)]

    def refuse_constant(name: str) -> Any:
        raise ValueError(f"{name} is not a number a replay may hold")

    try:
        data = json.loads(text, parse_constant=refuse_constant)
    except json.JSONDecodeError as exc:
        return None, [Diagnostic("REPLAY001", f"not JSON: {exc.msg}", file, exc.lineno, exc.colno,
                                 hint="a replay is the JSON file 'dday play --save' writes")]
    except RecursionError:
        return None, [Diagnostic("REPLAY002", f"nested too deeply (more than {MAX_NESTING} levels)", file, 1, 1)]
    except ValueError as exc:
        return None, [Diagnostic("REPLAY001", f"not JSON: {shorten(str(exc))}", file, 1, 1)]
    if _depth(data) > MAX_NESTING:
        return None, [Diagnostic("REPLAY002", f"nested too deeply (more than {MAX_NESTING} levels)", file, 1, 1)]
    if not isinstance(data, dict):
        return None, [Diagnostic("REPLAY003", "a replay is a JSON object ({\"format\": \"ddaydice-replay/1\", ...})",
                                 file, 1, 1)]
    diags: list[Diagnostic] = []

    def bad(key: str, message: str, hint: str | None = None) -> None:
        line, col = _place(text, key)
        diags.append(Diagnostic("REPLAY004", f"'{key}': {message}", file, line, col, hint=hint))

    if data.get("format") != REPLAY_FORMAT:
        bad("format", f"not a ddaydice replay (the format must be {REPLAY_FORMAT})")
    for key in ("map", "players", "seed", "choices"):
        if key not in data:
            diags.append(Diagnostic("REPLAY004", f"missing '{key}'", file, 1, 1))
    if "map" in data and (not isinstance(data["map"], str) or not data["map"]):
        bad("map", "expected the id of a map")
    players = data.get("players")
    if "players" in data and (isinstance(players, bool) or not isinstance(players, int)
                              or not 1 <= players <= MAX_PLAYERS):
        bad("players", f"expected a whole number from 1 to {MAX_PLAYERS}")
    seed = data.get("seed")
    if "seed" in data and (isinstance(seed, bool) or not isinstance(seed, int) or not -MAX_SEED < seed < MAX_SEED):
        bad("seed", "expected a whole number (of at most 64 bits)")
    if not isinstance(data.get("variant"), str | None):
        bad("variant", "expected the id of a variant, or null")
    for key in ("options", "packs"):
        value = data.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value) or len(value) > 50:
            bad(key, "expected a list of names")
    choices = data.get("choices")
    if "choices" in data and (not isinstance(choices, list) or len(choices) > MAX_CHOICES
                              or not all(_choice_ok(c) for c in choices)):
        bad("choices", f"expected a list of at most {MAX_CHOICES} answers (option numbers or labels)")
    if not isinstance(data.get("digest"), str | None):
        bad("digest", "expected the digest's text")
    if not isinstance(data.get("outcome"), str | None):
        bad("outcome", "expected the game's outcome, or null for a game saved unfinished")
    if diags:
        return None, diags
    return Replay(file, data["map"], data["players"], data["seed"], data.get("variant"),
                  tuple(data.get("options", [])), tuple(data.get("packs", [])), tuple(data["choices"]),
                  data.get("digest"), text, finished=data.get("outcome", "") is not None), []


def replay_packs(replay: Replay) -> tuple[list[str], list[Diagnostic]]:
    """The packs a replay names, as the loader takes them: a bundled pack by its id, or a pack folder by a path
    relative to the current folder, inside it (docs/security.md); a bad entry is a diagnostic at the replay's
    'packs'."""
    out: list[str] = []
    diags: list[Diagnostic] = []
    for name in replay.packs:
        found, problem = pack_named_in_file(name, Path(replay.file), Path())
        if problem is not None:
            line, col = _place(replay.text, "packs")
            diags.append(attrs.evolve(problem, file=replay.file, line=line, column=col))
        elif found is not None:
            out.append(found)
    return out, diags


def replay_place(replay: Replay, key: str) -> tuple[int, int]:
    """Where ``"key":`` is in the replay's file."""
    return _place(replay.text, key)
