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
    from ddaydice.dsl.loader import load, load_cached

    if extra:
        content, diags = load(root, packs=packs, extra=extra)
    else:
        content, diags = load_cached(root, packs=packs)
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
@click.option("--pack", "packs", multiple=True,
              help="With PATHs: also load this bundled expansion under them (repeatable; 'all').")
def validate(paths: tuple[Path, ...], root: Path | None, fmt: str, max_errors: int, packs: tuple[str, ...]) -> None:
    """Check content: YAML, keys, types, references, provenance and every effect.

    With no PATH, all bundled content (with every bundled expansion) is checked.
    A PATH may be a content file or an expansion folder; it is checked on top of
    the bundled base game, with the bundled expansions its pack.yaml requires
    and those named by --pack.
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
    chosen: list[str] | str = "all" if not paths or "all" in packs else list(packs)
    content, diags = load(root, packs=chosen, extra=list(paths))
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
                         "provenance": man.provenance, "version": man.version, "pending": list(man.pending),
                         "description": f"optional rules still to come: {', '.join(man.pending)}"
                         if man.pending else ""})
    return rows


@main.command(name="list")
@click.argument("kind", required=False, type=click.Choice(sorted(KINDS)))
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--pack", "packs", multiple=True,
              help="Also load this expansion: a bundled one by name, or a pack folder by its path "
                   "(repeatable; 'all': every bundled one).")
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




# ------------------------------------------------------------------ scenarios
def _derivation_text(d: Any, indent: str = "      ") -> list[str]:
    if d.steps and all(step.op == "check" for step in d.steps):
        lines = [f"{indent}{d.query} for {d.subject}: every check must pass"]
        for step in d.steps:
            lines.append(f"{indent}  {'yes' if step.after else 'NO '}  {step.source_name}: {step.text}")
        lines.append(f"{indent}  = {d.value}")
        return lines
    lines = [f"{indent}{d.query} for {d.subject or 'the game'}: base {d.base} ({d.base_source})"]
    width = max([15, *(len(step.tier) for step in d.steps)])
    for step in d.steps:
        val = "" if step.value is None else f" {step.value}"
        line = f"{indent}  {step.tier:<{width}} {step.source_name}: {step.op}{val}: {step.before} -> {step.after}"
        if step.overruled_by:
            line += f"  [overruled by {step.overruled_by}: {step.reason}]"
        elif step.reason:
            line += f"  [{step.reason}]"
        lines.append(line)
    lines.append(f"{indent}  = {d.value}")
    return lines


def _load_for(cache: dict[tuple[str, ...], Content], packs: tuple[str, ...]) -> Content | None:
    from ddaydice.dsl.loader import load_cached

    if packs not in cache:
        content, _ = load_cached(packs=list(packs))
        if content is None:
            return None
        cache[packs] = content
    return cache[packs]


@main.group()
def scenario() -> None:
    """Scenario files: set up a situation, run it, check what follows (docs/scenarios.md)."""


@scenario.command(name="run")
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path, exists=True))
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--verbose", "-v", is_flag=True, help="List every check, not only failures.")
def scenario_run(paths: tuple[Path, ...], fmt: str, verbose: bool) -> None:
    """Run scenario files (or every .yaml under a folder). Exit 0 all pass, 1 a check fails, 2 unusable input."""
    from ddaydice.dsl.diagnostics import SourceCache, render_all
    from ddaydice.dsl.yamlsrc import read_yaml
    from ddaydice.interpreter.tools import scenario as sc_mod

    files = sc_mod.collect(list(paths))
    if not files:
        raise click.UsageError("no scenario files found")
    cache: dict[tuple[str, ...], Content] = {}
    results: list[Any] = []
    problems: list[Diagnostic] = []
    for f in files:
        doc, diags = read_yaml(str(f))
        packs: tuple[str, ...] = ()
        if doc is not None and isinstance(doc.data, dict) and isinstance(doc.data.get("packs"), list):
            packs = tuple(sc_mod.resolve_packs([str(p) for p in doc.data["packs"]], f))
        content = _load_for(cache, packs)
        if content is None:  # the content with these packs does not load: why, and where, as for validate
            from ddaydice.dsl.diagnostics import Diagnostic as Diag
            from ddaydice.dsl.loader import load

            _, load_diags = load(packs=list(packs))
            problems += [d for d in load_diags if d.severity == "error"] or [
                Diag("SCEN001", f"the content with packs {list(packs)} does not load", str(f), 1, 1)]
            continue
        loaded, diags = sc_mod.load_scenario(f, content)
        if loaded is None or diags:
            problems += diags
            continue
        sc, _ = loaded
        result, _game = sc_mod.run(sc, content, str(f))
        results.append(result)
    if fmt == "json":
        click.echo(json.dumps({
            "scenarios": [{"file": r.file, "scenario": r.title, "passed": r.passed, "error": r.error,
                           "checks": [c.as_json() for c in r.checks]} for r in results],
            "diagnostics": [d.as_json() for d in problems],
            "passed": sum(r.passed for r in results), "failed": sum(not r.passed for r in results),
        }, indent=2, default=str))
    else:
        if problems:
            click.echo(render_all(problems, SourceCache()))
        for r in results:
            click.echo(f"{'PASS' if r.passed else 'FAIL'} {r.file}: {r.title}")
            if r.error:
                click.echo(f"    error: {r.error}")
            for c in r.checks:
                if c.passed and not verbose:
                    continue
                mark = "ok  " if c.passed else "FAIL"
                click.echo(f"    {mark} {c.label}: expected {c.expected!r}, got {c.actual!r}"
                           + (f" ({c.message})" if c.message else ""))
                if not c.passed and c.derivation is not None:
                    for line in _derivation_text(c.derivation):
                        click.echo(line)
        passed = sum(r.passed for r in results)
        click.echo(f"{passed} passed, {len(results) - passed} failed"
                   + (f", {len(problems)} unusable" if problems else ""))
    if problems:
        sys.exit(2)
    sys.exit(0 if all(r.passed for r in results) else 1)


@main.command()
@click.argument("file", type=click.Path(path_type=Path, exists=True, dir_okay=False))
@click.argument("query", nargs=-1, required=True)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
def explain(file: Path, query: tuple[str, ...], fmt: str) -> None:
    """Explain a query in a scenario's state (after its steps): every contribution, in order, and why.

    QUERY reads: NAME for UNIT [in SECTOR] [of CARD] [from N], for example
    'def for u1', 'advance-cost for u1', 'item-cost for u1 of bazooka',
    'casualties for u1 from 7', 'may-enter for u1 in s7', 'locked-dice for u1'.
    """
    from ddaydice.dsl.diagnostics import DDayError, SourceCache, render_all
    from ddaydice.dsl.yamlsrc import read_yaml
    from ddaydice.interpreter.tools import scenario as sc_mod

    doc, _ = read_yaml(str(file))  # the packs the scenario names (`packs:`), as `dday scenario run` loads them
    packs = sc_mod.resolve_packs([str(p) for p in doc.data.get("packs", [])], file) if doc is not None and \
        isinstance(doc.data, dict) and isinstance(doc.data.get("packs"), list) else []
    content = load_or_exit(packs=packs)
    loaded, diags = sc_mod.load_scenario(file, content)
    if loaded is None or diags:
        click.echo(render_all(diags, SourceCache()))
        sys.exit(2)
    sc, _ = loaded
    sc = attrs_evolve(sc, expect=())
    result, game = sc_mod.run(sc, content, str(file))
    if game is None or result.error:
        raise click.ClickException(result.error or "the scenario could not be set up")
    text = " ".join(query)
    try:
        value, derivation = sc_mod.evaluate_query(game, text)
    except (DDayError, KeyError) as exc:
        raise click.UsageError(f"cannot evaluate {text!r}: {exc}") from exc
    if fmt == "json":
        click.echo(json.dumps({"query": text, "value": value,
                               "derivation": derivation.as_json() if derivation else None}, indent=2, default=str))
        return
    click.echo(f"{text} = {value}")
    if derivation is not None:
        for line in _derivation_text(derivation, indent="  "):
            click.echo(line)


def attrs_evolve(obj: Any, **changes: Any) -> Any:
    import attrs

    return attrs.evolve(obj, **changes)


# ------------------------------------------------------------------ simulate
@main.command()
@click.argument("map_id", metavar="MAP")
@click.option("--variant", help="A variant of the map (exercise-tiger: practice-run, basic-training, ...).")
@click.option("--players", type=click.IntRange(1, 4), default=1, show_default=True)
@click.option("--games", type=click.IntRange(min=1), default=1000, show_default=True)
@click.option("--policy", type=click.Choice(["random", "reference", "heuristic"]), default="reference",
              show_default=True)
@click.option("--side-policy", type=click.Choice(["random", "reference", "heuristic"]), default=None,
              help="The policy of another side's player (Atlantikwall's German); default: --policy.")
@click.option("--seed", type=int, default=0, show_default=True, help="The run's seed; game i is seeded from it and i.")
@click.option("--jobs", type=click.IntRange(min=1), default=1, show_default=True,
              help="Worker processes (results are identical whatever this is).")
@click.option("--option", "options", multiple=True, help="An optional rule (repeatable; see 'dday list rules').")
@click.option("--pack", "packs", multiple=True,
              help="An expansion to load: a bundled one by name, or a pack folder by its path (repeatable).")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--plot", "plot_path", type=click.Path(dir_okay=False), help="Draw the outcomes to this PNG file.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
def simulate(map_id: str, variant: str | None, players: int, games: int, policy: str, side_policy: str | None,
             seed: int, jobs: int, options: tuple[str, ...], packs: tuple[str, ...], fmt: str, plot_path: str | None,
             quiet: bool) -> None:
    """Play many games with a policy and report win rate, turns, deaths and use of cards."""
    from ddaydice.dsl.diagnostics import DDayError
    from ddaydice.interpreter.game import Game
    from ddaydice.interpreter.policies import make_policy
    from ddaydice.interpreter.tools import simulate as sim

    content = load_or_exit(packs=list(packs))
    spec = sim.Spec(map_id, variant, players, policy, seed, tuple(options), tuple(packs), side_policy)
    try:  # fail fast, before any worker starts, on a bad map, variant, option or player count
        Game(content, map_id, players=players, seed=0, variant=variant, options=options,
             deciders=make_policy(policy))
    except DDayError as exc:
        raise click.UsageError(str(exc)) from exc
    warn = _provenance_warning(content, map_id)
    if warn and fmt == "text":
        click.echo(warn, err=True)
    if quiet or fmt == "json":
        records, seconds = sim.run(content, spec, games, jobs=jobs)
    else:
        with click.progressbar(length=games, label=f"simulating {map_id}", file=sys.stderr) as bar:
            records, seconds = sim.run(content, spec, games, jobs=jobs, progress=bar.update)
    summary = sim.summarise(spec, records, seconds, jobs)
    if plot_path:
        try:
            sim.plot(summary, records, plot_path)
        except ImportError as exc:
            raise click.ClickException("--plot needs matplotlib: pip install 'ddaydice[plot]'") from exc
    if fmt == "json":
        click.echo(json.dumps(summary, indent=2))
        return
    lo, hi = summary["win_rate_ci95"]
    title = map_id + (f" ({variant})" if variant else "")
    click.echo(f"{title}, {players} player(s), policy {policy}, seed {seed}, options: "
               f"{', '.join(options) or 'none'}")
    click.echo(f"  games        {summary['games']}")
    click.echo(f"  won          {summary['wins']} = {summary['win_rate']:.1%}  (95% CI {lo:.1%} to {hi:.1%})")
    sides = [d.name for d in content.sides.sides if d.option in Game(
        content, map_id, players=players, seed=0, variant=variant, options=options, deciders=make_policy(policy)
    ).options]
    if sides:  # another side plays against the Units: the games the Units did not win are his
        click.echo(f"               (won by the Allied Units; the {', '.join(sides)}, policy "
                   f"{side_policy or policy}, won the others)")
    click.echo(f"  turns        mean {summary['mean_turns']:.2f}, min {summary['turns_min']}, "
               f"max {summary['turns_max']}")
    if summary["wiped_out_by_sector"]:
        click.echo("  wiped out in " + ", ".join(f"{k}: {v}" for k, v in summary["wiped_out_by_sector"].items()))
    if summary["soldiers_lost_by_sector"]:
        click.echo("  Soldiers lost per game, by sector: " + ", ".join(
            f"{k}: {v:.2f}" for k, v in summary["soldiers_lost_by_sector"].items()))
    if summary["specialists_recruited"]:
        click.echo("  Specialists: " + ", ".join(f"{k} {v}" for k, v in summary["specialists_recruited"].items()))
    if summary["items_used"]:
        click.echo("  Items and Awards used: " + ", ".join(f"{k} {v}" for k, v in summary["items_used"].items()))
    points = summary.get("victory_points")
    if points:  # an option's score table (victory-points), counted at the end of every game
        g, won, lost = points["group"], points["group_won"], points["group_lost"]
        click.echo(f"  score        group mean {g['mean']:.1f}, min {g['min']}, max {g['max']}; won games "
                   f"mean {won['mean']:.1f}, lost games mean {lost['mean']:.1f}; per Unit mean "
                   f"{points['unit']['mean']:.1f}")
    click.echo(f"  speed        {summary['games_per_s']:.0f} games/s ({summary['seconds']:.2f} s, {jobs} job(s))")


def _provenance_warning(content: Content, map_id: str) -> str | None:
    bm = content.maps.get(map_id)
    if bm is not None and bm.provenance == "reconstructed":
        pack = content.owner_pack.get(f"map:{map_id}")
        where = content.origins.get(f"map:{map_id}", (f"maps/{map_id}.yaml", 1, 1))[0]
        render = f"dday render {map_id}" + (f" --pack {pack}" if pack else "")
        return (f"note: {bm.name} is a RECONSTRUCTION: the rulebook does not give its layout; what is ours is "
                f"listed in its note ({render}, or {where})")
    return None


# ------------------------------------------------------------------ play
def _parse_auto(auto: tuple[str, ...], players: int, sides: list[str] | None = None) -> dict[int, str]:
    """Which players a policy plays: Units by number (1..players), then other sides' players (the German)."""
    from ddaydice.interpreter.policies import POLICIES

    sides = sides or []
    chosen: dict[int, str] = {}
    for item in auto:
        if "=" in item:
            who, policy = item.split("=", 1)
            if who in sides:
                targets = [players + 1 + list(sides).index(who)]
            elif who.startswith("u") and who[1:].isdigit() and 1 <= int(who[1:]) <= players:
                targets = [int(who[1:])]
            else:
                others = f" or {', '.join(sides)}" if sides else ""
                raise click.UsageError(f"--auto {item}: no player '{who}' (Units are u1..u{players}{others})")
        else:
            policy = item
            targets = list(range(1, players + 1 + len(sides)))
        if policy not in POLICIES:
            raise click.UsageError(f"--auto {item}: no policy '{policy}' (policies: {', '.join(POLICIES)})")
        for t in targets:
            chosen[t] = policy
    return chosen


