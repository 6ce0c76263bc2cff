"""Every generated Markdown table renders: parsed with a CommonMark + GFM-tables parser (markdown-it-py), each
table has as many cells in every row as in its header, and no label's markup (``|``, ``*``, ``<``) leaks.
Also: numbers print at the table's precision (a full-precision published number does not print float noise)."""

import pytest
from markdown_it import MarkdownIt

pytestmark = pytest.mark.e2e


def tables_of(text: str) -> list[list[int]]:
    """Cells per row of every table in ``text`` (header first), as a CommonMark + GFM parser sees them."""
    tables, current, cells = [], None, 0
    for token in MarkdownIt("commonmark").enable("table").parse(text):
        if token.type == "table_open":
            current = []
        elif token.type == "tr_open":
            cells = 0
        elif token.type in ("th_open", "td_open"):
            cells += 1
        elif token.type == "tr_close":
            current.append(cells)
        elif token.type == "table_close":
            tables.append(current)
    return tables


def test_every_generated_markdown_table_parses_with_equal_cells_per_row(full_run):
    files = sorted((full_run / "results").rglob("*.md"))
    assert len(files) > 50
    broken, tables = [], 0
    for path in files:
        text = path.read_text()
        parsed = tables_of(text)
        if text.count("\n|---") != len(parsed):
            broken.append(
                f"{path.relative_to(full_run)}: {text.count(chr(10) + '|---')} tables written, {len(parsed)} parsed"
            )
        for rows in parsed:
            tables += 1
            if len(set(rows)) != 1:
                broken.append(f"{path.relative_to(full_run)}: cells per row {sorted(set(rows))}")
    assert not broken, broken[:5]
    assert tables > 50


def test_markdown_cells_escape_markup_keep_a_significance_mark_and_the_tables_precision():
    import pandas as pd

    from humeval.audit import build_audit
    from humeval.report.tables import markdown_table

    column = "Likert|reproduction"
    table = {
        "id": "t",
        "columns": [column],
        "rows": ["A*B", "A*B_p"],
        "precision": {column: 2},
        "significance": {"p_suffix": "_p", "threshold": 0.05},
    }
    values = pd.DataFrame(
        [("t", "A*B", column, 43.75), ("t", "A*B_p", column, 0.2)], columns=["table", "row", "column", "value"]
    )
    # a published number read at full precision from a published file: 14 decimals
    published = pd.DataFrame(
        [("t", "A*B", column, 43.75, 14, "")], columns=["table", "row", "column", "value", "precision", "note"]
    )
    text = markdown_table(build_audit(values, published, [table]), table)
    assert tables_of(text) == [[2, 2, 2]]
    assert "| 43.75\\* |" in text  # the not-significant mark survives as a literal asterisk, at 2 decimals
    assert "43.7500" not in text and "Likert\\|reproduction" in text and "A\\*B" in text
