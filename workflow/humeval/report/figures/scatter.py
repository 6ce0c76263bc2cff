"""The ``reliability_scatter`` figure kind: one point per participant or item, two measures against each other."""

from __future__ import annotations

import pandas as pd

from humeval.report.figures.style import PALETTE
from humeval.vocabulary import register

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
