"""The qra job's whole path on a study small enough to check by hand (:func:`humeval.qra.qra_study`): the Type I
entries and a QRA3 table with item labels, each cell's basis, the published cells a QRA3 input was taken from, and
the QRA3 tool's files (:func:`humeval.qra.write_qra3_exports`)."""

import json

import pandas as pd
import pytest

from humeval.intermediate import JUDGEMENTS, PRINTED, VALUE_COLUMNS
from humeval.qra import LABEL_COLUMNS, labels_items, qra_study, write_qra3_exports
from humeval.qra.qra3 import type1_measures

CRITERION = {
    "name": "Q",
    "systems": ["a", "b", "c"],
    "score": {"table": "t", "row": "{system}", "column": "{label}"},
}


def study(**criterion_extra) -> dict:
    return {
        "name": "toy",
        "experiments": [{"id": "O", "citation": "Orig 2020"}, {"id": "R1", "label": "Rep", "citation": "Rep 2024"}],
        "qra": [
            {
                "type": "cv_star",
                "table": "cv",
                "measurand_table": "t",
                "rows": ["a"],
                "inputs": [{"column": "O"}, {"column": "Rep"}],
            },
        ],
        "qra3": [
            {
                "table": "q",
                "experiments": ["O", "R1"],
                "scale_starts_at": 1,
                "criteria": [{**CRITERION, **criterion_extra}],
            }
        ],
    }


def frame(rows, columns=VALUE_COLUMNS) -> pd.DataFrame:
    return pd.DataFrame(rows, columns=columns)


#: O's scores recomputed; R1's ("Rep") printed only, for system c.
VALUES = frame(
    [("t", "a", "O", 4.0), ("t", "b", "O", 3.0), ("t", "c", "O", 2.0), ("t", "a", "Rep", 3.0), ("t", "b", "Rep", 3.5)]
)
PUBLISHED = frame([("t", "c", "Rep", 2.5)])


def kept() -> pd.DataFrame:
    """Two raters per item and system in O, one in Rep: O's labels are rounded means 4 (3.5 half up) and 2."""
    rows = [
        ("j1", "O", "Q", "rating", "i1", "a", 3),
        ("j2", "O", "Q", "rating", "i1", "a", 4),
        ("j3", "O", "Q", "rating", "i2", "a", 2),
        ("j4", "O", "Q", "rating", "i2", "a", 2),
        ("j5", "O", "Q", "rating", "i3", "a", 5),
        ("j6", "O", "Q", "rating", "i3", "a", 5),
        ("j7", "Rep", "Q", "rating", "i1", "a", 4),
        ("j8", "Rep", "Q", "rating", "i2", "a", 1),
        ("j9", "Rep", "Q", "rating", "i3", "a", 5),
    ]
    return frame(rows, LABEL_COLUMNS)


def cells_of(cells: pd.DataFrame) -> pd.Series:
    return cells.set_index(["table", "row", "column"])["value"]


def test_type1_and_qra3_cells_with_their_basis_and_origin():
    cells, summary, exports = qra_study(study(), VALUES, PUBLISHED, None)
    assert list(cells.index) == list(range(len(cells)))  # one frame, not two stacked
    value = cells_of(cells)
    # Type I over O 4.0 and Rep 3.0 (cv_star_entry's own example): 28.49
    assert value[("cv", "a", "cv_star")] == pytest.approx(28.4859, abs=1e-4)
    assert summary[["type", "table", "measurand"]].values.tolist() == [["cv_star", "cv", "a"]]
    # QRA3 system c: O 2.0 recomputed, R1 2.5 printed, shifted by 1 -> 1, 1.5
    assert value[("q", "Q|c", "cv_star")] == pytest.approx(type1_measures([2.0, 2.5], 1)["cv_star"])
    assert set(cells["basis"]) == {JUDGEMENTS}  # some scores are recomputed
    origin = cells.set_index(["table", "row", "column"])["origin"]
    assert origin[("q_input", "Q|R1|c", "result")] == "published t/c/Rep"
    assert origin.drop(("q_input", "Q|R1|c", "result")).isna().all()
    export = exports["q"]
    assert export["input"].values.tolist() == [
        ["toy", "toy", "O", "a", "Q", 4.0],
        ["toy", "toy", "O", "b", "Q", 3.0],
        ["toy", "toy", "O", "c", "Q", 2.0],
        ["toy", "toy", "R1", "a", "Q", 3.0],
        ["toy", "toy", "R1", "b", "Q", 3.5],
        ["toy", "toy", "R1", "c", "Q", 2.5],
    ]
    assert export["config"]["toy"]["experiments"] == {"O": "Orig 2020", "R1": "Rep 2024"}
    assert export["notes"] == ["Q: no item-level labels configured, so no Type III"]


