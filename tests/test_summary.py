"""The cross-study summary's tallies on studies small enough to count by hand (:mod:`humeval.summary`): which
finding holds in which experiment and with what power, how many numbers have each status, the planning summary."""

import math

import pandas as pd
import pytest

from humeval.intermediate import JUDGEMENTS, PRINTED
from humeval.summary import audit_summary, design_power, findings_summary, planning_summary, with_retrospective_power

#: Yao's Y2 as a planning finding (``humeval.findings.consistency``'s example): d > 0 and p < 0.05.
Y2 = {
    "id": "Y2",
    "text": "QAG beats PAQ",
    "comparisons": [{"left": {"table": "m", "row": "{side}", "column": "d"}, "op": ">", "right": 0}],
    "significance": {"p": {"table": "t", "row": "{side}", "column": "p"}},
}
#: O's side in the data is named "orig": an experiment's id and its side name differ.
STUDY = {"experiments": [{"id": "O", "label": "orig"}, {"id": "R1"}, {"id": "R2"}], "planning": {"findings": [Y2]}}


def audit(rows) -> pd.DataFrame:
    """An audit of (table, row, column, value, published, bound) rows."""
    return pd.DataFrame(rows, columns=["table", "row", "column", "value", "published", "bound"])


NAN = float("nan")
#: O recomputed; R1 only printed; R2 has no cells.
AUDIT = audit(
    [
        ("m", "orig", "d", 0.21412, NAN, ""),
        ("t", "orig", "p", 0.048521, NAN, ""),
        ("m", "R1", "d", NAN, 0.21667, ""),
        ("t", "R1", "p", NAN, 0.073989, ""),
    ]
)


def power_rows(**by_design) -> pd.DataFrame:
    """A power.csv of Y2 with one model row at the safeguard basis per design (its columns given), and a
    bootstrap row at the observed basis that the headline must not pick."""
    rows = []
    for design, columns in by_design.items():
        common = {"finding": "Y2", "design": design, "evaluators": 10, "items": 100, "quantity": "power"}
        rows.append({**common, "method": "bootstrap", "basis": "observed", "pilot": "O", "power": 0.99, "note": "x"})
        rows.append({**common, "method": "model", "basis": "safeguard", "note": "", **columns})
    return pd.DataFrame(rows)


VALID = {"pilot": "O", "power": 0.7, "ci_low": 0.6, "ci_high": 0.8, "valid_power": 0.52, "paper_null_rate": 0.12}


def test_a_finding_holds_where_its_cells_say_and_its_reproduction_gets_the_valid_power():
    found = findings_summary({"s": AUDIT}, {"s": STUDY}, {"s": power_rows(R1={**VALID, "caveat": "an upper bound"})})
    assert found[["experiment", "holds"]].values.tolist() == [["O", "yes"], ["R1", "no"], ["R2", "not measured"]]
    o, r1, r2 = (found.iloc[k] for k in range(3))
    assert o["effect"] == 0.21412 and math.isnan(o["difference_p"]) and math.isnan(o["power"])
    assert o["power_note"] == ""
    # R1 (printed numbers, read in place of recomputed ones): consistency's own example
    assert (round(r1["effect_low"], 3), round(r1["effect_high"], 3), round(r1["difference_p"], 3)) == (
        -0.021,
        0.454,
        0.987,
    )
    assert (r1["power"], r1["power_basis"], r1["power_analysis"]) == (0.52, "safeguard", "valid")
    assert math.isnan(r1["power_low"]) and math.isnan(r1["power_high"])  # the valid power is analytic
    assert (r1["paper_power"], r1["paper_power_low"], r1["paper_power_high"], r1["paper_null_rate"]) == (
        0.7,
        0.6,
        0.8,
        0.12,
    )
    assert r1["power_note"] == "an upper bound"
    assert r2["power_note"] == "R2 does not measure this finding's cells" and math.isnan(r2["power"])


def test_a_printed_bound_decides_where_it_is_read_and_not_where_the_number_was_recomputed():
    bound = audit([("m", "orig", "d", 0.2, NAN, ""), ("t", "orig", "p", NAN, 0.05, "<")])
    assert findings_summary({"s": bound}, {"s": STUDY}, {})["holds"].iloc[0] == "yes"  # p < 0.05: significant
    recomputed = audit([("m", "orig", "d", 0.2, NAN, ""), ("t", "orig", "p", 0.05, 0.05, "<")])
    assert findings_summary({"s": recomputed}, {"s": STUDY}, {})["holds"].iloc[0] == "no"  # p = 0.05 is not < 0.05
    without = audit([("m", "orig", "d", 0.2, NAN, ""), ("t", "orig", "p", NAN, 0.05, "")])
    assert findings_summary({"s": without.drop(columns="bound")}, {"s": STUDY}, {})["holds"].iloc[0] == "no"


