"""Generic metrics on tiny hand-computed data: describe (share), significance (correction, Wilcoxon),
kappa and ICC by group."""

import itertools

import numpy as np
import pandas as pd
import pytest
from helpers import REPO, trueskill_in_order

from humeval.metrics import StudyData
from humeval.metrics.agreement import kappa_by_group_numbers
from humeval.metrics.descriptive import describe_numbers
from humeval.metrics.designs.icc import icc_by_group_numbers
from humeval.metrics.significance import significance_numbers


def data(rows):
    kept = pd.DataFrame(rows, columns=["side", "participant", "item", "system", "criterion", "value"])
    kept["judgement_id"] = [f"j{k}" for k in range(len(kept))]
    return StudyData(kept=kept, tidy=kept, participants=pd.DataFrame(), exclusions=pd.DataFrame())


#: Raters p1, p2 on items i1, i2 of systems A and B: A 5, 4, 4, 3 and B 2, 1, 3, 2 (p1 i1, p2 i1, p1 i2, p2 i2).
RATINGS = data(
    [
        ("O", p, i, s, "q", v)
        for (s, i, p), v in zip(itertools.product("AB", ["i1", "i2"], ["p1", "p2"]), [5, 4, 4, 3, 2, 1, 3, 2])
    ]
)


#: A comparison of system A with system B into table ``t``.
A_VS_B = {"table": "t", "compare": "system", "pairs": [["A", "B"]]}


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
        RATINGS, **A_VS_B, row="x", tests=[{"test": "wilcoxon", "columns": {"statistic": "W"}}]
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
        **A_VS_B,
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


def test_describe_sum_min_max_and_a_zero_count_for_an_empty_group():
    out = describe_numbers(
        RATINGS,
        table="t",
        by=["system", "criterion"],
        row="{system}",
        column="{stat}",
        stats=["sum", "min", "max", "n"],
        where={"system": "A"},
        complete=True,
    )
    # A: 5 + 4 + 4 + 3 = 16, min 3, max 5; B is filtered out: a zero count and a zero sum, min and max empty
    assert (cell(out, "A", "sum"), cell(out, "A", "min"), cell(out, "A", "max")) == (16, 3, 5)
    assert cell(out, "B", "n") == 0 and cell(out, "B", "sum") == 0 and pd.isna(cell(out, "B", "min"))


def pairwise_data(rows):
    kept = pd.DataFrame(rows, columns=["item", "participant", "system", "system_b", "value"])
    kept = kept.assign(
        side="O", criterion="q", response_type="pairwise", judgement_id=[f"j{k}" for k in range(len(kept))]
    )
    return StudyData(kept=kept, tidy=kept, participants=pd.DataFrame(), exclusions=pd.DataFrame())


PAIRS = pairwise_data(
    [
        ("i1", "p1", "A", "B", 1),
        ("i1", "p2", "A", "B", 1),
        ("i1", "p3", "A", "B", -1),
        ("i2", "p1", "B", "C", 0),
        ("i2", "p2", "B", "C", -1),
        ("i2", "p3", "B", "C", -1),
        ("i3", "p1", "C", "A", 1),
        ("i3", "p2", "C", "A", -1),
        ("i3", "p3", "C", "A", 0),
    ]
)


def test_pairwise_tally_over_both_positions_with_and_without_a_majority_vote():
    from humeval.metrics.pairwise import pairwise_tally_numbers

    every = pairwise_tally_numbers(PAIRS, table="t")
    # A: i1 wins 2 loses 1; i3 (as system_b) C wins once, A wins once, one tie -> A 3 wins, 2 losses, 1 tie, n 6
    assert [cell(every, "A", s) for s in ("wins", "losses", "ties", "n")] == [3, 2, 1, 6]
    assert cell(every, "A", "win_pct") == pytest.approx(50.0)
    assert cell(every, "A", "bws") == pytest.approx(100 * (3 - 2) / 6)
    assert cell(every, "A", "bws_scaled") == pytest.approx((100 / 6 + 100) / 2)
    voted = pairwise_tally_numbers(PAIRS, table="t", majority=True)
    # majorities: i1 A > B; i2 sum -2: C > B; i3 sum 0: tie C = A
    assert [cell(voted, "A", s) for s in ("wins", "losses", "ties")] == [1, 0, 1]
    assert [cell(voted, "B", s) for s in ("wins", "losses", "ties")] == [0, 2, 0]
    assert cell(voted, "C", "bws") == pytest.approx(100 * (1 - 0) / 2)


