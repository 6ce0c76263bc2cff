"""The cross-study figures of the summary: QRA Type I CV* per system with its interval (``figure_cv_star``) and the
QRA3 study-level CV* (``figure_qra3``)."""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd

from humeval.report import study_labels
from humeval.report.figures.style import PALETTE, pyplot, save

__all__ = ["cv_star_figure", "qra3_figure"]


def recipe_shift(recipe: str) -> float:
    """The shift of a Type I recipe (``...; shift 100``): 0 where the scores were used as printed.

    >>> recipe_shift("original published; reproduction recomputed rounded to 2; shift 100"), recipe_shift("x")
    (100.0, 0.0)
    """
    match = re.search(r"shift (-?[\d.]+)", recipe or "")
    return float(match.group(1)) if match else 0.0


def cv_star_labels(cv: pd.DataFrame) -> list[str]:
    """One label per CV* bar, unique within the figure: study (author-year), the table only where the study has
    more than one, measurand and the recipe (scores as printed, or shifted to a 0-based scale as the QRA reference
    code requires).

    >>> frame = pd.DataFrame({"study": ["a-1-x", "a-1-x"], "table": ["t", "t"], "measurand": ["X", "X"],
    ...                       "recipe": ["shift 0", "shift 100"]})
    >>> cv_star_labels(frame)
    ['a-1: X (as printed)', 'a-1: X (shifted +100)']
    """
    tables, short = cv.groupby("study")["table"].nunique(), study_labels(cv["study"])
    labels = [
        f"{short[s]}{f' {t}' if tables[s] > 1 else ''}: {m} "
        f"({'as printed' if recipe_shift(r) == 0 else f'shifted {recipe_shift(r):+g}'})"
        for s, t, m, r in zip(cv["study"], cv["table"], cv["measurand"], cv["recipe"])
    ]
    seen: dict[str, int] = {}
    for k, label in enumerate(labels):
        seen[label] = seen.get(label, 0) + 1
        if seen[label] > 1:
            labels[k] = f"{label} [{seen[label]}]"
    return labels


def cv_star_interval(value: float, inputs: str, recipe: str) -> tuple[float, float]:
    """The 95% interval of a CV*: QRA3's interval of s* (:func:`humeval.qra.qra3.type1_measures` over the
    experiments' scores in ``inputs``, shifted as the recipe says) scaled by CV*/s*, the lower end at 0 at least.

    >>> [round(x, 1) for x in cv_star_interval(5.0, "3;3.5", "shift 0")]
    [0.0, 33.6]
    """
    from humeval.qra.qra3 import type1_measures

    scores = [float(x.lstrip("'")) for x in str(inputs).split(";")]
    measures = type1_measures(scores, scale_starts_at=-recipe_shift(recipe))
    if not measures["sd_star"] > 0:
        return value, value
    ratio = value / measures["sd_star"]
    return max(0.0, measures["sd_ci_low"] * ratio), measures["sd_ci_high"] * ratio