def test_the_power_of_a_design_says_why_there_is_none():
    assert design_power(None, "Y2", "R1") == {"power_note": "planning was not run (--config planning=false)"}
    own = design_power(power_rows(R1={**VALID, "pilot": "R1"}), "Y2", "R1")
    assert own == {"power_note": "not shown: planned from R1's own judgements, its power would restate its p-value"}
    untested = power_rows(R1={**VALID, "pilot": "R1", "quantity": "direction"})
    assert design_power(untested, "Y2", "R1")["power_note"].endswith("its own estimate (the finding is untested)")
    failed = design_power(power_rows(R1={**VALID, "power": NAN, "note": "the model did not fit"}), "Y2", "R1")
    assert failed == {"power_note": "the model did not fit"}
    other = power_rows(R2=VALID).assign(note=["planned for R2 only", "the model's note"])
    assert design_power(other, "Y2", "R1") == {"power_note": "planned for R2 only"}  # the first row's
    assert design_power(other, "Y9", "R1") == {"power_note": "no planning for this finding"}


def test_without_a_valid_analysis_the_papers_test_is_the_power_with_its_interval():
    paper_only = {**VALID, "valid_power": NAN, "caveat": NAN}
    got = design_power(power_rows(R1=paper_only), "Y2", "R1")
    assert got == {
        "power": 0.7,
        "power_low": 0.6,
        "power_high": 0.8,
        "power_basis": "safeguard",
        "power_analysis": "as published",
        "paper_power": 0.7,
        "paper_power_low": 0.6,
        "paper_power_high": 0.8,
        "paper_null_rate": 0.12,
    }


def test_the_claims_get_their_reproductions_power():
    found = findings_summary({"s": AUDIT}, {"s": STUDY}, {"s": power_rows(R1=VALID)})
    claims = pd.DataFrame({"study": "s", "claim": ["Y2", "Y2", "Y9"], "experiment": ["R1", "R2", "R1"]})
    out = with_retrospective_power(claims, found)
    assert out["reproduction_power"].tolist()[0] == 0.52 and out["reproduction_power"].isna().tolist()[1:] == [1, 1]
    assert out["power_note"].tolist() == ["", "R2 does not measure this finding's cells", ""]
    assert "reproduction_power" not in claims  # a copy


def test_the_audit_counts_every_status_and_why_numbers_were_not_recomputed():
    frame = pd.DataFrame(
        {
            "table": "t",
            "row": list("abcdefgh"),
            "column": "c",
            "status": ["match", "match", "mismatch", "mismatch", "published_only", "published_only", "condition", "x"],
            "value": [1.0, 2, 3, 4, NAN, NAN, NAN, 5],
            "published": [1.0, 2, 3.5, 4.5, 6, 7, NAN, NAN],
            "unrecomputed": ["", "", "", "", "no_raw_data", NAN, "", ""],
            "basis": [PRINTED, JUDGEMENTS, PRINTED, JUDGEMENTS, "", "", "", ""],
            "note": ["", "", "UNDIAGNOSED: no reason", "rounded in the paper", "", "", "", ""],
        }
    )
    counts, mismatches = audit_summary({"s": frame, "empty": frame.iloc[:0]})
    s = counts.set_index("study").loc["s"].to_dict()
    assert s == {
        "match": 2,
        "mismatch": 2,
        "published_only": 2,
        "recomputed_only": 0,
        "published_input": 0,
        "published": 6,
        "no_raw_data": 1,
        "no_measure": 0,
        "reason_not_stated": 1,
        "match_printed": 1,
        "mismatch_printed": 1,
        "mismatch_undiagnosed": 1,
    }
    assert set(counts.set_index("study").loc["empty"]) == {0}
    assert mismatches[["study", "row", "value", "published"]].values.tolist() == [
        ["s", "c", 3.0, 3.5],
        ["s", "d", 4.0, 4.5],
    ]
    assert audit_summary({"s": frame[frame["status"] == "match"]})[1].empty


#: Three planned designs of Y2; the second is the smallest to reach 80%.
PLANNED = pd.DataFrame(
    {
        "finding": "Y2",
        "design": "planned",
        "evaluators": [5, 10, 20],
        "items": 100,
        "method": "model",
        "basis": "safeguard",
        "quantity": "power",
        "power": [0.5, 0.85, 0.95],
        "ci_low": [0.4, 0.8, 0.9],
        "ci_high": [0.6, 0.9, 0.99],
        "note": "",
    }
)


