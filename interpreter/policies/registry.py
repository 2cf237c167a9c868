"""The policies by name: who plays for a player in ``dday simulate``, ``dday play --auto`` and the tools.

- ``random``: uniform among legal answers, seeded per game.
- ``reference``: DESIGN.md section 10, fixed and deterministic (benchmarks, cross-implementation checks).
- ``heuristic``: a competent player (policies/heuristic). Deterministic: it draws no random numbers of its own.
- ``novice``, ``casual``, ``expert`` and ``skill:S`` (S from 0 to 1): players of graded skill, the heuristic
  who slips on a share 1 - S of his decisions (policies/graded.py); ``expert`` is the heuristic itself.
"""

from __future__ import annotations

from ddaydice.interpreter.core.api import Decider
from ddaydice.interpreter.policies.deciders import RandomDecider, ReferencePolicy
from ddaydice.interpreter.policies.graded import GradedPolicy
from ddaydice.interpreter.policies.heuristic import HeuristicPolicy
from ddaydice.interpreter.policies.names import POLICIES, check_policy, parse_skill

__all__ = ["POLICIES", "check_policy", "describe", "make_policy"]


def make_policy(name: str, seed: int = 0) -> Decider:
    """The policy named ``name`` (one of POLICIES, or ``skill:S``); ``seed`` seeds the ones that draw numbers."""
    if name == "random":
        return RandomDecider(seed)
    if name == "reference":
        return ReferencePolicy()
    if name in {"heuristic", "expert"}:
        return HeuristicPolicy()
    skill = parse_skill(check_policy(name))
    assert skill is not None
    if skill >= 1.0:
        return HeuristicPolicy()  # never slips: the expert
    return GradedPolicy(skill, seed)


def describe(name: str) -> str:
    """A policy's one-line description (for ``dday``'s help and reports)."""
    fixed = {"random": "uniformly random legal choices (seeded)",
             "reference": "the fixed reference policy of DESIGN.md section 10",
             "heuristic": "a competent player (a route planner, dice valued in context, cards when they pay)",
             "expert": "the heuristic policy: the strongest player"}
    if name in fixed:
        return fixed[name]
    skill = parse_skill(name)
    if skill is None:
        return name
    return f"the expert who slips on {1 - skill:.0%} of his decisions (a random legal answer)"
