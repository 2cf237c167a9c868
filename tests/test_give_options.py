"""dday play and dday simulate force cards into the game at the start (--give CARD, --pool CARD), as dday compare's
set-ups and dday impact do (tools/forced.py); the warning that a set-up cannot be won (tools/setups.py
``unwinnable_setup``) is asked with the cards forced in, and given by dday compare, impact and sweep too."""

from __future__ import annotations

import json
import shlex
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from pack_kit import card, make_pack

from ddaydice.dsl.loader import load_cached
from ddaydice.interpreter.cli import main
from ddaydice.interpreter.tools import sweep
from ddaydice.interpreter.tools.forced import Forced
from ddaydice.interpreter.tools.simulate import Spec, play_one, replay_command

TIGER = ("exercise-tiger", "--variant", "practice-run")
GOLD_ALONE = "Gold Beach cannot be won by 1 Unit(s)"


def _cli(*args: str) -> Any:
    return CliRunner().invoke(main, list(args))


def _ok(*args: str) -> str:
    result = _cli(*args)
    assert result.exit_code == 0, result.output
    text: str = result.output
    return text


def _stayer(root: Path) -> Path:
    """A designer's pack with a Specialist who lets his Unit remain in play after a Bunker."""
    return make_pack(root, "stayers", {"specialists.yaml": "kind: specialist\ncards:\n"
                                       + card("stayer", "allow remain-in-play", name="Stayer", cost=4)})


def test_simulate_gives_a_card_and_says_so() -> None:
    """dday simulate had no way to give a card: --give CARD gives it to each Unit at the start (the games play it),
    --pool CARD puts it into the Pool; the header and the JSON name them."""
    text = _ok("simulate", *TIGER, "--give", "medic", "--pool", "flak-vest", "--games", "3", "-q")
    assert text.splitlines()[0].endswith(", options: none, given to each Unit: medic, in the Pool: flak-vest")
    data = json.loads(_ok("simulate", *TIGER, "--give", "medic", "--games", "3", "--format", "json"))
    assert data["give"] == ["medic"] and "pool" not in data
    plain = json.loads(_ok("simulate", *TIGER, "--games", "3", "--format", "json"))
    assert "give" not in plain
    # (Practice Run offers no Specialist: the Medic, held from the start, is the one left at the end)
    assert plain["measures"]["specialists_left"]["max"] == 0
    assert data["measures"]["specialists_left"]["min"] == 1


def test_an_unknown_card_to_give_is_a_usage_error_with_a_suggestion() -> None:
    for command in (("simulate", *TIGER, "--games", "1", "-q"), ("play", *TIGER, "--auto", "reference")):
        bad = _cli(*command, "--give", "medik", "--pool", "flak-vst")
        assert bad.exit_code == 2, bad.output
        assert "--give: no card 'medik' (did you mean 'medic'?)" in bad.output
        assert "--pool: no card 'flak-vst' (did you mean 'flak-vest'?)" in bad.output


def test_a_card_both_given_and_put_into_the_pool_is_a_usage_error() -> None:
    """A card given to each Unit and put into the Pool at once: the set-up contradicts itself (the games played it
    as given only, and said nothing), in dday simulate as in a comparison's set-up."""
    for command in (("simulate", *TIGER, "--games", "1", "-q"), ("play", *TIGER, "--auto", "reference")):
        bad = _cli(*command, "--give", "medic", "--pool", "medic")
        assert bad.exit_code == 2, bad.output
        assert "--pool: 'medic' is both given to each Unit and put into the Pool" in bad.output, bad.output
    bad = _cli("compare", "-s", "name=a map=omaha-beach give=medic pool=medic", "-s", "name=b map=omaha-beach",
               "--games", "4")
    assert bad.exit_code == 2, bad.output
    assert "--setup 1: pool: 'medic' is both given to each Unit and put into the Pool" in bad.output, bad.output


def test_the_replay_command_carries_the_cards_given_and_plays_the_same_game() -> None:
    content, _ = load_cached()
    assert content is not None
    spec = Spec("exercise-tiger", "practice-run", 1, "reference", 5, forced=(Forced("medic", "give"),
                                                                            Forced("flak-vest", "pool")))
    command = replay_command(spec, 2)
    assert " --give medic --pool flak-vest " in command
    again = json.loads(_ok(*shlex.split(command)[1:], "--format", "json"))
    record = play_one(content, spec, 2)
    assert again["give"] == ["medic"] and again["pool"] == ["flak-vest"]
    assert (again["wins"], again["mean_turns"]) == (int(record.outcome == "won"), record.turns)