def test_the_planning_summary_is_the_smallest_sufficient_design_per_study():
    out = planning_summary({"s": PLANNED})
    assert out[["study", "finding", "evaluators", "items", "power"]].values.tolist() == [["s", "Y2", 10, 100, 0.85]]
    assert list(planning_summary({}).columns) == list(out.columns) and planning_summary({}).empty
    assert out["analysis"].iloc[0] == "as published" and out["basis"].iloc[0] == "safeguard"
    assert pytest.approx(out["ci_low"].iloc[0]) == 0.8


def claims_audit(cells: dict) -> pd.DataFrame:
    """A claims table's audit from {(row, column): value}."""
    rows = [("claims", row, column, value) for (row, column), value in cells.items()]
    return pd.DataFrame(rows, columns=["table", "row", "column", "value"])


def claims_study(*experiments, **entry) -> dict:
    claims = [{"id": "K1", "text": "A beats B"}]
    return {
        "experiments": [{"id": e} for e in experiments],
        "qra": [{"type": "cv_star", "table": "cv"}, {"type": "claims", "table": "claims", "claims": claims, **entry}],
    }


def test_a_two_sided_claim_is_judged_in_r1_only_and_reads_every_comparison():
    from humeval.summary import claims_summary

    cells = {
        ("K1", "original"): 0.0,
        ("K1", "reproduction"): 1.0,
        ("K1.1", "original_left"): 0.5,
        ("K1.1", "original_right"): 0.6,
        ("K1.1", "reproduction_left"): 0.7,
        ("K1.1", "reproduction_right"): 0.2,
        ("K1.2", "original_left"): 3.0,
        ("K1.2", "original_right"): 4.0,
        ("K1.2", "reproduction_left"): 5.0,
        ("K1.2", "reproduction_right"): 1.0,
    }
    rows = claims_summary({"s": claims_audit(cells)}, {"s": claims_study("O", "R1", "R2")})
    assert rows[["experiment", "original_holds", "reproduction_holds", "replicated"]].values.tolist() == [
        ["R1", "no", "yes", "no"]  # holds in R1, not in O: not replicated
    ]
    assert rows["evidence"].iloc[0] == (
        "original: 0.5 vs 0.6; reproduction: 0.7 vs 0.2; | original: 3 vs 4; reproduction: 5 vs 1;"
    )


@pytest.mark.parametrize(
    "original, reproduction, expected",
    [
        (1.0, 1.0, ("yes", "yes", "yes")),
        (NAN, 1.0, ("not measured", "yes", "yes")),  # an original known from its design states the finding
        (NAN, NAN, ("not measured", "not measured", "no")),
        (1.0, 0.0, ("yes", "no", "no")),
    ],
)
def test_a_claims_verdicts_and_whether_it_replicated(original, reproduction, expected):
    from humeval.summary import claims_summary

    audit = claims_audit({("K1", "O"): original, ("K1", "R1"): reproduction})
    study = claims_study("O", "R1", sides={"O": "O", "R1": "R1"})
    row = claims_summary({"s": audit}, {"s": study}).iloc[0]
    assert (row["original_holds"], row["reproduction_holds"], row["replicated"]) == expected


def test_the_qra_summary_puts_the_study_first_and_skips_studies_without_results():
    from humeval.summary import qra_summary

    a = pd.DataFrame({"type": ["cv_star"], "table": ["q"], "value": [1.5]})
    out = qra_summary({"a": a, "b": a.iloc[:0], "c": a.assign(value=2.5)})
    assert out.values.tolist() == [["a", "cv_star", "q", 1.5], ["c", "cv_star", "q", 2.5]]
    assert list(out.index) == [0, 1]
    assert qra_summary({"b": a.iloc[:0]}).columns[0] == "study" and qra_summary({}).empty


def test_counts_over_two_studies_are_one_frame_and_printed_counts_need_a_basis():
    frame = pd.DataFrame(
        {"table": "t", "row": ["a", "b"], "column": "c", "status": ["match", "mismatch"], "value": [1.0, 2.0]}
    )
    frame = frame.assign(published=[1.0, 3.0], unrecomputed="", note="")
    counts, mismatches = audit_summary({"s": frame, "t": frame})
    assert counts[["study", "match_printed", "mismatch_printed"]].values.tolist() == [["s", 0, 0], ["t", 0, 0]]
    assert list(mismatches.index) == [0, 1] and mismatches["study"].tolist() == ["s", "t"]
    both = planning_summary({"s": PLANNED, "t": PLANNED})
    assert list(both.index) == [0, 1] and both["study"].tolist() == ["s", "t"]


