"""The planning figure (``planning/figure_power``): one panel per finding, its power against people per items."""

from __future__ import annotations

import pandas as pd

from humeval.report.figures.style import PALETTE, pyplot, save

__all__ = ["power_figure"]


def planned_lines(ax, part: pd.DataFrame, planned: pd.DataFrame, basis: str) -> None:
    """A panel's planned designs: one line per item count at the headline basis with its Wilson band, and the
    observed basis dashed in the same colour where the headline is another."""
    for k, (items, line) in enumerate(planned.groupby("items", sort=True)):
        colour = PALETTE[k % len(PALETTE)]
        line = line.sort_values("evaluators")
        ax.plot(line["evaluators"], line["power"], marker="o", markersize=3, color=colour, label=f"{items:.0f} items")
        ax.fill_between(line["evaluators"], line["ci_low"], line["ci_high"], color=colour, alpha=0.15, linewidth=0)
        if basis != "observed":
            observed = part[
                (part["design"] == "planned")
                & (part["basis"] == "observed")
                & (part["method"] == line["method"].iloc[0])
                & (part["items"] == items)
            ].sort_values("evaluators")
            ax.plot(observed["evaluators"], observed["power"], linestyle="--", linewidth=0.8, color=colour)


def reproduction_points(ax, lines: pd.DataFrame, part: pd.DataFrame) -> None:
    """Each reproduction at its size: a square with its interval, labelled inwards with its size (reproductions
    of one size are one point, named together)."""
    actual = lines[lines["design"] != "planned"]
    actual = actual.groupby(["evaluators", "items", "judgements_per_item"], as_index=False).agg(
        design=("design", ", ".join),
        power=("power", "first"),
        ci_low=("ci_low", "first"),
        ci_high=("ci_high", "first"),
    )
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


def finding_panel(ax, finding: str, simulated: pd.DataFrame, headlines: pd.DataFrame, target: float) -> None:
    """One finding's panel: planned lines, reproductions, the target line, ticks at the designs' people."""
    part = simulated[simulated["finding"] == finding]
    lines = headlines[headlines["finding"] == finding]
    planned = lines[lines["design"] == "planned"]
    kind = part["quantity"].iloc[0] if "quantity" in part else "power"
    basis = planned["basis"].iloc[0] if "basis" in planned and len(planned) else "observed"
    planned_lines(ax, part, planned, basis)
    reproduction_points(ax, lines, part)
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


def power_figure(power: pd.DataFrame, shown: pd.DataFrame, path_stem, formats=("png",), target: float = 0.8):
    """Reproduction planning (``planning/power.csv``, :mod:`humeval.planning.plan`): one panel per finding, its power (or
    probability of the same direction) against people, one line per item count at the headline basis
    (``shown``, :func:`humeval.planning.power_table.headline` of ``power``: the model's safeguard basis where it plans the
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
        finding_panel(ax, finding, simulated, headlines, target)
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
        "squares: reproductions at their size"
        if findings
        else "Reproduction planning: no finding simulated",
        fontsize=9,
    )
    fig.tight_layout()
    save(fig, path_stem, formats)
    plt.close(fig)
