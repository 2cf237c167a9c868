"""Pack folders and the files given to check: a pack's manifest (its id and folder, ``requires:``, what the folder
holds: PACK001, PACK002, PACK012) and its rules, cards and maps; a content file given on its own, read by what it
holds; and, once all is read, each pack's requirements (PACK004, PACK005) and their cycles (PACK006)."""

from __future__ import annotations

import re
from pathlib import Path

from ddaydice.dsl import schema
from ddaydice.dsl.diagnostics import Diagnostic, did_you_mean
from ddaydice.dsl.loading.cards import load_card_file, load_cards
from ddaydice.dsl.loading.discovery import pack_dirs
from ddaydice.dsl.loading.maps import load_map_file, load_maps
from ddaydice.dsl.loading.reading import Builder, display_path
from ddaydice.dsl.loading.rules import load_option, load_rules
from ddaydice.dsl.sandbox import inside, is_slug, shown_path, slug_for, slug_problem
from ddaydice.dsl.yamlsrc import position, shorten


def load_pack(b: Builder, pack_dir: Path) -> None:
    """A pack folder: its manifest, rules, cards and maps. The folder is a sandbox: nothing that resolves
    outside it is read (docs/security.md)."""
    manifest_path = pack_dir / "pack.yaml"
    if not b.allowed(manifest_path, pack_dir):
        return
    read = b.read_record(manifest_path, schema.Manifest, pack_dir.name)
    if read is None:
        return
    doc, man = read
    if man.id != pack_dir.name:
        line, col = position(doc.data, ["id"])
        b.diags.append(Diagnostic("PACK001", f"pack id '{man.id}' differs from its folder '{pack_dir.name}'",
                                     doc.file, line, col, width=len(man.id),
                                     hint=_folder_hint(pack_dir.name, man.id)))
    if not b.claim(f"pack:{man.id}", man.id, doc, doc.data, None, "pack"):
        return
    b.check_provenance(man.provenance, man.note, doc, doc.data)
    for j, needed in enumerate(man.requires):
        if not is_slug(needed):
            line, col = position(doc.data, ["requires", j])
            b.diags.append(Diagnostic("PACK012", f"'requires' names packs by their id, not by a path: "
                                         f"{shorten(repr(needed))} ({slug_problem(needed)})", doc.file, line, col,
                                         hint=_id_of_a_pack(needed)))
    b.packs[man.id] = (man, doc)
    load_rules(b, pack_dir / "rules", required=False, pack=man.id, root=pack_dir)
    load_cards(b, pack_dir / "cards", man.id, pack_dir)
    load_maps(b, pack_dir / "maps", man.id, pack_dir)
    known = [*_PACK_FILES, *_PACK_FOLDERS]
    for extra in b.entries(pack_dir, pack_dir):
        if extra.name not in known:  # readme.md, Cards/: suggest reads them as README.md, cards
            b.diags.append(Diagnostic("PACK002", f"unexpected entry '{shorten(extra.name)}' in a pack",
                                         shown_path(extra), 1, 1,
                                         hint=did_you_mean(extra.name, known) or "a pack holds "
                                         + ", ".join([*_PACK_FILES, *(f"{f}/" for f in _PACK_FOLDERS[:-1])])
                                         + f" and {_PACK_FOLDERS[-1]}/"))


def _folder_hint(folder: str, pid: str) -> str:
    """PACK001's hint: the pack's id written as its folder's name, when that name is an id; else the folder renamed
    (to the id, or to the id its name stands for, then written as the pack's)."""
    if is_slug(folder):
        return f"write 'id: {folder}', or name the folder '{pid}'"
    slug = slug_for(folder)
    also = f", or name it '{slug}' and write 'id: {slug}'" if slug is not None and slug != pid else ""
    return f"name the folder '{pid}' ('{shorten(folder)}' is no id, and a pack's folder is named by its id){also}"


# What a pack folder may hold (anything else is PACK002). schemas/: the JSON Schemas an editor reads (dday new
# pack, dday schema -o); scenarios/: the pack's scenario files; README.md: for people. None of them is loaded.
_PACK_FILES = ("pack.yaml", "README.md")
_PACK_FOLDERS = ("rules", "cards", "maps", "scenarios", "schemas")


def _id_of_a_pack(path: str) -> str:
    """PACK012's hint: the id a path in 'requires:' likely stands for."""
    where = "the id of a bundled pack, or of a pack folder beside yours"
    if re.search(r"[/\\]", path) or path.startswith("."):  # a path names no pack: its last part may be any folder
        return f"a pack is named by its id, never by a path: write {where}"
    slug = slug_for(path)
    return f"did you mean '{slug}'? ({where})" if slug else f"write {where}"


def load_bundled_packs(b: Builder, root: Path, available: dict[str, Path], names: list[str]) -> None:
    """The bundled expansions by name, in order (a name that is none is reported)."""
    for name in names:
        if name not in available:
            b.diags.append(Diagnostic("PACK003", f"no expansion named '{name}'", display_path(root / "expansions"),
                                      1, 1, hint=did_you_mean(name, available) or (
                                          f"bundled expansions: {', '.join(sorted(available)) or 'none'}; a pack "
                                          "folder elsewhere is named by its path (./my-pack)")))
            continue
        load_pack(b, available[name])


