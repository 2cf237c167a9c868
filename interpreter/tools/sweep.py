"""Sweeps: a grid of set-ups (maps x variants x players x options x packs x cards x policies), each played for
many games, on Dask distributed, into one CSV file that a run interrupted can resume (``dday sweep``).

A cell of the grid is one set-up; its games are cut into chunks (``chunk`` games, the last one shorter), one Dask
task each. Game ``i`` of every cell is seeded from the sweep's seed and ``i`` alone (tools/simulate.py
``game_seed``), so a cell's games are the same whatever the number of workers, the order the tasks end in, or a
resumption. Finished chunks are appended to the results file as they come in; at the end the file is rewritten
sorted by cell (in the grid's order) and game, so one sweep gives one file, byte for byte. A chunk is finished
when all its games are in the file; when a sweep starts on an existing file it keeps the finished chunks, drops
the rows of unfinished ones (and a line cut short by an interruption), and plays only what is missing.

The file's columns (``COLUMNS``; docs/simulation.md) are the cell's parameters, then one game's results.
"""

from __future__ import annotations

import contextlib
import csv
import io
import itertools
import logging
import os
import signal
import threading
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs

from ddaydice.dsl.diagnostics import Diagnostic
from ddaydice.dsl.limits import MAX_GAMES
from ddaydice.dsl.sandbox import is_slug
from ddaydice.dsl.yamlsrc import position, read_yaml, salvage, structure
from ddaydice.interpreter.tools.collector import many_games
from ddaydice.interpreter.tools.forced import Forced
from ddaydice.interpreter.tools.setups import SetupEntry, check, content_for, packs_in_file
from ddaydice.interpreter.tools.simulate import Spec, game_seed, play_one, unwinnable_warnings, wilson

if TYPE_CHECKING:
    from dask.distributed import LocalCluster

CODE = "SETUP001"

COLUMNS = ("cell", "map", "variant", "players", "policy", "options", "packs", "give", "seed", "game", "game_seed",
           "won", "turns", "soldiers_left", "specialists_left", "casualties", "victory_points",
           "casualties_by_sector", "reason")
INTS = ("cell", "players", "seed", "game", "game_seed", "won", "turns", "soldiers_left", "specialists_left",
        "casualties")
KEY = ("map", "variant", "players", "policy", "options", "packs", "give", "seed")  # a cell's identity in the file


@attrs.frozen
class SweepFile:
    """``dday sweep FILE.yaml``: the grid's axes and the games per cell."""

    maps: tuple[str, ...]
    policies: tuple[str, ...] = ("reference",)
    variants: dict[str, tuple[str | None, ...]] = attrs.Factory(dict)  # by map; None: the map without a variant
    players: tuple[int, ...] = (1,)
    options: tuple[tuple[str, ...], ...] = ((),)
    packs: tuple[tuple[str, ...], ...] = ((),)
    give: tuple[tuple[str, ...], ...] = ((),)  # sets of cards given to each Unit at the start
    games: int = 1000
    seed: int = 0
    chunk: int = 100


@attrs.frozen
class Cell:
    """One set-up of the grid (its index in the grid's order, and the simulation's Spec)."""

    index: int
    spec: Spec
    give: tuple[str, ...]

    def key(self) -> tuple[str, ...]:
        s = self.spec
        return (s.map_id, s.variant or "", str(s.players), s.policy, "+".join(s.options), "+".join(s.packs),
                "+".join(self.give), str(s.seed))


def grid(sf: SweepFile) -> list[Cell]:
    """The cells, in the grid's order: maps (and their variants), players, options, packs, cards, policies."""
    cells: list[Cell] = []
    for map_id in sf.maps:
        for variant in sf.variants.get(map_id, (None,)):
            for players, options, packs, give, policy in itertools.product(sf.players, sf.options, sf.packs,
                                                                          sf.give, sf.policies):
                spec = Spec(map_id, variant, players, policy, sf.seed, tuple(options), tuple(packs), None,
                            tuple(Forced(c, "give") for c in give))
                cells.append(Cell(len(cells), spec, tuple(give)))
    return cells


def unwinnable_cells(sf: SweepFile) -> list[str]:
    """The warning that a cell's map cannot be won by its Units (tools/setups.py ``unwinnable_setup``, its cards
    given), each text once with the cells it is about: ``"cells 0, 2: text"``."""
    return unwinnable_warnings([(str(c.index), c.spec) for c in grid(sf)], content_for, "cell")


