"""QRA3 measures on hand-computed values (Types I-IV), and QRA3 tables from a small synthetic study."""

import math

import krippendorff
import numpy as np
import pandas as pd
import pytest

from humeval.intermediate import VALUE_COLUMNS
from humeval.qra import qra3
from humeval.qra.qra3_tables import qra3_entry, tool_config, tool_input_csv
from humeval.qra3_layout import declared_tables


def test_type1_worked_check_of_qra3():
    # shared/qra3.md: Yao 2022 family, Answer Relevancy, GT; O, R1, R3; scale starts at 1
    m = qra3.type1_measures([4.834025, 4.460581, 4.566116], scale_starts_at=1)
    assert m["sd_star"] == pytest.approx(0.217230, abs=1e-6)
    assert m["cv_star"] == pytest.approx(6.0004, abs=1e-4)
    assert (m["sd_ci_low"], m["sd_ci_high"]) == pytest.approx((-0.1498, 0.5843), abs=1e-4)
    assert m["within_1sd"] == 3 and m["within_2sd"] == 3


def test_type1_two_experiments_by_hand():
    # 3 and 5: mean 4, s = sqrt(2), c4(2) = sqrt(2/pi), s* = sqrt(pi) = 1.772454; CV* = 100 s*/4 = 44.3113
    m = qra3.type1_measures([3, 5])
    assert m["sd_star"] == pytest.approx(math.sqrt(math.pi))
    assert m["cv_star"] == pytest.approx(100 * math.sqrt(math.pi) / 4)
    # SE = s^2 sqrt(2/1) / (2 s*) = 2 sqrt(2) / (2 sqrt(pi)); t(0.975, 1) = 12.7062
    se = 2 * math.sqrt(2) / (2 * math.sqrt(math.pi))
    assert m["sd_ci_high"] - m["sd_star"] == pytest.approx(12.706205 * se, rel=1e-6)
    assert m["within_1sd"] == 2  # both lie 1 from the mean, within s* = 1.77


def test_type1_over_correction_and_negative_mean():
    plain = qra3.type1_measures([-2, -3])
    corrected = qra3.type1_measures([-2, -3], over_correction=True)
    assert plain["cv_star"] > 0  # |mean|
    assert corrected["cv_star"] == pytest.approx(plain["cv_star"] * (1 + 1 / 8))


def test_type1_four_experiments_counts_within_one_and_two_sd():
    # 0, 0, 0, 4: mean 1, s = 2, c4(4) = 0.921318, s* = 2.170804; deviations 1, 1, 1, 3
    m = qra3.type1_measures([0, 0, 0, 4])
    assert m["sd_star"] == pytest.approx(2 / 0.9213177, rel=1e-6)
    assert (m["within_1sd"], m["within_2sd"]) == (3, 4)


def test_type1_zero_sd_and_single_experiment():
    m = qra3.type1_measures([2, 2, 2])
    assert m["cv_star"] == 0 and m["sd_star"] == 0 and m["sd_ci_low"] == m["sd_ci_high"] == 0
    assert m["within_1sd"] == 0  # strictly within 0 of the mean: none
    assert all(np.isnan(v) for v in qra3.type1_measures([3.0]).values())


def test_kendall_w_with_ties_by_hand():
    # ranks [1.5, 1.5, 3] and [1, 2, 3]: sums 2.5, 3.5, 6 (mean 4), S = 6.5, W = 12 * 6.5 / (4 * 24)
    w, p = qra3.kendall_w([[1, 1, 2], [1, 2, 3]])
    assert w == pytest.approx(0.8125)
    assert p == pytest.approx(math.exp(-2 * 2 * 0.8125 / 2))  # chi2 on 2 df: sf(x) = exp(-x / 2)


def test_findings_count_a_tie_as_disagreement():
    matrix = pd.DataFrame([[1, 1, 3], [1, 2, 3], [3, 2, 1]], index=["O", "R1", "R2"])
    # O-R1: (a,b) tie in O -> no; (a,c), (b,c) agree -> 2. O-R2: tie -> no; (a,c), (b,c) reversed -> 0.
    # R1-R2: all three reversed -> 0.
    assert qra3.finding_agreements(matrix) == (2, 9)


def test_pairwise_correlations_need_three_systems():
    pairs = qra3.pairwise_correlations(pd.DataFrame([[1, 2], [2, 1]], index=["O", "R1"]))
    assert pairs[["pearson", "spearman"]].isna().all().all()
    pairs = qra3.pairwise_correlations(pd.DataFrame([[1, 2, 3], [1, 3, 2]], index=["O", "R1"]))
    assert pairs.loc[0, "spearman"] == pytest.approx(0.5)