def test_k_sample_tests_against_scipy_by_hand():
    from humeval.metrics.significance import k_sample_numbers

    rows = [
        ("O", f"p{k}", "i", s, "q", v)
        for s, values in {"A": [1, 2, 3], "B": [2, 3, 4], "C": [6, 7, 8]}.items()
        for k, v in enumerate(values)
    ]
    out = k_sample_numbers(data(rows), table="t", tests=["anova", "kruskal", "levene", "tukey"])
    # ANOVA: group means 2, 3, 7, grand mean 4; SSB = 3(4 + 1 + 9) = 42, SSW = 3 * 2 = 6; F = (42/2) / (6/6) = 21
    assert cell(out, "anova", "statistic") == pytest.approx(21.0)
    assert cell(out, "anova", "p") == pytest.approx(0.001953125, rel=1e-6)  # F(2, 6) tail at 21: 1 / 512
    assert cell(out, "levene", "statistic") == pytest.approx(0.0)  # equal spreads
    assert cell(out, "A vs C", "diff") == pytest.approx(-5.0) and cell(out, "A vs C", "p") < 0.01
    assert cell(out, "A vs B", "p") > 0.3
    # Kruskal-Wallis: ranks A 1, 2, 3.5; B 2.. -> H from scipy with the tie correction; checked against its definition
    from scipy import stats

    assert cell(out, "kruskal", "statistic") == pytest.approx(stats.kruskal([1, 2, 3], [2, 3, 4], [6, 7, 8]).statistic)


def test_percentage_and_majority_agreement_by_hand():
    from humeval.metrics.agreement import percent_agreement_numbers

    rows = [
        ("O", p, i, "A", "q", v)
        for i, p, v in [("i1", "p1", 1), ("i1", "p2", 1), ("i1", "p3", 2), ("i2", "p1", 3), ("i2", "p2", 3)]
    ]
    out = percent_agreement_numbers(data(rows), table="t", units=["item", "system"], row="all")
    # i1: pairs (1,1) agree, (1,2) x2 disagree -> 1 of 3; i2: 1 of 1 -> 2 of 4 = 50%; majority: 2 + 2 of 5 = 80%
    assert cell(out, "all", "pairwise") == pytest.approx(50.0) and cell(out, "all", "majority") == pytest.approx(80.0)


def test_item_level_cv_star_between_experiments_summarised_per_system():
    from humeval.cv_star import cv_star
    from humeval.metrics.item_cv_star import item_cv_star_numbers

    rows = [
        (side, p, item, "A", "q", v)
        for side, item, values in [
            ("O", "i1", [4, 4]),
            ("R1", "i1", [3, 3]),
            ("O", "i2", [2, 4]),
            ("R1", "i2", [3, 3]),
            ("O", "i3", [5, 5]),
        ]
        for p, v in zip(["p1", "p2"], values)
    ]
    out = item_cv_star_numbers(data(rows), table="t", sides=["O", "R1"])
    # i1: means 4 and 3; i2: 3 and 3 (CV* 0); i3 has no R1 score: left out
    i1 = (1 + 1 / 8) * (2**-0.5) / (2 / 3.141592653589793) ** 0.5 / 3.5 * 100
    assert cv_star([4, 3]) == pytest.approx(i1)
    assert cell(out, "A", "n") == 2 and cell(out, "A", "mean") == pytest.approx(i1 / 2)
    assert cell(out, "A", "median") == pytest.approx(i1 / 2) and cell(out, "A", "sd") == pytest.approx(i1 / 2**0.5)


def test_a_column_typo_is_one_line_naming_the_key_before_the_metric_runs():
    from dataclasses import replace

    from humeval.errors import HumevalError
    from humeval.metrics import metrics_study

    entry = {"metric": "percent_agreement", "table": "t", "units": ["itme", "system"], "row": "all"}
    with pytest.raises(
        HumevalError, match=r"^key metrics\.0\.units: no column 'itme' in the judgements; did you mean 'item'\?"
    ):
        metrics_study(replace(RATINGS, config={"metrics": [entry]}))
    entry = {"metric": "k_sample_tests", "table": "t", "tests": ["anova"], "group": "sytem"}
    with pytest.raises(HumevalError, match=r"^key metrics\.0\.group: no column 'sytem'.*did you mean 'system'\?"):
        metrics_study(replace(RATINGS, config={"metrics": [entry]}))
    entry = {
        "metric": "describe",
        "table": "t",
        "by": ["system"],
        "row": "{system}",
        "column": "{stat}",
        "where": {"side": "R9"},
    }
    with pytest.raises(HumevalError, match=r"^key metrics\.0 \(describe\): where side: \['R9'\] matches no judgement"):
        metrics_study(replace(RATINGS, config={"metrics": [entry]}))


