"""The limits on untrusted input, each a named constant (docs/security.md lists them all).

Content CI runs ``dday validate`` on packs that strangers send: every input has a bound, so that no file, effect,
number or command-line value can make the program hang, eat the machine or read beyond what it was given. A value
beyond a limit is refused with a located diagnostic (or a usage error for a command-line value), never clipped
silently.
"""

from __future__ import annotations

import re
from typing import Any

# ---------------------------------------------------------------- files and folders
# A content file (card file, map, rules file, pack.yaml) or a scenario file. The largest bundled file is about
# 25 kB; ruamel's pure-Python reader parses YAML at some 30 kB per second on a busy 2-core machine, so this
# bounds a file to about 2 seconds of parsing.
MAX_FILE_BYTES = 64 * 1024
# A saved game (``dday play --save``): JSON, read by the C parser; a 60-turn game with four players holds a few
# thousand choices.
MAX_REPLAY_BYTES = 2 * 1024 * 1024
# Content files read by one load, in all (every file of the bundled game and of the packs checked): checking
# content takes time and memory in proportion to it (some 5 seconds and 80 MB per MiB of cards on a busy 2-core
# machine), and the files of a pack are otherwise bounded only by MAX_FOLDER_ENTRIES x MAX_FILE_BYTES (64 MB).
# The bundled game is about 300 kB.
MAX_CONTENT_BYTES = 4 * 1024 * 1024
# Entries listed in one folder of a pack (cards/, maps/, rules/options/, the pack folder itself), and scenario
# files collected under the folders given to ``dday scenario run``.
MAX_FOLDER_ENTRIES = 1000
# Text of the content files whose parsed YAML a long-running process keeps (the language server, ``validate --watch``,
# a notebook): a file read again with the same text is not parsed again. Bundled content is about 280 kB.
MAX_REMEMBERED_YAML_BYTES = 4 * 1024 * 1024
# Content files whose size and time a cached load compares (``load_cached``); a tree beyond it is not cached.
MAX_FINGERPRINT_FILES = 10_000

# ---------------------------------------------------------------- YAML and JSON
# Uses of an alias (``*name``) in one YAML file. Bundled content uses none; a few are fine, a "billion laughs"
# bomb needs many.
MAX_YAML_ALIASES = 100
# Values (mappings, lists and scalars) in one YAML file once every alias is expanded: aliases share a node in
# memory, but the structuring that follows walks every expanded copy.
MAX_YAML_VALUES = 200_000
# Mappings and lists inside each other, in a YAML or JSON file (bundled content nests 6 deep).
MAX_NESTING = 50

# ---------------------------------------------------------------- the effect language
# Characters in one effect (the longest bundled effect has about 450).
MAX_EFFECT_CHARS = 4000
# Effects whose parse a long-running process keeps (the same text at the same place is not parsed again): at most
# 2048 x MAX_EFFECT_CHARS characters. Bundled content has about 400 effects.
MAX_REMEMBERED_EFFECTS = 2048
# Brackets and 'not's inside each other in an effect, as written (``not (not (x))`` is 4 deep; bundled effects
# nest 1 at most).
MAX_EFFECT_NESTING = 30
# The largest number an effect may write (``gain 99 soldiers``, ``def -99``, ``99d6``, ``if soldiers >= 99``).
MAX_EFFECT_NUMBER = 99

# ---------------------------------------------------------------- ids and numbers in content
# Characters in an id (a card's, a map's, a Sector's, a pack's, ...).
MAX_ID_CHARS = 64
# A card's cost (Stars, Item Points), a line's or a Bunker's Courage cost.
MAX_COST = 99
# A Sector's DEF (the rulebook's highest is 15).
MAX_DEF = 30
# Machine Gun Fire dice of a Sector.
MAX_MGF = 6
# Rows of a battle map, and a Sector's printed number.
MAX_ROWS = 30
MAX_SECTOR_NUMBER = 999
# Resources (Soldiers, Stars, Courage, Item Points) in a starting Sector, a side's start or a scenario's Unit.
MAX_RESOURCE = 999
# Players of a game (the rulebook: 1 to 4 Units).
MAX_PLAYERS = 4
# Small counts of the rules: dice per colour, rolls per turn, cards drawn per turn, a face's Soldiers.
MAX_SMALL_COUNT = 12
# A number in the tool table, an Award deck's size, a setting of an optional rule.
MAX_TABLE_NUMBER = 999