def load_paths(b: Builder, paths: list[Path]) -> None:
    """Pack folders and single content files, in order (a folder must be a pack)."""
    for path in paths:
        if path.is_dir():
            if (path / "pack.yaml").exists():
                load_pack(b, path)
            else:
                b.diags.append(Diagnostic("LOAD003", "a folder to validate must be an expansion (with pack.yaml)",
                                          display_path(path), 1, 1,
                                          hint="use --root DIR to validate a whole content tree"))
        else:
            load_single(b, path)


def check_requirements(b: Builder, root: Path) -> None:
    """Each loaded pack's 'requires': a pack that does not exist, or exists but could not be loaded."""
    known_packs = {p.name for p in pack_dirs(root)} | set(b.packs)
    for man, doc in b.packs.values():
        for j, needed in enumerate(man.requires):
            if not is_slug(needed):
                continue  # refused when the pack was loaded (PACK012)
            if needed not in known_packs and needed != "base":
                line, col = position(doc.data, ["requires", j])
                others = known_packs - {man.id}
                b.diags.append(Diagnostic("PACK004", f"pack '{man.id}' requires '{needed}', which does not exist",
                                          doc.file, line, col, width=len(needed), hint=did_you_mean(needed, others)
                                          or f"packs found: {', '.join(sorted(others)) or 'none'} (bundled, or "
                                          "folders beside this one)"))
            elif needed in known_packs and needed not in b.packs and needed != "base":
                line, col = position(doc.data, ["requires", j])
                b.diags.append(Diagnostic("PACK005", f"pack '{man.id}' requires '{needed}', which is not loaded",
                                          doc.file, line, col,
                                          hint=f"'{needed}' could not be loaded: see its own errors"))
    _check_cycles(b)


def _check_cycles(b: Builder) -> None:
    """A cycle of ``requires:`` among the loaded packs (a pack requiring itself, or ``a -> b -> a``): PACK006 at
    the entry that closes it, naming the cycle. Each pack is still loaded and checked; the packs are searched in
    the order of their ids, so the same cycle is reported at the same entry whichever pack was validated."""
    graph = {pid: [n for n in man.requires if n in b.packs] for pid, (man, _) in b.packs.items()}
    done: set[str] = set()
    reported: set[frozenset[str]] = set()

    def closes(pid: str, needed: str, path: list[str]) -> None:
        cycle = [*path[path.index(needed):], needed]
        if frozenset(cycle) in reported:
            return
        reported.add(frozenset(cycle))
        man, doc = b.packs[pid]
        line, col = position(doc.data, ["requires", man.requires.index(needed)])
        what = "itself" if needed == pid else f"'{needed}', which closes a cycle: {' -> '.join(cycle)}"
        b.diags.append(Diagnostic("PACK006", f"pack '{pid}' requires {what}", doc.file, line, col,
                                  width=len(needed), hint="packs are loaded after what they require: no pack may "
                                  "require itself, directly or through others; remove one of these requirements"))

    for start in sorted(graph):  # a depth-first search without recursion (a long chain of packs is no problem)
        if start in done:
            continue
        path: list[str] = [start]
        todo: list[list[str]] = [list(graph[start])]
        while path:
            if not todo[-1]:
                done.add(path.pop())
                todo.pop()
                continue
            needed = todo[-1].pop(0)
            if needed in path:
                closes(path[-1], needed, path)
            elif needed not in done:
                path.append(needed)
                todo.append(list(graph[needed]))


def load_single(b: Builder, path: Path) -> None:
    """One content file given on the command line, in no pack: its kind is told by its place or its keys. A link
    is followed only within the folder that holds it, as a pack's links are within the pack."""
    if path.is_symlink():
        _, problem = inside(path, path.parent)
        if problem is not None and problem.code == "PACK010":
            problem = Diagnostic("PACK010", "this link leads outside the folder that holds it: it is not read",
                                 problem.file, 1, 1, hint="a content file may link only to a file of its own "
                                 "folder; copy the file in")
        if problem is not None:
            b.diags.append(problem)
            return
    if path.name == "pack.yaml":
        load_pack(b, path.parent)
        return
    doc = b.read(path)  # (read once: what it holds tells its kind; an empty file is told so)
    if doc is None:
        return
    data = doc.data
    parent = path.parent.name
    if (isinstance(data, dict) and "cards" in data) or parent == "cards":
        load_card_file(b, doc, "(file)")
    elif (isinstance(data, dict) and "sectors" in data) or parent == "maps":
        load_map_file(b, doc, "(file)")
    elif parent == "options":
        load_option(b, doc, "(file)")
    else:
        b.diags.append(Diagnostic("LOAD004", "cannot tell what kind of content this file holds",
                                  display_path(path), 1, 1,
                                  hint="card files have 'cards:', maps have 'sectors:', packs are pack.yaml"))
