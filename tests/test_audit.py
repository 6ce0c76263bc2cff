import pandas as pd
import pytest
from planning_cases import comparison_finding

from humeval.audit import AUDIT_COLUMNS, UNDIAGNOSED, UNRECOMPUTED, audit_study, build_audit, status_of
from humeval.errors import HumevalError
from humeval.published import published_frame
from humeval.rounding import parse_published


def test_parse_published_keeps_precision_and_marker():
    assert parse_published("-17.89") == (-17.89, 2, "")
    assert parse_published("0.95*") == (0.95, 2, "*")
    assert parse_published("5.1e-05") == (5.1e-05, 6, "")
    assert parse_published("0.00") == (0.0, 2, "")  # a printed zero is a number
    for below in ("1e-400", "-0.1e-399"):  # no double holds it, and 0.0 would match a recomputed zero
        with pytest.raises(HumevalError, match="below the smallest number a double holds"):
            parse_published(below)
    with pytest.raises(HumevalError):
        parse_published("n/a")


def test_status_tolerance_is_half_a_unit_of_the_last_printed_decimal():
    assert status_of(3.555, 3.56, 2) == "match"  # |diff| = 0.005
    assert status_of(3.5549, 3.56, 2) == "mismatch"
    assert status_of(float("nan"), 6.0, 0) == "published_only"
    assert status_of(1.0, float("nan"), 0) == "recomputed_only"


TABLES = [{"id": "t", "rows": ["a", "b"], "columns": ["orig", "repro"], "precision": {"repro": 1}}]


def test_build_audit_statuses_notes_and_order():
    numbers = pd.DataFrame({"table": "t", "row": ["b", "a"], "column": "repro", "value": [2.04, 1.0]})
    published = published_frame(
        [
            {"table": "t", "source": "paper", "note": "no raw data", "cells": {"a": {"orig": "3"}}},
            {"table": "t", "source": "paper", "cells": {"b": {"repro": "2.1"}}},
        ]
    )
    audit = build_audit(numbers, published, TABLES)
    assert audit[["row", "column", "status"]].values.tolist() == [
        ["a", "orig", "published_only"],
        ["a", "repro", "recomputed_only"],
        ["b", "repro", "mismatch"],
    ]
    assert audit["note"].tolist() == ["no raw data", "", UNDIAGNOSED]
    assert audit["precision"].tolist() == [0, 1, 1]
    assert audit.columns.tolist() == AUDIT_COLUMNS  # numbers.csv's columns, no index column
    unset = build_audit(numbers.assign(column="orig"), published_frame([]), [{**TABLES[0], "precision": {}}])
    assert unset["precision"].tolist() == [3, 3]  # no precision declared: three decimals


def test_build_audit_rejects_a_cell_outside_the_table():
    numbers = pd.DataFrame({"table": "t", "row": ["typo"], "column": "repro", "value": [1.0]})
    with pytest.raises(HumevalError, match="typo"):
        build_audit(numbers, published_frame([]), TABLES)


def test_a_qra3_input_taken_from_a_published_number_is_a_published_input_not_recomputed():
    numbers = pd.DataFrame(
        {
            "table": "t",
            "row": ["a", "b"],
            "column": "repro",
            "value": [36.0, 2.0],
            "origin": ["published preference/VAE/original", None],
        }
    )
    empty = pd.DataFrame(columns=["table", "row", "column", "value", "precision", "note"])
    audit = build_audit(numbers, empty, TABLES).set_index("row")
    assert audit.loc["a", "status"] == "published_input"
    assert audit.loc["a", "note"] == "input taken from the published preference/VAE/original"
    assert audit.loc["b", "status"] == "recomputed_only" and audit.loc["b", "note"] == ""


