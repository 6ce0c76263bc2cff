"""Planning's bootstrap budget (humeval.planning.budget): a bootstrap is counted before it is drawn, by hand here;
the count of scipy evaluations a form makes per draw is the number it really makes; and a study over the budget
keeps its model rows, its bootstrap rows saying how many simulations fit."""

import numpy as np
import pandas as pd
import pytest
from planning_cases import SIGN_TEST_FINDING, SIGN_TEST_METRICS, one_comparison_each, sign_test_cells, study_data

from humeval.metrics import StudyData
from humeval.planning import budget as budget_module
from humeval.planning.budget import Budget, OverBudget, draw_seconds


def test_a_budget_takes_exactly_the_simulations_that_fit_and_names_them_when_more_are_asked():
    """0.3 s at 0.003 s a simulation (two draws of 0.001 and 0.002 s): 100 fit, 101 do not, and the advice is 100;
    what the first pilot spent is gone for the next."""
    budget = Budget(0.3)
    with pytest.raises(OverBudget, match=r"planning\.simulations: 100 or fewer, or planning\.methods: \[model\]"):
        budget.spend(101, [(0.001, 10), (0.002, 10)], "O's bootstrap")
    assert budget.left == 0.3  # refused: nothing spent
    budget.spend(50, [(0.001, 10), (0.002, 10)], "O's bootstrap")
    assert budget.left == pytest.approx(0.15)
    with pytest.raises(OverBudget, match=r"51 simulations .* 0\.15 s left .*planning\.simulations: 50 or fewer"):
        budget.spend(51, [(0.003, 10)], "R1's bootstrap")
    budget.spend(50, [(0.003, 10)], "R1's bootstrap")
    with pytest.raises(OverBudget, match=r"is not run: .*\(planning\.methods: \[model\]\)$"):
        budget.spend(1, [(0.003, 10)], "R2's bootstrap")


def test_a_bootstrap_too_wide_to_hold_is_refused_whatever_its_time():
    """20 million drawn items at once at most (the draws and their multiplicities: 320 MB): 2,001 draws of 10,000
    items are over, 2,000 fit, however cheap each draw is."""
    budget = Budget(1e9)
    with pytest.raises(OverBudget, match=r"2,001 x 10,000 drawn items is over the 20,000,000 .* 2000 or fewer"):
        budget.spend(2_001, [(1e-9, 10), (1e-9, 10_000)], "O's bootstrap")
    budget.spend(2_000, [(1e-9, 10_000), (1e-9, 10)], "O's bootstrap")


def test_a_draw_is_counted_by_its_path_judgements_items_and_scipy_calls():
    """By hand from the measured constants: one by one, 0.025 s + 6 us x 57,100 judgements = 0.3676 s; by the
    forms, 0.001 s + 0.12 us x 1,200 items + 11 ms x 2 Tukey p's = 0.023144 s."""
    assert draw_seconds(False, 57_100, 200, 0) == pytest.approx(0.3676, abs=1e-12)
    assert draw_seconds(True, 0, 1_200, 2) == pytest.approx(0.023144, abs=1e-12)


def test_a_pilots_draw_is_counted_by_the_judgements_of_the_items_it_draws():
    """400 one-shot comparisons: a draw of 200 of their items is 0.001 + 0.12 us x 200 s by the tally's form (no
    scipy call a draw: its sign test is kept per count) and, one by one, 0.025 s + 6 us x the 200 judgements those
    items hold."""
    from humeval.planning.bootstrap import Simulator

    data, cells = sign_study(10)
    expected = dict(zip(zip(cells["table"], cells["row"], cells["column"]), cells["value"]))
    simulator = Simulator(data, "O", expected)
    assert simulator.totals is not None
    assert simulator.draw_cost(200) == pytest.approx(0.001 + 1.2e-7 * 200, abs=1e-15)
    simulator.totals = None
    assert simulator.draw_cost(200) == pytest.approx(0.025 + 6e-6 * 200, abs=1e-15)


