"""The front page's tallies (humeval.report.front_page), on frames small enough to count by hand: which findings
are counted as held in which reproduction, the numbers matched, the QRA3 headline, and the misses listed with
their power. These are what a reader sees first; each expected string below is worked out from the frames."""

import pandas as pd

from humeval.report.front_page import (
    NONE_STATED,
    console_summary,
    misses_with_power,
    numbers_reproduced,
    overview_rst,
    verdict_frame,
    verdict_rows,
)

NAN = float("nan")

#: Study a: F1 holds in O, R1, not in R2; F2 holds in O, not in R1, is not measured in R2; F3 does not hold in O (so
#: it counts nowhere); F4's original is known only from its design ("not measured"), and holds in R1; F5 holds in O
#: and not in R1. Study b states no findings.
FOUND = pd.DataFrame(
    [
        ("a-2020-x", "F1", "O", "yes", NAN, NAN),
        ("a-2020-x", "F1", "R1", "yes", 0.91, NAN),
        ("a-2020-x", "F1", "R2", "no", 0.52, 0.3),
        ("a-2020-x", "F2", "O", "yes", NAN, NAN),
        ("a-2020-x", "F2", "R1", "no", NAN, NAN),
        ("a-2020-x", "F2", "R2", "not measured", NAN, NAN),
        ("a-2020-x", "F3", "O", "no", NAN, NAN),
        ("a-2020-x", "F3", "R1", "no", 0.4, NAN),
        ("a-2020-x", "F4", "O", "not measured", NAN, NAN),
        ("a-2020-x", "F4", "R1", "yes", 0.8, NAN),
        ("a-2020-x", "F5", "O", "yes", NAN, NAN),
        ("a-2020-x", "F5", "R1", "no", NAN, 0.01),
    ],
    columns=["study", "finding", "experiment", "holds", "power", "difference_p"],
)
COUNTS = pd.DataFrame(
    [
        # 30 match, 4 of them computed from printed numbers alone; 2 differ, 1 undiagnosed
        ("a-2020-x", 30, 2, 4, 0, 1, 5, 3, 1),
        ("b-2021-y", 3, 0, 0, 0, 0, 0, 0, 0),
    ],
    columns=[
        "study",
        "match",
        "mismatch",
        "match_printed",
        "mismatch_printed",
        "mismatch_undiagnosed",
        "no_raw_data",
        "no_measure",
        "reason_not_stated",
    ],
)
QRA3 = pd.DataFrame(
    [
        ("a-2020-x", "study", "O, R1", 5.25),
        ("a-2020-x", "study", "O, R1, R2", 7.06),
        ("a-2020-x", "study", "O, R1, R2", NAN),
        ("a-2020-x", "system", "O, R1, R2, R3", 1.0),  # not the study level
        ("b-2021-y", "study", "O, R1, R2, R3", 2.0),  # another study's
    ],
    columns=["study", "level", "experiments", "cv_star"],
)


def test_the_verdict_counts_each_reproduction_of_the_findings_the_original_states():
    a, b = verdict_rows(COUNTS, FOUND, QRA3, {})
    # R1: F1 yes, F2 no, F4 yes (an original known from its design), F5 no; F3 left out (O does not hold);
    # R2: F1 no; F2 not measured there, left out
    assert a["findings"] == "2 of 4 (R1); 0 of 1 (R2)"
    assert a["numbers"] == "26 of 28 (and 4 of 4 from printed numbers)"
    assert a["mismatches"] == "2 differ: 1 diagnosed, 1 undiagnosed"
    assert (a["no_raw_data"], a["no_measure"]) == ("5", "3 (and 1 unstated)")
    assert a["qra3"] == "7.1 (O,R1,R2); none (O,R1,R2)"  # the widest comparisons, every one of them
    assert b == {
        "study": "b-2021-y",
        "findings": NONE_STATED,
        "numbers": "3 of 3",
        "mismatches": "",
        "no_raw_data": "0",
        "no_measure": "0",
        "qra3": "2.0 (O,R1,R2,R3)",
    }


def test_a_study_without_a_qra3_table_reads_none():
    (row,) = verdict_rows(COUNTS.iloc[:1], FOUND, QRA3.iloc[3:4], {})
    assert row["qra3"] == "none"


