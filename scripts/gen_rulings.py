"""Write rules/rulings.yaml, the list of the rulings of docs/rulings.md (number and title) that the package ships:
what a card, a Sector, an attribute, a query or a rule may cite in ``rulings:`` (LOAD010 for a number it does not
list), and what dday explain and dday card print beside each number. docs/ is not in the package, so the list is
written from it here (scripts/regenerate), and tests/test_citations.py checks the two agree.

    python scripts/gen_rulings.py
"""

from __future__ import annotations

import json
import re
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
HEADER = """\
# The rulings of docs/rulings.md, by number: what a card, a Sector, an attribute, a query or a rule cites in
# `rulings:` (dday explain and dday card print each with its title). Written from docs/rulings.md by
# scripts/gen_rulings.py (scripts/regenerate); tests/test_citations.py checks the two agree. A pack lists its own
# rulings in its rules/rulings.yaml.
provenance: reconstructed
note: the rulings are ours, on what the rulebook leaves open (docs/rulings.md)
rulings:
"""


def rulings(text: str) -> list[tuple[str, str]]:
    """The rulings of docs/rulings.md, in order: each number with its title, less the mark '(engine fix)'."""
    found = re.findall(r"^#{3,4} (\d+(?:\.\d+)+) (.+)$", text, flags=re.M)
    return [(number, title.removesuffix(" (engine fix)").strip()) for number, title in found]


def main() -> None:
    text = (REPO / "docs" / "rulings.md").read_text(encoding="utf-8")
    lines = [f"  - {{id: {json.dumps(n)}, title: {json.dumps(t, ensure_ascii=False)}}}\n" for n, t in rulings(text)]
    (REPO / "rules" / "rulings.yaml").write_text(HEADER + "".join(lines), encoding="utf-8")


if __name__ == "__main__":
    main()
