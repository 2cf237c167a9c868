"""What every content file goes through: the sandbox (a pack's folder, nothing outside it), the size limits, its
reading and parsing, its record (salvaged when it has problems), the ids it claims and its provenance. The
:class:`Builder` holds what a load has read so far; the modules of this package read into it."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any, TypeVar

import attrs

from ddaydice.dsl import schema
from ddaydice.dsl.diagnostics import UNCHECKED, Diagnostic, did_you_mean, unchecked_note
from ddaydice.dsl.limits import MAX_CONTENT_BYTES, MAX_FILE_BYTES
from ddaydice.dsl.sandbox import inside, is_slug, listing, looked_at, shown_path, slug_for
from ddaydice.dsl.yamlsrc import YamlDoc, empty_problem, position, read_yaml, salvage, shorten, structure

T = TypeVar("T")


def display_path(path: Path) -> str:
    try:
        rel = os.path.relpath(path.resolve())
    except ValueError:
        return str(path)
    return str(path.resolve()) if rel.startswith("..") else rel


def read_source(path: Path, overlay: Mapping[str, str] | None = None) -> tuple[YamlDoc | None, list[Diagnostic]]:
    """One content file read and parsed (``read_yaml``), named as diagnostics name it (:func:`display_path`).

    ``overlay`` maps files (by their real path, links resolved) to the text an editor holds for them, unsaved
    (``dday lsp``): such a file is parsed from that text instead of its bytes on disk. The overlay changes what
    a file says, never which files are read: it is consulted only for a regular file that exists and that the
    loader has already decided to read, after the sandbox's checks (docs/security.md), and its text is held
    to the same size limit as a file's."""
    looked_at(path, content=True)
    shown = display_path(path)
    if not path.exists():
        return None, [Diagnostic("LOAD001", "file not found", shown, 1, 1)]
    text = overlay.get(os.path.realpath(path)) if overlay and path.is_file() else None
    size = len(text.encode("utf-8", errors="replace")) if text is not None else 0
    if size > MAX_FILE_BYTES:
        return None, [Diagnostic("LOAD005", f"the file is too large ({size} bytes; at most {MAX_FILE_BYTES})", shown,
                                 1, 1, hint="split it into several files")]
    return read_yaml(shown, text, remember=True)


def real_keys(overlay: Mapping[Path, str] | Mapping[str, str] | None) -> dict[str, str]:
    """An overlay keyed by real paths (links resolved), as :func:`read_source` looks files up."""
    return {os.path.realpath(k): v for k, v in (overlay or {}).items()}