def cv_star_figure(qra: pd.DataFrame, path_stem: str | Path, formats: tuple[str, ...] = ("png",)):
    """Horizontal bars of CV* per measurand, coloured by study, over the experiments it compares (lower = more
    reproducible; the axis says how many), with the 95% interval (:func:`cv_star_interval`) as an error bar and in
    the bar's text; the axis ends at twice the largest CV*, and a bar whose interval runs past it has an arrow
    there. A bar with a dashed outline uses scores shifted to a 0-based scale, a plain bar the scores as printed
    (hatching means published only in every figure, so it is not used here); the legend below the axes."""
    from matplotlib.patches import Patch

    plt = pyplot()
    cv = qra[qra["type"] == "cv_star"].reset_index(drop=True)
    fig, ax = plt.subplots(figsize=(7.5, 0.32 * max(len(cv), 4) + 1.6))
    studies = list(dict.fromkeys(cv["study"]))
    colours = [PALETTE[studies.index(s) % len(PALETTE)] for s in cv["study"]]
    shifted = [recipe_shift(r) != 0 for r in cv["recipe"]]
    intervals = [cv_star_interval(v, i, r) for v, i, r in zip(cv["value"], cv["inputs"], cv["recipe"])]
    right = 2 * float(cv["value"].max()) if len(cv) else 1.0
    y = list(range(len(cv))[::-1])
    bars = ax.barh(y, cv["value"], color=colours)
    for bar, dashed in zip(bars, shifted):
        if dashed:
            bar.set_edgecolor("black")
            bar.set_linestyle("--")
            bar.set_linewidth(0.9)
    ax.errorbar(
        cv["value"],
        y,
        xerr=[
            [v - lo for v, (lo, _) in zip(cv["value"], intervals)],
            [min(hi, right) - v for v, (_, hi) in zip(cv["value"], intervals)],
        ],
        fmt="none",
        ecolor="black",
        elinewidth=0.7,
        capsize=2,
    )
    ax.set_yticks(y, cv_star_labels(cv), fontsize=7)
    for yy, value, (lo, hi) in zip(y, cv["value"], intervals):
        if hi > right:
            ax.annotate("", xy=(right, yy), xytext=(right * 0.97, yy), arrowprops={"arrowstyle": "->", "lw": 0.7})
        ax.text(value, yy + 0.32, f" {value:.1f} [{lo:.1f}, {hi:.1f}]", va="center", fontsize=6)
    ax.set_xlim(0, right)
    counts = sorted({len(str(i).split(";")) for i in cv["inputs"]})
    ax.set_xlabel(
        f"CV* (%) over the {' or '.join(map(str, counts))} experiments each measurand compares, with its 95% interval;"
        " lower = closer"
    )
    ax.set_title("QRA Type I across studies")
    ax.legend(  # below the axes, never over a bar
        handles=[
            Patch(facecolor="white", edgecolor="black", label="scores as printed (the paper's recipe)"),
            Patch(facecolor="white", edgecolor="black", linestyle="--", label="scores shifted to a 0-based scale"),
        ],
        fontsize=7,
        loc="upper center",
        bbox_to_anchor=(0.5, -0.14),
        ncol=2,
        frameon=False,
    )
    fig.tight_layout()
    save(fig, path_stem, formats)
    plt.close(fig)


def qra3_figure(qra3: pd.DataFrame, path_stem: str | Path, formats: tuple[str, ...] = ("png",)):
    """Criterion-level CV* (QRA3 Type I, mean over systems) per study and QRA3 table, with the share of
    agreeing findings (Type IV) written beside each bar; criteria without a CV* are counted in the title, not drawn
    as empty rows."""

    plt = pyplot()
    criteria = qra3[qra3["level"] == "criterion"]
    rows = criteria[criteria["cv_star"].notna()].reset_index(drop=True)  # an empty row says nothing: qra3.csv says why
    fig, ax = plt.subplots(figsize=(7.5, 0.32 * max(len(rows), 4) + 1.2))
    studies = list(dict.fromkeys(rows["study"]))
    y = list(range(len(rows)))[::-1]
    ax.barh(y, rows["cv_star"], color=[PALETTE[studies.index(s) % len(PALETTE)] for s in rows["study"]])
    tables = rows.groupby(["study", "experiments"])["table"].nunique()  # a table named only where it tells apart
    short = study_labels(rows["study"])
    labels = [
        f"{short[s]}{f' {t}' if tables[(s, e)] > 1 else ''} ({e}): {c}"
        for s, t, e, c in zip(rows["study"], rows["table"], rows["experiments"], rows["criterion"])
    ]
    ax.set_yticks(y, labels, fontsize=7)
    for yy, cv, pf in zip(y, rows["cv_star"], rows["p_findings"]):
        ax.text(cv, yy, f" {cv:.1f}" + ("" if pd.isna(pf) else f"  (findings {pf:.2f})"), va="center", fontsize=7)
    ax.set_xlabel("criterion-level CV* (%), QRA3 Type I; lower = closer")
    left_out = len(criteria) - len(rows)
    ax.set_title(
        "QRA3 across studies" + (f" ({left_out} criteria without a CV*: qra3.csv says why)" if left_out else "")
    )
    fig.tight_layout()
    save(fig, path_stem, formats)
    plt.close(fig)
