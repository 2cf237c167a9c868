"""A content tree's or a pack's rules/: its rules files (their lists of records with ids, merged with the base
game's and those of the packs loaded before; the precedence tiers, merged by id and placed by ``after``) and its
optional rules (rules/options/)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import attrs

from ddaydice.dsl import schema
from ddaydice.dsl.diagnostics import Diagnostic, did_you_mean
from ddaydice.dsl.loading.reading import Builder, display_path
from ddaydice.dsl.sandbox import shown_path
from ddaydice.dsl.yamlsrc import YamlDoc, position, shorten

RULE_FILES: dict[str, type[Any]] = {
    "dice.yaml": schema.DiceRules,
    "resources.yaml": schema.ResourceRules,
    "precedence.yaml": schema.PrecedenceRules,
    "phases.yaml": schema.PhaseRules,
    "queries.yaml": schema.QueryRules,
    "rwb.yaml": schema.RwbRules,
    "game.yaml": schema.GameRules,
    "kinds.yaml": schema.KindRules,
    "sides.yaml": schema.SideRules,
    "rulings.yaml": schema.RulingRules,
}
# Rules files a content tree may leave out (an expansion declares its kinds of cards, its sides and the rulings its
# content cites there).
OPTIONAL_RULE_FILES = frozenset({"kinds.yaml", "sides.yaml", "rulings.yaml"})


def load_rules(b: Builder, rules_dir: Path, *, required: bool, pack: str | None, root: Path | None = None) -> None:
    root = root or rules_dir
    if not b.allowed(rules_dir, root):
        return
    for name, cls in RULE_FILES.items():
        path = rules_dir / name
        if not b.allowed(path, root):
            continue
        if not path.exists():
            if required and name not in OPTIONAL_RULE_FILES:
                b.diags.append(Diagnostic("LOAD001", f"the rules need {name}", display_path(rules_dir),
                                             1, 1))
            continue
        doc = b.read(path)
        if doc is None:
            continue
        obj = b.take_file(doc, doc.data, cls, path.stem)
        if obj is None:
            continue
        b.check_provenance(obj.provenance, obj.note, doc, doc.data)
        check_listed_ids(b, name, obj, doc)
        if isinstance(obj, schema.PrecedenceRules):
            check_tiers(b, obj, doc, b.rules.get(name))
            b.pending_cited.append(("precedence", obj, doc, doc.data))
        if isinstance(obj, schema.PhaseRules):
            b.pending_cited += [(f"phase:{phase.id}", phase, doc, doc.data["phases"][i])
                                for i, phase in enumerate(obj.phases)]
        if name in b.rules and pack is not None:
            b.rules[name] = merge_rules(b.rules[name], obj)
        else:
            b.rules[name] = obj
        if isinstance(obj, schema.KindRules):
            for i, kind in enumerate(obj.kinds):
                b.origins[f"kind:{kind.id}"] = (doc.file, *position(doc.data, ["kinds", i, "id"]))
        if isinstance(obj, schema.SideRules):
            for i, side in enumerate(obj.sides):
                b.origins[f"side:{side.id}"] = (doc.file, *position(doc.data, ["sides", i, "id"]))
                b.pending_sides.append((side, doc, doc.data["sides"][i]))
        if isinstance(obj, schema.RwbRules):
            for i, rwb in enumerate(obj.rwb):
                b.pending_rwb.append((rwb, doc, doc.data["rwb"][i]))
        if isinstance(obj, schema.GameRules):
            for i, rule in enumerate(obj.rules):
                b.pending_rules.append((rule, doc, doc.data["rules"][i]))
            for i, rule in enumerate(obj.special_damage):
                b.pending_damage.append((rule, doc, doc.data["special-damage"][i]))
        if isinstance(obj, schema.QueryRules):
            for i, query in enumerate(obj.queries):
                b.pending_queries.append((query, doc, doc.data["queries"][i]))
    known = set(RULE_FILES) | {"options", "invariants.yaml"}  # invariants: read by interpreter/tools/invariants
    if rules_dir.is_dir():
        for extra in b.entries(rules_dir, root):
            if extra.name not in known and extra.suffix in {".yaml", ".yml"}:
                b.diags.append(Diagnostic(
                    "LOAD002", f"unexpected rules file '{shorten(extra.name)}'", shown_path(extra), 1, 1,
                    hint=did_you_mean(extra.name, RULE_FILES) or "rules files: " + ", ".join(RULE_FILES)))
    for path in b.yaml_files(rules_dir / "options", root):
        doc = b.read_declaring(path, "optional rules")
        if doc is not None:
            load_option(b, doc, pack)
    if rules_dir / "options" in b.unlisted:
        b.not_read("optional rules", shown_path(rules_dir / "options"))

def check_listed_ids(b: Builder, name: str, obj: Any, doc: YamlDoc) -> None:
    """Ids given twice in the lists of a rules file (resources, faces, phases, queries, kinds...): DUP001 at
    the second. Every list of records with an ``id`` is checked, within the file and against the same file
    of the base game and of the packs loaded before (a pack's lists are appended to theirs), except the
    precedence tiers, which merge by id across files (within one file, a tier is listed once). A resource's
    aliases share its ids' names. An RWB written for an optional rule stands in for the RWB of its id: it
    is another entry."""
    for field in attrs.fields(type(obj)):
        entries = getattr(obj, field.name)
        if not isinstance(entries, tuple):
            continue
        noun = _LISTED.get(field.name, field.name.replace("_", "-"))
        scope = (doc.file,) if field.name in _MERGED_BY_ID else (name,)
        for i, entry in enumerate(entries):
            if not attrs.has(type(entry)) or not isinstance(getattr(entry, "id", None), str):
                continue
            names: list[tuple[str, list[str | int]]] = [(entry.id, [field.name, i, "id"])]
            names += [(alias, [field.name, i, "aliases", j]) for j, alias in
                      enumerate(getattr(entry, "aliases", ()))]
            variant = (getattr(entry, _STANDS_IN[field.name]) or "") if field.name in _STANDS_IN else ""
            for ident, path in names:
                key = (*scope, field.name, ident, variant)
                line, col = position(doc.data, path)
                first = b.listed.get(key)
                if first is None:
                    b.listed[key] = (doc.file, line, col)
                    continue
                what = "name" if len(path) > 3 else "id"  # an alias is a name
                b.diags.append(Diagnostic(
                    "DUP001", f"duplicate {noun} {what} '{ident}' (first defined at {first[0]}:{first[1]})",
                    doc.file, line, col, width=len(ident),
                    hint=_listed_hint(noun, what, name, same_file=first[0] == doc.file)))

def check_tiers(b: Builder, prec: schema.PrecedenceRules, doc: YamlDoc, before: schema.PrecedenceRules | None) -> None:
    """A precedence file's ``after:``: each names a tier (of this file, or of the rules loaded before it:
    XREF006), only a new tier says one (an existing tier keeps its place: TIER002), and no tier comes after
    itself, directly or through others (TIER001, at the entry that closes the cycle, naming it)."""
    existing = [t.id for t in before.tiers] if before else []
    known = list(dict.fromkeys([*existing, *(t.id for t in prec.tiers)]))
    new: dict[str, tuple[int, str | None]] = {}
    for i, tier in enumerate(prec.tiers):
        if tier.id not in existing and tier.id not in new:
            new[tier.id] = (i, tier.after)
        if tier.after is None:
            continue
        line, col = position(doc.data, ["tiers", i, "after"])
        if tier.after not in known:
            b.diags.append(Diagnostic(
                "XREF006", f"tier '{tier.id}' is placed after '{tier.after}', which is no tier", doc.file,
                line, col, width=len(tier.after), hint=did_you_mean(tier.after, known) or
                f"tiers: {', '.join(known)} (those of the base game, of the packs loaded before, and of this "
                "file)"))
        elif tier.id in existing:
            b.diags.append(Diagnostic(
                "TIER002", f"tier '{tier.id}' exists already: it keeps its place, and 'after' does not move it",
                doc.file, line, col, width=len(tier.after),
                hint="a tier of an id that exists adds its sources to that tier; remove 'after', or give a "
                "new tier an id of its own"))
    reported: set[frozenset[str]] = set()
    for start in new:
        chain = [start]
        while (after := new[chain[-1]][1]) in new and after not in chain:
            chain.append(after)
        if after not in chain:
            continue
        cycle = chain[chain.index(after):]
        if frozenset(cycle) in reported:
            continue
        reported.add(frozenset(cycle))
        closer = max(cycle, key=lambda t: new[t][0])  # the entry of the cycle written last
        at = cycle.index(closer)
        order = [*cycle[at:], *cycle[:at], closer]
        index, after = new[closer]
        line, col = position(doc.data, ["tiers", index, "after"])
        what = "itself" if after == closer else f"'{after}', which closes a cycle: {' -> '.join(order)}"
        b.diags.append(Diagnostic(
            "TIER001", f"tier '{closer}' is placed after {what}", doc.file, line, col, width=len(after or ""),
            hint="a new tier goes right above the tier its 'after' names: no tier may come after itself, "
            "directly or through others; remove one of these 'after:'"))

def load_option(b: Builder, doc: YamlDoc, pack: str | None) -> None:
    """An optional rule's file, of a folder rules/options/ or given on its own, once read (:meth:`Builder.read`)."""
    opt = b.take_file(doc, doc.data, schema.OptionDef, Path(doc.file).stem)
    if opt is None:
        b.not_read("optional rules", doc.file)  # the rule it declares is not known
        return
    if b.claim(f"option:{opt.id}", opt.id, doc, doc.data, pack, "optional rule"):
        b.options[opt.id] = (opt, doc, doc.data)
        b.check_provenance(opt.provenance, opt.note, doc, doc.data)


