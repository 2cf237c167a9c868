"""Which packs a load takes, before any is read: the pack folders of a content tree (its expansions/), a pack named
on the command line (``--pack``) or in a file (a scenario's, a replay's ``packs:``), and what their manifests
require (``requires:``), each before what requires it."""

from __future__ import annotations

import os
import unicodedata
from collections.abc import Iterable, Mapping
from pathlib import Path

from ddaydice.dsl.diagnostics import Diagnostic, did_you_mean
from ddaydice.dsl.limits import MAX_FOLDER_ENTRIES, MAX_ID_CHARS
from ddaydice.dsl.loading.reading import read_source
from ddaydice.dsl.places import absolute, bundled_root, home_pack
from ddaydice.dsl.sandbox import inside, is_slug, listing, looked_at, shown_path
from ddaydice.dsl.yamlsrc import shorten


def pack_dirs(root: Path, refused: list[Diagnostic] | None = None) -> list[Path]:
    """The pack folders of a content tree (``expansions/*``); a link leading outside ``expansions/``, or in a
    loop, is left out (and reported in ``refused``)."""
    exp = root / "expansions"
    if not exp.is_dir():
        return []
    entries, problem = listing(exp)
    out = []
    for p in entries:
        if p.name.startswith(("_", ".")):
            continue
        _, why = inside(p, exp)
        if why is not None:
            if refused is not None:
                refused.append(why)
        elif p.is_dir():
            out.append(p)
    if problem is not None and refused is not None:
        refused.append(problem)
    return out


def is_pack_path(name: str) -> bool:
    """Whether a ``--pack`` value names a pack folder by its path (it has a pack.yaml) rather than a bundled pack."""
    if not ("/" in name or name.startswith(".")):
        return False
    looked_at(Path(name) / "pack.yaml")
    return os.path.isfile(Path(name) / "pack.yaml")  # noqa: PTH113  (False, not OSError, for a name too long)


def bundled_pack_ids(root: Path | None = None) -> list[str]:
    """The ids of the bundled packs of a content tree (its ``expansions/``), in the order ``load`` takes them."""
    return [p.name for p in pack_dirs(root or bundled_root())]


def pack_argument(name: str, root: Path | None = None) -> tuple[str | None, str | None]:
    """What a pack named on the command line (``--pack``) stands for, as ``load`` takes it, or why it names none.

    'all' (every bundled pack); a bundled pack's id (of ``root``'s expansions/), which is taken first; else a pack
    folder (one with a pack.yaml) by its path, with or without './': ``my-pack`` becomes ``./my-pack``, as the
    loader names a folder. Returns the name as ``load`` takes it and None, or None and the problem, saying what
    the name was taken for (a bundled pack's id, with the ids it may mean, or a path)."""
    bundled = bundled_pack_ids(root)
    if name == "all" or name in bundled:
        return name, None
    path = name if "/" in name or name.startswith(".") else f"./{name}"
    if is_pack_path(path):
        return path, None
    shown = shorten(repr(name))
    if not (path == name or name.startswith("~") or os.path.lexists(name)):
        hint = did_you_mean(name, bundled) or f"the bundled ones: {', '.join(bundled) or 'none'}"
        return None, (f"{shown} is no bundled pack (taken as a bundled pack's id: {hint}), nor a folder here; a pack "
                      "folder is named by its path (./my-pack)")
    if not os.path.lexists(name):
        said = "does not exist"
    elif not Path(name).is_dir():
        said = "is not a folder"
    else:
        said = "has no pack.yaml (`dday new pack FOLDER` makes a pack)"
    return None, f"{shown} {said} (taken as a pack folder's path)"


def requires_of(manifests: list[Path], available: dict[str, Path],
              overlay: Mapping[str, str] | None = None) -> tuple[list[str], list[Path]]:
    """What these pack manifests require, directly or through each other, each after what it requires: the bundled
    expansions by name, and packs of one's own found beside the pack that requires them (a folder of that name
    next to it, as ``my-packs/base-pack`` beside ``my-packs/other-pack``). A manifest that cannot be read is
    skipped here: loading it reports why."""
    names: list[str] = []
    folders: list[Path] = []
    seen: set[str] = set()

    def visit(manifest: Path) -> None:
        if len(seen) > MAX_FOLDER_ENTRIES:
            return
        looked_at(manifest)
        doc, _ = read_source(manifest, overlay) if manifest.is_file() else (None, [])
        needs = doc.data.get("requires") if doc is not None and isinstance(doc.data, dict) else None
        if not isinstance(needs, list):
            return
        for name in needs:
            if not is_slug(name) or name in seen:  # a path is refused when the pack is loaded (PACK012)
                continue
            beside = manifest.parent.parent / name
            if name in available:
                seen.add(name)
                visit(available[name] / "pack.yaml")
                names.append(name)
            elif inside(beside, manifest.parent.parent)[0] is not None and \
                    inside(beside / "pack.yaml", beside)[0] is not None and (beside / "pack.yaml").is_file():
                seen.add(name)
                visit(beside / "pack.yaml")
                folders.append(beside)

    for manifest in manifests:
        visit(manifest)
    return names, folders


def named_packs(packs: Iterable[str] | str, available: dict[str, Path]) -> list[str]:
    """The packs ``load`` is asked for: "all" (every bundled one), one name, or several (of which "all" may be one)."""
    named = [packs] if isinstance(packs, str) and packs else [] if isinstance(packs, str) else list(packs)
    # 'all' stands for every bundled pack, among others too; a pack named twice is loaded once
    return list(dict.fromkeys(n for name in named for n in (available if name == "all" else [name])))


