"""Bad input across every loader: one HumevalError naming the file (and row, column or key)."""

import json
from pathlib import Path

import pandas as pd
import pytest
from helpers import FIXTURES, REPO
from test_loader_abc_eval_json import GROUPS, evaluation
from test_loader_pairwise_batches import AMT_PARAMS, FORMS_PARAMS, write_amt_record, write_forms, write_key
from test_loader_prolific_webapp_sqlite import make_database, make_items
from test_rating_designs import PARAMS as QUALTRICS_PARAMS

from humeval.config.registry import function
from humeval.config.studyfile import read_yaml
from humeval.errors import HumevalError

SHARDLOW = read_yaml(REPO / "config/studies/shardlow-2019-clinical-simplification.yaml")["extract"][0]["params"]
REPORT = FIXTURES / "figure_eight_3_judgements.csv"
QUALTRICS = FIXTURES / "qualtrics_2_participants.csv"


def fails(loader, inputs, params, *expected):
    with pytest.raises(HumevalError) as info:
        function("loader", loader)(inputs, "s", "original", **params)
    for text in expected:
        assert text in str(info.value), str(info.value)


def truncated(path, tmp_path, fraction=0.5):
    data = Path(path).read_bytes()
    out = tmp_path / f"truncated_{path.name}"
    out.write_bytes(data[: int(len(data) * fraction)])
    return out


def latin1(path, tmp_path):
    out = tmp_path / f"latin1_{path.name}"
    out.write_bytes(Path(path).read_text(encoding="utf-8").replace("e", "é").encode("latin-1"))
    return out


def empty(tmp_path, name="empty.csv"):
    out = tmp_path / name
    out.write_bytes(b"")
    return out


# --- Figure Eight -----------------------------------------------------------------------------------
def test_figure_eight_truncated_inside_a_quoted_cell(tmp_path):
    text = REPORT.read_text()
    cut = tmp_path / "cut.csv"
    cut.write_text(text[: text.index('"1\n2"') + 3])  # ends inside a quoted multi-line gold cell
    fails("figure_eight_ranking", {"report": str(cut)}, SHARDLOW, "cut.csv")


def test_figure_eight_wrong_encoding(tmp_path):
    fails("figure_eight_ranking", {"report": str(latin1(REPORT, tmp_path))}, SHARDLOW, "latin1_", "UTF-8")


def test_figure_eight_empty_export(tmp_path):
    fails("figure_eight_ranking", {"report": str(empty(tmp_path))}, SHARDLOW, "empty.csv")


def test_figure_eight_rank_5(tmp_path):
    frame = pd.read_csv(REPORT, dtype=str, keep_default_na=False)
    frame.loc[0, "which_is_the_easiest_to_understand_statement"] = "5"
    bad = tmp_path / "rank5.csv"
    frame.to_csv(bad, index=False)
    fails(
        "figure_eight_ranking",
        {"report": str(bad)},
        SHARDLOW,
        "rank5.csv",
        "record 1",
        "which_is_the_easiest_to_understand_statement",
        "'5'",
    )


def test_figure_eight_duplicated_judgement(tmp_path):
    frame = pd.read_csv(REPORT, dtype=str, keep_default_na=False)
    bad = tmp_path / "dup.csv"
    pd.concat([frame, frame.head(1)]).to_csv(bad, index=False)
    from humeval.loaders import extract_study

    study = {
        "name": "s",
        "raw": [{"id": "report"}],
        "extract": [
            {"side": "original", "loader": "figure_eight_ranking", "inputs": {"report": "report"}, "params": SHARDLOW}
        ],
    }
    with pytest.raises(HumevalError, match="J7001.*twice"):
        extract_study(study, {"report": str(bad)})


# --- Prolific web-app SQLite -----------------------------------------------------------------------------
def test_prolific_database_without_results(tmp_path):
    db = tmp_path / "empty.db"
    make_database(db, {})
    items = tmp_path / "items.csv"
    make_items(items, [[("vae", "hrq"), ("lbow", "hrq")]])
    fails(
        "prolific_webapp_sqlite",
        {"database": str(db), "items": str(items)},
        {"positions": 2},
        "empty.db",
        "no response",
    )


def test_prolific_item_file_empty(tmp_path):
    db = tmp_path / "db.db"
    make_database(db, {1: [["A", "B"]]})
    fails("prolific_webapp_sqlite", {"database": str(db), "items": str(empty(tmp_path))}, {"positions": 2}, "empty.csv")


def test_prolific_not_a_database(tmp_path):
    items = tmp_path / "items.csv"
    make_items(items, [[("vae", "hrq"), ("lbow", "hrq")]])
    fails(
        "prolific_webapp_sqlite", {"database": str(items), "items": str(items)}, {"positions": 2}, "items.csv", "SQLite"
    )


