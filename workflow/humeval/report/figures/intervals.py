"""Figure kinds with intervals: ``interval_bars`` (values with their interval) and ``dumbbell`` (two values per row
joined, e.g. original and reproduction)."""

from __future__ import annotations

import pandas as pd

from humeval.config.registry import register
from humeval.errors import HumevalError
from humeval.report.figures.style import PALETTE, series_labels

__all__ = ["dumbbell", "interval_bars"]


@register("figure", "interval_bars")
def interval_bars(
    audit: pd.DataFrame,
    plt,
    *,
    table: str,
    categories: list[str],
    panels: list[dict],
    value: str,
    low: str,
    high: str,
    overlay: str | None = None,
    short_labels: bool = False,
    ylabel: str = "",
    title: str | None = None,
):
    """Panels of grouped bars with interval whiskers: x = ``categories``, one bar per series row. Series without
    numbers (an optional input absent) are left out, and a panel without any series is dropped.

    Parameters
    ----------
    table : str
        The table whose numbers are drawn.
    categories : list of str
        The x positions, each filling ``{category}`` in the column templates.
    panels : list of dict
        ``[{title, series: [row, ...], labels?}]``: one panel each, one bar per series row.
    value, low, high : str
        Column templates of the bar and its whisker ends (``"{category}"``, ``"{category}_lo"``,
        ``"{category}_hi"``).
    overlay : str, optional
        A column template drawn as a translucent taller bar behind (``"{category}_wintie"``).
    short_labels : bool
        Label a series by the last ``|`` part of its row (``O|BLEU`` -> ``BLEU``) where a panel gives no label;
        otherwise by the parts of its row that the panel's other series do not share (:func:`series_labels`).
    ylabel : str
        The axis label.

    Returns
    -------
    Figure
        Bars with interval whiskers, saved as ``<id>.png``.

    Notes
    -----
    A bar of height v with a whisker from l to h (the interval the table computed: a bootstrap or a TrueSkill
    interval), drawn as asymmetric error bars (max(0, v - l), max(0, h - v)); two series overlap in their
    intervals exactly when their whiskers overlap, which is not a test of their difference.

    References
    ----------
    Cumming & Finch (2005), "Inference by Eye: Confidence Intervals and How to Read Pictures of Data", *American
    Psychologist* 60(2): 170-180; Hunter (2007), "Matplotlib: A 2D Graphics Environment", *Computing in Science & Engineering* 9(3): 90-95.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> audit = pd.DataFrame({"table": "t", "row": "A", "column": ["x", "x_lo", "x_hi"], "value": [0.6, 0.5, 0.8],
    ...                       "published": [None] * 3, "status": "not_published"})
    >>> fig = interval_bars(audit, plt, table="t", categories=["x"], panels=[{"title": "A", "series": ["A"]}],
    ...                     value="{category}", low="{category}_lo", high="{category}_hi")
    >>> whisker = fig.axes[0].containers[0].lines[2][0].get_segments()[0]  # the ErrorbarContainer of the bars
    >>> [round(float(y), 2) for y in whisker[:, 1]]
    [0.5, 0.8]
    >>> plt.close(fig)
    """
    part = audit[audit["table"] == table]
    values = part.assign(shown=part["value"].where(part["value"].notna(), part["published"])).set_index(
        ["row", "column"]
    )["shown"]
    panels = [
        dict(p, series=[s for s in p["series"] if (s, value.format(category=categories[0])) in values.index])
        for p in panels
    ]
    panels = [p for p in panels if p["series"]]
    if not panels:
        raise HumevalError(f"table {table!r} has no numbers for any series")
    fig, axes = plt.subplots(
        len(panels), 1, figsize=(max(7, 1.1 * len(categories) + 2), 2.8 * len(panels)), squeeze=False
    )
    for ax, panel in zip(axes[:, 0], panels):
        width = 0.8 / len(panel["series"])
        default = series_labels(panel["series"])
        for k, series in enumerate(panel["series"]):

            def get(template, series=series):
                return [values.get((series, template.format(category=c)), float("nan")) for c in categories]

            xs = [i + (k - (len(panel["series"]) - 1) / 2) * width for i in range(len(categories))]
            heights = get(value)
            color = PALETTE[k % len(PALETTE)]
            if overlay:
                ax.bar(xs, get(overlay), width=width * 0.95, color=color, alpha=0.3)
            lows, highs = get(low), get(high)
            errors = [
                [max(0.0, h - lo) for h, lo in zip(heights, lows)],
                [max(0.0, hi - h) for h, hi in zip(heights, highs)],
            ]
            ax.bar(
                xs,
                heights,
                width=width * 0.95,
                color=color,
                yerr=errors,
                capsize=2,
                error_kw={"linewidth": 0.8},
                label=panel.get("labels", {}).get(series, series.split("|")[-1] if short_labels else default[k]),
            )
        ax.set_xticks(range(len(categories)), categories)
        ax.set_title(panel["title"], fontsize=10)
        ax.set_ylabel(ylabel)
        ax.axhline(0, color="black", linewidth=0.6)
        ax.legend(
            frameon=False, fontsize=7, ncol=min(6, len(panel["series"])), loc="upper left", bbox_to_anchor=(1.0, 1.0)
        )
    if title:
        fig.suptitle(title)
    fig.tight_layout()
    return fig


