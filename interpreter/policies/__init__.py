"""Deciders that play for the players: scripted, random, the reference policy, the heuristic policy."""

from ddaydice.interpreter.policies.heuristic import POLICIES, describe, make_policy

__all__ = ["POLICIES", "describe", "make_policy"]
