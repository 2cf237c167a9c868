"""``dday conflicts``: pairs of effects that touch the same value or permission and can disagree, or that act on the
same event about to happen where one of them replaces it.

The analysis is :mod:`ddaydice.dsl.conflicts` (static, no game state); this module loads the content
(:func:`ddaydice.interpreter.cli.common.load_content`), renders the report for a person who knows the game but
not the code, and exits 0 (a report is not an error), 1 when the content does not load, 2 on a usage error.
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path
from typing import TYPE_CHECKING

import click

from ddaydice.interpreter.cli.common import check_map, echo, load_content, pack_option, root_option

if TYPE_CHECKING:
    from ddaydice.dsl.conflicts import Conflict, Report, Side
    from ddaydice.dsl.loader import Content

WIDTH = 100


def _wrap(label: str, text: str, indent: int = 4) -> list[str]:
    head = " " * indent + f"{label:<10}"
    return textwrap.wrap(text, WIDTH, initial_indent=head, subsequent_indent=" " * len(head),
                         break_long_words=False, break_on_hyphens=False) or [head.rstrip()]


def _side_lines(tag: str, side: Side, tier_names: dict[str, str]) -> list[str]:
    from ddaydice.dsl.conflicts import KIND_LABELS

    tier = tier_names.get(side.tier, side.tier)
    kind = KIND_LABELS.get(side.kind, side.kind)
    if side.source_tier != side.tier:
        kind += f", tier {tier_names.get(side.source_tier, side.source_tier)}; its change counts as {tier}"
    else:
        kind += f", tier {tier}"
    lines = _wrap(tag, f"{side.name} ({kind}) at {side.location}")
    lines += _wrap("", f"{side.english}  [{side.value}]")
    if side.via:
        lines += _wrap("", f"through {side.via}")
    if side.where:
        lines += _wrap("", side.where[:1].upper() + side.where[1:] + ".")
    return lines


def render_conflict(n: int, c: Conflict, tier_names: dict[str, str]) -> list[str]:
    from ddaydice.dsl.conflicts import KIND_TITLES

    title = f"{n}. {KIND_TITLES[c.kind]}: {c.a.name}" + (f" against {c.b.name}" if c.b else "")
    lines = textwrap.wrap(title, WIDTH, initial_indent="  ", subsequent_indent="     ", break_long_words=False,
                          break_on_hyphens=False)
    lines += _side_lines("A", c.a, tier_names)
    if c.b is not None:
        lines += _side_lines("B", c.b, tier_names)
    lines += _wrap("Disagree", c.disagree + ("" if c.disagree.endswith(".") else "."))
    lines += _wrap("Engine", c.resolution)
    if c.where:
        lines += _wrap("Where", c.where[:1].upper() + c.where[1:] + ".")
    lines += _wrap("Rule", "; ".join(f'"{r}"' for r in c.rules) + ".")
    missing, only = dict(c.not_in), dict(c.only_in)

    def note(m: str) -> str:
        if m in only:
            return "only " + _or(only[m])
        if m in missing:
            return "not " + _or(missing[m])
        return ""

    if c.map_id is None:
        lines += _wrap("Maps", ", ".join(m + (f" ({note(m)})" if note(m) else "") for m in c.maps) + ".")
    elif note(c.map_id):
        lines += _wrap("Set-ups", _cap(note(c.map_id)) + ".")
    return lines


def _or(parts: tuple[str, ...] | list[str]) -> str:
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " or " + parts[-1]


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def render_report(report: Report, content: Content, packs: list[str]) -> str:
    from ddaydice.dsl.conflicts import KIND_ORDER, KIND_TITLES

    tier_names = {t.id: t.name for t in content.precedence.tiers}
    out = ["Effects that touch the same value or permission and can disagree"
           f" (content: the base game{', packs: ' + ', '.join(packs) if packs else ''}).",
           "For each pair: the two effects, what they disagree on, how the engine resolves it, and the rule it "
           "uses."]
    groups: list[tuple[str, list[Conflict]]] = []
    shared = [c for c in report.conflicts if c.map_id is None]
    if shared:
        groups.append(("Cards and rules, on every map where both can be in play", shared))
    for mid in report.maps:
        mine = [c for c in report.conflicts if c.map_id == mid]
        bm = content.maps[mid]
        title = f"{bm.name} ({mid})"
        groups.append((title, mine))
    n = 0
    for title, items in groups:
        out.append("")
        out.append(f"== {title} ==")
        if not items:
            out.append("  (no conflicting effects)")
            continue
        for c in items:
            n += 1
            out.append("")
            out += render_conflict(n, c, tier_names)
    counts = report.counts()
    per_kind = "; ".join(f"{KIND_TITLES[k]}: {counts[k]}" for k in sorted(KIND_ORDER, key=KIND_ORDER.__getitem__))
    by_map = ", ".join(f"{mid} {sum(1 for c in report.conflicts if c.map_id == mid)}" for mid in report.maps)
    out.append("")
    out.append(f"{len(report.conflicts)} pair(s). {per_kind}.")
    out.append(f"By group: cards and rules {len(shared)}; {by_map}.")
    return "\n".join(out)


@click.command(name="conflicts")
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@pack_option("Also load this expansion")
@root_option("Analyse this content tree (rules/, cards/, maps/, expansions/) instead of the bundled one.")
@click.option("--map", "map_ids", multiple=True, help="Only this map (repeatable).")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="json prints a list of pair objects.")
def conflicts(paths: tuple[Path, ...], packs: tuple[str, ...], root: Path | None, map_ids: tuple[str, ...],
              fmt: str) -> None:
    """Find pairs of effects that touch the same value or permission and can disagree (or act on the same event
    about to happen, one of them replacing it).

    Only pairs that can meet in a game are listed: effects of the same map, cards available on it,
    scopes and conditions that can reach the same Unit or Sector. For each pair: the two effects,
    what they disagree on, how the engine resolves it and the precedence rule it uses. A PATH (a
    content file or an expansion folder) is analysed on top of the bundled content, as with
    'dday validate'. Exit 0 (a report is not an error), 1 if the content does not load, 2 on usage errors.
    """
    from ddaydice.dsl.conflicts import analyse

    content = load_content(root, packs, paths, fmt)
    for mid in map_ids:
        check_map(content, mid, packs)
    report = analyse(content, list(map_ids) if map_ids else None)
    if fmt == "json":
        echo(json.dumps([c.as_json() for c in report.conflicts], indent=2, ensure_ascii=False))
        return
    echo(render_report(report, content, sorted(content.packs)))
