"""End to end: the DExperts fluency study from the AMT batch and the MS Forms exports."""

import pandas as pd
import pytest

from humeval.cv_star import sd_star

STUDY = "liu-2021-dexperts-fluency"
pytestmark = pytest.mark.e2e
MISSING = {"3", "13", "15", "21", "25"}


def audit(built):
    return pd.read_csv(built / "numbers.csv", dtype={"row": str}).set_index(["table", "row", "column"])


def test_original_shares_equal_the_published_original_rows(built):
    figure2 = audit(built).loc["figure2"]
    original = figure2[figure2.index.get_level_values("row").str.endswith("|Original")]
    assert len(original) == 12
    assert (original["status"] == "match").all()
    assert (original["value"].round(2) == original["published"]).all()


def test_reproduction_uses_exactly_the_27_published_batches(built):
    counts = pd.read_csv(built / "tables/counts.csv").set_index("count")["n"]
    assert counts[["reproduction_batches", "reproduction_items", "reproduction_judgements"]].tolist() == [27, 810, 2430]
    table2 = audit(built).loc["table2"].xs("alpha", level="column")
    assert set(table2.index[table2["status"] == "published_only"]) == MISSING
    assert set(table2.index[table2["value"].notna()]) == {str(b) for b in range(1, 33)} - MISSING


def test_authors_dropna_drops_the_six_published_items_and_uid_748_is_in_missing_batch_25(built):
    exclusions = pd.read_csv(built / "exclusions.csv")
    assert sorted(exclusions["item"].unique()) == ["uid0122", "uid0127", "uid0128", "uid0530", "uid0535", "uid0536"]
    assert (748 - 1) // 30 + 1 == 25
    tidy = pd.read_csv(built / "tidy/judgements.csv")
    assert tidy.loc[tidy["side"] == "original", "item"].nunique() == 960  # nothing dropped on the original side


def test_cv_star_diagnosis_the_printed_pplm_and_gedi_values_are_the_corrected_sd(built):
    cells = audit(built)
    for system in ["GPT-2", "DAPT"]:
        assert cells.loc[("table1", system, "cv_star"), "status"] == "match"
    for system, inputs in {"PPLM": (0.37, 0.47), "GeDi": (0.36, 0.45)}.items():
        row = cells.loc[("table1", system, "cv_star")]
        assert row["status"] == "mismatch" and "s/c4(2)" in row["note"]
        assert round(sd_star(inputs), 2) == row["published"]
        assert round(cells.loc[("table1", system, "sd_star"), "value"], 2) == row["published"]


def test_spearman_and_alpha_summary_match_with_exact_p_beside(built):
    cells = audit(built)
    assert cells.loc[("table1", "spearman", "rho"), "status"] == "match"
    assert cells.loc[("table1", "spearman", "p"), "status"] == "match"
    assert cells.loc[("table1", "spearman", "p_exact"), "value"] == pytest.approx(1 / 3)
    assert cells.loc[("table1", "alpha_summary", "mean"), "status"] == "match"
    assert cells.loc[("table1", "alpha_summary", "sd"), "status"] == "match"
    assert cells.loc[("table3", "20", "alpha_3_raters"), "status"] == "match"
    for figure in ["figure2", "figure_alpha"]:
        assert (built / "figures" / f"{figure}.png").is_file()
