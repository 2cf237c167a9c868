"""Record the golden digests of the equivalence corpus (the final state's digest and the choices of each game).

    python tests/golden/record.py          # rewrites tests/golden/digests.json

The corpus is the one the fast turn was checked against before the turn became one procedure: the same seeds,
content and choices must give the same games whatever the engine's inner workings (tests/test_golden.py).
Re-record only when a rule changes on purpose, and say why in the commit.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))

from click.testing import CliRunner  # noqa: E402
from corpus import CASES, SIMULATIONS, play_case  # noqa: E402

from ddaydice.interpreter.cli import main as main_cli  # noqa: E402


def main() -> None:
    out: dict[str, Any] = {"games": {}, "simulate": {}}
    for case in CASES:
        key = "|".join(map(str, case))
        rows = play_case(*case)
        out["games"][key] = rows
        print(key, hashlib.sha256(json.dumps(rows).encode()).hexdigest()[:12], flush=True)
    for args in SIMULATIONS:
        res = CliRunner().invoke(main_cli, ["simulate", *args, "--format", "json", "-q"])
        assert res.exit_code == 0, res.output
        data = json.loads(res.output)
        for k in ("games_per_s", "seconds", "elapsed"):
            data.pop(k, None)
        out["simulate"][" ".join(args)] = data
        print(" ".join(args), flush=True)
    (HERE / "digests.json").write_text(json.dumps(out, indent=0, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
