"""The modding guide's example pack (docs/example-pack/field-kitchen) and the guide's commands stay honest.

- ``dday validate`` accepts the pack with no error and no warning;
- every scenario in the pack's ``scenarios/`` passes, and each card and optional rule of the pack has a
  scenario that fails when its effect is taken away;
- every command of docs/modding.md names a ``dday`` subcommand and options that exist, and every file
  excerpt it quotes (a ```yaml block opening with ``# file: PATH``) is word for word in that file.

The scenarios run through ``dday scenario run`` where they are (their ``packs: [field-kitchen]`` names the
pack folder they live in), and through the scenario module on content loaded with the pack on top, for the
checks that take each effect away; ``dday simulate --pack PATH`` plays the pack.
"""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import attrs
import click
import pytest
from click.testing import CliRunner

from ddaydice.dsl import ast
from ddaydice.dsl.compile import CompiledEffect
from ddaydice.dsl.loader import Content, load
from ddaydice.interpreter.cli import main
from ddaydice.interpreter.tools import scenario as sc_mod

REPO = Path(__file__).resolve().parent.parent
PACK = REPO / "docs" / "example-pack" / "field-kitchen"
GUIDE = REPO / "docs" / "modding.md"
SCENARIOS = sorted((PACK / "scenarios").glob("*.yaml"))


@pytest.fixture(scope="module")
def content() -> Content:
    loaded, diags = load(extra=[PACK])
    assert loaded is not None, [d.message for d in diags]
    return loaded


def run_scenario(path: Path, content: Content) -> sc_mod.Result:
    loaded, diags = sc_mod.load_scenario(path, content)
    assert loaded is not None, [d.message for d in diags]
    assert not diags, [f"{d.file}:{d.line}:{d.column}: {d.code} {d.message}" for d in diags]
    result, _game = sc_mod.run(loaded[0], content, str(path))
    return result


def failures(result: sc_mod.Result) -> list[str]:
    out = [f"error: {result.error}"] if result.error else []
    return out + [f"{c.label}: expected {c.expected!r}, got {c.actual!r} {c.message}" for c in result.checks
                  if not c.passed]


# ------------------------------------------------------------------ validate
def test_the_pack_validates_clean() -> None:
    result = CliRunner().invoke(main, ["validate", str(PACK)])
    assert result.exit_code == 0, result.output
    assert "error" not in result.output and "warning" not in result.output, result.output


def test_the_pack_validates_clean_as_json() -> None:
    result = CliRunner().invoke(main, ["validate", str(PACK), "--format", "json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output) == []


def test_the_pack_is_what_the_guide_says(content: Content) -> None:
    ours = {cid: content.card_kinds[cid] for cid in content.cards if content.owner_pack.get(f"card:{cid}")
            == "field-kitchen"}
    assert sorted(ours.values()) == ["item", "item", "item", "specialist"]
    assert content.owner_pack.get("option:hot-meals") == "field-kitchen"
    for cid in ours:
        card = content.cards[cid]
        assert card.provenance == "reconstructed" and "invented" in card.note.lower(), cid


# ------------------------------------------------------------------ scenarios
def test_there_are_scenarios() -> None:
    assert len(SCENARIOS) >= 5


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.name for p in SCENARIOS])
def test_scenario_passes(path: Path, content: Content) -> None:
    result = run_scenario(path, content)
    assert result.passed, failures(result)


def _without_effect(content: Content, owner: str) -> Content:
    """The content with one effect taken away, as if its card or rule said nothing."""
    blank = attrs.evolve(content.effects[owner], text="", tree=ast.Effect(()),
                         compiled=CompiledEffect((), (), ()), english=())
    return attrs.evolve(content, effects={**content.effects, owner: blank})


OWNERS = ["hot-coffee", "k-rations", "field-stove", "cook", "option:hot-meals"]


@pytest.mark.parametrize("owner", OWNERS)
def test_each_effect_has_a_scenario_that_catches_it(owner: str, content: Content) -> None:
    assert owner in content.effects
    broken = _without_effect(content, owner)
    caught = [p.name for p in SCENARIOS if not run_scenario(p, broken).passed]
    assert caught, f"no scenario fails when the effect of {owner} is taken away"


def test_every_card_of_the_pack_is_tested(content: Content) -> None:
    ours = {cid for cid in content.cards if content.owner_pack.get(f"card:{cid}") == "field-kitchen"}
    assert ours | {"option:hot-meals"} == set(OWNERS)


# ------------------------------------------------------------------ the second example pack: newer words
MANUAL = REPO / "docs" / "example-pack" / "field-manual"
MANUAL_SCENARIOS = sorted((MANUAL / "scenarios").glob("*.yaml"))
# 'until move', 'until combat', 'as FACE', 'roll 1d6 (...)', 'mgf-edge', 'landmine-edge', 'cost = 0 if ...',
# 'allow vehicle-enters-bunker', 'instead', 'roll-high'
MANUAL_CARDS = ["smoke-canister", "trench-periscope", "signal-mirror", "scrounging-kit", "sandbags", "mine-probe",
                "salvaged-carbine", "assault-ramp", "sergeant-major", "rabbits-foot"]