# --- AMT batch -------------------------------------------------------------------------------------------------
def test_amt_results_missing_answer_column(tmp_path):
    key = write_key(tmp_path / "key.csv", n=1)
    results = write_amt_record(tmp_path / "amt.csv", "1000", ("GPT-2", "0"), ("DExperts", "100"))
    fails("amt_pairwise_batch", {"results": str(results), "key": key}, AMT_PARAMS, "amt.csv", "Answer.qFluent")


def test_amt_results_empty(tmp_path):
    key = write_key(tmp_path / "key.csv", n=1)
    fails("amt_pairwise_batch", {"results": str(empty(tmp_path)), "key": key}, AMT_PARAMS, "empty.csv")


# --- MS Forms ------------------------------------------------------------------------------------------------------
def test_ms_forms_duplicated_participant(tmp_path):
    key = write_key(tmp_path / "key.csv")
    forms = write_forms(tmp_path / "b1.csv", {"7": ["A"] * 30})
    text = Path(forms).read_text(encoding="utf-8")
    dup = tmp_path / "b1dup.csv"
    dup.write_text(text + text.splitlines()[-1] + "\r\n", encoding="utf-8")
    fails("ms_forms_batches", {"key": key, "batch_1": str(dup)}, FORMS_PARAMS, "b1dup.csv", "appears twice")


def test_ms_forms_wrong_encoding(tmp_path):
    key = write_key(tmp_path / "key.csv")
    write_forms(tmp_path / "b1.csv", {"7": ["C equally fluent"] * 30})
    fails(
        "ms_forms_batches",
        {"key": key, "batch_1": str(latin1(tmp_path / "b1.csv", tmp_path))},
        FORMS_PARAMS,
        "latin1_b1.csv",
    )


def test_ms_forms_empty_export(tmp_path):
    key = write_key(tmp_path / "key.csv")
    fails("ms_forms_batches", {"key": key, "batch_1": str(empty(tmp_path))}, FORMS_PARAMS, "empty.csv")


def test_ms_forms_batch_beyond_the_key(tmp_path):
    key = write_key(tmp_path / "key.csv", n=30)
    forms = write_forms(tmp_path / "b2.csv", {"7": ["A"] * 30})
    fails("ms_forms_batches", {"key": key, "batch_2": forms}, FORMS_PARAMS, "b2.csv", "batch 2 has no rows")


# --- ABC-Eval JSON ---------------------------------------------------------------------------------------------------
def abc_files(tmp_path):
    likert = {
        "student_external_likert": evaluation(likert=[("d1", "emora", [("u1", "quality", "4")])], workers={"u1": "w1"})
    }
    comparative = {
        "student_external_comparative": evaluation(
            comparative=[(("d1", "emora"), ("d2", "blender2_3B"), "u2", "quality", 1)], workers={"u2": "w2"}
        )
    }
    paths = {}
    for name, document in (("likert", likert), ("comparative", comparative)):
        paths[name] = tmp_path / f"{name}.json"
        paths[name].write_text(json.dumps(document))
    return paths


def utf16(path, tmp_path):
    out = tmp_path / "utf16.json"
    out.write_bytes(path.read_text().encode("utf-16"))
    return out


@pytest.mark.parametrize(
    "damage, name, expected", [(truncated, "truncated_likert.json", "JSON"), (utf16, "utf16.json", "UTF-8")]
)
def test_abc_eval_damaged_likert_file(tmp_path, damage, name, expected):
    paths = abc_files(tmp_path)
    damaged = damage(paths["likert"], tmp_path)
    fails(
        "abc_eval_json",
        {"likert": str(damaged), "comparative": str(paths["comparative"])},
        {"groups": GROUPS},
        name,
        expected,
    )


def test_abc_eval_missing_key(tmp_path):
    paths = abc_files(tmp_path)
    document = json.loads(paths["comparative"].read_text())
    del document["student_external_comparative"]["dialogues"]["d1"]["comparative_annotations"]["quality"][0][
        "dialogue_compared_to_id"
    ]
    bad = tmp_path / "nobot.json"
    bad.write_text(json.dumps(document))
    fails(
        "abc_eval_json",
        {"likert": str(paths["likert"]), "comparative": str(bad)},
        {"groups": GROUPS},
        "nobot.json",
        "dialogue_compared_to_id",
    )


# --- Qualtrics ---------------------------------------------------------------------------------------------------------
def test_qualtrics_truncated_export(tmp_path):
    text = QUALTRICS.read_text(encoding="utf-8")
    cut = tmp_path / "cut.csv"
    cut.write_text(text[: text.index("R_fakeA")], encoding="utf-8")
    fails("qualtrics_survey", {"survey": str(cut)}, QUALTRICS_PARAMS, "cut.csv")


