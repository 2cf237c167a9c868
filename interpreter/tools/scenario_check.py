"""One scenario file checked as ``dday scenario run`` checks it, for the command and for an editor (``dday lsp``):
the packs it names, the content they load, the file's own mistakes, then the run and its checks.

:func:`check_file` gives the run's :class:`~ddaydice.interpreter.tools.scenario.Result`, or the diagnostics that
kept the file from running (unusable input, each at its line). :func:`as_diagnostics` turns a run's failures into
diagnostics at the lines of the file that failed (a failed expectation at its key, a refused step at the step, an
error at the step it stopped at), which is how an editor shows them as the scenario is written.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path

import attrs

from ddaydice.dsl.diagnostics import Diagnostic, sort_key
from ddaydice.dsl.loader import Content, load, load_cached
from ddaydice.dsl.yamlsrc import YamlDoc, position, read_yaml, shorten
from ddaydice.interpreter.tools.scenario import Check, Result, resolve_packs, run
from ddaydice.interpreter.tools.scenario_file import ScenarioFile, load_scenario
from ddaydice.interpreter.tools.scenario_report import CHECKS_NOTHING, derivation_text

#: The content loaded for each list of packs during one run of many files, with the loader's diagnostics (the
#: content None: it does not load, and every file naming those packs reports why).
ContentCache = dict[tuple[str, ...], tuple[Content | None, list[Diagnostic]]]
_PLACE = re.compile(r"^.*?:\d+:\d+: ")


@attrs.frozen
class FileCheck:
    """A scenario file checked: its run's result, or (``result`` None) why it could not run."""

    file: Path
    result: Result | None
    problems: tuple[Diagnostic, ...] = ()
    doc: YamlDoc | None = None
    content: Content | None = None  # the content the scenario ran on (its packs loaded)


def check_file(file: Path, cache: ContentCache | None = None, *, text: str | None = None,
               overlay: Mapping[str, str] | None = None, trace: bool = False) -> FileCheck:
    """Check and run one scenario file. ``text`` is what an editor holds for the file, unsaved; ``overlay`` the
    unsaved text of content files (by real path), read in place of their saved bytes when the packs load;
    ``trace``: the result keeps what happened (the game's trace, from its set-up on)."""
    prepared = _prepare(file, {} if cache is None else cache, text, overlay)
    if isinstance(prepared, FileCheck):
        return prepared
    sc, doc, content = prepared
    result, game = run(sc, content, str(file), doc=doc, trace=trace)
    if trace:
        result = attrs.evolve(result, trace=tuple(game.state.log) if game is not None else (), traced=True)
    return FileCheck(file, result, (), doc, content)


def check_unrun(file: Path, cache: ContentCache | None = None) -> list[Diagnostic]:
    """A scenario file's own mistakes, found as ``dday scenario run`` finds them before it runs the file (its
    YAML, its keys, its ``packs:``, and its set-up, steps and checks against the content those load), each in the
    file; the file is not run. ``dday validate`` checks a scenario file named to it so."""
    prepared = _prepare(file, {} if cache is None else cache, None, None)
    return _own(prepared) if isinstance(prepared, FileCheck) else []


def _prepare(file: Path, cache: ContentCache, text: str | None, overlay: Mapping[str, str] | None
             ) -> FileCheck | tuple[ScenarioFile, YamlDoc, Content]:
    """A scenario file read and checked, ready to run (its set-up, its document, the content of its packs), or why
    it cannot run (a FileCheck without a result)."""
    named, pack_problems = resolve_packs(file, text)
    if pack_problems:  # a bad entry of `packs:`, at its line of the scenario file
        return FileCheck(file, None, tuple(pack_problems))
    packs = tuple(named)
    content, load_diags = _content(cache, packs, overlay)
    if content is None:  # the content with these packs does not load: why, and where, as for validate
        doc, _ = read_yaml(str(file), text)
        line, col = position(doc.data, ["packs"]) if doc is not None and isinstance(doc.data, dict) else (1, 1)
        errors = [d for d in load_diags if d.severity == "error"]
        return FileCheck(file, None, (*errors, Diagnostic(
            "SCEN002", "the packs this scenario names do not load (their errors are above)", str(file), line, col)))
    loaded, diags = load_scenario(file, content, text)
    if loaded is None or diags:
        return FileCheck(file, None, tuple(diags), content=content)
    return (*loaded, content)


