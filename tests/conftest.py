"""Fixtures shared by several test modules: the hostile-input corpus's world (tests/hostile_kit.py)."""

from __future__ import annotations

from hostile_kit import rules_read_once, small_tree, world

__all__ = ["rules_read_once", "small_tree", "world"]