def test_item_label_rules():
    def labels(values, rule):
        index = pd.MultiIndex.from_tuples([(side, unit) for side, unit, _ in values], names=["side", "unit"])
        series = pd.Series([v for _, _, v in values], index=index)
        return qra3.item_labels_by_group(series, ["side", "unit"], rule).to_dict()

    two = [("O", "a", 4.0), ("O", "a", 5.0), ("R1", "a", 2.0), ("R1", "b", 3.0), ("R1", "b", 3.0)]
    assert labels(two, "rounded_mean") == {("O", "a"): 5.0, ("R1", "a"): 2.0, ("R1", "b"): 3.0}  # 4.5 rounds up
    assert labels(two, "mean")[("O", "a")] == 4.5
    assert labels(two, "median")[("O", "a")] == 4.5
    tie = [("O", "x", v) for v in (1, -1, -1, 0, 1)] + [("R1", "x", v) for v in (2, 2, 0)]
    assert labels(tie, "majority") == {("O", "x"): -1.0, ("R1", "x"): 2.0}  # tie 1 vs -1 goes to the smallest
    with pytest.raises(ValueError, match="unknown item label rule"):
        labels(two, "mode")


def test_labels_alpha_is_krippendorffs_with_experiments_as_coders():
    labels = pd.DataFrame([[1, 2, 3, 4, np.nan], [1, 2, 4, 4, 5], [2, 2, 3, 4, 5]], index=["O", "R1", "R2"])
    expected = krippendorff.alpha(reliability_data=labels.to_numpy(float), level_of_measurement="ordinal")
    assert qra3.labels_alpha(labels, "ordinal") == pytest.approx(expected)
    assert np.isnan(qra3.labels_alpha(labels.loc[["O"]], "ordinal"))


def synthetic(scores: dict) -> pd.DataFrame:
    """Metric values of table t: rows = systems, columns = experiment ids."""
    return pd.DataFrame(
        [("t", system, experiment, value) for experiment, row in scores.items() for system, value in row.items()],
        columns=VALUE_COLUMNS,
    )


EXPERIMENTS = {
    "O": {"id": "O", "citation": "A"},
    "R1": {"id": "R1", "citation": "B"},
    "R2": {"id": "R2", "citation": "C"},
}


def entry(**extra):
    criterion = {
        "name": "Q",
        "systems": ["a", "b", "c"],
        "score": {"table": "t", "row": "{system}", "column": "{experiment}"},
    }
    return {"table": "q", "experiments": ["O", "R1", "R2"], "scale_starts_at": 1, "criteria": [criterion], **extra}


def test_qra3_table_levels_and_tool_input():
    values = synthetic(
        {"O": {"a": 4, "b": 3, "c": 2}, "R1": {"a": 4.5, "b": 3, "c": 2.5}, "R2": {"a": 3.5, "b": 3.5, "c": 2}}
    )
    empty = pd.DataFrame(columns=VALUE_COLUMNS)
    cells, notes, tool_rows = qra3_entry(values, empty, pd.DataFrame(), entry(), EXPERIMENTS)
    frame = pd.DataFrame(cells, columns=VALUE_COLUMNS).set_index(["table", "row", "column"])["value"]
    a = qra3.type1_measures([4, 4.5, 3.5], scale_starts_at=1)
    assert frame[("q", "Q|a", "cv_star")] == pytest.approx(a["cv_star"])
    level = np.mean(
        [qra3.type1_measures(v, scale_starts_at=1)["cv_star"] for v in ([4, 4.5, 3.5], [3, 3, 3.5], [2, 2.5, 2])]
    )
    assert frame[("q", "Q|all", "cv_star")] == pytest.approx(level)
    assert frame[("q", "all|all", "cv_star")] == pytest.approx(level)
    # findings: O orders a > b > c; R1 too; R2 ties a and b -> O-R1 3 of 3, O-R2 2 of 3, R1-R2 2 of 3
    assert frame[("q", "Q|all", "p_findings")] == pytest.approx(7 / 9)
    assert ("q_input", "Q|R2|b", "result") in frame.index
    assert notes == ["Q: no item-level labels configured, so no Type III"]
    tool = tool_input_csv(tool_rows, "K")
    assert list(tool.columns) == ["Key", "Study", "Experiment", "System", "Criterion", "Result"]
    assert list(tool["Experiment"]) == ["O"] * 3 + ["R1"] * 3 + ["R2"] * 3
    config = tool_config(entry(), EXPERIMENTS, "K")["K"]
    assert config["scale_starts_at"] == 1 and config["criteria"]["Q"]["apply_over_correction"] is False
    assert [t["id"] for t in declared_tables(entry())] == ["q", "q_pairwise", "q_input"]


