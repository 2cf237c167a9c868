"""Hostile replays through ``dday replay``, and hostile command lines for every command: each refused with its
file (and line) or as a usage error naming the argument, exit 1 or 2, no traceback, no secret (docs/security.md).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hostile_kit import SECRET, World, check

from ddaydice.dsl.limits import MAX_GAMES, MAX_REPLAY_BYTES
from ddaydice.interpreter.cli import main


@pytest.fixture(scope="module")
def saved_game(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """A real saved game (dday play --save), whose fields the cases below break."""
    path = tmp_path_factory.mktemp("saved") / "game.json"
    result = CliRunner().invoke(main, ["play", "exercise-tiger", "--variant", "practice-run", "--seed", "5", "--auto",
                                       "reference", "--save", str(path)])
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def _save(world: World, data: object, name: str = "r.json") -> str:
    (world.work / name).write_text(json.dumps(data, indent=1), encoding="utf-8")
    return name


def test_the_saved_game_replays(world: World, saved_game: dict[str, Any]) -> None:
    check(world.run("replay", _save(world, saved_game)), 0, text=("identical",))


def test_choices_left_over_at_the_end_are_reported(world: World, saved_game: dict[str, Any]) -> None:
    """Choices the game never asked for (appended to a good file) are no identical replay: REPLAY006 at the
    choices, naming how many and from which, exit 1."""
    count = len(saved_game["choices"])
    name = _save(world, {**saved_game, "choices": [*saved_game["choices"], *[[0]] * 5]})
    check(world.run("replay", name), 1, ("REPLAY006",), file=name,
          text=(f"5 choice(s) left over when the game ended (from choice {count + 1} of {count + 5})",))


def test_the_verdict_shows_both_digests_or_says_none_is_recorded(world: World, saved_game: dict[str, Any]) -> None:
    """A replay whose digest differs shows the replayed digest and the recorded one; one with no digest says
    there is nothing to compare with (not "DIFFERENT"), and is not a success."""
    other = "0" * len(saved_game["digest"])
    result = world.run("replay", _save(world, {**saved_game, "digest": other}))
    check(result, 1, text=(f"final state DIFFERENT (digest {saved_game['digest']}; the file records {other})",))
    bare = {k: v for k, v in saved_game.items() if k not in ("digest", "outcome", "turns")}
    result = world.run("replay", _save(world, bare))
    check(result, 1, text=("the file records no digest to compare with: not checked",))
    assert "DIFFERENT" not in result.output


FIELDS: dict[str, tuple[str, object, str]] = {
    "format-other": ("format", "zip/1", "REPLAY004"),
    "format-missing": ("format", None, "REPLAY004"),
    "map-number": ("map", 5, "REPLAY004"),
    "map-unknown": ("map", "../../etc/passwd", "REPLAY005"),
    "map-empty": ("map", "", "REPLAY004"),
    "players-0": ("players", 0, "REPLAY004"),
    "players-5": ("players", 5, "REPLAY004"),
    "players-text": ("players", "1", "REPLAY004"),
    "players-bool": ("players", True, "REPLAY004"),
    "players-float": ("players", 1.0, "REPLAY004"),
    "seed-float": ("seed", 1.5, "REPLAY004"),
    "seed-huge": ("seed", 10**30, "REPLAY004"),
    "seed-text": ("seed", "5", "REPLAY004"),
    "seed-null": ("seed", None, "REPLAY004"),
    "seed-bool": ("seed", False, "REPLAY004"),
    "variant-number": ("variant", 3, "REPLAY004"),
    "variant-unknown": ("variant", "godmode", "REPLAY005"),
    "options-text": ("options", "all", "REPLAY004"),
    "options-numbers": ("options", [1, 2], "REPLAY004"),
    "options-unknown": ("options", ["cheat"], "REPLAY005"),
    "packs-text": ("packs", "atlantikwall", "REPLAY004"),
    "packs-parent": ("packs", [".."], "PACK013"),
    "packs-outside": ("packs", ["../outside/evil"], "PACK013"),
    "packs-absolute": ("packs", ["/etc"], "PACK013"),
    "packs-unknown": ("packs", ["nothere"], "PACK003"),
    "packs-escape": ("packs", ["\x1b[31m"], "PACK003"),
    "packs-bidi": ("packs", ["x\u202e"], "PACK003"),
    "packs-empty": ("packs", [""], "REPLAY004"),
    "packs-many": ("packs", ["a"] * 100, "REPLAY004"),
    "choices-text": ("choices", "all", "REPLAY004"),
    "choices-mapping": ("choices", [{"a": 1}], "REPLAY004"),
    "choices-nested": ("choices", [[[1]]], "REPLAY004"),
    "choices-bool": ("choices", [True], "REPLAY004"),
    "choices-negative": ("choices", [-1], "REPLAY004"),
    "choices-huge": ("choices", [10**20], "REPLAY004"),
    "choices-float": ("choices", [0.5], "REPLAY004"),
    "choices-long-text": ("choices", ["x" * 500], "REPLAY004"),
    "choices-null": ("choices", None, "REPLAY004"),
    "choices-wrong": ("choices", [99] * 50, "REPLAY006"),
    "digest-number": ("digest", 5, "REPLAY004"),
    "outcome-number": ("outcome", 5, "REPLAY004"),
}


@pytest.mark.parametrize("case", sorted(FIELDS))
def test_a_bad_replay_field_is_located(world: World, saved_game: dict[str, Any], case: str) -> None:
    key, value, code = FIELDS[case]
    data = dict(saved_game)
    if value is None and key in {"format"}:
        del data[key]
    else:
        data[key] = value
    name = _save(world, data)
    check(world.run("replay", name), 1, (code,), file=name)


@pytest.mark.parametrize("key", ["map", "players", "seed", "choices"])
def test_a_missing_replay_field_is_named(world: World, saved_game: dict[str, Any], key: str) -> None:
    data = {k: v for k, v in saved_game.items() if k != key}
    name = _save(world, data)
    result = world.run("replay", name)
    check(result, 1, ("REPLAY004",), file=name, text=(f"missing '{key}'",))


TEXTS: dict[str, tuple[str | bytes, str]] = {
    "a-list": ("[1, 2]", "REPLAY003"),
    "a-string": ('"game"', "REPLAY003"),
    "a-number": ("5", "REPLAY003"),
    "null": ("null", "REPLAY003"),
    "true": ("true", "REPLAY003"),
    "empty": ("", "REPLAY001"),
    "not-json": ("seed: 5\n", "REPLAY001"),
    "truncated": ('{"format": "ddaydice-replay/1", "seed": ', "REPLAY001"),
    "nan-seed": ('{"format": "ddaydice-replay/1", "map": "exercise-tiger", "players": 1, "seed": NaN, '
                 '"choices": []}', "REPLAY001"),
    "inf-seed": ('{"format": "ddaydice-replay/1", "map": "exercise-tiger", "players": 1, "seed": Infinity, '
                 '"choices": []}', "REPLAY001"),
    "minus-inf-seed": ('{"format": "ddaydice-replay/1", "map": "exercise-tiger", "players": 1, '
                       '"seed": -Infinity, "choices": []}', "REPLAY001"),
    "overflow-seed": ('{"format": "ddaydice-replay/1", "map": "exercise-tiger", "players": 1, "seed": 1e400, '
                      '"choices": []}', "REPLAY004"),
    "deep-list": ("[" * 100_000 + "]" * 100_000, "REPLAY002"),
    "deep-object": ('{"a":' * 5000 + "1" + "}" * 5000, "REPLAY002"),
    "deep-within-the-json-limit": ('{"format": "ddaydice-replay/1", "choices": ' + "[" * 60 + "]" * 60 + "}",
                                   "REPLAY002"),
    "too-large": ('{"pad": "' + "x" * MAX_REPLAY_BYTES + '"}', "LOAD005"),
    "not-utf8": (b'{"map": "caf\xe9"}', "REPLAY001"),
    "nul": ('{"map": "a\x00b"}', "REPLAY001"),
    "bom": ("\ufeff{}", "REPLAY001"),
    "huge-int": ('{"seed": ' + "9" * 5000 + "}", "REPLAY001"),
    "duplicate-seed": ('{"format": "ddaydice-replay/1", "map": "exercise-tiger", "players": 1, "seed": 1, '
                       '"seed": "x", "choices": []}', "REPLAY004"),
    "secret-text": (SECRET.lower() + "\n", "REPLAY001"),
}


@pytest.mark.parametrize("case", sorted(TEXTS))
def test_a_hostile_replay_file_is_refused(world: World, case: str) -> None:
    text, code = TEXTS[case]
    path = world.work / "r.json"
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    check(world.run("replay", "r.json"), 1, (code,), file="r.json")


def test_a_replay_too_large_is_said_to_be_no_saved_game(world: World) -> None:
    (world.work / "r.json").write_text('{"pad": "' + "x" * MAX_REPLAY_BYTES + '"}', encoding="utf-8")
    result = world.run("replay", "r.json")
    check(result, 1, ("LOAD005",), file="r.json")
    assert "a saved game is written by dday play --save" in result.output
    assert "split it" not in result.output  # (the hint of a content file, which may be split)


@pytest.mark.parametrize("what", ["dev-zero", "dev-null", "pipe", "folder", "missing", "link-to-secret"])
def test_a_replay_that_is_no_regular_file_is_refused(world: World, what: str) -> None:
    if what == "pipe":
        os.mkfifo(world.work / "p.json")
        check(world.run("replay", "p.json"), 2, text=("not a regular file",))
    elif what == "folder":
        check(world.run("replay", "pack"), 2, text=("Error",))
    elif what == "missing":
        check(world.run("replay", "nothing.json"), 2, text=("Error",))
    elif what == "link-to-secret":  # a replay named by the user is read; what it holds is never echoed whole
        (world.work / "s.json").symlink_to(world.outside / "secret.txt")
        result = world.run("replay", "s.json")
        check(result, 1, ("REPLAY001",))
    else:
        check(world.run("replay", f"/dev/{what[4:]}"), 2, text=("not a regular file",))


# ---------------------------------------------------------------- command lines
CLI: dict[str, tuple[list[str], int, str]] = {
    "games-0": (["simulate", "exercise-tiger", "--games", "0"], 2, "--games"),
    "games-negative": (["simulate", "exercise-tiger", "--games", "-5"], 2, "--games"),
    "games-huge": (["simulate", "exercise-tiger", "--games", str(MAX_GAMES + 1)], 2, "--games"),
    "games-text": (["simulate", "exercise-tiger", "--games", "many"], 2, "--games"),
    "games-float": (["simulate", "exercise-tiger", "--games", "1.5"], 2, "--games"),
    "games-inf": (["simulate", "exercise-tiger", "--games", "inf"], 2, "--games"),
    "jobs-0": (["simulate", "exercise-tiger", "--jobs", "0"], 2, "--jobs"),
    "jobs-negative": (["simulate", "exercise-tiger", "--jobs", "-1"], 2, "--jobs"),
    "jobs-text": (["simulate", "exercise-tiger", "--jobs", "all"], 2, "--jobs"),
    "players-0": (["simulate", "exercise-tiger", "--players", "0"], 2, "--players"),
    "players-9": (["play", "exercise-tiger", "--players", "9"], 2, "--players"),
    "seed-text": (["simulate", "exercise-tiger", "--seed", "abc"], 2, "--seed"),
    "seed-huge-text": (["play", "exercise-tiger", "--seed", "9" * 5000], 2, "--seed"),
    "policy": (["simulate", "exercise-tiger", "--policy", "cheater"], 2, "--policy"),
    "map-unknown": (["simulate", "../../etc/passwd", "--games", "1"], 2, "no map"),
    "map-escape": (["simulate", "\x1b[31m", "--games", "1"], 2, "no map"),
    "variant-unknown": (["simulate", "exercise-tiger", "--variant", "godmode", "--games", "1"], 2, "variant"),
    "option-unknown": (["simulate", "exercise-tiger", "--option", "cheat", "--games", "1"], 2, "cheat"),
    "pack-unknown": (["simulate", "exercise-tiger", "--pack", "nothere", "--games", "1"], 2, "--pack"),
    "pack-escape": (["list", "--pack", "\x1b[2J"], 2, "--pack"),
    "format": (["validate", "--format", "xml"], 2, "--format"),
    "max-errors-0": (["validate", "--max-errors", "0"], 2, "--max-errors"),
    "root-missing": (["validate", "--root", "nowhere"], 2, "--root nowhere: no such folder"),
    "root-a-file": (["validate", "--root", "pack/pack.yaml"], 2, "--root"),
    "path-missing": (["validate", "nowhere.yaml"], 2, "no such file"),
    "list-kind": (["list", "secrets"], 2, "secrets"),
    "card-unknown": (["card", "../../etc/passwd"], 2, "Error"),
    "card-pack-missing": (["card", "cook", "--pack", "nowhere"], 2, "--pack"),
    "render-unknown": (["render", "nowhere"], 2, "Error"),
    "render-output-folder": (["render", "exercise-tiger", "-o", "pack"], 2, "-o"),
    "render-output-nowhere": (["render", "exercise-tiger", "-o", "no/such/folder/x.svg"], 2, "-o"),
    "save-folder-missing": (["play", "exercise-tiger", "--auto", "reference", "--save", "no/such/x.json"], 2,
                            "--save"),
    "save-a-folder": (["play", "exercise-tiger", "--auto", "reference", "--save", "pack"], 2, "--save"),
    "save-dev-null": (["play", "exercise-tiger", "--auto", "reference", "--save", "/dev/null"], 2, "--save"),
    "auto-unknown": (["play", "exercise-tiger", "--auto", "u9=reference"], 2, "--auto"),
    "explain-missing": (["explain", "nowhere.yaml", "def", "for", "u1"], 2, "Error"),
    "explain-dev-zero": (["explain", "/dev/zero", "def", "for", "u1"], 2, "not a regular file"),
    "scenario-none": (["scenario", "run"], 2, "Error"),
    "scenario-missing": (["scenario", "run", "nowhere.yaml"], 2, "Error"),
    "unknown-command": (["hack"], 2, "hack"),
    "unknown-option": (["validate", "--exec", "id"], 2, "--exec"),
}


@pytest.mark.parametrize("case", sorted(CLI))
def test_a_bad_command_line_is_refused(world: World, case: str) -> None:
    args, status, text = CLI[case]
    result = world.run(*args)
    check(result, status, (text,) if text.isupper() and text[-1].isdigit() else (),
          text=() if text.isupper() and text[-1].isdigit() else (text,))
    if status == 2 and case not in {"map-unknown", "map-escape", "variant-unknown", "option-unknown"}:
        assert "Error" in result.output or "Usage" in result.output, result.output


def test_a_read_only_save_target_is_refused_before_the_game(world: World) -> None:
    target = world.work / "ro"
    target.mkdir()
    target.chmod(0o500)
    try:
        if os.access(target, os.W_OK):  # as root every folder takes files: nothing to refuse
            result = world.run("play", "exercise-tiger", "--variant", "practice-run", "--auto", "reference",
                               "--save", "ro/g.json", "--seed", "1")
            check(result, 0, text=("saved to",))
        else:
            result = world.run("play", "exercise-tiger", "--auto", "reference", "--save", "ro/g.json")
            check(result, 2, text=("--save",))
            assert "The game is" not in result.output  # refused before the game started
    finally:
        target.chmod(0o700)


def test_save_replaces_the_old_file_atomically(world: World) -> None:
    old = world.work / "g.json"
    old.write_text("old", encoding="utf-8")
    result = world.run("play", "exercise-tiger", "--variant", "practice-run", "--auto", "reference", "--save",
                       "g.json", "--seed", "2")
    check(result, 0, text=("saved to",))
    assert json.loads(old.read_text(encoding="utf-8"))["seed"] == 2
    assert sorted(p.name for p in world.work.iterdir()) == ["g.json", "pack"]  # no temporary file left


#: Every command that writes a file the user names, by the option that names it.
WRITERS: dict[str, list[str]] = {
    "render": ["render", "exercise-tiger", "-o"],
    "schema": ["schema", "cards", "-o"],
    "save": ["play", "exercise-tiger", "--variant", "practice-run", "--auto", "reference", "--seed", "1", "--save"],
    "plot": ["simulate", "exercise-tiger", "--variant", "practice-run", "--games", "2", "--quiet", "--plot"],
}


@pytest.mark.parametrize("case", sorted(WRITERS))
def test_no_command_puts_a_file_in_place_of_a_pipe_or_a_device(world: World, case: str) -> None:
    """A pipe (or /dev/null, a device: the same refusal) named as the output is refused before the work, and left
    as it was: a file renamed over /dev/null by a command run as root replaces the device until it is made
    again. (A pipe here: a test that failed on /dev/null itself would break the machine it runs on.)"""
    pipe = world.work / "out.svg"
    os.mkfifo(pipe)
    result = world.run(*WRITERS[case], "out.svg")
    check(result, 2, text=("not a regular file",))
    assert pipe.is_fifo() and sorted(p.name for p in world.work.iterdir()) == ["out.svg", "pack"]


def test_the_one_writer_replaces_only_a_regular_file(tmp_path: Path) -> None:
    """dsl/writing.py, under every command: a pipe or a folder at the target is an error, left as it was, with no
    temporary file behind; a link to a regular file is replaced by the new file, as a rename does (its file is
    left as it was)."""
    from ddaydice.dsl.writing import write_atomically

    pipe, folder, target, link = (tmp_path / n for n in ("pipe", "folder", "target", "link"))
    os.mkfifo(pipe)
    folder.mkdir()
    target.write_text("old", encoding="utf-8")
    link.symlink_to(target)
    for path, error in ((pipe, "it is not a regular file"), (folder, "it is a folder")):
        with pytest.raises(OSError, match=error):
            write_atomically(path, "new")
    assert pipe.is_fifo() and folder.is_dir() and not any(folder.iterdir())
    write_atomically(link, "new")
    assert not link.is_symlink() and link.read_text(encoding="utf-8") == "new"
    assert target.read_text(encoding="utf-8") == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["folder", "link", "pipe", "target"]


def test_jobs_are_capped_with_a_note(world: World) -> None:
    result = world.run("simulate", "exercise-tiger", "--variant", "practice-run", "--games", "2", "--jobs", "500",
                       "--quiet", "--format", "json")
    check(result, 0, text=("note: --jobs 500 capped to",))
    assert json.loads(result.output[result.output.index("{"):])["jobs"] <= min(2, os.cpu_count() or 1)


assert SECRET not in str(Path(__file__))
