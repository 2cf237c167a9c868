"""Round trip: every effect of the bundled content renders to English, and that English is reviewed."""

from __future__ import annotations

from syrupy.assertion import SnapshotAssertion

from ddaydice.dsl.loader import load


def test_every_bundled_effect_renders_to_english(snapshot: SnapshotAssertion) -> None:
    content, diags = load(packs="all")
    assert content is not None, diags
    rendered: dict[str, list[str]] = {}
    for owner in sorted(content.effects):
        src = content.effects[owner]
        if not src.tree.clauses:
            continue
        lines = list(src.english)
        assert len(lines) == len(src.tree.clauses), owner
        for line in lines:
            assert line.strip() and "?" not in line, (owner, line)
        rendered[f"{owner} ({src.name})"] = lines
    assert rendered == snapshot
