"""Small packs written to disk for the tests of how policies play a modder's cards (tests/test_policies_*.py)."""

from __future__ import annotations

from pathlib import Path


def card(card_id: str, effect: str, *, name: str | None = None, cost: int = 5, grade: str | None = "regular") -> str:
    """One card of a card file's list, reconstructed, with a one-line ``effect``."""
    lines = [f"  - id: {card_id}", f"    name: {name or card_id}"]
    if grade is not None:
        lines.append(f"    grade: {grade}")
    lines += [f"    cost: {cost}", "    text: A test card.", "    effect: |", f"      {effect}",
              "    provenance: reconstructed", "    note: a test", ""]
    return "\n".join(lines)


def make_pack(root: Path, pack_id: str, cards: dict[str, str]) -> Path:
    """A pack folder ``root/pack_id`` whose card files are ``cards`` (file name -> ``kind: ...`` and its cards)."""
    pack = root / pack_id
    (pack / "cards").mkdir(parents=True)
    (pack / "pack.yaml").write_text(
        f"id: {pack_id}\nname: {pack_id.title()}\nversion: '1'\ntext: A test pack.\nprovenance: reconstructed\n"
        "note: a test\n", encoding="utf-8")
    for file, text in cards.items():
        (pack / "cards" / file).write_text(text, encoding="utf-8")
    return pack


def one_card_pack(root: Path, kind: str, effect: str) -> Path:
    """A pack folder ``root/mypack`` that requires Atlantikwall (so every kind of its cards is declared) and holds
    one card 'lucky-pin' of ``kind`` with a one-line ``effect``, in cards/x.yaml (its effect on line 8, from column
    7): the tests of what the checker says of one card of an expansion's kind."""
    pack = root / "mypack"
    (pack / "cards").mkdir(parents=True)
    (pack / "pack.yaml").write_text(
        "id: mypack\nname: My pack\nversion: '1'\ntext: A test pack.\nprovenance: reconstructed\n"
        "note: invented for a test\nrequires: [atlantikwall]\n", encoding="utf-8")
    (pack / "cards" / "x.yaml").write_text(
        f"kind: {kind}\ncards:\n  - id: lucky-pin\n    name: Lucky Pin\n    cost: 2\n    text: x\n"
        f"    effect: |\n      {effect}\n    provenance: reconstructed\n    note: test\n", encoding="utf-8")
    return pack