def test_the_claims_summary_reads_yes_and_no():
    from humeval.summary import claims_summary

    audit = pd.DataFrame(
        {
            "table": "claims",
            "row": ["K1", "K1", "K1", "K1.1", "K1.1", "K1.1", "K1.1"],
            "column": [
                "original",
                "reproduction",
                "replicated",
                "original_left",
                "original_right",
                "reproduction_left",
                "reproduction_right",
            ],
            "value": [1.0, 0.0, 0.0, 0.5, 0.4, 0.3, 0.35],
        }
    )
    study = {
        "experiments": [{"id": "O"}, {"id": "R1"}],
        "qra": [{"type": "claims", "table": "claims", "claims": [{"id": "K1", "text": "A beats B"}]}],
    }
    row = claims_summary({"s": audit}, {"s": study}).iloc[0]
    assert (row["original_holds"], row["reproduction_holds"], row["replicated"]) == ("yes", "no", "no")
    assert row["experiment"] == "R1" and row["evidence"] == "original: 0.5 vs 0.4; reproduction: 0.3 vs 0.35;"


def test_a_claim_stated_once_is_judged_in_every_experiment_it_names():
    """Two reproductions of an original known only from its design: each gets its own verdict and row; O is not
    measured (it has no numbers) and R3, which lacks the cells, is not measured either."""
    from humeval.qra.claims import claims_entry
    from humeval.summary import claims_summary

    values = pd.DataFrame(
        {"table": "scores", "row": ["R1|A", "R1|B", "R2|A", "R2|B"], "column": "mean", "value": [3.0, 2.0, 2.5, 2.7]}
    )
    claim = comparison_finding("K1", "A beats B", ("scores", "{side}|A", "mean"), ("scores", "{side}|B", "mean"))
    sides = {"O": "O", "R1": "R1", "R2": "R2", "R3": "R3"}
    cells, _ = claims_entry(values, values.iloc[:0], table="claims", claims=[claim], sides=sides)
    audit = pd.DataFrame(cells, columns=["table", "row", "column", "value"])
    verdicts = audit[audit["row"] == "K1"].set_index("column")["value"].to_dict()
    assert verdicts == {"R1": 1.0, "R2": 0.0}  # 3 > 2 holds; 2.5 > 2.7 does not; O and R3 have no cells
    study = {
        "experiments": [{"id": i} for i in sides],
        "qra": [{"type": "claims", "table": "claims", "sides": sides, "claims": [claim]}],
    }
    rows = claims_summary({"s": audit}, {"s": study})
    assert rows[["experiment", "original_holds", "reproduction_holds"]].values.tolist() == [
        ["R1", "not measured", "yes"],
        ["R2", "not measured", "no"],
        ["R3", "not measured", "not measured"],
    ]


def test_tiny_numbers_are_compared_at_their_printed_digits_and_bounds_are_audited():
    """An absolute slack of 1e-9 once made every number below it match (4.0e-09 against a printed 4.7e-09)."""
    numbers = pd.DataFrame(
        {
            "table": "t",
            "row": ["a", "b", "a", "b"],
            "column": ["orig", "orig", "repro", "repro"],
            "value": [4.0e-09, 1e-12, 1e-20, 3e-16],
        }
    )
    published = published_frame(
        [
            {
                "table": "t",
                "source": "paper",
                "note": "n",
                "evidence": "explained",
                "cells": {"a": {"orig": "4.7e-09", "repro": "< 2e-16"}, "b": {"orig": "3.67e-17", "repro": "<2e-16"}},
            }
        ]
    )
    audit = build_audit(numbers, published, TABLES).set_index(["row", "column"])
    assert audit.loc[("a", "orig"), "status"] == "mismatch" and audit.loc[("b", "orig"), "status"] == "mismatch"
    assert audit.loc[("a", "repro"), "status"] == "match"  # 1e-20 < 2e-16
    assert audit.loc[("a", "repro"), "note"] == "printed as a bound: < 2e-16"
    assert audit.loc[("b", "repro"), "status"] == "mismatch"  # 3e-16 is not < 2e-16
    assert status_of(4.66e-09, 4.7e-09, 10) == "match"  # prints as 4.7e-09


