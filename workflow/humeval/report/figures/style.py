"""The figures' shared style (matplotlib, non-interactive backend), saving in each format, and label fitting."""

from __future__ import annotations

import textwrap
from pathlib import Path

__all__ = ["PALETTE", "pyplot", "save", "series_labels", "tick_labels"]

PALETTE = ["#4C72B0", "#DD8452", "#55A868", "#C44E52", "#8172B3", "#937860", "#DA8BC3", "#8C8C8C"]
STYLE = {
    "figure.dpi": 100,
    # the resolution the report shows (issue 56): its figure viewer is 1,427 px wide at 1920x1080 and 787 at
    # 1280x800 (headless Chromium), so a 12-inch figure at 200 dpi (2,400 px) is sharp at 1.7x there; the PDF beside
    # it is vector, for print. The nine studies' figures (PNG and PDF, best of 5): 11.3 CPU s at 300 dpi, 10.1 at 200.
    "savefig.dpi": 200,
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
