import pandas as pd

from humeval.tables import markdown_table, wide_table

AUDIT = pd.DataFrame(
    {
        "table": "t",
        "row": ["x", "x", "y", "y"],
        "column": ["orig", "repro", "orig", "repro"],
        "value": [None, 23.0, None, -8.6667],
        "published": [36.0, 23.0, -16.0, -8.0],
        "precision": [0, 2, 0, 2],
        "status": ["published_only", "match", "published_only", "mismatch"],
        "note": ["no raw data", "", "no raw data", "rounding"],
    }
)
TABLE = {"id": "t", "title": "Demo", "row_header": "system", "rows": ["x", "y"], "columns": ["orig", "repro"]}


def test_wide_table_falls_back_to_published_values():
    wide = wide_table(AUDIT, TABLE)
    assert wide.loc["x", "orig"] == 36.0 and wide.loc["y", "repro"] == -8.6667
    assert wide.index.name == "system"


def test_markdown_marks_published_only_and_mismatch_with_grouped_footnotes():
    text = markdown_table(AUDIT, TABLE)
    assert "| x | 36† | 23.00 |" in text
    assert "| y | -16† | -8.67‡ |" in text
    assert text.count("no raw data") == 1  # one footnote for both cells
    assert "y / repro (recomputed -8.67, published -8.00)" in text
