"""The index of the effects in play is never stale.

The index (interpreter/effects/sources.py) is rebuilt only when a source of effects changes, which every such
change announces with ``game.sources_changed()``. Here every read of the index is checked against an index
built afresh from the state at that moment: a change that forgot to announce itself (a card gained, lost,
traded, drawn or discarded; a Vehicle abandoned; a Unit out of the game; a Sector's new attribute) fails the
test at the read that would have seen stale effects. The games played are the equivalence corpus (fewer seeds)
and every scenario file.

The check is a watcher of the games (core/api.py ``Watcher``): its ``index_read`` moment shows it each read of
the index, on the pure-Python and the compiled engine alike.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from ddaydice.dsl.loader import load
from ddaydice.interpreter.cli import main
from ddaydice.interpreter.core.api import GameAPI
from ddaydice.interpreter.core.inplay import InPlay
from ddaydice.interpreter.core.watching import Watching
from ddaydice.interpreter.effects.sources import MEMO_LIMIT, Sources
from ddaydice.interpreter.game import Game
from ddaydice.interpreter.policies.deciders import ReferencePolicy
from ddaydice.interpreter.tools import scenario
from ddaydice.interpreter.tools.scenario_folder import collect

GOLDEN = Path(__file__).parent / "golden"
sys.path.insert(0, str(GOLDEN))

from corpus import CASES, play_case  # noqa: E402

# The scenario files as `dday scenario run` collects them (a pack kept there gives only its scenarios).
SCENARIOS, _ = collect([Path(__file__).parent / "scenarios"])


def _shape(value: Any) -> Any:
    """The index as plain data: objects (sources, hooks, Units) by identity, containers by content."""
    if isinstance(value, dict):
        return {k: _shape(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_shape(v) for v in value]
    if isinstance(value, str | int | frozenset) or value is None:
        return value
    return id(value)


# The index's contents, less its epoch and the uses it remembers as they are asked for: its attributes, read from
# the class (compiled, InPlay has no __slots__, but each attribute is a descriptor on the class, as a slot is).
FIELDS = tuple(name for name in dir(InPlay) if not name.startswith("_") and not callable(getattr(InPlay, name))
               and name not in {"epoch", "uses", "sector_uses"})


def shape(index: InPlay) -> dict[str, Any]:
    """The index's contents, less its epoch and the uses it remembers as they are asked for."""
    return {name: _shape(getattr(index, name)) for name in FIELDS}


def test_the_check_reads_every_part_of_the_index() -> None:
    declared = getattr(InPlay, "__slots__", ()) or getattr(InPlay, "__mypyc_attrs__", ())  # pure, compiled
    assert set(FIELDS) == set(declared) - {"epoch", "uses", "sector_uses"}


class IndexCheck(Watching):
    """A watcher that compares every read of the index (its ``index_read`` moment) with an index built afresh."""

    def __init__(self) -> None:
        self.reads = 0

    def index_read(self, game: GameAPI, index: InPlay) -> None:
        assert isinstance(game, Sources)
        fresh = game._build_index()
        assert shape(index) == shape(fresh), (
            f"stale index of the effects in play at turn {game.state.turn}, phase {game.state.phase}: a change of "
            "the sources in play did not call sources_changed()")
        self.reads += 1


@pytest.fixture
def checked_index(monkeypatch: pytest.MonkeyPatch) -> Iterator[IndexCheck]:
    """A watcher checking every read of the index, given to the games `dday scenario run` sets up too (the name
    Game in tools/scenario.py, a Python module on either engine, made to add it)."""
    check = IndexCheck()

    def watched_game(*args: Any, **kw: Any) -> Game:
        return Game(*args, watchers=(*kw.pop("watchers", ()), check), **kw)

    monkeypatch.setattr(scenario, "Game", watched_game)
    yield check


@pytest.mark.parametrize("case", CASES, ids=lambda c: "|".join(map(str, c[:5])))
def test_the_index_follows_every_change_in_the_corpus(case: tuple[Any, ...], checked_index: IndexCheck) -> None:
    map_id, variant, options, policy, players, seeds, packs = case
    # Each read is checked against an index built afresh, which makes a game some 10 times slower: 6 games a
    # case, 3 of the heuristic's (its games are the longest and use the most cards); over the corpus's cases that
    # is still 171 games, every change of the sources in them checked.
    games = min(seeds, 3 if policy == "heuristic" else 6)
    rows = play_case(map_id, variant, options, policy, players, games, packs, watchers=(checked_index,))
    assert len(rows) == games
    assert checked_index.reads > 0


def test_the_index_follows_every_change_in_the_scenarios(checked_index: IndexCheck) -> None:
    result = CliRunner().invoke(main, ["scenario", "run", *map(str, SCENARIOS)])
    assert result.exit_code == 0, result.output
    assert checked_index.reads > 0


def test_a_forgotten_change_is_caught(checked_index: IndexCheck) -> None:
    """The check itself can fail: a card gained behind the index's back is seen at the next read."""
    from corpus import content

    from ddaydice.interpreter.policies.registry import make_policy

    game = Game(content(()), "omaha-beach", players=1, seed=1, deciders=[make_policy("reference", 1)],
                watchers=[checked_index])
    game.in_play()
    unit = game.state.units[0]
    spec = next(cid for cid, kind in game.content.card_kinds.items()
                if kind == "specialist" and game.content.effects.get(cid) is not None)
    unit.specialists.append(spec)
    with pytest.raises(AssertionError, match="stale index"):
        game.in_play()
    game.sources_changed()
    game.in_play()


def test_the_memos_of_the_sectors_part_are_bounded() -> None:
    """The plan remembers each set of the Sectors' attributes (gained when) it has indexed; games differ in when a
    Sector gains one, so a long run would fill the memos without a bound: past it they start over."""
    content, _ = load()
    assert content is not None
    game = Game(content, "exercise-tiger", variant="advanced-training", deciders=ReferencePolicy())
    game.in_play()
    filler = game._sectors_index[next(iter(game._sectors_index))]
    game._sectors_index.update({("never", n): filler for n in range(MEMO_LIMIT + 1)})
    sector = next(iter(game.state.sectors.values()))
    sector.attributes.append("mined")
    game.sources_changed()
    game.in_play()  # a set of attributes not seen yet: indexed, and the full memo started over
    assert len(game._sectors_index) == 1
    assert all(key[0] != "never" for key in game._sectors_index)
