"""The index of the effects in play is never stale.

The index (interpreter/effects/sources.py) is rebuilt only when a source of effects changes, which every such
change announces with ``game.sources_changed()``. Here every read of the index is checked against an index
built afresh from the state at that moment: a change that forgot to announce itself (a card gained, lost,
traded, drawn or discarded; a Vehicle abandoned; a Unit out of the game; a Sector's new attribute) fails the
test at the read that would have seen stale effects. The games played are the equivalence corpus (fewer seeds)
and every scenario file.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from ddaydice.interpreter.cli import main
from ddaydice.interpreter.core.inplay import InPlay
from ddaydice.interpreter.effects.sources import Sources
from ddaydice.interpreter.tools.scenario import collect

# Each read of the index is checked by replacing Sources.in_play: the pure-Python engine only (scripts/test runs it;
# the compiled engine's methods cannot be replaced).
pytestmark = pytest.mark.pure

GOLDEN = Path(__file__).parent / "golden"
sys.path.insert(0, str(GOLDEN))

from corpus import CASES, play_case  # noqa: E402

# The scenario files as `dday scenario run` collects them (a pack kept there gives only its scenarios).
SCENARIOS = collect([Path(__file__).parent / "scenarios"])


def _shape(value: Any) -> Any:
    """The index as plain data: objects (sources, hooks, Units) by identity, containers by content."""
    if isinstance(value, dict):
        return {k: _shape(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_shape(v) for v in value]
    if isinstance(value, str | int | frozenset) or value is None:
        return value
    return id(value)


def shape(index: InPlay) -> dict[str, Any]:
    """The index's contents, less its epoch and the uses it remembers as they are asked for."""
    remembered = {"epoch", "uses", "sector_uses"}
    return {name: _shape(getattr(index, name)) for name in InPlay.__slots__ if name not in remembered}


@pytest.fixture
def checked_index(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """Every read of the index compares it with a fresh one; yields the number of reads checked."""
    original = Sources.in_play
    reads = [0]

    def in_play(self: Sources) -> InPlay:
        cached = original(self)
        fresh = self._build_index()
        assert shape(cached) == shape(fresh), (
            f"stale index of the effects in play at turn {self.state.turn}, phase {self.state.phase}: a change of "
            "the sources in play did not call sources_changed()")
        reads[0] += 1
        return cached

    monkeypatch.setattr(Sources, "in_play", in_play)
    yield reads


@pytest.mark.parametrize("case", CASES, ids=lambda c: "|".join(map(str, c[:5])))
def test_the_index_follows_every_change_in_the_corpus(case: tuple[Any, ...], checked_index: list[int]) -> None:
    map_id, variant, options, policy, players, seeds, packs = case
    # Each read is checked against an index built afresh, which makes a game some 10 times slower: 6 games a
    # case, 3 of the heuristic's (its games are the longest and use the most cards); over the corpus's cases that
    # is still 171 games, every change of the sources in them checked.
    games = min(seeds, 3 if policy == "heuristic" else 6)
    rows = play_case(map_id, variant, options, policy, players, games, packs)
    assert len(rows) == games
    assert checked_index[0] > 0


def test_the_index_follows_every_change_in_the_scenarios(checked_index: list[int]) -> None:
    result = CliRunner().invoke(main, ["scenario", "run", *map(str, SCENARIOS)])
    assert result.exit_code == 0, result.output
    assert checked_index[0] > 0


def test_a_forgotten_change_is_caught(checked_index: list[int]) -> None:
    """The check itself can fail: a card gained behind the index's back is seen at the next read."""
    from corpus import content

    from ddaydice.interpreter.game import Game
    from ddaydice.interpreter.policies.registry import make_policy

    game = Game(content(()), "omaha-beach", players=1, seed=1, deciders=[make_policy("reference", 1)])
    game.in_play()
    unit = game.state.units[0]
    spec = next(cid for cid, kind in game.content.card_kinds.items()
                if kind == "specialist" and game.content.effects.get(cid) is not None)
    unit.specialists.append(spec)
    with pytest.raises(AssertionError, match="stale index"):
        game.in_play()
    game.sources_changed()
    game.in_play()
