"""``dday impact CARD --map MAP --policy P ...``: a card forced into play at the start against the same games
without it, for each policy given (docs/simulation.md). A shortcut of ``dday compare``
(:mod:`ddaydice.interpreter.tools.compare`) with two set-ups per policy: the card absent, and the card given to
each Unit (``--to give``) or put into the Pool (``--to pool``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from ddaydice.interpreter.cli.common import (
    SETUP_OPTIONS,
    capped_jobs,
    echo,
    echo_report,
    games_option,
    jobs_option,
    option_option,
    pack_option,
    plot_option,
    policy_option,
    progress,
    seed_option,
    write_plot,
)
from ddaydice.interpreter.cli.compare import parse_measures, parse_precision

#: The option that sets each key of a set-up, as a problem names it (the map is an option here; the cards, CARD).
_OPTION = {**SETUP_OPTIONS, "map": "--map", "give": "CARD", "pool": "CARD", "absent": "CARD"}


@click.command()
@click.argument("card")
@click.option("--map", "map_id", required=True, help="The map to play.")
@click.option("--variant", help="A variant of the map.")
@click.option("--players", type=click.IntRange(1, 4), default=1, show_default=True, help="Units in each game.")
@policy_option("--policy", "policies", multiple=True, checked=False,
               help_text="A policy to play the games (repeatable; one comparison each; skill:S a graded player "
                         "of skill S). Default: reference.")
@option_option()
@pack_option()
@click.option("--to", "where", type=click.Choice(["give", "pool"]), default="give", show_default=True,
              help="give: the card is given to each Unit at the start; pool: it is put into the Pool (an Award, a "
                   "deck's card: on top of its deck). Against: the card out of the game.")
@click.option("--absent", "absent", multiple=True, metavar="CARD",
              help="Another card held out of the games of both set-ups (repeatable).")
@click.option("--alone", is_flag=True,
              help="Hold out of both set-ups every other card the packs (--pack) add: CARD against the game alone.")
@games_option(1000, least=2, help_text="The most games per set-up")
@click.option("--batch", type=click.IntRange(min=2), default=200, show_default=True,
              help="Games per set-up between two looks at the intervals.")
@click.option("--precision", "precisions", multiple=True, metavar="[MEASURE=]WIDTH",
              help="Stop once every 95% interval is narrower than WIDTH (MEASURE=WIDTH for one measure; "
                   "repeatable). Default: play all --games.")
@click.option("--measure", "measure_names", multiple=True, metavar="MEASURE",
              help="A measure to report (repeatable; default all; see dday compare --help).")
@seed_option()
@jobs_option()
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="A table per policy, or JSON.")
@plot_option("Draw each measure's difference (with - without) per policy")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
def impact(card: str, map_id: str, variant: str | None, players: int, policies: tuple[str, ...],
           options: tuple[str, ...], packs: tuple[str, ...], where: str, absent: tuple[str, ...], alone: bool,
           games: int, batch: int,
           precisions: tuple[str, ...], measure_names: tuple[str, ...], seed: int, jobs: int, fmt: str,
           plot_path: Path | None, quiet: bool) -> None:
    """What CARD does to the game: the card forced into play at the start against the same seeds without it,
    for each --policy, each measure's difference with a paired 95% interval. The cards a --pack adds come into
    play in both set-ups as the game deals them, unless held out (--absent, --alone)."""
    from ddaydice.interpreter.tools import compare as cmp
    from ddaydice.interpreter.tools.setups import SetupEntry, check, content_for, pack_cards, problems_text
    from ddaydice.interpreter.tools.simulate import unwinnable_warnings

    measures = parse_measures(measure_names)
    precision = parse_precision(precisions, measures)
    pairs = []
    problems: dict[tuple[str, str, str | None], None] = {}  # every problem, once (both set-ups share most)
    if card in absent:  # (the card measured is absent from one set-up already, and forced into the other)
        problems[(f"--absent {card}", f"'{card}' is the card measured: it is absent from the set-up without it "
                  "already, and given or put into the Pool in the other", "drop this --absent")] = None
    if alone and not packs:
        problems[("--alone", "holds out the other cards the packs add, and no --pack is given: it would do nothing",
                  "add --pack PACK (the pack whose other cards to hold out), or drop --alone")] = None
    held = tuple(dict.fromkeys((*(c for c in absent if c != card), *(c for c in pack_cards(packs)
                                                                      if alone and c != card))))
    for policy in dict.fromkeys(policies or ("reference",)):  # (a policy given twice is played once)
        common: dict[str, Any] = {"map": map_id, "variant": variant, "players": players, "policy": policy,
                                  "options": options, "packs": packs}
        without = SetupEntry(name=f"without {card}", absent=tuple(dict.fromkeys((card, *held))), **common)
        with_ = SetupEntry(name=f"with {card}", give=(card,) if where == "give" else (),
                           pool=(card,) if where == "pool" else (), absent=held, **common)
        for entry in (without, with_):
            for key, message, hint, item, _ in check(entry, content_for):
                named = "--absent" if key == "absent" and item != card else _OPTION.get(key, key)
                problems[(named, message, hint)] = None
        pairs.append((policy, without, with_))
    if problems:
        raise click.UsageError(problems_text(list(problems)))
    jobs = capped_jobs(jobs, games)
    played = [[cmp.to_setup(e, i, seed) for i, e in enumerate((without, with_))] for _, without, with_ in pairs]
    warnings = unwinnable_warnings([(s.name, s.spec) for setups in played for s in setups], content_for)
    if fmt == "text":
        for warning in warnings:
            echo(f"warning: {warning}", err=True)
    results = []
    for (policy, _, _), setups in zip(pairs, played, strict=True):
        with progress(games * 2, f"{card}, policy {policy}", not quiet and fmt == "text") as bar:
            result = cmp.run(setups, games, batch=batch, precision=precision, measures=measures, jobs=jobs,
                             progress=bar)
        results.append((policy, result))
    if fmt == "json":
        echo(json.dumps({"card": card, "to": where, "map": map_id, "variant": variant,
                         "results": [{"policy": p, **cmp.as_json(c)} for p, c in results],
                         **({"warnings": warnings} if warnings else {})}, indent=2))
    else:
        for k, (policy, result) in enumerate(results):
            if k:
                echo("")
            echo(f"{card} ({'given to each Unit' if where == 'give' else 'in the Pool'}) on {map_id}"
                       + (f"/{variant}" if variant else "") + f", policy {policy}:")
            echo_report(cmp.table(result, hold_out="--absent CARD or --alone holds them out"))
        echo_report(cmp.across_policies(card, results, measures))
    if plot_path is not None:  # after the results: a plot that fails after all loses none of them
        from ddaydice.interpreter.tools.plots import compare_plot

        every = [c.differences_json() for _, c in results]  # (one difference each: with - without)
        rows = [(n, [e[n][0] for e in every]) for n in measures]
        write_plot(lambda: compare_plot(f"{card} on {map_id}: with - without, 95% paired intervals",
                                        [f"policy {p}" for p, _ in results], rows, plot_path), plot_path)
