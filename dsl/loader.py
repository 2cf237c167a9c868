"""Content loading: a content tree (rules/, cards/, maps/, expansions/) into a checked :class:`Content`.

Data flow::

    YAML files --read_yaml--> ruamel nodes --structure--> attrs records
        --vocabulary--> names --parse/check--> effect trees --compile--> hooks

Every problem found anywhere is a :class:`~ddaydice.dsl.diagnostics.Diagnostic`;
loading either returns a complete :class:`Content` or ``None`` with all the
diagnostics. Nothing is half-applied.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import attrs

from ddaydice.dsl import ast, schema
from ddaydice.dsl.checker import Context, check_effect
from ddaydice.dsl.compile import CompiledEffect, Compiler, EffectSource
from ddaydice.dsl.diagnostics import Diagnostic, did_you_mean, sort_key
from ddaydice.dsl.limits import (
    MAX_FINGERPRINT_FILES,
)
from ddaydice.dsl.loading.cards import bundled_kind_owner, load_card_file, load_cards, pack_cards, read_card_file
from ddaydice.dsl.loading.content import Content, tier_of
from ddaydice.dsl.loading.discovery import (
    bundled_pack_ids,
    is_pack_path,
    named_packs,
    pack_argument,
    pack_dirs,
    pack_named_in_file,
    sources,
)
from ddaydice.dsl.loading.maps import check_map, load_map_file, load_maps
from ddaydice.dsl.loading.reading import Builder, display_path, read_source, real_keys
from ddaydice.dsl.loading.rules import load_option, load_rules
from ddaydice.dsl.parser import parse_effect, parse_good_lines
from ddaydice.dsl.places import bundled_root
from ddaydice.dsl.render import Renderer
from ddaydice.dsl.sandbox import inside, is_slug, listing, recording, shown_path, slug_for, slug_problem
from ddaydice.dsl.settings import Names, check_options
from ddaydice.dsl.vocab import QueryInfo, Vocabulary
from ddaydice.dsl.yamlsrc import (
    YamlDoc,
    empty_problem,
    position,
    scalar_source,
    shorten,
)

# What other modules import from here (their names, kept where they were before the loading package).
__all__ = ["Content", "bundled_pack_ids", "display_path", "load", "load_cached", "pack_argument", "pack_cards",
           "pack_named_in_file", "read_card_file", "read_source"]


@attrs.define
class _Builder(Builder):
    # ----------------------------------------------------------- rules/


    # ----------------------------------------------------------- cards/

    # ------------------------------------------------------------ maps/

    # ------------------------------------------------------ expansions/
    def load_pack(self, pack_dir: Path) -> None:
        """A pack folder: its manifest, rules, cards and maps. The folder is a sandbox: nothing that resolves
        outside it is read (docs/security.md)."""
        manifest_path = pack_dir / "pack.yaml"
        if not self.allowed(manifest_path, pack_dir):
            return
        doc = self.read(manifest_path)
        if doc is None:
            return
        man = self.take_file(doc, doc.data, schema.Manifest, pack_dir.name)
        if man is None:
            return
        if man.id != pack_dir.name:
            line, col = position(doc.data, ["id"])
            self.diags.append(Diagnostic("PACK001", f"pack id '{man.id}' differs from its folder '{pack_dir.name}'",
                                         doc.file, line, col, width=len(man.id),
                                         hint=_folder_hint(pack_dir.name, man.id)))
        if not self.claim(f"pack:{man.id}", man.id, doc, doc.data, None, "pack"):
            return
        self.check_provenance(man.provenance, man.note, doc, doc.data)
        for j, needed in enumerate(man.requires):
            if not is_slug(needed):
                line, col = position(doc.data, ["requires", j])
                self.diags.append(Diagnostic("PACK012", f"'requires' names packs by their id, not by a path: "
                                             f"{shorten(repr(needed))} ({slug_problem(needed)})", doc.file, line, col,
                                             hint=_id_of_a_pack(needed)))
        self.packs[man.id] = (man, doc)
        load_rules(self, pack_dir / "rules", required=False, pack=man.id, root=pack_dir)
        load_cards(self, pack_dir / "cards", man.id, pack_dir)
        load_maps(self, pack_dir / "maps", man.id, pack_dir)
        known = [*_PACK_FILES, *_PACK_FOLDERS]
        entries, problem = listing(pack_dir)
        self.diags += [problem] if problem is not None else []
        for extra in entries:
            if extra.is_symlink() and not self.allowed(extra, pack_dir):
                continue
            if extra.name not in known:  # readme.md, Cards/: suggest reads them as README.md, cards
                self.diags.append(Diagnostic("PACK002", f"unexpected entry '{shorten(extra.name)}' in a pack",
                                             shown_path(extra), 1, 1,
                                             hint=did_you_mean(extra.name, known) or "a pack holds "
                                             + ", ".join([*_PACK_FILES, *(f"{f}/" for f in _PACK_FOLDERS[:-1])])
                                             + f" and {_PACK_FOLDERS[-1]}/"))

    # ------------------------------------------------------- vocabulary
    def vocabulary(self) -> Vocabulary | None:
        need = ["dice.yaml", "resources.yaml", "precedence.yaml", "phases.yaml", "queries.yaml", "rwb.yaml"]
        if any(n not in self.rules for n in need):
            return None
        dice: schema.DiceRules = self.rules["dice.yaml"]
        res: schema.ResourceRules = self.rules["resources.yaml"]
        prec: schema.PrecedenceRules = self.rules["precedence.yaml"]
        phases: schema.PhaseRules = self.rules["phases.yaml"]
        qr: schema.QueryRules = self.rules["queries.yaml"]
        rwb: schema.RwbRules = self.rules["rwb.yaml"]
        kinds: schema.KindRules | None = self.rules.get("kinds.yaml")
        sides: schema.SideRules | None = self.rules.get("sides.yaml")
        side_colours = {c for d in (sides.sides if sides else ()) for c in d.colours}
        resources_map: dict[str, str] = {}
        for r in res.resources:
            resources_map[r.id] = r.id
            for alias in r.aliases:
                resources_map[alias] = r.id
        queries = {}
        for q in qr.queries:
            base: int | bool | None
            if q.base == "computed":
                base = None
            elif q.base == "unlimited":
                base = 10**9
            else:
                base = q.base if not isinstance(q.base, str) else None
            queries[q.id] = QueryInfo(q.id, q.kind, base, q.minimum, q.subject, q.text, q.name)
        for ig in qr.ignorables:
            queries[f"ignore-{ig.id}"] = QueryInfo(f"ignore-{ig.id}", "flag", False, None, "unit", ig.text)
        return Vocabulary(
            faces=frozenset(f.id for f in dice.faces),
            colours=frozenset(dice.colours) | side_colours,
            resources=resources_map,
            queries=queries,
            ignorables=frozenset(ig.id for ig in qr.ignorables),
            rwbs=frozenset(r.id for r in rwb.rwb),
            tiers=tuple(t.id for t in prec.tiers),
            phases=tuple(p.id for p in phases.phases),
            cards={cid: kind for cid, (_, kind, _, _) in self.cards.items()},
            tags=frozenset(t for card, _, _, _ in self.cards.values() for t in card.tags),
            options=frozenset(self.options),
            kinds=frozenset(k.id for k in kinds.kinds) if kinds else frozenset(),
            decks=frozenset(k.id for k in kinds.kinds if k.deck) if kinds else frozenset(),
        )

    # ---------------------------------------------------------- effects
    def check_context(self, kind: str) -> Context:
        """What the checker knows of where an effect appears: its kind, and whether an expansion's kind is held
        like an Item (held-as item, or held by a Unit among its cards), so that it never stands."""
        kinds: schema.KindRules | None = self.rules.get("kinds.yaml")
        kdef = next((k for k in kinds.kinds if k.id == kind), None) if kinds else None
        # Bought for a cost: the base game's Specialists, Items and Vehicles, and a kind held like them (another
        # side's Reserve); a clause may then speak of the card's own price while it waits ('cost = 0 if ...').
        bought = kind in {"specialist", "item", "vehicle"} or (kdef is not None and kdef.held_as is not None)
        if kdef is not None and (kdef.held_as == "item" or (kdef.held_as is None and kdef.held_by == "unit")):
            return Context(kind, kdef.name, bought=bought)
        return Context(kind, bought=bought)

    def effect(self, owner: str, kind: str, name: str, text: str, doc: YamlDoc, node: Any,
               vocab: Vocabulary, compiler: Compiler, renderer: Renderer, tier: str,
               pack: str | None, key: str = "effect") -> EffectSource | None:
        if not isinstance(node, dict) or not isinstance(node.get(key), str):  # none, or left out (SCHEMA004)
            empty = ast.Effect(())
            return EffectSource(owner, kind, tier, name, doc.file, 0, 0, "", empty,
                                CompiledEffect((), (), ()), (), pack)
        smap, problem = scalar_source(doc, node, key)
        if problem is not None:
            self.diags.append(problem)
            return None
        tree, diags = parse_effect(text, smap)
        self.diags += diags
        if tree is None:
            rest = parse_good_lines(text, smap)  # the clauses that do parse are still checked: all errors at once
            if rest is not None:
                self.diags += check_effect(rest, vocab, self.check_context(kind))[1]
            return None
        checked, diags = check_effect(tree, vocab, self.check_context(kind))
        self.diags += diags
        if diags:
            return None
        english = tuple(renderer.lines(checked))
        compiled = compiler.effect(checked, renderer.option, renderer.clause)
        return EffectSource(owner, kind, tier, name, smap.file, smap.line, smap.column, text, checked,
                            compiled, english, pack)

    # ------------------------------------------------------ cross-refs
    def check_kinds_and_variants(self) -> None:
        """Declared kinds (rules/kinds.yaml), RWBs written for an option, and cards 'only-in' an option."""
        declared: schema.KindRules | None = self.rules.get("kinds.yaml")
        pending = {p for man, _ in self.packs.values() for p in man.pending}
        for kind in declared.kinds if declared else ():
            where = self.origins.get(f"kind:{kind.id}")
            file, line, col = where if where else ("rules/kinds.yaml", 1, 1)
            if kind.id in schema.BASE_KINDS:  # a kind declared twice: check_listed_ids
                self.diags.append(Diagnostic(
                    "DUP001", f"duplicate kind of card '{kind.id}': it is a kind of the base game", file, line, col,
                    width=len(kind.id), hint=f"a pack declares only kinds of its own; its cards of the base kind go "
                    f"in a card file of 'kind: {kind.id}'"))
            for opt in [kind.option, *(p.option for p in kind.persist)]:
                if opt is not None and opt not in self.options and opt not in pending:
                    self.diags.append(Diagnostic("OPT002", f"kind '{kind.id}' names the optional rule '{opt}', "
                                                 "which does not exist", file, line, col,
                                                 hint=did_you_mean(opt, self.options)))
        for side, _doc, _node in self.pending_sides:
            file, line, col = self.origins[f"side:{side.id}"]
            if side.option not in self.options and side.option not in pending:
                self.diags.append(Diagnostic("OPT002", f"side '{side.id}' names the optional rule '{side.option}', "
                                             "which does not exist", file, line, col,
                                             hint=did_you_mean(side.option, self.options)))
            for spec in side.start.specialists:
                if spec not in self.cards:
                    self.diags.append(Diagnostic("XREF001", f"side '{side.id}' starts with '{spec}', which is no "
                                                 "card", file, line, col, hint=did_you_mean(spec, self.cards)))
        side_ids = {side.id for side, _, _ in self.pending_sides}
        for kind in declared.kinds if declared else ():
            if kind.side is not None and kind.side not in side_ids:
                file, line, col = self.origins.get(f"kind:{kind.id}", ("rules/kinds.yaml", 1, 1))
                self.diags.append(Diagnostic("XREF005", f"kind '{kind.id}' names the side '{kind.side}', which "
                                             "is not declared (rules/sides.yaml)", file, line, col,
                                             hint=did_you_mean(kind.side, side_ids) or _sides_hint(side_ids)))
        for rwb, doc, node in self.pending_rwb:
            if rwb.side is not None and rwb.side not in side_ids:
                line, col = position(node, ["side"])
                self.diags.append(Diagnostic("XREF005", f"RWB '{rwb.id}' names the side '{rwb.side}', which is "
                                             "not declared (rules/sides.yaml)", doc.file, line, col,
                                             hint=did_you_mean(rwb.side, side_ids) or _sides_hint(side_ids)))
            if rwb.option is not None and rwb.option not in self.options:
                line, col = position(node, ["option"])
                self.diags.append(Diagnostic("OPT002", f"RWB '{rwb.id}' is written for the optional rule "
                                             f"'{rwb.option}', which does not exist", doc.file, line, col,
                                             hint=did_you_mean(rwb.option, self.options)))
        for cid, (card, _, doc, node) in self.cards.items():
            for j, oid in enumerate(card.only_in):
                if oid not in self.options and oid not in pending:
                    line, col = position(node, ["only_in", j])
                    self.diags.append(Diagnostic("OPT003", f"card '{cid}' is only in '{oid}', which is no optional "
                                                 "rule (nor one a pack lists as pending): it would be in no game",
                                                 doc.file, line, col, hint=did_you_mean(oid, self.options)))


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
    slug = slug_for(path)
    where = "the id of a bundled pack, or of a pack folder beside yours"
    return f"did you mean '{slug}'? ({where})" if slug else f"write {where}"


def _sides_hint(side_ids: set[str]) -> str:
    return f"sides declared: {', '.join(sorted(side_ids)) or 'none'} (a pack declares its own in rules/sides.yaml)"


_UNKNOWN_NAME = re.compile(r"unknown [a-z -]+ '([a-z0-9-]+)'$")


def _pack_hint(b: _Builder, d: Diagnostic) -> Diagnostic:
    """An effect naming a kind of card (a deck) that a bundled expansion declares, when that expansion is not
    loaded, is told which one to require."""
    m = _UNKNOWN_NAME.search(d.message) if d.code == "DSL102" else None
    owner = bundled_kind_owner(b, m.group(1)) if m is not None else None
    if owner is None or owner in b.packs:
        return d
    return attrs.evolve(d, hint=f"'{m.group(1) if m else ''}' is a kind of card of the expansion '{owner}': "
                                f"load it (--pack {owner}, or 'requires: [{owner}]' in your pack.yaml)")


def load(root: Path | None = None, *, packs: Iterable[str] | str = (), extra: Iterable[Path] = (),
         overlay: Mapping[Path, str] | Mapping[str, str] | None = None) -> tuple[Content | None, list[Diagnostic]]:
    """Load a content tree. ``packs`` names bundled expansions to include ("all" for every one);
    ``extra`` adds expansion folders or single content files on top. ``overlay`` gives the unsaved text of
    files an editor has open, by path (:func:`read_source`): nothing is written, and no file is read that
    would not be read without it."""
    root = root or bundled_root()
    b = _Builder(root, real_keys(overlay))
    # Each folder of the tree is a sandbox of its own (the bundled tree's folders may be links: src/ddaydice/).
    load_rules(b, root / "rules", required=True, pack=None, root=root / "rules")
    load_cards(b, root / "cards", None, root / "cards")
    load_maps(b, root / "maps", None, root / "maps")
    refused: list[Diagnostic] = []
    available = {p.name: p for p in pack_dirs(root, refused)}
    b.diags += refused
    wanted, paths = sources(root, available, named_packs(packs, available), extra, b.overlay)
    _load_bundled_packs(b, root, available, wanted)
    _load_paths(b, paths)
    _check_requirements(b, root)
    vocab = b.vocabulary()
    effects: dict[str, EffectSource] = {}
    if vocab is not None:
        effects = _check_loaded(b, vocab)
    b.diags = [_pack_hint(b, d) for d in b.diags]
    errors = [d for d in b.diags if d.severity == "error"]
    if errors or vocab is None:
        return None, sorted(b.diags, key=sort_key)
    return _content(b, root, vocab, effects), sorted(b.diags, key=sort_key)


def _load_bundled_packs(b: _Builder, root: Path, available: dict[str, Path], names: list[str]) -> None:
    """The bundled expansions by name, in order (a name that is none is reported)."""
    for name in names:
        if name not in available:
            b.diags.append(Diagnostic("PACK003", f"no expansion named '{name}'", display_path(root / "expansions"),
                                      1, 1, hint=did_you_mean(name, available) or (
                                          f"bundled expansions: {', '.join(sorted(available)) or 'none'}; a pack "
                                          "folder elsewhere is named by its path (./my-pack)")))
            continue
        b.load_pack(available[name])


def _load_paths(b: _Builder, paths: list[Path]) -> None:
    """Pack folders and single content files, in order (a folder must be a pack)."""
    for path in paths:
        if path.is_dir():
            if (path / "pack.yaml").exists():
                b.load_pack(path)
            else:
                b.diags.append(Diagnostic("LOAD003", "a folder to validate must be an expansion (with pack.yaml)",
                                          display_path(path), 1, 1,
                                          hint="use --root DIR to validate a whole content tree"))
        else:
            _load_single(b, path)


def _check_requirements(b: _Builder, root: Path) -> None:
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


def _check_cycles(b: _Builder) -> None:
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


def _check_loaded(b: _Builder, vocab: Vocabulary) -> dict[str, EffectSource]:
    """Once the vocabulary is known: every effect (returned by owner), the maps, the optional rules, and the
    declared kinds and variants."""
    effects = _check_effects(b, vocab)
    for bm, doc in b.maps.values():
        check_map(b, bm, doc, vocab)
    game_rules: schema.GameRules | None = b.rules.get("game.yaml")
    names = Names(vocab.resources, tuple(f.id for f in game_rules.marker_faces) if game_rules else ())
    b.diags += check_options(b.options, names, [(cid, card.unavailable_in, doc, node) for cid, (card, _, doc, node)
                                                in b.cards.items() if card.unavailable_in])
    b.check_kinds_and_variants()
    return effects


def _content(b: _Builder, root: Path, vocab: Vocabulary, effects: dict[str, EffectSource]) -> Content:
    """The loaded content, once nothing is wrong with it (its warnings kept, sorted)."""
    return Content(
        root=str(root),
        dice=b.rules["dice.yaml"], resources=b.rules["resources.yaml"], precedence=b.rules["precedence.yaml"],
        phases=b.rules["phases.yaml"], queries=b.rules["queries.yaml"], rwb=b.rules["rwb.yaml"],
        game=b.rules.get("game.yaml", schema.GameRules("rulebook", ())),
        options={k: v[0] for k, v in b.options.items()},
        cards={k: v[0] for k, v in b.cards.items()},
        card_kinds={k: v[1] for k, v in b.cards.items()},
        maps={k: v[0] for k, v in b.maps.items()},
        effects=effects,
        packs={k: v[0] for k, v in b.packs.items()},
        vocab=vocab,
        origins=dict(b.origins),
        warnings=tuple(sorted(b.diags, key=sort_key)),
        owner_pack=dict(b.owner_pack),
        kinds=b.rules.get("kinds.yaml", schema.KindRules("rulebook")),
        sides=b.rules.get("sides.yaml", schema.SideRules("rulebook")),
    )


def _load_single(b: _Builder, path: Path) -> None:
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
    doc, diags = read_source(path, b.overlay)
    b.diags += diags
    if doc is None:
        return
    data = doc.data
    parent = path.parent.name
    if path.name == "pack.yaml":
        b.load_pack(path.parent)
    elif (isinstance(data, dict) and "cards" in data) or parent == "cards":
        load_card_file(b, path, "(file)")
    elif (isinstance(data, dict) and "sectors" in data) or parent == "maps":
        load_map_file(b, path, "(file)")
    elif parent == "options":
        load_option(b, path, "(file)")
    elif (empty := empty_problem(doc)) is not None:  # nothing to tell its kind by: said as of any file that is empty
        b.diags.append(empty)
    else:
        b.diags.append(Diagnostic("LOAD004", "cannot tell what kind of content this file holds",
                                  display_path(path), 1, 1,
                                  hint="card files have 'cards:', maps have 'sectors:', packs are pack.yaml"))


def _check_effects(b: _Builder, vocab: Vocabulary) -> dict[str, EffectSource]:
    names = {cid: card.name for cid, (card, _, _, _) in b.cards.items()}
    qtext = {q.id: q.text for q in vocab.queries.values()}
    del qtext
    qnames = {q.id: q.name for q in vocab.queries.values() if q.name}
    renderer = Renderer(names, qnames)
    compiler = Compiler(vocab.numbers())
    out: dict[str, EffectSource] = {}

    def tier(kind: str) -> str:
        return tier_of(b.rules["precedence.yaml"], kind)

    def add(src: EffectSource | None) -> None:
        if src is not None:
            out[src.owner] = src

    for rwb, doc, node in b.pending_rwb:
        # an RWB written for an optional rule stands in for the plain one while the rule is on (engine)
        key = f"rwb:{rwb.id}" + (f"@{rwb.option}" if rwb.option else "")
        add(b.effect(key, "rwb", rwb.name, rwb.effect, doc, node, vocab, compiler, renderer, tier("rule"), None))
    for side, doc, node in b.pending_sides:
        # A side's own rules reach its players only (interpreter: the side's sources); its Assault trophy runs
        # for its player when it wins an Assault.
        add(b.effect(f"side:{side.id}", "rule", side.name, side.effect, doc, node, vocab, compiler, renderer,
                     tier("rule"), None))
        if side.assault is not None and side.assault.trophy:
            add(b.effect(f"side:{side.id}/assault", "rule", f"{side.name}: {side.assault.name}",
                         side.assault.trophy, doc, node["assault"], vocab, compiler, renderer, tier("rule"), None,
                         key="trophy"))
    for rule, doc, node in b.pending_rules:
        add(b.effect(f"rule:{rule.id}", "rule", rule.name, rule.effect, doc, node, vocab, compiler, renderer,
                     tier("rule"), None))
    for rule, doc, node in b.pending_damage:
        add(b.effect(f"special-damage:{rule.id}", "rule", rule.name, rule.effect, doc, node, vocab, compiler,
                     renderer, tier("rule"), None))
    for oid, (opt, doc, node) in b.options.items():
        add(b.effect(f"option:{oid}", "option", opt.name, opt.effect, doc, node, vocab, compiler, renderer,
                     tier("option"), b.owner_pack.get(f"option:{oid}")))
    for name, kind, doc, node in b.broken_cards:
        b.effect(f"(unloaded) {name}", kind, name, str(node["effect"]), doc, node, vocab, compiler, renderer,
                 tier(kind), None)
    for cid, (card, kind, doc, node) in b.cards.items():
        add(b.effect(cid, kind, card.name, card.effect, doc, node, vocab, compiler, renderer, tier(kind),
                     b.owner_pack.get(f"card:{cid}")))
    for mid, (bm, doc) in b.maps.items():
        map_vocab = vocab.for_map(frozenset(s.id for s in bm.sectors), frozenset(a.id for a in bm.attributes),
                                  frozenset(t.id for t in bm.tables))
        map_renderer = Renderer({**names, **{s.id: s.name for s in bm.sectors},
                                 **{a.id: a.name for a in bm.attributes}, **{t.id: t.name for t in bm.tables}}, qnames)
        for i, sec in enumerate(bm.sectors):
            node = doc.data["sectors"][i]
            add(b.effect(f"{mid}/{sec.id}", "sector", f"{bm.name}, {sec.name}", sec.effect, doc, node, map_vocab,
                         compiler, map_renderer, tier("sector"), b.owner_pack.get(f"map:{mid}")))
        for i, attr in enumerate(bm.attributes):
            node = doc.data["attributes"][i]
            add(b.effect(f"{mid}/attribute:{attr.id}", "sector", f"{bm.name}: {attr.name}", attr.effect, doc,
                         node, map_vocab, compiler, map_renderer, tier("sector"), b.owner_pack.get(f"map:{mid}")))
        if bm.rules:
            add(b.effect(f"{mid}/rules", "rule", f"{bm.name}: scenario rules", bm.rules, doc, doc.data,
                         map_vocab, compiler, map_renderer, tier("sector"), b.owner_pack.get(f"map:{mid}"),
                         key="rules"))
    return out


_Print = tuple[tuple[str, int, int], ...]
_CACHE: dict[tuple[str, tuple[str, ...] | str], tuple[_Print, _Print, tuple[str, ...], Content]] = {}


def _fingerprint(root: Path) -> tuple[tuple[str, int, int], ...]:
    """Every content file under ``root`` with its size and modification time. The folders right under ``root``
    are followed if they are links (the bundled tree, src/ddaydice/, is made of links); no link below them is,
    so a link loop cannot make the walk endless. Beyond :data:`MAX_FINGERPRINT_FILES` files the tree gets a
    fingerprint of its own that matches nothing (it is then loaded afresh each time)."""
    out: list[tuple[str, int, int]] = []
    tops, _ = listing(root)
    walks = [os.walk(top.resolve(), followlinks=False) for top in tops if top.is_dir()]
    files_at_root: list[tuple[str, list[str], list[str]]] = [(str(root), [], [t.name for t in tops
                                                                                if not t.is_dir()])]
    for folder, _dirs, files in [*files_at_root, *(step for walk in walks for step in walk)]:
        if len(out) > MAX_FINGERPRINT_FILES:
            return (("(too many files)", id(out), 0),)
        for name in sorted(files):
            if name.endswith((".yaml", ".yml", ".lark")):
                path = os.path.join(folder, name)  # noqa: PTH118  (os.walk gives strings)
                try:
                    st = os.stat(path)  # noqa: PTH116
                except OSError:
                    continue
                out.append((path, st.st_size, st.st_mtime_ns))
    return tuple(sorted(out))


def _read_print(reads: Iterable[str]) -> tuple[tuple[str, int, int], ...]:
    """The paths a load looked at (``recording``), each with its kind and size and its modification time (a
    folder's changes when an entry comes or goes), and where it leads; a path gone is marked so."""
    out: list[tuple[str, int, int]] = []
    for path in sorted(reads):
        try:
            st = os.lstat(path)
        except OSError:
            out.append((path, -1, -1))
            continue
        out.append((f"{path}\0{st.st_mode}\0{os.path.realpath(path)}", st.st_size, st.st_mtime_ns))
    return tuple(out)


def load_cached(root: Path | None = None, *, packs: Iterable[str] | str = ()) -> tuple[Content | None,
                                                                                      list[Diagnostic]]:
    """``load`` for a whole content tree, remembered for the life of the process while its files are
    unchanged (a test run, a notebook: one load, many games and scenarios). Content is immutable. The files
    compared are the tree's, the pack folders named by a path, and every path the load looked at (the packs
    their ``requires:`` brought too)."""
    root = root or bundled_root()
    key = (str(root.resolve()), packs if isinstance(packs, str) else tuple(packs))
    folders = [Path(n).resolve() for n in ([] if isinstance(packs, str) else packs) if is_pack_path(n)]
    prints = _fingerprint(root.resolve()) + tuple(f for folder in folders for f in _fingerprint(folder))
    hit = _CACHE.get(key)
    if hit is not None and hit[0] == prints and hit[1] == _read_print(hit[2]):
        return hit[3], list(hit[3].warnings)
    with recording() as looked:
        content, diags = load(root, packs=packs)
    if content is not None and len(looked.paths) <= MAX_FINGERPRINT_FILES:
        if len(_CACHE) > 8:
            _CACHE.clear()
        _CACHE[key] = (prints, _read_print(looked.paths), tuple(sorted(looked.paths)), content)
    return content, diags


