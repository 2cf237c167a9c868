"""Simulation as a balance tool: the outcome measures, cards forced in or out, dday compare and dday impact."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from pack_kit import card, make_pack

from ddaydice.dsl.loader import Content, load_cached
from ddaydice.interpreter.cli import main
from ddaydice.interpreter.tools.forced import Forced, ForcedGame
from ddaydice.interpreter.tools.measures import MEASURES
from ddaydice.interpreter.tools.outcome import end_of_game
from ddaydice.interpreter.tools.simulate import Spec, game_of, per_game_text, play_one
from ddaydice.interpreter.tools.stats import distribution, holm, paired, quantile, t_cdf, t_ppf

TIGER = ["map=exercise-tiger", "variant=practice-run", "policy=reference"]


def _content() -> Content:
    content, diags = load_cached()
    assert content is not None, diags
    return content


def _the_medic(content: Content) -> str:
    """The Medic: a Specialist that saves a Soldier in each Phase, a strong card for a player who recruits none."""
    assert content.card_kinds["medic"] == "specialist"
    return "medic"


def _cli(*args: str) -> Any:
    return CliRunner().invoke(main, list(args))


def _json(*args: str) -> dict[str, Any]:
    result = _cli(*args, "--format", "json", "-q")
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.output)
    return data


# ------------------------------------------------------------------ statistics
def test_student_t_matches_the_printed_tables() -> None:
    for df, expected in ((1, 12.706), (5, 2.571), (10, 2.228), (30, 2.042), (1000, 1.962)):
        assert t_ppf(0.975, df) == pytest.approx(expected, abs=1e-3)
    assert t_cdf(0.0, 7) == pytest.approx(0.5)
    assert t_cdf(2.0, 5) == pytest.approx(0.94903, abs=1e-5)


def test_the_paired_interval_by_hand() -> None:
    # differences 1, 0, 2, 1: mean 1, sd sqrt(2/3), se 0.408, t(0.975, 3) = 3.182
    d = paired([1, 2, 3, 4], [2, 2, 5, 5])
    assert d.n == 4 and d.diff == 1.0
    half = 3.1824 * math.sqrt(2 / 3) / 2
    assert d.lo == pytest.approx(1 - half, abs=1e-3) and d.hi == pytest.approx(1 + half, abs=1e-3)
    assert d.p == pytest.approx(0.0917, abs=1e-3) and not d.significant
    # a measure that exists in some games only is paired where it exists in both
    assert paired([1, None, 3], [2, 5, None]).n == 1
    same = paired([3, 1, 4, 1, 5], [3, 1, 4, 1, 5])
    assert (same.diff, same.lo, same.hi, same.significant) == (0.0, 0.0, 0.0, False)


def test_distribution_quantiles_and_histogram() -> None:
    d = distribution([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
    assert (d["n"], d["mean"], d["min"], d["max"], d["median"]) == (10, 5.5, 1, 10, 5.5)
    assert d["p25"] == quantile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 0.25) == 3.25
    assert sum(d["histogram"].values()) == 10
    wide = distribution(list(range(100)))
    assert len(wide["histogram"]) <= 20 and sum(wide["histogram"].values()) == 100


# ------------------------------------------------------------------ measures
def test_the_measures_table_keeps_a_space_between_any_two_numbers() -> None:
    """A quantile of six characters (149.25) widened its column's text into the next one: '128.5149.25'. Every
    row splits into its label's words and its ten numbers, and the numbers stand right under their headings."""
    from ddaydice.interpreter.tools.measures import summary as measures_summary
    from ddaydice.interpreter.tools.measures import table_lines
    from ddaydice.interpreter.tools.simulate import GameRecord

    records = [GameRecord(i, "won", 10, "", (), (("s1", 1000 * i + 25 * (i % 4)),), (), (), soldiers_left=i)
               for i in range(1, 41)]
    lines = table_lines(measures_summary(records))
    head = lines[0]
    for line in lines[1:]:
        if line.endswith(":"):
            continue
        numbers = line.split()[-10:]
        assert all(n.replace(".", "", 1).isdigit() for n in numbers), line
        assert len(line) == len(head), (head, line)  # (right-aligned under the headings)
    assert any("." in n and len(n) >= 6 for line in lines for n in line.split())


def test_simulate_reports_every_measure_with_its_distribution() -> None:
    data = _json("simulate", "exercise-tiger", "--variant", "practice-run", "--games", "60", "--seed", "5")
    assert set(data["measures"]) == set(MEASURES)
    for d in data["measures"].values():
        assert d["min"] <= d["p10"] <= d["p25"] <= d["median"] <= d["p75"] <= d["p90"] <= d["max"]
    assert data["measures"]["won"]["mean"] == data["win_rate"]
    assert data["measures"]["turns"]["mean"] == data["mean_turns"]
    assert data["measures"]["turns_to_win"]["n"] == data["wins"]
    assert data["measures"]["casualties"]["mean"] == pytest.approx(sum(data["soldiers_lost_by_sector"].values()))
    for sector, d in data["casualties_by_sector"].items():
        assert d["n"] == 60 and d["mean"] == pytest.approx(data["soldiers_lost_by_sector"][sector])


def test_victory_points_are_the_rulebooks_whether_the_option_is_on_or_not() -> None:
    off = _json("simulate", "omaha-beach", "--games", "40", "--seed", "2")
    on = _json("simulate", "omaha-beach", "--games", "40", "--seed", "2", "--option", "victory-points")
    assert on["victory_points"]["group"]["mean"] == on["measures"]["victory_points"]["mean"]
    assert off["measures"]["victory_points"] == on["measures"]["victory_points"]
    assert off["measures"]["victory_points"]["min"] > 0


