"""A set-up as a user writes it (a set-up file's entry, a ``--setup`` description, a command's options) and every
problem it has, told at once: the one check of ``dday simulate``, ``dday play``, ``dday compare``, ``dday impact``
and ``dday sweep``, before anything is played.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import attrs

from ddaydice.dsl.diagnostics import DDayError, Diagnostic, did_you_mean
from ddaydice.dsl.loader import Content, load_cached, pack_named_in_file
from ddaydice.dsl.sandbox import is_slug
from ddaydice.interpreter.game import Game
from ddaydice.interpreter.game.setup import units_problem
from ddaydice.interpreter.policies.names import policy_problem
from ddaydice.interpreter.policies.registry import make_policy
from ddaydice.interpreter.tools.forced import Forced, ForcedGame, problem


@attrs.frozen
class SetupEntry:
    """A set-up as written in a file or on the command line: every key optional (``base`` fills the gaps)."""

    name: str | None = None
    map: str | None = None
    variant: str | None = None
    players: int | None = None
    policy: str | None = None
    side_policy: str | None = None
    options: tuple[str, ...] | None = None
    packs: tuple[str, ...] | None = None
    give: tuple[str, ...] | None = None  # cards given to each Unit at the start
    pool: tuple[str, ...] | None = None  # cards put into the Pool (an Award, a deck's card: on top of its deck)
    absent: tuple[str, ...] | None = None  # cards taken out of the game

    def cards(self, where: str) -> tuple[str, ...]:
        """The cards forced ``where`` (give, pool, absent): none when the key is not written."""
        written: tuple[str, ...] | None = getattr(self, where)
        return written or ()


_FIELDS = tuple(a.name for a in attrs.fields(SetupEntry))
_LISTS = {"options", "packs", "give", "pool", "absent"}


def parse_description(text: str) -> tuple[SetupEntry | None, list[str]]:
    """A set-up on the command line: ``key=value`` words (lists comma-separated), e.g.
    ``"name=medic map=omaha-beach policy=reference give=medic"``. Returns the entry, or None and every word's
    problem (keys are written as in the help: ``side-policy``)."""
    values: dict[str, Any] = {}
    problems: list[str] = []
    keys = [f.replace("_", "-") for f in _FIELDS]
    for word in text.split():
        written, eq, value = word.partition("=")
        key = written.replace("-", "_")
        if not eq:
            problems.append(f"'{word}' is not key=value")
        elif key not in _FIELDS:
            hint = did_you_mean(written, keys)
            problems.append(f"unknown key '{written}'" + (f" ({hint})" if hint else "") + f"; keys: {', '.join(keys)}")
        elif key in _LISTS:
            values[key] = tuple(v for v in value.split(",") if v)
        elif key == "players":
            if not value.isdigit():
                problems.append(f"players={value}: expected a whole number")
            else:
                values[key] = int(value)
        else:
            values[key] = value
    return (SetupEntry(**values), []) if not problems else (None, problems)


def merge(base: SetupEntry, entry: SetupEntry) -> SetupEntry:
    """A set-up's keys, its base's where it gives none: a key the set-up writes replaces base's, a list as a whole
    (``absent: []`` in a set-up holds out none of the cards base holds out)."""
    out: dict[str, Any] = {}
    for name in _FIELDS:
        mine, theirs = getattr(entry, name), getattr(base, name)
        out[name] = mine if mine is not None else theirs
    return SetupEntry(**out)


CODE = "SETUP001"  # a set-up that cannot be played (docs/simulation.md)
BOTH = "SETUP002"  # a card a set-up both forces in (give, pool) and holds out (absent)

#: A problem of a set-up: the key it is about (a SetupEntry field), the message, a hint (or None), the value of a
#: list that is wrong (a card, an option; None for the key as a whole) and its code (CODE, BOTH).
Problem = tuple[str, str, str | None, str | None, str]
ContentFor = Callable[[tuple[str, ...]], Content | None]


def check(entry: SetupEntry, content_for: ContentFor) -> list[Problem]:
    """Every problem of a merged set-up at once: (key, message, hint, item, code), one per value that is wrong (each
    card of a list its own). Only what needs a known map waits for one: the variant, and the players and options
    played together (checked by setting the game up, when nothing else is wrong)."""
    packs = tuple(entry.packs or ())
    content = content_for(packs)
    out: list[Problem] = []
    if content is None:  # what needs no content is still checked; the names wait for the packs
        loading, hint = pack_problem(packs)
        out.append(("packs", f"the packs {', '.join(packs)} do not load: {loading}; the map, options and cards are "
                             "checked once they do", hint, None, CODE))
    if entry.players is not None and (units := units_problem(entry.players)) is not None:
        out.append(("players", units, None, None, CODE))  # (whatever the map: a map's own range is checked below)
    out += both_ways(entry)
    for key in ("policy", "side_policy"):
        value = getattr(entry, key)
        if value is None:
            continue
        if (wrong := policy_problem(value)) is not None:
            out.append((key, *wrong, None, CODE))
    if content is None:
        return out
    bm = None
    if entry.map is None:
        out.append(("map", "no map: every set-up needs one (here or in 'base')", None, None, CODE))
    else:
        bm = content.maps.get(entry.map)
        if bm is None:
            out.append(("map", f"no map '{entry.map}' (there are: {', '.join(sorted(content.maps))})",
                        map_hint(content, entry.map, packs), None, CODE))
        elif entry.variant is not None and (wrong := bm.variant_problem(entry.variant)) is not None:
            out.append(("variant", *wrong, None, CODE))
    for opt in entry.options or ():
        if opt not in content.options:
            out.append(("options", f"no optional rule '{opt}' (there are: {', '.join(sorted(content.options))})",
                        in_a_pack("option", opt, packs) or did_you_mean(opt, content.options), opt, CODE))
    for key in ("give", "pool", "absent"):
        for card in entry.cards(key):
            why = problem(content, card, key)
            if why is not None:
                hint = in_a_pack("card", card, packs) if card not in content.card_kinds else None
                out.append((key, why, hint or did_you_mean(card, content.card_kinds), card, CODE))
    if not out and bm is not None:
        try:  # the set-up as a game: players, options played together
            Game(content, bm.id, players=entry.players or 1, seed=0, variant=entry.variant,
                 options=entry.options or (), deciders=make_policy(entry.policy or "reference"))
        except DDayError as exc:
            out.append(("players" if "player" in str(exc) else "options", str(exc), None, None, CODE))
    return out


def both_ways(entry: SetupEntry) -> list[Problem]:
    """A card the merged set-up forces in (given, put into the Pool) and holds out (absent) at once, or gives to
    each Unit and puts into the Pool at once: the set-up contradicts itself (it played as if the card were in one
    list only). Told at the card forced in (put into the Pool, for the second)."""
    out: list[Problem] = []
    absent = set(entry.cards("absent"))
    given = set(entry.cards("give"))
    hint = "keep the card in one list; a set-up's own give, pool or absent replaces base's ('absent: []' holds out " \
           "nothing)"
    for key, words in (("give", "given to each Unit"), ("pool", "put into the Pool")):
        for card in entry.cards(key):
            if card in absent:
                out.append((key, f"'{card}' is both {words} and absent", hint, card, BOTH))
            elif key == "pool" and card in given:
                out.append((key, f"'{card}' is both given to each Unit and put into the Pool", hint, card, BOTH))
    return out


def map_hint(content: Content, map_id: str, loaded: tuple[str, ...]) -> str | None:
    """The hint for a map the content does not have: the bundled pack to load when one has it, else the nearest
    name (for every command and file that names a map)."""
    return in_a_pack("map", map_id, loaded) or did_you_mean(map_id, content.maps)


def in_a_pack(what: str, name: str, loaded: tuple[str, ...]) -> str | None:
    """The hint for a map, optional rule or card (``what``: map, option, card) that a bundled pack not loaded has:
    "it is in the pack 'PACK', not loaded: add --pack PACK, or packs: [PACK] in a file" (PACK: the bundled pack's
    id)."""
    everything, _ = load_cached(packs="all")
    pack = everything.owner_pack.get(f"{what}:{name}") if everything is not None else None
    if pack is None or pack in loaded:
        return None
    return f"it is in the pack '{pack}', not loaded: add --pack {pack}, or packs: [{pack}] in a file"


def pack_problem(packs: tuple[str, ...]) -> tuple[str, str | None]:
    """Why these packs do not load (the loader's first error, and how many more) and its hint (a bundled pack's
    name for a misspelt one: "did you mean 'PACK'?")."""
    _, diags = load_cached(packs=list(packs))
    errors = [d for d in diags if d.severity == "error"]
    if not errors:
        return "(dday validate --pack ... says why)", None
    more = f" (and {len(errors) - 1} more: dday validate --pack ...)" if len(errors) > 1 else ""
    return errors[0].message + more, errors[0].hint


def problems_text(problems: Sequence[tuple[str, str, str | None]]) -> str:
    """Problems of set-ups given on the command line, a line each (``--setup 2: map: no map 'x' (did you mean
    ...)``), for one usage error that names them all. Each is (where, message, hint)."""
    return "\n".join(f"{where}: {message}" + (f" ({hint})" if hint else "") for where, message, hint in problems)


def packs_in_file(packs: Sequence[str], file: Path) -> tuple[tuple[str, ...], list[tuple[int, Diagnostic]]]:
    """The packs a set-up file or a sweep file names, as a scenario's are read (dsl/loading/discovery.py
    ``pack_named_in_file``): a bundled pack by its id, the pack folder the file lives in by its id, or a pack folder
    by a path relative to the file, inside the current folder (docs/security.md). Returns the packs as the loader
    takes them and each problem with the index of its entry; an id that names no pack is kept as written (the
    set-up's check says which bundled pack it may be)."""
    out: list[str] = []
    problems: list[tuple[int, Diagnostic]] = []
    for i, name in enumerate(packs):
        found, why = pack_named_in_file(name, file, file.parent)
        if found is not None:
            out.append(found)
        elif why is not None and not is_slug(name):
            problems.append((i, why))
        else:
            out.append(name)
    return tuple(out), problems


def pack_cards(packs: tuple[str, ...]) -> tuple[str, ...]:
    """The cards these packs add to the game (none of the game's own, nor a card of the other side's): they come into
    play as the game deals its cards in every set-up that loads the packs, unless held out (``absent``)."""
    content, plain = content_for(packs), content_for(())
    if not packs or content is None or plain is None:
        return ()
    return tuple(sorted(c for c in content.card_kinds if c not in plain.card_kinds and problem(content, c, "absent")
                        is None))


def content_for(packs: tuple[str, ...]) -> Content | None:
    """The content with these packs (loaded once per process)."""
    content, _ = load_cached(packs=list(packs))
    return content


def unwinnable(game: Game) -> str | None:
    """Why a game just set up cannot be won as it starts, from the map's declared end: it needs each of its
    objective Bunkers conquered, a Unit that conquers one leaves play (unless something in play lets it remain in
    play, asked of each Unit at each of those Bunkers), so fewer Units than objective Bunkers can never conquer
    them all (Gold Beach with one player and no solitaire option: docs/optional-rules.md ruling 6). None when it
    can be won, or when no Unit plays."""
    objectives = [sec for sec in game.map.sectors if sec.bunker and sec.objective]
    units = game.state.units
    if not units or len(units) >= len(objectives):
        return None
    if any(game.flag("remain-in-play", unit, sector=sec.id) for unit in units for sec in objectives):
        return None
    names = ", ".join(sec.name for sec in objectives)
    said = next((f" ({sec.name}: {sec.text.strip()})" for sec in objectives if sec.text.strip()), "")
    return (f"{game.map.name} cannot be won by {len(units)} Unit(s): each of its {len(objectives)} "
            f"objective Bunkers ({names}) must be conquered, and a Unit leaves play in the first it conquers, "
            f"nothing in play letting it remain{said}")


def unwinnable_setup(content: Content, map_id: str, *, players: int, variant: str | None,
                     options: Sequence[str], forced: Sequence[Forced] = ()) -> str | None:
    """:func:`unwinnable` for a set-up not yet played (``dday simulate``, ``dday play``, ``dday compare``, ``dday
    impact``, ``dday sweep``): a game of its own, set up and set out (its starting Sectors chosen, the cards the
    set-up forces given, so that a card given that lets a Unit remain in play is asked too), then asked."""
    deciders = [make_policy("random", k) for k in range(players + 1)]  # (the Units', and another side's player)
    kw: dict[str, Any] = {"players": players, "variant": variant, "options": options, "deciders": deciders}
    game = ForcedGame(content, map_id, forced=forced, **kw) if forced else Game(content, map_id, **kw)
    game.set_out()
    return unwinnable(game)