def test_an_experiment_without_scores_leaves_a_note_not_a_crash():
    values = synthetic({"O": {"a": 4, "b": 3, "c": 2}})  # R1 and R2 have nothing
    cells, notes, _ = qra3_entry(values, pd.DataFrame(columns=VALUE_COLUMNS), pd.DataFrame(), entry(), EXPERIMENTS)
    assert not [c for c in cells if c[0] == "q"]
    assert any("need two or more experiments" in n for n in notes)


def test_a_score_template_that_finds_nothing_is_an_error():
    from humeval.errors import HumevalError

    bad = entry()
    bad["criteria"][0]["score"]["table"] = "typo"
    with pytest.raises(HumevalError, match="check the template"):
        qra3_entry(synthetic({"O": {"a": 1}}), pd.DataFrame(columns=VALUE_COLUMNS), pd.DataFrame(), bad, EXPERIMENTS)


def test_one_system_gives_type1_and_notes_for_the_rest_not_a_crash():
    one = entry()
    one["criteria"][0]["systems"] = ["a"]
    values = synthetic({"O": {"a": 4, "b": 3, "c": 2}, "R1": {"a": 5, "b": 3, "c": 2}, "R2": {"a": 3, "b": 3, "c": 2}})
    cells, notes, _ = qra3_entry(values, pd.DataFrame(columns=VALUE_COLUMNS), pd.DataFrame(), one, EXPERIMENTS)
    frame = pd.DataFrame(cells, columns=VALUE_COLUMNS).set_index(["table", "row", "column"])["value"]
    # scores 4, 5, 3 on a scale from 1: shifted 3, 4, 2; mean 3, s = 1, c4(3) = 0.886227; CV* = 100 * 1.128379 / 3
    assert frame[("q", "Q|a", "cv_star")] == pytest.approx(100 * (1 / 0.8862269) / 3, rel=1e-6)
    assert ("q", "Q|all", "p_findings") not in frame.index and ("q", "all|all", "p_findings") not in frame.index
    assert any("Type IV needs two or more systems" in n for n in notes)
    assert any("Type II needs three or more systems" in n for n in notes)


def test_cv_star_of_a_single_measurement_is_empty_not_an_error():
    from humeval.cv_star import cv_star, sd_star

    assert math.isnan(cv_star([4.0])) and math.isnan(sd_star([4.0]))


def test_the_qra3_summary_keeps_a_system_label_that_holds_a_bar_whole():
    from humeval.qra3_layout import table_rows
    from humeval.summary import qra3_summary

    entry = {
        "table": "q",
        "experiments": ["O", "R1"],
        "criteria": [{"name": "MOS", "systems": ["FastSpeech|baseline", "FastSpeech|ours"]}],
    }
    rows = table_rows(entry)
    audit = pd.DataFrame(
        {"table": "q", "row": rows, "column": "cv_star", "value": [1.0, 2.0, 1.5, 1.5], "status": "recomputed_only"}
    )
    out = qra3_summary({"s": audit}, {"s": {"qra3": [entry]}}, {})
    systems = out[out["level"] == "system"]
    assert systems["system"].tolist() == [
        "FastSpeech|baseline",
        "FastSpeech|ours",
    ]  # split on "|", both were "FastSpeech"
    assert systems["criterion"].tolist() == ["MOS", "MOS"] and systems["cv_star"].tolist() == [1.0, 2.0]


def test_an_experiment_whose_item_ids_overlap_no_other_is_named_in_the_notes():
    from humeval.qra.qra3_tables import unshared_items

    labelled = pd.DataFrame(
        {"item1|A": [3, 4, None], "item2|A": [2, 2, None], "s-1|A": [None, None, 4]}, index=["O", "R1", "R2"]
    )
    expected = (
        "Type III: R2 labels 1 item(s), none of them labelled by another experiment (the item ids do not overlap): "
        "it adds nothing to alpha"
    )
    assert unshared_items(labelled) == [expected]
    assert unshared_items(labelled.drop(index="R2")) == []