def test_qualtrics_headers_only(tmp_path):
    lines = QUALTRICS.read_text(encoding="utf-8").split("\r\n")
    import csv
    import io

    rows = list(csv.reader(io.StringIO(QUALTRICS.read_text(encoding="utf-8"))))
    header = tmp_path / "header.csv"
    with open(header, "w", newline="", encoding="utf-8") as handle:
        csv.writer(handle).writerows(rows[:3])
    assert lines
    fails("qualtrics_survey", {"survey": str(header)}, QUALTRICS_PARAMS, "header.csv", "no response")


def test_qualtrics_duplicated_participant(tmp_path):
    import csv
    import io

    rows = list(csv.reader(io.StringIO(QUALTRICS.read_text(encoding="utf-8"))))
    dup = tmp_path / "dup.csv"
    with open(dup, "w", newline="", encoding="utf-8") as handle:
        csv.writer(handle).writerows(rows + [rows[3]])
    fails("qualtrics_survey", {"survey": str(dup)}, QUALTRICS_PARAMS, "dup.csv", "appears twice")


def test_qualtrics_wrong_encoding(tmp_path):
    fails("qualtrics_survey", {"survey": str(latin1(QUALTRICS, tmp_path))}, QUALTRICS_PARAMS, "latin1_")


# --- Workbooks ---------------------------------------------------------------------------------------------------------
def workbook(tmp_path, sheets: dict) -> str:
    path = tmp_path / "book.xlsx"
    with pd.ExcelWriter(path) as writer:
        for name, frame in sheets.items():
            frame.to_excel(writer, sheet_name=name, index=False, header=name != "original_data")
    return str(path)


def test_workbook_truncated(tmp_path):
    path = workbook(tmp_path, {"read_rank_all": pd.DataFrame({"Ground Truth": [1.0] * 6})})
    cut = truncated(tmp_path / "book.xlsx", tmp_path)
    fails(
        "auto_score_workbook",
        {"workbook": str(cut)},
        {"condition": "X", "contexts": 2, "responses": 3, "sheets": {"readability": "read_rank_all"}},
        "truncated_book.xlsx",
        "cannot read the workbook",
    )
    assert path


def test_auto_scores_missing_sheet_and_column(tmp_path):
    path = workbook(tmp_path, {"read_rank_all": pd.DataFrame({"Score": [1.0] * 6})})
    params = {"condition": "X", "contexts": 2, "responses": 3, "sheets": {"readability": "read_rank_all"}}
    fails("auto_score_workbook", {"workbook": path}, params, "book.xlsx", "no column 'Ground Truth'")
    fails(
        "auto_score_workbook",
        {"workbook": path},
        {**params, "sheets": {"coherence": "cohe_rank_all"}},
        "book.xlsx",
        "no sheet 'cohe_rank_all'",
    )


def test_surveygizmo_out_of_range_rating(tmp_path):
    header = [f"m{k}" for k in range(18)] + [
        "Please enter readability",
        "Please enter coherence",
        "q1",
        "q2",
        "Confirmation Code",
        "Time Spent",
        "Time Minutes",
    ]
    rows = [header, [""] * 18 + ["3", "9", "No", "Yes", "", "0.01", "20"]]
    path = workbook(tmp_path, {"original_data": pd.DataFrame(rows)})
    params = {
        "condition": "Likert",
        "design": "likert",
        "contexts": 1,
        "responses": 1,
        "layout": "alternate",
        "scale": [1, 6],
    }
    fails("surveygizmo_workbook", {"workbook": path}, params, "book.xlsx", "column 19", "outside 1..6")


#: The tabular loader reading one rating, ``score``, of system A per row.
SCORE_OF_A = {"participant": "rater", "item": ["item"], "system": {"value": "A"}, "criteria": {"quality": "score"}}


def test_a_json_key_given_twice_is_refused_naming_it(tmp_path):
    """Python's JSON parser keeps the last of two values of one key silently: one rating would vanish."""
    export = tmp_path / "ratings.jsonl"
    export.write_text('{"rater": "r1", "item": "i1", "score": "4", "score": "5"}\n')
    fails("tabular", {"ratings": str(export)}, SCORE_OF_A, "ratings.jsonl", "line 1: the key 'score' appears twice")
    paths = abc_files(tmp_path)
    text = paths["likert"].read_text()
    paths["likert"].write_text(text[:-1] + ', "student_external_likert": {}}')  # the top key once more
    fails(
        "abc_eval_json",
        {"likert": str(paths["likert"]), "comparative": str(paths["comparative"])},
        {"groups": GROUPS},
        "appears twice in one object",
    )


