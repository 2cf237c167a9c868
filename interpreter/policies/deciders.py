"""Choices: the engine never chooses for a player, it asks a decider.

A :class:`Decision` lists the legal options (with plain-English labels and
machine keys) and how many must be picked. A decider answers with the indices
of the options it picks. The engine checks every answer; an illegal one is a
:class:`~ddaydice.dsl.diagnostics.RuleError` naming the legal options.

Deciders here: :class:`Scripted` (answers from a scenario file), :class:`RandomDecider`
(seeded) and :class:`ReferencePolicy` (DESIGN.md section 10, for benchmarks).
"""

from __future__ import annotations

from typing import Any, Final

from mypy_extensions import mypyc_attr

from ddaydice.dsl.compile import UNLIMITED
from ddaydice.dsl.diagnostics import RuleError
from ddaydice.interpreter.core.api import Decider, GameView, KeysDecider
from ddaydice.interpreter.core.decisions import Decision, check_answer
from ddaydice.interpreter.core.state import new_rng
from ddaydice.interpreter.core.values import Move


# The deciders are plain classes that a policy of one's own may extend (compiled, mypyc keeps them open to
# subclasses written in Python only with this mark).
@mypyc_attr(allow_interpreted_subclasses=True)
class Scripted:
    """Answers given in advance (a scenario's ``answers:``), in order, per Unit or for all.

    An answer is an option index, a list of indices, or a label (matched to the
    option's label or key). When the script runs out, the fallback decider
    answers; without one it is an error naming the decision.
    """

    def __init__(self, answers: list[Any], fallback: Decider | None = None, used: int = 0) -> None:
        self.answers = answers
        self.fallback = fallback
        self.used = used

    def __repr__(self) -> str:
        return f"Scripted(answers={self.answers!r}, fallback={self.fallback!r}, used={self.used!r})"

    def decide(self, game: GameView, decision: Decision) -> tuple[int, ...]:
        if self.used >= len(self.answers):
            if self.fallback is not None:
                return self.fallback.decide(game, decision)
            raise RuleError(f"the script has no answer left for {decision.kind} ({decision.unit}): "
                            f"{decision.describe()}")
        raw = self.answers[self.used]
        self.used += 1
        return resolve_answer(decision, raw)


def resolve_answer(decision: Decision, raw: Any) -> tuple[int, ...]:
    if isinstance(raw, dict):
        # {answer: A, not-offered: [L, ...]}: the answer A, once the question is seen to offer none of the labels L
        # (a scenario's check that the rules leave an option out: the Mortar never offers the Bunker).
        absent = raw.get("not-offered", [])
        for text in absent if isinstance(absent, list) else [absent]:
            if _find(decision, str(text).strip().lower(), []) is not None:
                raise RuleError(f"{text!r} is offered, which the script says it is not: {decision.describe()}")
        raw = raw.get("answer")
    items = raw if isinstance(raw, list | tuple) else [raw]
    picks: list[int] = []
    for item in items:
        if isinstance(item, bool):
            raise RuleError(f"answer {item!r} is not an option of {decision.describe()}")
        if isinstance(item, int):
            picks.append(item)
            continue
        found = _find(decision, str(item).strip().lower(), picks)
        if found is None:
            raise RuleError(f"answer {item!r} is not an option of {decision.describe()}")
        picks.append(found)
    return check_answer(decision, picks)


def _find(decision: Decision, text: str, picks: list[int]) -> int | None:
    """The option an answer's text names (its label or key, else the start of its label), not already picked."""
    for i, (label, key) in enumerate(zip(decision.options, decision.keys or decision.options, strict=False)):
        if text in {label.lower(), str(key).lower()} and i not in picks:
            return i
    begun = [i for i, label in enumerate(decision.options) if label.lower().startswith(text) and i not in picks]
    if len({decision.options[i].lower() for i in begun}) > 1:
        # (the start of two different labels: taking the first would answer a question the script never asked)
        raise RuleError(f"answer {text!r} begins {len(begun)} options: "
                        + "; ".join(f"{i}: {decision.options[i]}" for i in begun)
                        + "; give more of the label, or the option's number")
    return begun[0] if begun else None


@mypyc_attr(allow_interpreted_subclasses=True)
class RandomDecider:
    """Picks uniformly among legal answers, from its own seeded generator."""

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self.rng = new_rng(seed)

    def __repr__(self) -> str:
        return f"RandomDecider(seed={self.seed!r})"

    def decide(self, game: GameView, decision: Decision) -> tuple[int, ...]:
        n = decision.size()
        k = self.rng.randint(decision.min_picks, min(decision.max_picks, n))
        return tuple(sorted(self.rng.sample(range(n), k)))


