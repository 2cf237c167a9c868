"""``dday explain FILE QUERY``: a query in a scenario's state (after its steps), every contribution and why."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from ddaydice.interpreter.cli.common import (
    derivation_text,
    echo,
    echo_diagnostics,
    input_file,
    load_or_exit,
    scenario_packs,
)


@click.command()
@click.argument("file", type=click.Path(path_type=Path, exists=True, dir_okay=False))
@click.argument("query", nargs=-1, required=True)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
def explain(file: Path, query: tuple[str, ...], fmt: str) -> None:
    """Explain a query in a scenario's state (after its steps): every contribution, in order, and why, each with
    where the rulebook writes it and the rulings that decide it (their numbers in docs/rulings.md).

    QUERY reads: NAME for UNIT [in SECTOR] [of CARD] [from N], each clause once: 'in SECTOR' for a
    Sector other than the Unit's, 'of CARD' for a card's value (a cost: of a card of the kind
    the query prices), 'from N' for a base the moment gives (the Courage a line costs, a loss). For
    example 'def for u1', 'advance-cost for u1 from 2', 'item-cost for u1 of bazooka',
    'casualties for u1 from 7', 'may-enter for u1 in s7', 'locked-dice for u1'.
    """
    import attrs

    from ddaydice.dsl.diagnostics import DDayError
    from ddaydice.interpreter.tools import scenario as sc_mod
    from ddaydice.interpreter.tools.scenario_report import cited_json

    input_file(file, "scenario")
    packs, problems = scenario_packs(file)  # the packs the scenario names, as `dday scenario run`
    if problems:
        echo_diagnostics(problems, fmt, 50)
        sys.exit(2)
    content = load_or_exit(packs=packs, fmt=fmt)
    loaded, diags = sc_mod.load_scenario(file, content)
    if loaded is None or diags:
        echo_diagnostics(diags, fmt, 50)
        sys.exit(2)
    sc, doc = loaded
    sc = attrs.evolve(sc, expect=())
    result, game = sc_mod.run(sc, content, str(file), doc=doc)
    if game is None or result.error:
        raise click.ClickException(result.error or "the scenario could not be set up")
    text = " ".join(query)
    try:
        value, derivation = sc_mod.evaluate_query(game, text)
    except (DDayError, KeyError, ValueError) as exc:
        raise click.UsageError(f"cannot evaluate {text[:100]!r}: {exc}") from exc
    if fmt == "json":
        cited = cited_json(derivation, content.citations) if derivation else None
        echo(json.dumps({"query": text, "value": value, "derivation": cited}, indent=2, default=str))
        return
    echo(f"{text} = {value}")
    if derivation is not None:
        for line in derivation_text(derivation, indent="  ", citations=content.citations):
            echo(line)
