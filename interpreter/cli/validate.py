"""``dday validate [PATH...]``: check content (YAML, keys, types, references, provenance and every effect)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from ddaydice.interpreter.cli.common import check_paths, echo, echo_diagnostics, pack_option, root_option

if TYPE_CHECKING:
    from ddaydice.dsl.diagnostics import Diagnostic


@click.command()
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@root_option("Validate this content tree (rules/, cards/, maps/, expansions/) instead of the bundled one.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="json prints a list of {file, line, column, code, severity, message}.")
@click.option("--max-errors", type=click.IntRange(min=1), default=50, show_default=True,
              help="Show at most this many diagnostics (the rest are counted); --format json lists them all.")
@pack_option("Also load this expansion (under the PATHs; without a PATH every bundled one is loaded)")
@click.option("--no-cache", is_flag=True,
              help="Check afresh: neither reuse nor remember the result of a run over the same, unchanged files "
                   "(by default a run whose files, options and engine are all unchanged prints what it printed).")
@click.option("--watch", is_flag=True,
              help="Check, then check again each time a file changes (saved, added, removed), until Ctrl-C "
                   "(or SIGTERM).")
def validate(paths: tuple[Path, ...], root: Path | None, fmt: str, max_errors: int, packs: tuple[str, ...],
             no_cache: bool, watch: bool) -> None:
    """Check content: YAML, keys, types, references, provenance and every effect.

    With no PATH, all bundled content (with every bundled expansion) is checked.
    A PATH may be a content file or an expansion folder; it is checked on top of
    the bundled base game, with the bundled expansions its pack.yaml requires
    and those named by --pack (without a PATH, a pack folder named by --pack is
    checked on top of all bundled content).

    A run over files that have not changed since a run with the same options is
    remembered (in $XDG_CACHE_HOME/ddaydice/validate): it prints the same
    diagnostics at once, and says so. Any change to a file read, a new file, or
    another version of the engine checks afresh.

    With --watch, the check runs again whenever a file it reads changes (the
    content tree, the PATHs, their packs and every file the last check read
    are polled twice a second); each run begins with a line naming the time,
    and Ctrl-C ends the watch (SIGTERM too, as for a watch started in the
    background, which ignores Ctrl-C).
    """
    check_paths(root, paths)
    options = {"packs": sorted(packs), "paths": [str(p) for p in paths]}
    if not watch:
        sys.exit(_once(root, paths, packs, fmt, max_errors, options, no_cache)[0])
    _watch(root, paths, packs, fmt, max_errors, options, no_cache)


def _once(root: Path | None, paths: tuple[Path, ...], packs: tuple[str, ...], fmt: str, max_errors: int,
          options: dict[str, Any], no_cache: bool, key: str | None = None) -> tuple[int, list[str]]:
    """One check (remembered when nothing changed since a run of the same options); its exit status, and the paths
    its load looked at."""
    import time

    from ddaydice.interpreter.tools import validate_cache

    started = time.perf_counter()
    if key is None and not no_cache:
        key = validate_cache.fingerprint(root, paths, options)
    run = validate_cache.recall(key) if key is not None and not no_cache else None
    again = " (remembered: no file changed since it was checked; --no-cache checks again)"
    if run is None:
        run, again = _check(root, paths, packs), ""
        if key is not None and not no_cache:
            validate_cache.remember(key, run)
    return _report(run, fmt, max_errors, time.perf_counter() - started, again), list(run["reads"])


def _watch(root: Path | None, paths: tuple[Path, ...], packs: tuple[str, ...], fmt: str, max_errors: int,
           options: dict[str, Any], no_cache: bool) -> None:
    """Check now and after every change of the files the check reads, until interrupted (exit 0): by Ctrl-C, or by
    SIGTERM, which also ends a watch started in the background (where SIGINT is ignored, by convention)."""
    import signal
    import threading
    import time

    from ddaydice.interpreter.tools import validate_cache

    def end(_signum: int, _frame: object) -> None:
        raise _WatchEnded

    main = threading.current_thread() is threading.main_thread()  # (a handler is set in the main thread only)
    previous = signal.signal(signal.SIGTERM, end) if main else None
    seen: tuple[str, str | None] | None = None
    reads: list[str] = []
    try:
        while True:
            key = validate_cache.fingerprint(root, paths, options)
            if key is None:
                raise click.UsageError(f"too many files to watch (more than {validate_cache.MAX_WALK})")
            now = (key, validate_cache.reads_fingerprint(reads))  # (the files of the packs required, too)
            if now != seen:
                echo(f"-- {time.strftime('%H:%M:%S')} dday validate" + (" (a file changed)" if seen else ""),
                           err=True)
                _, reads = _once(root, paths, packs, fmt, max_errors, options, no_cache, key)
                seen = (key, validate_cache.reads_fingerprint(reads))
            time.sleep(WATCH_INTERVAL)
    except (KeyboardInterrupt, _WatchEnded):
        echo("-- watch ended", err=True)
    finally:
        if main:
            signal.signal(signal.SIGTERM, signal.SIG_DFL if previous is None else previous)


class _WatchEnded(Exception):
    """SIGTERM came during a watch."""


WATCH_INTERVAL = 0.5  # seconds between two looks at the files of a watch


def _check(root: Path | None, paths: tuple[Path, ...], packs: tuple[str, ...]) -> dict[str, Any]:
    """A whole validation, as plain data: its diagnostics, and what was checked when the content loaded."""
    import attrs

    from ddaydice.dsl.diagnostics import sort_key
    from ddaydice.dsl.sandbox import recording
    from ddaydice.dsl.validate import validate as check
    from ddaydice.interpreter.tools.scenario_check import ContentCache, check_unrun
    from ddaydice.interpreter.tools.scenario_folder import PACK_SCENARIOS, collect

    scenarios = [p for p in paths if _in_scenarios(p)]
    cache: ContentCache = {}
    with recording() as looked:
        content, diags = check(paths, root=root, packs=packs, checked_elsewhere=scenarios)
        for file in scenarios:  # its own checks, as dday scenario run makes them before a run (it is not run)
            diags = diags + check_unrun(file, cache)
        if not any(d.severity == "error" for d in diags):
            # A pack folder's own scenarios (its scenarios/), checked the same way once its content has no error
            # (before, each would only repeat the pack's errors).
            found, refused = collect([p / PACK_SCENARIOS for p in paths if _pack_folder(p)])
            found = [f for f in found if f not in scenarios]
            diags = diags + refused + [d for file in found for d in check_unrun(file, cache)]
            scenarios += found
        else:
            diags = diags + _scenarios_unchecked([p for p in paths if _pack_folder(p)], scenarios)
    if any(d.severity == "error" for d in diags):
        content = None
    diags = sorted(diags, key=sort_key)
    run: dict[str, Any] = {"diagnostics": [attrs.asdict(d) for d in diags], "loaded": None, "note": None,
                           "reads": sorted(looked.paths)}
    if content is not None:
        n_effects = sum(1 for e in content.effects.values() if e.tree.clauses)
        run["loaded"] = (f"{len(content.cards)} cards, {len(content.maps)} maps, {len(content.options)} optional "
                         f"rules, {len(content.packs)} expansions, {n_effects} effects"
                         + (f", {len(scenarios)} scenario file(s)" if scenarios else ""))
        run["note"] = content.award_deck_note() or None
    return run


def _scenarios_unchecked(packs: list[Path], named: list[Path]) -> list[Diagnostic]:
    """The scenarios of pack folders whose content has errors, which cannot be checked against it (each check
    would only repeat the pack's errors): the YAML of each is checked, and one warning (PACK015) for each folder
    says how many were not checked further, and why."""
    from ddaydice.dsl.diagnostics import Diagnostic
    from ddaydice.dsl.sandbox import shown_path
    from ddaydice.dsl.yamlsrc import read_yaml
    from ddaydice.interpreter.tools.scenario_folder import PACK_SCENARIOS, collect

    out: list[Diagnostic] = []
    for pack in packs:
        found, refused = collect([pack / PACK_SCENARIOS])
        found = [f for f in found if f not in named]
        if not found:
            continue
        out += refused + [d for file in found for d in read_yaml(str(file))[1]]
        out.append(Diagnostic(
            "PACK015", f"{len(found)} scenario file(s) of {PACK_SCENARIOS}/ were not checked against the content "
            "(only their YAML): the pack's content has errors", shown_path(pack / PACK_SCENARIOS), 1, 1,
            severity="warning", hint="fix the errors above: the next check checks the scenarios too"))
    return out


def _pack_folder(path: Path) -> bool:
    """Whether ``path`` is a pack folder (with a pack.yaml) that has a scenarios/ folder."""
    from ddaydice.interpreter.tools.scenario_folder import PACK_SCENARIOS

    return path.is_dir() and (path / "pack.yaml").is_file() and (path / PACK_SCENARIOS).is_dir()


def _in_scenarios(path: Path) -> bool:
    """Whether ``path`` is a file of a pack's ``scenarios/`` folder (its scenarios: not content)."""
    from ddaydice.dsl.places import absolute, home_pack

    home = home_pack(path) if path.is_file() else None
    return home is not None and absolute(path).is_relative_to(home / "scenarios")


def _report(run: dict[str, Any], fmt: str, max_errors: int, elapsed: float, again: str) -> int:
    """Print a run's diagnostics and summary; the exit status (1 if it found errors)."""
    diags: list[Diagnostic] = []
    if run["diagnostics"]:
        from ddaydice.dsl.diagnostics import Diagnostic

        diags = [Diagnostic(**d) for d in run["diagnostics"]]
    errors = [d for d in diags if d.severity == "error"]
    echo_diagnostics(diags, fmt, max_errors)
    if fmt == "text":
        if run["loaded"] is None:
            warnings = len(diags) - len(errors)
            echo(f"{len(errors)} error(s), {warnings} warning(s){again}", err=True)
        else:
            warned = f", {len(diags)} warning(s)" if diags else ""
            echo(f"ok: {run['loaded']} checked in {elapsed:.2f}s{warned}{again}", err=True)
            if run["note"]:
                echo(f"note: {run['note']}", err=True)
    return 1 if errors else 0
