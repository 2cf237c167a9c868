"""``dday card ID``: everything about one card, for a player or a modder.

Its name, kind, grade, cost and text; its effect as written and in English; where it comes from
(provenance, flagged when it is our reconstruction, and the pack); and on which maps and variants it can
come into play, and why (the availability is :func:`ddaydice.dsl.conflicts.setups`, shared with
``dday conflicts``).
"""

from __future__ import annotations

import json
from pathlib import Path

import click

from ddaydice.interpreter.cli.common import echo, load_content, pack_option, root_option


@click.command(name="card")
@click.argument("card_id", metavar="ID")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@root_option()
@pack_option("Also load this pack (every bundled one is loaded)")
def card(card_id: str, fmt: str, root: Path | None, packs: tuple[str, ...]) -> None:
    """Show one card: name, kind, grade, cost, text, its effect as written and in English, provenance
    (reconstructions flagged), its pack, and the maps and variants where it can come into play."""
    from ddaydice.dsl.diagnostics import did_you_mean
    from ddaydice.interpreter.tools.card_info import card_info, render_card

    content = load_content(root, ("all", *packs), (), fmt)
    if card_id not in content.cards:
        hint = did_you_mean(card_id, content.cards) or "see 'dday list' for every card"
        # Every bundled pack is loaded: a card that is none of theirs may be in a pack folder of one's own.
        elsewhere = "a card of a pack folder of yours is shown with --pack PATH" if not packs else (
            f"it is in none of the packs loaded ({', '.join(packs)})")
        raise click.UsageError(f"no card '{card_id}'; {hint}; {elsewhere}")
    info = card_info(content, card_id)
    if fmt == "json":
        echo(json.dumps(info, indent=2, ensure_ascii=False))
        return
    echo(render_card(info))