def test_pairwise_tally_raw_score_and_shares_as_proportions():
    from humeval.metrics.pairwise import pairwise_tally_numbers

    out = pairwise_tally_numbers(PAIRS, table="t", stats=["score", "win_pct", "bws"], scale="proportion")
    # A: 3 wins, 2 losses, 1 tie (as above): score 1, win share 0.5, best-worst (3 - 2) / 6
    assert cell(out, "A", "score") == 1 and cell(out, "A", "win_pct") == pytest.approx(0.5)
    assert cell(out, "A", "bws") == pytest.approx(1 / 6)


def test_tukey_pairs_in_the_printed_order_equal_statsmodels_pairwise_tukeyhsd():
    from statsmodels.stats.multicomp import pairwise_tukeyhsd

    from humeval.metrics.significance import k_sample_numbers

    values = {"zeta": [5, 6, 7, 6], "alpha": [3, 4, 4, 5], "mid": [4, 5, 5, 6]}  # first-appearance order: zeta first
    rows = [("O", f"p{k}", f"i{k}", s, "q", v) for s, vs in values.items() for k, v in enumerate(vs)]
    printed = k_sample_numbers(data(rows), table="t", tests=["tukey"], order="printed")
    reference = pairwise_tukeyhsd([v for vs in values.values() for v in vs], [s for s in values for _ in range(4)])
    table = reference.summary().data[1:]  # group1, group2, meandiff, p-adj, lower, upper, reject
    assert len(table) == 3
    for group1, group2, diff, p, low, high, _ in table:
        pair = f"{group1} vs {group2}"
        assert cell(printed, pair, "diff") == pytest.approx(diff, abs=1e-4)
        assert cell(printed, pair, "p") == pytest.approx(p, abs=1e-4)
        assert (cell(printed, pair, "ci_low"), cell(printed, pair, "ci_high")) == pytest.approx((low, high), abs=1e-3)
    first = k_sample_numbers(data(rows), table="t", tests=["tukey"])  # the documented default: a - b, first order
    assert cell(first, "zeta vs alpha", "diff") == pytest.approx(2.0)
    listed = k_sample_numbers(data(rows), table="t", tests=["tukey"], order=["mid", "zeta", "alpha"])
    assert cell(listed, "mid vs zeta", "diff") == pytest.approx(-1.0)


def test_percent_agreement_strict_majority_restricted_answers_and_proportions():
    from humeval.metrics.agreement import percent_agreement_numbers

    rows = [
        ("O", p, i, "A", "q", v)
        for i, p, v in [("i1", "p1", 1), ("i1", "p2", 1), ("i1", "p3", 0), ("i2", "p1", 0), ("i2", "p2", 0)]
        + [("i3", "p1", 1), ("i3", "p2", -1)]
    ]
    every = percent_agreement_numbers(data(rows), table="t", units=["item"], row="all", stats=["pairwise", "majority"])
    # pairs: i1 1 of 3, i2 1 of 1, i3 0 of 1 -> 2 / 5; majority: i1 2, i2 2, i3 both tied -> 6 of 7
    assert cell(every, "all", "pairwise") == pytest.approx(40.0) and cell(every, "all", "majority") == pytest.approx(
        600 / 7
    )
    strict = percent_agreement_numbers(data(rows), table="t", units=["item"], row="all", ties="none")
    assert cell(strict, "all", "majority") == pytest.approx(400 / 7)  # i3 has no majority
    no_ties = percent_agreement_numbers(
        data(rows), table="t", units=["item"], row="all", agree_on=[1, -1], scale="proportion"
    )
    # 0 (no preference) never agrees: pairs i1 1 of 3, i2 0 of 1, i3 0 -> 1 / 5; majority i1 2, i3 2 (tied) -> 4 / 7
    assert cell(no_ties, "all", "pairwise") == pytest.approx(0.2) and cell(no_ties, "all", "majority") == pytest.approx(
        4 / 7
    )


PAIRWISE_INPUTS = StudyData(
    kept=(
        frame := pd.DataFrame(
            [  # participant (a HIT worker), input, system, system_b, value (+1 system preferred, -1 system_b, 0 tie)
                ("w1", "in1", "A", "B", 1),
                ("w2", "in1", "A", "C", 1),
                ("w1", "in1", "B", "C", 0),
                ("w3", "in2", "A", "B", -1),
                ("w3", "in2", "A", "C", 1),
                ("w1", "in2", "B", "C", 1),
                ("w2", "in3", "A", "B", 1),
                ("w2", "in3", "A", "C", 0),
                ("w1", "in3", "C", "B", 1),
            ],
            columns=["participant", "item", "system", "system_b", "value"],
        ).assign(side="O", criterion="q", response_type="pairwise", judgement_id=lambda f: "j" + f.index.astype(str))
    ),
    tidy=frame,
    participants=pd.DataFrame(),
    exclusions=pd.DataFrame(),
)