def test_a_qra3_table_of_printed_scores_rests_on_printed_numbers_though_the_study_computed_others():
    only_printed = frame([(t, r, c, v + 1) for t, r, c, v in VALUES.itertuples(index=False)])
    only_printed["table"] = "printed_t"
    published = frame([("t", s, col, v) for _, s, col, v in VALUES.itertuples(index=False)] + [("t", "c", "Rep", 2.5)])
    cells, _, _ = qra_study({**study(), "qra": []}, only_printed, published, None)
    assert set(cells["basis"]) == {PRINTED}
    inputs = cells["table"] == "q_input"
    assert inputs.sum() == 6 and cells.loc[inputs, "origin"].notna().all() and cells.loc[~inputs, "origin"].isna().all()


def test_without_qra3_inputs_from_published_numbers_there_is_no_origin_column():
    values = pd.concat([VALUES, frame([("t", "c", "Rep", 2.5)])], ignore_index=True)
    cells, _, _ = qra_study(study(), values, PUBLISHED.iloc[:0], None)
    assert "origin" not in cells and list(cells.index) == list(range(len(cells)))
    assert len(cells) == len(cells.drop_duplicates(["table", "row", "column"]))


def test_type3_labels_items_from_the_kept_judgements():
    labelled = study(item_labels={"criterion": "Q"})
    assert labels_items(labelled) and not labels_items(study()) and not labels_items({"name": "x"})
    cells, _, exports = qra_study(labelled, VALUES, PUBLISHED, kept())
    value = cells_of(cells)
    # labels per item of system a: O 4, 2, 5 (rounded means), Rep 4, 1, 5; ordinal alpha of those two coders
    import krippendorff

    expected = krippendorff.alpha(reliability_data=[[4, 2, 5], [4, 1, 5]], level_of_measurement="ordinal")
    assert value[("q", "Q|all", "alpha")] == pytest.approx(expected)
    assert value[("q_pairwise", "Q|O-R1", "alpha")] == pytest.approx(expected)
    assert exports["q"]["notes"] == []


def test_a_qra3_error_names_the_entry():
    from humeval.errors import HumevalError

    with pytest.raises(HumevalError, match=r"^key qra3\.0: criteria\.0\.item_labels\.criterion 'X'"):
        qra_study(study(item_labels={"criterion": "X"}), VALUES, PUBLISHED, kept())


def test_the_tools_files_are_written_per_table_into_a_new_nested_folder_and_again(tmp_path):
    exports = {
        "q": {"input": frame([("a", 1.0)], ["System", "Result"]), "config": {"k": {"x": 1}}, "notes": ["one", "two"]},
        "r": {"input": frame([], ["System", "Result"]), "config": {}, "notes": []},
    }
    outdir = tmp_path / "qra3" / "study"
    for _ in range(2):  # a rerun writes over its own files
        write_qra3_exports(exports, outdir)
    assert sorted(p.name for p in outdir.iterdir()) == ["q", "r"]
    assert (outdir / "q" / "qra3_input.csv").read_text() == "System,Result\na,1.0\n"
    assert (outdir / "q" / "qra3_config.json").read_text() == '{\n  "k": {\n    "x": 1\n  }\n}\n'
    assert json.loads((outdir / "r" / "qra3_config.json").read_text()) == {}
    assert (outdir / "q" / "notes.txt").read_text() == "one\ntwo\n"
    assert (outdir / "r" / "notes.txt").read_text() == ""
