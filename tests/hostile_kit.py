"""What the hostile-input corpus shares (tests/test_hostile_*.py): a temporary world with a secret outside the
pack, a small content tree, a clean pack to break, and the checks every case makes.

Every case runs the real ``dday`` command line (click's CliRunner, in process) on real files in a temporary
folder, and checks: the exit status; a located message (``file:line:col: CODE``) or a usage error naming the
argument; no traceback; that the secret written outside the pack (and outside the current folder) never appears in
the output; and that nothing outside the temporary folder's working part was written.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import attrs
import pytest
from click.testing import CliRunner, Result

from ddaydice.dsl.places import bundled_root
from ddaydice.interpreter.cli import main

SECRET = "TOPSECRET-7f3a9c-hunter2"
# A second line of a file inside the pack: a diagnostic may show one line of a pack's file, never two.
SECOND_LINE = "SECOND-LINE-NEVER-SHOWN"

PACK_YAML = """\
id: pack
name: A Test Pack
version: "1.0"
text: A pack for the hostile-input corpus.
provenance: reconstructed
note: Invented for the tests.
requires: []
adds: [specialists]
"""

CARDS_YAML = """\
kind: specialist
cards:
  - id: cook
    name: Cook
    grade: unique
    cost: 3
    text: At each Upkeep, your Unit gains 1 Soldier.
    effect: |
      on upkeep: gain 1 soldier
    provenance: reconstructed
    note: Invented for the tests.
"""

MAP_YAML = """\
id: test-map
name: Test Map
provenance: reconstructed
note: Invented for the tests.
players: [1, 4]
sectors:
  - id: s1
    number: 1
    name: Sector 1
    row: 1
    def: [2]
    start: {soldiers: 4, stars: 0, courage: 1, item-points: 0}
    provenance: reconstructed
  - id: s2
    number: 2
    name: Sector 2
    row: 2
    def: [3]
    mgf: 1
    bunker: true
    provenance: reconstructed
lines:
  - {from: [s1], to: [s2], kind: advance, cost: 1}
"""

OPTION_YAML = """\
id: test-rule
name: Test Rule
text: Nothing changes.
provenance: reconstructed
note: Invented for the tests.
"""

LOCATED = re.compile(r"^\S.*?:\d+:\d+: ([A-Z]+\d{3}) ", re.MULTILINE)


@attrs.define
class World:
    """The temporary world of one case: ``work`` is the current folder; ``outside`` (beside it) holds the
    secrets; ``tree`` is a small content tree (the bundled rules) and ``pack`` a clean pack to break."""

    base: Path
    work: Path
    outside: Path
    tree: Path
    pack: Path
    before: dict[str, str]

    def run(self, *args: str) -> Result:
        return CliRunner().invoke(main, list(args), prog_name="dday")

    def validate(self, *paths: str) -> Result:
        """``dday validate --root TREE PATH...`` (the pack by default)."""
        return self.run("validate", "--root", str(self.tree), *(paths or (str(self.pack),)))


def snapshot(folder: Path) -> dict[str, str]:
    """Every file under ``folder`` (links not followed) with a digest of its content or its link's target."""
    out: dict[str, str] = {}
    for dirpath, dirnames, files in os.walk(folder, followlinks=False):
        for name in [*files, *dirnames]:
            p = Path(dirpath) / name
            if p.is_symlink():
                out[str(p)] = "link:" + str(p.readlink())
            elif p.is_file():
                out[str(p)] = hashlib.sha256(p.read_bytes()).hexdigest()
    return out


def write_outside(outside: Path) -> None:
    """The secrets a hostile pack, scenario or replay tries to reach: files and a pack folder outside."""
    outside.mkdir()
    (outside / "secret.yaml").write_text(f"password: {SECRET}\nkey: {SECRET}\n", encoding="utf-8")
    (outside / "secret.txt").write_text(f"{SECRET}\n{SECRET} line two\n", encoding="utf-8")
    cards = outside / "cards"
    cards.mkdir()
    (cards / "secret.yaml").write_text(f"{SECRET}: [\n", encoding="utf-8")
    evil = outside / "evil"
    (evil / "cards").mkdir(parents=True)
    (evil / "pack.yaml").write_text(PACK_YAML.replace("id: pack", "id: evil").replace("A Test Pack", SECRET),
                                    encoding="utf-8")
    (evil / "cards" / "x.yaml").write_text(f"{SECRET}\n", encoding="utf-8")


def make_pack(pack: Path) -> None:
    """A clean pack: it validates with exit 0 on the small tree."""
    (pack / "cards").mkdir(parents=True)
    (pack / "maps").mkdir()
    (pack / "rules" / "options").mkdir(parents=True)
    (pack / "scenarios").mkdir()
    (pack / "pack.yaml").write_text(PACK_YAML, encoding="utf-8")
    (pack / "cards" / "specialists.yaml").write_text(CARDS_YAML, encoding="utf-8")


@pytest.fixture(scope="session")
def small_tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A content tree with the bundled rules and nothing else (fast to load)."""
    root = tmp_path_factory.mktemp("tree")
    shutil.copytree(bundled_root() / "rules", root / "rules")
    return root


@pytest.fixture
def world(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, small_tree: Path) -> Iterator[World]:
    base = tmp_path
    work = base / "work"
    work.mkdir()
    write_outside(base / "outside")
    pack = work / "pack"
    make_pack(pack)
    monkeypatch.chdir(work)
    w = World(base, work, base / "outside", small_tree, pack, snapshot(base / "outside"))
    tree_before = snapshot(small_tree)
    yield w
    assert snapshot(base / "outside") == w.before, "something outside the working folder was written"
    assert snapshot(small_tree) == tree_before, "the content tree was written"


def check(result: Result, status: int, codes: tuple[str, ...] = (), *, file: str | None = None,
          text: tuple[str, ...] = ()) -> None:
    """The checks every hostile case makes (see the module's docstring)."""
    out = result.output
    assert "Traceback" not in out, out
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert SECRET not in out, out
    assert SECOND_LINE not in out, out
    assert result.exit_code == status, out
    found = LOCATED.findall(out)
    for code in codes:
        assert code in found, f"expected a located {code} in:\n{out}"
    if status == 1 and not codes and not text:
        assert found, f"expected a located message in:\n{out}"
    if file is not None:
        assert re.search(rf"^{re.escape(file)}:\d+:\d+: ", out, re.MULTILINE), f"expected {file}:L:C in:\n{out}"
    for t in text:
        assert t in out, f"expected {t!r} in:\n{out}"
    for line in out.splitlines():  # nothing a terminal would interpret
        assert not any(ord(c) < 32 and c != "\t" for c in line), repr(line)
        assert not any(c in line for c in "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"), repr(line)


Mutation = Callable[[World], None]