def _content(cache: ContentCache, packs: tuple[str, ...], overlay: Mapping[str, str] | None
             ) -> tuple[Content | None, list[Diagnostic]]:
    """The content with these packs: remembered for the run (and, unchanged on disk, for the process), or loaded
    afresh with an editor's unsaved texts."""
    if overlay:
        return load(packs=list(packs), overlay=overlay)
    if packs not in cache:
        cache[packs] = load_cached(packs=list(packs))
    return cache[packs]


def as_diagnostics(checked: FileCheck) -> list[Diagnostic]:
    """The file's mistakes and its run's failures, each at its place in the scenario file: SCEN003 for a check
    that fails (an expectation, a step refused or allowed against the file's word, an answer never consumed),
    SCEN004 for an error that stopped the run, and the warning SCEN005 for a scenario that checks nothing."""
    if checked.result is None:
        return _own(checked)
    result, doc = checked.result, checked.doc
    out = [Diagnostic("SCEN003", _failure(c), str(checked.file), c.line or 1, c.column or 1)
           for c in result.checks if not c.passed]
    if result.error is not None:
        message = result.error
        if doc is not None and result.error_where:
            line, col = position(doc.data, list(result.error_where))
            message = message.removeprefix(f"{doc.file}:{line}:{col}: ")
        out.append(_at(doc, result.error_where, str(checked.file), "SCEN004", "the scenario stopped: " + message))
    out += [attrs.evolve(_at(doc, w.where, str(checked.file), w.code, w.message), severity="warning")
            for w in result.warnings]
    if result.checks_nothing:  # a warning, as dday scenario run gives it: it passes whatever the rules do
        where: tuple[str | int, ...] = ("expect",) if doc is not None and isinstance(doc.data, dict) \
            and "expect" in doc.data else ()
        out.append(attrs.evolve(_at(doc, where, str(checked.file), "SCEN005", CHECKS_NOTHING), severity="warning"))
    return out


def notes(checked: FileCheck) -> dict[int, str]:
    """What an editor shows on hovering a line of the scenario after a run (Markdown, by line from 1): for each
    check, the value the run gave (and whether it is the one expected), a query's derivation contribution by
    contribution, a refusal's reason."""
    out: dict[int, list[str]] = {}
    result = checked.result
    if result is None:
        return {}
    for c in result.checks:
        if not c.line:
            continue
        label = _PLACE.sub("", c.label, count=1)
        verdict = "as expected" if c.passed else f"**expected** `{shorten(repr(c.expected), 200)}`"
        text = [f"**`{shorten(label, 100)}`** after the steps: `{shorten(repr(c.actual), 300)}` ({verdict})"]
        if c.message:
            text.append(shorten(c.message, 400))
        if c.derivation is not None:
            text.append("```text\n" + "\n".join(derivation_text(c.derivation, "")) + "\n```")
        out.setdefault(c.line, []).append("\n\n".join(text))
    return {line: "\n\n---\n\n".join(parts) for line, parts in out.items()}


def _own(checked: FileCheck) -> list[Diagnostic]:
    """Why the file could not run, all in the file itself: the errors of the packs it names (in other files) are
    named in the message of SCEN002 at its ``packs:``, the first of them whole."""
    mine = [d for d in checked.problems if Path(d.file).resolve() == checked.file.resolve()]
    others = sorted((d for d in checked.problems if d not in mine), key=sort_key)
    if others:
        first = others[0]
        count = f"{len(others)} error" + ("s" if len(others) > 1 else "")
        mine = [attrs.evolve(d, message=d.message.replace("(their errors are above)", f"({count}; the first: "
                                                          f"{first.file}:{first.line}:{first.column}: "
                                                          f"{first.code} {shorten(first.message, 200)})"))
                if d.code == "SCEN002" else d for d in mine]
    return mine


def _failure(check: Check) -> str:
    """What a failed check says: what it expected, what came, why, and a value's derivation line by line."""
    label = _PLACE.sub("", check.label, count=1)  # a step's label names its place: the diagnostic is there
    lines = [f"{shorten(label, 100)}: expected {shorten(repr(check.expected), 80)}, got "
             f"{shorten(repr(check.actual), 80)}" + (f" ({shorten(check.message, 300)})" if check.message else "")]
    if check.derivation is not None:
        lines += derivation_text(check.derivation, "  ")
    return "\n".join(lines)


def _at(doc: YamlDoc | None, where: tuple[str | int, ...], file: str, code: str, message: str) -> Diagnostic:
    line, col = position(doc.data, list(where)) if doc is not None and where else (1, 1)
    return Diagnostic(code, message, file, line, col)
