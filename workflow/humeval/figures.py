"""Figures in one style (matplotlib, non-interactive backend), each saved as PNG and PDF.

A figure is chosen by ``kind`` in the study config and drawn from the audit (``numbers.csv``), so a
figure always shows the same numbers as the tables; bars drawn from published-only numbers are hatched. A kind is
a function ``f(audit, plt, *, table, <parameters>) -> Figure`` registered with ``@register("figure", <kind>)``
(:mod:`humeval.vocabulary`); the entry's other keys are its parameters, and its ``id`` names the file.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pandas as pd

from humeval.errors import HumevalError
from humeval.vocabulary import function, register

PALETTE = ["#4C72B0", "#DD8452", "#55A868", "#C44E52", "#8172B3", "#937860", "#DA8BC3", "#8C8C8C"]
STYLE = {
    "figure.dpi": 100,
    "savefig.dpi": 300,  # print resolution (issue 42); the PDF beside it is vector
    "font.size": 10,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "axes.axisbelow": True,
    "savefig.bbox": "tight",
    "pdf.fonttype": 42,
    # labels and titles come from configs and exports: text, never mathtext ($\\frac{ or 400 nested roots in a
    # label once ended a figure job in a traceback)
    "text.parse_math": False,
}


def pyplot():
    """matplotlib.pyplot on the Agg backend with the project style applied."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcParams.update(STYLE)
    return plt


def save(fig, path_stem: str | Path, formats: tuple[str, ...] = ("png",)) -> list[Path]:
    """Save ``fig`` as ``<stem>.<format>`` for each of ``formats`` (PNG by default; PDF on request, with no
    creation date so reruns are byte-identical); return the paths (the caller closes it)."""
    stem = Path(path_stem)
    stem.parent.mkdir(parents=True, exist_ok=True)
    paths = [stem.with_suffix(f".{f}") for f in formats]
    for path in paths:
        fig.savefig(path, metadata={"CreationDate": None} if path.suffix == ".pdf" else None)
    return paths


def tick_labels(labels: list[str], inches: float, fontsize: float) -> list[str]:
    """Labels that fit their slot of ``inches`` at ``fontsize``: the ``|``-parts of a row name on lines of their own
    (``Readability|O`` -> ``Readability`` over ``O``), each wrapped at the characters the slot holds (a character is
    about 0.6 of the font size wide).

    >>> tick_labels(["Question Relevance|R1"], 0.7, 8)
    ['Question\\nRelevance\\nR1']
    """
    width = max(4, int(inches * 72 / (0.6 * fontsize)))
    return ["\n".join(textwrap.fill(part, width) for part in str(label).split("|")) for label in labels]


def series_labels(series: list[str]) -> list[str]:
    """A legend label per series row: its ``|``-parts that not every series shares (``Devx/Stux|likert`` beside
    ``Stui/Surx|likert`` -> ``Devx/Stux``); the first part where they share all.

    >>> series_labels(["Devx/Stux|likert", "Stui/Surx|likert"]), series_labels(["Devx/Stux|likert"])
    (['Devx/Stux', 'Stui/Surx'], ['Devx/Stux'])
    """
    parts = [str(s).split("|") for s in series]
    shared = {k for k in range(min(map(len, parts))) if len({p[k] for p in parts}) == 1}
    kept = [" ".join(x for k, x in enumerate(p) if k not in shared) for p in parts]
    return [label or p[0] for label, p in zip(kept, parts)]


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
    title : str, optional
        The figure title.
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
    ax.set_xticks(range(len(rows)), tick_labels(rows, (figwidth - 1.2) / len(rows), fontsize), fontsize=fontsize)
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
    title : str, optional
        The figure title.

    Returns
    -------
    Figure
        A stacked bar chart, saved as ``<id>.png``.
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
    title : str, optional
        The figure title.

    Returns
    -------
    Figure
        Bars with interval whiskers, saved as ``<id>.png``.
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
    title : str, optional
        The figure title.

    Returns
    -------
    Figure
        A dumbbell chart, saved as ``<id>.png``.
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
    title : str, optional
        The figure title.

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