# The lists of records with ids in the rules files (check_listed_ids), by field: what one entry is called.
_LISTED = {"faces": "face", "resources": "resource", "tiers": "tier", "phases": "phase", "queries": "query",
           "ignorables": "ignorable", "rwb": "RWB", "rules": "rule", "marker_faces": "marker face",
           "special_damage": "Special Damage rule", "kinds": "kind of card", "sides": "side", "rulings": "ruling"}
_MERGED_BY_ID = frozenset({"tiers"})  # a pack's tier of an existing id adds to that tier (merge_tiers)
_STANDS_IN = {"rwb": "option"}  # an RWB written for an optional rule stands in for the RWB of its id


def _listed_hint(noun: str, what: str, file: str, *, same_file: bool) -> str:
    if same_file:
        return f"each {noun} is listed once: remove one of the two, or give this one another {what}"
    return (f"a pack's {file} adds to the base game's, and to those of the packs it requires: give this {noun} "
            f"another {what}, or remove it")


def merge_rules(base: Any, extra: Any) -> Any:
    """A pack's rules file extends the base one: its lists are appended, its marks added; precedence tiers merge by
    id."""
    if isinstance(base, schema.PrecedenceRules) and isinstance(extra, schema.PrecedenceRules):
        return attrs.evolve(base, tiers=merge_tiers(base.tiers, extra.tiers))
    changes: dict[str, Any] = {}
    for field in attrs.fields(type(base)):
        old = getattr(base, field.name)
        new = getattr(extra, field.name)
        if isinstance(old, tuple) and isinstance(new, tuple):
            changes[field.name] = old + new
        elif isinstance(old, bool) and isinstance(new, bool):
            changes[field.name] = old or new  # a mark (rwb.yaml's beyond-turn-limits) a pack adds, never removes
    return attrs.evolve(base, **changes)


