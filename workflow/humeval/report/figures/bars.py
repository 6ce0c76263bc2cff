"""Bar figure kinds: ``bars`` (grouped bars of table cells) and ``stacked_bars`` (segments per bar, e.g. rank
counts), drawn from the audit; bars of published-only numbers are hatched."""

from __future__ import annotations

import pandas as pd

from humeval.config.registry import register
from humeval.errors import HumevalError
from humeval.report.figures.style import PALETTE, tick_labels

__all__ = ["bars", "stacked_bars"]


@register("figure", "bars")
def bars(
    audit: pd.DataFrame,
    plt,
    *,
    table: str,
    rows: list[str],
    columns: list[str],
    labels: dict[str, str] | None = None,
    ylabel: str = "",
    xlabel: str = "",
    title: str | None = None,
    label_format: str = "{:.2f}",
    sort: bool = False,
    legend: bool = False,
):
    """Grouped vertical bars: one group per row, one bar per column of ``table``; bars drawn from published-only
    numbers are hatched, and the legend says so.

    Parameters
    ----------
    table : str
        The table whose numbers are drawn (its recomputed value, else its published one).
    rows : list of str
        The rows drawn, one group each, in this order.
    columns : list of str
        The columns drawn, one bar per group each; a missing cell is an error.
    labels : dict of str to str, optional
        Column -> legend label (default: the column).
    ylabel, xlabel : str
        Axis labels.
    label_format : str
        The format of the number printed on each bar (``"{:+.1f}%"``).
    sort : bool
        Rows by the first column's value, descending, instead of ``rows`` order.
    legend : bool
        A legend even for one column.

    Returns
    -------
    Figure
        A bar chart, saved as ``<id>.png``.

    Notes
    -----
    Each number is a bar's length from zero, position along a common scale, the encoding read most accurately
    (Cleveland & McGill); a cell's recomputed value is drawn where there is one, else its published number,
    hatched, so that a reader never takes a number the raw data could not give for one it gave.

    References
    ----------
    Cleveland & McGill (1984), "Graphical Perception: Theory, Experimentation, and Application to the Development of Graphical Methods", *Journal of the American Statistical Association* 79(387): 531-554; Hunter (2007), "Matplotlib: A 2D Graphics Environment", *Computing in Science & Engineering* 9(3): 90-95.

    Examples
    --------
    A's mean recomputed (3.5), B's known only from the paper (2.75, hatched):

    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> audit = pd.DataFrame({"table": "t", "row": ["A", "B"], "column": "mean", "value": [3.5, None],
    ...                       "published": [3.4, 2.75], "status": ["match", "published_only"]})
    >>> fig = bars(audit, plt, table="t", rows=["A", "B"], columns=["mean"])
    >>> [(float(bar.get_height()), bar.get_hatch()) for bar in fig.axes[0].patches]
    [(3.5, None), (2.75, '//')]
    >>> plt.close(fig)
    """
    part = audit[audit["table"] == table].set_index(["row", "column"])
    rows = [str(r) for r in rows]
    missing = [(r, c) for r in rows for c in columns if (r, c) not in part.index]
    if missing:
        raise HumevalError(f"no number for cell(s) {missing[:3]} of table {table!r}")

    def shown(row, column):
        cell = part.loc[(row, column)]
        return (cell["value"] if pd.notna(cell["value"]) else cell["published"]), cell["status"] == "published_only"

    if sort:
        rows = sorted(rows, key=lambda r: shown(r, columns[0])[0], reverse=True)
    figwidth = min(14, 1.2 + 1.3 * len(rows) * max(1, len(columns)) ** 0.5 / (2 if len(rows) > 10 else 1))
    fig, ax = plt.subplots(figsize=(figwidth, 3.6))
    width = 0.8 / len(columns)
    any_published = False
    for k, column in enumerate(columns):
        cells = [shown(r, column) for r in rows]
        values = [v for v, _ in cells]
        hatches = ["//" if p else None for _, p in cells]
        any_published |= any(p for _, p in cells)
        label = (labels or {}).get(column, column) + (" (published)" if all(p for _, p in cells) else "")
        xs = [i + (k - (len(columns) - 1) / 2) * width for i in range(len(rows))]
        drawn = ax.bar(
            xs,
            values,
            width=width * 0.95,
            color=PALETTE[k % len(PALETTE)],
            label=label,
            hatch=hatches,
            edgecolor=["black" if h else "white" for h in hatches],
            linewidth=0.5,
        )
        ax.bar_label(
            drawn,
            labels=[label_format.format(v) for v in values],
            fontsize=7 if len(rows) > 10 else 8,
            padding=2,
            rotation=90 if len(rows) > 10 else 0,
        )
    ax.axhline(0, color="black", linewidth=0.8)
    fontsize = 8 if len(rows) > 10 else 10
    slot = ax.get_position().width * figwidth / len(rows)  # the axes' inches per row (the subplot's margins out)
    ax.set_xticks(range(len(rows)), tick_labels(rows, slot, fontsize), fontsize=fontsize)
    ax.set_ylabel(ylabel)
    ax.set_xlabel(xlabel)
    ax.margins(y=0.15)
    if title:
        ax.set_title(title)
    if any_published and len(columns) == 1 and not all(shown(r, columns[0])[1] for r in rows):
        from matplotlib.patches import Patch

        ax.legend(
            handles=[
                Patch(facecolor=PALETTE[0], label="recomputed"),
                Patch(facecolor=PALETTE[0], hatch="//", edgecolor="black", label="published only"),
            ],
            frameon=False,
            fontsize=8,
        )
    elif len(columns) > 1 or legend:  # beside the axes, never over a bar
        ax.legend(frameon=False, fontsize=8, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    return fig


@register("figure", "stacked_bars")
def stacked_bars(
    audit: pd.DataFrame,
    plt,
    *,
    table: str,
    groups: list[str],
    bars: list[dict],
    segments: list[str],
    panels: bool = False,
    annotate_format: str = "{:.2f}",
    xlabel: str = "share",
    title: str | None = None,
):
    """Horizontal 100%-stacked bars: per group, one bar per ``bars`` entry, one segment per column. A bar whose
    cells are all published only is hatched and labelled "(published)".

    Parameters
    ----------
    table : str
        The table whose numbers are drawn.
    groups : list of str
        The groups, each filling ``{group}`` in the bars' rows.
    bars : list of dict
        ``[{label, row, columns, annotate?}]``: a bar's label, its row (with a ``{group}`` placeholder), the
        columns stacked as its segments, and whether to print the values.
    segments : list of str
        The legend label of each segment, in column order.
    panels : bool
        One subplot per group instead of one axis.
    annotate_format : str
        The format of a printed segment value.
    xlabel : str
        The axis label.

    Returns
    -------
    Figure
        A stacked bar chart, saved as ``<id>.png``.

    Notes
    -----
    A bar's segments are its cells' shares v_k / sum_j v_j, laid end to end from 0 to 1 (a 100% stacked bar), so
    that bars of different totals (an original and a reproduction with different numbers of judgements) compare
    as distributions; the first segment shares a common baseline, the others are read by length.

    References
    ----------
    Cleveland & McGill (1984), "Graphical Perception: Theory, Experimentation, and Application to the Development of Graphical Methods", *Journal of the American Statistical Association* 79(387): 531-554; Hunter (2007), "Matplotlib: A 2D Graphics Environment", *Computing in Science & Engineering* 9(3): 90-95.

    Examples
    --------
    Rank counts 10 and 30 of one system become shares 0.25 and 0.75:

    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> audit = pd.DataFrame({"table": "t", "row": "A|O", "column": ["r1", "r2"], "value": [10.0, 30.0],
    ...                       "published": [10.0, 30.0], "status": "match"})
    >>> fig = stacked_bars(audit, plt, table="t", groups=["A"], segments=["rank 1", "rank 2"],
    ...                    bars=[{"label": "O", "row": "{group}|O", "columns": ["r1", "r2"]}])
    >>> [(float(bar.get_x()), float(bar.get_width())) for bar in fig.axes[0].patches]
    [(0.0, 0.25), (0.25, 0.75)]
    >>> plt.close(fig)
    """
    part = audit[audit["table"] == table].set_index(["row", "column"])
    bar_specs = bars
    ncols = 2 if panels and len(groups) > 1 else 1
    nrows = -(-len(groups) // ncols) if panels else 1
    height = (0.45 * len(bar_specs) + 0.8) * (nrows if panels else len(groups) / 1.6 + 0.6)
    fig, axes = plt.subplots(nrows, ncols, figsize=(5.2 * ncols, max(2.6, height)), squeeze=False)

    def cell(row, column):
        if (row, column) not in part.index:
            raise HumevalError(f"no number for cell ({row!r}, {column!r}) of table {table!r}")
        c = part.loc[(row, column)]
        return (c["value"] if pd.notna(c["value"]) else c["published"]), c["status"] == "published_only"

    for g, group in enumerate(groups):
        ax = axes.flat[g] if panels else axes[0, 0]
        for b, bar in enumerate(bar_specs):
            row = bar["row"].format(group=group)
            cells = [cell(row, column) for column in bar["columns"]]
            values = pd.Series([v for v, _ in cells], dtype=float)
            shares = values / values.sum()
            published = all(p for _, p in cells)
            slot = (len(groups) - 1 - g) * (len(bar_specs) + 1)  # first group on top
            y = (len(bar_specs) - 1 - b) if panels else slot + (len(bar_specs) - 1 - b)
            left = 0.0
            for k, share in enumerate(shares):
                ax.barh(
                    y,
                    share,
                    left=left,
                    color=PALETTE[k % len(PALETTE)],
                    edgecolor="black" if published else "white",
                    hatch="//" if published else None,
                    linewidth=0.5,
                    label=segments[k] if g == 0 and b == 0 else None,
                )
                if share >= 0.08:
                    ax.text(left + share / 2, y, f"{share:.2f}", ha="center", va="center", fontsize=7, color="white")
                left += share
            text = bar["label"] + (" (published)" if published else "")
            if bar.get("annotate"):
                text += "  " + annotate_format.format(cell(row, bar["annotate"])[0])
            ax.text(1.01, y, text, va="center", fontsize=8)
            ax.set_xlim(0, 1)
        if panels:
            ax.set_title(group, fontsize=10)
            ax.set_yticks([])
    if not panels:
        ax = axes[0, 0]
        n = len(bar_specs)
        ax.set_yticks([(len(groups) - 1 - g) * (n + 1) + (n - 1) / 2 for g in range(len(groups))], groups)
    for ax in axes.flat[len(groups) if panels else 1 :]:
        ax.set_visible(False)
    axes.flat[0].legend(
        loc="lower left",
        bbox_to_anchor=(0, 1.02 if not panels else 1.12),
        ncol=len(segments),
        frameon=False,
        fontsize=8,
    )
    for ax in axes.flat:
        ax.grid(False)
        ax.set_xlabel(xlabel)
    if title:
        fig.suptitle(title, y=1.02)
    fig.tight_layout()
    return fig