def test_the_misses_are_those_of_findings_the_original_states_each_with_its_power():
    # F1 in R2 (power 0.52, its effect consistent with O's: p 0.3); in R1 F2 (no power) and F5 (no power, its
    # effect unlike O's: p 0.01); F3 in R1 is no miss (O does not hold)
    assert misses_with_power(FOUND) == (
        "a-2020 R2: F1 0.52 (effect consistent with the original, p 0.3); "
        "a-2020 R1: F2 n/a, F5 n/a (effect unlike the original, p 0.01)"
    )
    # the same power for every miss of a reproduction is written once
    same = FOUND[FOUND["finding"] != "F5"]
    assert misses_with_power(same) == (
        "a-2020 R2: F1 0.52 (effect consistent with the original, p 0.3); a-2020 R1: F2 n/a"
    )
    both = pd.concat([FOUND, FOUND.assign(finding=FOUND["finding"] + "b")], ignore_index=True)
    both = both[both["finding"].isin(["F2", "F2b"])]
    assert misses_with_power(both) == "a-2020 R1: F2, F2b n/a"
    assert misses_with_power(FOUND[FOUND["holds"] != "no"]) == ""
    # a difference exactly at 0.05 is not "unlike"
    edge = FOUND[FOUND["finding"] == "F1"].assign(difference_p=[NAN, NAN, 0.05])
    assert misses_with_power(edge) == "a-2020 R2: F1 0.52 (effect consistent with the original, p 0.05)"


def test_numbers_recomputed_from_judgements_are_told_from_those_computed_from_printed_numbers():
    record = {"match": 6, "mismatch": 3, "match_printed": 4, "mismatch_printed": 1}
    # from judgements: 6 - 4 match and 3 - 1 differ, 2 of 4; from printed numbers: 4 of 4 + 1
    assert numbers_reproduced(record) == "2 of 4 (and 4 of 5 from printed numbers)"
    assert (
        numbers_reproduced({**record, "match": 4, "mismatch": 1})
        == "none from judgements (4 of 5 from printed numbers)"
    )


def test_reproductions_are_listed_in_the_study_files_order_not_sorted():
    # ten reproductions: R2 before R10, as the study file lists them (sorted as text, R10 would come first)
    rows = [("c-2022-z", "G", e, h, NAN, NAN) for e, h in [("O", "yes"), ("R2", "yes"), ("R10", "no")]]
    found = pd.DataFrame(rows, columns=FOUND.columns)
    counts = COUNTS.iloc[1:].assign(study="c-2022-z")
    (row,) = verdict_rows(counts, found, QRA3.iloc[:0], {})
    assert row["findings"] == "1 of 1 (R2); 0 of 1 (R10)"


def test_the_front_page_lists_every_study_with_a_link_to_its_card_and_no_raw_text():
    verdicts = verdict_rows(COUNTS, FOUND, QRA3, {})
    conditions = pd.DataFrame(
        {
            "table": "conditions",
            "status": "condition",
            "row": ["Platform", "Platform", "Pay", "Pay"],
            "column": ["O", "R1", "O", "R1"],
            "note": ["MTurk", "Prolific", "fair", "Fair "],
        }
    )
    raw = {"a-2020-x": ["x.csv", "y.csv"], "b-2021-y": ["z.csv"]}
    page = overview_rst(verdicts, {"a-2020-x": conditions}, raw, misses="a-2020 R2: F1 0.52 <b>")
    lines = page.splitlines()
    table = lines[lines.index(".. list-table::") :]
    assert table[:10] == [
        ".. list-table::",
        "   :header-rows: 1",
        "",
        "   * - study",
        "     - findings hold",
        "     - numbers match",
        "     - no data / no measure",
        "     - QRA3 CV*",
        "   * - `a-2020 <card-a-2020-x_>`_",
        "     - 2 of 4 (R1); 0 of 1 (R2)",
    ]
    assert "   * - `b-2021 <card-b-2021-y_>`_" in lines
    assert any(line.endswith("a-2020 R2: F1 0.52 ?b?.") for line in lines)  # the misses, through rst_text
    # 3 raw files; conditions: Platform differs, Pay only in case and space (by count, no names on the page)
    assert any(line.startswith("3 raw files verified by sha256") for line in lines)
    assert page.count("Conditions differing from O's: a-2020 R1: 1 of 2.") == 1
    assert ".. _card-a-2020-x: javascript:app.setView(" in page and ".. _open-summary-run: javascript:" in page
    without = overview_rst(verdicts, {}, raw)
    assert "Not recovered" not in without and "Conditions differing from O's: none stated." in without


def test_the_verdict_table_gives_each_study_its_own_misses_and_the_console_reads_it_back(tmp_path):
    frame = verdict_frame(verdict_rows(COUNTS, FOUND, QRA3, {}), FOUND)
    assert list(frame["study"]) == ["a-2020-x", "b-2021-y"]
    assert frame["not_recovered"].tolist() == [misses_with_power(FOUND), ""]  # b has no findings, so no misses
    assert console_summary(str(tmp_path / "verdict.csv")) == []  # no run wrote the summary: nothing to say
    frame.to_csv(tmp_path / "verdict.csv", index=False)
    assert console_summary(str(tmp_path / "verdict.csv"))[1:] == [
        (
            "a-2020-x: findings 2 of 4 (R1); 0 of 1 (R2) hold; 26 of 28 (and 4 of 4 from printed numbers) published "
            "numbers match, 2 differ: 1 diagnosed, 1 undiagnosed; results/a-2020-x/"
        ),
        "b-2021-y: no findings stated; 3 of 3 published numbers match; results/b-2021-y/",
    ]
