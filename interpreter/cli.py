"""The ``dday`` command line.

Heavy modules are imported inside each command, so ``dday --help`` starts fast.
Exit status: 0 when all is well, 1 when content has errors (or a scenario fails),
2 for a usage error or unusable input.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

if TYPE_CHECKING:
    from ddaydice.dsl.diagnostics import Diagnostic
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


def _echo_diagnostics(diags: list[Diagnostic], fmt: str, limit: int) -> None:
    from ddaydice.dsl.diagnostics import SourceCache, render_all, to_json

    if fmt == "json":
        click.echo(to_json(diags))
    elif diags:
        click.echo(render_all(diags, SourceCache(), limit=limit), err=False)


def load_or_exit(root: Path | None = None, packs: list[str] | str = "", extra: list[Path] | None = None,
                 fmt: str = "text") -> Content:
    """Load content; on errors print them and exit 1 (2 if the root itself is unusable)."""
    from ddaydice.dsl.loader import load

    content, diags = load(root, packs=packs, extra=extra or [])
    if content is None:
        errors = [d for d in diags if d.severity == "error"]
        _echo_diagnostics(errors, fmt, 50)
        if fmt != "json":
            click.echo(f"{len(errors)} error(s): the content could not be loaded", err=True)
        sys.exit(1)
    return content


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="ddaydice", prog_name="dday")
def main() -> None:
    """A rules-as-data engine for D-Day Dice.

    Every card, Sector attribute and rule is data written in a small effect
    language; the engine applies them in the rulebook's order of precedence.
    """


@main.command()
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@click.option("--root", type=click.Path(path_type=Path, file_okay=False),
              help="Validate this content tree (rules/, cards/, maps/, expansions/) instead of the bundled one.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="json prints a list of {file, line, column, code, severity, message}.")
@click.option("--max-errors", type=click.IntRange(min=1), default=50, show_default=True,
              help="Show at most this many diagnostics (the rest are counted).")
def validate(paths: tuple[Path, ...], root: Path | None, fmt: str, max_errors: int) -> None:
    """Check content: YAML, keys, types, references, provenance and every effect.

    With no PATH, all bundled content (with every bundled expansion) is checked.
    A PATH may be a content file or an expansion folder; it is checked on top of
    the bundled base game.
    """
    import time

    from ddaydice.dsl.loader import load

    if root is not None and not (root / "rules").is_dir():
        raise click.UsageError(f"--root {root}: no rules/ folder there (a content tree has rules/, cards/, "
                               "maps/, expansions/)")
    for p in paths:
        if not p.exists():
            raise click.UsageError(f"no such file or folder: {p}")
    started = time.perf_counter()
    content, diags = load(root, packs="all" if not paths else (), extra=list(paths))
    elapsed = time.perf_counter() - started
    errors = [d for d in diags if d.severity == "error"]
    _echo_diagnostics(diags, fmt, max_errors)
    if fmt == "text":
        if content is None:
            warnings = len(diags) - len(errors)
            click.echo(f"{len(errors)} error(s), {warnings} warning(s)", err=True)
        else:
            n_effects = sum(1 for e in content.effects.values() if e.tree.clauses)
            click.echo(f"ok: {len(content.cards)} cards, {len(content.maps)} maps, {len(content.options)} optional "
                       f"rules, {len(content.packs)} expansions, {n_effects} effects checked in {elapsed:.2f}s",
                       err=True)
            note = content.award_deck_note()
            if note:
                click.echo(f"note: {note}", err=True)
    sys.exit(1 if errors else 0)


def _rows(content: Content, kind: str | None) -> list[dict[str, Any]]:
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
                         "variants": [v.id for v in bm.variants], "pack": content.owner_pack.get(f"map:{mid}")})
    if kind in (None, "rule"):
        for oid, opt in content.options.items():
            rows.append({"id": oid, "name": opt.name, "kind": "optional-rule", "cost": None,
                         "provenance": opt.provenance, "description": opt.text.strip().splitlines()[0]
                         if opt.text.strip() else "", "pack": content.owner_pack.get(f"option:{oid}")})
    if kind in (None, "expansion"):
        for pid, man in content.packs.items():
            rows.append({"id": pid, "name": man.name, "kind": "expansion", "cost": None,
                         "provenance": man.provenance, "version": man.version})
    return rows


@main.command(name="list")
@click.argument("kind", required=False, type=click.Choice(sorted(KINDS)))
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--pack", "packs", multiple=True, help="Also load this bundled expansion (repeatable; 'all').")
@click.option("--root", type=click.Path(path_type=Path, file_okay=False), help="Use this content tree.")
def list_(kind: str | None, fmt: str, packs: tuple[str, ...], root: Path | None) -> None:
    """What is loaded: specialists, items, vehicles, awards, maps, rules, expansions."""
    chosen: list[str] | str = "all" if "all" in packs else list(packs)
    content = load_or_exit(root, chosen)
    rows = _rows(content, KINDS[kind] if kind else None)
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


if __name__ == "__main__":  # pragma: no cover
    main()