@main.command()
@click.argument("map_id", metavar="MAP")
@click.option("--variant", help="A variant of the map (exercise-tiger: practice-run, basic-training, ...).")
@click.option("--players", type=click.IntRange(1, 4), default=1, show_default=True)
@click.option("--seed", type=int, default=None, help="The game's seed (random if not given; printed).")
@click.option("--option", "options", multiple=True, help="An optional rule (repeatable).")
@click.option("--pack", "packs", multiple=True,
              help="An expansion to load: a bundled one by name, or a pack folder by its path (repeatable).")
@click.option("--auto", "auto", multiple=True,
              help="Let a policy play: 'heuristic' (every player) or 'u2=reference' (one Unit) or "
                   "'german=heuristic' (Atlantikwall's German player). Repeatable.")
@click.option("--save", "save_path", type=click.Path(dir_okay=False, path_type=Path),
              help="Save the finished game (seed and choices) to replay it with 'dday replay'.")
@click.option("--trace/--no-trace", default=False, help="Print every event of the game as it happens.")
def play(map_id: str, variant: str | None, players: int, seed: int | None, options: tuple[str, ...],
         packs: tuple[str, ...], auto: tuple[str, ...], save_path: Path | None, trace: bool) -> None:
    """Play a game at the terminal, deciding every choice (or let policies play some Units)."""
    import random as _random

    from ddaydice.dsl.diagnostics import DDayError
    from ddaydice.interpreter.game import Game
    from ddaydice.interpreter.policies import make_policy
    from ddaydice.interpreter.tools.play import Human, save_replay, unit_line

    content = load_or_exit(packs=list(packs))
    if seed is None:
        seed = _random.SystemRandom().randrange(10**9)
    from ddaydice.interpreter.core.option_rules import OptionRules

    try:
        rules = OptionRules.build(content, options)
    except DDayError as exc:
        raise click.UsageError(str(exc)) from exc
    sides = [d.id for d in content.sides.sides if d.option in rules.options]  # other sides' players (the German)
    autos = _parse_auto(auto, players, sides)
    if rules.automated_units:  # automated Units (solitaire Atlantikwall) decide nothing themselves
        autos.update({i: autos.get(i, "reference") for i in range(1, players + 1)})
    human = Human(ask=lambda prompt: click.prompt(prompt, default="", show_default=False, prompt_suffix=""),
                  say=click.echo)
    deciders = [make_policy(autos[i], seed + i) if i in autos else human for i in range(1, players + 1 + len(sides))]
    try:
        game = Game(content, map_id, players=players, seed=seed, variant=variant, options=options,
                    deciders=deciders, trace=trace)
    except DDayError as exc:
        raise click.UsageError(str(exc)) from exc
    bm = content.maps[map_id]
    click.echo(f"{bm.name}{' - ' + variant if variant else ''}: {players} Unit(s), seed {seed}")
    warn = _provenance_warning(content, map_id)
    if warn:
        click.echo(warn)
    reconstructed = sorted({content.cards[c].name for c in game.state.award_deck
                            if content.cards[c].provenance == "reconstructed"})
    if reconstructed:
        click.echo("note: these Awards are RECONSTRUCTIONS (the rulebook prints no Award texts): "
                   + ", ".join(reconstructed))
    note = content.award_deck_note(len(game.state.award_deck))
    if note and game.state.award_deck:
        click.echo(f"note: {note}")
    s0 = game.state
    held = {c for u in s0.units for c in (*u.specialists, *u.items)} | {c for h in s0.hands.values() for c in h}
    allied = {c for c in (*s0.pool, *s0.placed, *held, *bm.vehicles)
              if c in content.cards and content.card_kinds[c] in {"specialist", "item", "vehicle"}}
    ours_cards = sorted(content.cards[c].name for c in allied if content.cards[c].provenance == "reconstructed")
    if ours_cards:
        click.echo("note: these Specialists, Items and Vehicles of the game are RECONSTRUCTIONS (their texts are not "
                   "all printed; 'dday card ID' says what is ours): " + ", ".join(ours_cards))
    for side in s0.sides:  # another side's Reserve (the German's Specialists and Items)
        side_kinds = [k for k in content.kinds.kinds if k.side == side.side and k.held_as is not None]
        for kd in side_kinds:
            cards = [c for c in s0.pool if content.card_kinds.get(c) == kd.id]
            ours = sorted(content.cards[c].name for c in cards if content.cards[c].provenance == "reconstructed")
            if ours:
                click.echo(f"note: {len(ours)} of the {len(cards)} {kd.plural or kd.name} of the {side.name} are "
                           "RECONSTRUCTIONS (the rulebook names some and prints none whole): " + ", ".join(ours))
    for kind, cards in sorted(game.state.decks.items()):  # an expansion's decks in this game
        ours = sorted(content.cards[c].name for c in cards if content.cards[c].provenance == "reconstructed")
        if ours:
            name = content.kind_def(kind)
            click.echo(f"note: {len(ours)} of the {len(cards)} {name.plural if name else kind} are RECONSTRUCTIONS "
                       f"(not printed in the rulebook): " + ", ".join(ours))
    shown = 0
    try:
        while game.state.outcome is None:
            if game.state.turn >= 60:
                game.end("lost", "no result after 60 turns")
                break
            game.run_turn()
            if trace:
                for event in game.state.log[shown:]:
                    click.echo(f"  · {event.detail}")
                shown = len(game.state.log)
    except (EOFError, click.Abort):
        click.echo("\ngame abandoned")
        sys.exit(1)
    except DDayError as exc:
        raise click.ClickException(str(exc)) from exc
    who = "for the Allies " if game.state.sides else ""
    click.echo(f"\nThe game is {game.state.outcome.upper() if game.state.outcome else '?'} {who}after "
               f"{game.state.turn} turn(s): {game.state.reason}")
    for u in game.players():
        click.echo("  " + unit_line(game, u.id))
    from ddaydice.interpreter.mechanisms.options import score, score_text

    scored = score(game)
    if scored is not None:  # an option's score table, counted at the end of every game, won or lost
        table = content.options[game.option_rules.origin["score"]].name
        click.echo(f"{table}:")
        for line in score_text(game, scored):
            click.echo(line)
    if save_path is not None:
        save_replay(save_path, game, players=players, packs=packs)
        click.echo(f"saved to {save_path} (replay it with: dday replay {save_path})")


