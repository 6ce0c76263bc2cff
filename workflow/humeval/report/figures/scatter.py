"""The ``reliability_scatter`` figure kind: one point per participant or item, two measures against each other."""

from __future__ import annotations

import pandas as pd

from humeval.config.registry import register
from humeval.report.figures.style import PALETTE

__all__ = ["reliability_scatter"]


@register("figure", "reliability_scatter")
def reliability_scatter(
    audit: pd.DataFrame,
    plt,
    *,
    table: str,
    points_table: str,
    conditions: list[str],
    x: str,
    y: str,
    title: str | None = None,
):
    """One scatter per condition of per-participant reliabilities, annotated with r and p.

    Parameters
    ----------
    table : str
        The table of r and p per condition (rows = conditions, columns ``r`` and ``p``).
    points_table : str
        The table of per-participant values (rows ``<condition>|<participant>``).
    conditions : list of str
        The conditions, one panel each.
    x, y : str
        The columns of ``points_table`` on the axes.

    Returns
    -------
    Figure
        Scatter plots, saved as ``<id>.png``.

    Notes
    -----
    One point per participant at (x, y), two reliabilities of the same person (santhanam-2019: each rater's
    leave-one-out Spearman correlation with the others, for coherence and for readability), annotated with the
    table's r and p between them: the figure shows what the single r summarises (an outlier, a ceiling), as
    Anscombe's quartet warns it can hide.

    References
    ----------
    Anscombe (1973), "Graphs in Statistical Analysis", *The American Statistician* 27(1): 17-21; Hunter (2007), "Matplotlib: A 2D Graphics Environment", *Computing in Science & Engineering* 9(3): 90-95.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> points = pd.DataFrame({"table": "pts", "row": ["Likert|P1", "Likert|P1", "Likert|P2", "Likert|P2"],
    ...                        "column": ["intra", "inter"] * 2, "value": [0.9, 0.7, 0.5, 0.4]})
    >>> stats = pd.DataFrame({"table": "r", "row": "Likert", "column": ["r", "p"], "value": [1.0, 0.0]})
    >>> fig = reliability_scatter(pd.concat([points, stats]), plt, table="r", points_table="pts",
    ...                           conditions=["Likert"], x="intra", y="inter")
    >>> fig.axes[0].collections[0].get_offsets().tolist(), fig.axes[0].texts[0].get_text()
    ([[0.9, 0.7], [0.5, 0.4]], 'r = 1.00\\np = 0')
    >>> plt.close(fig)
    """
    points = audit[audit["table"] == points_table]
    stats = audit[audit["table"] == table].set_index(["row", "column"])["value"]
    fig, axes = plt.subplots(1, len(conditions), figsize=(3.2 * len(conditions), 3.2), squeeze=False, sharey=True)
    for ax, condition in zip(axes[0], conditions):
        part = points[points["row"].str.startswith(condition + "|")].pivot(
            index="row", columns="column", values="value"
        )
        ax.scatter(part[x], part[y], s=14, color=PALETTE[0])
        ax.set_title(condition, fontsize=10)
        ax.set_xlabel(f"{x} reliability")
        r, p = stats.get((condition, "r"), float("nan")), stats.get((condition, "p"), float("nan"))
        ax.text(0.04, 0.96, f"r = {r:.2f}\np = {p:.2g}", transform=ax.transAxes, va="top", fontsize=8)
    axes[0, 0].set_ylabel(f"{y} reliability")
    if title:
        fig.suptitle(title)
    fig.tight_layout()
    return fig
