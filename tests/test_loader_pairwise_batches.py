from pathlib import Path

import pandas as pd
import pytest
from helpers import REPO

from humeval.config.studyfile import read_yaml
from humeval.errors import HumevalError
from humeval.loaders.amt_pairwise_batch import load as load_amt
from humeval.loaders.ms_forms_batches import load as load_forms
from humeval.loaders.pairwise_item_key import read_item_key

LIU = read_yaml(REPO / "config/studies/liu-2021-dexperts-fluency.yaml")
FORMS_PARAMS = LIU["extract"][1]["params"]
AMT_PARAMS = LIU["extract"][0]["params"]


def write_key(path, n=60):
    rows = [
        {
            "prompt_id": str(1000 + i),
            "sentprefix": "p",
            "sourcea": "DExperts" if i % 2 else "GPT-2",
            "senta": "x",
            "toxa": "0.1",
            "idxa": str(i),
            "sourceb": "GPT-2" if i % 2 else "DExperts",
            "sentb": "y",
            "toxb": "0.2",
            "idxb": str(i + 100),
        }
        for i in range(n)
    ]
    if n > 31:
        rows[31]["toxb"] = ""  # uid 32 has a missing field
    pd.DataFrame(rows).to_csv(path, index=False)
    return str(path)


def write_forms(path, answers_by_respondent, columns=39):
    """An MS Forms-like export: 9 metadata columns (header cells with newlines), then 30 questions."""
    header = [
        "ID",
        "Start time",
        "Completion time",
        "Email",
        "Name",
        "Last modified time",
        "Consent\n\nI have read...",
        "Your Prolific ID\n\nWe need this",
        "Instructions\nThank you",
    ]
    header += ["Column"] + [str(q) for q in range(2, 31)]
    header = header[:columns]
    rows = []
    for k, (respondent, answers) in enumerate(answers_by_respondent.items(), 1):
        rows.append([str(k), "t0", "t1", "anonymous", "", "", "True", respondent, ""] + answers)
    pd.DataFrame([r[:columns] for r in rows], columns=header).to_csv(path, index=False, lineterminator="\r\n")
    return str(path)


def test_batch_arithmetic_at_batch_boundaries(tmp_path):
    key = read_item_key(write_key(tmp_path / "key.csv"), ["sourcea"], 30).set_index("uid")
    assert key.loc[30, ["batch", "question"]].tolist() == [1, 30]
    assert key.loc[31, ["batch", "question"]].tolist() == [2, 1]
    assert key.loc[60, ["batch", "question"]].tolist() == [2, 30]
    assert not key.loc[32, "key_complete"] and key.loc[31, "key_complete"]


def test_nbsp_polluted_answers_are_normalised_and_mapped_to_the_key(tmp_path):
    key = write_key(tmp_path / "key.csv")
    answers = ["A\xa0\xa0", "B\xa0", "C equally fluent", "A\xa0\xa0\xa0\xa0 \xa0 \xa0"] + ["B"] * 26
    forms = write_forms(tmp_path / "b2.csv", {"101": answers, "102": ["A"] * 30, "103": ["B"] * 30})
    judgements, participants = load_forms({"key": key, "batch_2": forms}, "s", "reproduction", **FORMS_PARAMS)
    assert len(judgements) == 90 and len(participants) == 3
    first = judgements[judgements["participant"] == judgements["participant"].iloc[0]].sort_values("question")
    assert first["value"].tolist()[:4] == [1, -1, 0, 1]
    # batch 2 question 1 is key uid 31
    assert first["item"].iloc[0] == "uid0031" and first["batch"].iloc[0] == 2
    assert first["system"].iloc[0] == "GPT-2" and first["system_b"].iloc[0] == "DExperts"  # uid 31: row 30 (even)
    assert "101" not in set(judgements["participant"])


def test_further_export_of_the_same_batch_loads_without_code_change(tmp_path):
    key = write_key(tmp_path / "key.csv")
    first = write_forms(tmp_path / "b1.csv", {"1": ["A"] * 30, "2": ["B"] * 30, "3": ["A"] * 30})
    more = write_forms(tmp_path / "b1_more.csv", {str(r): ["B"] * 30 for r in range(4, 21)})
    judgements, participants = load_forms(
        {"key": key, "batch_1": first, "batch_1_20raters": more}, "s", "reproduction", **FORMS_PARAMS
    )
    assert len(participants) == 20 and judgements.groupby("item").size().eq(20).all()


def test_wrong_column_count_names_the_file(tmp_path):
    key = write_key(tmp_path / "key.csv")
    bad = write_forms(tmp_path / "b3_short.csv", {"1": ["A"] * 29}, columns=38)
    with pytest.raises(HumevalError) as info:
        load_forms({"key": key, "batch_3": bad}, "s", "reproduction", **FORMS_PARAMS)
    assert "b3_short.csv" in str(info.value) and "38 columns, expected 39" in str(info.value)


def test_unknown_answer_names_the_file(tmp_path):
    key = write_key(tmp_path / "key.csv")
    bad = write_forms(tmp_path / "b1.csv", {"1": ["D"] + ["A"] * 29})
    with pytest.raises(HumevalError, match="'D' is not one of"):
        load_forms({"key": key, "batch_1": bad}, "s", "reproduction", **FORMS_PARAMS)


def test_amt_results_join_on_ids_not_text(tmp_path):
    key_path = write_key(tmp_path / "key.csv", n=2)
    key = pd.read_csv(key_path, dtype=str, keep_default_na=False)
    records = []
    for _, item in key.iterrows():
        for k, answer in enumerate("abc"):
            record = {f"Input.{f}": item[f] for f in ["prompt_id", "sourcea", "idxa", "sourceb", "idxb"]}
            record.update(
                {"Input.senta": " leading space lost", "AssignmentId": f"AS{item['idxa']}{k}", "Answer.qFluent": answer}
            )
            records.append(record)
    results = tmp_path / "amt.csv"
    pd.DataFrame(records).to_csv(results)
    judgements, participants = load_amt({"results": str(results), "key": key_path}, "s", "original", **AMT_PARAMS)
    assert judgements.groupby("item")["value"].apply(list).to_dict() == {"uid0001": [1, -1, 0], "uid0002": [1, -1, 0]}
    assert len(participants) == 6


def write_amt_record(path: Path, prompt: str, a: tuple[str, str], b: tuple[str, str], **answers) -> str:
    """An AMT results file of one assignment ``A``: prompt, system a and its output index, system b and its index,
    and the ``Answer.*`` columns given."""
    record = {"Input.prompt_id": prompt, "Input.sourcea": a[0], "Input.idxa": a[1], "Input.sourceb": b[0]}
    pd.DataFrame([{**record, "Input.idxb": b[1], "AssignmentId": "A", **answers}]).to_csv(path)
    return str(path)


def test_amt_item_missing_from_key_is_an_error(tmp_path):
    key_path = write_key(tmp_path / "key.csv", n=1)
    results = write_amt_record(tmp_path / "amt.csv", "9", ("x", "1"), ("y", "2"), **{"Answer.qFluent": "a"})
    with pytest.raises(HumevalError, match="record 1: item .* is not in the item key"):
        load_amt({"results": str(results), "key": key_path}, "s", "original", **AMT_PARAMS)
