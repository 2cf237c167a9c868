"""Paired comparisons of set-ups: the same seeds played under each, each measure's difference with a paired 95%
interval, in batches until every interval is narrow enough (``dday compare``, ``dday impact``).

A set-up is a map (and variant), a number of players, a policy, options, packs and cards forced in or out at the
start (tools/forced.py). Game ``i`` of every set-up is seeded from the run's seed and ``i`` alone
(tools/simulate.py ``game_seed``), so the set-ups meet the same dice as long as their games take the same course:
the differences of a pair are much less noisy than those of two independent runs. Games are played in batches;
after each batch the intervals are read, and the run stops when each is narrower than the precision asked for.
Only whole batches count, so the games played and the results do not depend on the number of jobs.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from contextlib import nullcontext
from pathlib import Path
from typing import Any

import attrs

from ddaydice.dsl.diagnostics import Diagnostic
from ddaydice.dsl.limits import MAX_GAMES, MAX_SEED
from ddaydice.dsl.yamlsrc import YamlDoc, position, read_yaml, salvage, structure
from ddaydice.interpreter.tools import interrupts
from ddaydice.interpreter.tools import measures as ms
from ddaydice.interpreter.tools.collector import many_games
from ddaydice.interpreter.tools.forced import Forced
from ddaydice.interpreter.tools.outcome import FOUND_ROLES
from ddaydice.interpreter.tools.setups import (
    ContentFor,
    SetupEntry,
    check,
    content_for,
    merge,
    pack_cards,
    packs_in_file,
)
from ddaydice.interpreter.tools.simulate import GameRecord, Spec, per_game_text, play_one, worker_pool
from ddaydice.interpreter.tools.stats import Paired, holm, paired

DEFAULT_MEASURES = tuple(ms.MEASURES)
CODE = "SETUP001"  # a set-up file or description that cannot be played (docs/simulation.md)
GAMES = "SETUP005"  # a set-up file's 'games' beyond what --games takes
SEED = "SETUP006"  # a set-up file's 'seed' beyond what --seed takes


@attrs.frozen
class CompareFile:
    """``dday compare FILE.yaml``: what the set-ups share (``base``), the set-ups, and the run's defaults."""

    setups: tuple[SetupEntry, ...]
    base: SetupEntry = attrs.Factory(SetupEntry)
    games: int | None = None
    seed: int | None = None
    batch: int | None = None


@attrs.frozen
class Setup:
    """A set-up ready to play: its name and the simulation's Spec (its seed is the run's)."""

    name: str
    spec: Spec

    def describe(self) -> str:
        s = self.spec
        parts = [s.map_id + (f"/{s.variant}" if s.variant else ""), f"{s.players} player(s)", f"policy {s.policy}"]
        if s.side_policy:
            parts.append(f"side policy {s.side_policy}")
        if s.options:
            parts.append("options " + ", ".join(s.options))
        if s.packs:
            parts.append("packs " + ", ".join(s.packs))
        for where, words in (("give", "given to each Unit"), ("pool", "in the Pool"), ("absent", "absent")):
            cards = [f.card for f in s.forced if f.where == where]
            if cards:
                parts.append(f"{', '.join(cards)} {words}")
        return "; ".join(parts)

    def pack_cards(self) -> tuple[str, ...]:
        """The cards its packs add that it neither forces in nor holds out: dealt as the game deals its cards."""
        forced = {f.card for f in self.spec.forced}
        return tuple(c for c in pack_cards(self.spec.packs) if c not in forced)


# ------------------------------------------------------------ reading set-up files
def _origin(base: SetupEntry, entry: SetupEntry, index: int, key: str, item: str | None) -> list[str | int]:
    """Where a merged key (or ``item``, one value of a list) was written: in the set-up, else in ``base``."""
    for where, written in ((["setups", index, key], getattr(entry, key)), (["base", key], getattr(base, key))):
        if item is not None and isinstance(written, tuple) and item in written:
            return [*where, written.index(item)]
    value = getattr(entry, key)
    if value is not None and value != ():
        return ["setups", index, key]
    return ["base", key] if getattr(base, key) not in (None, ()) else ["setups", index]


