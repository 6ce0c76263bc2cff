import pandas as pd
from helpers import REPO

from humeval.report.tables import markdown_table, wide_table

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


def test_a_matching_cell_that_rounds_to_another_printed_digit_is_marked():
    audit = pd.DataFrame(
        {
            "table": "t",
            "row": ["x"],
            "column": ["repro"],
            "value": [0.125],
            "published": [0.12],
            "precision": [2],
            "status": ["match"],
            "note": [""],
        }
    )
    table = {"id": "t", "rows": ["x"], "columns": ["repro"]}
    half_up = markdown_table(audit, table, "half_up")
    assert "| 0.13§ |" in half_up and "published 0.12" in half_up
    assert "| 0.12 |" in markdown_table(audit, table, "half_even")  # the paper's convention: no mark


def test_a_table_with_the_authors_rounding_recipe_shows_values_by_it():
    audit = pd.DataFrame(
        {
            "table": "t",
            "row": ["icc", "icc|p"],
            "column": ["c", "c"],
            "value": [0.8749, 3e-9],
            "published": [0.88, None],
            "precision": [2, 4],
            "status": ["match", "recomputed_only"],
            "note": ["", ""],
        }
    )
    table = {
        "id": "t",
        "rows": ["icc", "icc|p"],
        "columns": ["c"],
        "compare": "r_signif3_half_up",
        "row_precision": {"icc|p": 4},
    }
    text = markdown_table(audit, table)
    assert "| icc | 0.88 |" in text  # signif(0.8749, 3) = 0.875, half up to 0.88, as the authors printed
    assert "| icc\\|p | 3e-09 |" in text or "| icc|p | 3e-09 |" in text  # rows with their own precision: plain


def test_a_table_shows_rows_and_columns_in_the_papers_words_and_keeps_its_keys():
    """``labels`` rename what is shown (header, row labels, footnotes) in Markdown, HTML and LaTeX; the wide CSV
    and the audit keep the keys that published numbers and claims use."""
    from humeval.report.html_tables import table_html
    from humeval.report.tables import latex_table

    table = {**TABLE, "labels": {"repro": "Reproduction (2024)", "y": "System Y"}}
    text = markdown_table(AUDIT, table)
    assert "| system | orig | Reproduction (2024) |" in text
    assert "| System Y | -16† | -8.67‡ |" in text
    assert "System Y / Reproduction (2024) (recomputed -8.67, published -8.00)" in text
    assert list(wide_table(AUDIT, table).columns) == ["orig", "repro"]
    assert "<td>System Y</td>" in table_html(AUDIT, table, {"name": "s", "experiments": []})
    assert "Reproduction (2024)" in latex_table(AUDIT, table)


def test_a_label_for_a_key_the_table_does_not_have_is_one_line_at_load():
    from humeval.config.checks import check_figure_labels

    failures = []
    study = {"tables": [{**TABLE, "labels": {"rpro": "Reproduction"}}]}
    check_figure_labels(study, failures.append)
    expected = "not the row header, a row or a column (['system', 'x', 'y', 'orig', 'repro']); did you mean 'repro'?"
    assert failures == [f"key tables.0.labels.rpro: {expected}"]


def test_the_row_header_is_worded_by_its_label_else_by_its_parts_and_a_key_follows_the_caption():
    """``labels`` word the row header too; without one, a key's parts read ``criterion, system``; a table's ``key``
    is one sentence below the caption in Markdown, HTML and LaTeX."""
    from humeval.report.html_tables import table_html
    from humeval.report.tables import latex_table

    table = {**TABLE, "row_header": "criterion|system", "key": {"orig": "the original, 2021"}}
    assert "| criterion, system | orig | repro |" in markdown_table(AUDIT, table)
    worded = {**table, "labels": {"criterion|system": "Criterion and system"}}
    assert "| Criterion and system | orig | repro |" in markdown_table(AUDIT, worded)
    assert "\nKey: orig, the original, 2021.\n" in markdown_table(AUDIT, table)
    assert "Key: orig, the original, 2021." in table_html(AUDIT, table, {"name": "s", "experiments": []})
    assert "\\caption{" in latex_table(AUDIT, table) and "Key: orig, the original, 2021.}" in latex_table(AUDIT, table)


def test_qra3_and_claims_tables_are_worded_without_config():
    """The QRA3 tables and a claims table get the report's words for their keys (the CSV keeps the keys); a study's
    own label wins."""
    from humeval.config.load import load_study

    study = load_study(REPO / "config/studies/hosking-2022-paraphrase-meaning.yaml")
    tables = {t["id"]: t for t in study["tables"]}
    assert tables["qra3"]["labels"]["cv_star"] == "CV*" and tables["qra3"]["labels"]["criterion|system"]
    assert tables["claims"]["labels"] == {
        "replicated": "held in both",
        "original_left": "original: left side",
        "original_right": "original: right side",
        "reproduction_left": "reproduction: left side",
        "reproduction_right": "reproduction: right side",
    }