@register("figure", "dumbbell")
def dumbbell(
    audit: pd.DataFrame,
    plt,
    *,
    table: str,
    tables: list[str],
    conditions: list[str],
    criteria: list[str],
    row_template: str,
    column_template: str,
    titles: dict[str, str] | None = None,
    ylabel: str = "",
    title: str | None = None,
):
    """Original vs reproduction at a glance: one panel per table, x = conditions x criteria, a hollow marker for
    the original, a filled one for the reproduction, joined by a line.

    Parameters
    ----------
    table : str
        The table the figure is shown with in the report.
    tables : list of str
        The tables drawn, one panel each.
    conditions, criteria : list of str
        The x positions: every condition with every criterion.
    row_template : str
        The row of a criterion (``"ICC-C|{criterion}"``).
    column_template : str
        The column of a condition and side (``"{condition}|{side}"``; sides ``original`` and ``reproduction``).
    titles : dict of str to str, optional
        Table -> its panel title (default: the table id).
    ylabel : str
        The axis label.

    Returns
    -------
    Figure
        A dumbbell chart, saved as ``<id>.png``.

    Notes
    -----
    Per condition and criterion, the original's number (hollow) and the reproduction's (filled) on one vertical
    line: the line's length is |R - O|, the difference a reproduction assessment asks about, read on a common scale
    (a dot plot in Cleveland's sense) rather than from two bars' tops.

    References
    ----------
    Cleveland (1984), "Graphical Methods for Data Presentation: Full Scale Breaks, Dot Charts, and Multibased
    Logging", *The American Statistician* 38(4): 270-280; Hunter (2007), "Matplotlib: A 2D Graphics Environment", *Computing in Science & Engineering* 9(3): 90-95.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> audit = pd.DataFrame({"table": "icc", "row": "ICC|coherence", "column": ["Likert|original",
    ...                       "Likert|reproduction"], "value": [0.41, 0.55], "published": [0.41, None],
    ...                       "status": ["match", "not_published"]})
    >>> fig = dumbbell(audit, plt, table="icc", tables=["icc"], conditions=["Likert"], criteria=["coherence"],
    ...                row_template="ICC|{criterion}", column_template="{condition}|{side}")
    >>> [float(y) for y in fig.axes[0].lines[0].get_ydata()]
    [0.41, 0.55]
    >>> plt.close(fig)
    """
    values = audit.assign(shown=audit["value"].where(audit["value"].notna(), audit["published"])).set_index(
        ["table", "row", "column"]
    )["shown"]
    categories = [(c, k) for c in conditions for k in criteria]
    ncols = min(4, len(tables))
    nrows = -(-len(tables) // ncols)
    fig, axes = plt.subplots(nrows, ncols, figsize=(3.4 * ncols, 2.8 * nrows), squeeze=False, sharey=True)
    for ax, panel in zip(axes.flat, tables):
        for x, (condition, criterion) in enumerate(categories):
            row = row_template.format(criterion=criterion)
            pair = [
                values.get((panel, row, column_template.format(condition=condition, side=side)), float("nan"))
                for side in ("original", "reproduction")
            ]
            color = PALETTE[criteria.index(criterion) % len(PALETTE)]
            ax.plot([x, x], pair, color=color, linewidth=1)
            ax.plot(x, pair[0], "o", mfc="white", mec=color)
            ax.plot(x, pair[1], "o", color=color)
        ax.set_xticks(range(len(categories)), [f"{c}\n{k[:4]}" for c, k in categories], fontsize=7)
        ax.set_title((titles or {}).get(panel, panel), fontsize=9)
    for ax in axes.flat[len(tables) :]:
        ax.set_visible(False)
    axes[0, 0].set_ylabel(ylabel)
    from matplotlib.lines import Line2D

    fig.legend(
        handles=[
            Line2D([], [], marker="o", mfc="white", mec="black", ls="", label="original (published)"),
            Line2D([], [], marker="o", color="black", ls="", label="reproduction (recomputed)"),
        ],
        loc="upper right",
        frameon=False,
        fontsize=8,
    )
    if title:
        fig.suptitle(title)
    fig.tight_layout()
    return fig