def to_setup(entry: SetupEntry, index: int, seed: int) -> Setup:
    forced = tuple(Forced(card, where) for where in ("absent", "give", "pool") for card in entry.cards(where))
    assert entry.map is not None
    spec = Spec(entry.map, entry.variant, entry.players or 1, entry.policy or "reference", seed,
                tuple(entry.options or ()), tuple(entry.packs or ()), entry.side_policy, forced)
    return Setup(entry.name or (chr(ord("A") + index) if index < 26 else f"S{index + 1}"), spec)


def read_file(path: Path, content_for: ContentFor) -> tuple[tuple[CompareFile, list[SetupEntry]] | None,
                                                             list[Diagnostic]]:
    """A set-up file: its set-ups merged with ``base`` and checked; every problem as ``file:line:col: CODE``."""
    doc, diags = read_yaml(str(path))
    if doc is None:
        return None, diags
    cf, diags = structure(doc, doc.data, CompareFile)
    if cf is None:
        # Every problem at once: what the schema accepts is checked too (an unknown key hides no map's typo).
        rest = salvage(doc.data, CompareFile)
        if rest is not None:
            told = {(d.line, d.column) for d in diags}
            rest, more = packs_of_file(doc, path, rest)
            _, checked = check_entries(doc, rest.base, rest.setups, content_for, bool(more))
            checked += run_keys(doc, rest)
            diags = sorted([*diags, *(d for d in [*more, *checked] if (d.line, d.column) not in told)],
                           key=lambda d: (d.line, d.column))
        return None, diags
    cf, diags = packs_of_file(doc, path, cf)
    entries, more = check_entries(doc, cf.base, cf.setups, content_for, bool(diags))
    diags = sorted([*diags, *more, *run_keys(doc, cf)], key=lambda d: (d.line, d.column))
    return ((cf, entries), diags) if not diags else (None, diags)


def run_keys(doc: YamlDoc, cf: CompareFile) -> list[Diagnostic]:
    """The file's 'games' and 'seed' in the ranges dday compare's --games and --seed take (dsl/limits.py, as
    cli/common.py's options): 2 to MAX_GAMES games, |seed| < MAX_SEED; each one beyond them at its line."""
    out: list[Diagnostic] = []
    if cf.games is not None and not 2 <= cf.games <= MAX_GAMES:
        line, col = position(doc.data, ["games"])
        out.append(Diagnostic(GAMES, f"'games' is {cf.games}: a comparison plays 2 to {MAX_GAMES} games per set-up",
                              doc.file, line, col,
                              hint=f"write a number from 2 to {MAX_GAMES}, as --games takes it (docs/security.md)"))
    if cf.seed is not None and not -MAX_SEED < cf.seed < MAX_SEED:
        line, col = position(doc.data, ["seed"])
        out.append(Diagnostic(SEED, f"'seed' is {cf.seed}: a seed is a whole number with |seed| < 2**64", doc.file,
                              line, col, hint="the range --seed takes, so that every game played can be replayed "
                                              "(dday simulate --game I)"))
    return out


def packs_of_file(doc: YamlDoc, path: Path, cf: CompareFile) -> tuple[CompareFile, list[Diagnostic]]:
    """The file's packs as the loader takes them, a path read from the file's folder (setups.packs_in_file), and
    each one that is not a pack at its line. A set-up with such a pack keeps it as written: its map, options and
    cards wait for it, and its check does not tell the problem again."""
    diags: list[Diagnostic] = []

    def resolve(entry: SetupEntry, where: list[str | int]) -> SetupEntry:
        if entry.packs is None:
            return entry
        packs, problems = packs_in_file(entry.packs, path)
        for i, d in problems:
            line, col = position(doc.data, [*where, "packs", i])
            diags.append(attrs.evolve(d, file=doc.file, line=line, column=col))
        return entry if problems else attrs.evolve(entry, packs=packs)

    base = resolve(cf.base, ["base"])
    setups = tuple(resolve(e, ["setups", i]) for i, e in enumerate(cf.setups))
    return attrs.evolve(cf, base=base, setups=setups), diags


