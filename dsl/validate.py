"""What ``dday validate`` checks, as a function: the loader on the given paths, and the cards of those paths that
no game brings into play (AVAIL001). ``dday validate`` prints it; ``dday lsp`` publishes it as an editor's
diagnostics, with the unsaved text of the open files overlaid (:func:`ddaydice.dsl.loader.read_source`)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from ddaydice.dsl.conflicts import cards_in_no_game
from ddaydice.dsl.diagnostics import Diagnostic
from ddaydice.dsl.loader import Content, load


def validate(paths: Sequence[Path], *, root: Path | None = None, packs: Iterable[str] = (),
             overlay: Mapping[Path, str] | Mapping[str, str] | None = None) -> tuple[Content | None, list[Diagnostic]]:
    """Load content as ``dday validate [PATH ...] [--pack P] [--root DIR]`` does, and return it (None when it has
    errors) with every diagnostic: without ``paths`` all bundled content with every bundled pack; with them, the
    paths on top of the base game, with the packs their manifests require and those named in ``packs``."""
    packs = tuple(packs)
    chosen: list[str] | str = "all" if not paths or "all" in packs else list(packs)
    content, diags = load(root, packs=chosen, extra=list(paths), overlay=overlay)
    if content is not None and paths:
        diags = diags + in_no_game(content, paths)
    return content, diags


def in_no_game(content: Content, paths: Sequence[Path]) -> list[Diagnostic]:
    """AVAIL001 warnings: the cards of the checked PATHs that no map brings into play (dsl/conflicts.py
    ``cards_in_no_game``). The bundled cards are kept so by the test suite."""
    roots = [p.resolve() for p in paths]
    mine = {}
    for cid in content.cards:
        where = content.origins.get(f"card:{cid}")
        if where is not None and any(r == Path(where[0]).resolve() or r in Path(where[0]).resolve().parents
                                     for r in roots):
            mine[cid] = where
    out = []
    for cid, options in cards_in_no_game(content, mine).items():
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