@attrs.define
class Builder:
    root: Path
    overlay: Mapping[str, str] = attrs.Factory(dict)  # real path -> unsaved text (read_source)
    diags: list[Diagnostic] = attrs.Factory(list)
    docs: dict[str, YamlDoc] = attrs.Factory(dict)
    rules: dict[str, Any] = attrs.Factory(dict)
    options: dict[str, tuple[schema.OptionDef, YamlDoc, Any]] = attrs.Factory(dict)
    cards: dict[str, tuple[schema.Card, str, YamlDoc, Any]] = attrs.Factory(dict)
    maps: dict[str, tuple[schema.BattleMap, YamlDoc]] = attrs.Factory(dict)
    packs: dict[str, tuple[schema.Manifest, YamlDoc]] = attrs.Factory(dict)
    origins: dict[str, tuple[str, int, int]] = attrs.Factory(dict)
    bytes_read: int = 0  # of the content files counted to be read (MAX_CONTENT_BYTES)
    counted: set[str] = attrs.Factory(set)  # those files (count_sizes)
    owner_pack: dict[str, str] = attrs.Factory(dict)
    pending_rwb: list[tuple[schema.RwbDef, YamlDoc, Any]] = attrs.Factory(list)
    pending_sides: list[tuple[schema.SideDef, YamlDoc, Any]] = attrs.Factory(list)
    pending_rules: list[tuple[schema.RuleDef, YamlDoc, Any]] = attrs.Factory(list)
    pending_damage: list[tuple[schema.RuleDef, YamlDoc, Any]] = attrs.Factory(list)
    pending_queries: list[tuple[schema.QueryDef, YamlDoc, Any]] = attrs.Factory(list)  # their citations
    # what else of the rules files cites the rulebook, by owner: the order of precedence, the phases
    pending_cited: list[tuple[str, schema.Cited, YamlDoc, Any]] = attrs.Factory(list)
    broken_cards: list[tuple[str, str, YamlDoc, Any]] = attrs.Factory(list)
    listed: dict[tuple[str, ...], tuple[str, int, int]] = attrs.Factory(dict)  # check_listed_ids
    unlisted: list[Path] = attrs.Factory(list)  # folders whose entries were not listed (too many: PACK014)
    # Files (or folders of them) that could not be read, each told why, by what they declare ('cards', 'optional
    # rules', 'maps'): a name that may be one of theirs is not reported missing (unchecked, fold_unchecked).
    unread: dict[str, list[str]] = attrs.Factory(dict)

    # ------------------------------------------------------------ reading
    def allowed(self, path: Path, root: Path) -> bool:
        """Whether ``path`` may be read: it resolves inside ``root`` (the pack, or the tree's folder), through
        no link loop or broken link (each refusal is a PACK010/PACK011 diagnostic). A path that does not exist
        is allowed (what reads it reports that)."""
        _, problem = inside(path, root)
        if problem is not None:
            if problem not in self.diags:
                self.diags.append(problem)
            return False
        return True

    def yaml_files(self, folder: Path, root: Path) -> list[Path]:
        """The YAML files of a folder of the sandbox ``root``, sorted; links leading outside it are refused. Their
        sizes are counted as the folder is listed (:meth:`count_sizes`), before any of them is read."""
        if not self.allowed(folder, root) or not folder.is_dir():
            return []
        out = []
        for p in self.entries(folder, root):
            if p.suffix in {".yaml", ".yml"} and not p.is_dir():
                out.append(p)  # a device or a pipe named *.yaml is refused when read (LOAD006)
            else:
                self.diags.append(not_read(p, folder))
        self.count_sizes(out)
        return out

    def entries(self, folder: Path, root: Path) -> list[Path]:
        """The entries of a folder of the sandbox ``root`` (listed within MAX_FOLDER_ENTRIES, a problem told),
        less the links that may not be followed from it (out of it, a loop, broken: each told, sandbox.py)."""
        entries, problem = listing(folder)
        if problem is not None:
            self.diags.append(problem)
            self.unlisted.append(folder)
        return [p for p in entries if not (p.is_symlink() and not self.allowed(p, root))]

    def read_record(self, path: Path, cls: type[T], place: str) -> tuple[YamlDoc, T] | None:
        """A file that holds one record (a manifest, an optional rule, a map): read, and taken as :meth:`take_file`
        takes it; None when it cannot be read, or holds nothing of one."""
        doc = self.read(path)
        if doc is None:
            return None
        obj = self.take_file(doc, doc.data, cls, place)
        return None if obj is None else (doc, obj)

    def read_declaring(self, path: Path, of: str) -> YamlDoc | None:
        """:meth:`read` for a file that declares ``of`` ('cards', 'optional rules', 'maps'): one that cannot be read
        is noted (:meth:`not_read`; not an empty one, which declares nothing)."""
        doc = self.read(path)
        if doc is None and display_path(path) not in self.docs:  # not read (its bytes, its size)
            self.not_read(of, display_path(path))
        return doc

    def read(self, path: Path) -> YamlDoc | None:
        if self.too_much(path):
            return None
        doc, diags = read_source(path, self.overlay)
        self.diags += diags
        if doc is not None:
            self.docs[doc.file] = doc
            empty = empty_problem(doc)
            if empty is not None:
                self.diags.append(empty)
                return None
        return doc

    def too_much(self, path: Path) -> bool:
        """Whether the content files come to more than :data:`MAX_CONTENT_BYTES` with ``path`` (counted now unless
        its folder's listing counted it): then it is not read, nor is any file after it, and the load fails."""
        self.count_sizes([path])
        return self.bytes_read > MAX_CONTENT_BYTES

    def count_sizes(self, paths: list[Path]) -> None:
        """Count the sizes of content files to be read, each once, in order: the file that takes them beyond
        :data:`MAX_CONTENT_BYTES` is told (LOAD008, once). A folder's files are counted as it is listed, so that
        a pack too large is refused before its files are parsed (the time goes to parsing: some 5 s a MiB)."""
        for path in paths:
            key = os.path.abspath(path)  # noqa: PTH100  (the path as named: a link is its own entry)
            if key in self.counted:
                continue
            self.counted.add(key)
            looked_at(path)  # (its size counts: a remembered run is one whose files have the same)
            try:
                self.bytes_read += path.stat().st_size if path.is_file() else 0
            except OSError:
                continue  # (what reads it tells why)
            if self.bytes_read > MAX_CONTENT_BYTES and not any(d.code == "LOAD008" for d in self.diags):
                self.diags.append(Diagnostic(
                    "LOAD008", f"the content files to check come to more than {MAX_CONTENT_BYTES} bytes in all "
                    "with this file: the check reads no more files", shown_path(path), 1, 1,
                    hint="a check reads at most that much content (the bundled game is about 300 kB): split the "
                         "pack into packs checked one at a time"))

    def take(self, doc: YamlDoc, node: Any, cls: type[T], path: list[str | int]) -> T | None:
        obj, diags = structure(doc, node, cls, path)
        self.diags += diags
        return obj

    def take_file(self, doc: YamlDoc, node: Any, cls: type[T], place: str) -> T | None:
        """The record a whole file holds (a pack's manifest, a rules file, an optional rule, a map, a card file's
        envelope), its problems told as :meth:`take` tells them; when it has any, what of it reads (:func:`salvage`,
        with :func:`stand_ins` for ``place``), so that the checks after it still run (the files of its pack, what
        it names and what names it) and every problem is told at once. The problems are errors: the load fails
        all the same, and returns no content."""
        obj = self.take(doc, node, cls, [])
        return obj if obj is not None else salvage(node, cls, stand_ins(place))

    def origin(self, key: str, doc: YamlDoc, node: Any, path: list[str | int]) -> tuple[str, int, int]:
        line, col = position(node, path)
        return (doc.file, line, col)

    def claim(self, key: str, ident: str, doc: YamlDoc, node: Any, pack: str | None, what: str,
              *, overrides: bool = False) -> bool:
        where = self.origin(key, doc, node, ["id"])
        if key in self.origins:
            other = self.origins[key]
            if overrides and pack is not None and self.owner_pack.get(key) != pack:
                self.origins[key] = where
                self.owner_pack[key] = pack
                return True
            self.diags.append(Diagnostic(
                "DUP001", f"duplicate {what} id '{ident}' (first defined at {other[0]}:{other[1]})",
                where[0], where[1], where[2], width=len(ident),
                hint=duplicate_hint(what, pack, self.owner_pack.get(key), overrides=overrides)))
            return False
        if overrides:
            kind = key.split(":", 1)[0]
            pool = [k.split(":", 1)[1] for k in self.origins if k.startswith(f"{kind}:")]
            self.diags.append(Diagnostic("DUP002", f"'{ident}' says it overrides, but nothing has that id",
                                         where[0], where[1], where[2], width=len(ident),
                                         hint=did_you_mean(ident, pool) or "'overrides: true' replaces a card "
                                         "loaded before it (of the base game, or of a pack this one requires)"))
        self.origins[key] = where
        if pack:
            self.owner_pack[key] = pack
        return True

    def not_read(self, of: str, file: str) -> None:
        """``file`` (or folder), which declares ``of`` ('cards', 'optional rules', 'maps'), could not be read: what
        names one of those is no longer reported missing (:meth:`unchecked`)."""
        self.unread.setdefault(of, []).append(file)

    def unchecked(self, name: str, file: str, line: int, col: int, of: str = "cards") -> bool:
        """Whether ``name``, which none of ``of`` loaded has ('cards', 'optional rules'), may be one of a file that
        could not be read: then it is not reported missing (XREF001, DSL102, OPT002, OPT003), but noted
        (:data:`UNCHECKED`, folded into one warning by :func:`fold_unchecked`)."""
        if not self.unread.get(of):
            return False
        self.diags.append(unchecked_note(name, file, line, col, of))
        return True

    def check_provenance(self, prov: str, note: str, doc: YamlDoc, node: Any, outer: Any = None) -> None:
        """PROV001 for a reconstruction without a note (its own, or that of ``outer``: a sector's map); not for one
        whose note is written but no text (left out of a record with problems, and told: SCHEMA004)."""
        told = any(isinstance(n, dict) and "note" in n and not isinstance(n["note"], str) for n in (node, outer))
        if prov == "reconstructed" and not note.strip() and not told:
            line, col = position(node, ["provenance"])
            self.diags.append(Diagnostic("PROV001", "a reconstruction needs a 'note' saying which part is ours",
                                         doc.file, line, col, width=len(prov),
                                         hint="add 'note: ...' beside it: what no rulebook prints (a name, a cost, "
                                         "an effect)"))


