"""What ``dday validate`` checks, as a function: the loader on the given paths, and the cards of those paths that
no game brings into play (AVAIL001), or that a map lists without the grade that deals them (AVAIL002). ``dday
validate`` prints it; ``dday lsp`` publishes it as an editor's diagnostics, with the unsaved text of the open files
overlaid (:func:`ddaydice.dsl.loader.read_source`)."""

from __future__ import annotations

import os
from collections.abc import Collection, Iterable, Mapping, Sequence
from pathlib import Path

from ddaydice.dsl.conflicts import cards_in_no_game
from ddaydice.dsl.diagnostics import Diagnostic, sort_key
from ddaydice.dsl.loader import Content, display_path, load
from ddaydice.dsl.places import absolute
from ddaydice.dsl.sandbox import Looked, recording, shown_path
from ddaydice.dsl.setups import NO_GRADE, listed_ungraded


def validate(paths: Sequence[Path], *, root: Path | None = None, packs: Iterable[str] = (),
             overlay: Mapping[Path, str] | Mapping[str, str] | None = None,
             checked_elsewhere: Collection[Path] = ()) -> tuple[Content | None, list[Diagnostic]]:
    """Load content as ``dday validate [PATH ...] [--pack P] [--root DIR]`` does, and return it (None when it has
    errors) with every diagnostic: without ``paths`` all bundled content with every bundled pack (and those named
    in ``packs``: a pack folder); with them, the
    paths on top of the base game, with the packs their manifests require and those named in ``packs``.

    A file of ``paths`` that the load did not read as content (a pack's scenario, its README, a file of a folder
    that holds no content) is the error LOAD007: it was not checked. ``checked_elsewhere`` are files the caller
    checks itself (``dday validate`` checks a scenario file with the scenario's own checks): their pack is
    loaded, and they are not reported."""
    chosen = list(packs) if paths else ["all", *packs]  # (a pack folder named is loaded on top of them all)
    with recording() as looked:
        content, diags = load(root, packs=chosen, extra=list(paths), overlay=overlay)
    elsewhere = {absolute(p) for p in checked_elsewhere}
    unread = not_checked([p for p in paths if absolute(p) not in elsewhere], looked, diags)
    if unread:
        return None, sorted(diags + unread, key=sort_key)
    if content is not None and paths:
        diags = diags + in_no_game(content, paths)
    return content, diags


def not_checked(paths: Sequence[Path], looked: Looked, diags: Sequence[Diagnostic]) -> list[Diagnostic]:
    """LOAD007 for each file of ``paths`` that the load did not read as content, unless a diagnostic already says
    why (a link refused, a file too large): never 'ok' for a file nobody checked."""
    read = looked.content | {os.path.realpath(p) for p in looked.content}
    located = {d.file for d in diags}
    out = []
    for path in paths:
        if path.is_dir() or str(absolute(path)) in read or os.path.realpath(path) in read:
            continue
        shown = shown_path(path)
        if shown in located or display_path(path) in located:
            continue
        scenario = "scenarios" in absolute(path).parts
        out.append(Diagnostic(
            "LOAD007", "this file is not content, and dday validate does not check it: it checks a pack's pack.yaml, "
            "rules/, rules/options/, cards/ and maps/ files, and single card, map and option files", shown, 1, 1,
            hint="check a scenario with 'dday scenario run FILE'" if scenario else
            "name the pack's folder, or one of its content files (a file of cards/, maps/ or rules/)"))
    return out


def in_no_game(content: Content, paths: Sequence[Path]) -> list[Diagnostic]:
    """AVAIL001 warnings: the cards of the checked PATHs that no map brings into play (dsl/conflicts.py
    ``cards_in_no_game``). The bundled cards are kept so by the test suite."""
    roots = [p.resolve() for p in paths]
    checked: dict[str, bool] = {}  # file -> whether it is one of the paths or below one (each resolved once)
    mine = {}
    for cid in content.cards:
        where = content.origins.get(f"card:{cid}")
        if where is None:
            continue
        if where[0] not in checked:
            resolved = Path(where[0]).resolve()
            checked[where[0]] = any(r == resolved or r in resolved.parents for r in roots)
        if checked[where[0]]:
            mine[cid] = where
    out = []
    ungraded = {cid: maps for cid in mine if (maps := listed_ungraded(content, cid))}
    for cid, maps in ungraded.items():
        file, line, col = mine[cid]
        names = ", ".join(content.maps[m].name for m in maps)
        out.append(Diagnostic(
            "AVAIL002", f"{content.cards[cid].name} ('{cid}') is listed by {names} but has no grade: {NO_GRADE}",
            file, line, col, severity="warning", width=len(cid),
            hint="give it 'grade: regular' (in each Unit's hand to recruit) or 'grade: unique' (one, in the Pool)"))
    for cid, options in cards_in_no_game(content, mine).items():
        if cid in ungraded:
            continue  # AVAIL002 says why
        file, line, col = mine[cid]
        name = content.cards[cid].name
        how = (f"only an optional rule brings it: {' or '.join(options)}" if options
               else "no optional rule brings it either")
        out.append(Diagnostic(
            "AVAIL001", f"{name} ('{cid}') is in no game on any map as listed or in a variant: {how}",
            file, line, col, severity="warning", width=len(cid),
            hint="list it in a map (its specialists, items or vehicles), or write 'only-in: [OPTION]' if it is "
                 "meant for an optional rule (dday card " + cid + " shows where it can be)"))
    return out