def test_a_datasheet_with_a_key_given_twice_is_a_warning_not_a_guess(tmp_path):
    from humeval.heds import read_datasheet

    sheet = tmp_path / "heds.json"
    sheet.write_text('{"heds-1": "a", "heds-1": "b"}')
    conditions, warnings = read_datasheet(str(sheet))
    assert conditions == {} and "the key 'heds-1' appears twice" in warnings[0]


def test_a_separator_is_a_literal_never_a_backtracking_regex(tmp_path):
    """pandas reads a separator of several characters as a Python regex: '(a+)+$' against a row of a's hangs. It
    is a literal now: a file separated by '||' reads, and the regex-looking separator splits nothing."""
    from humeval.loaders.tabular_read import read_table

    export = tmp_path / "ratings.csv"
    export.write_text("rater||item||score\nr1||i1||4\n")
    assert read_table(str(export), {"sep": "||"}).to_dict("records") == [{"rater": "r1", "item": "i1", "score": "4"}]
    hostile = tmp_path / "hostile.csv"
    hostile.write_text("x\n" + "a" * 5000 + "!\n")
    assert read_table(str(hostile), {"sep": "(a+)+$"}).shape == (1, 1)


def test_a_lone_surrogate_in_an_export_is_one_line_naming_the_column_and_row(tmp_path):
    """A JSON lines export may escape half a surrogate pair ("\\ud800"): the item id could not be written as UTF-8
    and the job ended in a traceback."""
    from humeval.loaders import extract_study

    export = tmp_path / "ratings.jsonl"
    export.write_text(
        '{"rater": "r1", "item": "i1", "score": "4"}\n{"rater": "r2", "item": "i\\ud800", "score": "5"}\n'
    )
    study = {
        "name": "s",
        "raw": [{"id": "ratings"}],
        "extract": [
            {
                "side": "O",
                "loader": "tabular",
                "inputs": {"ratings": "ratings"},
                "params": SCORE_OF_A,
            }
        ],
    }
    with pytest.raises(HumevalError, match=r"column 'item' row 1: text that is not valid Unicode"):
        extract_study(study, {"ratings": str(export)})


def test_a_repeated_header_is_read_as_pandas_names_it_and_only_an_ambiguous_reference_refused(tmp_path):
    """pandas renames a repeated header x.1, so a config naming x read the first of two columns silently; a Google
    Form asks one question under one header 12 times, read as x, x.1, ... (docs/adding-a-study.md, issue 51)."""
    export = tmp_path / "ratings.csv"
    export.write_text("rater,item,score,score\nr1,i1,4,5\n")
    fails(
        "tabular",
        {"ratings": str(export)},
        SCORE_OF_A,
        "ratings.csv",
        "criterion quality: the header 'score' appears 2 times, which pandas names 'score' and 'score.1': name the one",
    )
    ratings = {"ratings": str(export)}
    second = function("loader", "tabular")(ratings, "s", "original", **{**SCORE_OF_A, "criteria": {"q": "score.1"}})
    assert second[0]["value"].tolist() == [5]  # named as pandas names it
    melt = {"participant": "rater", "item": ["item"], "system": {"value": "A"}, "shape": "melt", "criterion": "q"}
    both = function("loader", "tabular")(
        ratings, "s", "original", **{**melt, "columns": r"^(?P<criterion>score(\.\d+)?)$"}
    )
    assert both[0][["criterion", "value"]].values.tolist() == [["score", 4], ["score.1", 5]]  # every repeat read
    fails("tabular", ratings, {**melt, "columns": "^score$"}, "columns pattern: the header 'score' appears 2 times")
    export.write_text("rater,item,score,score,score.1\nr1,i1,4,5,6\n")  # pandas would number past score.1
    fails("tabular", ratings, SCORE_OF_A, "'score' appears 2 times and 'score.1' is a header of its own")
    key = tmp_path / "key.csv"
    key.write_text("item,system,system\ni1,A,B\n")
    from humeval.loaders.pairwise_item_key import read_item_key

    with pytest.raises(HumevalError, match="the column header 'system' appears 2 times"):
        read_item_key(str(key), ["item", "system"], batch_size=10)


def test_a_system_code_the_map_lacks_is_one_line_naming_row_column_and_code(tmp_path):
    export = tmp_path / "ratings.csv"
    export.write_text("rater,item,model,score\nr1,i1,m1,4\nr1,i2,m9,5\n")
    params = {**SCORE_OF_A, "system": {"column": "model", "map": {"m1": "A"}}}
    fails(
        "tabular", {"ratings": str(export)}, params, "ratings.csv: row ratings:3, column 'model': system 'm9' is not in"
    )
