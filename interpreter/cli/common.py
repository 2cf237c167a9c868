"""What several ``dday`` commands share: loading content (or exiting with its diagnostics), the packs a
scenario file names, a derivation as text, and the note on a reconstructed map.

Command modules import this module; it imports no command module and not the ``cli`` package's
``__init__`` (which imports the commands). Heavy modules are imported inside the functions, so that
``dday --help`` starts fast.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from ddaydice.dsl.limits import MAX_GAMES, MAX_SEED

if TYPE_CHECKING:
    from ddaydice.dsl.diagnostics import Diagnostic
    from ddaydice.dsl.loader import Content
    from ddaydice.interpreter.tools.forced import Forced
    from ddaydice.interpreter.tools.setups import SetupEntry

class SeedNumber(click.ParamType[int]):
    """A seed on the command line (``--seed`` of play, simulate, compare and impact): a whole number strictly between
    -2**64 and 2**64, the range a replay accepts (tools/play.py), so that every game played can be replayed; beyond
    it, a usage error saying the range readably."""

    name = "integer"

    def get_metavar(self, param: click.Parameter, ctx: click.Context | None = None) -> str:
        return "SEED"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int:
        if isinstance(value, int) and not isinstance(value, bool):
            number = value
        else:
            try:
                number = int(str(value).strip())
            except ValueError:
                self.fail(f"'{value}' is not a whole number", param, ctx)
        if not -MAX_SEED < number < MAX_SEED:
            self.fail(f"{value}: a seed is a whole number with |seed| < 2**64", param, ctx)
        return number


SEED = SeedNumber()


def seed_option(default: int | None = 0, help_text: str = "The run's seed; game i is seeded from it and i."
                ) -> Callable[[F], F]:
    """``--seed SEED`` of every command that plays games: one range (SeedNumber), so that a run of any of them can
    be played again by another (dday simulate --game I)."""
    return click.option("--seed", type=SEED, default=default, show_default=default is not None,
                        help=f"{help_text} A whole number, |SEED| < 2**64.")


def games_option(default: int | None, least: int = 1, help_text: str = "Games to play") -> Callable[[F], F]:
    """``--games N`` of every command that plays games: at least ``least`` (a paired comparison needs 2), at most
    MAX_GAMES (docs/security.md), the same bound for every command; beyond it, a usage error."""
    return click.option("--games", type=click.IntRange(least, MAX_GAMES), default=default,
                        show_default=default is not None, help=f"{help_text} (at most {MAX_GAMES}).")


def jobs_option() -> Callable[[F], F]:
    """``--jobs N`` of every command that plays games (capped by :func:`capped_jobs`, with a note)."""
    return click.option("--jobs", type=click.IntRange(min=1), default=1, show_default=True,
                        help="Worker processes (results are identical whatever this is); at most the machine's CPUs "
                             "and the number of games.")


def capped_jobs(jobs: int, games: int) -> int:
    """The worker processes a run of ``games`` games (per set-up) starts for ``--jobs`` (tools/simulate.py
    ``workers``: never more than the machine's CPUs nor the games), a note on stderr when that is fewer than asked."""
    import os

    from ddaydice.interpreter.tools.simulate import workers

    capped = workers(jobs, games)
    if capped < jobs:
        echo(f"note: --jobs {jobs} capped to {capped} (at most the {os.cpu_count() or 1} CPU(s) of this "
             f"machine and the {games} game(s))", err=True)
    return capped


def policy_option(*names: str, help_text: str, checked: bool = True, **kwargs: Any) -> Callable[[F], F]:
    """``--policy`` (or ``--side-policy``) of every command that plays games, its help listing the policies: a
    PolicyName, checked before any game with a "did you mean" for a misspelt one (policies/names.py
    ``policy_problem``); not ``checked`` here when the command checks it with the rest of its set-up, to tell every
    problem at once (dday impact), with the same message and hint."""
    kind = PolicyName()
    return click.option(*names, type=kind if checked else str, metavar=kind.get_metavar(click.Option(["--x"])),
                        help=help_text, **kwargs)


@contextmanager
def progress(length: int, label: str, shown: bool) -> Iterator[Callable[[int], None] | None]:
    """The progress of a run on stderr (dday simulate, compare, impact alike): click's bar, which is a single line
    with the label when stderr is not a terminal; nothing when not ``shown`` (--quiet, --format json). Yields the
    function the run calls with each number of games done (None when nothing is shown); the bar ends full."""
    if not shown:
        yield None
        return
    with click.progressbar(length=length, label=label, file=sys.stderr) as bar:
        yield bar.update
        bar.update(length - bar.pos)


def echo(text: object = "", *, err: bool = False, nl: bool = True) -> None:
    """Print text that may hold what content or a file name says (a card's or map's name, a scenario's title, a
    file's name), made printable as diagnostics are (dsl/diagnostics.py ``printable``): no control character of
    it reaches the terminal or a CI log (an escape sequence is shown as ``\\u001b``)."""
    from ddaydice.dsl.diagnostics import printable  # (only when a command prints: dday --help starts fast)

    click.echo(printable(str(text)), err=err, nl=nl)


def terminal_width() -> int | None:
    """The width printed lines are fitted to (tools/play.py ``fit``: dday play's lines, the notes under dday compare's
    and dday impact's tables): the terminal's (``COLUMNS`` when it is set, as shutil reads it), or None when standard
    output is no terminal and ``COLUMNS`` is not set (a pipe, a log, a test: the lines stay whole)."""
    import os
    import shutil

    if "COLUMNS" not in os.environ and not sys.stdout.isatty():
        return None
    return shutil.get_terminal_size().columns


def echo_report(lines: Iterable[str]) -> None:
    """A report's lines (dday compare, dday impact): a table's rows (columns set apart by runs of spaces) whole, so
    that its columns stay aligned; every other line, a note or a set-up's description, fitted to the terminal's
    width (:func:`terminal_width`), continued under its text."""
    from ddaydice.interpreter.tools.play import fit

    width = terminal_width()
    for line in lines:
        echo(line if "  " in line.strip() else fit(line, width))


#: The argument or option that sets each key of a set-up (tools/setups.py), as a problem of ``dday simulate``'s or
#: ``dday play``'s set-up names it; ``dday impact`` names some otherwise.
SETUP_OPTIONS = {"map": "MAP", "variant": "--variant", "players": "--players", "policy": "--policy",
                 "side_policy": "--side-policy", "options": "--option", "packs": "--pack", "give": "--give",
                 "pool": "--pool"}


def forced_options() -> Callable[[F], F]:
    """``--give CARD`` and ``--pool CARD`` (repeatable, each card once) of dday play and dday simulate: cards forced
    into the game at the start as a set-up's ``give`` and ``pool`` (tools/forced.py, as dday compare and dday
    impact force them), checked with the rest of the set-up (an unknown card: "did you mean")."""
    def decorate(f: F) -> F:
        for name, what in (("--pool", "put into the Pool at the start (an Award, a deck's card: on top of its deck)"),
                           ("--give", "given to each Unit at the start")):
            f = click.option(name, name.lstrip("-"), multiple=True, metavar="CARD",
                             callback=lambda _ctx, _param, value: _each_once(value),
                             help=f"A card {what}, as a set-up's '{name.lstrip('-')}' (dday compare); "
                                  "repeatable.")(f)
        return f
    return decorate


def forced_cards(give: Sequence[str], pool: Sequence[str]) -> tuple[Forced, ...]:
    """The cards --give and --pool force into the game (tools/forced.py ``Forced``), given first."""
    from ddaydice.interpreter.tools.forced import Forced

    return (*(Forced(c, "give") for c in give), *(Forced(c, "pool") for c in pool))


def check_setup(entry: SetupEntry, content: Content) -> None:
    """Every problem of a command's set-up at once, as one usage error (a line each, named by SETUP_OPTIONS), before
    anything is played; nothing when there is none."""
    from ddaydice.interpreter.tools.setups import check, problems_text

    problems = check(entry, lambda _packs: content)
    if problems:
        raise click.UsageError(problems_text([(SETUP_OPTIONS.get(key, key), message, hint)
                                              for key, message, hint, *_ in problems]))


#: The formats ``--plot`` writes, named by the file's suffix (matplotlib's Agg, SVG and PDF backends).
PLOT_FORMATS = ("png", "svg", "pdf")

F = TypeVar("F", bound=Callable[..., Any])


def plot_problem(path: Path) -> str | None:
    """Why a plot could not be written to ``path`` (checked before any game is played, so that a run is never
    played only for its plot to fail): its suffix must name a format of PLOT_FORMATS, and it must be a file that
    can be written (dsl/writing.py ``write_problem``); None when it can be written."""
    from ddaydice.dsl.writing import write_problem

    suffix = path.suffix.lower().lstrip(".")
    if suffix not in PLOT_FORMATS:
        accepted = ", ".join(f".{f}" for f in PLOT_FORMATS)
        said = f"'.{suffix}' is not one of them" if suffix else "it has none"
        return f"the file's suffix gives the format: {accepted} ({said}); e.g. {path.with_suffix('.png')}"
    return write_problem(path)


def _check_plot(ctx: click.Context, param: click.Parameter, value: Path | None) -> Path | None:
    if value is not None:
        problem = plot_problem(value)
        if problem is not None:
            raise click.BadParameter(f"{value}: {problem}", ctx, param)
    return value


def plot_option(what: str) -> Callable[[F], F]:
    """``--plot FILE`` of dday simulate, compare and impact: ``what`` is drawn to FILE, whose suffix gives the
    format; a FILE that could not be written is a usage error before any game is played."""
    formats = ", ".join(f".{f}" for f in PLOT_FORMATS[:-1]) + f" or .{PLOT_FORMATS[-1]}"
    return click.option("--plot", "plot_path", type=click.Path(dir_okay=False, path_type=Path),
                        callback=_check_plot, metavar="FILE",
                        help=f"{what} to FILE: a {formats} file (the suffix gives the format), in a folder that "
                             "exists.")


def write_plot(draw: Callable[[], None], path: Path) -> None:
    """Draw a plot (after the games, their results already printed): a plot that could not be written after all
    (the disk full, the folder removed meanwhile) is an error (exit 1) that names it, never a traceback."""
    try:
        draw()
    except ImportError as exc:
        raise click.ClickException("--plot needs matplotlib: pip install 'ddaydice[plot]'") from exc
    except OSError as exc:
        raise click.ClickException(f"--plot {path}: the plot could not be written: "
                                   f"{exc.strerror or exc}") from exc


class PolicyName(click.ParamType[str]):
    """A policy's name (``dday simulate --policy``): one of the named policies, or ``skill:S`` (a graded player
    of skill S from 0 to 1)."""

    name = "policy"

    def get_metavar(self, param: click.Parameter, ctx: click.Context | None = None) -> str:
        from ddaydice.interpreter.policies.names import POLICIES, SKILL_PREFIX

        return "[" + "|".join((*POLICIES, f"{SKILL_PREFIX}S")) + "]"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> str:
        from ddaydice.interpreter.policies.names import policy_problem

        wrong = policy_problem(str(value))
        if wrong is not None:
            message, hint = wrong
            self.fail(message + (f" ({hint})" if hint else ""), param, ctx)
        return str(value)


class PackName(click.ParamType[str]):
    """A pack named by ``--pack`` (every command takes it so): 'all', a bundled pack's id, or a pack folder by its path,
    with or without './' (dsl/loader.py ``pack_argument``, as ``load`` takes it). A name that is none is a usage
    error before any work, saying what it was taken for. The bundled packs are those of the command's ``--root``
    when it has one (an eager option, read before this one) and it is a content tree; else the bundled tree's."""

    name = "pack"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> str:
        from ddaydice.dsl.loader import pack_argument

        found, problem = pack_argument(str(value), _root_of(ctx))
        if found is None:
            self.fail(problem or str(value), param, ctx)
        return found


def _root_of(ctx: click.Context | None) -> Path | None:
    """The command's ``--root``, when it has one that is a content tree (one that is not is refused by the command)."""
    root = ctx.params.get("root") if ctx is not None else None
    return root if isinstance(root, Path) and (root / "rules").is_dir() else None


def _each_once(values: Iterable[str]) -> tuple[str, ...]:
    """What a repeatable option names, each once, in order: a pack or an optional rule named twice is taken once."""
    return tuple(dict.fromkeys(values))


def _every_pack(ctx: click.Context, _param: click.Parameter, value: tuple[str, ...]) -> tuple[str, ...]:
    """The packs named, each once (a pack named twice is loaded once), 'all' standing for every bundled one."""
    from ddaydice.dsl.loader import bundled_pack_ids

    return _each_once(n for name in value for n in (bundled_pack_ids(_root_of(ctx)) if name == "all" else [name]))


def option_option(help_text: str = "An optional rule (repeatable; see 'dday list rules')") -> Callable[[F], F]:
    """``--option RULE`` (repeatable), as every command that plays games takes it: each rule once."""
    return click.option("--option", "options", multiple=True, callback=lambda _ctx, _param, value: _each_once(value),
                        help=f"{help_text}.")


def pack_option(help_text: str = "An expansion to load") -> Callable[[F], F]:
    """``--pack PACK`` (repeatable), as every command takes it: ``help_text`` says what the pack is for; how a pack
    is named is said after it. The value is a tuple of names as ``load`` takes them (PackName), each once."""
    return click.option("--pack", "packs", multiple=True, type=PackName(), callback=_every_pack, metavar="PACK",
                        help=f"{help_text}: a bundled one by its id, or a pack folder by its path (repeatable; "
                             "'all': every bundled one).")


def root_option(help_text: str = "Use this content tree.") -> Callable[[F], F]:
    """``--root DIR``: a content tree in place of the bundled one; eager, so that ``--pack`` names its packs."""
    return click.option("--root", type=click.Path(path_type=Path, file_okay=False), is_eager=True, help=help_text)


def echo_diagnostics(diags: list[Diagnostic], fmt: str, limit: int) -> None:
    """Print diagnostics: as JSON, or rendered with their source lines (at most ``limit``)."""
    if not diags and fmt != "json":
        return
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
        echo_diagnostics(errors, fmt, 50)
        if fmt != "json":
            echo(f"{len(errors)} error(s): the content could not be loaded", err=True)
        sys.exit(1)
    return content


class SuggestingGroup(click.Group):
    """A group of commands whose "did you mean" for a misspelt command or option is the project's own
    (dsl/diagnostics.py ``suggest``, as every hint of the loader and the scenarios), not click's: click's difflib
    offered '--format' for '--map'.

    Every error of the command line (a usage error, a bad parameter, a ClickException of a command) passes through
    the group on its way to the terminal, and is made printable there (:func:`printable_error`): what a message
    quotes (a map's or card's name, a user's word echoed back) never reaches the terminal raw."""

    def make_context(self, info_name: str | None, args: list[str], parent: click.Context | None = None,
                     **extra: Any) -> click.Context:
        try:
            return super().make_context(info_name, args, parent, **extra)
        except click.ClickException as exc:
            raise printable_error(exc) from exc.__cause__

    def resolve_command(self, ctx: click.Context, args: list[str]) -> tuple[str | None, click.Command | None,
                                                                            list[str]]:
        name = args[0] if args else None
        if name is not None and not name.startswith("-") and self.get_command(ctx, name) is None:
            from ddaydice.dsl.diagnostics import suggest

            best = suggest(name, self.list_commands(ctx))
            ctx.fail(f"No such command '{name}'." + (f" Did you mean '{best}'?" if best else "")
                     + f" (commands: {', '.join(self.list_commands(ctx))})")
        return super().resolve_command(ctx, args)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except click.ClickException as exc:
            if isinstance(exc, click.NoSuchOption) and exc.ctx is not None and not getattr(exc, "suggested", False):
                raise printable_error(_suggested(exc, exc.ctx)) from None
            raise printable_error(exc) from exc.__cause__


def printable_error(exc: click.ClickException) -> click.ClickException:
    """The same error, its message made printable (dsl/diagnostics.py ``printable``, as :func:`echo` prints every
    other line): the one place a command line error's text is made safe, whichever command raised it and
    whatever it quotes. Printable text is printable already, so an error passing two groups is unchanged."""
    from ddaydice.dsl.diagnostics import printable

    exc.message = printable(exc.message)  # type: ignore[misc]  # (Final in click: set once, here, before it is shown)
    if isinstance(exc, click.BadParameter) and isinstance(exc.param_hint, str):
        exc.param_hint = printable(exc.param_hint)
    return exc


def _suggested(exc: click.NoSuchOption, ctx: click.Context) -> click.NoSuchOption:
    """The same error, with the command's option a misspelt one most likely stands for (compared without their
    dashes: '--gmes' is '--games'), or none."""
    from ddaydice.dsl.diagnostics import suggest

    options = [o for p in ctx.command.params if isinstance(p, click.Option) for o in (*p.opts, *p.secondary_opts)]
    if ctx.command.get_help_option(ctx) is not None:
        options += ctx.help_option_names
    bare = {o.lstrip("-"): o for o in options if o.startswith("--")}
    best = suggest(exc.option_name.lstrip("-"), bare) if exc.option_name.startswith("--") else None
    out = click.NoSuchOption(exc.option_name, possibilities=[bare[best]] if best else None, ctx=ctx)
    out.suggested = True  # type: ignore[attr-defined]  # (an inner group has put it right already)
    return out


def check_map(content: Content, map_id: str, packs: Sequence[str] = ()) -> None:
    """A usage error for a map the content does not have: the bundled pack to load when one has it, else the
    nearest name, else the maps there are."""
    if map_id in content.maps:
        return
    from ddaydice.interpreter.tools.setups import map_hint

    hint = map_hint(content, map_id, tuple(packs)) or "maps: " + ", ".join(sorted(content.maps))
    raise click.UsageError(f"no map '{map_id}' ({hint})")


def check_paths(root: Path | None, paths: tuple[Path, ...]) -> None:
    """A usage error for a --root that is no content tree or a PATH that does not exist."""
    if root is not None and not root.is_dir():
        raise click.UsageError(f"--root {root}: " + ("not a folder" if root.exists() else "no such folder"))
    if root is not None and not (root / "rules").is_dir():
        raise click.UsageError(f"--root {root}: no rules/ folder there (a content tree has rules/, cards/, "
                               "maps/, expansions/)")
    for p in paths:
        if not p.exists():
            raise click.UsageError(f"no such file or folder: {p}")


def load_content(root: Path | None, packs: tuple[str, ...], paths: tuple[Path, ...], fmt: str) -> Content:
    """Load content like ``dday validate``; on errors print them like it does and exit 1."""
    from ddaydice.dsl.diagnostics import SourceCache, render_all, to_json
    from ddaydice.dsl.loader import load

    check_paths(root, paths)
    content, diags = load(root, packs=list(packs), extra=list(paths))
    if content is None:
        errors = [d for d in diags if d.severity == "error"]
        if fmt == "json":
            click.echo(to_json(diags))
        else:
            click.echo(render_all(diags, SourceCache()))
            echo(f"{len(errors)} error(s), {len(diags) - len(errors)} warning(s)", err=True)
        sys.exit(1)
    return content


def scenario_packs(file: Path) -> tuple[list[str], list[Diagnostic]]:
    """The packs a scenario file names (``packs:``), as ``dday scenario run`` loads them, and a diagnostic at
    its line for each entry that names no pack, or one outside the search path (docs/security.md)."""
    from ddaydice.interpreter.tools.scenario import resolve_packs

    return resolve_packs(file)


def input_file(path: Path, what: str = "file") -> None:
    """A usage error (exit 2) unless ``path`` is a regular file (not a device, a pipe or a folder)."""
    import stat

    try:
        mode = path.stat().st_mode
    except OSError as exc:
        raise click.UsageError(f"{path}: cannot read the {what}: {exc.strerror}") from exc
    if not stat.S_ISREG(mode):
        raise click.UsageError(f"{path}: not a regular file: a {what} is read from a file only")


def write_file(path: Path, text: str) -> None:
    """Write a file the command makes (and the folders it goes in) atomically (dsl/writing.py); a failure is an
    error naming the file, not a traceback."""
    from ddaydice.dsl.writing import write_atomically

    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomically(path, text)
    except OSError as exc:
        raise click.ClickException(f"cannot write {path}: {exc.strerror or exc}") from exc


def derivation_text(d: Any, indent: str = "      ", citations: Any = None) -> list[str]:
    """A query's derivation, one line per contribution (``dday scenario run`` on a failed check, ``dday explain``),
    with ``citations`` (Content.citations) the rulebook's places and the rulings under each."""
    from ddaydice.interpreter.tools.scenario_report import derivation_text as text

    return text(d, indent, citations)


def provenance_warning(content: Content, map_id: str) -> str | None:
    """The note that a map is our reconstruction, not the printed board (``dday simulate``, ``dday play``)."""
    bm = content.maps.get(map_id)
    if bm is not None and bm.provenance == "reconstructed":
        pack = content.owner_pack.get(f"map:{map_id}")
        where = content.origins.get(f"map:{map_id}", (f"maps/{map_id}.yaml", 1, 1))[0]
        render = f"dday render {map_id}" + (f" --pack {pack}" if pack else "")
        return (f"note: {bm.name} is a RECONSTRUCTION: the rulebook does not give its layout; what is ours is "
                f"listed in its note ({render}, or {where})")
    return None
