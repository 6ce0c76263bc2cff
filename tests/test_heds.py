"""Human Evaluation Datasheets (HEDS): read as far as they go, never failing the study, personal data never read;
the conditions tables of liu and yao checked cell by cell against the datasheets' JSON."""

import json

import pandas as pd
import pytest

from humeval.config.conditions import CRITERIA_KEY
from humeval.heds import conditions_frame, read_datasheet

SHEET = {
    "heds-sample_evaluators_design-evaluators-number_of_evaluators": {"data": {"": "3"}, "control": {}},
    "heds-sample_evaluators_design-evaluators-evaluators-expertise-1": {"data": {"": True}, "text": {"": "1. experts"}},
    "heds-sample_evaluators_design-evaluators-evaluators-expertise-2": {"data": {"": False}, "text": {"": ""}},
    "heds-sample_evaluators_design-evaluators-evaluators-expertise-other_text": {"data": {"": "linguists"}},
    "heds-criteria-criterion": {"data": {}, "control": {"Fluency": True}},
    "heds-criteria-criterion-response_elicitation-verbatim_question": {"data": {"Fluency": "Is it fluent?"}},
    "heds-paper_and_resources-names_and_affiliations-person_completing_this_sheet-email": {"data": {"": "a@b.org"}},
    "heds-paper_and_resources-names_and_affiliations-person_completing_this_sheet-name": {"data": {"": "Ann Author"}},
    "heds-sample_evaluators_design-evaluators-recruitment_method": {"data": {"": "mail ann@b.org to join"}},
}


def write(tmp_path, document, name="sheet.json"):
    path = tmp_path / name
    path.write_text(json.dumps(document) if not isinstance(document, str) else document)
    return str(path)


def test_options_other_text_criteria_and_free_text_by_hand(tmp_path):
    values, warnings = read_datasheet(write(tmp_path, SHEET))
    assert warnings == []
    assert values["heds-sample_evaluators_design-evaluators-number_of_evaluators"] == {"": "3"}
    assert values["heds-sample_evaluators_design-evaluators-evaluators-expertise"] == {"": "experts: linguists"}
    assert values[CRITERIA_KEY] == {"": "Fluency"}
    assert values["heds-criteria-criterion-response_elicitation-verbatim_question"] == {"Fluency": "Is it fluent?"}
    text = json.dumps(values)
    assert "Ann Author" not in text and "a@b.org" not in text and "ann@b.org" not in text  # never read, or removed
    assert "mail [email removed] to join" in text


@pytest.mark.parametrize(
    "document, warned",
    [
        ("{not json", "not a readable HEDS JSON"),
        ("[1, 2]", "expected a JSON object"),
        ({"something-else": {"data": {"": 1}}}, "not a heds- key"),
        ({"heds-criteria-criterion-response_elicitation-verbatim_question": "text"}, "expected {data: {...}}"),
        ({"heds-sample_evaluators_design-evaluators-evaluators-payment-1": {"data": {"": "yes"}}}, "true or false"),
    ],
)
def test_a_malformed_datasheet_is_read_as_far_as_it_goes_with_a_warning(tmp_path, document, warned):
    _, warnings = read_datasheet(write(tmp_path, document))
    assert any(warned in w for w in warnings), warnings


def test_a_partial_datasheet_gives_the_conditions_it_has_and_the_study_goes_on(tmp_path):
    partial = {k: v for k, v in SHEET.items() if "number_of_evaluators" in k or k == CRITERIA_KEY}
    broken = write(tmp_path, "{broken", "broken.json")
    study = {
        "experiments": [
            {
                "id": "O",
                "conditions": {
                    "heds-sample_evaluators_design-evaluators-number_of_evaluators": {"value": "3", "source": "paper"}
                },
            },
            {"id": "R1", "datasheet": "r1"},
            {"id": "R2", "datasheet": "r2"},
        ]
    }
    frame, warnings = conditions_frame(study, {"r1": write(tmp_path, partial, "r1.json"), "r2": broken})
    assert any(w.startswith("R2: broken.json: not a readable HEDS JSON") for w in warnings)
    row = frame.set_index("condition").loc["Number of evaluators"]
    assert (row["O"], row["R1"], row["R2"], row["differs_from_O"]) == ("3", "3", "", "")
    assert row["sources"] == "O: paper; R1: datasheet r1"


@pytest.mark.e2e
def test_liu_and_yao_conditions_equal_their_datasheets(full_run):
    liu = pd.read_csv(full_run / "results/liu-2021-dexperts-fluency/tables/conditions.csv", keep_default_na=False)
    liu = liu.set_index("condition")
    # the datasheet: number_of_evaluators {"": "96"}; size_of_scale-1 "1. Discrete" + other_text "3";
    # list_or_range "A, B, or equally fluent"; criteria control {"Fluency": true}
    assert liu.loc["Number of evaluators", "R1"] == "96"
    assert liu.loc["Scale size | Fluency", "R1"] == "Discrete: 3"
    assert liu.loc["Scale (list or range) | Fluency", "R1"] == "A, B, or equally fluent"
    assert liu.loc["Criteria evaluated", ["O", "R1"]].tolist() == ["Fluency", "Fluency"]
    assert liu.loc["Recruitment and platform", "differs_from_O"] == "R1"  # AMT against Prolific
    yao = pd.read_csv(full_run / "results/yao-2022-storybook-qag/tables/conditions.csv", keep_default_na=False)
    yao = yao.set_index("condition")
    assert yao.loc["Number of evaluators", ["O", "R3"]].tolist() == ["5", "5"]
    assert yao.loc["Criteria evaluated", "R3"] == "Readability, Question Relevance, Answer Relevance"
    assert yao.loc["Scale (list or range) | Readability", "R3"] == "1(worst) to 5(best)"
    assert yao.loc["Evaluators known to the authors", "R3"] == "previously known to authors"
    audit = pd.read_csv(full_run / "results/yao-2022-storybook-qag/numbers.csv")
    assert (audit.loc[audit["table"] == "conditions", "status"] == "condition").all()


def test_the_datasheet_cleaner_is_linear_in_a_megabyte_of_free_text():
    """A 1 MB free-text field under the 5 MB limit: Python's engine retried the run of word characters from every
    start (about 10^12 steps, a hung job); RE2's matching is linear, so this input finishes (no time is measured)."""
    from humeval.heds import clean

    field = "a" * 1_000_000 + " write to someone@example.org"
    cleaned = clean(field)
    assert cleaned.endswith("write to [email removed]") and len(cleaned) == 1_000_000 + len(" write to [email removed]")