@pytest.fixture(scope="module")
def manual() -> Content:
    loaded, diags = load(extra=[MANUAL])
    assert loaded is not None, [d.message for d in diags]
    return loaded


def test_the_field_manual_validates_clean() -> None:
    result = CliRunner().invoke(main, ["validate", str(MANUAL), "--format", "json", "--no-cache"])
    assert result.exit_code == 0 and json.loads(result.output) == [], result.output


@pytest.mark.parametrize("path", MANUAL_SCENARIOS, ids=[p.name for p in MANUAL_SCENARIOS])
def test_field_manual_scenario_passes(path: Path, manual: Content) -> None:
    result = run_scenario(path, manual)
    assert result.passed, failures(result)


@pytest.mark.parametrize("owner", MANUAL_CARDS)
def test_each_field_manual_card_has_a_scenario_that_catches_it(owner: str, manual: Content) -> None:
    assert {cid for cid in manual.cards if manual.owner_pack.get(f"card:{cid}") == "field-manual"} == set(MANUAL_CARDS)
    broken = _without_effect(manual, owner)
    caught = [p.name for p in MANUAL_SCENARIOS if not run_scenario(p, broken).passed]
    assert caught, f"no scenario fails when the effect of {owner} is taken away"


# ------------------------------------------------------------------ the guide's commands
FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.MULTILINE | re.DOTALL)


def guide_blocks() -> list[tuple[str, list[str]]]:
    """Each fenced block of the guide: its language and its logical lines (continuations joined)."""
    out = []
    for lang, body in FENCE.findall(GUIDE.read_text(encoding="utf-8")):
        lines: list[str] = []
        for raw in body.replace("\\\n", " ").splitlines():
            line = raw.strip()
            if line and not line.startswith("#"):
                lines.append(line)
        out.append((lang, lines))
    return out


def dday_lines() -> list[str]:
    """Every command line of the guide that runs dday, in any block (a transcript's '$ ' dropped)."""
    out = []
    for _lang, lines in guide_blocks():
        for line in lines:
            text = line.removeprefix("$ ")
            if text.startswith("dday "):
                out.append(text)
    return out


def test_sh_blocks_hold_dday_commands_only() -> None:
    blocks = [lines for lang, lines in guide_blocks() if lang == "sh"]
    assert blocks, "the guide has no ```sh block"
    for lines in blocks:
        for line in lines:
            assert line.startswith("dday "), f"a ```sh line of docs/modding.md that is not a dday command: {line}"


def _options_of(command: click.Command) -> set[str]:
    names = {"--help", "-h"}
    for param in command.params:
        if isinstance(param, click.Option):
            names |= set(param.opts) | set(param.secondary_opts)
    return names


@pytest.mark.parametrize("line", dday_lines())
def test_guide_command_exists(line: str) -> None:
    words = shlex.split(line, comments=True)
    for stop in ("|", ">", "2>&1", "||", "&&", ";"):  # a shell's pipes and redirections end the dday command
        if stop in words:
            words = words[:words.index(stop)]
    command: click.Command = main
    for word in words[1:]:
        if not isinstance(command, click.Group) or word.startswith("-"):
            break
        sub = command.commands.get(word)
        assert sub is not None, f"{line}: no subcommand '{word}' (there are: {', '.join(sorted(command.commands))})"
        command = sub
    assert command is not main, f"{line}: names no subcommand"
    assert not isinstance(command, click.Group), f"{line}: '{command.name}' needs a subcommand"
    known = _options_of(command)
    for word in words[1:]:
        if word.startswith("-") and not word.lstrip("-").isdigit():
            assert word.split("=", 1)[0] in known, f"{line}: '{command.name}' has no option {word}"


def file_excerpts() -> list[tuple[str, str]]:
    """The guide's quotations of files: ```yaml blocks whose first line is '# file: PATH'."""
    out = []
    for lang, body in FENCE.findall(GUIDE.read_text(encoding="utf-8")):
        first, _, rest = body.partition("\n")
        if lang == "yaml" and first.startswith("# file: "):
            out.append((first.removeprefix("# file: ").strip(), rest))
    return out


def test_the_guide_quotes_the_pack() -> None:
    excerpts = file_excerpts()
    assert len(excerpts) >= 5
    for path, text in excerpts:
        assert (REPO / path).is_file(), f"docs/modding.md quotes {path}, which does not exist"
        assert text in (REPO / path).read_text(encoding="utf-8"), f"docs/modding.md's excerpt of {path} differs"


def test_the_scenarios_run_where_they_are() -> None:
    result = CliRunner().invoke(main, ["scenario", "run", str(PACK / "scenarios")])
    assert result.exit_code == 0, result.output
    assert f"{len(SCENARIOS)} passed, 0 failed" in result.output


def test_the_pack_is_played_from_its_folder() -> None:
    result = CliRunner().invoke(main, ["simulate", "exercise-tiger", "--variant", "advanced-training", "--pack",
                                       str(PACK), "--option", "hot-meals", "--games", "3", "--policy", "heuristic",
                                       "-q", "--format", "json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["games"] == 3 and report["options"] == ["hot-meals"]

