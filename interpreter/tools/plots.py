"""Plots of simulations (matplotlib, the Agg backend: files only, no display): a run's measures, and the
differences a comparison found with their paired 95% intervals."""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ddaydice.dsl.writing import write_through
from ddaydice.interpreter.tools.measures import MEASURES, PERCENT, GameRecord, values


def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _save(plt: Any, fig: Any, path: str | Path) -> None:
    """The figure to ``path`` in the format its suffix names, written to a temporary file in the same folder then
    moved into place: a plot that fails leaves an existing file as it was, and no temporary file."""
    target = Path(path)
    try:
        write_through(target, lambda f: fig.savefig(f, dpi=100, format=target.suffix.lstrip(".").lower() or None))
    finally:
        plt.close(fig)


def simulate_plot(summary: dict[str, Any], records: Sequence[GameRecord], path: str | Path) -> None:
    """The turns played, won and lost, then each measure's histogram, to a file (PNG, SVG or PDF, by its suffix)."""
    plt = _pyplot()
    names = [n for n in MEASURES if n not in {"won", "turns"}
             and any(v is not None for v in values(records, n))]
    panels = 1 + len(names)
    cols = 2
    rows = math.ceil(panels / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(11, 3.2 * rows), squeeze=False)
    ax = axes[0][0]
    won = [r.turns for r in records if r.outcome == "won"]
    lost = [r.turns for r in records if r.outcome != "won"]
    bins = list(range(max([r.turns for r in records], default=1) + 2))
    ax.hist([won, lost], bins=bins, stacked=True, label=["won", "lost"], color=["#3a7d44", "#b33a3a"])
    ax.set_xlabel("turns played")
    ax.set_ylabel("games")
    ax.legend()
    for k, name in enumerate(names, start=1):
        ax = axes[k // cols][k % cols]
        vals = [v for v in values(records, name) if v is not None]
        lo, hi = min(vals), max(vals)
        step = max(1, math.ceil((hi - lo + 1) / 40))
        ax.hist(vals, bins=list(range(lo, hi + step + 1, step)), color="#4a6fa5")
        d = summary["measures"][name]
        ax.axvline(d["mean"], color="black", linestyle="--", linewidth=1)
        ax.set_xlabel(f"{MEASURES[name][0]} (mean {d['mean']:.2f}, median {d['median']:g})")
        ax.set_ylabel("games")
    for k in range(panels, rows * cols):
        axes[k // cols][k % cols].axis("off")
    title = f"{summary['map']}{' / ' + summary['variant'] if summary['variant'] else ''}: " \
            f"{summary['win_rate']:.1%} won of {summary['games']} ({summary['policy']})"
    fig.suptitle(title)
    fig.tight_layout()
    _save(plt, fig, path)


def compare_plot(title: str, labels: Sequence[str], rows: Sequence[tuple[str, Sequence[dict[str, Any]]]],
                 path: str | Path) -> None:
    """One panel per measure: each difference (labelled by ``labels``), a point and its 95% interval (red when
    significant after Holm's correction); ``rows`` holds, per measure (by its id in MEASURES), the JSON of its
    differences (compare.Comparison.differences_json). A share of the games (PERCENT: won) reads in percentage
    points, as the tables print it."""
    plt = _pyplot()
    cols = 2
    nrows = math.ceil(len(rows) / cols)
    fig, axes = plt.subplots(nrows, cols, figsize=(11, max(2.2, 0.5 * len(labels) + 1.2) * nrows), squeeze=False)
    from matplotlib.ticker import PercentFormatter

    for k, (name, diffs) in enumerate(rows):
        ax = axes[k // cols][k % cols]
        label = MEASURES[name][0]
        if name in PERCENT:
            ax.xaxis.set_major_formatter(PercentFormatter(xmax=1))
            label += " (percentage points)"
        for y, d in enumerate(diffs):
            lo, hi = d["ci95"]
            finite = math.isfinite(lo) and math.isfinite(hi)
            colour = "#b33a3a" if d["significant_holm"] else "#555555"
            if finite:
                ax.errorbar([d["difference"]], [y], xerr=[[d["difference"] - lo], [hi - d["difference"]]],
                            fmt="o", color=colour, capsize=4)
            else:
                ax.plot([d["difference"]], [y], "o", color=colour)
        ax.axvline(0, color="black", linewidth=0.8)
        ax.set_yticks(range(len(diffs)))
        ax.set_yticklabels(list(labels))
        ax.set_ylim(-0.7, len(diffs) - 0.3)
        ax.set_title(label, fontsize=10)
    for k in range(len(rows), nrows * cols):
        axes[k // cols][k % cols].axis("off")
    fig.suptitle(title)
    fig.tight_layout()
    _save(plt, fig, path)