def read_file(path: Path) -> tuple[SweepFile | None, list[Diagnostic]]:
    """A sweep file, structured and checked: every cell must be playable; problems as ``file:line:col: CODE``."""
    doc, diags = read_yaml(str(path))
    if doc is None:
        return None, diags
    sf, diags = structure(doc, doc.data, SweepFile)
    if sf is None:
        # Every problem at once: what the schema accepts is checked too (an unknown key hides no map's typo).
        sf = salvage(doc.data, SweepFile)
        if sf is None:
            return None, diags
    told = {(d.line, d.column) for d in diags}
    # the YAML reader spells a key's '-' '_' (as for a scenario's decks): map ids are written with '-'
    sf = attrs.evolve(sf, variants={k.replace("_", "-"): v for k, v in sf.variants.items()})
    out: list[Diagnostic] = list(diags)

    def err(where: list[str | int], message: str, hint: str | None = None) -> None:
        line, col = position(doc.data, where)
        if (line, col) not in told:
            out.append(Diagnostic(CODE, message, doc.file, line, col, hint=hint))

    for axis in ("maps", "policies", "players", "options", "packs", "give"):
        if not getattr(sf, axis):
            sets = axis in {"options", "packs", "give"}
            err([axis], f"'{axis}' is empty: the grid would have no cell" + (
                " (write [[]] for one set of none)" if sets else ""))
    for key, value in (("games", sf.games), ("chunk", sf.chunk)):
        if value < 1:
            err([key], f"'{key}' must be 1 or more, not {value}")
        elif value > MAX_GAMES:
            err([key], f"'{key}' must be at most {MAX_GAMES} (docs/security.md), not {value}")
    for map_id in sf.variants:
        if map_id not in sf.maps:
            err(["variants", map_id], f"variants of '{map_id}', which is not among the maps")
    # A pack by its path is read from the file's folder (setups.packs_in_file); a set that is not told here.
    pack_sets: list[tuple[str, ...]] = []
    told_packs = False
    for j, written in enumerate(sf.packs):
        packs, problems = packs_in_file(written, Path(path))
        for i, d in problems:
            line, col = position(doc.data, ["packs", j, i])
            out.append(attrs.evolve(d, file=doc.file, line=line, column=col))
            told_packs = True
        pack_sets.append(written if problems else packs)
    sf = attrs.evolve(sf, packs=tuple(pack_sets))
    # Each axis' values checked once (in a cell built around them), located where they are written.
    seen: set[tuple[str, str]] = set()
    for cell in grid(sf):
        s = cell.spec
        entry = SetupEntry(map=s.map_id, variant=s.variant, players=s.players, policy=s.policy, options=s.options,
                           packs=s.packs, give=cell.give)
        for key, message, hint, item, _ in check(entry, content_for):
            if key == "packs" and told_packs:
                continue
            where = _where(sf, cell, key, item)
            if (str(where), message) in seen:
                continue
            seen.add((str(where), message))
            err(where, message, hint)
    out.sort(key=lambda d: (d.line, d.column))
    return (sf, out) if not out else (None, out)


def _where(sf: SweepFile, cell: Cell, key: str, item: str | None) -> list[str | int]:
    """Where the value a problem is about is written (``item``: the option or card of a list, when one is)."""
    s = cell.spec
    if key == "map":
        return ["maps", sf.maps.index(s.map_id)]
    if key == "variant":
        return ["variants", s.map_id]
    if key == "players":
        return ["players", sf.players.index(s.players)]
    if key in {"policy", "side_policy"}:
        return ["policies", sf.policies.index(s.policy)]
    if key == "options":
        at: list[str | int] = ["options", sf.options.index(s.options)]
        return [*at, s.options.index(item)] if item in s.options else at
    if key == "packs":
        return ["packs", sf.packs.index(s.packs)]
    at = ["give", sf.give.index(cell.give)]
    return [*at, cell.give.index(item)] if item in cell.give else at


# ------------------------------------------------------------ one task: a chunk of a cell's games
def run_chunk(cell: Cell, start: int, stop: int) -> list[dict[str, Any]]:
    """Play games ``start``..``stop - 1`` of a cell (on a worker: the content is loaded once per process)."""
    content = content_for(cell.spec.packs)
    assert content is not None
    key = cell.key()
    rows = []
    with many_games():
        records = [play_one(content, cell.spec, i) for i in range(start, stop)]
    for i, r in zip(range(start, stop), records, strict=True):
        rows.append({
            "cell": cell.index, "map": key[0], "variant": key[1], "players": cell.spec.players,
            "policy": key[3], "options": key[4], "packs": key[5], "give": key[6], "seed": cell.spec.seed,
            "game": i, "game_seed": game_seed(cell.spec.seed, i), "won": int(r.outcome == "won"), "turns": r.turns,
            "soldiers_left": r.soldiers_left, "specialists_left": r.specialists_left,
            "casualties": sum(k for _, k in r.lost_by_sector),
            "victory_points": "" if r.vp is None else r.vp,
            "casualties_by_sector": ";".join(f"{s}:{k}" for s, k in r.lost_by_sector), "reason": r.reason,
        })
    return rows


