"""The reports of ``dday scenario run``: each scenario's PASS or FAIL with its failed checks, as text lines (with
the derivation of each failed value), as JSON data, or as a JUnit XML report for CI (``--junit FILE``)."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Mapping, Sequence
from pathlib import PurePath
from typing import Any

import attrs

from ddaydice.dsl.diagnostics import Diagnostic, printable
from ddaydice.dsl.loading.content import Citation
from ddaydice.interpreter.core.precedence import Derivation, Step
from ddaydice.interpreter.core.state import Event
from ddaydice.interpreter.tools.scenario import Check, Result


def derivation_text(d: Derivation, indent: str = "      ",
                    citations: Mapping[str, Citation] | None = None) -> list[str]:
    """A query's derivation, one line per contribution (``dday scenario run`` on a failed check, ``dday explain``);
    with ``citations`` (Content.citations), under the base and under each step, where the rulebook writes it and
    the rulings that decide it (:func:`base_cited`, :func:`step_cited`)."""
    def cite(found: Citation | None, under: str) -> list[str]:
        return [f"{under}{line}" for line in found.lines()] if found is not None else []

    base = base_cited(citations, d) if citations is not None else None
    if d.steps and all(step.op == "check" for step in d.steps):
        lines = [f"{indent}{d.query} for {d.subject}: every check must pass", *cite(base, f"{indent}  ")]
        for step in d.steps:
            lines.append(f"{indent}  {'yes' if step.after else 'NO '}  {step.source_name}: {step.text}")
        lines.append(f"{indent}  = {d.value}")
        return lines
    lines = [f"{indent}{d.query} for {d.subject or 'the game'}: base {d.base} ({d.base_source})"]
    lines += cite(base, f"{indent}  ")
    width = max([15, *(len(step.tier) for step in d.steps)])
    for step in d.steps:
        val = "" if step.value is None else f" {step.value}"
        line = f"{indent}  {step.tier:<{width}} {step.source_name}: {step.op}{val}: {step.before} -> {step.after}"
        if step.overruled_by:
            line += f"  [overruled by {step.overruled_by}: {step.reason}]"
        elif step.reason:
            line += f"  [{step.reason}]"
        lines.append(line)
        if citations is not None:
            under = f"{indent}  {'':<{width}}   "
            lines += cite(step_cited(citations, d, step), under)
            if step.overruled_by:
                lines += cite(citations.get(PRECEDENCE), under)
    lines.append(f"{indent}  = {d.value}")
    for idle in d.not_applied:  # what reaches the subject and did nothing, and why
        lines.append(f"{indent}  not applied: {idle.source_name} ({idle.tier}): {idle.text}  [{idle.reason}]")
    return lines


#: The owner of the order of precedence's citation (rules/precedence.yaml): cited under a step overruled.
PRECEDENCE = "precedence"


def base_cited(citations: Mapping[str, Citation], d: Derivation) -> Citation | None:
    """Where the rulebook writes a derivation's base and the rulings on it: the entry it names (``cites``: the
    movement's checks cite their phase), else its query's entry in rules/queries.yaml."""
    return citations.get(d.cites or f"query:{d.query}")


def step_cited(citations: Mapping[str, Citation], d: Derivation, step: Step) -> Citation | None:
    """Where the rulebook writes what a step's source (a card's id, 'map/sector', 'rule:ID') says, and the rulings
    on it that are about the derivation's query (a ruling that names other queries is left out); the rules' clamp:
    the rulebook's place of the query's entry, which gives the minimum (its rulings are the base's). None when it
    cites nothing."""
    if step.op == "clamp":
        base = base_cited(citations, d)
        return Citation(base.rulebook, ()) if base is not None and base.rulebook else None
    found = citations.get(step.source)
    return found.about(d.query) if found is not None else None


def cited_json(d: Derivation, citations: Mapping[str, Citation]) -> dict[str, Any]:
    """A derivation as JSON with its citations: ``rulebook`` and ``rulings`` for the base (the query's entry) and on
    every step (null and [] where nothing is cited); a step overruled: ``precedence``, the order of precedence's
    (null on every other step)."""
    none = Citation("", ())
    out = d.as_json()
    out.update((base_cited(citations, d) or none).as_json())
    precedence = (citations.get(PRECEDENCE) or none).as_json()
    out["steps"] = [{**step.as_json(), **(step_cited(citations, d, step) or none).as_json(),
                     "precedence": precedence if step.overruled_by else None} for step in d.steps]
    return out


#: The warning on a scenario that checks nothing (tools/scenario_steps.py checks_nothing), in every report.
CHECKS_NOTHING = ("this scenario checks nothing: it has no expect: entry, no step the rules can refuse and no "
                  "scripted answer, so it passes whatever the rules do (add what must follow under expect:)")


def check_lines(c: Check) -> list[str]:
    """A check as text: its mark, label, expected and actual values, why, and a failed value's derivation."""
    mark = "ok  " if c.passed else "FAIL"
    lines = [f"    {mark} {c.label}: expected {c.expected!r}, got {c.actual!r}" + (f" ({c.message})" if c.message
                                                                                     else "")]
    if not c.passed and c.derivation is not None:
        lines += derivation_text(c.derivation)
    return lines


def text_lines(results: Sequence[Result], verbose: bool) -> list[str]:
    """Each scenario's PASS or FAIL line, its error, its failed checks (every check when ``verbose``), and what
    happened when it was run traced."""
    lines: list[str] = []
    for r in results:
        lines.append(f"{'PASS' if r.passed else 'FAIL'} {r.file}: {r.title}")
        if r.error:
            lines.append(f"    error: {r.error}")
        if r.checks_nothing:
            lines.append(f"    warning: {CHECKS_NOTHING}")
        lines += [f"    warning: {w}" for w in r.warnings]
        for c in r.checks:
            if verbose or not c.passed:
                lines += check_lines(c)
        if r.trace:
            lines.append("    what happened:")
            lines += [f"      {trace_line(e)}" for e in r.trace]
        elif r.traced:  # asked for, and empty: said, so that the trace is not thought forgotten
            lines.append("    what happened: nothing" + (" before the error" if r.error else ""))
    return lines


def trace_line(e: Event) -> str:
    """One event of a game's trace: when, who, what, and the card and tier it came from."""
    who = f" {e.unit}" if e.unit else ""
    origin = f"  [{e.source}, {e.tier}]" if e.source and e.tier else (f"  [{e.source}]" if e.source else "")
    return f"turn {e.turn} {e.phase}{who}: {e.detail}{origin}"


def trace_json(e: Event) -> dict[str, Any]:
    return {"turn": e.turn, "phase": e.phase, "unit": e.unit, "kind": e.kind, "detail": e.detail,
            "source": e.source, "tier": e.tier}


@attrs.frozen
class Unusable:
    """A scenario file that could not be run (a file counts once, as passed, failed or unusable), and every
    diagnostic that says why: its own, or those of what it needs (a pack that does not load), placed there."""

    file: str  # as shown
    problems: tuple[Diagnostic, ...]


def diagnostics(unusable: Sequence[Unusable]) -> list[Diagnostic]:
    """Every diagnostic of the files that could not be run, in the order of the files, each told once: a pack that
    several scenarios name and that does not load has its errors told with the first (each scenario's SCEN002
    stays its own)."""
    return list(dict.fromkeys(d for u in unusable for d in u.problems))


def json_data(results: Sequence[Result], unusable: Sequence[Unusable]) -> dict[str, Any]:
    """The run as JSON data: each scenario with every check (a failed value's derivation too), the files that
    could not be run with their diagnostics, and the counts (of files)."""
    problems = diagnostics(unusable)
    return {
        "scenarios": [{"file": r.file, "scenario": r.title, "passed": r.passed, "error": r.error,
                       "checks": [c.as_json() for c in r.checks],
                       **({"warning": CHECKS_NOTHING} if r.checks_nothing else {}),
                       **({"warnings": [str(w) for w in r.warnings]} if r.warnings else {}),
                       **({"trace": [trace_json(e) for e in r.trace]} if r.trace or r.traced else {})}
                      for r in results],
        "diagnostics": [d.as_json() for d in problems],
        "unusable_files": [u.file for u in unusable],
        "passed": sum(r.passed for r in results), "failed": sum(not r.passed for r in results),
        "unusable": len(unusable), "checking_nothing": sum(r.checks_nothing for r in results),
    }


def classname(file: str) -> str:
    """A scenario file as a JUnit class name: its path without ``.yaml``, its folders joined by dots
    (``tests/scenarios/medic.yaml``: ``tests.scenarios.medic``), as a CI's report groups classes."""
    parts = [p for p in PurePath(file).with_suffix("").parts if p not in (".", "..", "/")]
    return ".".join(parts) or file


def junit_xml(results: Sequence[Result], unusable: Sequence[Unusable]) -> str:
    """A JUnit XML report: one test case per scenario (a failure per failed check, an error for a scenario that
    stopped), and one erroneous test case per file that could not be run (its first diagnostic, and all of them
    in the error's text)."""
    failures = sum(1 for r in results if r.error is None and not r.passed)
    errors = sum(1 for r in results if r.error is not None) + len(unusable)
    suites = ET.Element("testsuites", name="dday scenario run", tests=str(len(results) + len(unusable)),
                        failures=str(failures), errors=str(errors))
    suite = ET.SubElement(suites, "testsuite", name="scenarios", tests=suites.get("tests", "0"),
                          failures=str(failures), errors=str(errors))
    for r in results:
        case = ET.SubElement(suite, "testcase", classname=classname(r.file), name=r.title, file=r.file,
                             time=f"{r.seconds:.3f}")
        first = next((c for c in r.checks if not c.passed and c.line), None)
        if first is not None:  # where a reader (a CI's annotations) points: the first failed check
            case.set("line", str(first.line))
        if r.error is not None:
            ET.SubElement(case, "error", message=r.error, type="error").text = r.error
        warned = ([CHECKS_NOTHING] if r.checks_nothing else []) + [str(w) for w in r.warnings]
        if warned:  # JUnit has no warning: the test case's standard error says it
            ET.SubElement(case, "system-err").text = "\n".join(f"warning: {w}" for w in warned)
        for c in r.checks:
            if not c.passed:
                failure = ET.SubElement(case, "failure", message=f"{c.label}: expected {c.expected!r}, got "
                                        f"{c.actual!r}", type="check")
                failure.text = "\n".join(check_lines(c))
    for u in unusable:
        case = ET.SubElement(suite, "testcase", classname=classname(u.file), name=u.file, file=u.file, time="0")
        every = [f"{d.file}:{d.line}:{d.column}: {d.code} {d.message}" for d in u.problems]
        code = u.problems[0].code if u.problems else "error"
        ET.SubElement(case, "error", message=every[0] if every else u.file, type=code).text = "\n".join(every)
    for element in suites.iter():  # what the content and the file names say, made well-formed XML
        element.text = None if element.text is None else printable(element.text)
        for key, value in element.attrib.items():
            element.set(key, printable(value))
    ET.indent(suites)
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(suites, encoding="unicode") + "\n"
