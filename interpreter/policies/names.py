"""The names of the policies and the skill of a graded player, light enough for the command line's help."""

from __future__ import annotations

import math

#: The named levels of graded skill and their skill (the share of decisions taken as the expert takes them);
#: policies/graded.py says what each does differently, docs/simulation.md how they were calibrated.
LEVELS: dict[str, float] = {"novice": 0.6, "casual": 0.8, "expert": 1.0}
#: How a skill in between is named: ``skill:0.8`` (any number from 0 to 1).
SKILL_PREFIX = "skill:"
#: The policies by name (a graded player of any skill is also named ``skill:S``).
POLICIES = ("random", "reference", "heuristic", *LEVELS)


def parse_skill(name: str) -> float | None:
    """The skill of a graded player's name (``novice``, ``skill:0.8``), None if the name is no graded player;
    ValueError (with the reason) for a ``skill:`` name whose number is not from 0 to 1."""
    if name in LEVELS:
        return LEVELS[name]
    if not name.startswith(SKILL_PREFIX):
        return None
    text = name[len(SKILL_PREFIX):]
    try:
        skill = float(text)
    except ValueError:
        raise ValueError(f"'{name}': the skill must be a number from 0 to 1 (e.g. {SKILL_PREFIX}0.8)") from None
    if not math.isfinite(skill) or not 0.0 <= skill <= 1.0:
        raise ValueError(f"'{name}': the skill must be from 0 to 1 (e.g. {SKILL_PREFIX}0.8), not {text}")
    return skill


def check_policy(name: str) -> str:
    """``name`` if it names a policy; ValueError naming the policies otherwise."""
    if name in POLICIES or parse_skill(name) is not None:
        return name
    raise ValueError(f"no policy '{name}' (policies: {', '.join(POLICIES)}, or {SKILL_PREFIX}S with S from 0 to 1)")


def policy_problem(name: str) -> tuple[str, str | None] | None:
    """Why ``name`` names no policy and its hint (the nearest name: "did you mean 'casual'?"), or None: the one check
    of a policy's name, for every command and set-up that takes one."""
    from ddaydice.dsl.diagnostics import did_you_mean  # (this module stays light: the command line's help reads it)

    try:
        check_policy(name)
    except ValueError as exc:
        return str(exc), did_you_mean(name, POLICIES)
    return None