@main.command()
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--trace/--no-trace", default=False, help="Print every event of the replayed game.")
def replay(file: Path, trace: bool) -> None:
    """Replay a saved game from its seed and choices; checks it ends in the same state."""
    from ddaydice.dsl.diagnostics import DDayError
    from ddaydice.interpreter.core.state import digest
    from ddaydice.interpreter.game import Game
    from ddaydice.interpreter.policies.deciders import Scripted

    try:
        data = json.loads(file.read_text(encoding="utf-8"))
        if data.get("format") != "ddaydice-replay/1":
            raise ValueError("not a ddaydice replay (format ddaydice-replay/1)")
        content = load_or_exit(packs=list(data.get("packs", [])))
        script = Scripted(list(data["choices"]))
        game = Game(content, data["map"], players=int(data["players"]), seed=int(data["seed"]),
                    variant=data.get("variant"), options=data.get("options", []), deciders=script, trace=trace)
        game.run()
    except (ValueError, KeyError, TypeError) as exc:
        raise click.ClickException(f"{file}: cannot replay: {exc}") from exc
    except DDayError as exc:
        raise click.ClickException(f"{file}: the replay diverged: {exc}") from exc
    if trace:
        for event in game.state.log:
            click.echo(f"  turn {event.turn} {event.phase}: {event.detail}")
    same = digest(game.state) == data.get("digest")
    click.echo(f"replayed: the game is {game.state.outcome} after {game.state.turn} turn(s); "
               f"final state {'identical' if same else 'DIFFERENT'} (digest {digest(game.state)})")
    sys.exit(0 if same else 1)


# ------------------------------------------------------------------ conflicts
from ddaydice.interpreter.cli.conflicts import conflicts as _conflicts_command  # noqa: E402

main.add_command(_conflicts_command)

# ------------------------------------------------------------------ render
from ddaydice.interpreter.cli.render import render as _render_command  # noqa: E402

main.add_command(_render_command)


# ------------------------------------------------------------------ card
from ddaydice.interpreter.cli.card import card as _card_command  # noqa: E402

main.add_command(_card_command)


if __name__ == "__main__":  # pragma: no cover (after every command is registered)
    main()
