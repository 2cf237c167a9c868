"""The ``dday`` command line at its simplest: help, version, validate and list."""

from __future__ import annotations

import errno
import io
import json
import re
import shutil
import subprocess
import sys
import unicodedata
from importlib.metadata import version
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from ddaydice.dsl.loader import load
from ddaydice.dsl.places import bundled_root
from ddaydice.interpreter.cli import main

PROVENANCES = {"rulebook", "printed-board", "reconstructed"}
KINDS = {"specialist", "item", "vehicle", "award", "map", "optional-rule", "expansion"}

CARDS = """\
kind: specialist
cards:
  - id: medic
    name: Medic
    cost: 4
    text: Saves 1 Soldier in each Phase.
    effect: |
      casualties -1 once per phase
    provenance: rulebook
  - id: decoy
    name: Decoy
    cost: 2
    text: May be sacrificed instead of another Specialist.
    effect: |
      on specialist-lost: die-instead
    provenance: reconstructed
    note: the wording is ours
"""


def dday(*args: str) -> Result:
    return CliRunner().invoke(main, list(args), prog_name="dday", catch_exceptions=False)


def rules_only(root: Path) -> Path:
    """A content tree with the bundled rules and nothing else."""
    shutil.copytree(bundled_root() / "rules", root / "rules")
    return root


def test_help_lists_the_commands() -> None:
    result = dday("--help")
    assert result.exit_code == 0
    assert result.output.startswith("Usage: dday [OPTIONS] COMMAND [ARGS]...")
    commands = re.findall(r"^  ([a-z-]+)  ", result.output.split("Commands:", 1)[1], flags=re.MULTILINE)
    assert {"validate", "list"} <= set(commands)
    assert dday("-h").output == result.output


def test_validate_help_names_its_options() -> None:
    result = dday("validate", "--help")
    assert result.exit_code == 0
    for option in ("--root", "--format", "--max-errors"):
        assert option in result.output


def test_version() -> None:
    result = dday("--version")
    assert result.exit_code == 0
    assert result.output == f"dday, version {version('ddaydice')}\n"


def test_validate_rules_only_tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(rules_only(tmp_path))
    result = dday("validate", "--root", ".")
    assert result.exit_code == 0, result.output
    assert re.fullmatch(r"ok: 0 cards, 0 maps, \d+ optional rules, 0 expansions, \d+ effects checked in "
                        r"\d+\.\d\ds\n(note: .*\n)?", result.output), result.output


def test_validate_bundled_content_is_clean() -> None:
    result = dday("validate")
    assert result.exit_code == 0, result.output
    summary = re.search(r"^ok: (\d+) cards, (\d+) maps, \d+ optional rules, (\d+) expansions", result.output,
                        flags=re.MULTILINE)
    assert summary is not None, result.output
    cards, maps, _packs = (int(n) for n in summary.groups())
    assert cards > 0 and maps > 0


def test_validate_bundled_content_as_json_is_an_empty_list() -> None:
    result = dday("validate", "--format", "json")
    assert result.exit_code == 0, result.output
    assert [d for d in json.loads(result.output) if d["severity"] == "error"] == []


@pytest.mark.parametrize(("args", "said"), [
    (["validate", "no-such-pack-folder", "--format", "json"], "no such file or folder: no-such-pack-folder"),
    (["validate", "--pack", "no-such-pack", "--format=json"], "Invalid value for '--pack': 'no-such-pack'"),
    (["conflicts", "--format", "json", "no-such-pack-folder"], "no such file or folder: no-such-pack-folder"),
])
def test_a_usage_error_asked_for_json_prints_a_json_error(args: list[str], said: str) -> None:
    """With --format json, a usage error (exit 2) prints a JSON object on standard output as well as its message on
    standard error: a machine reading the output reads JSON whatever the exit status."""
    result = CliRunner().invoke(main, args, prog_name="dday")
    assert result.exit_code == 2, result.output
    error = json.loads(result.stdout)
    assert error["error"] == "usage" and error["exit_status"] == 2
    assert error["message"].startswith(said), error
    assert said in result.stderr


def test_a_usage_error_in_text_prints_nothing_on_standard_output() -> None:
    result = CliRunner().invoke(main, ["validate", "no-such-pack-folder", "--format", "text"], prog_name="dday")
    assert result.exit_code == 2 and result.stdout == "", result.stdout


