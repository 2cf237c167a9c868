"""``dday list [KIND]``: what is loaded (specialists, items, vehicles, awards, a pack's kinds of card, maps, rules,
expansions)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from ddaydice.interpreter.cli.common import echo, load_or_exit, pack_option, root_option

if TYPE_CHECKING:
    from ddaydice.dsl.loader import Content

#: The kinds of things listed besides cards, by the word that names them.
OTHERS = {"maps": "map", "rules": "rule", "expansions": "expansion"}
#: The base game's kinds of card, by the word that names them (a pack's kinds are named by their plural).
BASE = {"specialists": "specialist", "items": "item", "vehicles": "vehicle", "awards": "award"}


def card_kinds(content: Content) -> dict[str, str]:
    """Every kind of card loaded, by the word that names it in ``dday list KIND`` (its plural: the base game's, and
    each declared kind's ``plural``, else its id and an 's'), in the order the listing shows them."""
    out = dict(BASE)
    for kind in content.kinds.kinds:
        out.setdefault(_plural(kind.id, kind.plural), kind.id)
    return out


def _plural(kind: str, declared: str = "") -> str:
    from ddaydice.dsl.sandbox import is_slug

    word = declared.strip().lower().replace(" ", "-") if declared else ""
    return word if word and is_slug(word) else f"{kind}s"


def kind_named(content: Content, word: str, root: Path | None) -> str:
    """The kind ``dday list WORD`` names (its plural, or its id); a usage error, with the kinds, when none is (and
    the bundled pack to load, when one of them declares it)."""
    named = {**card_kinds(content), **OTHERS}
    found = _named(named, word)
    if found is not None:
        return found
    from ddaydice.dsl.diagnostics import did_you_mean  # (only when asked: dday --help starts fast)
    from ddaydice.dsl.loader import load_cached

    hint = did_you_mean(word, [*named, *named.values()])
    everything = load_cached(root, packs="all")[0]
    elsewhere = _named(card_kinds(everything), word) if everything is not None else None
    if everything is not None and elsewhere is not None:
        pack = next((everything.owner_pack.get(f"card:{cid}") for cid, k in everything.card_kinds.items()
                     if k == elsewhere), None)
        if pack is not None:
            hint = f"it is a kind of the pack '{pack}', not loaded: add --pack {pack}"
    raise click.UsageError(f"no kind '{word}' to list{' (' + hint + ')' if hint else ''}: one of "
                           + ", ".join(named), ctx=click.get_current_context(silent=True))


def _named(named: dict[str, str], word: str) -> str | None:
    """The kind ``word`` names: by its heading (its plural), its id, or its id and an 's'."""
    return next((kind for plural, kind in named.items() if word in (plural, kind, f"{kind}s")), None)


def _rows(content: Content, kind: str | None, bundled: Content | None = None) -> list[dict[str, Any]]:
    """The rows of what is loaded; the expansions' are every bundled one's (``bundled``: the content with them all),
    loaded or not, and any other pack loaded."""
    rows: list[dict[str, Any]] = []
    kinds = list(card_kinds(content).values())
    if kind is None or kind in kinds:
        for ck in kinds if kind is None else [kind]:  # (each kind together, the base game's first)
            for cid, card in content.cards.items():
                if content.card_kinds[cid] == ck:
                    rows.append({"id": cid, "name": card.name, "kind": ck, "grade": card.grade, "cost": card.cost,
                                 "provenance": card.provenance, "pack": content.owner_pack.get(f"card:{cid}")})
    if kind in (None, "map"):
        for mid, bm in content.maps.items():
            rows.append({"id": mid, "name": bm.name, "kind": "map", "cost": None, "provenance": bm.provenance,
                         "variants": [v.id for v in bm.variants], "pack": content.owner_pack.get(f"map:{mid}"),
                         "description": "variants: " + ", ".join(
                             v.id + (" [RECONSTRUCTED]" if v.provenance == "reconstructed" else "")
                             for v in bm.variants) if bm.variants else ""})
    if kind in (None, "rule"):
        for oid, opt in content.options.items():
            rows.append({"id": oid, "name": opt.name, "kind": "optional-rule", "cost": None,
                         "provenance": opt.provenance, "description": opt.text.strip().splitlines()[0]
                         if opt.text.strip() else "", "pack": content.owner_pack.get(f"option:{oid}")})
    if kind in (None, "expansion"):
        for pid, man in {**(bundled.packs if bundled is not None else {}), **content.packs}.items():
            loaded = pid in content.packs
            said = ["loaded" if loaded else f"not loaded: --pack {pid}"]
            if man.pending:
                said.append(f"optional rules still to come: {', '.join(man.pending)}")
            rows.append({"id": pid, "name": man.name, "kind": "expansion", "cost": None,
                         "provenance": man.provenance, "version": man.version, "pending": list(man.pending),
                         "loaded": loaded, "description": "; ".join(said)})
    return rows


@click.command(name="list")
@click.argument("kind", required=False)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@pack_option("Also load this expansion ('dday list expansions' lists the bundled ones, loaded or not)")
@root_option()
def list_(kind: str | None, fmt: str, packs: tuple[str, ...], root: Path | None) -> None:
    """What is loaded: specialists, items, vehicles, awards, the kinds of card a pack adds (badges, ...), maps,
    rules; and the expansions, every bundled one (saying which are loaded) and any pack loaded by its path. KIND
    shows one of them (its plural, as the full list heads it, or its singular)."""
    content = load_or_exit(root, list(packs), fmt=fmt)
    wanted = kind_named(content, kind, root) if kind else None
    bundled = None
    if wanted in (None, "expansion"):  # every bundled expansion, loaded or not
        from ddaydice.dsl.loader import load_cached

        bundled = load_cached(root, packs="all")[0]
    rows = _rows(content, wanted, bundled)
    headings = {k: plural for plural, k in card_kinds(content).items()}
    if fmt == "json":
        echo(json.dumps(rows, indent=2))
        return
    if not rows:
        echo("(nothing)")
        return
    width = max(len(r["id"]) for r in rows)
    current = None
    for r in rows:
        if r["kind"] != current:
            current = r["kind"]
            echo(f"\n{headings.get(current, current + 's')}:" if current != "optional-rule"
                 else "\noptional rules:")
        cost = f"{r['cost']:>3}" if r["cost"] is not None else "   "
        extra = f"  {r['description']}" if r.get("description") else ""
        flag = "  [RECONSTRUCTED]" if r["provenance"] == "reconstructed" else ""
        pack = f"  (pack {r['pack']})" if r.get("pack") else ""
        echo(f"  {r['id']:<{width}}  {cost}  {r['name']}{flag}{pack}{extra}")
    if wanted in (None, "award"):
        note = content.award_deck_note()
        if note:
            echo(f"\nnote: {note}")
