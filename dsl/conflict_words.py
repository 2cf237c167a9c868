"""How ``dday conflicts`` tells a conflict: lists of Sector names, ranges of values, and what one effect does to a
value or to an event about to happen, in a few words (dsl/conflicts.py finds the conflicts)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from ddaydice.dsl.touches import UNLIMITED, Touch


def compact_names(names: Sequence[str]) -> str:
    """'Operation Deadstick, Sword Sector 1' ... 'Sword Sector 15' -> 'Operation Deadstick: Sword Sectors 1
    to 15'; 'Sector 9', 'Sector 10' -> 'Sectors 9 and 10'."""
    if not names:
        return ""
    if len(names) == 1:
        return names[0]
    head = ""
    heads = {n.split(", ", 1)[0] for n in names if ", " in n}
    if len(heads) == 1 and all(", " in n for n in names):
        head = next(iter(heads)) + ": "
        names = [n.split(", ", 1)[1] for n in names]
    groups: dict[str, list[int]] = {}
    others: list[str] = []
    for n in names:
        m = re.fullmatch(r"(.*\D)\s(\d+)", n)
        if m:
            groups.setdefault(m.group(1), []).append(int(m.group(2)))
        else:
            others.append(n)
    parts = []
    for pre, nums in groups.items():
        parts.append(f"{pre} {nums[0]}" if len(nums) == 1 else f"{pre}s {runs(nums)}")
    return head + and_list(parts + others)


def runs(nums: list[int]) -> str:
    nums = sorted(set(nums))
    parts: list[str] = []
    i = 0
    while i < len(nums):
        j = i
        while j + 1 < len(nums) and nums[j + 1] == nums[j] + 1:
            j += 1
        if j - i >= 2:
            parts.append(f"{nums[i]} to {nums[j]}")
        else:
            parts += [str(n) for n in nums[i:j + 1]]
        i = j + 1
    return and_list(parts)


def and_list(parts: Sequence[str]) -> str:
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]


def subject(text: str) -> str:
    return text[:1].upper() + text[1:]


def number_text(n: int) -> str:
    return "unlimited" if n >= UNLIMITED else str(n)


def reacts(t: Touch, spared: str) -> str:
    """What an effect of a pending event does with it, in a few words."""
    if t.op == "hear":
        return "acts on it"
    return ("may be used in place of " if t.op == "replace-use" else "replaces ") + spared


def after_first(first: str, tf: Touch, last: str, tl: Touch, spared: str) -> str:
    """What follows when ``first`` acts first on a pending event, then ``last``."""
    then = "is not offered" if tl.op == "replace-use" else ("does not replace it" if tl.op == "replace" else
                                                            "does not run")
    if tf.op != "hear":
        made = "it is used" if tf.op == "replace-use" else "its condition holds"
        return (f"if {made}, the Unit is spared {spared} and {last} {then}, the event not having happened; "
                f"otherwise {last} acts as if {first} were not there")
    return (f"{first} acts on the event; then {last} may replace what is still to happen (the Unit is spared "
            f"{spared}, though {first} has acted)")


def does(t: Touch) -> str:
    """What a touch does to its query, in a few words."""
    match t.op:
        case "set":
            if t.value is not None:
                return f"sets it to {range_text(t.value[0], t.value[1])}"
            return f"sets it ({t.statement})"
        case "add":
            amount = t.statement.split(None, 1)[1] if " " in t.statement else t.statement
            amount = amount.split(" per ", 1)[0].lstrip("+-")
            if t.value is not None and t.value[1] < 0:
                return f"lowers it by {amount}"
            if t.value is not None and t.value[0] > 0:
                return f"raises it by {amount}"
            return f"changes it ({t.statement})"
        case "at-most":
            if t.value is not None:
                return f"holds it to at most {range_text(t.value[0], t.value[1])}"
            return f"holds it down ({t.statement})"
        case "forbid":
            return "forbids it"
        case "allow":
            return "allows it"
        case "protect":
            return "protects it"
    return t.statement


def range_text(low: int | None, high: int | None) -> str:
    if low is None or high is None:
        return "unknown"
    return number_text(low) if low == high else f"{number_text(low)} to {number_text(high)}"