def merge_tiers(tiers: tuple[schema.Tier, ...], extra: tuple[schema.Tier, ...]) -> tuple[schema.Tier, ...]:
    """A pack's tiers: one with an existing id adds its sources (and a ``beyond-turn-limits`` mark) to that tier
    (Badges rank with Items); a new one goes right above the tier its ``after`` names (Battle Conditions above
    Sector attributes), or on top.
    A tier named by an ``after`` is placed before the tiers placed after it, wherever the file lists it. An
    ``after`` naming no tier, or closing a cycle, puts the tier on top (the load reports it: XREF006,
    TIER001)."""
    out = list(tiers)
    waiting = list(extra)
    while waiting:
        placed = {t.id for t in out}
        later = {t.id for t in waiting} - placed
        k = next((i for i, t in enumerate(waiting) if t.id in placed or t.after not in later - {t.id}), 0)
        tier = waiting.pop(k)  # the first that waits for no other (the first of a cycle when all do)
        same = next((i for i, t in enumerate(out) if t.id == tier.id), None)
        if same is not None:
            old = out[same]
            out[same] = attrs.evolve(old, sources=old.sources + tuple(s for s in tier.sources
                                                                     if s not in old.sources),
                                     beyond_turn_limits=old.beyond_turn_limits or tier.beyond_turn_limits,
                                     asks_no_permission=old.asks_no_permission or tier.asks_no_permission)
            continue
        after = next((i for i, t in enumerate(out) if t.id == tier.after), None) if tier.after else None
        if after is None:
            out.append(tier)
        else:
            out.insert(after + 1, tier)
    return tuple(out)