# ------------------------------------------------------------ the results file
class ResultsError(Exception):
    """A results file that is not one of this schema."""


def read_results(path: Path) -> list[dict[str, str]]:
    """The rows of a results file (none if there is no file); a row cut short is left out."""
    if not path.exists():
        return []
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise ResultsError(f"{path}: not a results file of dday sweep (not UTF-8 text); it is never overwritten: "
                           f"{_elsewhere(path)}") from exc
    except OSError as exc:
        raise ResultsError(f"{path}: cannot read the results file: {exc.strerror}") from exc
    if not text.strip():
        return []
    reader = csv.reader(io.StringIO(text))
    header = next(reader)
    if tuple(header) != COLUMNS:
        raise ResultsError(f"{path}: not a results file of dday sweep (its columns are not: {', '.join(COLUMNS)}); "
                           f"it is never overwritten: {_elsewhere(path)}")
    rows = []
    complete = text.endswith("\n")
    lines = list(reader)
    for k, values in enumerate(lines):
        if len(values) != len(COLUMNS) or (k == len(lines) - 1 and not complete):
            continue
        row = dict(zip(COLUMNS, values, strict=True))
        if all(row[c].lstrip("-").isdigit() for c in INTS):
            rows.append(row)
    return rows


def chunks(games: int, size: int) -> Iterator[tuple[int, int]]:
    for a in range(0, games, size):
        yield a, min(a + size, games)


def _elsewhere(path: Path) -> str:
    return f"write the sweep to another file (-o OTHER.csv), or delete {path} to start afresh"


def others(cells: Sequence[Cell], games: int, rows: Sequence[dict[str, str]]) -> str | None:
    """What in a results file is not this sweep's (rows of a cell not in its grid, another seed's, or a game
    beyond its ``games``), said for a person; None when every row is this sweep's. Resuming keeps only this sweep's
    rows, so a file that holds others is never resumed: they would be lost."""
    keys = {cell.key() for cell in cells}
    stray = [r for r in rows if tuple(r[c] for c in KEY) not in keys]
    beyond = [r for r in rows if tuple(r[c] for c in KEY) in keys and int(r["game"]) >= games]
    if not stray and not beyond:
        return None
    parts = []
    if stray:
        seeds = sorted({r["seed"] for r in stray}, key=int)
        mine = next(iter(keys))[-1] if keys else ""
        if all(r["seed"] != mine for r in stray) and {
                tuple(r[c] for c in KEY[:-1]) for r in stray} <= {k[:-1] for k in keys}:
            parts.append(f"{len(stray)} game(s) of seed {', '.join(seeds)} (this sweep's seed is {mine})")
        else:
            r = stray[0]
            example = r["map"] + (f"/{r['variant']}" if r["variant"] else "") + f" {r['players']}p {r['policy']}"
            for c in ("options", "packs", "give"):
                if r[c]:
                    example += f" {c} {r[c]}"
            parts.append(f"{len(stray)} game(s) of set-ups or seeds not in this grid (such as {example}, seed "
                         f"{r['seed']})")
    if beyond:
        parts.append(f"{len(beyond)} game(s) beyond this sweep's {games} per cell")
    return "results of another sweep: " + " and ".join(parts)


def plan(cells: Sequence[Cell], games: int, size: int, rows: Sequence[dict[str, str]]) -> tuple[
        list[dict[str, str]], list[tuple[Cell, int, int]]]:
    """The rows to keep (the finished chunks of this sweep's cells) and the chunks still to play."""
    have: dict[tuple[str, ...], dict[int, dict[str, str]]] = {}
    for row in rows:
        have.setdefault(tuple(row[c] for c in KEY), {})[int(row["game"])] = row
    keep: list[dict[str, str]] = []
    todo: list[tuple[Cell, int, int]] = []
    for cell in cells:
        mine = have.get(cell.key(), {})
        for a, b in chunks(games, size):
            if all(i in mine for i in range(a, b)):
                keep.extend({**mine[i], "cell": str(cell.index)} for i in range(a, b))
            else:
                todo.append((cell, a, b))
    return keep, todo