def ratings(items=6, raters=3, seed=0):
    rng = np.random.default_rng(seed)
    rows = [
        {"item": f"q{i}", "participant": f"p{r}", "system": s, "criterion": "c"}
        for i in range(items)
        for r in range(raters)
        for s in "abc"
    ]
    frame = pd.DataFrame(rows)
    frame["value"] = rng.integers(1, 6, size=len(frame)).astype(float)
    return frame.assign(side="O", response_type="likert", judgement_id=np.arange(len(frame)).astype(str))


@pytest.mark.parametrize("wanted, pairs", [(None, 3), (frozenset({("t", "a vs b", "p")}), 1)])
def test_a_tukey_form_counts_the_scipy_calls_it_makes_per_draw(monkeypatch, wanted, pairs):
    """k_sample_totals' ``calls``: Tukey's p of every pair of 3 samples, or only of the one whose cell planning
    reads, and as many studentized-range evaluations per draw as it says (counted by replacing scipy's)."""
    from humeval.metrics import significance
    from humeval.metrics.ratings_totals import k_sample_totals

    pilot = ratings()
    data = StudyData(pilot, pilot, pd.DataFrame(), pd.DataFrame(), config={"name": "s"}, wanted=wanted)
    form = k_sample_totals(data, table="t", tests=["anova", "tukey"], order="printed")
    assert form.calls == pairs
    counted = []
    monkeypatch.setattr(significance, "studentized_range_sf", lambda q, k, df: counted.append(q) or 0.5)
    draws = np.random.default_rng(1).integers(1, 3, size=(7, len(form.items))).astype(float)  # every item, 1-2x
    form.values(draws)
    assert len(counted) == 7 * pairs


def sign_study(simulations: int):
    values = np.where(np.random.default_rng(5).random(400) < 0.6, 1, -1)
    data = study_data(
        one_comparison_each(values),
        SIGN_TEST_METRICS,
        SIGN_TEST_FINDING,
        {"simulations": simulations, "seed": 2, "methods": ["bootstrap", "model"]},
    )
    wins = int((values > 0).sum())
    from scipy.stats import binomtest

    return data, sign_test_cells(wins, 400, binomtest(wins, 400).pvalue)


def test_a_study_over_the_bootstrap_budget_keeps_its_model_and_says_how_many_simulations_fit(monkeypatch):
    """A pilot of 400 one-shot comparisons (items only) is bootstrapped at 200 and 400 items and made null at 400:
    per simulation 3 x 0.001 s + 0.12 us x (200 + 400 + 400) items = 0.00312 s, so a budget of 0.3 s fits 96
    simulations (96.15). Its finding's safeguard basis, drawn after, at 200 and 400 items (0.002072 s a
    simulation), then finds 0.3 - 96 x 0.00312 = 0.00048 s left and says so. At 97 the bootstrap's rows say so and what to write; the
    other rows are those of a budget that covers it."""
    from humeval.planning.plan import plan_study

    monkeypatch.setattr(budget_module, "BOOTSTRAP_SECONDS", 0.3)
    within = plan_study(*sign_study(96))
    boot = within[within["method"] == "bootstrap"].set_index("basis")
    assert len(boot.loc[["observed"]]) == 2 and boot.loc["observed", "power"].notna().all()
    assert boot.loc["observed", "paper_null_rate"].notna().any()
    assert (
        boot.loc["safeguard", "note"]
        .str.fullmatch(
            r"the safeguard basis of F1 is not run: 96 simulations at about 0\.00207 s each \(counted, not timed\) would "
            r"take 0\.199 s, over the 0\.00048 s left of the job's 0\.3 s for bootstraps \(planning\.methods: \[model\]\)"
        )
        .all()
    ), boot.loc["safeguard", "note"].tolist()
    over = plan_study(*sign_study(97))
    boot = over[over["method"] == "bootstrap"]
    assert len(boot) and boot["power"].isna().all()
    assert (
        boot["note"]
        .str.fullmatch(
            r"the bootstrap of O is not run: 97 simulations at about 0\.00312 s each \(counted, not timed\) would take "
            r"0\.303 s, over the 0\.3 s left of the job's 0\.3 s for bootstraps \(planning\.simulations: 96 or fewer, or "
            r"planning\.methods: \[model\]\)"
        )
        .all()
    ), boot["note"].tolist()
    monkeypatch.setattr(budget_module, "BOOTSTRAP_SECONDS", 1e9)
    covered = plan_study(*sign_study(97))
    assert covered.loc[covered["method"] == "bootstrap", "power"].notna().all()
    others, theirs = over[over["method"] != "bootstrap"], covered[covered["method"] != "bootstrap"]
    assert len(others)  # the model's row: it does not simulate pairwise_tally, and says so, as with any budget
    others, theirs = others.reset_index(drop=True), theirs.reset_index(drop=True)
    pd.testing.assert_frame_equal(others, theirs, check_dtype=False)  # caveat: all empty here, strings there


