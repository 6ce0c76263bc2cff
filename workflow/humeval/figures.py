"""Figures in one style (matplotlib, non-interactive backend), each saved as PNG and PDF.

A figure is chosen by ``kind`` in the study config and drawn from the audit (``numbers.csv``), so a
figure always shows the same numbers as the tables; bars drawn from published-only numbers are hatched.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from humeval.errors import HumevalError

PALETTE = ["#4C72B0", "#DD8452", "#55A868", "#C44E52", "#8172B3", "#937860", "#DA8BC3", "#8C8C8C"]
STYLE = {"figure.dpi": 100, "savefig.dpi": 150, "font.size": 10, "axes.spines.top": False,
         "axes.spines.right": False, "axes.grid": True, "grid.alpha": 0.3, "axes.axisbelow": True,
         "savefig.bbox": "tight", "pdf.fonttype": 42}


def pyplot():
    """matplotlib.pyplot on the Agg backend with the project style applied."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcParams.update(STYLE)
    return plt


def save(fig, path_stem: str | Path) -> list[Path]:
    """Save ``fig`` as ``<stem>.png`` and ``<stem>.pdf``; close it; return the paths."""
    stem = Path(path_stem)
    stem.parent.mkdir(parents=True, exist_ok=True)
    paths = [stem.with_suffix(".png"), stem.with_suffix(".pdf")]
    for path in paths:
        fig.savefig(path, metadata={"CreationDate": None} if path.suffix == ".pdf" else None)
    fig.get_figure().clf()
    return paths


def bars(audit: pd.DataFrame, spec: dict, plt):
    """Grouped vertical bars: one group per row, one bar per column of ``spec['table']``.

    ``spec``: ``table, rows, columns, labels? ({column: legend label}), ylabel?, title?,
    label_format? (e.g. "{:+.1f}%")``. Published-only values are hatched and say so in the legend.
    """
    part = audit[audit["table"] == spec["table"]].set_index(["row", "column"])
    rows, columns = spec["rows"], spec["columns"]
    missing = [(r, c) for r in rows for c in columns if (r, c) not in part.index]
    if missing:
        raise HumevalError(f"figure {spec['id']}: no number for cell(s) {missing[:3]} of table {spec['table']!r}")
    fig, ax = plt.subplots(figsize=(1.2 + 1.3 * len(rows) * max(1, len(columns)) ** 0.5, 3.6))
    width = 0.8 / len(columns)
    label_format = spec.get("label_format", "{:.2f}")
    for k, column in enumerate(columns):
        cells = [part.loc[(r, column)] for r in rows]
        values = [c["value"] if pd.notna(c["value"]) else c["published"] for c in cells]
        published_only = all(c["status"] == "published_only" for c in cells)
        label = spec.get("labels", {}).get(column, column) + (" (published)" if published_only else "")
        xs = [i + (k - (len(columns) - 1) / 2) * width for i in range(len(rows))]
        drawn = ax.bar(xs, values, width=width * 0.95, color=PALETTE[k % len(PALETTE)], label=label,
                       hatch="//" if published_only else None, edgecolor="white" if not published_only else "black",
                       linewidth=0.5)
        ax.bar_label(drawn, labels=[label_format.format(v) for v in values], fontsize=8, padding=2)
    ax.axhline(0, color="black", linewidth=0.8)
    ax.set_xticks(range(len(rows)), rows)
    ax.set_ylabel(spec.get("ylabel", ""))
    ax.margins(y=0.15)
    if spec.get("title"):
        ax.set_title(spec["title"])
    if len(columns) > 1 or spec.get("legend"):
        ax.legend(frameon=False, fontsize=8)
    return fig


KINDS = {"bars": bars}


def draw_figures(audit: pd.DataFrame, specs: list[dict], outdir: str | Path) -> list[Path]:
    """Draw every configured figure of a study into ``outdir``; return the written paths."""
    plt = pyplot()
    written = []
    for spec in specs:
        if spec["kind"] not in KINDS:
            raise HumevalError(f"figure {spec['id']}: unknown kind {spec['kind']!r}; known kinds: {sorted(KINDS)}")
        fig = KINDS[spec["kind"]](audit, spec, plt)
        written += save(fig, Path(outdir) / spec["id"])
        plt.close(fig)
    return written