def test_the_text_and_the_plot_show_the_measures(tmp_path: Path) -> None:
    png = tmp_path / "s.png"
    result = _cli("simulate", "exercise-tiger", "--variant", "practice-run", "--games", "30", "-q", "--plot", str(png))
    assert result.exit_code == 0, result.output
    for label, _ in MEASURES.values():
        assert label in result.output
    assert "casualties by Sector" in result.output
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_comparison_plot_shows_won_in_percentage_points_as_the_table_does(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The table prints 'won' as percentages (+9.0%); the plot's axis said 0.09: it reads 9% (9.0%) too, and its panel
    says the difference is in percentage points. Other measures keep their numbers."""
    from ddaydice.interpreter.tools import plots

    drawn: list[Any] = []
    monkeypatch.setattr(plots, "_save", lambda plt, fig, path: drawn.append(fig))
    diff = {"difference": 0.09, "ci95": [0.05, 0.13], "significant_holm": True}
    plots.compare_plot("t", ["with - without"], [("won", [diff]), ("soldiers_left", [diff])], tmp_path / "p.png")
    (fig,) = drawn
    won, soldiers = fig.axes[:2]
    assert won.get_title() == "won (percentage points)"
    tick = won.xaxis.get_major_formatter()(0.09, 0)
    assert tick.endswith("%") and float(tick.rstrip("%")) == 9
    assert soldiers.get_title() == "Soldiers left"
    assert "%" not in soldiers.xaxis.get_major_formatter()(0.09, 0)


@pytest.mark.parametrize("command", [
    ["simulate", "exercise-tiger", "--variant", "practice-run", "--games", "4"],
    ["compare", "-s", " ".join(["name=a", *TIGER]), "-s", " ".join(["name=b", *TIGER, "give=medic"]), "--games", "4"],
    ["impact", "medic", "--map", "exercise-tiger", "--variant", "practice-run", "--games", "4"],
])
@pytest.mark.parametrize(("name", "problem"), [
    ("nodir/p.png", "the folder {tmp}/nodir does not exist"),
    ("p.foo", "the file's suffix gives the format: .png, .svg, .pdf ('.foo' is not one of them)"),
    ("p", "the file's suffix gives the format: .png, .svg, .pdf (it has none)"),
])
def test_a_plot_that_cannot_be_written_is_a_usage_error_before_any_game(
        tmp_path: Path, command: list[str], name: str, problem: str) -> None:
    result = _cli(*command, "-q", "--plot", str(tmp_path / name))
    assert result.exit_code == 2, result.output
    assert isinstance(result.exception, SystemExit)  # (a usage error, not a traceback)
    assert problem.format(tmp=tmp_path) in result.output
    assert "won" not in result.output  # (no game was played: no table)


@pytest.mark.parametrize("suffix", ["svg", "pdf"])
def test_the_plot_format_is_the_files_suffix(tmp_path: Path, suffix: str) -> None:
    out = tmp_path / f"s.{suffix}"
    result = _cli("simulate", "exercise-tiger", "--variant", "practice-run", "--games", "4", "-q", "--plot", str(out))
    assert result.exit_code == 0, result.output
    assert out.read_bytes().startswith(b"%PDF" if suffix == "pdf" else b"<?xml")


def test_a_plot_that_fails_after_the_games_keeps_the_results_and_the_old_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import matplotlib.figure

    def full(*_args: Any, **_kwargs: Any) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(matplotlib.figure.Figure, "savefig", full)
    png = tmp_path / "s.png"
    png.write_bytes(b"the old plot")
    result = _cli("simulate", "exercise-tiger", "--variant", "practice-run", "--games", "4", "-q", "--plot", str(png))
    assert result.exit_code == 1
    assert isinstance(result.exception, SystemExit)  # (an error message, not a traceback)
    assert "turns played" in result.output  # the results, printed before the plot
    assert f"--plot {png}: the plot could not be written: No space left on device" in result.output
    assert png.read_bytes() == b"the old plot"
    assert [p.name for p in tmp_path.iterdir()] == ["s.png"]  # no temporary file left


# ------------------------------------------------------------------ forced cards
def test_a_given_card_is_held_by_every_unit_from_the_start_and_out_of_the_pool() -> None:
    content = _content()
    medic = _the_medic(content)
    from ddaydice.interpreter.policies.registry import make_policy

    game = ForcedGame(content, "juno-beach", forced=[Forced(medic, "give")], players=2, seed=4,
                      deciders=[make_policy("reference")] * 3)
    game.run_turn()  # turn 0 chooses the starts (a map with two), then gives the cards, then turn 1
    assert all(medic in u.specialists or medic in u.dead for u in game.state.units)
    assert medic not in game.state.pool and all(medic not in h for h in game.state.hands.values())
    absent = ForcedGame(content, "juno-beach", forced=[Forced(medic, "absent")], players=2, seed=4,
                        deciders=[make_policy("reference")] * 3)
    assert medic not in absent.state.pool and all(medic not in h for h in absent.state.hands.values())
    # a forced game holds its attributes in slots, as every game (tests/test_engine.py): the plan it takes or
    # shares (a second game with the same forced card takes the first's) never lands in its own dict
    again = ForcedGame(content, "juno-beach", forced=[Forced(medic, "give")], players=2, seed=5,
                       deciders=[make_policy("reference")] * 3)
    again.run_turn()
    # (compiled, a game has no instance dict at all)
    assert all(getattr(g, "__dict__", {}) == {} for g in (game, absent, again))


def test_a_card_the_variant_never_offers_still_acts_when_given() -> None:
    # Practice Run has no Specialists: the plan of its games knows no card that touches casualties; a game with
    # the Medic forced in works its plan out again, and the Medic saves Soldiers.
    content = _content()
    medic = _the_medic(content)
    assert content.maps["exercise-tiger"].variants[0].specialists == ()
    data = _json("compare", "-s", " ".join(["name=without", *TIGER]), "-s", " ".join(["name=with", *TIGER,
                 f"give={medic}"]), "--games", "60", "--measure", "casualties")
    d = data["measures"]["casualties"]["differences"][0]
    assert d["significant"] and d["ci95"][1] < 0


def test_end_of_game_counts_what_the_units_hold() -> None:
    content = _content()
    medic = _the_medic(content)
    spec = Spec("omaha-beach", None, 1, "reference", 0, forced=(Forced(medic, "give"),))
    rec = play_one(content, spec, 3)
    from ddaydice.interpreter.policies.registry import make_policy

    game = ForcedGame(content, "omaha-beach", forced=spec.forced, seed=rec.index, deciders=make_policy("reference"))
    game.run()
    soldiers, specialists, vp = end_of_game(game)
    assert soldiers == sum(u.soldiers for u in game.state.units if u.status != "dead")
    assert specialists == sum(len(u.specialists) for u in game.state.units if u.status != "dead")
    assert vp is not None and vp > 0


def test_a_games_own_score_is_its_victory_points() -> None:
    """With the victory-points option on, the record's score (the options' table) and its VP are the same count, the
    VP read from the score already counted; with it off, the VP is the rulebook's table all the same."""
    content = _content()
    for options in (("victory-points",), ()):
        rec = play_one(content, Spec("omaha-beach", None, 2, "reference", 0, options), 1)
        if options:
            assert rec.score is not None and rec.vp == rec.score == min(rec.unit_scores)
        else:
            assert rec.score is None and rec.vp is not None and rec.vp > 0


