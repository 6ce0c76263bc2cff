"""End to end: the hosking study from the raw exports (mirror or network) through Snakemake."""

import ast
import sqlite3

import pandas as pd
import pytest

STUDY = "hosking-2022-paraphrase-meaning"
pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def built(full_run):
    return full_run


def numbers(workdir):
    return pd.read_csv(workdir / "results" / STUDY / "numbers.csv").set_index(["table", "row", "column"])


def test_reproduction_preferences_equal_the_published_values(built):
    cells = numbers(built)
    expected = {"VAE": 23.00, "Latent BoW": -8.67, "Separator": -17.89, "HRQ-VAE": 3.56}
    for system, published in expected.items():
        assert round(cells.loc[("preference", system, "reproduction"), "value"], 2) == published
        assert cells.loc[("preference", system, "reproduction"), "status"] == "match"


def test_design_counts(built):
    cells = numbers(built)
    expected = {
        "tasks": 60,
        "responses": 180,
        "judgements": 5760,
        "items": 1920,
        "check_items": 120,
        "comparisons": 1800,
    }
    for row, n in expected.items():
        assert cells.loc[("counts", row, "n"), "value"] == n
    assert cells.loc[("counts", "attention_failures", "n"), "status"] == "published_only"
    assert cells.loc[("counts", "attention_failures_in_release", "n"), "value"] == 0


def test_every_number_has_a_valid_status_and_every_gap_a_reason(built):
    audit = pd.read_csv(built / "results" / STUDY / "numbers.csv", keep_default_na=False)
    assert set(audit["status"]) <= {"match", "mismatch", "recomputed_only", "published_only", "published_input"}
    needs_note = audit["status"].isin(["mismatch", "published_only"])
    assert (audit.loc[needs_note, "note"] != "").all()
    assert not audit["note"].str.startswith("UNDIAGNOSED").any()


def test_contract_outputs_exist(built):
    base = built / "results" / STUDY
    for path in ["tidy/judgements.csv", "tidy/participants.csv", "exclusions.csv", "numbers.csv"]:
        assert (base / path).is_file(), path
    for table in ["preference", "table1", "table2", "counts"]:
        assert (base / "tables" / f"{table}.csv").is_file() and (base / "tables" / f"{table}.md").is_file()
    for figure in ["figure1", "figure2"]:
        assert (base / "figures" / f"{figure}.png").stat().st_size > 1000
        pdf = (base / "figures" / f"{figure}.pdf").read_bytes()  # PNG and vector PDF by default
        assert pdf.startswith(b"%PDF") and b"/Subtype /Image" not in pdf
    for rule in ["published", "extract", "exclude", "metrics", "qra", "tables", "figures"]:
        assert (built / "results/logs" / rule / f"{STUDY}.log").is_file(), rule
    exclusions = pd.read_csv(base / "exclusions.csv")
    assert len(exclusions) == 360 and set(exclusions["rule"]) == {"check_items"}  # 120 items x 3 judgements


def test_no_prolific_identifier_reaches_any_output_or_log(built):
    db = built / "data/raw" / STUDY / "database.db"
    with sqlite3.connect(db) as connection:
        ids = {row[0] for row in connection.execute("SELECT prolific_id FROM tasks")}
        ids |= {row[0] for row in connection.execute("SELECT session_id FROM tasks")}
        for (text,) in connection.execute("SELECT json_string FROM results"):
            record = ast.literal_eval(text)
            ids |= {record["prolific_pid"], record["session_id"]}
        ids |= {row[0] for row in connection.execute("SELECT id FROM results")}
    ids = {i for i in ids if i}
    assert len(ids) > 180
    for path in (built / "results").rglob("*"):
        if path.is_file() and path.suffix in {".csv", ".md", ".log", ".txt", ".json"}:
            text = path.read_text(errors="ignore")
            leaked = [i for i in ids if i in text]
            assert not leaked, f"{path} contains raw identifier(s)"


def test_position_bias_diagnostic_is_reported_not_excluded(built):
    cells = numbers(built)
    assert round(cells.loc[("diagnostics", "answer_a_share", "share"), "value"], 2) == 0.55  # brief: 55%
