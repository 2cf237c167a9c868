"""The language server: the open documents, when each is checked, and the LSP features.

Diagnostics are published for a document when it is opened or saved, and a moment after the last of a burst of
changes (:data:`SETTLE`), for every file of the unit checked (its pack; a scenario alone, run, and again when a
content file changes): a file's diagnostics are cleared when it has none left. Checks run one at a time in a
worker thread, so a hover or a completion is answered while a pack is being checked, from the unit's last content
that loaded (or the bundled content with every pack, until one has).
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Mapping, Sequence
from importlib import metadata
from pathlib import Path

import attrs
from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path
from pygls.workspace import ServerTextPosition, TextDocument

from ddaydice.dsl.diagnostics import SourceCache, editor_lines
from ddaydice.dsl.loader import Content, load_cached
from ddaydice.interpreter.tools.lsp import complete, describe
from ddaydice.interpreter.tools.lsp.checking import (
    Checked,
    check,
    check_scenario,
    is_content,
    is_scenario,
    to_lsp,
    unit_for,
    unit_of,
)
from ddaydice.interpreter.tools.lsp.text import prefix_at

log = logging.getLogger(__name__)

# Seconds without a change before a changed document is checked (a check of a pack takes a few tenths).
SETTLE = 0.3
# Seconds a hover or a completion waits for the first check of a document's pack before answering without it.
FIRST_CHECK = 10.0


@attrs.define
class _State:
    """What the server remembers between messages, by unit checked (the real path of a pack folder or a file)."""

    contents: dict[str, Content] = attrs.Factory(dict)  # the last content of each unit that loaded
    notes: dict[str, Mapping[int, str]] = attrs.Factory(dict)  # a scenario's last run: what each line shows
    published: dict[str, set[str]] = attrs.Factory(dict)  # the URIs given diagnostics by each unit's last check
    pending: dict[str, asyncio.Task[None]] = attrs.Factory(dict)  # a check waiting for the changes to settle
    latest: dict[str, asyncio.Task[None]] = attrs.Factory(dict)  # the last check asked for, waiting or running
    lock: asyncio.Lock | None = None
    bundled: asyncio.Future[Content | None] | None = None


class DDayServer(LanguageServer):
    """``dday lsp``."""

    def __init__(self) -> None:
        try:
            version = metadata.version("ddaydice")
        except metadata.PackageNotFoundError:
            version = "0"
        super().__init__("dday-lsp", version, text_document_sync_kind=types.TextDocumentSyncKind.Incremental)
        self.state = _State()

    def lock(self) -> asyncio.Lock:
        """One load at a time (a check, the bundled content): each runs in a worker thread."""
        self.state.lock = self.state.lock or asyncio.Lock()
        return self.state.lock

    # ------------------------------------------------------------ documents
    def documents(self) -> list[TextDocument]:
        return [d for d in self.workspace.text_documents.values() if d.uri.startswith("file:")]

    def schedule(self, uri: str, delay: float) -> None:
        """Check the unit of a document after ``delay`` seconds, unless another change comes first."""
        doc = self.workspace.get_text_document(uri)
        if not uri.startswith("file:"):
            return  # a buffer never saved: it belongs to no pack, and dday validate reads files
        path = Path(doc.path)
        unit, scenario = unit_for(path, doc.source)
        if not scenario and unit == Path(os.path.realpath(path)) and not is_content(path, doc.source):
            self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri, [], doc.version))
            return
        key = str(unit)
        waiting = self.state.pending.pop(key, None)
        if waiting is not None:
            waiting.cancel()
        task = asyncio.ensure_future(self._check_later(unit, uri, delay, scenario))
        self.state.pending[key] = self.state.latest[key] = task
        if not scenario:  # a content file changed: the open scenarios try it (they may name its pack)
            self._rerun_scenarios(uri, delay)

    def _rerun_scenarios(self, changed: str, delay: float) -> None:
        """Check again every open scenario but ``changed``: a content file they may load has changed."""
        for other in self.documents():
            if other.uri != changed and is_scenario(other.source):
                self.schedule(other.uri, delay)

    def closed(self, closed: str) -> None:
        """A document was closed: its file is read from disk again, by the documents still open in its pack and by
        the open scenarios (a scenario closed is its own unit: no other document is checked with it)."""
        path = to_fs_path(closed) if closed.startswith("file:") else None
        if path is None:
            return
        unit = unit_of(Path(path))
        still = next((d.uri for d in self.documents() if d.uri != closed and not is_scenario(d.source)
                      and unit_of(Path(d.path)) == unit), None)
        if still is not None:
            self.schedule(still, 0)  # (a content file: which re-runs the open scenarios too)
        else:
            self._rerun_scenarios(closed, 0)

    def note_hover(self, doc: TextDocument, line: int, lines: Sequence[str]) -> types.Hover | None:
        """On a line of a scenario that holds a check: what its last run gave (scenario_check.notes), or None."""
        note = self.state.notes.get(os.path.realpath(doc.path), {}).get(line + 1)
        if note is None or line >= len(lines):
            return None
        span = types.Range(doc.position_to_client_units(_server_pos(line, 0)),
                           doc.position_to_client_units(_server_pos(line, len(lines[line]))))
        return types.Hover(types.MarkupContent(types.MarkupKind.Markdown, note), span)

    async def _check_later(self, unit: Path, uri: str, delay: float, scenario: bool = False) -> None:
        key = str(unit)
        await asyncio.sleep(delay)
        if self.state.pending.get(key) is asyncio.current_task():
            del self.state.pending[key]  # from now on it runs to its end: a later change waits for it
        async with self.lock():
            docs = {os.path.realpath(d.path): d for d in self.documents()}
            overlay = {real: d.source for real, d in docs.items()}
            versions = {real: d.version for real, d in docs.items()}
            try:
                checked = await asyncio.get_running_loop().run_in_executor(
                    None, check_scenario if scenario else check, unit, overlay)
            except Exception as exc:  # a bug of the loader must not end the session: say it, keep serving
                log.exception("checking %s", unit)
                self.window_log_message(types.LogMessageParams(types.MessageType.Error,
                                                               f"dday lsp: checking {unit} failed: {exc!r}"))
                return
        if checked.content is not None:
            self.state.contents[key] = checked.content
        if scenario:
            self.state.notes[key] = checked.notes
        self.publish(checked, uri, versions)

    def publish(self, checked: Checked, trigger: str, versions: dict[str, int | None]) -> None:
        """Publish a check's diagnostics: for each file that has some, for the document that asked (its loose
        diagnostics on it), and an empty list for each file of the unit's previous check that has none now."""
        docs = {os.path.realpath(d.path): d for d in self.documents()}
        codec = self.workspace.position_codec
        sources = SourceCache()
        now: dict[str, tuple[list[types.Diagnostic], int | None]] = {}
        for file, diags in checked.by_file.items():
            doc = docs.get(file)
            uri = doc.uri if doc is not None else (from_fs_path(file) or file)
            lines = editor_lines(doc.source) if doc is not None else None
            out = [to_lsp(d, _line(lines, d.line) if lines is not None else sources.line(d.file, d.line), codec)
                   for d in diags]
            now[uri] = (out, versions.get(file))
        trigger_doc = self.workspace.get_text_document(trigger)
        mine, _ = now.setdefault(trigger, ([], versions.get(os.path.realpath(trigger_doc.path))))
        mine += [to_lsp(d, None, codec, loose=True) for d in checked.loose]
        key = str(checked.unit)
        for uri in self.state.published.get(key, set()) - set(now):
            now[uri] = ([], None)
        self.state.published[key] = {uri for uri, (found, _) in now.items() if found}
        for uri, (found, version) in now.items():
            self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri, found, version))

    # -------------------------------------------------------------- content
    async def contents_for(self, path: Path) -> list[Content]:
        """What a hover or a completion reads: the document's unit's last content that loaded, then the bundled
        content with every pack (loaded once, in the background)."""
        out = []
        doc = next((d for d in self.documents() if os.path.realpath(d.path) == os.path.realpath(path)), None)
        key = str(unit_for(path, doc.source)[0] if doc is not None else unit_of(path))
        first = self.state.latest.get(key)
        if key not in self.state.contents and first is not None and not first.done():
            # the document was just opened: its first check is under way, and tells what its pack holds
            await asyncio.wait([first], timeout=FIRST_CHECK)
        mine = self.state.contents.get(key)
        if mine is not None:
            out.append(mine)
        if self.state.bundled is None:
            self.state.bundled = asyncio.ensure_future(self._load_bundled())
        bundled = await asyncio.shield(self.state.bundled)
        if bundled is not None:
            out.append(bundled)
        return out


    async def _load_bundled(self) -> Content | None:
        async with self.lock():
            return await asyncio.get_running_loop().run_in_executor(None, _bundled)