def fold_unchecked(diags: list[Diagnostic], unread: Mapping[str, list[str]]) -> list[Diagnostic]:
    """The names not checked (:func:`unchecked_note`), told once for each kind of name (cards, optional rules,
    maps): one warning at the first file of that kind that could not be read, naming those files and the names
    (carried as data: :attr:`Diagnostic.names`), in place of an XREF001, DSL102, OPT002 or OPT003 for each (one of
    those files may declare it, where it is only unread)."""
    kept = [d for d in diags if d.code != UNCHECKED]
    for of, files in unread.items():
        names = list(dict.fromkeys(n for d in diags if d.code == UNCHECKED and d.names_of == of for n in d.names))
        if not names or not files:
            continue
        shown = ", ".join(f"'{n}'" for n in names[:5]) + (f" and {len(names) - 5} more" if len(names) > 5 else "")
        kept.append(Diagnostic(
            UNCHECKED, f"{len(names)} name(s) of {of} were not checked ({shown}): the {of} of "
            f"{', '.join(files)} could not be read", files[0], 1, 1, severity="warning",
            hint=f"fix the error told of that file: the next check tells any of these names that is no {of[:-1]}",
            names=names, names_of=of))
    return kept


def not_read(entry: Path, folder: Path) -> Diagnostic:
    """LOAD009, the warning for an entry of a folder of YAML files (cards/, maps/, rules/options/) that is not read:
    a folder, a name that does not end in '.yaml' or '.yml' as written; never passed over in silence."""
    holds = f"{folder.name}/ holds *.yaml files, read from the folder itself"
    if entry.is_dir():
        what, hint = "a folder", f"move its files up into {folder.name}/ (files in folders below are not read)"
    elif entry.suffix.lower() in {".yaml", ".yml"}:
        what, hint = f"'{entry.suffix}' is not '.yaml'", f"rename it '{entry.stem}.yaml'"
    else:
        what, hint = "not a .yaml file", f"keep it outside {folder.name}/ if it is not content"
    return Diagnostic("LOAD009", f"'{shorten(entry.name)}' is not read ({what}): {holds}", shown_path(entry), 1, 1,
                      severity="warning", hint=hint)


