"""Two versions of a policy on the same seeds: the per-game outcomes of one version, then their paired comparison.

    python benchmarks/policy_ab.py play MAP [--variant V] [--option O ...] [--pack P ...] [--players N]
                                        [--policy heuristic] [--games 400] [--seed 0] --out FILE.json
    python benchmarks/policy_ab.py pair BEFORE.json AFTER.json

``play`` plays games 0 .. N-1 of a run (seeded as ``dday simulate`` seeds them) with the code on the Python path
and writes each game's outcome (won, turns, Soldiers left) and the CPU time per game. Run it once with the old
code first on the path (``PYTHONPATH=OLD_TREE/src``) and once with the new, on the same arguments; ``pair`` then
reads the two files and prints, for each measure, both means and the paired 95% interval of after - before
(tools/stats.py: the paired Student t interval, as ``dday compare`` reports it), and games/s of each.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any


def play(args: argparse.Namespace) -> None:
    import ddaydice
    from ddaydice.dsl.loader import load
    from ddaydice.interpreter.tools.simulate import Spec, play_one

    content, _ = load(packs=list(args.pack))
    assert content is not None
    spec = Spec(args.map, args.variant, args.players, args.policy, seed=args.seed, options=tuple(args.option),
                packs=tuple(args.pack))
    games: list[dict[str, Any]] = []
    started = time.process_time()
    for i in range(args.games):
        r = play_one(content, spec, i)
        games.append({"index": i, "won": r.outcome == "won", "turns": r.turns, "soldiers_left": r.soldiers_left})
    cpu = time.process_time() - started
    out = {"code": str(Path(ddaydice.__file__).parent), "map": args.map, "variant": args.variant,
           "options": args.option, "packs": args.pack, "players": args.players, "policy": args.policy,
           "seed": args.seed, "cpu_seconds": cpu, "games_per_s": args.games / cpu if cpu else 0.0, "games": games}
    Path(args.out).write_text(json.dumps(out))
    print(f"{args.games} games, {out['games_per_s']:.1f} games/s (CPU), code from {out['code']}")


def pair(args: argparse.Namespace) -> None:
    from ddaydice.interpreter.tools.stats import paired

    a = json.loads(Path(args.before).read_text())
    b = json.loads(Path(args.after).read_text())
    n = min(len(a["games"]), len(b["games"]))
    ga, gb = a["games"][:n], b["games"][:n]
    setup = f"{a['map']}" + (f" --variant {a['variant']}" if a["variant"] else "") + "".join(
        f" --option {o}" for o in a["options"]) + "".join(f" --pack {p}" for p in a["packs"])
    print(f"{setup}: {n} games on the same seeds (seed {a['seed']}), policy {a['policy']}")
    print(f"  {'measure':16s} {'before':>8s} {'after':>8s}  difference [95% paired interval]")
    rows: list[tuple[str, list[float | None], list[float | None]]] = [
        ("won", [float(g["won"]) for g in ga], [float(g["won"]) for g in gb]),
        ("turns played", [float(g["turns"]) for g in ga], [float(g["turns"]) for g in gb]),
        ("turns to win", [float(g["turns"]) if g["won"] else None for g in ga],
         [float(g["turns"]) if g["won"] else None for g in gb]),
        ("Soldiers left", [float(g["soldiers_left"]) for g in ga], [float(g["soldiers_left"]) for g in gb]),
    ]
    for name, xa, xb in rows:
        p = paired(xa, xb)
        pct = name == "won"

        def f(v: float, pct: bool = pct) -> str:
            return f"{100 * v:7.1f}%" if pct else f"{v:8.2f}"

        def d(v: float, pct: bool = pct) -> str:
            return f"{100 * v:+.1f}%" if pct else f"{v:+.2f}"

        ma = [v for v in xa if v is not None]
        mb = [v for v in xb if v is not None]
        mean_a = sum(ma) / len(ma) if ma else 0.0
        mean_b = sum(mb) / len(mb) if mb else 0.0
        print(f"  {name:16s} {f(mean_a)} {f(mean_b)}  {d(p.diff)} [{d(p.lo)}, {d(p.hi)}]"
              f"{' (over ' + str(p.n) + ' pairs)' if p.n != n else ''}{'  significant' if p.significant else ''}")
    print(f"  games/s (CPU)    {a['games_per_s']:8.1f} {b['games_per_s']:8.1f}")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("play")
    p.add_argument("map")
    p.add_argument("--variant")
    p.add_argument("--option", action="append", default=[])
    p.add_argument("--pack", action="append", default=[])
    p.add_argument("--players", type=int, default=1)
    p.add_argument("--policy", default="heuristic")
    p.add_argument("--games", type=int, default=400)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", required=True)
    q = sub.add_parser("pair")
    q.add_argument("before")
    q.add_argument("after")
    args = ap.parse_args(argv)
    (play if args.cmd == "play" else pair)(args)


if __name__ == "__main__":
    main(sys.argv[1:])