def test_a_metric_over_a_derived_frame_each_inputs_wins_minus_losses_then_anova():
    from dataclasses import replace

    from scipy import stats

    from humeval.metrics import metrics_study

    config = {
        "derived": [
            {"id": "input_scores", "by": ["item", "system"], "reduce": "pairwise_score"},
            {"id": "hits", "by": ["participant"], "reduce": "count_distinct", "of": "judgement_id"},
            {"id": "ties", "by": ["system"], "reduce": "tie_share"},
        ],
        "metrics": [
            {"metric": "k_sample_tests", "table": "t", "frame": "input_scores", "tests": ["anova"]},
            {
                "metric": "describe",
                "table": "w",
                "frame": "hits",
                "by": [],
                "row": "workers",
                "column": "{stat}",
                "stats": ["mean", "min", "max"],
            },
            {
                "metric": "describe",
                "table": "ties",
                "frame": "ties",
                "by": ["system"],
                "row": "{system}",
                "column": "share",
                "stats": ["mean"],
            },
        ],
    }
    out = metrics_study(replace(PAIRWISE_INPUTS, config=config))
    # wins - losses per input: in1 A +2, B -1, C -1; in2 A 0, B +2, C -2; in3 A +1, B -2, C +1 (a tie counts 0)
    scores = {"A": [2, 0, 1], "B": [-1, 2, -2], "C": [-1, -2, 1]}
    assert cell(out[out["table"] == "t"], "anova", "statistic") == pytest.approx(
        stats.f_oneway(*scores.values()).statistic
    )
    # HITs (judgements) per worker: w1 4, w2 3, w3 2
    workers = out[out["table"] == "w"]
    assert [cell(workers, "workers", s) for s in ("mean", "min", "max")] == pytest.approx([3.0, 2.0, 4.0])
    # ties: A 1 of 6 comparisons, B 1 of 6, C 2 of 6
    ties = out[out["table"] == "ties"]
    assert [cell(ties, s, "share") for s in "ABC"] == pytest.approx([1 / 6, 1 / 6, 2 / 6])


TOY_PAIRS = REPO / ".test/raw/github/example-owner/every-measure/1111111111111111111111111111111111111111/pairs.csv"


def toy_pairwise_data():
    raw = pd.read_csv(TOY_PAIRS)
    kept = pd.DataFrame(
        {
            "side": "P",
            "participant": raw["rater"],
            "item": raw["item"],
            "system": raw["system_a"],
            "system_b": raw["system_b"],
            "criterion": "preference",
            "response_type": "pairwise",
            "value": raw["choice"].map({"a": 1, "b": -1, "tie": 0}),
            "judgement_id": [f"j{k}" for k in range(len(raw))],
        }
    )
    return raw, StudyData(kept=kept, tidy=kept, participants=pd.DataFrame(), exclusions=pd.DataFrame())


def test_trueskill_ratings_equal_the_trueskill_package_run_on_the_raw_file_in_its_order():
    from humeval.metrics.choice_ratings import choice_rating_numbers

    raw, study = toy_pairwise_data()
    out = choice_rating_numbers(study, table="t", method="trueskill")
    ratings = trueskill_in_order(raw)  # the file's order, one update per choice
    assert set(ratings) == set("ABC")
    for system, rating in ratings.items():
        assert cell(out, system, "mu") == pytest.approx(rating.mu, abs=1e-12)
        assert cell(out, system, "sigma") == pytest.approx(rating.sigma, abs=1e-12)
    shuffled = choice_rating_numbers(study, table="t", method="trueskill", order="shuffled", seed=7)
    assert shuffled.equals(choice_rating_numbers(study, table="t", method="trueskill", order="shuffled", seed=7))
    assert not shuffled["value"].equals(out["value"])  # the order of updates matters, so it is stated


