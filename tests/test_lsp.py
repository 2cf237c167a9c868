"""``dday lsp`` end to end: the server is started as a subprocess and driven over stdio by a real LSP client
(pygls' ``LanguageClient``), on real files in a temporary folder. One server serves the module's tests; it is
always shut down (``shutdown``, ``exit``, then killed if it lingers).

What is checked: diagnostics on open and on change, with the code and place ``dday validate`` gives for the same
text (and nothing written to disk), for an open file of a pack, one that is not open, a file of the bundled content
and a card file outside any pack (and none for a YAML file that is no content); a scenario checked and run as
``dday scenario run`` runs it (its failures at their lines, with the unsaved text of the cards it tries); hover on
a card id and on a word; completion in an effect and of card ids, and an item's whole description;
go-to-definition of a card id. Then, in process: the overlay's limits (docs/security.md) and where the cursor
stands.
"""

from __future__ import annotations

import asyncio
import json
import shutil
import sys
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest
from click.testing import CliRunner
from lsprotocol import types
from pygls.lsp.client import LanguageClient
from pygls.uris import from_fs_path

from ddaydice.interpreter.cli import main

EXAMPLE = Path(__file__).resolve().parents[1] / "docs" / "example-pack" / "field-kitchen"
TIMEOUT = 30.0  # seconds for any one answer (a check of a pack takes well under one)
T = TypeVar("T")


def uri(path: Path) -> str:
    out: str | None = from_fs_path(str(path))
    assert out is not None
    return out


class Session:
    """A client talking to one ``dday lsp`` process, on an event loop of its own, collecting the diagnostics it
    publishes."""

    def __init__(self, cwd: Path) -> None:
        self.loop = asyncio.new_event_loop()
        self.client = LanguageClient("ddaydice-tests", "1")
        self.published: list[types.PublishDiagnosticsParams] = []
        self.versions: dict[str, int] = {}
        self.opened: dict[str, int] = {}  # how many notifications had come when each document was last opened

        # (pygls' client leaves its decorator's type unsaid: the handler is registered by a plain call)
        register: Callable[[Callable[[types.PublishDiagnosticsParams], None]], object] = self.client.feature(
            types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)

        def collect(params: types.PublishDiagnosticsParams) -> None:
            self.published.append(params)

        register(collect)
        self.run(self.client.start_io(sys.executable, "-m", "ddaydice.interpreter.cli", "lsp", cwd=str(cwd)))
        self.run(self.client.initialize_async(types.InitializeParams(
            capabilities=types.ClientCapabilities(), root_uri=uri(cwd), process_id=None)))
        self.client.initialized(types.InitializedParams())

    def run(self, step: Awaitable[T]) -> T:
        return self.loop.run_until_complete(asyncio.wait_for(step, TIMEOUT))

    def close(self) -> None:
        try:
            self.run(self.client.shutdown_async(None))
            self.client.exit(None)
            self.run(self.client.stop())  # type: ignore[no-untyped-call]  # (pygls leaves it unannotated)
        finally:
            server = self.client._server  # the subprocess, if it outlived 'exit'
            if server is not None and server.returncode is None:
                server.kill()
                self.run(server.wait())
            self.loop.close()

    # ------------------------------------------------------------ documents
    def open(self, path: Path, text: str | None = None) -> str:
        doc = uri(path)
        self.versions[doc] = 1
        self.opened[doc] = len(self.published)
        self.client.text_document_did_open(types.DidOpenTextDocumentParams(types.TextDocumentItem(
            doc, "yaml", 1, path.read_text() if text is None else text)))
        return doc

    def change(self, doc: str, text: str) -> int:
        """Replace the whole text of an open document (unsaved); its new version."""
        self.versions[doc] += 1
        self.client.text_document_did_change(types.DidChangeTextDocumentParams(
            types.VersionedTextDocumentIdentifier(self.versions[doc], doc),
            [types.TextDocumentContentChangeWholeDocument(text)]))
        return self.versions[doc]

    def edit(self, doc: str, line: int, start: int, end: int, text: str) -> int:
        """An incremental change of part of a line."""
        self.versions[doc] += 1
        span = types.Range(types.Position(line, start), types.Position(line, end))
        self.client.text_document_did_change(types.DidChangeTextDocumentParams(
            types.VersionedTextDocumentIdentifier(self.versions[doc], doc),
            [types.TextDocumentContentChangePartial(span, text)]))
        return self.versions[doc]

    def diagnostics(self, doc: str, version: int | None = None, since: int | None = None) -> list[types.Diagnostic]:
        """The diagnostics published for a document: for that version of it since it was last opened, if given;
        else the first published after the ``since``-th notification (by default, the next one)."""
        seen = len(self.published) if since is None else since

        async def wait() -> list[types.Diagnostic]:
            index = self.opened.get(doc, 0) if version is not None else seen
            while True:
                for p in self.published[index:]:
                    if p.uri == doc and (version is None or p.version == version):
                        return list(p.diagnostics)
                await asyncio.sleep(0.02)

        return self.run(wait())

    def ask(self, request: Callable[[Any], Awaitable[T]], doc: str, line: int, char: int) -> T:
        where = types.TextDocumentIdentifier(doc), types.Position(line, char)
        params: Any
        if request == self.client.text_document_hover_async:
            params = types.HoverParams(*where)
        elif request == self.client.text_document_completion_async:
            params = types.CompletionParams(*where)
        else:
            params = types.DefinitionParams(*where)
        return self.run(request(params))


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("lsp")
    shutil.copytree(EXAMPLE, root / "field-kitchen")
    return root