def power_figure(power: pd.DataFrame, shown: pd.DataFrame, path_stem, formats=("png",), target: float = 0.8):
    """Reproduction planning (``planning/power.csv``, :mod:`humeval.planning`): one panel per finding, its power (or
    probability of the same direction) against people, one line per item count at the headline basis
    (``shown``, :func:`humeval.power_table.headline` of ``power``: the model's safeguard basis where it plans the
    finding, else the bootstrap's observed one) with its Wilson band, the observed basis dashed, ticks at the designs' people, each
    reproduction a square labelled with its size (people x items x judgements per item), and the ``target`` line."""
    plt = pyplot()
    simulated, headlines = power[power["power"].notna()], shown[shown["power"].notna()]
    findings = list(dict.fromkeys(simulated["finding"]))
    columns = max(1, min(3, len(findings)))
    rows = max(1, -(-len(findings) // columns))
    fig, axes = plt.subplots(rows, columns, figsize=(4.4 * columns, 3.3 * rows), squeeze=False)
    for ax in axes.flat[len(findings) :]:
        ax.set_visible(False)
    for ax, finding in zip(axes.flat, findings):
        part = simulated[simulated["finding"] == finding]
        lines = headlines[headlines["finding"] == finding]
        planned = lines[lines["design"] == "planned"]
        kind = part["quantity"].iloc[0] if "quantity" in part else "power"
        basis = planned["basis"].iloc[0] if "basis" in planned and len(planned) else "observed"
        for k, (items, line) in enumerate(planned.groupby("items", sort=True)):
            colour = PALETTE[k % len(PALETTE)]
            line = line.sort_values("evaluators")
            ax.plot(
                line["evaluators"], line["power"], marker="o", markersize=3, color=colour, label=f"{items:.0f} items"
            )
            ax.fill_between(line["evaluators"], line["ci_low"], line["ci_high"], color=colour, alpha=0.15, linewidth=0)
            if basis != "observed":
                observed = part[
                    (part["design"] == "planned")
                    & (part["basis"] == "observed")
                    & (part["method"] == line["method"].iloc[0])
                    & (part["items"] == items)
                ].sort_values("evaluators")
                ax.plot(observed["evaluators"], observed["power"], linestyle="--", linewidth=0.8, color=colour)
        actual = lines[lines["design"] != "planned"]
        actual = actual.groupby(["evaluators", "items", "judgements_per_item"], as_index=False).agg(
            design=("design", ", ".join),
            power=("power", "first"),
            ci_low=("ci_low", "first"),
            ci_high=("ci_high", "first"),
        )  # reproductions of one size are one point, named together
        for n, record in enumerate(actual.itertuples()):
            ax.errorbar(
                record.evaluators,
                record.power,
                yerr=[[record.power - record.ci_low], [record.ci_high - record.power]],
                fmt="s",
                color="black",
                mfc="white",
                capsize=2,
            )
            size = f"{record.evaluators:.0f}x{record.items:.0f}x{record.judgements_per_item:.0f}"
            at_right = record.evaluators >= part["evaluators"].max()  # label inwards, inside the panel
            ax.annotate(
                f"{record.design}: {size}",
                (record.evaluators, record.power),
                textcoords="offset points",
                xytext=(-6 if at_right else 6, -12 - 9 * n if record.power > 0.5 else 8 + 9 * n),
                ha="right" if at_right else "left",
                fontsize=7,
            )
        ax.axhline(target, color="black", linestyle=":", linewidth=0.8)
        ax.set_xscale("log", base=2)
        ticks = sorted(set(part["evaluators"].dropna().astype(int)))
        ax.set_xticks(ticks, [str(t) for t in ticks], fontsize=7, rotation=45 if len(ticks) > 4 else 0)
        ax.minorticks_off()
        ax.set_ylim(-0.02, 1.02)
        ax.set_title(f"{finding}: {kind} ({basis} effect)", fontsize=9)
        ax.set_xlabel("people", fontsize=8)
        ax.tick_params(axis="y", labelsize=7)
        if planned["items"].nunique() > 0:
            ax.legend(frameon=False, fontsize=6, loc="best")
    if not findings:  # nothing simulated: say why where the curves would be
        ax = axes.flat[0]
        ax.set_visible(True)
        ax.text(
            0.5,
            0.5,
            "\n".join(dict.fromkeys(power["note"].dropna())) or "no findings",
            ha="center",
            va="center",
            transform=ax.transAxes,
            fontsize=9,
            wrap=True,
        )
        ax.set_axis_off()
    fig.suptitle(
        "Power per finding: solid at the headline effect, dashed at the observed one; dotted: 80%; "
        "squares: reproductions at their size",
        fontsize=9,
    )
    fig.tight_layout()
    save(fig, path_stem, formats)
    plt.close(fig)


def draw_figures(
    audit: pd.DataFrame, specs: list[dict], outdir: str | Path, formats: tuple[str, ...] = ("png",)
) -> list[Path]:
    """Draw every configured figure of a study into ``outdir``; return the written paths."""
    plt = pyplot()
    written = []
    Path(outdir).mkdir(parents=True, exist_ok=True)
    for spec in specs:
        params = {k: v for k, v in spec.items() if k not in ("id", "kind", "description")}
        fig = None
        try:
            fig = function("figure", spec["kind"])(audit, plt, **params)
            written += save(fig, Path(outdir) / spec["id"], formats)
        except HumevalError as exc:
            raise HumevalError(f"figure {spec['id']}: {exc}") from None
        except (ValueError, TypeError, KeyError, IndexError) as exc:  # a template or label the data cannot fill
            templates = sorted(k for k, v in params.items() if isinstance(v, str) and "{" in v)
            raise HumevalError(
                f"figure {spec['id']} ({spec['kind']}): cannot draw it ({type(exc).__name__}: {exc})"
                + (f"; check its keys {templates}" if templates else "")
            ) from None
        finally:
            if fig is not None:
                plt.close(fig)
    return written
