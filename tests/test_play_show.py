"""What ``dday play`` tells a player at the table besides the questions (tools/play_show.py): what the game did
unasked, a line per turn when policies play every player, what another side's Soldiers at 0 mean, the board's
Landmines and Sector attributes."""

from __future__ import annotations

import functools
import re

import click
import pytest
from click.testing import CliRunner

from ddaydice.dsl.loader import Content, load
from ddaydice.interpreter.cli import main
from ddaydice.interpreter.game import Game
from ddaydice.interpreter.policies.registry import make_policy
from ddaydice.interpreter.tools.play import board, unit_line


class Player:
    """A person who answers every question the same simple way (the first two dice to Lock, no re-roll, the
    second option at an odd-numbered answer, the first at an even one), says ``undo`` at the answers numbered in
    ``undo`` and quits after ``stop`` answers."""

    def __init__(self, stop: int, undo: tuple[int, ...] = ()) -> None:
        self.stop, self.undo, self.n = stop, undo, 0

    def __call__(self, prompt: str, **_: object) -> str:
        self.n += 1
        if self.n in self.undo:
            return "undo"
        if self.n > self.stop:
            return "quit"
        if "exactly 2" in prompt:
            return "1 2"
        if "empty for none" in prompt:
            return ""
        if (among := re.search(r"among ([\d, ]+)", prompt)) is not None:  # the dice keep their numbers
            numbers = among.group(1).replace(",", " ").split()
            return numbers[min(len(numbers) - 1, self.n % 2)]
        return "2" if self.n % 2 else "1"


def played(monkeypatch: pytest.MonkeyPatch, player: Player, *args: str) -> str:
    monkeypatch.setattr(click, "prompt", player)
    result = CliRunner().invoke(main, ["play", *args])
    return result.output


def test_the_table_is_told_the_rwbs_the_upkeep_and_the_combat_dice(monkeypatch: pytest.MonkeyPatch,
                                                                   snapshot: object) -> None:
    """Between the questions, the player is told what the game did unasked, in the trace's words: the RWBs each
    Unit scores and what they give, what the Upkeep collects, the MGF roll and the Special Damage its 6 brings,
    the Medic's save, the casualties taken, the Landmines' roll."""
    output = played(monkeypatch, Player(150), "omaha-beach", "--seed", "4", "--players", "2", "--auto",
                    "u2=heuristic")
    told = [line for line in output.splitlines() if line.startswith(("=== Turn", "  · "))]
    assert "\n".join(told) == snapshot
    assert "  · Unit 2 scores Fresh Troops" in told and "  · MGF in Sector 5: [6]" in told
    assert "  · Unit 1 loses the Corporal" in told and "  · Unit 2 is spared 1 casualty: Medic (Unit 2)" in told


def test_the_trace_tells_it_all_and_the_table_lines_are_not_repeated(monkeypatch: pytest.MonkeyPatch) -> None:
    output = played(monkeypatch, Player(20), "omaha-beach", "--seed", "11", "--trace")
    assert output.count("  · Unit 1 collects") == output.count("  · Unit 1's Final Tally") > 0


def test_an_undo_does_not_tell_again_what_the_game_did_before_the_question(monkeypatch: pytest.MonkeyPatch) -> None:
    """Seed 11, turn 1: the Upkeep collects before the Movement's question; the player takes his answer to it back
    at the Combat's question: the game replayed up to the Movement's question does not tell the Upkeep again, and
    tells the Combat anew once he answers again."""
    output = played(monkeypatch, Player(8, undo=(5,)), "omaha-beach", "--seed", "11")
    assert "undo: your last decision is taken back" in output
    assert output.count("  · Unit 1 collects 4 Soldiers, 1 Star, 1 Courage, 1 Item Point") == 1
    assert output.count("  · Unit 1 suffers DEF 3 + MGF 0") == 2


def test_a_game_policies_play_prints_a_line_a_turn_unless_quiet(monkeypatch: pytest.MonkeyPatch) -> None:
    args = ("gold-beach", "--option", "solitaire", "--auto", "heuristic", "--seed", "3")
    output = played(monkeypatch, Player(0), *args)
    turns = [line for line in output.splitlines() if line.startswith("Turn ")]
    assert turns[0].startswith("Turn 1: Unit 1 in Sector ") and ", Soldiers " in turns[0]
    assert len(turns) == int(output.split("after ")[1].split(" turn")[0])
    quiet = played(monkeypatch, Player(0), *args, "-q")
    assert "Turn 1:" not in quiet and "The game is" in quiet


@functools.cache
def atlantikwall() -> Content:
    content, diags = load(packs=["atlantikwall"])
    assert content is not None, diags
    return content


@pytest.mark.parametrize(("option", "said"), [
    ("german-player", "at 0 Soldiers he plays on: each Soldier he cannot lose in Combat lowers the DEF of every "
                      "Sector by 1 for the Units that turn (below 0, the Units there gain Soldiers)"),
    ("solitaire-atlantikwall", "at 0 Soldiers he loses"),
])
def test_the_german_at_0_soldiers_is_told_what_it_means(option: str, said: str) -> None:
    game = Game(atlantikwall(), "exercise-tiger", variant="advanced-training", seed=5, options=(option,),
                deciders=make_policy("reference"))
    game.run_turn()
    german = game.state.sides[0]
    german.soldiers = 0
    assert unit_line(game, german.id).endswith("; " + said)
    german.soldiers = 1
    assert said not in unit_line(game, german.id)


def test_the_german_players_rules_are_told_when_the_game_starts(monkeypatch: pytest.MonkeyPatch) -> None:
    output = played(monkeypatch, Player(0), "omaha-beach", "--pack", "atlantikwall", "--option", "german-player",
                    "--auto", "heuristic", "--seed", "4", "-q")
    assert "German player: Rolls red, white and black dice; starts with 4 Soldiers" in output
    assert "loses Soldiers in Combat from the highest DEF the Allies occupy." in output


def test_the_board_marks_the_sectors_with_attributes_and_tells_them_and_the_landmines() -> None:
    """Omaha Beach: Sector 5's Special Damage, Sectors 6, 7 and 8's attributes, the Landmines between Sectors
    (what only the rendered map showed); an attribute a Sector gains in the game is told too."""
    content, _ = load()
    assert content is not None
    game = Game(content, "omaha-beach", seed=11, deciders=make_policy("reference"))
    shown = board(game).splitlines()
    assert "  row 3 (2 Courage to Advance here): Sector 4[6]   Sector 5(5) MGF1!   Sector 6(6)!" in shown
    assert "  ! Sector 5: an MGF 6: Special Damage: -1 Specialist" in shown
    assert "  ! Sector 8: The number of Units allowed here becomes 1." in shown
    assert "  Landmines between Sector 2 and Sector 3, Sector 4 and Sector 7, Sector 6 and Sector 8" in shown
    assert "Sector 2(4)   Sector 3(5)" in board(game)  # nothing to tell: no mark
    game.state.sectors["s3"].attributes.append("smoke")
    assert "  ! Sector 3: 'smoke'" in board(game).splitlines()
