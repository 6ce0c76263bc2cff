"""A figure's key (``figures[].key``): drawn below everything the figure draws, wrapped to its width, so that it
covers no mark, label or legend."""

import itertools

import pandas as pd

from humeval.config.registry import function
from humeval.report.figures.draw import draw_figures, draw_key
from humeval.report.figures.style import pyplot

AUDIT = pd.DataFrame(
    {
        "table": "t",
        "row": ["Con", "Emo", "Con", "Emo"],
        "column": ["Devx", "Devx", "Stux", "Stux"],
        "value": [0.2, 0.4, 0.3, 0.5],
        "published": [None] * 4,
        "precision": [2] * 4,
        "status": ["recomputed_only"] * 4,
        "note": [""] * 4,
    }
)
SPEC = {"id": "f", "kind": "bars", "table": "t", "rows": ["Con", "Emo"], "columns": ["Devx", "Stux"], "title": "T"}
KEY = {"Con": "consistent", "Emo": "emotional", "Devx": "chatbot developers (external)", "Stux": "students (external)"}


def test_the_key_is_below_every_axis_label_and_legend_and_names_every_abbreviation():
    plt = pyplot()
    fig = function("figure", "bars")(AUDIT, plt, **{k: v for k, v in SPEC.items() if k not in ("id", "kind")})
    renderer = fig.canvas.get_renderer()
    lowest = min(ax.get_tightbbox(renderer).y0 for ax in fig.axes)  # tick labels, axis labels, legends (pixels)
    draw_key(fig, KEY)
    key = fig.texts[-1]
    box = key.get_window_extent(renderer)
    assert box.y1 <= lowest, (box, lowest)  # nothing it could cover
    assert key.get_text().replace("\n", " ") == (
        "Con: consistent; Emo: emotional; Devx: chatbot developers (external); Stux: students (external)"
    )
    plt.close(fig)


def test_a_figure_with_a_key_is_drawn_and_its_key_never_reaches_the_figure_function(tmp_path):
    written = draw_figures(AUDIT, [{**SPEC, "key": KEY, "paper": "Figure 2"}], tmp_path)
    assert [p.name for p in written] == ["f.png"] and written[0].stat().st_size > 0


def test_no_two_tick_labels_of_a_crowded_bar_chart_overlap():
    """yao's means: 11 rows of ``criterion|experiment`` and 3 systems. Each row's label is wrapped to the axes'
    own inches per row (the subplot's margins out), so that no label runs into the next; wrapped to the figure's
    width less 1.2 in, "Answer Relevance" (16 characters) stayed on one line and ran into its neighbours."""
    criteria = ["Readability"] * 5 + ["Question Relevance"] * 3 + ["Answer Relevance"] * 3
    experiments = ["O", "R1", "R2", "R3", "R4", "O", "R1", "R3", "O", "R1", "R3"]
    rows = [f"{c}|{e}" for c, e in zip(criteria, experiments)]
    cells = [(r, c) for r in rows for c in ("QAG", "PAQ", "GT")]
    audit = pd.DataFrame(
        {"table": "t", "row": [r for r, _ in cells], "column": [c for _, c in cells], "value": 4.0, "status": "match"}
    )
    audit["published"] = None
    plt = pyplot()
    fig = function("figure", "bars")(audit, plt, table="t", rows=rows, columns=["QAG", "PAQ", "GT"])
    renderer = fig.canvas.get_renderer()
    boxes = [label.get_window_extent(renderer) for label in fig.axes[0].get_xticklabels()]
    assert all(left.x1 < right.x0 for left, right in itertools.pairwise(boxes)), [(b.x0, b.x1) for b in boxes]
    assert fig.axes[0].get_xticklabels()[-1].get_text() == "Answer\nRelevance\nR3"
    plt.close(fig)
