"""`dday validate` remembers a run over unchanged files (interpreter/tools/validate_cache.py): the same output
again at once, saying so; any change to a file it reads, a new file, other options or another engine checks
afresh; a damaged or unwritable cache never changes what is reported."""

from __future__ import annotations

import json
import os
import queue
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from ddaydice.dsl.loading import reading
from ddaydice.dsl.places import bundled_root
from ddaydice.interpreter.cli import main
from ddaydice.interpreter.tools import validate_cache

REMEMBERED = "(remembered: no file changed since it was checked; --no-cache checks again)"
GOOD = """\
kind: item
cards:
  - id: field-stove
    name: Field Stove
    text: Hot food.
    provenance: reconstructed
    note: ours
    cost: 2
    effect: |
      use: gain 1 courage
"""


def dday(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


@pytest.fixture
def tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A content tree of the bundled rules and one card file, validated from its own folder."""
    shutil.copytree(bundled_root() / "rules", tmp_path / "rules")
    (tmp_path / "cards").mkdir()
    (tmp_path / "cards" / "items.yaml").write_text(GOOD, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def entries() -> list[Path]:
    return sorted(validate_cache.folder().glob("*.json"))


def test_a_run_over_unchanged_files_is_remembered(tree: Path) -> None:
    first = dday("validate", "--root", ".")
    assert first.exit_code == 0, first.output
    assert REMEMBERED not in first.output and len(entries()) == 1
    again = dday("validate", "--root", ".")
    assert again.exit_code == 0 and REMEMBERED in again.output, again.output
    assert again.output.split(" checked in ")[0] == first.output.split(" checked in ")[0]


def test_errors_are_remembered_whole_and_in_every_format(tree: Path) -> None:
    (tree / "cards" / "items.yaml").write_text(GOOD.replace("gain 1 courage", "gain 1 couragee"), encoding="utf-8")
    first = dday("validate", "--root", ".")
    again = dday("validate", "--root", ".")
    assert first.exit_code == again.exit_code == 1
    assert "DSL" in first.output and again.output.replace(" " + REMEMBERED, "") == first.output
    as_json = dday("validate", "--root", ".", "--format", "json")  # the same run: its diagnostics as JSON
    assert as_json.exit_code == 1 and json.loads(as_json.output)[0]["code"] == json.loads(
        dday("validate", "--root", ".", "--format", "json", "--no-cache").output)[0]["code"]


@pytest.mark.parametrize("change", ["edit", "same-size-edit", "new-file", "remove-file", "new-folder"])
def test_any_change_to_the_tree_checks_afresh(tree: Path, change: str) -> None:
    assert dday("validate", "--root", ".").exit_code == 0
    card = tree / "cards" / "items.yaml"
    if change == "edit":
        card.write_text(GOOD.replace("gain 1 courage", "gain 1 couragee"), encoding="utf-8")
    elif change == "same-size-edit":  # one letter for another, the file's time set back: only its bytes differ
        before = card.stat()
        card.write_text(GOOD.replace("gain 1 courage", "gain 1 courxge"), encoding="utf-8")
        os.utime(card, ns=(before.st_atime_ns, before.st_mtime_ns))
        assert (card.stat().st_size, card.stat().st_mtime_ns) == (before.st_size, before.st_mtime_ns)
    elif change == "new-file":
        (tree / "cards" / "more.yaml").write_text("kind: item\ncards: [}\n", encoding="utf-8")
    elif change == "remove-file":
        card.unlink()
    else:
        (tree / "maps").mkdir()
        (tree / "maps" / "broken.yaml").write_text("id: [\n", encoding="utf-8")
    result = dday("validate", "--root", ".")
    assert REMEMBERED not in result.output, result.output
    assert result.exit_code == (0 if change == "remove-file" else 1), result.output


def test_other_options_and_another_engine_are_other_runs(tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert dday("validate", "--root", ".").exit_code == 0
    (tree / "extra").mkdir()
    (tree / "extra" / "pack.yaml").write_text("id: extra\nname: Extra\nversion: '1.0'\ntext: A pack.\n"
                                              "provenance: reconstructed\nnote: ours\n", encoding="utf-8")
    assert REMEMBERED not in dday("validate", "--root", ".", "--pack", "./extra").output
    monkeypatch.setattr(validate_cache, "_version", lambda name: "another")  # other versions of the libraries
    assert REMEMBERED not in dday("validate", "--root", ".").output
    monkeypatch.setattr(validate_cache, "CACHE_VERSION", validate_cache.CACHE_VERSION + 1)
    assert REMEMBERED not in dday("validate", "--root", ".").output


def test_no_cache_neither_reads_nor_writes(tree: Path) -> None:
    for _ in range(2):
        result = dday("validate", "--root", ".", "--no-cache")
        assert result.exit_code == 0 and REMEMBERED not in result.output
    assert entries() == []


def test_a_damaged_or_unwritable_cache_changes_nothing(tree: Path) -> None:
    assert dday("validate", "--root", ".").exit_code == 0
    [entry] = entries()
    entry.write_text("{not json", encoding="utf-8")
    result = dday("validate", "--root", ".")
    assert result.exit_code == 0 and REMEMBERED not in result.output  # checked afresh, and remembered again
    assert REMEMBERED in dday("validate", "--root", ".").output
    entry.write_text(json.dumps({"version": -1}), encoding="utf-8")  # another format
    assert REMEMBERED not in dday("validate", "--root", ".").output
    shutil.rmtree(validate_cache.folder())
    validate_cache.folder().parent.joinpath("validate").write_text("a file where the folder goes", encoding="utf-8")
    result = dday("validate", "--root", ".")
    assert result.exit_code == 0 and REMEMBERED not in result.output, result.output


def test_the_oldest_entries_go(tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(validate_cache, "MAX_ENTRIES", 2)
    for n in range(4):
        (tree / "cards" / "items.yaml").write_text(GOOD.replace("gain 1", f"gain {n + 1}"), encoding="utf-8")
        assert dday("validate", "--root", ".").exit_code == 0
    assert len(entries()) == 2


def test_a_tree_too_large_to_walk_is_not_remembered(tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(validate_cache, "MAX_WALK", 5)
    for _ in range(2):
        result = dday("validate", "--root", ".")
        assert result.exit_code == 0 and REMEMBERED not in result.output
    assert entries() == []


def test_a_pack_path_is_remembered_with_its_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A card file of a pack is checked with the pack it lies in: a change anywhere in that pack is a new run."""
    pack = tmp_path / "kitchen"
    shutil.copytree(Path(__file__).resolve().parent.parent / "docs" / "example-pack", pack)
    monkeypatch.chdir(tmp_path)
    card_file = next(pack.rglob("cards/*.yaml"))
    first = dday("validate", str(card_file))
    assert first.exit_code == 0, first.output
    assert REMEMBERED in dday("validate", str(card_file)).output
    manifest = next(pack.rglob("pack.yaml"))
    manifest.write_text(manifest.read_text(encoding="utf-8") + "# a comment\n", encoding="utf-8")
    assert REMEMBERED not in dday("validate", str(card_file)).output


def _pack(folder: Path, pack_id: str, requires: str = "", card: str = "") -> Path:
    """A pack folder ``folder/pack_id``, requiring ``requires`` (an id) and holding ``card`` as its Items."""
    pack = folder / pack_id
    (pack / "cards").mkdir(parents=True)
    (pack / "pack.yaml").write_text(
        f"id: {pack_id}\nname: {pack_id}\nversion: '1'\ntext: A test pack.\nprovenance: reconstructed\n"
        f"note: a test\nrequires: [{requires}]\n", encoding="utf-8")
    if card:
        (pack / "cards" / "items.yaml").write_text(card, encoding="utf-8")
    return pack


@pytest.mark.parametrize("how", ["requires", "pack-path"])
def test_a_change_to_a_pack_the_load_reached_checks_afresh(tree: Path, how: str,
                                                           tmp_path_factory: pytest.TempPathFactory) -> None:
    """The packs a load reaches beyond its PATHs (a pack's ``requires:``, ``--pack PATH``) are part of what a run
    depends on: a change to one of their files is a new run, never the old one remembered."""
    packs = tmp_path_factory.mktemp("packs")  # (outside the content tree, which is walked whole)
    _pack(packs, "ba", requires="bb" if how == "requires" else "")
    other = _pack(packs, "bb", card=GOOD.replace("field-stove", "hot-stove"))
    args = ["validate", "--root", ".", str(packs / "ba"), *(["--pack", str(other)] if how == "pack-path" else [])]
    first = dday(*args)
    assert first.exit_code == 0 and "2 expansions" in first.output, first.output
    assert REMEMBERED in dday(*args).output
    (other / "cards" / "items.yaml").write_text(GOOD.replace("field-stove", "hot-stove").replace(
        "gain 1 courage", "gain 1 corage"), encoding="utf-8")
    broken = dday(*args)
    assert broken.exit_code == 1 and "DSL102" in broken.output and REMEMBERED not in broken.output, broken.output
    (other / "cards" / "items.yaml").write_text(GOOD.replace("field-stove", "hot-stove"), encoding="utf-8")
    mended = dday(*args)
    assert mended.exit_code == 0 and "DSL102" not in mended.output, mended.output
    (other / "cards" / "more.yaml").write_text("kind: item\ncards: [}\n", encoding="utf-8")  # a new file there
    assert dday(*args).exit_code == 1


def test_a_load_remembered_in_process_compares_the_packs_it_required(
        tree: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    """``load_cached`` (one load, many games) compares every file its load read: a pack brought by ``requires:``
    changed since is loaded again."""
    from ddaydice.dsl.loader import load_cached

    packs = tmp_path_factory.mktemp("packs")
    _pack(packs, "ba", requires="bb")
    other = _pack(packs, "bb", card=GOOD.replace("field-stove", "hot-stove"))
    content, _ = load_cached(tree, packs=[str(packs / "ba")])
    assert content is not None and "hot-stove" in content.cards
    (other / "cards" / "items.yaml").write_text(GOOD.replace("field-stove", "hot-stove").replace(
        "gain 1 courage", "gain 1 corage"), encoding="utf-8")
    content, diags = load_cached(tree, packs=[str(packs / "ba")])
    assert content is None and [d.code for d in diags if d.severity == "error"] == ["DSL102"]


def _default_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _ignored_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class _Watch:
    """`dday validate --watch` in a real process over ``tree``, its output read line by line as it comes."""

    def __init__(self, tree: Path, cache: Path, preexec: Callable[[], None]) -> None:
        env = {**os.environ, "XDG_CACHE_HOME": str(cache)}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "ddaydice.interpreter.cli", "validate", "--root", ".", "--watch"], cwd=tree,
            env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
            preexec_fn=preexec)  # noqa: PLW1509 (it only sets one signal's disposition)
        self.lines: queue.Queue[str] = queue.Queue()
        self.read: list[str] = []
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        for line in self.proc.stdout or ():
            self.lines.put(line)

    def until(self, text: str) -> list[str]:
        """The lines that come up to the first holding ``text``."""
        seen: list[str] = []
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                seen.append(self.lines.get(timeout=1))
            except queue.Empty:
                continue
            self.read.append(seen[-1])
            if text in seen[-1]:
                return seen
        raise AssertionError(f"no {text!r} in {seen}")

    def end(self, signum: int) -> str:
        """Send the signal; the rest of the output once the process has ended."""
        self.proc.send_signal(signum)
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            raise
        self.reader.join(timeout=30)  # (the output's end: the reader has put every line)
        rest: list[str] = []
        while not self.lines.empty():
            rest.append(self.lines.get())
        return "".join(rest)


