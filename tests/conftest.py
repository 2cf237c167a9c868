"""Fixtures shared by several test modules: the hostile-input corpus's world (tests/hostile_kit.py), and a
`dday validate` cache of each test's own."""

from __future__ import annotations

from pathlib import Path

import pytest
from hostile_kit import small_tree, world

from ddaydice.interpreter.tools import validate_cache

__all__ = ["small_tree", "world"]


@pytest.fixture(autouse=True)
def _validate_cache_of_its_own(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test remembers its own `dday validate` runs (a test that validates twice sees what a user sees), never
    another test's: a test that changes the engine in process (a monkeypatch) is never answered from a run of the
    engine unchanged."""
    folder = tmp_path_factory.mktemp("validate-cache")
    monkeypatch.setattr(validate_cache, "folder", lambda: Path(folder))