def test_conditions_differing_names_only_when_asked_and_only_the_experiments_asked():
    from humeval.summary import conditions_differing

    audit = pd.DataFrame(
        {
            "table": "conditions",
            "status": "condition",
            "row": ["A", "A", "A", "B", "B", "B"],
            "column": ["O", "R1", "R2", "O", "R1", "R2"],
            "note": ["x", "X ", "y", "z", "w", "z"],
        }
    )
    assert conditions_differing(audit) == "R1: 1 of 2 (B); R2: 1 of 2 (A)"  # case and spaces do not differ
    assert conditions_differing(audit, ["O", "R2"]) == "R2: 1 of 2 (A)"
    assert conditions_differing(audit, names=False) == "R1: 1 of 2; R2: 1 of 2"
    assert conditions_differing(audit[audit["column"] != "O"]) == ""


def test_the_qra3_summary_keeps_criterion_notes_conditions_and_only_system_rows_with_numbers():
    from humeval.qra3_layout import QRA3_COLUMNS
    from humeval.summary import qra3_summary

    entry = {"table": "q", "experiments": ["O", "R1"], "criteria": [{"name": "Q", "systems": ["a", "b"]}]}
    audit = pd.DataFrame(
        {
            "table": ["q", "q", "q", "conditions", "conditions"],
            "row": ["Q|a", "Q|all", "all|all", "Recruitment", "Recruitment"],
            "column": ["cv_star", "cv_star", "cv_star", "O", "R1"],
            "value": [1.0, 1.0, 1.0, NAN, NAN],
            "status": ["recomputed_only"] * 3 + ["condition"] * 2,
            "note": ["", "", "", "students", "crowd"],
        }
    )
    notes = {("s", "q"): ["Q: no item-level labels configured, so no Type III", "F: other", "Q: one: more"]}
    out = qra3_summary({"s": audit}, {"s": {"qra3": [entry]}}, notes)
    assert out[["level", "criterion", "system"]].values.tolist() == [
        ["system", "Q", "a"],  # Q|b holds no number: not listed
        ["criterion", "Q", "all"],
        ["study", "all", "all"],
    ]
    assert out["note"].tolist() == [
        "",
        "no item-level labels configured, so no Type III; one: more",
        "conditions differing from O: R1: 1 of 1 (Recruitment)",
    ]
    assert out["experiments"].unique().tolist() == ["O, R1"] and list(out.columns[-1:]) == ["note"]
    assert list(out.index) == [0, 1, 2] and set(QRA3_COLUMNS) <= set(out.columns)


def test_evidence_counts_by_class():
    from humeval.summary import evidence_counts

    audit = pd.DataFrame(
        {
            "status": ["mismatch", "mismatch", "published_only", "match", "mismatch"],
            "note": ["[explained] a", "[explained] b", "[unverified] c", "[explained] d", None],
        }
    )
    assert evidence_counts(audit) == "2 explained, 1 none, 1 unverified"
    assert evidence_counts(audit[audit["status"] == "match"]) == "none"


def test_the_run_digest_ignores_the_order_of_keys(tmp_path):
    from humeval.summary import run_metadata

    study = tmp_path / "s.yaml"
    study.write_text("name: s\n")
    first = run_metadata("v1", {"a": 1, "b": 2}, [study]).set_index("item")["detail"]
    second = run_metadata("v1", {"b": 2, "a": 1}, [study]).set_index("item")["detail"]
    assert first["config_digest"] == second["config_digest"] and first["code_version"] == "v1"


def test_the_commit_is_the_packages_checkouts_with_its_changes_or_says_there_is_none(tmp_path, monkeypatch):
    import subprocess

    import humeval
    from humeval.summary import package_commit

    package = tmp_path / "repo" / "humeval"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path))
    monkeypatch.setattr(humeval, "__file__", str(package / "__init__.py"))
    assert package_commit() == "not a git checkout (see code_version)"

    def git(*args):
        command = ["git", "-C", str(package.parent), "-c", "user.name=t", "-c", "user.email=t@example.org", *args]
        return subprocess.run(command, capture_output=True, text=True, check=True).stdout.strip()

    git("init", "-q")
    git("add", ".")
    git("commit", "-q", "-m", "one")
    head = git("rev-parse", "HEAD")
    assert package_commit() == head
    (package / "new.py").write_text("")
    assert package_commit() == f"{head}+changes"


def test_raw_files_list_the_sha256_or_the_git_blob():
    from humeval.summary import raw_files_frame

    raw = {
        "s": [
            {"id": "a", "url": "https://x/y/a%20b.csv", "sha256": "0" * 64},
            {"id": "b", "url": "https://x/y/c.json", "git_blob": "f" * 40},
        ]
    }
    out = raw_files_frame(raw)
    assert out.values.tolist() == [
        ["s", "a", "a b.csv", "0" * 64, "https://x/y/a%20b.csv"],
        ["s", "b", "c.json", f"git blob {'f' * 40}", "https://x/y/c.json"],
    ]