def test_list_json_of_a_small_tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = rules_only(tmp_path)
    (root / "cards").mkdir()
    (root / "cards" / "specialists.yaml").write_text(CARDS, encoding="utf-8")
    monkeypatch.chdir(root)
    result = dday("list", "specialists", "--root", ".", "--format", "json")
    assert result.exit_code == 0, result.output
    rows = json.loads(result.output)
    assert [{k: r[k] for k in ("id", "name", "kind", "provenance", "cost")} for r in rows] == [
        {"id": "medic", "name": "Medic", "kind": "specialist", "provenance": "rulebook", "cost": 4},
        {"id": "decoy", "name": "Decoy", "kind": "specialist", "provenance": "reconstructed", "cost": 2},
    ]
    text = dday("list", "specialists", "--root", ".")
    assert text.exit_code == 0
    assert text.output == "\nspecialists:\n  medic    4  Medic\n  decoy    2  Decoy  [RECONSTRUCTED]\n"


def test_list_json_of_bundled_content() -> None:
    result = dday("list", "--format", "json", "--pack", "all")
    assert result.exit_code == 0, result.output
    rows = json.loads(result.output)
    assert rows, "nothing is bundled"
    loaded, _ = load(packs="all")
    assert loaded is not None
    declared = {k.id for k in loaded.kinds.kinds}  # kinds of cards the bundled packs add (rules/kinds.yaml)
    for row in rows:
        assert {"id", "name", "kind", "provenance"} <= set(row), row
        assert isinstance(row["id"], str) and row["id"], row
        assert isinstance(row["name"], str) and row["name"], row
        assert row["kind"] in KINDS or row["kind"] in declared, row
        assert row["provenance"] in PROVENANCES, row
    ids = [(row["kind"], row["id"]) for row in rows]
    assert len(ids) == len(set(ids)), "an id is listed twice"
    assert {row["kind"] for row in rows} >= {"specialist", "item", "map"}


def test_list_of_an_unknown_kind_is_a_usage_error() -> None:
    result = dday("list", "sectors")
    assert result.exit_code == 2
    assert "no kind 'sectors' to list: one of specialists, items, vehicles, awards, maps, rules, expansions" \
        in " ".join(result.output.split())


def test_list_expansions_lists_the_bundled_ones_loaded_or_not() -> None:
    text = dday("list", "expansions")
    assert text.exit_code == 0, text.output
    assert "(nothing)" not in text.output
    assert re.search(r"atlantikwall .* not loaded: --pack atlantikwall", text.output), text.output
    rows = json.loads(dday("list", "expansions", "--pack", "atlantikwall", "--format", "json").output)
    loaded = {r["id"]: r["loaded"] for r in rows}
    assert loaded["atlantikwall"] is True and set(loaded) >= {"atlantikwall", "house-awards"}
    assert not loaded["house-awards"]


@pytest.mark.parametrize(("args", "said"), [
    (["simulate", "exercise-fabius", "--games", "2"], "MAP: no map 'exercise-fabius'"),
    (["simulate", "omaha-beach", "--option", "german-player", "--games", "2"],
     "--option: no optional rule 'german-player'"),
    (["impact", "tnt", "--map", "omaha-beach", "--games", "2"], "CARD: no card 'tnt'"),
])
def test_a_name_of_a_bundled_pack_not_loaded_names_the_pack(args: list[str], said: str) -> None:
    result = dday(*args)
    assert result.exit_code == 2, result.output
    assert said in result.output
    assert "(it is in the pack 'atlantikwall', not loaded: add --pack atlantikwall, or packs: [atlantikwall] in a " \
           "file)" in result.output


@pytest.mark.parametrize("args", [
    ["simulate", "omaha-beach", "--games", "1", "--variant", "rising-dfe"],
    ["play", "omaha-beach", "--auto", "reference", "--variant", "rising-dfe"],
    ["render", "omaha-beach", "--variant", "rising-dfe"],
    ["impact", "medic", "--map", "omaha-beach", "--games", "2", "--variant", "rising-dfe"],
    ["compare", "-s", "map=omaha-beach variant=rising-dfe", "-s", "map=omaha-beach", "--games", "2"],
])
def test_an_unknown_variant_is_told_with_the_map_s_variants_by_every_command(args: list[str]) -> None:
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2, result.output
    assert "map 'omaha-beach' has no variant 'rising-dfe' (variants: rising-def)" in result.output, result.output
    assert "did you mean 'rising-def'?" in result.output