def stand_ins(place: str) -> dict[str, Any]:
    """What a file's record takes, for the checks after it, in place of a required key that is missing or wrong
    (:meth:`Builder.take_file`). Its id: the name of its place (a pack's folder; an optional rule's or a map's file,
    without .yaml), made an id if it is none. Not the id as written when that is no id, nor its slug: a pack is
    found by its folder's name (``requires:``) and its id must be that name (PACK001), an optional rule's or a
    map's file is named after its id, so the place is the id that what names the record most likely means; and a
    slug of ours would show in later messages (a PACK001 for an id nobody wrote: one mistake told twice). A
    ``requires:`` is kept when it is a list of names (else dropped whole: :func:`salvage`). Name, text and version
    are for people. Provenance 'rulebook' asks for no note (no PROV001 for a provenance that was wrong)."""
    ident = place if is_slug(place) else slug_for(place)
    out: dict[str, Any] = {"name": place, "text": "", "version": "", "provenance": "rulebook"}
    return out | ({"id": ident} if ident else {})


def duplicate_hint(what: str, pack: str | None, first: str | None, *, overrides: bool) -> str | None:
    """DUP001's hint for a card, an optional rule or a map of a pack whose id is taken (``first``: the pack of the
    first one, None for the base game's): only a card replaces another ('overrides: true'), and only one of the base
    game or of another pack."""
    if pack is None:
        return None
    same_pack = first == pack
    if what != "card":
        return f"{an(what)} cannot replace another: give this one an id of its own"
    unit = "file" if pack == "(file)" else "pack"  # a card file checked on its own
    if same_pack and overrides:
        return (f"'overrides: true' replaces a card of the base game or of another pack, not one of its own {unit}: "
                "give one of the two an id of its own")
    if same_pack:
        return f"two cards of one {unit} cannot share an id: give one of the two an id of its own"
    if first is None:
        return "an expansion that replaces a base card says 'overrides: true'"
    return (f"the pack '{first}' has it too: a pack that replaces a card of a pack it requires says 'overrides: "
            "true'; packs that do not know of each other give their cards ids of their own, or are checked one at a "
            "time (dday validate FOLDER, once for each)")


def an(noun: str) -> str:
    return f"{'an' if noun[:1] in set('aeiou') else 'a'} {noun}"