def write_rows(path: Path, rows: Sequence[dict[str, Any]]) -> None:
    """The whole file, written to a temporary file and moved into place (never half a file)."""
    tmp = path.with_name(path.name + ".tmp")
    with tmp.open("w", encoding="utf-8", newline="") as f:
        w = csv.DictWriter(f, fieldnames=COLUMNS, lineterminator="\n")
        w.writeheader()
        w.writerows(rows)
        f.flush()
        os.fsync(f.fileno())
    tmp.replace(path)


def append_rows(path: Path, rows: Sequence[dict[str, Any]]) -> None:
    """A finished chunk's rows at the end of the file, flushed to disk."""
    with path.open("a", encoding="utf-8", newline="") as f:
        csv.DictWriter(f, fieldnames=COLUMNS, lineterminator="\n").writerows(rows)
        f.flush()
        os.fsync(f.fileno())


def sort_key(row: dict[str, Any]) -> tuple[int, int]:
    return int(row["cell"]), int(row["game"])


# ------------------------------------------------------------ the sweep
@attrs.frozen
class Outcome:
    cells: int
    chunks: int
    chunks_played: int
    games_played: int
    rows: tuple[dict[str, str], ...]
    seconds: float
    workers: int


@contextlib.contextmanager
def _workers_ignore_interrupts() -> Iterator[None]:
    """SIGINT ignored while a LocalCluster starts its worker processes, which inherit it: a Ctrl-C at the terminal
    reaches every process of its group, and only this one is to handle it (it stops the sweep, closes the cluster
    and keeps the results so far), not each worker with its own tracebacks. (Blocking it would not do: a process
    is started with no signal blocked.) A Ctrl-C in the second or two the start takes is not heard. Only the main
    thread sets handlers."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    before = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, before if before is not None else signal.default_int_handler)


def local_cluster(workers: int, processes: bool) -> LocalCluster:
    """The sweep's own cluster: ``workers`` workers of one thread, no dashboard, and Dask's logs below CRITICAL
    silenced, in this process and the workers'. A sweep reports what goes wrong itself: a chunk's error comes back
    through its future. What Dask logs at ERROR is its own shutdown racing with a worker's heartbeat ("Failed to
    communicate with scheduler during heartbeat", with a traceback; dask/distributed#9032, #7192), which a user
    who pressed Ctrl-C, or a sweep that ended, is not to see."""
    from dask.distributed import LocalCluster

    with _workers_ignore_interrupts():
        return LocalCluster(n_workers=workers, threads_per_worker=1,  # type: ignore[no-untyped-call]
                            processes=processes, dashboard_address=None, silence_logs=logging.CRITICAL)


def run(sf: SweepFile, out: Path, *, scheduler: str | None = None, workers: int = 2, processes: bool = True,
        progress: Callable[[int], None] | None = None, started: Callable[[int, int, int, int], None] | None = None,
        stop_after: int | None = None) -> Outcome:
    """Run the sweep on a Dask cluster (``scheduler``'s address, else a LocalCluster of ``workers`` processes),
    resuming from ``out``. ``started(cells, chunks in all, chunks to play, games to play)`` is told the plan;
    ``progress`` each chunk's games as it ends. ``stop_after``: stop after that many chunks (a test's interruption)."""
    import time

    from dask.distributed import Client, as_completed

    t0 = time.perf_counter()
    cells = grid(sf)
    rows = read_results(out)
    foreign = others(cells, sf.games, rows)
    if foreign is not None:
        raise ResultsError(f"{out} holds {foreign}; it is never overwritten: {_elsewhere(out)}")
    keep, todo = plan(cells, sf.games, sf.chunk, rows)
    all_chunks = len(cells) * len(list(chunks(sf.games, sf.chunk)))
    write_rows(out, sorted(keep, key=sort_key))
    if started is not None:
        started(len(cells), all_chunks, len(todo), sum(b - a for _, a, b in todo))
    played = games = 0
    n_workers = 0
    if todo:
        cluster = None
        if scheduler is None:
            cluster = local_cluster(workers, processes)
            client = Client(cluster)  # type: ignore[no-untyped-call]
        else:
            client = Client(scheduler)  # type: ignore[no-untyped-call]
        try:
            n_workers = len(client.scheduler_info().get("workers", {}))
            futures = [client.submit(run_chunk, cell, a, b, pure=False) for cell, a, b in todo]
            for future in as_completed(futures):  # type: ignore[no-untyped-call]
                rows = future.result()
                append_rows(out, rows)
                played += 1
                games += len(rows)
                if progress is not None:
                    progress(len(rows))
                if stop_after is not None and played >= stop_after:
                    for f in futures:
                        f.cancel()  # type: ignore[no-untyped-call]
                    break
        finally:
            client.close()  # type: ignore[no-untyped-call]
            if cluster is not None:
                cluster.close()
    rows = sorted(read_results(out), key=sort_key)
    if stop_after is None or played < stop_after:
        write_rows(out, rows)
    return Outcome(len(cells), all_chunks, played, games, tuple(rows), time.perf_counter() - t0, n_workers)


def summary(sf: SweepFile, rows: Sequence[dict[str, str]]) -> list[dict[str, Any]]:
    """Each cell: its parameters, games, wins, win rate with its 95% interval (Wilson's, as dday simulate's) and
    each measure's mean (from the results file)."""
    by: dict[int, list[dict[str, str]]] = {}
    for row in rows:
        by.setdefault(int(row["cell"]), []).append(row)
    out = []
    for cell in grid(sf):
        mine = by.get(cell.index, [])
        n = len(mine)
        won = [r for r in mine if r["won"] == "1"]
        entry: dict[str, Any] = {
            "cell": cell.index, "map": cell.spec.map_id, "variant": cell.spec.variant,
            "players": cell.spec.players, "policy": cell.spec.policy, "options": list(cell.spec.options),
            "packs": list(cell.spec.packs), "give": list(cell.give), "games": n, "wins": len(won),
            "win_rate": len(won) / n if n else 0.0, "win_rate_ci95": list(wilson(len(won), n)),
        }
        for col in ("turns", "soldiers_left", "specialists_left", "casualties", "victory_points"):
            vals = [int(r[col]) for r in mine if r[col] != ""]
            entry[f"mean_{col}"] = sum(vals) / len(vals) if vals else None
        turns_won = [int(r["turns"]) for r in won]
        entry["mean_turns_to_win"] = sum(turns_won) / len(turns_won) if turns_won else None
        out.append(entry)
    return out