@pytest.mark.parametrize("args", [["simulate", "exercise-tiger", "--game", "0"], ["replay", "game.json"]])
def test_the_help_of_until_says_what_it_needs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                              args: list[str]) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "game.json").write_text("{}", encoding="utf-8")
    shown = " ".join(CliRunner().invoke(main, [args[0], "--help"]).output.split())
    said = re.search(r"--until TURN\.PHASE (.*?) --[a-z-]+ [A-Z]", shown)
    assert said is not None and said.group(1).startswith("With --to-scenario"), shown
    alone = CliRunner().invoke(main, [*args, "--until", "1.roll"])
    assert alone.exit_code == 2 and "--to-scenario" in alone.output, alone.output


def _ration_pack(tmp: Path) -> Path:
    """A modder's pack that declares a kind of card (rules/kinds.yaml) and one card of it."""
    pack = tmp / "mypack"
    (pack / "cards").mkdir(parents=True)
    (pack / "rules").mkdir()
    (pack / "pack.yaml").write_text("id: mypack\nname: My pack\nversion: '1'\ntext: A test pack.\n"
                                    "provenance: reconstructed\nnote: invented for a test\nrequires: []\n")
    (pack / "rules" / "kinds.yaml").write_text(
        "provenance: reconstructed\nnote: invented for a test\nkinds:\n"
        "  - {id: ration, name: Ration, plural: Field Rations, text: Kept by a Unit., held-by: unit}\n")
    (pack / "cards" / "rations.yaml").write_text(
        "kind: ration\ncards:\n  - id: k-ration\n    name: K-Ration\n    text: Gain 1 Soldier.\n"
        "    provenance: reconstructed\n    note: invented for a test\n"
        "    effect: |\n      use once per game: gain 1 soldier\n")
    return pack


def test_list_shows_a_kind_a_pack_declares_as_it_shows_the_base_games(tmp_path: Path) -> None:
    """A modder's kind of card is listed like ours: by its plural as the full list heads it, its id, or its id and
    an 's'; the full list heads each kind once, the base game's first (each pack's cards came after, under a second
    'items:' and 'awards:')."""
    pack = str(_ration_pack(tmp_path))
    for word in ("field-rations", "ration", "rations"):
        rows = json.loads(dday("list", word, "--pack", pack, "--format", "json").output)
        assert [(r["id"], r["kind"], r["pack"]) for r in rows] == [("k-ration", "ration", "mypack")]
    text = dday("list", "--pack", pack, "--pack", "atlantikwall").output
    headings = [line for line in text.splitlines() if line.endswith(":") and not line.startswith(" ")]
    assert len(headings) == len(set(headings)), headings
    assert headings[:4] == ["specialists:", "items:", "vehicles:", "awards:"] and "field-rations:" in headings
    assert "badges:" in headings
    assert "k-ration" in text.split("field-rations:")[1].split(":")[0]


def test_list_of_a_kind_of_an_unloaded_pack_says_which_pack() -> None:
    result = dday("list", "badges")
    assert result.exit_code == 2
    assert "no kind 'badges' to list (it is a kind of the pack 'atlantikwall', not loaded: add --pack atlantikwall)" \
        in " ".join(result.output.split())


class _FullOutput(io.TextIOBase):
    """A standard output that takes nothing: every write fails as on a full disk."""

    def write(self, s: str) -> int:
        raise OSError(errno.ENOSPC, "No space left on device")


@pytest.mark.parametrize("args", [["validate", "docs/example-pack/field-kitchen", "--format", "json"],
                                  ["list", "maps"], ["render", "exercise-tiger"]])