@pytest.fixture(scope="module")
def session(workdir: Path) -> Iterator[Session]:
    s = Session(workdir)
    try:
        yield s
    finally:
        s.close()


def validate_json(path: Path, cwd: Path, monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """What ``dday validate PATH --format json`` says, run from ``cwd`` (as the server runs)."""
    monkeypatch.chdir(cwd)
    done = CliRunner().invoke(main, ["validate", str(path), "--format", "json"])
    assert done.exit_code in {0, 1}, done.output
    found: list[dict[str, Any]] = json.loads(done.stdout)
    return found


def position_of(text: str, needle: str, offset: int = 0) -> tuple[int, int]:
    for i, line in enumerate(text.splitlines()):
        if needle in line:
            return i, line.index(needle) + offset
    raise AssertionError(needle)


def test_diagnostics_as_validate_gives_them_and_cleared_when_fixed(session: Session, workdir: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    items = workdir / "field-kitchen" / "cards" / "items.yaml"
    saved = items.read_text()
    broken = saved.replace("use: gain 2 courage", "use: gain 2 corage")
    doc = session.open(items, broken)
    got = session.diagnostics(doc, 1)
    # the same text on disk, in a copy of the pack, checked by dday validate
    (workdir / "disk").mkdir()
    shutil.copytree(workdir / "field-kitchen", workdir / "disk" / "field-kitchen")
    (workdir / "disk" / "field-kitchen" / "cards" / "items.yaml").write_text(broken)
    want = [d for d in validate_json(workdir / "disk" / "field-kitchen", workdir, monkeypatch)
            if d["file"].endswith("cards/items.yaml")]  # (the file's: not PACK015, of the pack's scenarios/ folder)
    assert [(d["code"], d["line"] - 1, d["column"] - 1) for d in want] == [("DSL102", 10, 18)]
    assert [(d.code, d.range.start.line, d.range.start.character) for d in got] == [("DSL102", 10, 18)]
    assert got[0].severity == types.DiagnosticSeverity.Error
    assert got[0].message == f"{want[0]['message']}\nhint: {want[0]['hint']}"
    assert got[0].range.end.character == 18 + len("corage")
    assert items.read_text() == saved  # the unsaved text was checked; nothing was written
    line, col = position_of(broken, "corage")
    fixed = session.edit(doc, line, col, col + len("corage"), "courage")
    assert session.diagnostics(doc, fixed) == []


def test_an_error_in_another_file_of_the_pack(session: Session, workdir: Path) -> None:
    """Every file of the pack is checked with the open ones' unsaved text, and gets its diagnostics whether it is
    open or not: a Specialist that loses his note is reported in his own file, and cleared when the note is back."""
    specialists = workdir / "field-kitchen" / "cards" / "specialists.yaml"
    saved = specialists.read_text()
    without = "\n".join(line for line in saved.splitlines() if not line.startswith("    note: Invented")) + "\n"
    # saved so, and not open: opening another file of the pack reports it
    specialists.write_text(without)
    option = workdir / "field-kitchen" / "rules" / "options" / "hot-meals.yaml"
    seen = len(session.published)
    odoc = session.open(option)
    assert [d.code for d in session.diagnostics(uri(specialists), since=seen)] == ["PROV001"]
    assert session.diagnostics(odoc, 1) == []
    specialists.write_text(saved)
    seen = len(session.published)
    session.client.text_document_did_save(types.DidSaveTextDocumentParams(types.TextDocumentIdentifier(odoc)))
    assert session.diagnostics(uri(specialists), since=seen) == []
    # open, and changed without saving
    doc = session.open(specialists)
    assert session.diagnostics(doc, 1) == []
    version = session.change(doc, without)
    assert [d.code for d in session.diagnostics(doc, version)] == ["PROV001"]
    version = session.change(doc, saved)
    assert session.diagnostics(doc, version) == []


def test_hover_on_a_card_id_and_on_a_word(session: Session, workdir: Path) -> None:
    items = workdir / "field-kitchen" / "cards" / "items.yaml"
    text = items.read_text()
    doc = session.open(items)  # a hover right away waits for the pack's first check
    line, col = position_of(text, "id: hot-coffee", 6)
    card = session.ask(session.client.text_document_hover_async, doc, line, col)
    assert card is not None and isinstance(card.contents, types.MarkupContent)
    shown = card.contents.value
    assert "**Hot Coffee** (`hot-coffee`): Item (regular), 4 Item Points" in shown
    assert "(Example card.) Gain 2 Courage." in shown
    assert "use: gain 2 courage" in shown and "- May be used: gain 2 Courage." in shown
    line, col = position_of(text, "use: gain 2 courage", 6)
    word = session.ask(session.client.text_document_hover_async, doc, line, col)
    assert word is not None and isinstance(word.contents, types.MarkupContent)
    assert "### `gain`" in word.contents.value and "*action* — Gain resources." in word.contents.value
    # a card id in a scenario's set-up
    scenario = workdir / "field-kitchen" / "scenarios" / "cook.yaml"
    sdoc = session.open(scenario)
    line, col = position_of(scenario.read_text(), "specialists: [cook]", 15)
    cook = session.ask(session.client.text_document_hover_async, sdoc, line, col)
    assert cook is not None and isinstance(cook.contents, types.MarkupContent)
    assert "(`cook`): Specialist" in cook.contents.value
    # prose is no reference: no hover on a word of a card's text
    line, col = position_of(text, "(Example card.) Gain 2", 3)
    assert session.ask(session.client.text_document_hover_async, doc, line, col) is None


def test_hover_on_a_card_shows_its_rulebook_and_rulings(session: Session, workdir: Path) -> None:
    """A card's hover cites it as `dday card` does: where the rulebook writes it, and each ruling on it (with the
    query it is about)."""
    scenario = workdir / "field-kitchen" / "scenarios" / "hover-citations.yaml"  # unsaved: never on disk
    text = (workdir / "field-kitchen" / "scenarios" / "cook.yaml").read_text().replace(
        "specialists: [cook]}", "specialists: [cook], items: [grenade]}", 1)
    doc = session.open(scenario, text)
    line, col = position_of(text, "items: [grenade]", 9)
    shown = session.ask(session.client.text_document_hover_async, doc, line, col)
    assert shown is not None and isinstance(shown.contents, types.MarkupContent)
    assert "(`grenade`): Item" in shown.contents.value
    assert ("**rulebook** ITEMS, p. 7  \n**ruling** 5.1: DEF and MGF belong to the Sector (about mgf-dice)  \n"
            "**ruling** 7.3: A silenced or prevented MGF is raised by nothing (about mgf-dice)") in shown.contents.value


def test_hover_on_a_sector_shows_its_rulebook_and_rulings(session: Session) -> None:
    """A Sector's hover in its map file (its own id) cites it as a card's does: where the rulebook writes it, and
    each ruling on it."""
    tiger = Path(__file__).resolve().parents[1] / "maps" / "exercise-tiger.yaml"
    text = tiger.read_text()
    doc = session.open(tiger, text)
    line, col = position_of(text, "- id: s7", len("- id: "))
    shown = session.ask(session.client.text_document_hover_async, doc, line, col)
    assert shown is not None and isinstance(shown.contents, types.MarkupContent)
    assert "**Sector 7** (`s7`): Sector of Exercise Tiger" in shown.contents.value
    assert ("**rulebook** Battle Map N-01 : EXERCISE TIGER  \n**ruling** 7.1: The General's \"only 1 die\" is a "
            "ceiling: \"No dice are Locked here\" stays 0") in shown.contents.value
    session.client.text_document_did_close(types.DidCloseTextDocumentParams(types.TextDocumentIdentifier(doc)))


def test_completion_in_an_effect_and_of_card_ids(session: Session, workdir: Path) -> None:
    items = workdir / "field-kitchen" / "cards" / "items.yaml"
    text = items.read_text()
    doc = session.open(items)
    line, col = position_of(text, "use: gain 2 courage")
    typed = text.replace("use: gain 2 courage", "use: gain 2 co", 1)
    session.change(doc, typed)  # the server reads the text as typed: no need to wait for its check
    end = col + len("use: gain 2 co")
    found = session.ask(session.client.text_document_completion_async, doc, line, end)
    assert isinstance(found, types.CompletionList)
    labels = [i.label for i in found.items]
    assert "courage" in labels and "soldiers" in labels and "hot-coffee" not in labels
    courage = next(i for i in found.items if i.label == "courage")
    assert isinstance(courage.text_edit, types.TextEdit) and courage.text_edit.range.start.character == end - 2
    # an item shown: its whole description, the word's reference entry
    resolved = session.run(session.client.completion_item_resolve_async(courage))
    assert isinstance(resolved.documentation, types.MarkupContent)
    assert "*resource* (Courage)" in resolved.documentation.value
    # a condition on a card: 'has ' takes a card id, the pack's cards among them
    typed = text.replace("use: gain 2 courage", "use if has ", 1)
    session.change(doc, typed)
    found = session.ask(session.client.text_document_completion_async, doc, line, col + len("use if has "))
    assert isinstance(found, types.CompletionList)
    cards = {i.label: i for i in found.items}
    assert cards["hot-coffee"].detail == "item: Hot Coffee" and "medic" in cards and "courage" not in cards
    resolved = session.run(session.client.completion_item_resolve_async(cards["hot-coffee"]))
    assert isinstance(resolved.documentation, types.MarkupContent)
    assert "**Hot Coffee** (`hot-coffee`): Item (regular), 4 Item Points" in resolved.documentation.value
    # right after 'use: ' (a space asks for completion): what a use does, not card ids
    typed = text.replace("use: gain 2 courage", "use: ", 1)
    session.change(doc, typed)
    found = session.ask(session.client.text_document_completion_async, doc, line, col + len("use: "))
    assert isinstance(found, types.CompletionList)
    labels = [i.label for i in found.items]
    assert {"gain", "lose"} <= set(labels) and "hot-coffee" not in labels
    # the first word of a clause: values and permissions among them
    typed = text.replace("use: gain 2 courage", "", 1)
    session.change(doc, typed)
    found = session.ask(session.client.text_document_completion_async, doc, line, col)
    assert isinstance(found, types.CompletionList)
    labels = [i.label for i in found.items]
    assert {"def", "stay", "forbid", "on", "use"} <= set(labels)
    version = session.change(doc, text)
    assert session.diagnostics(doc, version) == []


def test_definition_of_a_card_id(session: Session, workdir: Path) -> None:
    scenario = workdir / "field-kitchen" / "scenarios" / "cook.yaml"
    sdoc = session.open(scenario)
    line, col = position_of(scenario.read_text(), "specialists: [cook]", 15)
    where = session.ask(session.client.text_document_definition_async, sdoc, line, col)
    assert isinstance(where, types.Location)
    specialists = workdir / "field-kitchen" / "cards" / "specialists.yaml"
    assert where.uri == uri(specialists)
    at_line, at_col = position_of(specialists.read_text(), "id: cook", 4)
    assert (where.range.start.line, where.range.start.character) == (at_line, at_col)
    assert where.range.end.character == at_col + len("cook")


def test_a_card_file_outside_any_pack(session: Session, workdir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A single card file is checked on top of the base game, as 'dday validate FILE' checks it."""
    loose = workdir / "loose"
    loose.mkdir()
    card = loose / "stretcher.yaml"
    card.write_text("kind: item\ncards:\n  - id: stretcher\n    name: Stretcher\n    grade: regular\n"
                    "    text: Save 1 Soldier.\n    effect: |\n      use: gain 1 soldierz\n    provenance: rulebook\n")
    doc = session.open(card)
    got = session.diagnostics(doc, 1)
    want = validate_json(card, workdir, monkeypatch)
    assert sorted((d.code, d.range.start.line, d.range.start.character) for d in got) == sorted(
        (d["code"], d["line"] - 1, d["column"] - 1) for d in want)
    assert {d["code"] for d in want} >= {"DSL102", "SCHEMA003"}
    # a YAML file that is no content (a CI workflow, a scenario) is not checked as content
    workflow = loose / "ci.yml"
    workflow.write_text("on: push\njobs: {}\n")
    assert session.diagnostics(session.open(workflow), 1) == []
    scenario = loose / "cards" / "medic.yaml"  # in a folder named cards/, and still a scenario
    scenario.parent.mkdir()
    scenario.write_text("scenario: a Medic\nmap: exercise-tiger\nunits:\n"
                        "  - {id: u1, sector: s1, specialists: [medic]}\nexpect:\n  - u1.specialists: [medic]\n")
    sdoc = session.open(scenario)
    assert session.diagnostics(sdoc, 1) == []
    line, col = position_of(scenario.read_text(), "[medic]", 2)
    medic = session.ask(session.client.text_document_hover_async, sdoc, line, col)
    assert medic is not None and isinstance(medic.contents, types.MarkupContent)
    assert "**Medic** (`medic`): Specialist" in medic.contents.value


def test_a_bundled_content_file(session: Session) -> None:
    """A file of the bundled content is checked in its tree (its unsaved text in place of the saved one); closing
    it clears its diagnostics."""
    items = Path(__file__).resolve().parents[1] / "cards" / "items.yaml"
    saved = items.read_text()
    line, col = position_of(saved, "use: def -7 this turn", len("use: "))
    doc = session.open(items, saved.replace("use: def -7 this turn", "use: deff -7 this turn", 1))
    got = session.diagnostics(doc, 1)
    assert [(d.code, d.range.start.line, d.range.start.character) for d in got] == [("DSL101", line, col)]
    assert "did you mean 'def'?" in got[0].message
    assert items.read_text() == saved
    seen = len(session.published)
    session.client.text_document_did_close(types.DidCloseTextDocumentParams(types.TextDocumentIdentifier(doc)))
    assert session.diagnostics(doc) == [] and len(session.published) > seen


def test_a_scenario_is_run_as_it_is_written(session: Session, workdir: Path) -> None:
    """A scenario is checked and run as ``dday scenario run`` runs it, with its unsaved text: a passing one has
    no diagnostics; a failed expectation is an error at its key (SCEN003: what it expected, what came, and the
    value's derivation); a mistake in the file at its line, as the command gives it; an error that stops the run
    at the step it stopped at (SCEN004)."""
    scenario = workdir / "field-kitchen" / "scenarios" / "cook-as-written.yaml"
    shutil.copy(workdir / "field-kitchen" / "scenarios" / "cook.yaml", scenario)
    saved = scenario.read_text()
    doc = session.open(scenario)
    assert session.diagnostics(doc, 1) == []
    wrong = saved.replace("u1.soldiers: 6 ", "u1.soldiers: 7 ")
    got = session.diagnostics(doc, session.change(doc, wrong))
    line, col = position_of(wrong, "u1.soldiers: 7", len("u1.soldiers: "))
    assert [(d.code, d.range.start.line, d.range.start.character) for d in got] == [("SCEN003", line, col)]
    assert got[0].severity == types.DiagnosticSeverity.Error
    assert got[0].message.startswith("u1.soldiers: expected 7, got 6")
    # a mistake in the file: as the command reports it, at its line
    typo = saved.replace("  - phase: upkeep\n  - phase: upkeep", "  - phase: upkeep\n  - phase: upkep")
    got = session.diagnostics(doc, session.change(doc, typo))
    line, _ = position_of(typo, "phase: upkep")
    assert [(d.code, d.range.start.line, d.range.start.character) for d in got] == [("SCEN001", line, 4)]
    assert got[0].message == "no phase 'upkep' (did you mean 'upkeep'?; phases: roll, upkeep, purchase, movement, " \
        "combat)"
    # a whole game with no fallback player: the script runs out of answers, which stops the run at that step
    ended = saved.replace("  - phase: upkeep\n  - phase: upkeep", "  - phase: upkeep\n  - game")
    got = session.diagnostics(doc, session.change(doc, ended))
    line, col = position_of(ended, "- game", 2)
    assert [(d.code, d.range.start.line, d.range.start.character) for d in got] == [("SCEN004", line, col)]
    assert got[0].message.startswith("the scenario stopped: the script has no answer left for lock (u2)")
    assert session.diagnostics(doc, session.change(doc, saved)) == []
    assert scenario.read_text() == saved  # nothing written


def test_a_scenario_that_checks_nothing_is_a_warning_in_the_editor(session: Session, workdir: Path) -> None:
    """As dday scenario run says it: a scenario with no check passes whatever the rules do (SCEN005, a warning at
    its expect:, or at its start without one)."""
    scenario = workdir / "field-kitchen" / "scenarios" / "checks-nothing.yaml"
    scenario.write_text("scenario: nothing to check\nmap: exercise-tiger\nunits:\n  - {id: u1, sector: s1, "
                        "soldiers: 8}\nexpect: []\n")
    doc = session.open(scenario)
    got = session.diagnostics(doc, 1)
    assert [(d.code, d.range.start.line, d.severity) for d in got] == [
        ("SCEN005", 4, types.DiagnosticSeverity.Warning)]
    assert got[0].message.startswith("this scenario checks nothing")
    fixed = scenario.read_text().replace("expect: []", "expect:\n  - u1.soldiers: 8")
    assert session.diagnostics(doc, session.change(doc, fixed)) == []


def test_hover_on_a_scenarios_check_shows_what_its_run_gave(session: Session, workdir: Path) -> None:
    """After a run, hovering an expectation shows the value the run gave, whether it is the one expected, and a
    query's derivation contribution by contribution (as dday explain prints it); a card id on the line keeps its
    own hover."""
    scenario = workdir / "field-kitchen" / "scenarios" / "field-stove-query.yaml"
    text = scenario.read_text()
    doc = session.open(scenario)
    assert session.diagnostics(doc, 1) == []
    line, col = position_of(text, "query mgf-dice for u1: 1", 4)
    shown = session.ask(session.client.text_document_hover_async, doc, line, col)
    assert shown is not None and isinstance(shown.contents, types.MarkupContent)
    value = shown.contents.value
    assert value.startswith("**`query mgf-dice for u1`** after the steps: `1` (as expected)"), value
    assert "Field Stove (Unit 1): add -1: 2 -> 1" in value and "mgf-dice for Unit 1, Sector 14: base 2" in value
    line, col = position_of(text, "u1.items: []", 2)
    shown = session.ask(session.client.text_document_hover_async, doc, line, col)
    assert shown is not None and isinstance(shown.contents, types.MarkupContent)
    assert shown.contents.value == "**`u1.items`** after the steps: `[]` (as expected)"
    wrong = text.replace("query mgf-dice for u1: 1", "query mgf-dice for u1: 2")
    session.diagnostics(doc, session.change(doc, wrong))
    line, col = position_of(wrong, "query mgf-dice for u1: 2", 4)
    shown = session.ask(session.client.text_document_hover_async, doc, line, col)
    assert shown is not None and isinstance(shown.contents, types.MarkupContent)
    assert shown.contents.value.startswith("**`query mgf-dice for u1`** after the steps: `1` (**expected** `2`)")
    line, col = position_of(text, "items: [field-stove]", 9)  # a card id: the card, not the check
    card = session.ask(session.client.text_document_hover_async, doc, line, col)
    assert card is not None and isinstance(card.contents, types.MarkupContent)
    assert "(`field-stove`): Item" in card.contents.value


def test_completion_of_a_scenarios_checks(session: Session, workdir: Path) -> None:
    """Under ``expect:``, the key of a check being typed is completed whole: each Unit's fields (``u2.soldiers``),
    ``query NAME for UNIT`` and the game's own checks; elsewhere in the file, what the key there takes."""
    scenario = workdir / "field-kitchen" / "scenarios" / "cook-completed.yaml"
    shutil.copy(workdir / "field-kitchen" / "scenarios" / "cook.yaml", scenario)
    text = scenario.read_text()
    typed = text.replace("  - u1.specialists: [cook]", "  - u1.specialists: [cook]\n  - u2.so")
    doc = session.open(scenario, typed)
    line, col = position_of(typed, "  - u2.so", len("  - u2.so"))
    found = session.ask(session.client.text_document_completion_async, doc, line, col)
    assert isinstance(found, types.CompletionList)
    items = {i.label: i for i in found.items}
    assert {"u1.soldiers", "u2.soldiers", "u2.specialists", "query def for u1", "outcome"} <= set(items)
    edit = items["u2.soldiers"].text_edit
    assert isinstance(edit, types.TextEdit) and (edit.range.start.character, edit.range.end.character) == (4, col)
    # under steps: no check keys
    line, col = position_of(typed, "  - phase: upkeep", 4)
    found = session.ask(session.client.text_document_completion_async, doc, line, col)
    assert isinstance(found, types.CompletionList) and "u2.soldiers" not in {i.label for i in found.items}


def test_a_scenario_tries_the_card_being_written(session: Session, workdir: Path) -> None:
    """The packs a scenario names are loaded with the open documents' unsaved texts: a change to a card, not yet
    saved, makes the open scenario that checks it fail at once, and saving nothing, putting it back clears it."""
    scenario = workdir / "field-kitchen" / "scenarios" / "cook-tries-the-card.yaml"
    shutil.copy(workdir / "field-kitchen" / "scenarios" / "cook.yaml", scenario)
    specialists = workdir / "field-kitchen" / "cards" / "specialists.yaml"
    sdoc = session.open(scenario)
    assert session.diagnostics(sdoc, 1) == []
    saved = specialists.read_text()
    cdoc = session.open(specialists)
    seen = len(session.published)
    session.change(cdoc, saved.replace("on upkeep: gain 1 soldier", "on upkeep: gain 2 soldier", 1))
    got = published_until(session, sdoc, seen, bool)
    assert [d.code for d in got] == ["SCEN003"] and got[0].message.startswith("u1.soldiers: expected 6, got 8")
    seen = len(session.published)
    session.change(cdoc, saved)
    assert published_until(session, sdoc, seen, lambda found: not found) == []
    assert specialists.read_text() == saved
    seen = len(session.published)  # closed unsaved: the scenario reads the saved card again
    session.change(cdoc, saved.replace("on upkeep: gain 1 soldier", "on upkeep: gain 2 soldier", 1))
    assert published_until(session, sdoc, seen, bool)
    seen = len(session.published)
    session.client.text_document_did_close(types.DidCloseTextDocumentParams(types.TextDocumentIdentifier(cdoc)))
    assert published_until(session, sdoc, seen, lambda found: not found) == []


def published_until(session: Session, doc: str, since: int, wanted: Callable[[list[types.Diagnostic]], bool]
                    ) -> list[types.Diagnostic]:
    """The first diagnostics published for ``doc`` after the ``since``-th notification that are as wanted (a
    scenario is checked again for each change of a content file, so some publications come between)."""

    async def wait() -> list[types.Diagnostic]:
        while True:
            for p in session.published[since:]:
                if p.uri == doc and wanted(list(p.diagnostics)):
                    return list(p.diagnostics)
            await asyncio.sleep(0.02)

    return session.run(wait())


def test_a_scenario_whose_packs_do_not_load(session: Session, workdir: Path) -> None:
    """A scenario naming a pack that does not load: SCEN002 at its ``packs:``, naming the pack's first error (in
    another file) in full; an unknown map gets the suggestion the command gives."""
    loose = workdir / "scenarios-elsewhere"
    loose.mkdir()
    scenario = loose / "medic.yaml"
    scenario.write_text("scenario: a Medic\nmap: exercise-tigre\nunits:\n  - {id: u1, sector: s1}\n")
    doc = session.open(scenario)
    got = session.diagnostics(doc, 1)
    assert [(d.code, d.range.start.line) for d in got] == [("SCEN001", 1)] or "exercise-tiger" in got[0].message
    assert "did you mean 'exercise-tiger'?" in got[0].message
    broken = workdir / "broken-pack"
    shutil.copytree(workdir / "field-kitchen", broken)
    items = broken / "cards" / "items.yaml"
    items.write_text(items.read_text().replace("use: gain 2 courage", "use: gain 2 corage"))
    text = ("scenario: a Medic\nmap: exercise-tiger\npacks: [../broken-pack]\nunits:\n  - {id: u1, sector: s1}\n")
    got = session.diagnostics(doc, session.change(doc, text))
    assert [(d.code, d.range.start.line) for d in got] == [("SCEN002", 2)]
    assert "DSL102" in got[0].message and "items.yaml:11:" in got[0].message, got[0].message


# ------------------------------------------------------------------ in process
def test_the_overlay_changes_what_a_file_says_not_which_files_are_read(tmp_path: Path) -> None:
    """docs/security.md: the editor's text is used for a file the loader reads anyway, after the sandbox's checks,
    within the size limit."""
    from ddaydice.dsl.limits import MAX_FILE_BYTES
    from ddaydice.dsl.validate import validate

    pack = tmp_path / "field-kitchen"
    shutil.copytree(EXAMPLE, pack)
    outside = tmp_path / "elsewhere.yaml"
    outside.write_text("kind: item\ncards: []\n")
    (pack / "cards" / "link.yaml").symlink_to(outside)
    items = pack / "cards" / "items.yaml"
    text = items.read_text()
    overlay = {
        items: text.replace("Hot Coffee", "Hot Tea", 1),  # read: its text is the editor's
        pack / "cards" / "link.yaml": "not: read",  # a link leading outside: refused, its editor text ignored
        pack / "cards" / "new.yaml": "kind: item\ncards: []\n",  # no such file: not added
    }
    content, diags = validate([pack], overlay=overlay)
    assert content is None and [d.code for d in diags] == ["PACK010"]
    (pack / "cards" / "link.yaml").unlink()
    content, diags = validate([pack], overlay=overlay)
    assert content is not None and content.cards["hot-coffee"].name == "Hot Tea"
    assert items.read_text() == text
    content, diags = validate([pack], overlay={items: text + "#" * MAX_FILE_BYTES})
    assert content is None and [d.code for d in diags] == ["LOAD005"]


def test_where_the_cursor_stands() -> None:
    from ddaydice.interpreter.tools.lsp.complete import expected
    from ddaydice.interpreter.tools.lsp.text import in_effect, is_value, key_of, token_at

    lines = ["kind: item", "cards:", "  - id: cook", "    text: The cook feeds you.", "    effect: |",
             "      use before mgf:", "        gain 2 courage", "", "    only-in: [hot-meals]", "units:",
             "  - {id: u1, sector: s4, visited: [s1, s2]}", "  - visited:", "      - s4",
             "    rules: forbid stay"]
    assert [in_effect(lines, i, 8) for i in range(len(lines))] == [
        False, False, False, False, False, True, True, True, False, False, False, False, False, False]
    assert in_effect(lines, 13, 15) and not in_effect(lines, 13, 6)
    # 'use: ' as typed (a one-word clause ending in ':', as a YAML key would) is effect text in its block, where
    # completion offers the words of an effect rather than card ids; a key after the block is not
    typing = ["kind: item", "cards:", "  - id: cook", "    effect: |", "      use: ", "    cost: 2", "  - id: tea",
              "    effect: |", "      on upkeep: gain 1 courage", "      use:"]
    assert [in_effect(typing, i, 11) for i in range(len(typing))] == [
        False, False, False, False, True, False, False, False, True, True]
    assert key_of(lines, 10, 22) == "sector" and key_of(lines, 10, 37) == "visited"
    assert key_of(lines, 12, 9) == "visited"
    assert key_of(lines, 8, 17) == "only-in"
    cook = token_at(lines, 2, 9)
    prose = token_at(lines, 3, 15)
    assert cook is not None and cook.text == "cook" and is_value(lines, cook)
    assert prose is not None and prose.text == "cook" and not is_value(lines, prose)
    assert expected("use: gain 2 ") == ("resource",)
    assert expected("on ") == ("event",)
    assert expected("use if has ") == ("card",)
    assert expected("use: reroll 1 die ") == ("filter",)
    assert expected("gain 3 soldiers per ") == ("counter",)


@pytest.mark.parametrize(("before", "kinds"), [
    ("use: def -2 until ", ("event",)),                # the event that ends an 'until' duration
    ("use after final-tally: reface 1 die skull as ", ("face",)),  # the face a card names
    ("on ", ("event",)),
])
def test_completion_knows_the_newer_words(before: str, kinds: tuple[str, ...]) -> None:
    from ddaydice.interpreter.tools.lsp.complete import expected

    assert expected(before) == kinds
