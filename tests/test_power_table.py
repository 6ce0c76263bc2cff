"""What a reader takes from a power table (:mod:`humeval.planning.power_table`): its numbers read back, the row
shown first per finding and design, the smallest sufficient design, the one-shot caveat; on tables small enough to
rank by hand."""

import pandas as pd
import pytest

from humeval.planning.power_table import COLUMNS, as_numbers, headline, one_shot_caveat, smallest_sufficient


def test_a_power_table_read_back_as_text_gets_numbers_and_integer_counts():
    text = pd.DataFrame({c: ["1"] for c in COLUMNS}).assign(
        finding="F1",
        experiment="R1",
        design="planned",
        method="model",
        basis="safeguard",
        quantity="power",
        power="0.25",
        pilot="O",
        caveat="",
        note="n",
    )
    out = as_numbers(text)
    assert out["power"].tolist() == [0.25] and out["power"].dtype == float
    assert str(out["evaluators"].dtype) == "Int64" and str(out["simulations"].dtype) == "Int64"
    assert str(out["mde"].dtype) == "float64"
    text_columns = ["finding", "experiment", "design", "method", "basis", "quantity", "pilot", "caveat", "note"]
    assert out[text_columns].values.tolist() == text[text_columns].values.tolist()
    assert as_numbers(text.drop(columns=["mde"])).columns.tolist() == [c for c in COLUMNS if c != "mde"]


def test_the_one_shot_caveat_is_empty_where_people_judged_once():
    assert one_shot_caveat("R1", 100, 100, "O") == ""
    assert one_shot_caveat("R1", 99, 100, "O").startswith("drawn as 100 one-shot judgements, as O's were")


def test_the_headline_row_is_the_models_safeguard_then_observed_then_assumed_then_any_then_the_bootstraps():
    order = [
        ("bootstrap", "observed"),
        ("bootstrap", "safeguard"),
        ("model", "other"),
        ("model", "assumed"),
        ("model", "observed"),
        ("model", "safeguard"),
    ]
    frame = pd.DataFrame(order, columns=["method", "basis"]).assign(finding="F", design="R1", evaluators=5, items=9)
    shown = []
    while not frame.empty:  # worst first in the frame, so a tie (stable sort) would pick the worse row
        first = headline(frame)
        assert len(first) == 1
        shown.append(tuple(first[["method", "basis"]].iloc[0]))
        frame = frame.drop(index=first.index)
    assert shown == order[::-1]


def test_the_headline_is_per_finding_design_and_size_in_the_tables_order():
    frame = pd.DataFrame(
        {
            "finding": ["G", "G", "F", "F"],
            "design": "planned",
            "evaluators": [5, 5, 5, 10],
            "items": 9,
            "method": ["bootstrap", "model", "model", "model"],
            "basis": "observed",
        }
    )
    assert headline(frame).index.tolist() == [1, 2, 3]
    assert headline(frame.drop(columns="method")).equals(frame.drop(columns="method"))


def planned(findings, powers, notes=None, evaluators=None) -> pd.DataFrame:
    n = len(powers)
    return pd.DataFrame(
        {
            "finding": findings,
            "design": "planned",
            "evaluators": evaluators or [2 * (k + 1) for k in range(n)],
            "items": 10,
            "power": powers,
            "ci_low": 0.0,
            "ci_high": 1.0,
            "note": notes or [""] * n,
        }
    )


def test_exactly_80_percent_is_sufficient_and_findings_keep_the_tables_order():
    rows = smallest_sufficient(planned(["Z", "Z", "A"], [0.8, 0.9, 0.85]))
    assert rows["finding"].tolist() == ["Z", "A"]
    assert (rows["evaluators"].iloc[0], rows["power"].iloc[0], rows["note"].iloc[0]) == (2, 0.8, "")


def test_a_finding_no_design_could_simulate_gets_its_first_note_and_one_short_of_80_gets_its_best():
    nan = float("nan")
    power = planned(["A", "B", "B", "C", "C"], [0.9, nan, nan, 0.5, 0.7], ["", "too few items", "other", "", ""])
    rows = smallest_sufficient(power).set_index("finding")
    assert rows.loc["B", "note"] == "too few items" and pd.isna(rows.loc["B", "power"])
    assert rows.loc["C", "power"] == 0.7 and pd.isna(rows.loc["C", "evaluators"])
    assert rows.loc["C", "note"] == "no planned design reaches 80%; the largest power is at 10 evaluators x 10 items"
    assert rows.loc["A", "power"] == pytest.approx(0.9)