def test_type1_edges_a_mean_of_one_and_a_point_beyond_two_sd():
    # 0.5 and 1.5: mean exactly 1, s = 1/sqrt(2), s* = s / sqrt(2/pi) = sqrt(pi)/2: CV* = 100 sqrt(pi)/2
    assert qra3.type1_measures([0.5, 1.5])["cv_star"] == pytest.approx(50 * math.sqrt(math.pi))
    # nine zeros and a ten: mean 1, s = sqrt(10), c4(10) = 0.972659, s* = 3.251158; the ten lies 9 from the mean,
    # 2.77 s*: within 1 and 2 s* are the nine zeros (1 from the mean), not the ten
    m = qra3.type1_measures([0] * 9 + [10])
    assert m["sd_star"] == pytest.approx(math.sqrt(10) / 0.9726593, rel=1e-6)
    assert (m["within_1sd"], m["within_2sd"]) == (9, 9)
    assert qra3.type1_measures([2, 2, 2])["within_2sd"] == 0  # strictly within 0


def test_kendall_w_needs_two_judges_and_two_objects():
    assert all(np.isnan(v) for v in qra3.kendall_w([[1, 2, 3]]))
    assert all(np.isnan(v) for v in qra3.kendall_w([[1], [2]]))
    w, p = qra3.kendall_w([[1, 2], [1, 2]])  # W = 1, chi2 = m (k - 1) W = 2 on 1 df
    assert w == 1.0 and p == pytest.approx(0.15729920705028513)


def test_correlations_of_a_constant_series_are_undefined_and_a_small_range_is_not_constant():
    pairs = qra3.pairwise_correlations(pd.DataFrame([[1, 1, 1], [1, 3, 2]], index=["O", "R1"]))
    assert pairs[["pearson", "spearman"]].isna().all().all()
    pairs = qra3.pairwise_correlations(pd.DataFrame([[0.1, 0.2, 0.3], [0.1, 0.3, 0.2]], index=["O", "R1"]))
    assert pairs.loc[0, "spearman"] == pytest.approx(0.5) and pairs.loc[0, "pearson"] == pytest.approx(0.5)


def test_labels_alpha_is_undefined_without_a_shared_item_or_with_one_value():
    disjoint = pd.DataFrame([[1, 2, np.nan, np.nan], [np.nan, np.nan, 1, 2]], index=["O", "R1"])
    assert np.isnan(qra3.labels_alpha(disjoint))
    assert np.isnan(qra3.labels_alpha(pd.DataFrame([[3, 3, 3], [3, 3, 3]], index=["O", "R1"])))
    two_values = pd.DataFrame([[1, 2, 1, 2], [1, 2, 2, 2]], index=["O", "R1"])
    expected = krippendorff.alpha(reliability_data=two_values.to_numpy(float), level_of_measurement="ordinal")
    assert qra3.labels_alpha(two_values) == pytest.approx(expected) == pytest.approx(8 / 15)


def test_item_labels_come_in_the_order_of_their_groups():
    index = pd.MultiIndex.from_tuples([("R1", "b"), ("O", "z"), ("O", "a"), ("R1", "a")], names=["side", "unit"])
    labels = qra3.item_labels_by_group(pd.Series([1.0, 2, 3, 4], index=index), ["side", "unit"], "mean")
    assert list(labels.index) == [("O", "a"), ("O", "z"), ("R1", "a"), ("R1", "b")]


def two_criteria_entry(**extra):
    """Criteria Q and F over systems a, b, c (F's scores in table f), no scale start stated."""
    q = {"name": "Q", "systems": ["a", "b", "c"], "score": {"table": "t", "row": "{system}", "column": "{experiment}"}}
    f = {**q, "name": "F", "score": {"table": "f", "row": "{system}", "column": "{experiment}"}}
    return {"table": "q", "experiments": ["O", "R1"], "criteria": [q, f], **extra}


