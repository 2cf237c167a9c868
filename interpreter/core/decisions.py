"""Choices: the engine never chooses for a player, it asks a decider.

A :class:`Decision` lists the legal options (with plain-English labels and machine keys) and how many must be
picked. A decider answers with the indices of the options it picks. The engine checks every answer; an illegal
one is a :class:`~ddaydice.dsl.diagnostics.RuleError` naming the legal options. The deciders themselves (scripted,
random, the reference and heuristic policies) live in ``interpreter/policies/``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ddaydice.dsl.diagnostics import RuleError


class Decision:
    """A question to a player: pick ``min_picks`` to ``max_picks`` of the options.

    ``keys`` are the options as data (for policies); ``labels`` in plain English (for people). With a
    ``labeler``, labels are made from the keys only when somebody reads them, so simulations that
    never show a question never pay for its wording.

    ``topic`` tells the questions of one ``kind`` apart as data (a 'choose' is 'add-result', 'reroll-die',
    'other-unit', ...: docs/architecture.md lists them), and ``detail`` is what a policy needs to answer that the
    keys do not hold (the colour of the result to add, the casualties left to take, the resource spent): a policy
    reads them, never the prompt, which is English for people and begins with a card's name.

    (A plain class rather than an attrs one: compiled, it is a native class, made and read natively, where an attrs
    class's ``__init__`` is Python code and its fields are read through descriptors. Equality is identity.)
    """

    __slots__ = ("detail", "keys", "kind", "labeler", "labels", "max_picks", "min_picks", "prompt", "topic", "unit")

    def __init__(self, kind: str, unit: str, prompt: str, labels: tuple[str, ...] = (), keys: tuple[Any, ...] = (),
                 min_picks: int = 1, max_picks: int = 1, labeler: Callable[[Any], str] | None = None,
                 topic: str = "", detail: Any = None) -> None:
        self.kind = kind  # lock, reroll, cancel, choose, move, recruit, find, use, casualty, sacrifice, trade, ...
        self.unit = unit
        self.prompt = prompt
        self.labels = labels
        self.keys = keys
        self.min_picks = min_picks
        self.max_picks = max_picks
        self.labeler = labeler
        self.topic = topic
        self.detail = detail

    def __repr__(self) -> str:
        return (f"Decision(kind={self.kind!r}, unit={self.unit!r}, prompt={self.prompt!r}, labels={self.labels!r}, "
                f"keys={self.keys!r}, min_picks={self.min_picks!r}, max_picks={self.max_picks!r}, "
                f"labeler={self.labeler!r}, topic={self.topic!r}, detail={self.detail!r})")

    @property
    def options(self) -> tuple[str, ...]:
        if self.labeler is not None and len(self.labels) != len(self.keys):
            self.labels = tuple(self.labeler(k) for k in self.keys)
        return self.labels

    def size(self) -> int:
        return len(self.keys) if self.labeler is not None else len(self.labels)

    def describe(self) -> str:
        legal = "; ".join(f"{i}: {label}" for i, label in enumerate(self.options))
        return f"{self.prompt} [{legal}]"


def legal_answer(n: int, min_picks: int, max_picks: int, answer: Sequence[int]) -> tuple[int, ...] | None:
    """The answer as a tuple if it picks ``min_picks`` to ``max_picks`` different options of ``n``, else None."""
    try:
        picked: tuple[int, ...] = answer if isinstance(answer, tuple) else tuple(answer)
        k = len(picked)
        if not min_picks <= k <= max_picks:
            return None
        for a in picked:
            if not 0 <= a < n:
                return None
        if k < 2 or (k == 2 and picked[0] != picked[1]) or len(set(picked)) == k:
            return picked
    except TypeError:  # a pick that is not a number
        pass
    return None


def check_answer(decision: Decision, answer: Sequence[int]) -> tuple[int, ...]:
    """The answer as a tuple, or a RuleError naming the legal options."""
    n = len(decision.keys) if decision.labeler is not None else len(decision.labels)
    legal = legal_answer(n, decision.min_picks, decision.max_picks, answer)
    if legal is not None:
        return legal
    count = (f"exactly {decision.min_picks}" if decision.min_picks == decision.max_picks
             else f"{decision.min_picks} to {decision.max_picks}")
    raise RuleError(f"illegal answer {list(answer)} for {decision.kind} ({decision.unit}): pick {count} of: "
                    + "; ".join(f"{i}: {label}" for i, label in enumerate(decision.options)))