def test_a_failed_write_of_the_output_is_one_line_not_a_traceback(args: list[str], monkeypatch: pytest.MonkeyPatch,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """Whatever the command, a standard output that cannot be written ends it with one line on standard error
    and status 1 (the CLI's entry point handles it once)."""
    monkeypatch.chdir(Path(__file__).resolve().parent.parent)
    monkeypatch.setattr(sys, "stdout", _FullOutput())
    with pytest.raises(SystemExit) as ended:
        main.main(args, prog_name="dday")
    assert ended.value.code == 1
    assert capsys.readouterr().err.splitlines()[-1] == "Error: cannot write the output: No space left on device"


@pytest.mark.parametrize(("args", "said"), [
    (["simulate", "exercise-tiger", "--map", "x"], "No such option '--map'.\n"),  # click offered '--format'
    (["simulate", "exercise-tiger", "--gmes", "3"], "No such option '--gmes'. Did you mean '--games'?"),
    (["scenario", "run", "--junt", "r.xml", "q.yaml"], "No such option '--junt'. Did you mean '--junit'?"),
    (["simulat"], "No such command 'simulat'. Did you mean 'simulate'?"),
    (["lst"], "No such command 'lst'. Did you mean 'list'?"),  # click offered 'list' and 'lsp'
    (["new", "crd"], "No such command 'crd'. Did you mean 'card'? (commands: card, pack, scenario)"),
])
def test_a_misspelt_command_or_option_gets_the_projects_suggestion(args: list[str], said: str) -> None:
    """The command line's "did you mean" is dsl/diagnostics.py suggest(), as every other hint."""
    result = dday(*args)
    assert result.exit_code == 2
    assert said in result.output, result.output


def test_the_command_line_starts_without_the_heavy_parts() -> None:
    """Every dday command imports the CLI's modules first: they import the loader, the engine, attrs, the YAML
    reader, the parser and the suggestion library only when a command runs, so that 'dday --help' or a usage error
    answers at once (attrs and rapidfuzz came with the escaping of printed text and the suggestions)."""
    code = ("import sys; from ddaydice.interpreter.cli import main; "
            "print(' '.join(sorted(m for m in sys.modules if m.split('.')[0] in "
            "{'attr', 'attrs', 'cattrs', 'lark', 'ruamel', 'rapidfuzz', 'dask'} "
            "or m.startswith(('ddaydice.dsl.loader', 'ddaydice.interpreter.game')))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "", out


@pytest.mark.parametrize(("args", "said"), [
    (["list", "car\x1bd"], "no kind 'car\\u001bd'"),  # an unknown kind echoed back
    (["card", "snipe\x07"], "no card 'snipe\\u0007'; did you mean 'sniper'?"),  # an unknown id, with a suggestion
    (["simulate", "exercise-tige\u202e", "--games", "1"], "no map 'exercise-tige\\u202e'"),
    (["play", "exercise-tiger", "--auto", "u9\x1b=heuristic"], "no player 'u9\\u001b'"),
    (["simulate", "exercise-tiger", "--policy", "\x1b"], "Invalid value for '--policy': no policy '\\u001b'"),
    (["scenario", "ru\x1bn"], "No such command 'ru\\u001bn'. Did you mean 'run'?"),
])
def test_a_usage_error_quoting_a_users_text_is_printable(args: list[str], said: str) -> None:
    """A usage error's message is made printable (dsl/diagnostics.py printable) in the one place every error of
    the command line passes (cli/common.py SuggestingGroup), as every other printed line: no control or bidi
    character of what it quotes reaches the terminal."""
    result = dday(*args)
    assert result.exit_code == 2, result.output
    assert said in result.output, result.output
    assert not any(unicodedata.category(c) in {"Cc", "Cf"} for c in result.output.replace("\n", "")), result.output


class _FullFile(io.TextIOBase):
    """A standard output whose every write fails naming a file whose name holds an escape."""

    def write(self, s: str) -> int:
        raise OSError(errno.ENOSPC, "No space left on device", "out\x1b[2J.txt")


def test_a_failed_write_naming_a_file_prints_its_name_printable(monkeypatch: pytest.MonkeyPatch,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """The one line of a failed write (cli/__init__.py Dday.main) is printable, as every error's."""
    monkeypatch.setattr(sys, "stdout", _FullFile())
    with pytest.raises(SystemExit):
        main.main(["list", "maps"], prog_name="dday")
    assert capsys.readouterr().err.splitlines()[-1] == "Error: out\\u001b[2J.txt: No space left on device"


def test_the_files_a_command_wrote_are_named_printable(tmp_path: Path) -> None:
    """dday schema, grammar and new say which files they wrote: a name holding an escape sequence is shown, never
    acted on (as every other printed line, cli/common.py echo)."""
    folder = tmp_path / "out\x1b[2J"
    for args in (["schema", "-o", str(folder)], ["grammar", "-o", str(folder / "g")]):
        result = dday(*args)
        assert result.exit_code == 0, result.output
        assert "\x1b" not in result.output and "out\\u001b[2J" in result.output, result.output