def summary_table(cells: Sequence[dict[str, Any]]) -> list[str]:
    """The summary for a person: a row a cell, its win rate with the 95% interval that says whether two cells'
    rates differ by more than their games can tell, and the means of the turns (every game), the turns to win (won
    games), the Soldiers left and the VP, each under its own header. A pack named by its path is named in the rows
    by its folder's name, and the path is given once under the table. The set-up's column is as wide as its longest
    (cards given), so the numbers stay in their columns."""
    short = _short_packs([p for c in cells for p in c["packs"]])
    setups = []
    for c in cells:
        setup = c["map"] + (f"/{c['variant']}" if c["variant"] else "") + f" {c['players']}p {c['policy']}"
        for key in ("options", "packs", "give"):
            if c[key]:
                names = [short.get(v, v) for v in c[key]] if key == "packs" else c[key]
                setup += f" {key} {'+'.join(names)}"
        setups.append(setup)
    width = max(60, *(len(s) + 1 for s in setups)) if setups else 60
    lines = [f"  {'cell':>4}  {'set-up':<{width}}{'games':>6}{'won':>8}{'95% interval':>18}{'turns':>7}"
             f"{'turns-to-win':>14}{'Soldiers':>10}{'VP':>8}"]
    for c, setup in zip(cells, setups, strict=True):
        lo, hi = c["win_rate_ci95"]
        interval = f"{lo:.1%} to {hi:.1%}" if c["games"] else "-"
        lines.append(f"  {c['cell']:>4}  {setup:<{width}}{c['games']:>6}{c['win_rate']:>8.1%}{interval:>18}"
                     f"{_num(c['mean_turns'])}{_num(c['mean_turns_to_win'], 14)}"
                     f"{_num(c['mean_soldiers_left'], 10)}{_num(c['mean_victory_points'], 8)}")
    lines += [f"  (pack {name}: {path})" for path, name in short.items()]
    return lines


def _short_packs(packs: Sequence[str]) -> dict[str, str]:
    """Each pack named by its path, and the short name the summary's rows give it: its folder's name (the path
    itself when two packs' folders share a name). A bundled pack is named by its id already."""
    paths = list(dict.fromkeys(p for p in packs if not is_slug(p)))
    names = [Path(p).name for p in paths]
    return {p: n for p, n in zip(paths, names, strict=True) if n and names.count(n) == 1}


def _num(value: float | None, width: int = 7) -> str:
    return f"{'-':>{width}}" if value is None else f"{value:>{width}.2f}"
