"""A figure's key (``figures[].key``): drawn below everything the figure draws, wrapped to its width, so that it
covers no mark, label or legend."""

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
