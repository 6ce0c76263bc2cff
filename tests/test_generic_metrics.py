"""Generic metrics on tiny hand-computed data: describe (share), significance (correction, Wilcoxon),
kappa and ICC by group."""

import pandas as pd
import pytest

from humeval.metrics import StudyData
from humeval.metrics.agreement import kappa_by_group_numbers
from humeval.metrics.descriptive import describe_numbers
from humeval.metrics.significance import significance_numbers
from humeval.metrics.surveys import icc_by_group_numbers


def data(rows):
    kept = pd.DataFrame(rows, columns=["side", "participant", "item", "system", "criterion", "value"])
    kept["judgement_id"] = [f"j{k}" for k in range(len(kept))]
    return StudyData(kept=kept, tidy=kept, participants=pd.DataFrame(), exclusions=pd.DataFrame())


RATINGS = data(
    [
        ("O", p, i, s, "q", v)
        for p, i, s, v in [
            ("p1", "i1", "A", 5),
            ("p2", "i1", "A", 4),
            ("p1", "i2", "A", 4),
            ("p2", "i2", "A", 3),
            ("p1", "i1", "B", 2),
            ("p2", "i1", "B", 1),
            ("p1", "i2", "B", 3),
            ("p2", "i2", "B", 2),
        ]
    ]
)


def cell(frame, row, column):
    return frame.set_index(["row", "column"]).loc[(row, column), "value"]


def test_describe_share_of_top_two_points():
    out = describe_numbers(
        RATINGS, table="t", by=["system"], row="{system}", column="{stat}", stats=["share", "n"], share_of=[4, 5]
    )
    assert cell(out, "A", "share") == 0.75 and cell(out, "B", "share") == 0.0 and cell(out, "A", "n") == 4


def test_wilcoxon_pairs_on_items_and_holm_corrects_over_pairs():
    out = significance_numbers(
        RATINGS,
        table="t",
        compare="system",
        pairs=[["A", "B"], ["B", "A"]],
        row="{a}-{b}",
        tests=[{"test": "student_t", "columns": {"p": "p"}, "correction": "holm", "corrected_column": "p_holm"}],
    )
    p = cell(out, "A-B", "p")
    assert cell(out, "B-A", "p") == pytest.approx(p)
    assert cell(out, "A-B", "p_holm") == pytest.approx(min(1.0, 2 * p))  # two equal p-values: Holm = 2p
    paired = significance_numbers(
        RATINGS,
        table="t",
        compare="system",
        pairs=[["A", "B"]],
        row="x",
        tests=[{"test": "wilcoxon", "columns": {"statistic": "W"}}],
    )
    assert cell(paired, "x", "W") == 0.0  # item means A: 4.5, 3.5; B: 1.5, 2.5: both differences positive


def test_kappa_and_icc_by_group():
    k = kappa_by_group_numbers(RATINGS, table="t", by=["system"], row="{system}", column="kappa", method="cohen")
    # A: pairs (5,4), (4,3): no agreement; categories 3,4,5; po = 0, pe = (1/2*0 + 1/2*1/2 + 0) = 0.25 -> -1/3
    assert cell(k, "A", "kappa") == pytest.approx(-1 / 3)
    scores = {"i1": [5, 4, 5], "i2": [3, 3, 2], "i3": [4, 4, 4], "i4": [1, 2, 1]}
    rows = [("O", f"p{k}", i, "A", "q", v) for i, vs in scores.items() for k, v in enumerate(vs)]
    icc = icc_by_group_numbers(data(rows), table="t", by=["criterion"], row="{icc}", column="{criterion}")
    import pingouin

    frame = pd.DataFrame(rows, columns=["side", "participant", "item", "system", "criterion", "value"])
    expected = pingouin.intraclass_corr(frame, targets="item", raters="participant", ratings="value").set_index("Type")
    assert cell(icc, "ICC-C", "q") == pytest.approx(expected.loc["ICC(C,k)", "ICC"])
    assert cell(icc, "ICC-A", "q") == pytest.approx(expected.loc["ICC(A,k)", "ICC"])
    assert 0 <= cell(icc, "ICC-A|p", "q") < 0.01


def test_effect_size_d_by_hand_and_a_seeded_bootstrap_ci():
    from humeval.metrics.effect_size import effect_size_numbers

    out = effect_size_numbers(
        RATINGS,
        table="t",
        compare="system",
        pairs=[["A", "B"]],
        row="{a}-{b}",
        columns={"d": "d", "low": "lo", "high": "hi"},
        resamples=999,
    )
    # A 5,4,4,3 (mean 4, var 2/3); B 2,1,3,2 (mean 2, var 2/3): d = 2 / sqrt(2/3) = 2.4495
    assert cell(out, "A-B", "d") == pytest.approx(2 / (2 / 3) ** 0.5)
    assert cell(out, "A-B", "lo") < cell(out, "A-B", "d") < cell(out, "A-B", "hi")
    again = effect_size_numbers(
        RATINGS, table="t", compare="system", pairs=[["A", "B"]], row="{a}-{b}", columns={"low": "lo"}, resamples=999
    )
    assert cell(again, "A-B", "lo") == cell(out, "A-B", "lo")  # seeded


def test_tabular_loader_melts_one_column_per_system(tmp_path):
    from humeval.loaders.tabular import load

    path = tmp_path / "wide.csv"
    path.write_text("rater,item,quality_sysA,quality_sysB\nr1,i1,4,2\nr2,i1,5,\n")
    judgements, participants = load(
        {"ratings": str(path)},
        {
            "shape": "melt",
            "participant": "rater",
            "item": ["item"],
            "columns": r"^(?P<criterion>\w+)_(?P<system>sys\w)$",
        },
        study="s",
        side="O",
    )
    assert sorted(zip(judgements["system"], judgements["value"].fillna(-1))) == [
        ("sysA", 4.0),
        ("sysA", 5.0),
        ("sysB", -1.0),
        ("sysB", 2.0),
    ]
    assert set(judgements["criterion"]) == {"quality"} and len(participants) == 2
