"""A game is the same whatever its process played before (the determinism contract: same seed, content and choices,
same game, whatever the number of processes; a sweep's worker plays cells in any order).

The heuristic keeps memos for the life of a process (a card's reading per content, a Sector's facts, plans shared
between games). A memo whose key misses something its value depends on (a game's options, whether the German plays,
the content itself) makes the first game that fills it decide for the later ones. Each case here is played in a fresh
process in one order and in another fresh process in the reverse order: every game's digest and choices must agree.
The set-ups share their content and differ in what such memos were found to miss: the German on or off with the same
cards given (what a card gives 'to the german' is worth nothing without him), an option that decides a Sector's
free card (Merville Battery's Sector 9), solitaire Atlantikwall, and two versions of a modder's pack whose card of the
same id does different things (a memo of the card's reading that is not kept per content plays the second as the
first: the pack edited and loaded again, or another sweep cell's packs).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from pack_kit import card, make_pack

ROOT = Path(__file__).parent.parent
EXAMPLE = ROOT / "docs" / "example-pack" / "field-kitchen"

#: (packs, map, players, options, cards given): each played with the heuristic, two games.
BUNDLED = [
    (["atlantikwall"], "omaha-beach", 2, ["german-player"], ["wrong-orders", "tnt"]),
    (["atlantikwall"], "omaha-beach", 2, [], ["wrong-orders", "tnt"]),
    (["atlantikwall"], "exercise-fabius", 1, ["german-player"], ["sniper-scope"]),
    (["atlantikwall"], "exercise-fabius", 1, [], ["sniper-scope"]),
    (["atlantikwall"], "sword-beach", 1, ["german-player", "solitaire-atlantikwall"], []),
    ([], "merville-battery", 1, ["solitaire"], []),
    ([], "merville-battery", 1, [], []),
    ([str(EXAMPLE)], "juno-beach", 2, [], []),
]

_PLAYER = """
import json, sys
from ddaydice.dsl.loader import load_cached
from ddaydice.interpreter.core.state import digest
from ddaydice.interpreter.tools.forced import Forced
from ddaydice.interpreter.tools.simulate import Spec, game_of

cases = json.loads(sys.argv[1])
found = {}
for k in json.loads(sys.argv[2]):
    packs, map_id, players, options, given = cases[k]
    content, diags = load_cached(packs=packs)
    assert content is not None, diags
    variant = "advanced-training" if map_id == "exercise-tiger" else None
    spec = Spec(map_id, variant, players, "heuristic", 11, options=tuple(options), packs=tuple(packs),
                forced=tuple(Forced(c) for c in given))
    for i in range(2):
        game, _ = game_of(content, spec, i)
        game.run()
        found[f"{k}/{i}"] = [digest(game.state), len(game.state.choices), game.state.outcome]
print(json.dumps(found))
"""


def _play(cases: list[tuple[list[str], str, int, list[str], list[str]]], order: list[int]) -> dict[str, list[object]]:
    """Each case's games played in a fresh process, in ``order``: their digests, choices made and outcomes."""
    out = subprocess.run([sys.executable, "-c", _PLAYER, json.dumps(cases), json.dumps(order)], cwd=ROOT,
                         capture_output=True, text=True, check=False, timeout=600)
    assert out.returncode == 0, out.stderr[-3000:]
    found: dict[str, list[object]] = json.loads(out.stdout)
    return found


def test_a_game_does_not_depend_on_the_games_its_process_played_before(tmp_path: Path) -> None:
    cases = list(BUNDLED)
    for version, effect in (("v1", "use: gain 3 courage"), ("v2", "use: lose 1 soldiers, gain 1 courage")):
        pack = make_pack(tmp_path / version, "kit", {"items.yaml": "kind: item\ncards:\n" + card("kit-bag", effect)})
        cases.append(([str(pack)], "exercise-tiger", 1, [], ["kit-bag"]))
    order = list(range(len(cases)))
    forward = _play(cases, order)
    backward = _play(cases, order[::-1])
    assert len(forward) == 2 * len(cases)
    assert {k: v for k, v in forward.items() if backward[k] != v} == {}
