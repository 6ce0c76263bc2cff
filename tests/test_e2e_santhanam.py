"""End to end: the dialogue-design study (four Qualtrics exports, INLG workbooks, automatic scores)."""

import math

import pandas as pd
import pytest

STUDY = "santhanam-2019-dialogue-design"
pytestmark = pytest.mark.e2e
CONDITIONS = ["Likert", "RME", "BME", "BWS"]


@pytest.fixture(scope="module")
def built(full_run):
    return full_run / "results" / STUDY


def audit(built):
    return pd.read_csv(built / "numbers.csv", keep_default_na=False, na_values=[""]).set_index(
        ["table", "row", "column"]
    )


def truncated(value, decimals=2):
    return math.trunc(value * 10**decimals) / 10**decimals


def test_table1_reproduction_matches_all_16_cells(built):
    cells = audit(built).loc["table1"].reset_index()
    repro = cells[
        cells["column"].str.endswith("|reproduction")
        & cells["row"].str.startswith("ICC")
        & ~cells["row"].str.endswith("|p")
    ]
    assert len(repro) == 16 and (repro["status"] == "match").all(), repro


def test_table9_rme_bme_match_and_likert_bws_are_diagnosed_as_truncated(built):
    cells = audit(built)
    for condition in ["RME", "BME"]:
        assert cells.loc[("table9", "rho", f"{condition}|reproduction"), "status"] == "match"
    for condition in ["Likert", "BWS"]:
        row = cells.loc[("table9", "rho", f"{condition}|reproduction")]
        assert row["status"] == "mismatch" and "truncated" in row["note"]
        assert truncated(row["value"]) == row["published"]


def test_figure1_r_values_at_two_decimals(built):
    cells = audit(built)
    for condition in ["RME", "BWS"]:
        assert cells.loc[("figure1", condition, "r"), "status"] == "match"
    for condition in ["Likert", "BME"]:  # the paper truncated these two
        row = cells.loc[("figure1", condition, "r")]
        assert row["status"] == "mismatch" and truncated(row["value"]) == row["published"]
    assert cells.loc[("figure1", "BME", "p"), "status"] == "match"  # only without the unfinished response


def test_table8_published_mode_matches_and_corrected_mode_differs(built):
    cells = audit(built).reset_index()
    t8 = cells[
        (cells["table"] == "table8") & cells["column"].str.endswith("|reproduction") & ~cells["row"].str.endswith("|p")
    ]
    assert len(t8) == 8 and (t8["status"] == "match").all()
    corrected = audit(built).loc[("table8_corrected", "readability", "Likert|reproduction"), "value"]
    published_mode = audit(built).loc[("table8", "readability", "Likert|reproduction"), "value"]
    assert round(corrected, 2) != round(published_mode, 2)


def test_timing_fre_and_claims(built):
    cells = audit(built)
    for condition in CONDITIONS:
        assert cells.loc[("timing", condition, "mean_minutes"), "status"] == "match"
        assert cells.loc[("timing", condition, "sd_minutes"), "status"] == "match"
    assert cells.loc[("fre_agreement", "Likert", "exact"), "value"] >= 0.8
    assert cells.loc[("fre_agreement", "Likert", "spearman"), "value"] > 0.98
    claims = pd.read_csv(built / "tables/claims.csv").set_index("claim")
    main = claims.loc[[f"C{k}" for k in range(1, 9)]]
    assert (main["original"] == 1).all()  # every operationalised claim holds on the original's numbers
    assert set(main["replicated"]) <= {0, 1}
    for figure in ["figure1", "figure_icc", "figure_icc_agreement"]:
        assert (built / "figures" / f"{figure}.png").is_file()