def test_study_level_findings_pool_every_criterion_and_cv_star_averages_them():
    values = synthetic({"O": {"a": 4, "b": 3, "c": 2}, "R1": {"a": 5, "b": 3, "c": 1}})
    f = synthetic({"O": {"a": 1, "b": 2, "c": 3}, "R1": {"a": 1, "b": 3, "c": 2}}).assign(table="f")
    cells, _, rows = qra3_entry(values, f, pd.DataFrame(), two_criteria_entry(), EXPERIMENTS)  # F printed
    frame = pd.DataFrame(cells, columns=VALUE_COLUMNS).set_index(["table", "row", "column"])["value"]
    # Q: O and R1 order a > b > c alike, 3 of 3; F: O a < b < c, R1 a < c < b: (a,b), (a,c) agree, (b,c) not
    assert frame[("q", "Q|all", "p_findings")] == 1.0 and frame[("q", "F|all", "p_findings")] == pytest.approx(2 / 3)
    assert frame[("q", "all|all", "p_findings")] == pytest.approx(5 / 6)
    # no scale start stated: scores as they are (4 and 5: CV* of 4, 5 with no shift)
    assert frame[("q", "Q|a", "cv_star")] == pytest.approx(qra3.type1_measures([4, 5])["cv_star"])
    q_level = np.mean([qra3.type1_measures(v)["cv_star"] for v in ([4, 5], [3, 3], [2, 1])])
    f_level = np.mean([qra3.type1_measures(v)["cv_star"] for v in ([1, 1], [2, 3], [3, 2])])
    assert frame[("q", "all|all", "cv_star")] == pytest.approx((q_level + f_level) / 2)
    assert [r[:3] for r in rows][:3] == [("O", "a", "Q"), ("O", "b", "Q"), ("O", "c", "Q")]


def test_type2_means_need_every_pair_defined_and_a_criterion_an_experiment_did_not_judge_is_left_to_the_others():
    values = synthetic(
        {"O": {"a": 4, "b": 3, "c": 2}, "R1": {"a": 3, "b": 3, "c": 3}, "R2": {"a": 4.5, "b": 3, "c": 2.5}}
    )
    experiments = {**EXPERIMENTS, "R2": {"id": "R2", "criteria": ["Other"]}}
    cells, notes, _ = qra3_entry(values, values.iloc[:0], pd.DataFrame(), entry(), experiments)
    frame = pd.DataFrame(cells, columns=VALUE_COLUMNS).set_index(["table", "row", "column"])["value"]
    assert ("q_input", "Q|R2|a", "result") not in frame.index  # R2 did not judge Q
    assert np.isnan(frame[("q_pairwise", "Q|O-R1", "pearson")])  # R1 is constant
    assert ("q", "Q|all", "pearson_mean") not in frame.index and ("q", "Q|all", "kendall_w") not in frame.index
    assert "Q: Type II needs three or more systems with varying scores (3 systems)" in notes


def test_item_labels_read_only_the_criterion_they_name():
    kept = pd.DataFrame(
        [
            ("O", "Q", "rating", "i1", "a", 4),
            ("O", "F", "rating", "i1", "a", 1),
            ("R1", "Q", "rating", "i1", "a", 2),
            ("R1", "F", "rating", "i1", "a", 5),
        ],
        columns=["side", "criterion", "response_type", "item", "system", "value"],
    )
    from humeval.qra.qra3_tables import item_labels

    sides = {"O": "O", "R1": "R1"}
    labels = item_labels(kept, {"criterion": "Q", "rule": "mean"}, ["O", "R1"], sides)
    assert labels.to_dict() == {"i1|a": {"O": 4.0, "R1": 2.0}}
    both = item_labels(kept, {"criterion": "Q", "response_type": "rating", "rule": "mean"}, ["O", "R1"], sides)
    assert both.to_dict() == {"i1|a": {"O": 4.0, "R1": 2.0}}


def test_the_tools_config_and_input_for_an_entry_that_states_nothing_optional():
    config = tool_config(two_criteria_entry(), {"O": {"citation": "A 2020"}, "R1": {}}, "K")
    assert config == {
        "K": {
            "scale_starts_at": 0,
            "type_iii_agreement_method": "auto",
            "type_iii_krippendorff_alpha_mode": "ordinal",
            "experiments": {"O": "A 2020", "R1": "R1"},
            "citation": "A 2020",
            "criteria": {
                "Q": {"map": "Q", "apply_over_correction": False, "normal_data": True},
                "F": {"map": "F", "apply_over_correction": False, "normal_data": True},
            },
        }
    }
    rows = [("R1", "b", "Q", 2.0, "recomputed"), ("O", "a", "Q", 1.0, "recomputed"), ("R1", "a", "Q", 3.0, "x")]
    tool = tool_input_csv(rows, "K")
    assert tool.values.tolist() == [
        ["K", "K", "R1", "b", "Q", 2.0],
        ["K", "K", "R1", "a", "Q", 3.0],
        ["K", "K", "O", "a", "Q", 1.0],
    ]
    assert list(tool.index) == [0, 1, 2]