LOCK_ORDER = ("two-soldiers", "courage", "one-soldier", "tool", "star", "skull")
CANCEL_ORDER = ("tool", "star", "one-soldier", "courage", "two-soldiers")
_LOCK_RANK: Final[dict[str, int]] = {face: i for i, face in enumerate(LOCK_ORDER)}
_CANCEL_RANK: Final[dict[str, int]] = {face: i for i, face in enumerate(CANCEL_ORDER)}
_KEEP: Final = frozenset({"one-soldier", "two-soldiers", "courage"})
#: The first n options, for n up to 6: the answer to a decision the reference policy takes as it comes.
_FIRST: Final[tuple[tuple[int, ...], ...]] = tuple(tuple(range(n)) for n in range(7))
_NONE: Final = 1 << 60  # above every score
_PLACE: Final = 0xFFFF  # a score's last 16 bits: the option's place (a Unit's dice are bounded far below)


def _lock_score(face: str, index: int, place: int) -> int:
    """A die's Lock rank, then its number, then its place among the options, in one int: the least is Locked
    first."""
    return (_LOCK_RANK.get(face, 99) << 32) | (index << 16) | place


@mypyc_attr(allow_interpreted_subclasses=True)
class ReferencePolicy(KeysDecider):
    """The fixed policy of DESIGN.md section 10, so independent implementations can compare distributions."""

    def __repr__(self) -> str:
        return "ReferencePolicy()"

    def decide(self, game: GameView, decision: Decision) -> tuple[int, ...]:
        return self.decide_keys(game, decision.unit, decision.kind, decision.keys, decision.min_picks)

    def decide_keys(self, game: GameView, unit: str, kind: str, keys: tuple[Any, ...], min_picks: int
                    ) -> tuple[int, ...]:
        """The answer from the options' keys alone (the engine's fast protocol: no Decision is built)."""
        # (each option ranked by one int, rank, then die, then place, compared natively: tuples of boxed ints,
        # compared item by item, cost a Practice Run game about 5% of its instructions)
        if kind == "lock":
            n = len(keys)
            if min_picks == 2 and n > 1:  # the rules' two Locks: the two least, in order
                first = second = _NONE
                for i in range(n):
                    key: tuple[Any, ...] = keys[i]  # (typed: its items are read natively, not by a generic [])
                    r = _lock_score(key[1], key[0], i)
                    if r < second:
                        if r < first:
                            first, second = r, first
                        else:
                            second = r
                a, b = first & _PLACE, second & _PLACE
                return (a, b) if a < b else (b, a)
            ranked = []
            for i in range(n):
                key = keys[i]
                ranked.append(_lock_score(key[1], key[0], i))
            ranked.sort()
            return tuple(sorted([r & _PLACE for r in ranked[:min_picks]]))
        if kind == "reroll":
            out: list[int] = []
            for i in range(len(keys)):
                key = keys[i]
                rolled: str = key[1]
                if rolled not in _KEEP:
                    out.append(i)
            return tuple(out)
        if kind == "cancel":
            best = _NONE
            for i in range(len(keys)):
                key = keys[i]
                face: str = key[1]
                r = (_CANCEL_RANK.get(face, 99) << 16) | i
                if r < best:  # noqa: PLR1730 (compiled, a comparison of two ints; min() is a generic call)
                    best = r
            return (best & _PLACE,)
        if kind == "move":
            return (reference_move(game, unit, keys),)
        if min_picks < len(_FIRST):
            return _FIRST[min_picks]  # (made once: compiled, tuple(range(n)) is two generic calls)
        return tuple(range(min_picks))


def reference_move(game: GameView, unit_id: str, moves: tuple[Move, ...]) -> int:
    """DESIGN.md section 10's movement rule, from the legal moves of a Unit."""
    unit = game.state.unit(unit_id)
    need = game.courage_to_bunker.get(unit.sector, UNLIMITED)
    rank = game.move_rank
    # The best advance and the best lateral move: lowest (first DEF, Sector number), the first one on a tie.
    adv = lat = stay = None
    adv_rank = lat_rank = None
    for i, m in enumerate(moves):
        kind = m.kind
        if kind == "stay":
            if stay is None:
                stay = i
        elif not m.battle_cry:
            r = rank[m.to or ""]
            if kind == "advance":
                if adv_rank is None or r < adv_rank:
                    adv, adv_rank = i, r
            elif kind == "lateral" and (lat_rank is None or r < lat_rank):
                lat, lat_rank = i, r
    if adv is not None and unit.courage >= need:
        return adv
    if stay is None:  # the Unit must move
        if lat is not None:
            return lat
        if adv is not None:
            return adv
    return stay if stay is not None else 0
