"""The kernel services every layer uses: the game's one die, the trace, and asking a decider."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from mypy_extensions import mypyc_attr, trait

from ddaydice.interpreter.core.api import Decider, GameAPI, KeysDecider, KeysMethod
from ddaydice.interpreter.core.decisions import Decision, check_answer, legal_answer
from ddaydice.interpreter.core.state import (
    Event,
    Unit,
)

MAX_EDGE = 6  # rolls again at most this many times, whatever the edge (every resource is bounded)

@trait
@mypyc_attr(allow_interpreted_subclasses=True)
class Kernel(GameAPI):
    """The kernel services every layer uses: the game's one die, the trace, and asking a decider."""


    def d6(self) -> int:
        """One die roll (1-6) from the game's generator; every die of the game comes from here."""
        return int(self.rng.random() * 6) + 1

    def roll_with_edge(self, count: int, edge: int, *, lower_is_better: bool = True) -> list[int]:
        """``count`` dice; with an edge, rolled again once per point of it, the better set kept (``edge`` > 0) or
        the worse (``edge`` < 0): the lower total is the better for a roll that hurts the Units (MGF, Landmines),
        the higher with ``lower_is_better=False`` (an effect's own dice: 'roll-high'). No edge: one roll, the
        generator's draws as ever."""
        rolls = [self.d6() for _ in range(count)]
        keep_lower = (edge > 0) == lower_is_better
        for _ in range(min(abs(edge), MAX_EDGE)):
            again = [self.d6() for _ in range(count)]
            if (sum(again) < sum(rolls)) if keep_lower else (sum(again) > sum(rolls)):
                rolls = again
        return rolls

    def log(self, kind: str, detail: str, unit: Unit | None = None, source: str = "", tier: str = "",
            **data: Any) -> None:
        if self.tracing:
            self.state.log.append(Event(self.state.turn, self.state.phase, unit.id if unit else None, kind,
                                        detail, source, tier, data))

    def _decider_for(self, unit: Unit) -> Decider:
        """The decider who answers for ``unit``: a Unit's is the one at its number; another side's player comes
        after the Units."""
        decider = self._decider_of.get(unit.id)
        if decider is None:
            k = int(unit.id[1:]) - 1 if not unit.side else len(self.state.units) + self.state.sides.index(unit)
            decider = self._decider_of[unit.id] = self.deciders[k % len(self.deciders)]
        return decider

    def ask(self, unit: Unit, decision: Decision) -> tuple[int, ...]:
        answer = check_answer(decision, self._decider_for(unit).decide(self, decision))
        self.state.choices.append(list(answer))
        if self.tracing:
            self.log("choice", f"{decision.prompt} -> " + ", ".join(decision.options[i] for i in answer), unit,
                     kind_of=decision.kind)
        return answer

    def ask_one(self, unit: Unit, kind: str, prompt: str, options: Sequence[str], keys: Sequence[Any] = (),
                topic: str = "", detail: Any = None) -> int:
        """Ask for one of ``options`` (English; ``keys``: the same as data). ``topic`` and ``detail``: see
        Decision."""
        if len(options) == 1:
            if self.unasked is not None:
                self.unasked.append((unit.id, kind, prompt, options[0]))
            return 0
        return self.ask(unit, Decision(kind, unit.id, prompt, tuple(options), tuple(keys), topic=topic,
                                       detail=detail))[0]

    def ask_keys(self, unit: Unit, kind: str, prompt: str | Callable[[], str], keys: Sequence[Any],
                 labeler: Callable[[Any], str], detail: Any = None) -> int:
        """Ask for one of ``keys``; their English labels are made only if somebody reads them."""
        if len(keys) == 1:
            if self.unasked is not None:
                self.unasked.append((unit.id, kind, prompt if isinstance(prompt, str) else prompt(), labeler(keys[0])))
            return 0
        return self.pick(unit, kind, prompt, tuple(keys), 1, 1, labeler, detail)[0]

    def pick(self, unit: Unit, kind: str, prompt: str | Callable[[], str], keys: tuple[Any, ...], min_picks: int,
             max_picks: int, labeler: Callable[[Any], str], detail: Any = None) -> tuple[int, ...]:
        """Ask for ``min_picks`` to ``max_picks`` of ``keys`` (labelled by ``labeler`` if somebody reads them).

        The fast protocol: a decider with ``decide_keys`` (a fixed policy) answers from the keys alone, and no
        Decision is built (nor the prompt worded, when it is given as a function) unless the game is traced or
        the answer fails the same legality test as every answer."""
        if not self.tracing:
            uid = unit.id
            fast = self._fast_of.get(uid)
            if fast is None and uid not in self._fast_of and uid in self._decider_of:
                # (a Unit's first question is asked in full: its decider sees a Decision once)
                fast = self._fast_of[uid] = _keys_decider(self._decider_of[uid])
            if fast is not None:
                answer = legal_answer(len(keys), min_picks, max_picks,
                                      fast.decide_keys(self, uid, kind, keys, min_picks))
                if answer is not None:
                    self.state.choices.append(list(answer))
                    return answer
        return self.ask(unit, Decision(kind, unit.id, prompt if isinstance(prompt, str) else prompt(), (), keys,
                                       min_picks, max_picks, labeler, detail=detail))


def _keys_decider(decider: Decider) -> KeysDecider | None:
    """The decider as one that answers from keys (called natively when it is a compiled KeysDecider), or None."""
    if isinstance(decider, KeysDecider):
        return decider
    method = getattr(decider, "decide_keys", None)
    return KeysMethod(method) if method is not None else None
