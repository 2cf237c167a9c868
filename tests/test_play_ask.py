"""dday play's prompts: an option answered by a word of it, the dice keeping their numbers for the turn, the cards'
texts at the prompt (? NAME), and casualties with only Soldiers to lose taken without asking."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from ddaydice.dsl.loader import load
from ddaydice.interpreter.cli import main
from ddaydice.interpreter.core.decisions import Decision
from ddaydice.interpreter.game import Game
from ddaydice.interpreter.policies.registry import make_policy
from ddaydice.interpreter.tools.play import Human

RECRUIT = Decision("recruit", "u1", "Unit 1 has 4 Stars: recruit a Specialist?",
                   ("recruit nobody", "recruit the Medic (4 Stars)", "recruit the Platoon Leader (4 Stars)"),
                   (None, "medic", "platoon-leader"))
LOCK = Decision("lock", "u1", "Lock dice", ("red one-soldier", "red tool", "white star", "white star",
                                            "blue one-soldier"),
                ((0, "one-soldier", "red"), (1, "tool", "red"), (2, "star", "white"), (3, "star", "white"),
                 (4, "one-soldier", "blue")), min_picks=2, max_picks=2)


def answered(decision: Decision, answers: list[str]) -> tuple[tuple[int, ...], list[str]]:
    content, _ = load()
    assert content is not None
    game = Game(content, "omaha-beach", seed=1, deciders=make_policy("reference"))
    said: list[str] = []
    given = iter(answers)
    picks = Human(ask=lambda _prompt: next(given), say=said.append).decide(game, decision)
    shown = said.index(f"  {len(decision.options)}. {decision.options[-1]}")  # (the question's last option)
    return picks, said[shown + 1:]  # what the answers made it say


def test_an_option_is_answered_by_a_word_of_it_a_cards_name_or_id_or_a_dies_face() -> None:
    """'medic' picks 'recruit the Medic (4 Stars)' (a word of it), 'platoon-leader' the card's id, 'platoon leader'
    its name; at the Lock, 'tool' the red Tool and 'tool, star' two dice (two alike: the first, then the other);
    a word several options have lists them, numbered."""
    assert answered(RECRUIT, ["medic"])[0] == (1,)
    assert answered(RECRUIT, ["platoon-leader"])[0] == (2,)
    assert answered(RECRUIT, ["Platoon Leader"])[0] == (2,)
    picks, said = answered(RECRUIT, ["recruit the", "2"])
    assert picks == (1,)
    assert said == ["  'recruit the' names options 2 (recruit the Medic (4 Stars)), 3 (recruit the Platoon Leader "
                    "(4 Stars)): type more of it, or a number"]
    picks, said = answered(LOCK, ["tool", "tool, star"])
    assert picks == (1, 2)
    assert said == ["  not a legal answer: choose numbers separated by spaces (exactly 2) among 1..5"]
    assert answered(LOCK, ["star, star"])[0] == (2, 3)
    picks, said = answered(LOCK, ["one-soldier", "blue, tool"])
    assert picks == (4, 1)
    assert said == ["  'one-soldier' names options 1 (red one-soldier), 5 (blue one-soldier): type more of it, or a "
                    "number"]


def test_the_cards_an_option_offers_are_read_at_the_prompt() -> None:
    """'? medic' (or '? 2', the option's number) shows the Medic's text, as dday card has it; '?' lists the texts of
    every card offered under the options."""
    picks, said = answered(RECRUIT, ["? medic", "? 3", "?", "1"])
    assert picks == (0,)
    medic = "  Medic (4 Stars): Save 1 Soldier in each Phase in which your Unit suffers casualties."
    assert said[0] == medic
    assert said[1].startswith("  Platoon Leader (")
    assert "The cards offered:" in said and medic in said[said.index("The cards offered:"):]


GAME = ["play", "exercise-tiger", "--variant", "practice-run", "--seed", "1"]


def test_the_dice_keep_their_numbers_from_the_lock_to_the_re_rolls(tmp_path: Path) -> None:
    """Dice 1 and 2 Locked, the re-roll offers dice 3 to 6 by those numbers: '1' (a Locked die) is refused, '3'
    re-rolls die 3 (the first offered)."""
    save = tmp_path / "dice.json"
    result = CliRunner().invoke(main, [*GAME, "--save", str(save)], input="1 2\n1\n3\nquit\n")
    assert result.exit_code == 1, result.output
    rolled = result.output.split("second roll: re-roll which dice (Locked dice stay)?\n")[1]
    assert rolled.startswith("  3. white courage\n  4. white star\n  5. blue one-soldier\n  6. blue one-soldier\n")
    assert "  not a legal answer: choose numbers separated by spaces (0 to 4; empty for none) among 3, 4, 5, 6" \
        in rolled
    assert json.loads(save.read_text(encoding="utf-8"))["choices"] == [[0, 1], [0]]


def test_casualties_with_only_soldiers_to_lose_are_taken_without_asking(tmp_path: Path) -> None:
    """Turn 1's combat: Unit 1 has no Specialist; its losses are told, not asked, and the game records the answer
    the question had ('lose 2 Soldiers': option 1), so a saved game replays as before."""
    save = tmp_path / "losses.json"
    result = CliRunner().invoke(main, [*GAME, "--save", str(save)], input="1 2\n3\n3 4\n1\nquit\n")
    assert result.exit_code == 1, result.output
    assert ("  · Unit 1 suffers DEF 2 + MGF 0\nUnit 1 must lose 2 more (Combat in Sector 1): lose 2 Soldiers (only "
            "Soldiers to lose: nothing to choose)\n  · Unit 1 loses 2 Soldiers (Combat in Sector 1)\n\n"
            "=== Turn 2 ===") in result.output, result.output
    assert json.loads(save.read_text(encoding="utf-8"))["choices"] == [[0, 1], [0], [0, 1], [0], [0]]
    replay = CliRunner().invoke(main, ["replay", str(save)])
    assert replay.exit_code == 0 and "position there identical" in replay.output, replay.output
