"""Diagnostics for an editor: ``dday validate``'s own checks (:func:`ddaydice.dsl.validate.validate`) on the pack a
document belongs to, or on the document alone, with the unsaved text of every open document overlaid; each
:class:`~ddaydice.dsl.diagnostics.Diagnostic` becomes an LSP diagnostic with the same code and place.

The unit checked for a document is what ``dday validate PATH`` checks for that path: the pack folder it lives in
(the nearest folder above it with a ``pack.yaml``), else the file itself (a file of the bundled content is checked
in its tree, a single card file on top of the base game). A scenario (a top-level ``scenario:``, wherever it lives)
is checked and run as ``dday scenario run`` runs it, on the packs it names with the open documents' unsaved texts:
its mistakes, its failed checks and an error that stops it, each at its line (:func:`check_scenario`). A YAML
file outside a pack that is neither content nor a scenario (a CI workflow) gets no diagnostics (:func:`is_content`).
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path

import attrs
from lsprotocol import types
from pygls.workspace import PositionCodec

from ddaydice.dsl.diagnostics import Diagnostic
from ddaydice.dsl.loader import Content
from ddaydice.dsl.places import bundled_root
from ddaydice.dsl.validate import validate
from ddaydice.interpreter.tools import scenario_check

SOURCE = "dday"


def unit_of(path: Path) -> Path:
    """What ``dday validate`` checks for this file: its pack's folder, or the file itself (real paths)."""
    real = Path(os.path.realpath(path))
    for folder in real.parents:
        if (folder / "pack.yaml").is_file():
            return folder
    return real


def is_scenario(text: str) -> bool:
    """Whether a YAML document is a scenario: a top-level ``scenario:`` (docs/scenarios.md)."""
    return "scenario" in _tops(text)


def unit_for(path: Path, text: str) -> tuple[Path, bool]:
    """What is checked for a document (real paths), and whether it is a scenario: a scenario is checked alone,
    any other file as ``dday validate`` checks it (:func:`unit_of`)."""
    if is_scenario(text):
        return Path(os.path.realpath(path)), True
    return unit_of(path), False


def _tops(text: str) -> set[str]:
    """The top-level keys of a YAML document, read off its lines (a document being typed may not parse)."""
    return {line.split(":", 1)[0] for line in text.splitlines() if line[:1].isalpha() and ":" in line}


def is_content(path: Path, text: str) -> bool:
    """Whether a YAML file found outside any pack is content: what ``dday validate FILE`` tells by its place or its
    keys (a ``pack.yaml``, a file of a ``cards/``, ``maps/`` or ``options/`` folder, a top-level ``cards:`` or
    ``sectors:``), and not a scenario (a top-level ``scenario:``, which ``dday scenario run`` reads). An editor
    runs the server for every YAML file: one that is no content (a CI workflow) gets no diagnostics, where
    ``dday validate`` would say it cannot tell what it holds (LOAD004)."""
    real = Path(os.path.realpath(path))
    if any(real.is_relative_to(os.path.realpath(bundled_root() / folder)) for folder in ("rules", "cards", "maps")):
        return True  # the bundled tree's own rules, cards and maps
    tops = _tops(text)
    if "scenario" in tops:
        return False
    return path.name == "pack.yaml" or path.parent.name in {"cards", "maps", "options"} or bool(
        tops & {"cards", "sectors"})


@attrs.frozen
class Checked:
    """One check of a unit: the content (None when it has errors) and the diagnostics, by the real path of the
    file they are in; those placed on no file (a folder, a pack's entry) are ``loose``."""

    unit: Path
    content: Content | None
    by_file: Mapping[str, Sequence[Diagnostic]]
    loose: Sequence[Diagnostic]
    notes: Mapping[int, str] = attrs.Factory(dict)  # a scenario's run: what hovering each line shows (from 1)


def check(unit: Path, overlay: Mapping[str, str]) -> Checked:
    """``dday validate UNIT`` with the open documents' texts (by real path) in place of their saved ones."""
    content, diags = validate([unit], overlay=overlay)
    by_file: dict[str, list[Diagnostic]] = {}
    loose: list[Diagnostic] = []
    for d in diags:
        where = os.path.abspath(d.file)  # noqa: PTH100  (the file as named: a refused link, not its target)
        if Path(where).is_file():
            by_file.setdefault(where, []).append(d)
        else:
            loose.append(d)
    return Checked(unit, content, by_file, loose)


def check_scenario(file: Path, overlay: Mapping[str, str]) -> Checked:
    """``dday scenario run FILE`` with the open documents' texts: the scenario's own text, and the unsaved texts
    of content files, which the packs it names are loaded with (a card being written is tried by its scenario
    before it is saved). Every diagnostic is in the scenario file (:func:`scenario_check.as_diagnostics`)."""
    real = os.path.realpath(file)
    unsaved = {path: text for path, text in overlay.items() if path != real and not _saved(path, text)}
    checked = scenario_check.check_file(file, text=overlay.get(real), overlay=unsaved)
    return Checked(Path(real), checked.content, {real: scenario_check.as_diagnostics(checked)}, (),
                   scenario_check.notes(checked))


def _saved(path: str, text: str) -> bool:
    """Whether a document's text is what its file holds on disk (then the loader reads the file itself)."""
    try:
        return Path(path).read_bytes() == text.encode("utf-8")
    except OSError:
        return False


def to_lsp(d: Diagnostic, line_text: str | None, codec: PositionCodec, *, loose: bool = False) -> types.Diagnostic:
    """An LSP diagnostic: the same code, message and place (LSP counts lines and columns from 0, columns in the
    code units the client and server agreed on), as wide as the diagnostic says or else the word it points at;
    the hint on a line of its own in the message. A diagnostic of no file (``loose``: a folder) is placed at the
    top of the document, its path in the message."""
    message = (f"{d.file}: " if loose else "") + d.message + (f"\nhint: {d.hint}" if d.hint else "")
    severity = types.DiagnosticSeverity.Error if d.severity == "error" else types.DiagnosticSeverity.Warning
    if loose:
        top = types.Range(types.Position(0, 0), types.Position(0, 0))
        return types.Diagnostic(range=top, message=message, severity=severity, code=d.code, source=SOURCE)
    line, col = max(d.line - 1, 0), max(d.column - 1, 0)
    text = line_text or ""
    width = d.width
    if width <= 1 and col < len(text) and text[col].isalnum():
        end = col
        while end < len(text) and (text[end].isalnum() or text[end] in "-_"):
            end += 1
        width = max(end - col, 1)
    start = codec.position_to_client_units([text], types.Position(0, min(col, len(text)))).character
    stop = codec.position_to_client_units([text], types.Position(0, min(col + width, len(text)))).character
    start += max(col - len(text), 0)
    stop = max(stop, start + (1 if col >= len(text) else 0))
    return types.Diagnostic(range=types.Range(types.Position(line, start), types.Position(line, stop)),
                            message=message, severity=severity, code=d.code, source=SOURCE)
