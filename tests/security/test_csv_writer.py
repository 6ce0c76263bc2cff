"""Classes 3 and 6: one writer for every CSV the workflow writes, neutralising formula cells at write time and
only there, so that what a later stage reads back (and matches on) is the value the loader produced."""

import re
from pathlib import Path

import pandas as pd
from helpers import tidy_frame

from humeval.intermediate import read_csv, write_csv

PACKAGE = Path(__file__).resolve().parents[2] / "workflow"
HOSTILE = ["=cmd|' /C calc'!A0", '+HYPERLINK("http://x")', "@SUM(A1)", "-2+3", "\tTAB", "\rCR", "+", "'quoted", "plain"]


def test_every_csv_the_workflow_writes_goes_through_the_one_writer():
    writers = [
        f"{path.relative_to(PACKAGE)}:{n}"
        for path in [*PACKAGE.rglob("*.py"), *PACKAGE.rglob("*.smk")]
        if path.name != "intermediate.py"  # the writer
        for n, line in enumerate(path.read_text().splitlines(), 1)
        if re.search(r"\.to_csv\(|csv\.writer\(", line)
    ]
    assert writers == [], f"CSV written around humeval.intermediate.write_csv: {writers}"


def test_cells_header_and_row_labels_are_neutralised_on_disk_and_restored_when_read(tmp_path):
    frame = pd.DataFrame({"item": HOSTILE, "value": range(len(HOSTILE)), "=SUM(1)": ["-8.67"] * len(HOSTILE)})
    path = tmp_path / "t.csv"
    write_csv(frame, path)
    raw = pd.read_csv(path, dtype=str, keep_default_na=False)
    assert list(raw.columns) == ["item", "value", "'=SUM(1)"]
    assert raw["item"].tolist() == [
        "'=cmd|' /C calc'!A0",
        '\'+HYPERLINK("http://x")',
        "'@SUM(A1)",
        "'-2+3",
        "'\tTAB",
        "'\rCR",
        "'+",
        "''quoted",
        "plain",
    ]
    assert raw["'=SUM(1)"].tolist() == ["-8.67"] * len(HOSTILE)  # a number written as text stays as it is
    back = read_csv(path)
    assert back["item"].tolist() == HOSTILE and list(back.columns) == ["item", "value", "=SUM(1)"]
    table = pd.DataFrame({"-x_mean": [1.5]}, index=pd.Index(["=row"], name="experiment"))
    write_csv(table, tmp_path / "table.csv", index=True)
    assert (tmp_path / "table.csv").read_text().splitlines() == ["experiment,'-x_mean", "'=row,1.5"]


def test_an_exclusion_matches_the_value_the_export_held_after_the_round_trip(tmp_path):
    """A raw gold flag ``+`` with ``drop_where values: ["+"]``: the tidy table on disk holds ``'+``, the exclude
    stage reads ``+`` back and drops the judgement (on d9d9851 it dropped nothing, and a mean changed)."""
    from humeval.exclusions import exclude_study

    tidy = tidy_frame(judgement_id=["j1", "j2"], participant=["P1", "P2"], item="i", value=[1.0, 5.0], gold=["+", ""])
    write_csv(tidy, tmp_path / "judgements.csv")
    assert "'+" in (tmp_path / "judgements.csv").read_text()
    study = {
        "exclusions": [{"exclusion": "drop_where", "params": {"column": "gold", "values": ["+"], "reason": "gold"}}]
    }
    kept, excluded, _ = exclude_study(
        study,
        read_csv(tmp_path / "judgements.csv"),
        pd.DataFrame({"study": "s", "side": "O", "participant": ["P1", "P2"]}),
    )
    assert excluded["judgement_id"].tolist() == ["j1"] and kept["value"].tolist() == [5.0]


def test_a_formula_after_a_separator_is_neutralised_and_quoted(tmp_path):
    """OWASP's rule: a spreadsheet that splits on ';' (or ',' or a tab) sees each part as a cell, so a part that
    starts like a formula runs. The cell gets its leading ' and the file quotes its text cells, so the part stays
    inside the cell; reading it back gives the text as it was."""
    import pandas as pd

    from humeval.intermediate import read_csv, write_csv

    frame = pd.DataFrame({"claim": ["x;=cmd|' /C calc'!A0", "a,@SUM(1)", "0.5,-0.3", "O; R1"], "value": [1.0, 2, 3, 4]})
    path = tmp_path / "claims.csv"
    write_csv(frame, path)
    lines = path.read_text().splitlines()
    assert lines[1].startswith('"' + "'x;=cmd") and lines[2].startswith('"' + "'a,@SUM")
    assert lines[3].startswith('"0.5,-0.3"') and lines[4].startswith('"O; R1"')  # unchanged but for the quotes
    assert read_csv(path)["claim"].tolist() == frame["claim"].tolist()


def test_negative_numbers_alone_leave_a_file_unquoted_and_any_text_column_with_a_formula_part_quotes_it(tmp_path):
    """A table of pairwise values holds ``,-1`` in every other line: its bytes ask the text cells, each text column
    is searched whole first (``RISK_TABLE``), and only a part that starts like a formula and is not a number quotes
    the file."""
    values = pd.DataFrame({"item": ["i1", "i2"], "note": ["0.5,-0.3", "a; b"], "value": [-1, 1]})
    write_csv(values, tmp_path / "plain.csv")
    assert (tmp_path / "plain.csv").read_text() == 'item,note,value\ni1,"0.5,-0.3",-1\ni2,a; b,1\n'
    risky = values.assign(other=["x", "b;+cmd"])
    write_csv(risky, tmp_path / "risky.csv")
    assert (tmp_path / "risky.csv").read_text().splitlines() == [
        '"item","note","value","other"',
        '"i1","0.5,-0.3",-1,"x"',
        '"i2","a; b",1,"\'b;+cmd"',
    ]
    assert read_csv(tmp_path / "risky.csv")["other"].tolist() == ["x", "b;+cmd"]
