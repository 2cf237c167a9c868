"""The training games of a profile-guided build (scripts/compile): the compiled engine, built with gcc's
``-fprofile-generate``, plays them once, and gcc then lays out and optimises the code by the branches and calls they
took (``-fprofile-use``). The games only steer the C compiler: the build's behaviour is the same C code's, whatever
they are (the test suite runs on it).

They are the kinds of game the benchmarks measure (docs/benchmarks.md), weighted as there: the Practice Run with
the reference policy; Advanced Training and Omaha Beach with the heuristic; then the other maps, variants, policies,
optional rules and Atlantikwall for some coverage of the rest of the engine. Their run's seed is not the benchmarks'
(``SEED``): the build is measured on games it was not trained on. About six seconds instrumented.

    python scripts/pgo_train.py [--scale S]
"""

from __future__ import annotations

import argparse
import time

from ddaydice.dsl.loader import load
from ddaydice.interpreter.tools.simulate import Spec, run

SEED = 2  # the benchmarks play runs of seed 1 (ratio.py, heuristic_speed.py, run.py) and 0 (dday simulate's default)

#: (map, variant, players, policy, options, packs, games at scale 1)
TRAINING: tuple[tuple[str, str | None, int, str, tuple[str, ...], tuple[str, ...], int], ...] = (
    ("exercise-tiger", "practice-run", 1, "reference", (), (), 2000),
    ("exercise-tiger", "advanced-training", 1, "heuristic", (), (), 100),
    ("omaha-beach", None, 2, "heuristic", (), (), 20),
    ("exercise-tiger", "basic-training", 1, "reference", (), (), 300),
    ("exercise-tiger", "advanced-training", 1, "reference", (), (), 300),
    ("omaha-beach", None, 2, "reference", (), (), 100),
    ("utah-beach", "rising-def", 2, "heuristic", (), (), 10),
    ("sword-beach", None, 1, "casual", (), (), 20),
    ("pointe-du-hoc", None, 1, "random", ("soldier-mulligan", "victory-points"), (), 100),
    ("juno-beach", None, 1, "heuristic", ("solitaire", "wild-specialists"), (), 10),
    ("gold-beach", None, 3, "novice", ("well-equipped",), (), 20),
    ("omaha-beach", None, 2, "heuristic", (), ("atlantikwall",), 10),
    ("merville-battery", None, 2, "reference", ("quartermasters-whim",), ("atlantikwall",), 50),
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--scale", type=float, default=1.0, help="multiply every case's number of games")
    args = parser.parse_args()
    content, diagnostics = load()
    if content is None:
        raise SystemExit(f"pgo_train: the bundled content does not load: {diagnostics[:3]}")
    start = time.perf_counter()
    for map_id, variant, players, policy, options, packs, games in TRAINING:
        n = max(1, round(games * args.scale))
        loaded = content
        if packs:
            with_packs, diagnostics = load(packs=list(packs))
            if with_packs is None:
                raise SystemExit(f"pgo_train: packs {packs} do not load: {diagnostics[:3]}")
            loaded = with_packs
        spec = Spec(map_id, variant, players, policy, seed=SEED, options=options, packs=packs)
        run(loaded, spec, n, first=0)
    print(f"pgo_train: {len(TRAINING)} cases played in {time.perf_counter() - start:.1f} s")


if __name__ == "__main__":
    main()