def test_the_notebooks_bootstrap_is_sklearn_resample_under_random_seed_and_skips_what_it_cannot_read():
    """``resampler: seeded_resample`` draws what TrueSkill.ipynb draws (Python's random.seed, one seed per resample
    from random.sample, sklearn.utils.resample with that seed), and ``ties: skip`` rates each resample as the
    notebook's loop does, calling trueskill.rate_1vs1 only for the choices it can read: the interval equals the
    package's on the same resamples."""
    import random

    from sklearn.utils import resample

    from humeval.metrics.choice_ratings import resample_rows

    raw, study = toy_pairwise_data()
    random.seed(42069)
    seeds = random.sample(range(1000000000), 40)
    expected = [resample(list(range(len(raw))), replace=True, n_samples=len(raw), random_state=s) for s in seeds]
    assert resample_rows(len(raw), 40, 42069, "seeded_resample").tolist() == expected
    mus = {s: [] for s in "ABC"}
    for rows in expected:
        readable = raw.iloc[rows]
        readable = readable[readable["choice"] != "tie"]  # the notebook's 'error' records: drawn, not rated
        for system, rating in trueskill_in_order(readable).items():
            mus[system].append(rating.mu)
    out = choice_rating_numbers_cells(study, resamples=40, resampler="seeded_resample", ties="skip", seed=42069)
    for system, values in mus.items():
        assert out[(system, "mu_low")] == pytest.approx(np.percentile(values, 2.5), abs=1e-12)
        assert out[(system, "mu_high")] == pytest.approx(np.percentile(values, 97.5), abs=1e-12)
    skipped = choice_rating_numbers_cells(study, ties="skip")
    no_ties = trueskill_in_order(raw[raw["choice"] != "tie"])
    assert skipped[("A", "mu")] == pytest.approx(no_ties["A"].mu, abs=1e-12)


def choice_rating_numbers_cells(study, **params) -> dict:
    from humeval.metrics.choice_ratings import choice_rating_numbers

    out = choice_rating_numbers(study, table="t", method="trueskill", **params)
    return out.set_index(["row", "column"])["value"].to_dict()


def test_bradley_terry_strengths_solve_the_likelihood_equations_on_the_raw_file():
    from humeval.metrics.choice_ratings import choice_rating_numbers

    _, study = toy_pairwise_data()
    out = choice_rating_numbers(study, table="t", method="bradley_terry")
    p = {s: cell(out, s, "strength") for s in "ABC"}
    assert sum(p.values()) == pytest.approx(1.0)
    # the maximum-likelihood equations: each system's wins = sum over its decided comparisons of p_s / (p_s + p_t)
    # decided (ties left out): A>B 2, B>A 1, B>C 2, A>C 2, C>A 1
    comparisons = {("A", "B"): (2, 1), ("B", "C"): (2, 0), ("A", "C"): (2, 1)}
    for s in "ABC":
        wins = sum(w if a == s else l for (a, b), (w, l) in comparisons.items() if s in (a, b))
        expected = sum((w + l) * p[s] / (p[a] + p[b]) for (a, b), (w, l) in comparisons.items() if s in (a, b))
        assert wins == pytest.approx(expected, abs=1e-6)


def test_a_yaml_number_against_a_text_column_spelled_otherwise_is_one_line_not_a_silent_selection():
    """``where: {item: 010}`` is ten in YAML 1.2; against an export whose items are the texts "010" and "10" it
    selected item "10" without a word (issue 52). Now: one line saying to quote it; a quoted value selects its
    rows; a number whose text is the only spelling still selects."""
    from humeval.errors import HumevalError
    from humeval.metrics import filter_where

    frame = pd.DataFrame({"item": ["010", "10", "11", "11"], "value": [1, 2, 3, 4]})
    with pytest.raises(HumevalError, match=r"where item: 10 is a number .* '010' .* quote the value"):
        filter_where(frame, {"item": 10}, frame)
    assert filter_where(frame, {"item": "010"}, frame)["value"].tolist() == [1]
    assert filter_where(frame, {"item": 11}, frame)["value"].tolist() == [3, 4]
    assert filter_where(frame, {"item": [11, "10"]}, frame)["value"].tolist() == [2, 3, 4]


def test_the_bootstrap_rated_in_blocks_of_resamples_equals_it_rated_at_once(monkeypatch):
    """TrueSkill's bootstrap rates a block of resamples at a time, so that memory stays bounded whatever the number
    of choices: blocks of 7 of 40 resamples (the last one short) give the interval of all 40 at once."""
    from humeval.metrics import choice_ratings

    raw, study = toy_pairwise_data()
    at_once = choice_rating_numbers_cells(study, resamples=40, seed=3)
    monkeypatch.setattr(choice_ratings, "RESAMPLED_CHOICES_PER_BLOCK", 7 * len(raw))
    assert choice_rating_numbers_cells(study, resamples=40, seed=3) == at_once