def test_play_gives_a_card(tmp_path: Path) -> None:
    out = _ok("play", *TIGER, "--give", "medic", "--auto", "reference", "--seed", "3")
    assert out.splitlines()[0].endswith("seed 3, given to each Unit: medic")
    assert "Specialists: Medic" in out
    saved = _cli("play", *TIGER, "--give", "medic", "--auto", "reference", "--save", str(tmp_path / "g.json"))
    assert saved.exit_code == 2 and "a saved game does not keep the cards --give and --pool force in" in saved.output


def test_the_warning_asks_the_game_with_the_cards_given(tmp_path: Path) -> None:
    """A card given that lets a Unit remain in play after a Bunker makes Gold Beach winnable by one Unit: no warning
    then (the game used to be asked without the cards forced in)."""
    pack = str(_stayer(tmp_path))
    args = ("gold-beach", "--players", "1", "--pack", pack)
    assert GOLD_ALONE in _ok("simulate", *args, "--games", "1", "-q")
    data = json.loads(_ok("simulate", *args, "--give", "stayer", "--games", "1", "--format", "json"))
    assert "warnings" not in data
    assert GOLD_ALONE not in _ok("simulate", *args, "--give", "stayer", "--games", "1", "-q")
    assert GOLD_ALONE not in _ok("play", *args, "--give", "stayer", "--auto", "reference", "--seed", "1")


def test_compare_and_impact_warn_of_a_set_up_that_cannot_be_won(tmp_path: Path) -> None:
    """dday compare and dday impact said nothing of a set-up no game of which can be won (dday simulate warns): they
    warn before the table, and list it in the JSON ('warnings'), asking each set-up with its cards given."""
    pack = str(_stayer(tmp_path))
    args = ["compare", "-s", "name=alone map=gold-beach players=1", "-s", "name=stays map=gold-beach players=1 "
            "give=stayer", "-s", "name=pair map=gold-beach players=2", "--pack", pack, "--games", "2",
            "--measure", "won"]
    text = _ok(*args, "-q")
    warned = [line for line in text.splitlines() if line.startswith("warning: ")]
    assert len(warned) == 1 and warned[0].startswith(f"warning: set-up alone: {GOLD_ALONE}: "), warned
    assert text.index("warning: ") < text.index("games on the same seeds")
    data = json.loads(_ok(*args, "--format", "json"))
    assert len(data["warnings"]) == 1 and data["warnings"][0].startswith(f"set-up alone: {GOLD_ALONE}")
    impact = ["impact", "stayer", "--map", "gold-beach", "--players", "1", "--pack", pack, "--games", "2",
              "--measure", "won", "--policy", "reference", "--policy", "random"]
    said = json.loads(_ok(*impact, "--format", "json"))["warnings"]
    assert len(said) == 1 and said[0].startswith(f"set-up without stayer: {GOLD_ALONE}"), said
    assert f"warning: set-up without stayer: {GOLD_ALONE}" in _ok(*impact, "-q")
    fine = json.loads(_ok("impact", "medic", "--map", "gold-beach", "--players", "2", "--games", "2",
                          "--measure", "won", "--format", "json"))
    assert "warnings" not in fine


def test_sweep_warns_of_a_cell_that_cannot_be_won(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """dday sweep said nothing of a cell no game of which can be won: it warns at the start, naming the cells, each
    asked with its cards given."""
    monkeypatch.chdir(tmp_path)  # (a sweep file's pack path is read inside the current folder)
    _stayer(tmp_path)
    grid = tmp_path / "grid.yaml"
    grid.write_text("maps: [gold-beach]\nplayers: [1, 2]\npacks: [[./stayers]]\ngive: [[], [stayer]]\n"
                    "policies: [reference]\ngames: 2\nchunk: 2\n")
    sf, diags = sweep.read_file(grid)
    assert sf is not None, diags
    said = sweep.unwinnable_cells(sf)
    assert len(said) == 1 and said[0].startswith(f"cell 0: {GOLD_ALONE}"), said
    out = tmp_path / "nowhere" / "grid.csv"  # (refused before any game: the warning is told first)
    result = _cli("sweep", str(grid), "-o", str(out))
    assert result.exit_code == 2
    assert f"warning: cell 0: {GOLD_ALONE}" in result.output