def check_entries(doc: YamlDoc, base: SetupEntry, setups: Sequence[SetupEntry], content_for: ContentFor,
                  packs_told: bool = False) -> tuple[list[SetupEntry], list[Diagnostic]]:
    """The set-ups merged with ``base``, and every problem of theirs at its line (``packs_told``: a pack of the
    file was already told not to be one, so the packs are not told again)."""
    diags: list[Diagnostic] = []
    entries: list[SetupEntry] = []
    if len(setups) < 2:
        line, col = position(doc.data, ["setups"])
        diags.append(Diagnostic(CODE, f"a comparison needs 2 set-ups or more, not {len(setups)}", doc.file, line,
                                col))
    # A problem written once in 'base' is every set-up's: told once, naming the set-ups it reaches.
    found: dict[tuple[int, int, str, str | None, str], list[int]] = {}
    for i, raw in enumerate(setups):
        entry = merge(base, raw)
        entries.append(entry)
        for key, message, hint, item, code in check(entry, content_for):
            if key == "packs" and packs_told:
                continue
            line, col = position(doc.data, _origin(base, raw, i, key, item))
            found.setdefault((line, col, message, hint, code), []).append(i + 1)
    for (line, col, message, hint, code), which in found.items():
        where = f"set-up {which[0]}" if len(which) == 1 else f"set-ups {', '.join(map(str, which))}"
        diags.append(Diagnostic(code, f"{where}: {message}", doc.file, line, col, hint=hint))
    names = [e.name for e in entries if e.name]
    for i, raw in enumerate(setups):
        if raw.name and names.count(raw.name) > 1 and names.index(raw.name) != i:
            line, col = position(doc.data, ["setups", i, "name"])
            diags.append(Diagnostic(CODE, f"set-up {i + 1}: the name '{raw.name}' is taken", doc.file, line, col))
    diags.sort(key=lambda d: (d.line, d.column))  # (in the file's order, as a reader meets them)
    return entries, diags


# ------------------------------------------------------------ playing in batches
def _play(args: tuple[Spec, int, int]) -> list[GameRecord]:
    spec, start, stop = args
    content = content_for(spec.packs)
    assert content is not None
    with many_games():
        return [play_one(content, spec, i) for i in range(start, stop)]


@attrs.frozen
class Comparison:
    """The records of every set-up (paired by index), and why the run stopped."""

    setups: tuple[Setup, ...]
    records: tuple[tuple[GameRecord, ...], ...]
    batches: int
    stopped: str  # 'precision' or 'games'
    measures: tuple[str, ...]
    seed: int

    @property
    def games(self) -> int:
        return len(self.records[0]) if self.records else 0

    def differences(self, name: str) -> list[Paired]:
        """Each set-up after the first minus the first, for one measure."""
        base = ms.values(self.records[0], name)
        return [paired(base, ms.values(r, name), bounds=ms.bounds(name)) for r in self.records[1:]]

    def report(self) -> tuple[dict[str, list[Paired]], list[dict[str, float]]]:
        """Every measure's differences (each set-up after the first minus the first), and per difference each
        measure's p-value after Holm's correction over every difference of the comparison that has 2 pairs or more
        (a difference with fewer: 1): with three set-ups or more, the differences of every set-up are one family,
        as the table shows them together. Worked out once for a table, a JSON or a plot."""
        diffs = {name: self.differences(name) for name in self.measures}
        tested = self.tested(diffs)
        ps = dict(zip(tested, holm([diffs[name][k].p for k, name in tested]), strict=True))
        adjusted = [{name: ps.get((k, name), 1.0) for name in self.measures} for k in range(len(self.setups) - 1)]
        return diffs, adjusted

    def tested(self, diffs: Mapping[str, Sequence[Paired]]) -> list[tuple[int, str]]:
        """The differences corrected together (set-up after the first, measure): those with 2 pairs or more."""
        return [(k, name) for k in range(len(self.setups) - 1) for name in self.measures if diffs[name][k].n >= 2]

    def differences_json(self) -> dict[str, list[dict[str, Any]]]:
        """Per measure, each difference as JSON with its Holm p-value (difference_json), in the set-ups' order: what
        the JSON, the table's plot and dday impact's plot show."""
        diffs, adjusted = self.report()
        return {name: [difference_json(d, adjusted[k][name]) for k, d in enumerate(diffs[name])]
                for name in self.measures}

    def means(self, name: str) -> list[float | None]:
        out: list[float | None] = []
        for recs in self.records:
            vals = [v for v in ms.values(recs, name) if v is not None]
            out.append(math.fsum(vals) / len(vals) if vals else None)
        return out