def test_watch_checks_again_when_a_file_changes(tree: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    """`dday validate --watch`, a real process: the first check, then another each time a file is saved, then
    Ctrl-C ends it with status 0."""
    # (Ctrl-C as at a terminal: a suite started in the background, as a CI runner may, passes SIGINT ignored to its
    # children, and a Python started so never raises KeyboardInterrupt)
    watch = _Watch(tree, tmp_path_factory.mktemp("watch-cache"), _default_sigint)
    rest = ""
    try:
        first = watch.until(" effects checked in ")
        assert first[0].startswith("-- ") and first[0].rstrip().endswith("dday validate"), first
        (tree / "cards" / "items.yaml").write_text(GOOD.replace("gain 1 courage", "gain 1 couragee"),
                                                   encoding="utf-8")
        changed = watch.until("error(s)")
        assert any("(a file changed)" in line for line in changed), changed
        assert any("DSL102" in line and "couragee" in line for line in changed), changed
        (tree / "cards" / "items.yaml").write_text(GOOD, encoding="utf-8")
        assert any("remembered" in line for line in watch.until(" effects checked in ")), "the first run, remembered"
    finally:
        rest = watch.end(signal.SIGINT)
    assert watch.proc.returncode == 0
    assert "-- watch ended" in rest
    assert "Traceback" not in "".join(watch.read) + rest


def test_sigterm_ends_a_watch_started_in_the_background(tree: Path,
                                                        tmp_path_factory: pytest.TempPathFactory) -> None:
    """A watch started in the background (SIGINT ignored, so Ctrl-C cannot reach it) ends on SIGTERM, with status 0
    and its last line, as on Ctrl-C."""
    watch = _Watch(tree, tmp_path_factory.mktemp("watch-cache"), _ignored_sigint)
    try:
        watch.until(" effects checked in ")
    finally:
        rest = watch.end(signal.SIGTERM)
    assert watch.proc.returncode == 0, rest
    assert "-- watch ended" in rest
    assert "Traceback" not in "".join(watch.read) + rest


def test_a_file_left_unread_beyond_the_content_limit_is_part_of_the_run(
        tree: Path, tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """A file not read because the content read came to more than MAX_CONTENT_BYTES (LOAD008) is part of what the
    run depends on: made smaller, in a pack reached through ``--pack PATH``, it is checked afresh."""
    packs = tmp_path_factory.mktemp("packs")
    _pack(packs, "ba")
    other = _pack(packs, "bb", card=GOOD.replace("field-stove", "hot-stove") + "#\n" * 30_000)
    monkeypatch.setattr(reading, "MAX_CONTENT_BYTES", sum(p.stat().st_size for p in tree.rglob("*.yaml")) + 10_000)
    args = ["validate", "--root", ".", str(packs / "ba"), "--pack", str(other)]
    first = dday(*args)
    assert first.exit_code == 1 and "LOAD008" in first.output, first.output
    (other / "cards" / "items.yaml").write_text(GOOD.replace("field-stove", "hot-stove"), encoding="utf-8")
    again = dday(*args)
    assert again.exit_code == 0 and REMEMBERED not in again.output, again.output
