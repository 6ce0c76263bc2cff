"""Rating designs (Santhanam & Shaikh 2019; humeval.metrics.designs.rating_designs) and the Qualtrics survey loader
that feeds them: ICC, spreadsheet modes, participant subgroups and the time split, on small fixtures."""

import pandas as pd
import pytest
from helpers import FIXTURES

from humeval.errors import HumevalError
from humeval.loaders.qualtrics_survey import load
from humeval.metrics.designs.icc import icc
from humeval.metrics.designs.rating_designs import spreadsheet_mode, subgroup_members, unanchored_time_split

PARAMS = {
    "condition": "Likert",
    "design": "likert",
    "contexts": 1,
    "responses": 2,
    "layout": "alternate",
    "scale": [1, 6],
    "response_text_pattern": r"Response \d+:\s*(.*?)\n\n",
}


def test_positional_parsing_wins_over_duplicated_tags():
    judgements, participants = load(
        {"survey": str(FIXTURES / "qualtrics_2_participants.csv")}, "s", "reproduction", **PARAMS
    )
    first = judgements[judgements["participant"] == participants["participant"].iloc[0]]
    cells = first.set_index(["item", "criterion"])["value"].to_dict()
    # columns 11..14 are (r1 readability, r1 coherence, r2 readability, r2 coherence) whatever their tags say
    assert cells == {
        ("c01r1", "readability"): 1,
        ("c01r1", "coherence"): 6,
        ("c01r2", "readability"): 3,
        ("c01r2", "coherence"): 4,
    }
    assert participants[["q1", "q2"]].values.tolist() == [["yes", "no"], ["no", "yes"]]
    assert participants["minutes"].tolist() == [10, 30]
    assert set(judgements["response_text"]) == {"Hello there.", "Hi."}
    assert "R_fakeA" not in judgements.to_csv() + participants.to_csv()


def test_likert_value_out_of_range_names_row_and_column(tmp_path):
    text = (FIXTURES / "qualtrics_2_participants.csv").read_text(encoding="utf-8").replace(",3,4,", ",9,4,")
    bad = tmp_path / "likert9.csv"
    bad.write_text(text, encoding="utf-8")
    with pytest.raises(HumevalError) as info:
        load({"survey": str(bad)}, "s", "reproduction", **PARAMS)
    assert "row 4, column 13" in str(info.value) and "outside 1..6" in str(info.value)


def test_layout_that_does_not_fit_the_question_texts_is_refused():
    with pytest.raises(HumevalError, match="column 12: question text does not mention 'readability'"):
        load(
            {"survey": str(FIXTURES / "qualtrics_2_participants.csv")},
            "s",
            "reproduction",
            **{**PARAMS, "layout": "criterion_blocks"},
        )


def test_spreadsheet_mode_breaks_ties_by_first_occurrence():
    frame = pd.DataFrame({"item": ["a"] * 4 + ["b"] * 3, "value": [4, 2, 2, 4, 1, 5, 5], "row": [3, 0, 1, 2, 0, 1, 2]})
    # item a: 2 and 4 twice each; 2 occurs first (row 0) -> 2. item b: 5 is the most frequent -> 5
    assert spreadsheet_mode(frame).to_dict() == {"a": 2, "b": 5}


def test_unanchored_time_split_compares_with_the_mean_of_later_rows():
    minutes = pd.Series([20.4, 50.0, 10.0, 35.6])  # rounded 20, 50, 10, 36
    # row 0: 20 vs mean(20, 50, 10, 36) = 29 -> below; row 1: 50 vs mean(50, 10, 36) = 32 -> above
    # row 2: 10 vs mean(10, 36) = 23 -> below; row 3: 36 vs 36 -> above (>=)
    assert unanchored_time_split(minutes).tolist() == [False, True, False, True]
    people = pd.DataFrame({"participant": list("abcd"), "row": [0, 1, 2, 3], "minutes": minutes})
    assert subgroup_members(people, "above", time_split="published").tolist() == ["b", "d"]
    assert subgroup_members(people, "above", time_split="corrected").tolist() == ["b", "d"]  # mean 29.0
    assert subgroup_members(
        people.assign(minutes=[20.4, 50.0, 10.0, 30.0]), "above", time_split="published"
    ).tolist() == ["b", "d"]
    assert subgroup_members(
        people.assign(minutes=[20.4, 50.0, 10.0, 30.0]), "above", time_split="corrected"
    ).tolist() == ["b", "d"]
    assert subgroup_members(
        people.assign(minutes=[30.0, 50.0, 40.0, 10.0]), "above", time_split="published"
    ).tolist() == ["b", "c", "d"]
    assert subgroup_members(
        people.assign(minutes=[30.0, 50.0, 40.0, 10.0]), "above", time_split="corrected"
    ).tolist() == ["b", "c"]


def test_icc_consistency_and_agreement_match_hand_computation():
    # items x raters [[1, 2], [3, 3], [5, 6]]: MSR = 8.1667, MSC = 0.6667, MSE = 0.1667 (n = 3, k = 2)
    # ICC(C,k) = (MSR - MSE) / MSR = 48/49; ICC(A,k) = (MSR - MSE) / (MSR + (MSC - MSE) / n) = 0.96
    frame = pd.DataFrame(
        {"item": ["i1", "i1", "i2", "i2", "i3", "i3"], "participant": ["a", "b"] * 3, "value": [1, 2, 3, 3, 5, 6]}
    )
    result = icc(frame)
    assert result["ICC-C"][0] == pytest.approx(48 / 49)
    assert result["ICC-A"][0] == pytest.approx(0.96)
    # consistency: F = MSR / MSE = 49 on (2, 2) df; agreement (irr): the same F on (2, v) df, with
    # a = 2 * 0.96 / (3 * 0.04) = 16, b = 1 + 2 * 0.96 * 2 / (3 * 0.04) = 33,
    # v = (16 * 2/3 + 33 / 6)^2 / ((16 * 2/3)^2 + (33 / 6)^2 / 2) = 2.0276
    from scipy import stats

    assert result["ICC-C"][1] == pytest.approx(stats.f.sf(49, 2, 2))
    v = (16 * 2 / 3 + 33 / 6) ** 2 / ((16 * 2 / 3) ** 2 + (33 / 6) ** 2 / 2)
    assert result["ICC-A"][1] == pytest.approx(stats.f.sf(49, 2, v))