def difference_json(d: Paired, p_holm: float) -> dict[str, Any]:
    """A difference as JSON: the paired interval's (stats.Paired), with Holm's p-value and whether it is significant
    after the correction (what the table's ``significant`` says)."""
    return {**d.as_json(), "p_holm": p_holm, "significant_holm": p_holm < 0.05}


def narrow_enough(diffs: Mapping[str, Sequence[Paired]], precision: Mapping[str, float]) -> bool:
    """Every interval narrower than its measure's precision (``*``: every measure's); a measure with no pair
    at all (turns to win when no game was won) does not hold the run, but some interval must have been read: a
    precision no interval was held to is not reached."""
    read = False
    for name, ds in diffs.items():
        limit = precision.get(name, precision.get("*"))
        if limit is None:
            continue
        for d in ds:
            if d.n == 0:
                continue
            if not d.width < limit:
                return False
            read = True
    return read


def run(setups: Sequence[Setup], games: int, *, batch: int = 200, precision: Mapping[str, float] | None = None,
        measures: Sequence[str] = DEFAULT_MEASURES, jobs: int = 1,
        progress: Callable[[int], None] | None = None) -> Comparison:
    """Play the set-ups on the same seeds, a batch at a time, until ``games`` or every interval is narrower than
    ``precision`` (by measure; ``*`` for all)."""
    records: list[list[GameRecord]] = [[] for _ in setups]
    batches = 0
    stopped = "games"
    # A Ctrl-C is taken between two games (tools/interrupts.py); the worker processes (--jobs) do the same.
    with interrupts.between_games(), (worker_pool(jobs) if jobs > 1 else nullcontext(None)) as pool:
        for start in range(0, games, batch):
            stop = min(start + batch, games)
            if pool is None:
                for k, s in enumerate(setups):
                    content = content_for(s.spec.packs)
                    assert content is not None
                    with many_games():
                        for i in range(start, stop):
                            records[k].append(play_one(content, s.spec, i))
                    if progress is not None:
                        progress(stop - start)
            else:
                chunk = max(1, (stop - start) // (jobs * 2))
                tasks = [(k, (s.spec, a, min(a + chunk, stop))) for k, s in enumerate(setups)
                         for a in range(start, stop, chunk)]
                for (k, _), batch_records in zip(tasks, pool.map(_play, [t for _, t in tasks]), strict=True):
                    interrupts.check()
                    records[k].extend(batch_records)
                    if progress is not None:
                        progress(len(batch_records))
            batches += 1
            if precision and stop < games:
                result = Comparison(tuple(setups), tuple(map(tuple, records)), batches, "games", tuple(measures),
                                    setups[0].spec.seed)
                if narrow_enough({m: result.differences(m) for m in measures}, precision):
                    stopped = "precision"
                    break
    if precision and stopped == "games":
        result = Comparison(tuple(setups), tuple(map(tuple, records)), batches, "games", tuple(measures),
                            setups[0].spec.seed)
        if narrow_enough({m: result.differences(m) for m in measures}, precision):
            stopped = "precision"
    return Comparison(tuple(setups), tuple(map(tuple, records)), batches, stopped, tuple(measures),
                      setups[0].spec.seed)


def parse_precision(values: Sequence[str]) -> tuple[dict[str, float], str | None]:
    """``--precision 0.05`` (every measure) and ``--precision won=0.03`` (one measure)."""
    out: dict[str, float] = {}
    for text in values:
        name, eq, value = text.rpartition("=")
        key = ms.measure_name(name) if eq else "*"
        if eq and key not in ms.MEASURES:
            return {}, (f"--precision {text}: no measure '{name}' (measures: "
                        f"{', '.join(ms.typed(n) for n in ms.MEASURES)})")
        try:
            limit = float(value)
        except ValueError:
            return {}, f"--precision {text}: expected a number or MEASURE=NUMBER"
        if not limit > 0:
            return {}, f"--precision {text}: expected a number above 0"
        out[key] = limit
    return out, None


# ------------------------------------------------------------ reporting
def as_json(c: Comparison) -> dict[str, Any]:
    out: dict[str, Any] = {
        "setups": [{"name": s.name, "description": s.describe(), "pack_cards": list(s.pack_cards())}
                   for s in c.setups],
        "seed": c.seed, "games": c.games, "batches": c.batches, "stopped": c.stopped,
        "interval": "paired Student t, 95%", "measures": {},
    }
    every = c.differences_json()
    for name in c.measures:
        out["measures"][name] = {
            "label": ms.MEASURES[name][0],
            "means": c.means(name),
            "differences": [{"setup": s.name, "versus": c.setups[0].name, **d}
                            for s, d in zip(c.setups[1:], every[name], strict=True)],
        }
    out["card_uses"] = [u.as_json() for u in card_uses(c)]
    out["cards_taken"] = [t.as_json() for t in cards_taken(c)]
    finite: dict[str, Any] = _finite(out)
    return finite


def _finite(value: Any) -> Any:
    """JSON has no infinity: an interval that is not known (fewer than 2 pairs) is written null."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_finite(v) for v in value]
    return value


def _fmt(name: str, value: float | None, signed: bool = False) -> str:
    if value is None or not math.isfinite(value):
        return "-"
    if name in ms.PERCENT:
        return f"{value:+.1%}" if signed else f"{value:.1%}"
    return f"{value:+.2f}" if signed else f"{value:.2f}"


def _p(p: float) -> str:
    return "<0.001" if p < 0.001 else f"{p:.3f}"


def _difference(c: Comparison, name: str, k: int, d: Paired) -> str:
    """A difference's cell: the difference and its interval (with three set-ups or more, which it is)."""
    diff = (f"too few pairs ({d.n})" if d.n < 2
            else f"{_fmt(name, d.diff, True)} [{_fmt(name, d.lo, True)}, {_fmt(name, d.hi, True)}]")
    return f"{c.setups[k + 1].name} - {c.setups[0].name}: {diff}" if len(c.setups) > 2 else diff


def table(c: Comparison, hold_out: str = "absent: [CARD] holds one out") -> list[str]:
    """The comparison as a table a designer reads at a glance: each measure's means, each set-up's difference
    from the first with its paired 95% interval, the p-value, and whether it is significant; under it, the cards
    the set-ups' packs bring into their games besides those they force (``hold_out``: how the command holds one
    out)."""
    lines = [f"{c.games} games on the same seeds (run seed {c.seed}), {c.batches} batch(es); "
             + ("stopped: every interval narrower than the precision" if c.stopped == "precision"
                else "all the games asked for were played")]
    letters = [s.name for s in c.setups]
    for s in c.setups:
        lines.append(f"  {s.name}: {s.describe()}")
    width = max(8, *(len(n) for n in letters))
    every, adjusted = c.report()
    rows = [(name, k, d, _difference(c, name, k, d)) for name in c.measures for k, d in enumerate(every[name])]
    # The difference column is as wide as its widest cell, so the p-values stay in their columns.
    dwidth = max(28, *(len(diff) + 1 for *_, diff in rows)) if rows else 28
    head = f"  {'measure':<18}" + "".join(f"{n:>{width + 1}}" for n in letters)
    head += f"  {'difference':<{dwidth}}{'p':>7}{'Holm p':>8}  significant"
    lines.append("")
    lines.append(head)
    for name, k, d, diff in rows:
        label = ms.MEASURES[name][0] if k == 0 else ""
        means = c.means(name) if k == 0 else []
        cells = "".join(f"{_fmt(name, m):>{width + 1}}" for m in means) or " " * ((width + 1) * len(c.setups))
        if d.n < 2:
            lines.append(f"  {label:<18}{cells}  {diff:<{dwidth}}{'-':>7}{'-':>8}  -")
            continue
        p_holm = adjusted[k][name]
        mark = "yes" if p_holm < 0.05 else "no"
        lines.append(f"  {label:<18}{cells}  {diff:<{dwidth}}{_p(d.p):>7}{_p(p_holm):>8}  {mark}")
    pairs = [d.n for d in every.get("turns_to_win", ())]
    if pairs:
        won = (str(pairs[0]) if len(pairs) == 1
               else ", ".join(f"{s.name} {n}" for s, n in zip(c.setups[1:], pairs, strict=True)))
        lines.append(f"  (turns to win: the means are over each set-up's won games, the difference over the seeds "
                     f"won under both: {won})")
    tested = c.tested(every)
    if len(tested) > 1:
        lines.append(f"  (significant: Holm's p below 0.05, the p-values corrected for the {_family(tested)}, "
                     "so that together they read a difference where there is none less than 5% of the time; each "
                     "interval is 95% on its own)")
    for uses in card_uses(c):
        lines += uses.lines()
    for taken in cards_taken(c):
        lines.append(taken.line())
    return lines + brought(c, hold_out)


def brought(c: Comparison, hold_out: str) -> list[str]:
    """A note for each list of cards that set-ups' packs bring into their games besides the cards they force: they
    are in play (as the game deals its cards) on both sides of a difference, so "without a card" is not the game
    without the packs."""
    by: dict[tuple[str, ...], list[str]] = {}
    for s in c.setups:
        if cards := s.pack_cards():
            by.setdefault(cards, []).append(s.name)
    out = []
    for cards, names in by.items():
        who = ("every set-up" if len(names) == len(c.setups) > 2 else "both set-ups" if len(names) == len(c.setups)
               else ", ".join(names))
        who = who[0].upper() + who[1:] if who in ("every set-up", "both set-ups") else who
        out.append(f"  ({who}: the games may deal the packs' other cards as the game's own: {', '.join(cards)}; "
                   f"{hold_out})")
    return out


def across_policies(card: str, results: Sequence[tuple[str, Comparison]], measures: Sequence[str]) -> list[str]:
    """``dday impact`` with several policies: the card's effect on the win rate (else the first measure) a line a
    policy, which skill of player notices it, and what the tables' corrections cover (each its own measures)."""
    if len(results) < 2:
        return []
    name = "won" if "won" in measures else measures[0]
    width = max(8, *(len(p) for p, _ in results))
    lines = ["", f"{card}, {ms.MEASURES[name][0]} by policy:",
             f"  {'policy':<{width}}{'without':>9}{'with':>9}  {'difference':<28}{'Holm p':>8}  significant"]
    for policy, c in results:
        (d,), adjusted = c.differences(name), c.report()[1][0][name]
        means = "".join(f"{_fmt(name, m):>9}" for m in c.means(name))
        if d.n < 2:
            lines.append(f"  {policy:<{width}}{means}  {f'too few pairs ({d.n})':<28}{'-':>8}  -")
            continue
        diff = f"{_fmt(name, d.diff, True)} [{_fmt(name, d.lo, True)}, {_fmt(name, d.hi, True)}]"
        lines.append(f"  {policy:<{width}}{means}  {diff:<28}{_p(adjusted):>8}  {'yes' if adjusted < 0.05 else 'no'}")
    lines.append(f"  (each policy's Holm p is corrected over its own table's measures only, not over the "
                 f"{len(results)} policies' tables read together: reading them all, more than 5% of the time one "
                 "of them reads a difference where there is none)")
    return lines


def _family(tested: Sequence[tuple[int, str]]) -> str:
    """The differences corrected together, in words: '7 measures compared', or with several set-ups compared with
    the first '14 differences compared (7 measures, 2 set-ups against the first)'."""
    setups = len({k for k, _ in tested})
    measures = len({name for _, name in tested})
    if setups == 1:
        return f"{len(tested)} measures compared"
    return f"{len(tested)} differences compared ({measures} measures, {setups} set-ups against the first)"


@attrs.frozen
class CardUses:
    """How often a set-up's games played the uses of a card it forces in: in how many games, how many times."""

    setup: str
    policy: str
    card: str
    games: int
    games_used: int
    uses: int

    def as_json(self) -> dict[str, Any]:
        return {"setup": self.setup, "card": self.card, "games": self.games, "games_used": self.games_used,
                "uses": self.uses, "per_game": self.uses / self.games if self.games else 0.0}

    def lines(self) -> list[str]:
        """What a designer reads under the table: the uses played, and a warning when never (the differences then
        show the card unused: what it does without a use, or nothing)."""
        out = [f"  {self.setup}: {self.card}'s uses played in {self.games_used} of {self.games} games "
               f"({per_game_text(self.uses / self.games if self.games else 0.0)} a game)"]
        if self.games_used == 0:
            out.append(f"  warning: policy {self.policy} never played {self.card}'s uses, so the differences above "
                       f"leave them out; the graded players play uses (policy novice, casual or expert)")
        return out


def card_uses(c: Comparison) -> list[CardUses]:
    """For each set-up, each card it gives or puts into the Pool whose effect has a use: the uses its games played
    (GameRecord.uses). A card without a use acts, if at all, without being played: it gets none."""
    out = []
    for setup, records in zip(c.setups, c.records, strict=True):
        content = content_for(setup.spec.packs)
        assert content is not None  # (the set-up was played)
        for forced in setup.spec.forced:
            effect = content.effects.get(forced.card)
            if forced.where == "absent" or effect is None or not effect.compiled.uses:
                continue
            counts = [dict(r.uses).get(forced.card, 0) for r in records]
            out.append(CardUses(setup.name, setup.spec.policy, forced.card, len(records),
                                sum(1 for n in counts if n), sum(counts)))
    return out


@attrs.frozen
class CardTaken:
    """How often a set-up's games took a card it puts into the Pool: in how many games a Unit recruited the Specialist
    (or he joined it), or found the Item or Vehicle (or gained it): a card in the Pool acts only once taken."""

    setup: str
    card: str
    games: int
    games_taken: int
    how: str = "recruited"  # what taking it is called: 'recruited', 'found'

    def as_json(self) -> dict[str, Any]:
        return {"setup": self.setup, "card": self.card, "games": self.games, "games_taken": self.games_taken}

    def line(self) -> str:
        return f"  {self.setup}: {self.card} {self.how} in {self.games_taken} of {self.games} games"


def cards_taken(c: Comparison) -> list[CardTaken]:
    """For each set-up, each Specialist, Item or Vehicle it puts into the Pool: the games whose Units took it
    (GameRecord's ``specialists``, recruited or joined during the game; ``found``, the Items and Vehicles found or
    gained, used or not)."""
    out = []
    for setup, records in zip(c.setups, c.records, strict=True):
        content = content_for(setup.spec.packs)
        assert content is not None  # (the set-up was played)
        for forced in setup.spec.forced:
            if forced.where != "pool":
                continue
            role = content.held_as(forced.card)
            if role == "specialist":
                out.append(CardTaken(setup.name, forced.card, len(records),
                                     sum(1 for r in records if forced.card in r.specialists)))
            elif role in FOUND_ROLES:
                out.append(CardTaken(setup.name, forced.card, len(records),
                                     sum(1 for r in records if forced.card in r.found), "found"))
    return out


def plot(c: Comparison, path: str | Path, title: str | None = None) -> None:
    from ddaydice.interpreter.tools.plots import compare_plot

    labels = [f"{s.name} - {c.setups[0].name}" for s in c.setups[1:]]
    every = c.differences_json()
    rows = [(n, every[n]) for n in c.measures]
    compare_plot(title or f"{c.games} paired games: differences with 95% intervals", labels, rows, path)