def _bundled() -> Content | None:
    content, _ = load_cached(None, packs="all")
    return content


def _line(lines: Sequence[str], line: int) -> str | None:
    return lines[line - 1] if 1 <= line <= len(lines) else None


def _location(server: DDayServer, place: describe.Place) -> types.Location:
    """An LSP location of a place the loader names (a file relative to the current folder, or absolute)."""
    file = os.path.abspath(place.file)  # noqa: PTH100
    doc = next((d for d in server.documents() if os.path.realpath(d.path) == os.path.realpath(file)), None)
    text = _line(editor_lines(doc.source), place.line) if doc is not None else SourceCache().line(file, place.line)
    codec = server.workspace.position_codec
    line = place.line - 1
    start = codec.position_to_client_units([text or ""], types.Position(0, place.column - 1)).character
    end = codec.position_to_client_units([text or ""], types.Position(0, place.column - 1 + place.width)).character
    uri = doc.uri if doc is not None else (from_fs_path(file) or file)
    return types.Location(uri, types.Range(types.Position(line, start), types.Position(line, max(end, start))))


def build() -> DDayServer:
    """The server with its features registered."""
    server = DDayServer()

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: DDayServer, params: types.DidOpenTextDocumentParams) -> None:
        ls.schedule(params.text_document.uri, 0)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: DDayServer, params: types.DidChangeTextDocumentParams) -> None:
        ls.schedule(params.text_document.uri, SETTLE)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: DDayServer, params: types.DidSaveTextDocumentParams) -> None:
        ls.schedule(params.text_document.uri, 0)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: DDayServer, params: types.DidCloseTextDocumentParams) -> None:
        # the file is read from disk again: its pack is checked anew for the documents still open in it
        closed = params.text_document.uri
        ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(closed, []))
        ls.closed(closed)

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    async def hover(ls: DDayServer, params: types.HoverParams) -> types.Hover | None:
        doc = ls.workspace.get_text_document(params.text_document.uri)
        at = doc.position_from_client_units(params.position)
        contents = await ls.contents_for(Path(doc.path))
        lines = editor_lines(doc.source)
        found = describe.hover(contents, Path(doc.path), lines, at.line, at.character)
        if found is None:  # a scenario's check: what its last run gave, and why
            return ls.note_hover(doc, at.line, lines)
        tok = found.token
        span = types.Range(doc.position_to_client_units(_server_pos(tok.line, tok.start)),
                           doc.position_to_client_units(_server_pos(tok.line, tok.end)))
        return types.Hover(types.MarkupContent(types.MarkupKind.Markdown, found.markdown), span)

    @server.feature(types.TEXT_DOCUMENT_DEFINITION)
    async def definition(ls: DDayServer, params: types.DefinitionParams) -> types.Location | None:
        doc = ls.workspace.get_text_document(params.text_document.uri)
        at = doc.position_from_client_units(params.position)
        contents = await ls.contents_for(Path(doc.path))
        place = describe.definition(contents, Path(doc.path), editor_lines(doc.source), at.line, at.character)
        return _location(ls, place) if place is not None else None

    @server.feature(types.TEXT_DOCUMENT_COMPLETION,
                    types.CompletionOptions(trigger_characters=[" ", "[", ","], resolve_provider=True))
    async def completion(ls: DDayServer, params: types.CompletionParams) -> types.CompletionList:
        doc = ls.workspace.get_text_document(params.text_document.uri)
        at = doc.position_from_client_units(params.position)
        contents = await ls.contents_for(Path(doc.path))
        lines = editor_lines(doc.source)
        if not contents or at.line >= len(lines):
            return types.CompletionList(is_incomplete=False, items=[])
        checks = complete.expectations(contents[0], lines, at.line, at.character) if is_scenario(doc.source) \
            else None
        if checks is not None:  # a scenario's check being typed: 'u1.so' is replaced whole
            edit = types.Range(doc.position_to_client_units(_server_pos(at.line, checks[0])), params.position)
            return types.CompletionList(is_incomplete=False,
                                        items=[complete.item(n, i, edit) for i, n in enumerate(checks[1])])
        start, _ = prefix_at(lines, at.line, at.character)
        edit = types.Range(doc.position_to_client_units(_server_pos(at.line, start)), params.position)
        map_id = describe.map_of(contents[0], Path(doc.path))
        found = complete.items(contents[0], map_id, lines, at.line, at.character, edit)
        for item in found:
            if isinstance(item.data, dict):
                item.data["uri"] = doc.uri  # the resolve reads the content of this document's pack
        return types.CompletionList(is_incomplete=False, items=found)

    @server.feature(types.COMPLETION_ITEM_RESOLVE)
    async def resolve(ls: DDayServer, item: types.CompletionItem) -> types.CompletionItem:
        uri = item.data.get("uri") if isinstance(item.data, dict) else None
        path = to_fs_path(uri) if isinstance(uri, str) and uri.startswith("file:") else None
        contents = await ls.contents_for(Path(path)) if path is not None else await ls.contents_for(Path.cwd())
        return complete.resolve(item, contents)

    return server


def _server_pos(line: int, character: int) -> ServerTextPosition:
    return ServerTextPosition(line, character)


def serve() -> None:
    """Run the server on standard input and output until the client ends the session."""
    build().start_io()