# ------------------------------------------------------------------ dday compare
def test_compare_text(snapshot: object) -> None:
    medic = _the_medic(_content())
    result = _cli("compare", "-s", " ".join(["name=without", *TIGER, f"absent={medic}"]),
                  "-s", " ".join(["name=with", *TIGER, f"give={medic}"]), "--games", "120", "--batch", "60", "-q")
    assert result.exit_code == 0, result.output
    assert result.output == snapshot


def test_a_strong_card_is_found_significant() -> None:
    medic = _the_medic(_content())
    base = ["map=omaha-beach", "policy=reference"]
    data = _json("compare", "-s", " ".join(["name=none", *base, f"absent={medic}"]),
                 "-s", " ".join(["name=medic", *base, f"give={medic}"]), "--games", "200")
    for name in ("won", "soldiers_left", "victory_points"):
        d = data["measures"][name]["differences"][0]
        assert d["significant"] and d["ci95"][0] > 0, (name, d)
        assert d["p"] < 0.001
    casualties = data["measures"]["casualties"]["differences"][0]
    assert casualties["significant"] and casualties["ci95"][1] < 0


def test_identical_setups_differ_by_zero_and_not_significantly() -> None:
    data = _json("compare", "-s", " ".join(["name=a", *TIGER]), "-s", " ".join(["name=b", *TIGER]),
                 "--games", "80", "--batch", "40")
    for name, m in data["measures"].items():
        d = m["differences"][0]
        assert d["difference"] == 0 and not d["significant"], name
        assert m["means"][0] == m["means"][1]


def test_compare_stops_at_the_precision_and_whatever_the_jobs() -> None:
    medic = _the_medic(_content())
    args = ["compare", "-s", " ".join(["name=without", *TIGER, f"absent={medic}"]),
            "-s", " ".join(["name=with", *TIGER, f"give={medic}"]), "--games", "600", "--batch", "50",
            "--precision", "won=0.25", "--precision", "turns=2"]
    one = _json(*args, "--jobs", "1")
    two = _json(*args, "--jobs", "2")
    assert one == two
    assert one["stopped"] == "precision" and one["games"] < 600 and one["games"] % 50 == 0
    for name in ("won", "turns"):
        lo, hi = one["measures"][name]["differences"][0]["ci95"]
        assert hi - lo < (0.25 if name == "won" else 2)
    full = _json(*args[:-4])
    assert full["stopped"] == "games" and full["games"] == 600


def test_a_setup_file(tmp_path: Path) -> None:
    medic = _the_medic(_content())
    f = tmp_path / "c.yaml"
    f.write_text(f"base: {{map: exercise-tiger, variant: practice-run, policy: reference}}\n"
                 f"games: 40\nseed: 9\nsetups:\n  - {{name: none, absent: [{medic}]}}\n"
                 f"  - {{name: given, give: [{medic}]}}\n  - {{name: in the pool, pool: [{medic}]}}\n")
    data = _json("compare", str(f))
    assert [s["name"] for s in data["setups"]] == ["none", "given", "in the pool"]
    assert data["games"] == 40 and data["seed"] == 9
    assert len(data["measures"]["won"]["differences"]) == 2


def test_a_bad_setup_file_is_reported_where_it_is_wrong(tmp_path: Path, snapshot: object) -> None:
    f = tmp_path / "bad.yaml"
    f.write_text("base:\n  map: omaha-beech\n  policy: reference\nsetups:\n  - {name: a}\n"
                 "  - {name: b, map: exercise-tiger, give: [medik], policy: heuristik}\n")
    result = _cli("compare", str(f))
    assert result.exit_code == 1
    assert result.output.replace(str(tmp_path), "TMP") == snapshot
    js = _cli("compare", str(f), "--format", "json")
    assert js.exit_code == 1
    codes = {d["code"] for d in json.loads(js.output)}
    assert codes == {"SETUP001"}


def test_every_problem_of_a_setup_file_is_told_at_once(tmp_path: Path) -> None:
    """An unknown map hides nothing else: the policy, each bad card of a list, the options and the number of players
    (1 to 4 whatever the map) are checked without it. A problem written once in 'base' is told once, for every
    set-up it reaches; the problems come in the file's order."""
    f = tmp_path / "bad.yaml"
    f.write_text("base:\n  map: omaha-bech\n  policy: casul\nsetups:\n  - {name: a}\n"
                 "  - {name: b, give: [medik, flak-vst], options: [no-such-rule], players: 9}\n")
    js = _cli("compare", str(f), "--format", "json")
    assert js.exit_code == 1
    found = [(d["line"], d["column"], *re.sub(r" \(there are: [^)]*\)", "", d["message"]).split(": ", 1))
             for d in json.loads(js.output)]
    assert sorted(found) == sorted([
        (2, 8, "set-ups 1, 2", "no map 'omaha-bech'"),
        (3, 11, "set-ups 1, 2", "no policy 'casul' (policies: random, reference, heuristic, novice, casual, expert, "
                                "or skill:S with S from 0 to 1)"),
        (6, 22, "set-up 2", "no card 'medik'"),  # (each card at its place in the list)
        (6, 29, "set-up 2", "no card 'flak-vst'"),
        (6, 50, "set-up 2", "no optional rule 'no-such-rule'"),
        (6, 74, "set-up 2", "D-Day Dice is for 1 to 4 Units, not 9"),
    ])
    assert [(d["line"], d["column"]) for d in json.loads(js.output)] == sorted(f[:2] for f in found)  # (in order)