def effect_size_study(simulations: int):
    """20 raters x 10 items x systems A and B (400 ratings, B about 0.5 higher), a finding that B's Cohen's d over
    A is positive, its interval by 9,999 resamples: no item-totals form, so each draw runs the metric."""
    rng = np.random.default_rng(3)
    rows = [{"participant": f"p{r}", "item": f"i{i}", "system": s} for r in range(20) for i in range(10) for s in "AB"]
    frame = pd.DataFrame(rows)
    frame["value"] = rng.normal(size=len(frame)) + 0.5 * (frame["system"] == "B")
    frame = frame.assign(
        side="O", criterion="c", response_type="likert", judgement_id=np.arange(len(frame)).astype(str)
    )
    metric = {
        "metric": "effect_size",
        "table": "d",
        "compare": "system",
        "pairs": [["B", "A"]],
        "by": ["side"],
        "row": "{side}",
        "columns": {"d": "d", "low": "low", "high": "high"},
    }
    finding = {
        "id": "F1",
        "text": "B is rated higher than A (Cohen's d > 0)",
        "comparisons": [{"left": {"table": "d", "row": "{side}", "column": "d"}, "op": ">", "right": 0}],
    }
    planning = {"simulations": simulations, "seed": 2, "methods": ["bootstrap"], "evaluators": [20], "items": [10]}
    return study_data(frame, [metric], finding, planning)


def test_a_draw_run_one_by_one_counts_the_resampling_of_its_metrics():
    """By hand: the pilot's effect size counts 9,999 resamples at 5e-7 + 1.2e-8 x 400 values s each (0.0529947
    s); a draw of the pilot's 10 items pays it once more, 0.025 + 6 us x 400 judgements + 0.0529947 s; a draw of
    20 items (twice the values) four times it, BCa's jackknife being n^2."""
    from humeval.metrics import metrics_study
    from humeval.planning.bootstrap import Simulator

    data = effect_size_study(10)
    cells = metrics_study(data)
    simulator = Simulator(data, "O", {("d", "O", "d"): float(cells["value"].iloc[0])})
    assert simulator.totals is None
    assert simulator.resampling == pytest.approx(9_999 * (5e-7 + 1.2e-8 * 400), rel=1e-12)
    assert simulator.draw_cost(10) == pytest.approx(0.025 + 6e-6 * 400 + 0.0529947, rel=1e-12)
    assert simulator.draw_cost(20) == pytest.approx(0.025 + 6e-6 * 800 + 4 * 0.0529947, rel=1e-12)


def test_a_bootstrap_whose_metrics_resample_in_every_draw_is_bounded_across_its_draws():
    """A simulation is a draw of the pilot's 10 items (0.0803947 s, above) and one of 10 of its null pilot's 20
    (800 ratings: 0.025 + 6 us x 400 + half of 9,999 x (5e-7 + 1.2e-8 x 800) = 0.0778950 s): 400 of them count
    63.3 s, over the job's 30 s, so the bootstrap is not run, and its row says so and that 189 fit. Before, the
    metric's 9,999 resamples a draw were left out of the count (11 s), and the draws ran for about as long again."""
    from humeval.metrics import metrics_study
    from humeval.planning.plan import plan_study

    data = effect_size_study(400)
    rows = plan_study(data, metrics_study(data))
    boot = rows[rows["method"] == "bootstrap"]
    assert len(boot) and boot["power"].isna().all(), boot[["basis", "power", "note"]]
    assert (
        boot["note"]
        .str.contains(
            r"400 simulations at about 0\.158 s each .* would take 63\.3 s, .*\(planning\.simulations: 189 or fewer"
        )
        .all()
    ), boot["note"].tolist()
