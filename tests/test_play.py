"""dday play and dday replay, through the CLI; the terminal decider re-asks on illegal input."""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import select
import struct
import subprocess
import sys
import termios
from pathlib import Path

import pytest
from click.testing import CliRunner

from ddaydice.dsl.limits import MAX_SEED
from ddaydice.dsl.loader import load
from ddaydice.interpreter.cli import main
from ddaydice.interpreter.core.api import GameAPI
from ddaydice.interpreter.core.decisions import Decision
from ddaydice.interpreter.game import Game
from ddaydice.interpreter.policies.registry import make_policy
from ddaydice.interpreter.tools.play import Human, board


def test_a_game_played_by_policies_is_saved_and_replays_identically(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    result = CliRunner().invoke(main, ["play", "exercise-tiger", "--variant", "advanced-training", "--seed", "5",
                                       "--auto", "reference", "--save", str(save)])
    assert result.exit_code == 0, result.output
    assert "The game is" in result.output
    assert "RECONSTRUCTIONS" in result.output  # the reconstructed Awards are flagged on screen
    replay = CliRunner().invoke(main, ["replay", str(save)])
    assert replay.exit_code == 0, replay.output
    assert "identical" in replay.output


def test_a_tampered_replay_is_reported(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    CliRunner().invoke(main, ["play", "exercise-tiger", "--variant", "practice-run", "--seed", "5", "--auto",
                              "reference", "--save", str(save)])
    save.write_text(save.read_text().replace('"seed": 5', '"seed": 6'))
    replay = CliRunner().invoke(main, ["replay", str(save)])
    assert replay.exit_code == 1
    assert "DIFFERENT" in replay.output or "diverged" in replay.output


def test_the_human_decider_asks_again_until_the_answer_is_legal() -> None:
    content, _ = load()
    assert content is not None
    game = Game(content, "exercise-tiger", seed=1, variant="practice-run", deciders=make_policy("reference"))
    answers = iter(["9", "x", "1 2", "2"])
    said: list[str] = []
    human = Human(ask=lambda _prompt: next(answers), say=said.append)
    decision = Decision("move", "u1", "move?", ("stay", "advance to Sector 2", "advance to Sector 3"))
    assert human.decide(game, decision) == (1,)
    assert any("not a legal answer" in s for s in said)
    assert any("one option number" in s for s in said)
    assert "Sector 1(2) <U1>" in board(game)


def test_auto_names_an_unknown_policy() -> None:
    result = CliRunner().invoke(main, ["play", "exercise-tiger", "--auto", "genius"])
    assert result.exit_code == 2
    assert "heuristic" in result.output


def test_play_tells_every_problem_of_its_set_up_before_the_game() -> None:
    result = CliRunner().invoke(main, ["play", "omaha-bech", "--variant", "x", "--option", "blind-strt"])
    assert result.exit_code == 2
    lines = [line.removeprefix("Error: ") for line in result.output.splitlines()]
    assert lines[-2].startswith("MAP: no map 'omaha-bech' (there are: ")
    assert lines[-1].startswith("--option: no optional rule 'blind-strt' (there are: ")
    assert lines[-1].endswith("(did you mean 'blind-start'?)")
    assert "Unit(s), seed" not in result.output  # (no game began)


def test_play_names_the_reconstructed_cards_a_game_can_bring_into_play() -> None:
    result = CliRunner().invoke(main, ["play", "exercise-fabius", "--pack", "atlantikwall", "--option", "german-player",
                                       "--seed", "1", "--auto", "reference"])
    assert result.exit_code == 0, result.output
    out = result.output
    assert "note: these Specialists, Items and Vehicles of the game are RECONSTRUCTIONS" in out
    assert "PIAT Gunner" in out.split("Vehicles of the game are RECONSTRUCTIONS")[1].splitlines()[0]
    assert "German Specialists of the German player are RECONSTRUCTIONS" in out
    base = CliRunner().invoke(main, ["play", "exercise-tiger", "--variant", "practice-run", "--seed", "1", "--auto",
                                     "reference"]).output
    assert "Specialists, Items and Vehicles of the game are RECONSTRUCTIONS" not in base  # all printed there


def test_a_player_named_in_auto_plays_his_policy_whatever_the_order() -> None:
    from ddaydice.interpreter.cli.play import _parse_auto

    for auto in (("heuristic", "german=random"), ("german=random", "heuristic")):
        assert _parse_auto(auto, 2, ["german"]) == {1: "heuristic", 2: "heuristic", 3: "random"}
    autos: tuple[tuple[str, ...], ...] = (("reference", "u2=random"), ("u2=random", "reference"),
                                          ("u2=random", "reference", "u2=random"))
    for named in autos:
        assert _parse_auto(named, 2) == {1: "reference", 2: "random"}
    games = [CliRunner().invoke(main, ["play", "exercise-tiger", "--variant", "practice-run", "--players", "2",
                                       "--seed", "3", *(x for a in auto for x in ("--auto", a))]).output
             for auto in (("reference", "u2=random"), ("u2=random", "reference"))]
    assert "The game is" in games[0] and games[0] == games[1]


def test_two_policies_for_one_player_are_a_usage_error() -> None:
    for auto, said in (
            (("heuristic", "random"), "--auto heuristic and --auto random: two policies for every player"),
            (("u1=random", "u1=reference"), "--auto u1=random and --auto u1=reference: two policies for u1")):
        result = CliRunner().invoke(main, ["play", "exercise-tiger", "--variant", "practice-run", "--seed", "3",
                                           *(x for a in auto for x in ("--auto", a))])
        assert result.exit_code == 2, result.output
        assert said in result.output and "The game is" not in result.output


def test_a_ctrl_c_in_a_game_every_player_plays_automatically_is_taken_at_the_end_of_a_turn(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """With every player automatic, a Ctrl-C is taken at the end of the turn it came in, never inside the (compiled)
    engine, where mypyc's code could take it for a failed allocation and abort: turn 2 is played to its end, turn 3
    never begins, and dday play says Aborted!, exit 1."""
    import os
    import signal

    from ddaydice.interpreter.game import Game

    begun: list[int] = []
    ended: list[int] = []
    real = Game.run_turn

    def run_turn(self: Game) -> None:
        begun.append(self.state.turn)
        if len(begun) == 2:
            os.kill(os.getpid(), signal.SIGINT)  # a Ctrl-C, as turn 2 begins
        real(self)
        ended.append(self.state.turn)  # (the turn played to its end)

    monkeypatch.setattr(Game, "run_turn", run_turn)
    before = signal.signal(signal.SIGINT, signal.default_int_handler)  # (as at a terminal)
    try:
        result = CliRunner().invoke(main, ["play", "exercise-tiger", "--variant", "practice-run", "--seed", "1",
                                           "--auto", "reference"])
    finally:
        signal.signal(signal.SIGINT, before)
    assert result.exit_code == 1 and result.output.endswith("Aborted!\n"), result.output
    assert len(begun) == len(ended) == 2  # two turns begun, both played to their end, no third


def test_play_and_simulate_take_the_seeds_a_replay_takes(tmp_path: Path) -> None:
    """The seed's range is one (MAX_SEED, exclusive, as a replay checks it): the largest seed play accepts is
    replayed, and one beyond it is a usage error of play and simulate, never a game that cannot be replayed."""
    save = tmp_path / "g.json"
    largest = str(MAX_SEED - 1)
    played = CliRunner().invoke(main, ["play", "exercise-tiger", "--variant", "practice-run", "--seed", largest,
                                       "--auto", "reference", "--save", str(save)])
    assert played.exit_code == 0, played.output
    replayed = CliRunner().invoke(main, ["replay", str(save)])
    assert replayed.exit_code == 0 and "identical" in replayed.output, replayed.output
    for seed in (str(MAX_SEED), str(-MAX_SEED), "99999999999999999999999999"):
        for command in (["play", "exercise-tiger", "--auto", "reference"], ["simulate", "exercise-tiger"]):
            result = CliRunner().invoke(main, [*command, "--seed", seed])
            assert result.exit_code == 2 and "--seed" in result.output, result.output


# ------------------------------------------------------------------ at a narrow terminal
# Two Units in Omaha Beach, a player answering '1 2' (taken where two are asked), else '3' (die 3 re-rolled, or an
# option 3), else the first of 1, 2, 4, 5, 6 that is an option (a die a Skull cancels): three turns, long lines of
# every sort (the notes, the board's rows and legend, the players' lines, the dice, the refusals).
NARROW_GAME = ["play", "omaha-beach", "--seed", "4", "--players", "2"]
NARROW_INPUT = "1 2\n3\n1\n2\n4\n5\n6\n" * 150


def test_play_fits_its_lines_to_the_terminals_width() -> None:
    """With COLUMNS=60 every line is at most 60 long, and says the same words as the lines of a log (no COLUMNS,
    no terminal), which stay whole."""
    narrow = CliRunner().invoke(main, NARROW_GAME, input=NARROW_INPUT, env={"COLUMNS": "60"})
    whole = CliRunner().invoke(main, NARROW_GAME, input=NARROW_INPUT, env={"COLUMNS": None})
    assert narrow.exit_code == whole.exit_code == 0, narrow.output
    assert max(len(line) for line in narrow.output.splitlines()) <= 60, narrow.output
    assert narrow.output.split() == whole.output.split()  # the same words: only where lines break differs
    assert "  (DEF in brackets: [black shield] = can't stay here; MGF n = n Machine Gun Fire dice; <U1> = Units; " \
           "* safe, x wiped out; ! = told below)\n" in whole.output  # a log keeps today's lines
    assert "  row 4 (3 Courage to Advance here):\n    Sector 7(8) MGF1!   Sector 8(7) MGF1!\n" in narrow.output


def test_a_board_row_too_wide_lists_its_sectors_under_its_label() -> None:
    content, _ = load()
    assert content is not None
    game = Game(content, "omaha-beach", players=2, seed=4, deciders=[make_policy("reference", 1)] * 2)
    for width in (40, 50, 60):
        lines = board(game, width).splitlines()
        assert max(map(len, lines)) <= width, lines
        assert " ".join(lines).split() == board(game).split()
    assert board(game, 200) == board(game)


def test_play_at_a_terminal_of_60_columns_fits_it(tmp_path: Path) -> None:
    """Through a real terminal (a pty 60 columns wide, COLUMNS not set): the first question's lines fit it."""
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 60, 0, 0))
    env = {k: v for k, v in os.environ.items() if k not in {"COLUMNS", "LINES"}}
    proc = subprocess.Popen([sys.executable, "-m", "ddaydice.interpreter.cli", *NARROW_GAME], stdin=slave,
                            stdout=slave, stderr=slave, env=env, cwd=tmp_path, start_new_session=True)
    os.close(slave)
    seen = b""
    try:
        while b"your choice" not in seen:
            ready, _, _ = select.select([master], [], [], 60)
            assert ready, seen.decode(errors="replace")
            seen += os.read(master, 65536)
        os.write(master, b"\x04")  # Ctrl-D: the game is abandoned
        assert proc.wait(timeout=60) == 1
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(master)
    lines = seen.decode().replace("\r\n", "\n").splitlines()
    assert "=== Turn 1 ===" in lines
    assert max(len(line) for line in lines) <= 60, lines


def columns(line: str) -> int:
    """The columns a line takes at a terminal, counted here on its own: East Asian wide and fullwidth characters
    two, combining marks none."""
    import unicodedata

    return sum(0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in line)


def test_play_fits_names_of_wide_characters_to_the_terminals_columns(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """A modder's map whose Sectors are named in Chinese (two columns a character) and one with a combining mark (no
    column of its own), played at COLUMNS=40: no line takes more than 40 columns, the board's rows and the prose
    alike, and every name is still shown whole or wrapped, never lost."""
    pack = tmp_path / "zh"
    (pack / "maps").mkdir(parents=True)
    (pack / "pack.yaml").write_text("id: zh\nname: Zh\nversion: '1'\ntext: A test pack.\nprovenance: reconstructed\n"
                                    "note: a test\n", encoding="utf-8")
    tiger = (Path(__file__).resolve().parent.parent / "maps" / "exercise-tiger.yaml").read_text(encoding="utf-8")
    tiger = tiger.replace("id: exercise-tiger", "id: tiger-zh", 1).replace("name: Sector 1\n", "name: Cafe\u0301 1\n")
    for n in range(2, 11):
        tiger = tiger.replace(f"name: Sector {n}\n", f"name: 第{n}区斯拉普顿沙滩登陆场\n", 1)
    (pack / "maps" / "tiger-zh.yaml").write_text(tiger, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    game = ["play", "tiger-zh", "--pack", "zh", "--variant", "practice-run", "--seed", "1"]
    narrow = CliRunner().invoke(main, game, input=NARROW_INPUT, env={"COLUMNS": "40"})
    assert narrow.exit_code == 0, narrow.output
    assert "第10区斯拉普顿沙滩登陆场(10) MGF1" in narrow.output and "Cafe\u0301 1(2) <U1>" in narrow.output
    assert max(columns(line) for line in narrow.output.splitlines()) <= 40, narrow.output
    whole = CliRunner().invoke(main, game, input=NARROW_INPUT, env={"COLUMNS": None})
    assert narrow.output.split() == whole.output.split()  # the same words: only where lines break differs


# ------------------------------------------------------------------ at the prompt: help, names, undo, quit
def test_help_at_the_prompt_tells_the_options_how_to_answer_and_the_commands(snapshot: object) -> None:
    """'?' or 'help' at a prompt: the question's options, how to answer it (one number, or several where several
    are picked; a name or the start of one), and the commands; then the prompt again. Input that is no answer is
    one line and the prompt again; an option's name (or the start no other's shares) answers."""
    content, _ = load()
    assert content is not None
    game = Game(content, "exercise-tiger", seed=1, variant="practice-run", deciders=make_policy("reference"))
    said: list[str] = []
    move = Decision("move", "u1", "move?", ("stay", "advance to Sector 2", "advance to Sector 3"))
    answers = iter(["?", "xyz", "adv", "advance to sector 3"])
    assert Human(ask=lambda _prompt: next(answers), say=said.append).decide(game, move) == (2,)
    lock = Decision("lock", "u1", "Lock dice", ("red skull", "white star", "blue one-soldier"), min_picks=0,
                    max_picks=3)
    answers = iter(["help", "white"])
    assert Human(ask=lambda _prompt: next(answers), say=said.append).decide(game, lock) == (1,)
    helps = "\n".join(said).split("\nhelp: ")[1:]  # the two helps (each up to its last command, quit)
    assert "\n".join("help: " + text.split("\n  'xyz'")[0] for text in helps) == snapshot
    assert "  'xyz' is no option here: type an option's number (1..3) or its name, or ? for help" in said
    assert "  'adv' names options 2 (advance to Sector 2), 3 (advance to Sector 3): type more of it, or a number" \
        in said


UNDO_GAME = ["play", "exercise-tiger", "--variant", "practice-run", "--seed", "1"]
# Its first turn's questions: lock exactly 2 dice (1 and 2), re-roll 0 to 4 of dice 3 to 6 (twice), move (1 stay, 2
# or 3 advance); the combat's losses are Soldiers only (not asked); then turn 2's. After them, '1 2' is taken where
# two are asked (the Lock), else '3' (die 3 re-rolled, or option 3), else the first of 1, 2, 4, 5, 6 offered.
TURN_1 = ["1 2", "3", "3 4", "1"]
REST = ["1 2", "3", "1", "2", "4", "5", "6"] * 100


def saved_game(tmp_path: Path, name: str, game: list[str], answers: list[str]) -> tuple[str, str]:
    """The file a game played with ``answers`` saves, and what it said."""
    save = tmp_path / name
    result = CliRunner().invoke(main, [*game, "--save", str(save)], input="\n".join(answers) + "\n")
    assert result.exit_code == 0 and "The game is" in result.output, result.output
    return save.read_text(encoding="utf-8"), result.output


def test_undo_takes_back_the_last_decision_and_the_game_goes_on_as_if_it_never_was(tmp_path: Path) -> None:
    """Answers taken back by 'undo' (one, then two in a row, then one of turn 1 from turn 2's first question) leave
    the game the player's other answers give: the saved file (its choices and digest) is the one of the game played
    with them alone. With a policy playing another Unit (u2, random and seeded), its decisions are the same again."""
    direct, _ = saved_game(tmp_path, "direct.json", UNDO_GAME, TURN_1 + REST)
    undone, said = saved_game(tmp_path, "undone.json", UNDO_GAME,
                              ["1 2", "4", "undo", "3", "3 4", "3", "undo", "undo", "3 4", "2", "undo", "1", *REST])
    assert undone == direct
    assert said.count("undo: your last decision is taken back") == 4
    assert said.index("=== Turn 2 ===") < said.rindex("undo: your last decision")  # (the last one from turn 2)
    two = [*UNDO_GAME, "--players", "2", "--auto", "u2=random"]
    first = ["1 2", "3", "3 4", "1 2", "1", "1"]  # (its first turn's questions: the Units' rolls, purchase, move)
    direct, _ = saved_game(tmp_path, "two.json", two, first + REST)
    undone, _ = saved_game(tmp_path, "two-undone.json", two, [*first, "undo", "undo", "undo", *first[2:], *REST])
    assert undone == direct


def test_undo_before_any_decision_is_refused_and_quit_saves_the_game_so_far(tmp_path: Path) -> None:
    """'undo' at the first question has nothing to take back (one line, the question again); 'quit' abandons the
    game (exit 1) and, with --save, the game so far is saved, replayed by dday replay to where its choices end."""
    save = tmp_path / "quit.json"
    result = CliRunner().invoke(main, [*UNDO_GAME, "--save", str(save)], input="undo\n1 2\n3\nquit\n")
    assert result.exit_code == 1, result.output
    assert "  nothing to undo: this is your first decision\n" in result.output
    assert result.output.endswith(f"game abandoned\nthe game so far (unfinished) saved to {save} (replay it with: "
                                  f"dday replay {save})\n")
    saved = json.loads(save.read_text(encoding="utf-8"))
    assert saved["choices"] == [[0, 1], [0]] and saved["outcome"] is None
    replay = CliRunner().invoke(main, ["replay", str(save)])
    assert replay.exit_code == 0, replay.output
    assert "saved unfinished; its 2 choice(s) end in turn 1, roll phase; position there identical" in replay.output
    later = CliRunner().invoke(main, ["replay", str(save), "--until", "2.roll", "--to-scenario",
                                      str(tmp_path / "s.yaml")])
    assert later.exit_code == 1 and "REPLAY007" in later.output, later.output
    assert "the game ended (unfinished) in turn 1, before the end of turn 2's roll phase" in later.output
    on = CliRunner().invoke(main, ["replay", str(save), "--until", "1.roll", "--to-scenario", str(tmp_path / "s.yaml"),
                                   "--play-on"])
    assert on.exit_code == 1 and "REPLAY007" in on.output and "saved unfinished" in on.output, on.output


def test_a_closed_output_saves_the_game_so_far_and_ends_quietly(tmp_path: Path) -> None:
    """'dday play --save F | head': when the reader of the output quits, the game so far is saved to F and the
    command ends as every command does on a closed output (status 1, nothing on standard error). A real process:
    two questions answered, then its output closed, then a third answer."""
    save = tmp_path / "so-far.json"
    proc = subprocess.Popen([sys.executable, "-m", "ddaydice.interpreter.cli", *UNDO_GAME, "--save", str(save)],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=tmp_path)
    assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
    try:
        seen = b""
        for asked, answer in ((1, b"1 2\n"), (2, b"3\n")):
            while seen.count(b"your choice") < asked:
                chunk = os.read(proc.stdout.fileno(), 65536)
                assert chunk, seen.decode(errors="replace")
                seen += chunk
            proc.stdin.write(answer)
            proc.stdin.flush()
        proc.stdout.close()  # the reader quits
        with contextlib.suppress(BrokenPipeError):  # (the game may have ended on its next line already)
            proc.stdin.write(b"1 2\n" * 50)
            proc.stdin.flush()
        assert proc.wait(timeout=120) == 1
        assert proc.stderr.read() == b""
    finally:
        if proc.poll() is None:
            proc.kill()
        with contextlib.suppress(BrokenPipeError):
            proc.stdin.close()
        proc.stderr.close()
    saved = json.loads(save.read_text(encoding="utf-8"))
    assert saved["outcome"] is None and saved["choices"][:2] == [[0, 1], [0]]
    replay = CliRunner().invoke(main, ["replay", str(save)])
    assert replay.exit_code == 0 and "position there identical" in replay.output, replay.output


def test_play_checks_the_invariants_at_the_end_of_the_game_as_simulate_does(monkeypatch: pytest.MonkeyPatch) -> None:
    """dday play --check-invariants ends the game as Game.run does: the watch hears its end once (the invariants
    checked at the end of a game); the play loop never told it, so those checks never ran in dday play."""
    from ddaydice.interpreter.tools import invariants

    ended: list[str | None] = []
    heard = invariants.Watch.game_ends

    def game_ends(self: invariants.Watch, game: GameAPI) -> None:
        ended.append(game.state.outcome)
        heard(self, game)

    monkeypatch.setattr(invariants.Watch, "game_ends", game_ends)
    result = CliRunner().invoke(main, ["play", "exercise-tiger", "--variant", "advanced-training", "--seed", "5",
                                       "--auto", "reference", "--check-invariants"])
    assert result.exit_code == 0, result.output
    assert len(ended) == 1 and ended[0] is not None, ended