def sources(root: Path, available: dict[str, Path], wanted: list[str], extra: Iterable[Path],
             overlay: Mapping[str, str] | None = None) -> tuple[list[str], list[Path]]:
    """What to load on top of the tree: the bundled packs by name, in order, and then the pack folders and
    content files (``extra``, and the packs named by their path)."""
    # A pack may also be named by its folder's path (a modder's pack outside expansions/): loaded like a PATH.
    # Paths are made absolute first (places.absolute), so that a folder given as '.' or '..' has its own name.
    folders = [absolute(n) for n in wanted if n not in available and is_pack_path(n)]
    names = [n for n in wanted if n in available or not is_pack_path(n)]
    extra = [absolute(p) for p in extra]
    # A content file inside a pack folder is checked within its pack (its cards may be 'only-in' the pack's
    # optional rule, written in another file of the pack).
    paths = list(dict.fromkeys(home_pack(p) or p for p in [*folders, *extra]))
    # What is already part of this tree is checked in place, not loaded twice: a bundled pack's folder is that
    # pack, and a base content file (cards/items.yaml) is already loaded.
    bundled_dirs = {d.resolve(): n for n, d in available.items()}
    names += [bundled_dirs[p.resolve()] for p in paths if p.resolve() in bundled_dirs
              and bundled_dirs[p.resolve()] not in names]
    base_dirs = [(root / d).resolve() for d in ("rules", "cards", "maps")]
    paths = [p for p in paths if p.resolve() not in bundled_dirs and not (
        p.is_file() and any(p.resolve().is_relative_to(d) for d in base_dirs))]
    return with_requirements(available, names, paths, overlay)


def with_requirements(available: dict[str, Path], names: list[str], paths: list[Path],
                       overlay: Mapping[str, str] | None = None) -> tuple[list[str], list[Path]]:
    """``names`` and ``paths`` with what their packs require, each loaded before what requires it."""
    # An expansion brings the bundled expansions it requires, loaded before it (as a package brings its dependencies).
    manifests = [available[n] / "pack.yaml" for n in names if n in available] + [
        p / "pack.yaml" for p in paths if p.is_dir() and (p / "pack.yaml").is_file()]
    brought, beside = requires_of(manifests, available, overlay)
    names = brought + [n for n in names if n not in brought]
    first = {f.resolve() for f in beside}  # what is required is loaded before what requires it, even if given too
    return names, beside + [p for p in paths if p.resolve() not in first]


def pack_named_in_file(name: object, file: Path, relative_to: Path) -> tuple[str | None, Diagnostic | None]:
    """What a pack named inside a file (a scenario's ``packs:``, a replay's ``packs``) stands for, as ``load``
    takes it: a bundled pack by its id; the pack folder ``file`` lives in, by its id (a modder's pack keeps its
    scenarios inside it); or a pack folder by a path relative to ``relative_to``. A path must lead inside the
    current folder (the search path: docs/security.md). Otherwise None, and a diagnostic (placed at ``file``
    1:1; the caller moves it to the entry's line)."""
    shown = shown_path(file)
    if not isinstance(name, str) or not name.strip():
        return None, Diagnostic("PACK003", "a pack is named by its id or by the path of its folder", shown, 1, 1)
    available = {p.name: p for p in pack_dirs(bundled_root())}
    if name in available:
        return name, None
    if is_slug(name):
        home = next((a for a in file.resolve().parents if a.name == name and (a / "pack.yaml").is_file()), None)
        if home is not None:
            return str(home), None
        return None, Diagnostic("PACK003", f"no expansion named '{name}'", shown, 1, 1,
                                hint=did_you_mean(name, available) or (
                                    f"bundled expansions: {', '.join(sorted(available)) or 'none'}; a pack folder "
                                    "elsewhere is named by its path (./my-pack)"))
    if any(unicodedata.category(c) in {"Cc", "Cf"} for c in name) or len(name) > 4 * MAX_ID_CHARS:
        return None, Diagnostic("PACK003", f"{shorten(repr(name))} is neither a pack id nor a path", shown, 1, 1)
    scope = Path.cwd().resolve()
    outside = Diagnostic("PACK013", f"the pack path {shorten(repr(name))} leads outside the current folder",
                         shown, 1, 1, hint="packs named in a file (a scenario, a replay, a set-up or a sweep file) "
                         "are searched for inside the current folder only; run from a folder that holds the pack")
    # Written outside ('/etc', '../..'): refused from the path alone, before anything there is looked at, so that
    # the answer says nothing of what lies there (docs/security.md).
    folder = relative_to.resolve() / name
    written = Path(os.path.normpath(folder))
    if written != scope and not written.is_relative_to(scope):
        return None, outside
    try:
        real = Path(os.path.realpath(folder, strict=True))
    except OSError:
        return None, Diagnostic("PACK003", f"no pack folder at {shorten(repr(name))}", shown, 1, 1,
                                hint="a path is relative to the file that names it")
    if real != scope and not real.is_relative_to(scope):  # written inside, but through a link leading out
        return None, outside
    if not (real / "pack.yaml").is_file():
        return None, Diagnostic("PACK003", f"no pack folder at {shorten(repr(name))} (no pack.yaml there)", shown,
                                1, 1)
    return str(real), None
