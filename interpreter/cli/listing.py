"""``dday list [KIND]``: what is loaded (specialists, items, vehicles, awards, maps, rules, expansions)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from ddaydice.interpreter.cli.common import load_or_exit, pack_option, root_option

if TYPE_CHECKING:
    from ddaydice.dsl.loader import Content

KINDS = {
    "specialists": "specialist",
    "items": "item",
    "vehicles": "vehicle",
    "awards": "award",
    "maps": "map",
    "rules": "rule",
    "expansions": "expansion",
}


def _rows(content: Content, kind: str | None, bundled: Content | None = None) -> list[dict[str, Any]]:
    """The rows of what is loaded; the expansions' are every bundled one's (``bundled``: the content with them all),
    loaded or not, and any other pack loaded."""
    rows: list[dict[str, Any]] = []
    if kind in (None, "specialist", "item", "vehicle", "award"):
        for cid, card in content.cards.items():
            ck = content.card_kinds[cid]
            if kind is None or ck == kind:
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
@click.argument("kind", required=False, type=click.Choice(sorted(KINDS)))
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@pack_option("Also load this expansion ('dday list expansions' lists the bundled ones, loaded or not)")
@root_option()
def list_(kind: str | None, fmt: str, packs: tuple[str, ...], root: Path | None) -> None:
    """What is loaded: specialists, items, vehicles, awards, maps, rules; and the expansions, every bundled one
    (saying which are loaded) and any pack loaded by its path."""
    content = load_or_exit(root, list(packs))
    bundled = None
    if kind in (None, "expansions"):  # every bundled expansion, loaded or not
        from ddaydice.dsl.loader import load_cached

        bundled = load_cached(root, packs="all")[0]
    rows = _rows(content, KINDS[kind] if kind else None, bundled)
    if fmt == "json":
        click.echo(json.dumps(rows, indent=2))
        return
    if not rows:
        click.echo("(nothing)")
        return
    width = max(len(r["id"]) for r in rows)
    current = None
    for r in rows:
        if r["kind"] != current:
            current = r["kind"]
            click.echo(f"\n{current}s:" if current != "optional-rule" else "\noptional rules:")
        cost = f"{r['cost']:>3}" if r["cost"] is not None else "   "
        extra = f"  {r['description']}" if r.get("description") else ""
        flag = "  [RECONSTRUCTED]" if r["provenance"] == "reconstructed" else ""
        pack = f"  (pack {r['pack']})" if r.get("pack") else ""
        click.echo(f"  {r['id']:<{width}}  {cost}  {r['name']}{flag}{pack}{extra}")
    if kind in (None, "awards"):
        note = content.award_deck_note()
        if note:
            click.echo(f"\nnote: {note}")
