#!/usr/bin/env python3
"""Write docs/dsl-reference.md from the registry of words (dsl/words/) and the bundled rules.

    .venv/bin/python scripts/gen_dsl_reference.py           # write the page
    .venv/bin/python scripts/gen_dsl_reference.py --check   # exit 1 if the committed page is stale
"""

from __future__ import annotations

import sys
from pathlib import Path

from ddaydice.dsl.reference import generate

PAGE = Path(__file__).resolve().parent.parent / "docs" / "dsl-reference.md"


def main(argv: list[str]) -> int:
    text = generate()
    if "--check" in argv:
        current = PAGE.read_text(encoding="utf-8") if PAGE.exists() else ""
        if current != text:
            print(f"{PAGE.name} is out of date: run scripts/gen_dsl_reference.py", file=sys.stderr)
            return 1
        return 0
    PAGE.parent.mkdir(parents=True, exist_ok=True)
    with PAGE.open("w", encoding="utf-8", newline="\n") as out:
        out.write(text)
    print(f"wrote {PAGE} ({text.count(chr(10))} lines)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