def test_an_unknown_key_hides_no_other_problem_of_a_setup_file(tmp_path: Path) -> None:
    """The schema's problems and the set-ups' are told together: what the schema accepts is checked too."""
    f = tmp_path / "bad.yaml"
    f.write_text("base:\n  map: omaha-bech\n  colour: red\nsetups:\n  - {name: a, optoins: [x]}\n"
                 "  - {name: b, give: [medik], options: [no-such-rule], players: 9}\n")
    js = _cli("compare", str(f), "--format", "json")
    assert js.exit_code == 1
    found = [(d["line"], d["column"], d["code"], re.sub(r" \(there are: [^)]*\)", "", d["message"]))
             for d in json.loads(js.output)]
    assert found == [
        (2, 8, "SETUP001", "set-ups 1, 2: no map 'omaha-bech'"),
        (3, 3, "SCHEMA002", "unknown key 'colour'"),
        (5, 15, "SCHEMA002", "unknown key 'optoins'"),
        (6, 22, "SETUP001", "set-up 2: no card 'medik'"),
        (6, 40, "SETUP001", "set-up 2: no optional rule 'no-such-rule'"),
        (6, 64, "SETUP001", "set-up 2: D-Day Dice is for 1 to 4 Units, not 9"),
    ]


def test_every_problem_of_the_command_line_setups_is_one_usage_error() -> None:
    bad = _cli("compare", "-s", "map=omaha-beach policy=casul", "-s", "map=omaha-bech give=medik,flak-vst",
               "-s", "map=omaha-beach colour=red side_polcy=casual players=two")
    assert bad.exit_code == 2
    lines = [x for x in bad.output.splitlines() if x.startswith(("Error: --setup", "--setup"))]
    assert [x.removeprefix("Error: ").split(" (")[0] for x in lines] == [
        "--setup 1: policy: no policy 'casul'",
        "--setup 2: map: no map 'omaha-bech'",
        "--setup 2: give: no card 'medik'",
        "--setup 2: give: no card 'flak-vst'",
        "--setup 3: unknown key 'colour'; keys: name, map, variant, players, policy, side-policy, options, packs, "
        "give, pool, absent",
        "--setup 3: unknown key 'side_polcy'",
        "--setup 3: players=two: expected a whole number",
    ]
    assert "(did you mean 'casual'?)" in lines[0] and "(did you mean 'flak-vest'?)" in lines[3]


def test_impact_tells_every_problem_once_by_its_option() -> None:
    bad = _cli("impact", "medik", "--map", "omaha-bech", "--policy", "casul", "--policy", "expret", "--games", "4")
    assert bad.exit_code == 2
    lines = [x.removeprefix("Error: ").split(" (")[0] for x in bad.output.splitlines()
             if x.startswith(("Error: ", "--", "CARD"))]
    assert sorted(lines) == sorted(["--map: no map 'omaha-bech'", "--policy: no policy 'casul'",
                                    "--policy: no policy 'expret'", "CARD: no card 'medik'"])


def test_bad_descriptions_are_usage_errors() -> None:
    bad = _cli("compare", "-s", "map=omaha-beach", "-s", "map=omaha-beach colour=red")
    assert bad.exit_code == 2 and "unknown key 'colour'" in bad.output
    bad = _cli("compare", "-s", "map=omaha-beach")
    assert bad.exit_code == 2 and "2 set-ups or more" in bad.output
    bad = _cli("compare", "-s", "map=omaha-beach", "-s", "map=omaha-beach", "--precision", "wins=0.1")
    assert bad.exit_code == 2 and "no measure 'wins'" in bad.output


def test_a_precision_is_only_for_a_measure_reported() -> None:
    """A precision for a measure not reported would stop the run on an interval nobody reads: a usage error, before
    any game. Measures are named as typed, with '-' or '_', in --measure and --precision alike."""
    two = ["-s", " ".join(["name=a", *TIGER]), "-s", " ".join(["name=b", *TIGER, "give=medic"])]
    bad = _cli("compare", *two, "--measure", "victory-points", "--precision", "won=0.01", "--games", "40",
               "--batch", "20")
    assert bad.exit_code == 2, bad.output
    assert ("--precision won: not among the measures reported (victory-points); add --measure won, or drop the "
            "precision") in " ".join(bad.output.split())
    bad = _cli("impact", "medic", "--map", "omaha-beach", "--measure", "turns", "--precision", "casualties=1",
               "--games", "4")
    assert bad.exit_code == 2 and "--precision casualties: not among the measures reported (turns)" in bad.output
    bad = _cli("compare", *two, "--precision", "turns_to=1")
    assert bad.exit_code == 2 and "(measures: won, turns, turns-to-win, soldiers-left, specialists-left, " \
        "casualties, victory-points)" in " ".join(bad.output.split())
    for spelling in ("turns-to-win", "turns_to_win"):
        data = _json("compare", *two, "--measure", spelling, "--precision", f"{spelling}=100", "--games", "8",
                     "--batch", "4")
        assert list(data["measures"]) == ["turns_to_win"]


def test_a_precision_no_interval_was_held_to_is_not_reached() -> None:
    """The random player never wins: turns to win has no pair, and holds no run; but the run does not stop early
    claiming a precision it never read."""
    two = ["-s", "name=a map=exercise-tiger variant=practice-run policy=random",
           "-s", "name=b map=exercise-tiger variant=practice-run policy=random give=medic"]
    data = _json("compare", *two, "--measure", "turns-to-win", "--precision", "1", "--games", "8", "--batch", "4")
    assert data["measures"]["turns_to_win"]["differences"][0]["n"] == 0
    assert (data["games"], data["stopped"]) == (8, "games")