# ---------------------------------------------------------------- commands
# ``dday simulate --games``.
MAX_GAMES = 1_000_000
# The turn a scenario starts at, and the turns one ``turns: N`` step runs (a game is lost after 60 turns).
MAX_SCENARIO_TURNS = 100
# A seed (dday play, simulate, replay, a scenario): a whole number strictly between -MAX_SEED and MAX_SEED.
MAX_SEED = 2**64
# The choices recorded in a replay, and the answers, rolls or steps of a scenario.
MAX_CHOICES = 100_000
MAX_STEPS = 1000
# The results of one Final Tally in a scenario that no die gave (an effect's: colourless or ``virtual``). No rule
# bounds them (the dice a Unit rolls are rules/dice.yaml's); the bundled cards add a few in a turn.
MAX_VIRTUAL_RESULTS = 99
# The 32-bit words a captured position's generator has drawn since its seed (``draws:``).
MAX_DRAWS = 10**8


# ---------------------------------------------------------------- bounds in the schema
class Range:
    """A bound on a whole number of content, as ``Annotated[int, Range(low, high)]`` in dsl/schema.py; the YAML
    reader (dsl/yamlsrc.py) refuses a number outside it, at its place in the file."""

    __slots__ = ("high", "low")

    def __init__(self, low: int, high: int) -> None:
        self.low = low
        self.high = high

    def __repr__(self) -> str:
        return f"Range({self.low}, {self.high})"


class IdRule:
    """Marks an id, as ``Annotated[str, ID]`` in dsl/schema.py: a slug (dsl/sandbox.py ``is_slug``)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "ID"


ID = IdRule()


class RulingRule:
    """Marks a ruling's number, as ``Annotated[str, RULING]`` in dsl/schema.py ('7.3', '8.10'): numbers joined by
    dots, or a pack's own words and numbers joined by dots or '-'. Written unquoted it is still read as written
    (``rulings: [8.10]`` is '8.10', not the number 8.1: dsl/yamlsrc.py ``written_number``)."""

    __slots__ = ()
    PATTERN = r"[A-Za-z0-9]+([.-][A-Za-z0-9]+)*"
    MAX_CHARS = 20

    def __repr__(self) -> str:
        return "RULING"

    @staticmethod
    def written(value: object) -> str | None:
        """A ruling's number as the file writes it, or None when it is none: text, or a number, whose width and
        the place of its point ruamel keeps, so that 8.10 reads back as '8.10' (the number is 8.1)."""
        if isinstance(value, bool) or not isinstance(value, str | int | float):
            return None
        text = value if isinstance(value, str) else str(value)
        width, point = getattr(value, "_width", None), getattr(value, "_prec", None)
        if isinstance(value, float) and isinstance(width, int) and isinstance(point, int) and 0 <= point < width \
                and not getattr(value, "_exp", None):
            text = f"{value:.{width - point - 1}f}"
        ok = len(text) <= RulingRule.MAX_CHARS and re.fullmatch(RulingRule.PATTERN, text)
        return text if ok else None


RULING = RulingRule()


class RulingRefRule:
    """Marks an entry of ``rulings:``, as ``Annotated[RulingRef, RULING_REF]`` in dsl/schema.py: a ruling's number
    (read as written, :meth:`RulingRule.written`), or a mapping ``{ruling: NUMBER, query: ID or [IDS]}``. The
    number is kept as written even when it is none (a space in it, a list): the load reports every such entry at
    its place (LOAD013) beside the numbers it does not list (LOAD010), rather than stop at the first."""

    __slots__ = ()
    KEYS = ("ruling", "query")

    def __repr__(self) -> str:
        return "RULING_REF"

    @staticmethod
    def text(value: object) -> str:
        """A ruling's number as the file writes it; what is none kept as text all the same (checked at load:
        LOAD013), and '' for what is no scalar (a list, nothing)."""
        written = RulingRule.written(value)
        if written is not None:
            return written
        if isinstance(value, str):
            return value
        return str(value) if isinstance(value, int | float) and not isinstance(value, bool) else ""

    @staticmethod
    def structure(value: object, ref: Any) -> Any:
        """An entry of ``rulings:`` as a ``ref`` (schema.RulingRef): a number, or ``{ruling: N, query: ID or
        [IDS]}``; a mapping of other keys, or without its number, is refused (the schema's error)."""
        if not isinstance(value, dict):
            return ref(RulingRefRule.text(value))
        extra = sorted(str(k)[:40] for k in value if k not in RulingRefRule.KEYS)
        if extra:
            raise ValueError(f"unknown key '{extra[0]}' in a ruling: write {{ruling: 7.3, query: def}}")
        if "ruling" not in value:
            raise ValueError("a ruling's mapping names its number: {ruling: 7.3, query: def}")
        query = value.get("query", ())
        queries = [query] if isinstance(query, str) else query
        if not isinstance(queries, list | tuple) or not all(isinstance(q, str) for q in queries):
            raise TypeError("'query' of a ruling: expected a query's id or a list of them")
        return ref(RulingRefRule.text(value["ruling"]), tuple(queries))


RULING_REF = RulingRefRule()
