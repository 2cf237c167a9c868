"""Content loading: a content tree (rules/, cards/, maps/, expansions/) into a checked :class:`Content`.

Data flow::

    YAML files --read_yaml--> ruamel nodes --structure--> attrs records
        --vocabulary--> names --parse/check--> effect trees --compile--> hooks

Every problem found anywhere is a :class:`~ddaydice.dsl.diagnostics.Diagnostic`;
loading either returns a complete :class:`Content` or ``None`` with all the
diagnostics. Nothing is half-applied.

This module assembles the load (``load``, and ``load_cached`` remembering it); each kind of file is read in a
module of dsl/loading/ (its __init__ lists them).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from pathlib import Path

from ddaydice.dsl import schema
from ddaydice.dsl.compile import EffectSource
from ddaydice.dsl.diagnostics import Diagnostic, sort_key
from ddaydice.dsl.limits import (
    MAX_FINGERPRINT_FILES,
)
from ddaydice.dsl.loading.cards import load_cards, pack_cards, read_card_file
from ddaydice.dsl.loading.citations import check_citations
from ddaydice.dsl.loading.content import Citation, Content
from ddaydice.dsl.loading.discovery import (
    bundled_pack_ids,
    is_pack_path,
    named_packs,
    pack_argument,
    pack_dirs,
    pack_named_in_file,
    sources,
)
from ddaydice.dsl.loading.effects import check_effects, vocabulary
from ddaydice.dsl.loading.maps import check_map, load_maps
from ddaydice.dsl.loading.packs import check_requirements, load_bundled_packs, load_paths
from ddaydice.dsl.loading.reading import Builder, display_path, fold_unchecked, read_source, real_keys
from ddaydice.dsl.loading.rules import load_rules
from ddaydice.dsl.loading.xref import check_kinds_and_variants, pack_hint
from ddaydice.dsl.places import bundled_root
from ddaydice.dsl.sandbox import listing, recording
from ddaydice.dsl.settings import Names, check_options
from ddaydice.dsl.vocab import Vocabulary

# What other modules import from here (their names, kept where they were before the loading package).
__all__ = ["Content", "bundled_pack_ids", "display_path", "load", "load_cached", "pack_argument", "pack_cards",
           "pack_named_in_file", "read_card_file", "read_source"]


def load(root: Path | None = None, *, packs: Iterable[str] | str = (), extra: Iterable[Path] = (),
         overlay: Mapping[Path, str] | Mapping[str, str] | None = None) -> tuple[Content | None, list[Diagnostic]]:
    """Load a content tree. ``packs`` names bundled expansions to include ("all" for every one);
    ``extra`` adds expansion folders or single content files on top. ``overlay`` gives the unsaved text of
    files an editor has open, by path (:func:`read_source`): nothing is written, and no file is read that
    would not be read without it."""
    root = root or bundled_root()
    b = Builder(root, real_keys(overlay))
    # Each folder of the tree is a sandbox of its own (the bundled tree's folders may be links: src/ddaydice/).
    load_rules(b, root / "rules", required=True, pack=None, root=root / "rules")
    load_cards(b, root / "cards", None, root / "cards")
    load_maps(b, root / "maps", None, root / "maps")
    refused: list[Diagnostic] = []
    available = {p.name: p for p in pack_dirs(root, refused)}
    b.diags += refused
    wanted, paths = sources(root, available, named_packs(packs, available), extra, b.overlay)
    load_bundled_packs(b, root, available, wanted)
    load_paths(b, paths)
    check_requirements(b, root)
    vocab = vocabulary(b)
    effects: dict[str, EffectSource] = {}
    citations: dict[str, Citation] = {}
    if vocab is not None:
        effects = _check_loaded(b, vocab)
        citations = check_citations(b)
    b.diags = [pack_hint(b, d) for d in fold_unchecked(b.diags, b.unread)]
    errors = [d for d in b.diags if d.severity == "error"]
    if errors or vocab is None:
        return None, sorted(b.diags, key=sort_key)
    return _content(b, root, vocab, effects, citations), sorted(b.diags, key=sort_key)


def _check_loaded(b: Builder, vocab: Vocabulary) -> dict[str, EffectSource]:
    """Once the vocabulary is known: every effect (returned by owner), the maps, the optional rules, and the
    declared kinds and variants."""
    effects = check_effects(b, vocab)
    for bm, doc in b.maps.values():
        check_map(b, bm, doc, vocab)
    game_rules: schema.GameRules | None = b.rules.get("game.yaml")
    names = Names(vocab.resources, tuple(f.id for f in game_rules.marker_faces) if game_rules else ())
    b.diags += check_options(b.options, names, [(cid, card.unavailable_in, doc, node) for cid, (card, _, doc, node)
                                                in b.cards.items() if card.unavailable_in],
                            lambda oid, file, line, col: b.unchecked(oid, file, line, col, "optional rules"))
    check_kinds_and_variants(b)
    return effects


def _content(b: Builder, root: Path, vocab: Vocabulary, effects: dict[str, EffectSource],
             citations: dict[str, Citation]) -> Content:
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
        citations=citations,
    )


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