def test_holm_corrects_the_p_values_of_a_comparison_together() -> None:
    """Holm's step-down: the smallest p times the number of tests, the next times one less, each at least the one
    before, at most 1; returned in the order given (a textbook example)."""
    assert holm([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert holm([0.5, 0.9]) == [1.0, 1.0]  # (0.9 alone would stay 0.9, but never below the one before)
    assert holm([0.02]) == [0.02] and holm([]) == []


def test_compare_marks_significant_after_holms_correction() -> None:
    """A measure is significant when its Holm p is below 0.05, not its own p: 40 games (seed 105) of the casual player
    with the Flak Vest on Omaha read 'won -25.0%, p 0.011' (200 games: -10.0% [-19.1%, -0.9%], Holm's p 0.215), which
    the correction for the 7 measures does not mark. The JSON gives both p-values."""
    data = _json("compare", "-s", "name=plain map=omaha-beach policy=casual", "-s",
                 "name=vest map=omaha-beach policy=casual give=flak-vest", "--games", "40", "--seed", "105")
    won = data["measures"]["won"]["differences"][0]
    assert won["p"] < 0.05 and won["significant"]
    assert won["p_holm"] >= 0.05 and not won["significant_holm"]
    ps = {name: m["differences"][0] for name, m in data["measures"].items()}
    tested = [name for name, d in ps.items() if d["n"] >= 2]
    assert [ps[n]["p_holm"] for n in tested] == pytest.approx(holm([ps[n]["p"] for n in tested]))
    text = _cli("compare", "-s", "name=plain map=omaha-beach policy=casual", "-s",
                "name=vest map=omaha-beach policy=casual give=flak-vest", "--games", "40", "--seed", "105", "-q").output
    line = next(x for x in text.splitlines() if x.startswith("  won "))
    assert line.endswith("  no") and "Holm's p below 0.05" in text


# ------------------------------------------------------------------ dday impact
def test_impact_text(snapshot: object, tmp_path: Path) -> None:
    medic = _the_medic(_content())
    png = tmp_path / "i.png"
    result = _cli("impact", medic, "--map", "exercise-tiger", "--variant", "practice-run", "--policy", "reference",
                  "--policy", "random", "--games", "80", "--batch", "40", "-q", "--plot", str(png),
                  "--measure", "won", "--measure", "soldiers-left", "--measure", "turns")
    assert result.exit_code == 0, result.output
    assert result.output == snapshot
    assert png.read_bytes()[:4] == b"\x89PNG"


def test_impact_json_pairs_absent_with_given() -> None:
    medic = _the_medic(_content())
    data = _json("impact", medic, "--map", "omaha-beach", "--games", "100", "--to", "pool")
    assert data["card"] == medic and data["to"] == "pool"
    (only,) = data["results"]
    assert only["policy"] == "reference"
    assert [s["name"] for s in only["setups"]] == [f"without {medic}", f"with {medic}"]
    bad = _cli("impact", "no-such-card", "--map", "omaha-beach", "--games", "10")
    assert bad.exit_code == 2 and "no card 'no-such-card'" in bad.output


def _a_used_card(content: Content) -> str:
    """The Flak Vest: an Item that does nothing until it is used (no MGF casualties this turn)."""
    effect = content.effects["flak-vest"]
    assert effect.compiled.uses and not effect.compiled.modifiers
    return "flak-vest"


def test_impact_says_whether_the_policy_played_the_card() -> None:
    """An Item that acts only when used, given to a policy that uses no card (the reference policy), changes
    nothing: impact says so, and points to the players that use cards; the expert plays it, in some games."""
    vest = _a_used_card(_content())
    result = _cli("impact", vest, "--map", "omaha-beach", "--policy", "reference", "--policy", "expert",
                  "--games", "12", "--measure", "won", "-q")
    assert result.exit_code == 0, result.output
    reference, expert = result.output.split(f"\n\n{vest} (given")
    assert f"with {vest}: {vest}'s uses played in 0 of 12 games (0.00 a game)" in reference
    assert f"warning: policy reference never played {vest}'s uses" in reference
    assert "warning" not in expert
    line = next(x for x in expert.splitlines() if "uses played" in x)
    games_used = int(line.split("played in ")[1].split(" of")[0])
    assert 0 < games_used <= 12
    data = _json("impact", vest, "--map", "omaha-beach", "--policy", "reference", "--policy", "expert",
                 "--games", "12", "--measure", "won")
    (ref_uses,), (exp_uses,) = (r["card_uses"] for r in data["results"])
    assert ref_uses == {"setup": f"with {vest}", "card": vest, "games": 12, "games_used": 0, "uses": 0,
                        "per_game": 0.0}
    assert exp_uses["games_used"] == games_used and exp_uses["uses"] >= games_used


def test_compare_reports_the_uses_of_the_cards_a_setup_forces_in() -> None:
    """dday compare, the same: each set-up's given or pooled card that has a use gets its line (none for a card
    that acts without one, the Medic; none for a card made absent)."""
    vest = _a_used_card(_content())
    medic = _the_medic(_content())
    result = _cli("compare", "-s", f"name=a map=omaha-beach absent={vest}", "-s",
                  f"name=b map=omaha-beach give={vest},{medic}", "--games", "6", "--measure", "won", "-q")
    assert result.exit_code == 0, result.output
    lines = [x for x in result.output.splitlines() if "uses played" in x]
    assert lines == [f"  b: {vest}'s uses played in 0 of 6 games (0.00 a game)"]
    data = _json("compare", "-s", "name=a map=omaha-beach", "-s", f"name=b map=omaha-beach give={medic}",
                 "--games", "6", "--measure", "won")
    assert data["card_uses"] == []


def test_a_game_record_counts_the_uses_played() -> None:
    """GameRecord.uses: the players' used:OWNER counters of the game, summed and sorted."""
    content = _content()
    spec = Spec("exercise-tiger", "advanced-training", 1, "heuristic", seed=1)
    game, _ = game_of(content, spec, 3)
    game.run()
    counted = {k[5:]: n for u in game.state.units for k, n in u.counters.items() if k.startswith("used:")}
    record = play_one(content, spec, 3)
    assert record.uses == tuple(sorted(counted.items())) and record.uses
    assert play_one(content, Spec("exercise-tiger", "practice-run", 1, "reference", seed=1), 0).uses == ()


def test_simulate_reports_the_uses_played() -> None:
    """dday simulate's uses_played: per owner, the games it was played in and its uses a game, most played first;
    its text line, the same."""
    result = _cli("simulate", "exercise-tiger", "--variant", "advanced-training", "--policy", "expert",
                  "--games", "4", "-q")
    assert result.exit_code == 0, result.output
    data = _json("simulate", "exercise-tiger", "--variant", "advanced-training", "--policy", "expert",
                 "--games", "4")
    content = _content()
    spec = Spec("exercise-tiger", "advanced-training", 1, "expert", seed=0)
    records = [play_one(content, spec, i) for i in range(4)]
    totals: dict[str, int] = {}
    games: dict[str, int] = {}
    for r in records:
        for owner, n in r.uses:
            totals[owner] = totals.get(owner, 0) + n
            games[owner] = games.get(owner, 0) + 1
    played = data["uses_played"]
    assert played == {k: {"games": games[k], "per_game": totals[k] / 4} for k in played}
    assert set(played) == set(totals) and "corporal" in played
    per_game = [v["per_game"] for v in played.values()]
    assert per_game == sorted(per_game, reverse=True)
    line = next(x for x in result.output.splitlines() if x.startswith("  uses played, a game: "))
    assert line.endswith(", ".join(f"{k} {per_game_text(v['per_game'])}" for k, v in played.items()))
    assert per_game_text(0.001) == "<0.01" and per_game_text(0.0) == "0.00" and per_game_text(0.005) == "0.01"


def test_three_set_ups_are_corrected_as_one_family() -> None:
    """With three set-ups the table reads two differences a measure, 14 in all: Holm's correction takes them
    together (a correction per set-up, 7 at a time, let the table read a difference where there is none up to twice
    as often as the 5% it promised), and the note counts them. The p-values stay in their column, however long the
    set-ups' names make the differences."""
    three = ["-s", "name=plain map=omaha-beach policy=casual",
             "-s", "name=with-the-medic map=omaha-beach policy=casual give=medic",
             "-s", "name=with-the-flak-vest map=omaha-beach policy=casual give=flak-vest", "--games", "40"]
    data = _json("compare", *three)
    every = [(name, k, d) for name, m in data["measures"].items() for k, d in enumerate(m["differences"])]
    tested = [(name, k, d) for name, k, d in every if d["n"] >= 2]
    assert len(tested) > 7
    assert [d["p_holm"] for *_, d in tested] == pytest.approx(holm([d["p"] for *_, d in tested]))
    text = _cli("compare", *three, "-q").output
    assert f"corrected for the {len(tested)} differences compared (7 measures, 2 set-ups against the first)" \
        in " ".join(text.splitlines())
    rows = [x for x in text.splitlines() if " - plain: " in x and "too few pairs" not in x]
    assert len(rows) == 14
    head = next(x for x in text.splitlines() if x.lstrip().startswith("measure"))
    ends = [re.search(r"(\S+) +(\S+)  (yes|no)$", x) for x in rows]
    assert {(m.end(1), m.end(2)) for m in ends if m} == {(head.index("  Holm p"), head.index("Holm p") + 6)}



def write_pack(root: Path) -> Path:
    """A designer's pack, ``root/designs``, of one Specialist: the Angel (3 Soldiers saved in each Phase)."""
    return make_pack(root, "designs", {"specialists.yaml": "kind: specialist\ncards:\n"
                                       + card("angel", "casualties -3 once per phase", name="Angel", cost=4)})


def test_a_set_up_files_pack_path_is_read_from_the_files_folder(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """A set-up file beside a designer's pack names it by its path from the file, as a scenario does: the path was
    read from the current folder, so the same file worked or failed (or loaded another folder) by where it was run
    from. A path that leads to no pack is told at its line."""
    write_pack(tmp_path)
    (tmp_path / "runs").mkdir()
    setups = tmp_path / "runs" / "angel.yaml"
    setups.write_text("base: {map: exercise-tiger, variant: practice-run, policy: casual, packs: [../designs]}\n"
                      "games: 4\nbatch: 4\nsetups:\n  - {name: without}\n  - {name: with, give: [angel]}\n")
    monkeypatch.chdir(tmp_path)
    data = _json("compare", str(setups))
    assert data["games"] == 4
    assert f"packs {tmp_path / 'designs'}; angel given to each Unit" in data["setups"][1]["description"]
    setups.write_text(setups.read_text().replace("../designs", "../nowhere"))
    result = _cli("compare", str(setups))
    assert result.exit_code == 1
    assert result.output.splitlines()[0] == f"{setups}:1:76: PACK003 no pack folder at '../nowhere'"
    assert "SETUP001" not in result.output


def test_impact_to_the_pool_says_how_often_the_item_or_vehicle_was_found() -> None:
    """An Item or a Vehicle put into the Pool acts only once found: the report says in how many games a Unit found it,
    used or not (a Vehicle without a use, as the Tank, is told too), read from each game's record (found)."""
    args = ["--map", "omaha-beach", "--to", "pool", "--policy", "casual", "--games", "12", "--measure", "won"]
    vest = _json("impact", "flak-vest", *args)["results"][0]
    (row,) = vest["cards_taken"]
    (used,) = vest["card_uses"]
    assert (row["setup"], row["card"], row["games"]) == ("with flak-vest", "flak-vest", 12)
    assert used["games_used"] <= row["games_taken"] and row["games_taken"] > 0  # used only once found
    result = _cli("impact", "tank", *args, "-q")
    assert result.exit_code == 0, result.output
    line = next(x for x in result.output.splitlines() if " found in " in x)
    taken = int(line.split("found in ")[1].split(" of")[0])
    assert line == f"  with tank: tank found in {taken} of 12 games" and 0 <= taken <= 12


def test_impact_to_the_pool_says_how_often_the_specialist_was_recruited() -> None:
    """A Specialist put into the Pool acts only once recruited: the report says in how many games he was (the
    designer could not tell 'no effect' from 'never taken'), in text and JSON (cards_taken)."""
    medic = _the_medic(_content())
    result = _cli("impact", medic, "--map", "omaha-beach", "--to", "pool", "--policy", "casual", "--games", "12",
                  "--measure", "won", "-q")
    assert result.exit_code == 0, result.output
    line = next(x for x in result.output.splitlines() if " recruited in " in x)
    taken = int(line.split("recruited in ")[1].split(" of")[0])
    assert line == f"  with {medic}: {medic} recruited in {taken} of 12 games" and 0 <= taken <= 12
    data = _json("impact", medic, "--map", "omaha-beach", "--to", "pool", "--policy", "casual", "--games", "12",
                 "--measure", "won")
    (row,) = data["results"][0]["cards_taken"]
    assert row == {"setup": f"with {medic}", "card": medic, "games": 12, "games_taken": taken}
    given = _json("impact", medic, "--map", "omaha-beach", "--policy", "casual", "--games", "4", "--measure", "won")
    assert given["results"][0]["cards_taken"] == []  # given to each Unit: nothing to take


# ------------------------------------------------------------------ what the differences mean
def _comparison(outcomes: dict[str, str]) -> Any:
    """A comparison of made-up games: each set-up's name and its games' outcomes ('W' won, 'L' lost; 10 turns)."""
    from ddaydice.interpreter.tools.compare import Comparison, Setup
    from ddaydice.interpreter.tools.simulate import GameRecord

    spec = Spec("omaha-beach", None, 1, "reference", 0)
    records = tuple(tuple(GameRecord(i, "won" if o == "W" else "lost", 10, "", (), (), (), ()) for i, o in
                          enumerate(games)) for games in outcomes.values())
    return Comparison(tuple(Setup(name, spec) for name in outcomes), records, 1, "games", tuple(MEASURES), 0)


def test_a_win_rate_differences_interval_stays_within_the_possible() -> None:
    """25% against 100% in 4 games: the t interval ran to +154.6%, and a difference of two win rates is never
    beyond ±100%. The interval is clipped to what is possible; the p-value, and what is significant, stay."""
    from ddaydice.interpreter.tools.compare import table

    c = _comparison({"without": "LLLW", "with": "WWWW"})
    (won,) = c.differences("won")
    assert won.diff == 0.75 and won.hi == 1.0
    assert won.lo == pytest.approx(0.75 - t_ppf(0.975, 3) * 0.25)
    unclipped = paired([0, 0, 0, 1], [1, 1, 1, 1])
    assert unclipped.hi > 1.5 and (unclipped.p, unclipped.significant) == (won.p, won.significant)
    assert paired([1, 1, 1, 1], [0, 0, 0, 1], bounds=(0.0, 1.0)).lo == -1.0
    row = next(x for x in table(c) if x.startswith("  won "))
    assert "+75.0% [-4.6%, +100.0%]" in row


def test_the_turns_to_win_pairs_are_told_in_the_tables_order() -> None:
    """The note under a table of three set-ups gave the seeds won under both sorted ("35, 54"), not in the table's
    order, and two equal counts as one: each set-up's count is named, in the table's order."""
    from ddaydice.interpreter.tools.compare import table

    c = _comparison({"none": "WWWWWWLL", "ranger": "WWWWWWWW", "dud": "WWWLLLLL", "other": "WWWLLLLW"})
    note = next(x for x in table(c) if "won under both" in x)
    assert note.endswith("won under both: ranger 6, dud 3, other 3)")
    two = _comparison({"none": "WWWWWWLL", "ranger": "WWWWWWWW"})
    assert next(x for x in table(two) if "won under both" in x).endswith("won under both: 6)")


def test_a_set_ups_own_card_list_replaces_bases() -> None:
    """The docs say a set-up's own keys win over base's; base's card lists were added to the set-up's, so a set-up
    could not clear them: 'absent: []' held out base's cards all the same. A set-up's list replaces base's."""
    from ddaydice.interpreter.tools.setups import SetupEntry, merge

    base = SetupEntry(map="omaha-beach", give=("flak-vest",), absent=("medic",))
    assert tuple(merge(base, SetupEntry(name="own", absent=())).absent or ()) == ()
    assert merge(base, SetupEntry(name="own", absent=("tank",))).absent == ("tank",)
    inherited = merge(base, SetupEntry(name="inherits"))
    assert (inherited.give, inherited.absent) == (("flak-vest",), ("medic",))


def test_a_set_up_file_clears_bases_card_list(tmp_path: Path) -> None:
    setups = tmp_path / "clear.yaml"
    setups.write_text("base: {map: exercise-tiger, variant: practice-run, policy: casual, absent: [medic]}\n"
                      "games: 2\nbatch: 2\nsetups:\n  - {name: base-absent}\n  - {name: own-empty, absent: []}\n")
    data = _json("compare", str(setups), "--measure", "won")
    first, second = (s["description"] for s in data["setups"])
    assert first.endswith("; medic absent") and "absent" not in second


def test_a_card_both_given_and_absent_is_an_error_at_its_place(tmp_path: Path, snapshot: object) -> None:
    """A set-up that gave a card and held it out too was played as if it only gave it, its description saying
    both: it is an error (SETUP002) at the card given, with the line, a caret and a hint, whether the two lists are
    the set-up's own or one comes from base; on the command line, a usage error."""
    setups = tmp_path / "both.yaml"
    setups.write_text("base: {map: exercise-tiger, variant: practice-run, policy: casual, absent: [medic]}\n"
                      "setups:\n  - {name: a}\n  - {name: b, give: [medic]}\n"
                      "  - {name: c, pool: [flak-vest], absent: [flak-vest]}\n")
    result = _cli("compare", str(setups))
    assert result.exit_code == 1
    assert result.output.replace(str(tmp_path), "TMP") == snapshot
    assert [line.split(" ")[:2] for line in result.output.splitlines() if "SETUP" in line] == [
        [f"{setups}:4:22:", "SETUP002"], [f"{setups}:5:22:", "SETUP002"]]
    line = _cli("compare", "-s", "map=omaha-beach give=medic absent=medic", "-s", "map=omaha-beach")
    assert line.exit_code == 2
    assert "--setup 1: give: 'medic' is both given to each Unit and absent" in line.output


def _two_card_pack(root: Path) -> Path:
    """A designer's pack of two Specialists: the Angel and the Imp."""
    return make_pack(root, "designs", {"specialists.yaml": "kind: specialist\ncards:\n"
                                       + card("angel", "casualties -3 once per phase", name="Angel", cost=4)
                                       + card("imp", "casualties -1 once per phase", name="Imp", cost=3)})


def test_impact_says_what_else_the_pack_brings_and_holds_it_out_on_request(tmp_path: Path) -> None:
    """'without angel' was the game with the pack's other cards, dealt as the game's own, and nothing said so: the
    table says which cards the packs bring into both set-ups, and --absent CARD or --alone holds them out."""
    pack = str(_two_card_pack(tmp_path))
    args = ["impact", "angel", "--map", "exercise-tiger", "--variant", "practice-run", "--pack", pack, "--games", "4",
            "--measure", "won"]
    text = _cli(*args, "-q")
    assert text.exit_code == 0, text.output
    assert ("  (Both set-ups: the games may deal the packs' other cards as the game's own: imp; --absent CARD or "
            "--alone holds them out)") in text.output.splitlines()
    plain = _json(*args)["results"][0]["setups"]
    assert [s["pack_cards"] for s in plain] == [["imp"], ["imp"]]
    for held in (["--alone"], ["--absent", "imp"]):
        setups = _json(*args, *held)["results"][0]["setups"]
        assert [s["pack_cards"] for s in setups] == [[], []]
        assert setups[0]["description"].endswith("; angel, imp absent")
        assert setups[1]["description"].endswith("angel given to each Unit; imp absent")
        assert "the games may deal" not in _cli(*args, *held, "-q").output
    bad = _cli(*args, "--absent", "imq")
    assert bad.exit_code == 2 and "Error: --absent: no card 'imq'" in bad.output


def test_impact_sums_up_the_win_rate_by_policy_and_plays_each_policy_once() -> None:
    """Asked 'which skill level notices the card', impact printed a table a policy and no line that put them side
    by side, each corrected on its own without saying so, and a policy given twice was played twice: a line a
    policy gives the win rate's difference, the note says what the corrections cover, and each policy is played
    once."""
    medic = _the_medic(_content())
    args = ["impact", medic, "--map", "exercise-tiger", "--variant", "practice-run", "--policy", "reference",
            "--policy", "random", "--policy", "reference", "--games", "6", "--measure", "won", "--measure", "turns"]
    data = _json(*args)
    assert [r["policy"] for r in data["results"]] == ["reference", "random"]
    text = _cli(*args, "-q").output.splitlines()
    start = text.index(f"{medic}, won by policy:")
    rows = text[start + 2:start + 4]
    for row, result in zip(rows, data["results"], strict=True):
        won = result["measures"]["won"]
        d = won["differences"][0]
        assert row.split()[:4] == [result["policy"], *(f"{m:.1%}" for m in won["means"]), f"{d['difference']:+.1%}"]
    assert "corrected over its own table's measures only, not over the 2 policies' tables" in text[start + 4]


def test_a_set_up_files_games_and_seed_are_held_to_the_command_lines_range(tmp_path: Path) -> None:
    """'games' and 'seed' of a set-up file had no range check where --games and --seed have one (2 to MAX_GAMES,
    |seed| < 2**64): each beyond it is an error at its place (SETUP005, SETUP006), with a caret and a hint, told
    with the file's other problems and before any game is played."""
    f = tmp_path / "far.yaml"
    f.write_text("base: {map: exercise-tiger, variant: practice-run}\ngames: 1000001\nseed: 18446744073709551616\n"
                 "setups:\n  - {name: a}\n  - {name: b, give: [medik]}\n")
    result = _cli("compare", str(f))
    assert result.exit_code == 1
    heads = [line.split(" ")[:2] for line in result.output.splitlines() if "SETUP" in line]
    assert heads == [[f"{f}:2:8:", "SETUP005"], [f"{f}:3:7:", "SETUP006"], [f"{f}:6:22:", "SETUP001"]]
    assert "'games' is 1000001: a comparison plays 2 to 1000000 games per set-up" in result.output
    assert "'seed' is 18446744073709551616: a seed is a whole number with |seed| < 2**64" in result.output
    assert "^" in result.output and "hint" in result.output
    js = _cli("compare", str(f), "--format", "json")
    assert [d["code"] for d in json.loads(js.output)] == ["SETUP005", "SETUP006", "SETUP001"]
    f.write_text("base: {map: exercise-tiger, variant: practice-run}\ngames: 1\nseed: -18446744073709551616\n"
                 "setups:\n  - {name: a}\n  - {name: b}\n")
    low = _cli("compare", str(f))
    assert low.exit_code == 1
    assert [line.split(" ")[1] for line in low.output.splitlines() if "SETUP" in line] == ["SETUP005", "SETUP006"]


def test_impact_alone_without_a_pack_and_the_card_measured_held_out_are_told_by_their_option() -> None:
    """--alone without --pack did nothing and said nothing, and --absent naming the card measured was told as the
    card's own problem ('CARD: ... is both given to each Unit and absent'): each is a usage error naming its
    option, told together with the others."""
    args = ["impact", "medic", "--map", "exercise-tiger", "--variant", "practice-run", "--games", "2", "-q"]
    alone = _cli(*args, "--alone")
    assert alone.exit_code == 2
    assert "--alone: holds out the other cards the packs add, and no --pack is given" in alone.output
    assert "add --pack PACK" in alone.output
    both = _cli(*args, "--absent", "medic", "--absent", "flak-vst", "--alone")
    assert both.exit_code == 2
    lines = [x.removeprefix("Error: ").split(":")[0] for x in both.output.splitlines()
             if x.startswith(("Error: ", "--", "CARD"))]
    assert sorted(lines) == ["--absent", "--absent medic", "--alone"]
    assert "'medic' is the card measured" in both.output and "is both given" not in both.output