def test_a_published_only_number_says_why_it_is_not_recomputed():
    numbers = pd.DataFrame({"table": "t", "row": ["b"], "column": "repro", "value": [2.0]})
    published = published_frame(
        [
            {
                "table": "t",
                "source": "paper",
                "note": "judgements not public",
                "evidence": "explained",
                "unrecomputed": "no_raw_data",
                "cells": {"a": {"orig": "3"}},
            },
            {"table": "t", "source": "paper", "cells": {"a": {"repro": "2.0"}, "b": {"orig": "1"}}},
        ]
    )
    audit = build_audit(numbers, published, TABLES).set_index(["row", "column"])
    assert audit.loc[("a", "orig"), "unrecomputed"] == "no_raw_data"
    assert audit.loc[("b", "orig"), "note"] == UNRECOMPUTED and audit.loc[("b", "orig"), "unrecomputed"] == ""
    assert "difference" not in UNRECOMPUTED and audit.loc[("b", "repro"), "unrecomputed"] == ""


@pytest.mark.parametrize("sides", [{"O": "O", "R1": "R1"}, {"R1": "R1", "O": "O"}])
def test_a_claims_sides_in_any_order_give_the_same_verdicts(sides):
    """A study file listing R1 before O swapped original and reproduction in the claims summary (issue 52): the
    sides are read in the study's order of experiments, whatever the order of the file's keys."""
    from humeval.summary import claims_summary

    audit = pd.DataFrame(
        {
            "table": "claims",
            "row": ["K1", "K1"],
            "column": ["O", "R1"],
            "value": [1.0, 0.0],
        }
    )
    study = {
        "experiments": [{"id": "O"}, {"id": "R1"}],
        "qra": [{"type": "claims", "table": "claims", "sides": sides, "claims": [{"id": "K1", "text": "A beats B"}]}],
    }
    row = claims_summary({"s": audit}, {"s": study}).iloc[0]
    assert (row["experiment"], row["original_holds"], row["reproduction_holds"]) == ("R1", "yes", "no")
    assert row["replicated"] == "no"


def test_the_audit_says_what_each_recomputed_number_rests_on():
    """Issue 51: a metric's number rests on judgements, a QRA cell on what its entry read (``basis``); a published-only
    number rests on nothing recomputed."""
    metrics = pd.DataFrame({"table": "t", "row": ["a"], "column": "repro", "value": [2.0]})
    qra = pd.DataFrame({"table": "t", "row": ["b"], "column": "repro", "value": [1.0], "basis": ["printed numbers"]})
    published = published_frame([{"table": "t", "source": "paper", "cells": {"a": {"orig": "3"}, "b": {"repro": "1"}}}])
    audit = audit_study({"tables": TABLES}, metrics, qra, published).set_index(["row", "column"])
    assert (
        audit.loc[("a", "repro"), "basis"] == "judgements" and audit.loc[("b", "repro"), "basis"] == "printed numbers"
    )
    assert audit.loc[("a", "orig"), "basis"] == "" and audit.loc[("b", "repro"), "status"] == "match"


@pytest.mark.parametrize(
    "value,published,precision,match",
    [
        (0.7814802508862, 0.7814802508859, 13, True),  # 13 digits printed, agree to 12: a full printout matches
        (0.7814802508866, 0.7814802508859, 13, False),  # 7e-13 apart: more than half a unit of the 12th digit
        (1234567.890126, 1234567.890123, 6, True),  # 13 digits, most before the point
        (0.0004, 0.0, 3, True),  # a printed zero: 0.0004 prints as 0.000
        (0.0006, 0.0, 3, False),
        # half a unit plus the last bits of a double, which a number of this size cannot print apart: the slack
        # grows with the numbers (4 ulps of the larger), not only with the unit
        (100000000.50000004, 1e8, 0, True),
        (100000000.5000002, 1e8, 0, False),
    ],
)
def test_a_full_printout_matches_to_twelve_significant_digits_and_no_further(value, published, precision, match):
    from humeval.audit import within_printed_precision

    assert within_printed_precision(value, published, precision) is match
