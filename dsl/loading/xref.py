"""What names what across files, once all is read: the kinds of cards and sides declared, the optional rules they,
an RWB or a card name (XREF001, XREF005, OPT002, OPT003), and the hint naming the expansion that declares a kind of
card an effect names."""

from __future__ import annotations

import re

import attrs

from ddaydice.dsl import schema
from ddaydice.dsl.diagnostics import Diagnostic, did_you_mean
from ddaydice.dsl.loading.cards import bundled_kind_owner
from ddaydice.dsl.loading.reading import Builder
from ddaydice.dsl.yamlsrc import position


def check_kinds_and_variants(b: Builder) -> None:
    """Declared kinds (rules/kinds.yaml), RWBs written for an option, and cards 'only-in' an option."""
    declared: schema.KindRules | None = b.rules.get("kinds.yaml")
    pending = {p for man, _ in b.packs.values() for p in man.pending}
    for kind in declared.kinds if declared else ():
        where = b.origins.get(f"kind:{kind.id}")
        file, line, col = where if where else ("rules/kinds.yaml", 1, 1)
        if kind.id in schema.BASE_KINDS:  # a kind declared twice: check_listed_ids
            b.diags.append(Diagnostic(
                "DUP001", f"duplicate kind of card '{kind.id}': it is a kind of the base game", file, line, col,
                width=len(kind.id), hint=f"a pack declares only kinds of its own; its cards of the base kind go "
                f"in a card file of 'kind: {kind.id}'"))
        for opt in [kind.option, *(p.option for p in kind.persist)]:
            if opt is not None and opt not in b.options and opt not in pending and not b.unchecked(
                    opt, file, line, col, "optional rules"):
                b.diags.append(Diagnostic("OPT002", f"kind '{kind.id}' names the optional rule '{opt}', "
                                             "which does not exist", file, line, col,
                                             hint=did_you_mean(opt, b.options)))
    for side, _doc, _node in b.pending_sides:
        file, line, col = b.origins[f"side:{side.id}"]
        if side.option not in b.options and side.option not in pending and not b.unchecked(
                side.option, file, line, col, "optional rules"):
            b.diags.append(Diagnostic("OPT002", f"side '{side.id}' names the optional rule '{side.option}', "
                                         "which does not exist", file, line, col,
                                         hint=did_you_mean(side.option, b.options)))
        for spec in side.start.specialists:
            if spec not in b.cards and not b.unchecked(spec, file, line, col):
                b.diags.append(Diagnostic("XREF001", f"side '{side.id}' starts with '{spec}', which is no "
                                             "card", file, line, col, hint=did_you_mean(spec, b.cards)))
    side_ids = {side.id for side, _, _ in b.pending_sides}
    for kind in declared.kinds if declared else ():
        if kind.side is not None and kind.side not in side_ids:
            file, line, col = b.origins.get(f"kind:{kind.id}", ("rules/kinds.yaml", 1, 1))
            b.diags.append(Diagnostic("XREF005", f"kind '{kind.id}' names the side '{kind.side}', which "
                                         "is not declared (rules/sides.yaml)", file, line, col,
                                         hint=did_you_mean(kind.side, side_ids) or _sides_hint(side_ids)))
    for rwb, doc, node in b.pending_rwb:
        if rwb.side is not None and rwb.side not in side_ids:
            line, col = position(node, ["side"])
            b.diags.append(Diagnostic("XREF005", f"RWB '{rwb.id}' names the side '{rwb.side}', which is "
                                         "not declared (rules/sides.yaml)", doc.file, line, col,
                                         hint=did_you_mean(rwb.side, side_ids) or _sides_hint(side_ids)))
        line, col = position(node, ["option"])
        if rwb.option is not None and rwb.option not in b.options and not b.unchecked(
                rwb.option, doc.file, line, col, "optional rules"):
            b.diags.append(Diagnostic("OPT002", f"RWB '{rwb.id}' is written for the optional rule "
                                         f"'{rwb.option}', which does not exist", doc.file, line, col,
                                         hint=did_you_mean(rwb.option, b.options)))
    for cid, (card, _, doc, node) in b.cards.items():
        for j, oid in enumerate(card.only_in):
            line, col = position(node, ["only_in", j])
            if oid not in b.options and oid not in pending and not b.unchecked(oid, doc.file, line, col,
                                                                               "optional rules"):
                b.diags.append(Diagnostic("OPT003", f"card '{cid}' is only in '{oid}', which is no optional "
                                             "rule (nor one a pack lists as pending): it would be in no game",
                                             doc.file, line, col, hint=did_you_mean(oid, b.options)))


def _sides_hint(side_ids: set[str]) -> str:
    return f"sides declared: {', '.join(sorted(side_ids)) or 'none'} (a pack declares its own in rules/sides.yaml)"


_UNKNOWN_NAME = re.compile(r"unknown [a-z -]+ '([a-z0-9-]+)'$")


def pack_hint(b: Builder, d: Diagnostic) -> Diagnostic:
    """An effect naming a kind of card (a deck) that a bundled expansion declares, when that expansion is not
    loaded, is told which one to require."""
    m = _UNKNOWN_NAME.search(d.message) if d.code == "DSL102" else None
    owner = bundled_kind_owner(b, m.group(1)) if m is not None else None
    if owner is None or owner in b.packs:
        return d
    return attrs.evolve(d, hint=f"'{m.group(1) if m else ''}' is a kind of card of the expansion '{owner}': "
                                f"load it (--pack {owner}, or 'requires: [{owner}]' in your pack.yaml)")
