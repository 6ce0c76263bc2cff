"""The resampling budget of a metrics or QRA job (humeval.resampling): every bootstrap and permutation test is
counted before it runs, at its call site's measured costs, worked out by hand here; the entries of one job share
the budget; over it, one line names the entry and the resamples that fit; a metric called alone counts nothing.
Through Snakemake: tests/test_e2e_budgets.py."""

import numpy as np
import pandas as pd
import pytest

from humeval import resampling
from humeval.errors import HumevalError
from humeval.metrics import StudyData, metrics_study
from humeval.resampling import job_budget, spend


def test_a_budget_takes_what_fits_and_names_how_many_would_when_more_are_asked():
    """1 s: 1,000 resamples of 0.5 ms leave 0.5 s; 1,000 more with 0.1 s once would take 0.6 s, and 800 fit:
    (0.5 - 0.1) / 0.0005; then nothing is left."""
    with job_budget(1.0):
        spend("resamples", 1_000, 0.0005)
        with pytest.raises(HumevalError, match=r"^resamples: 1,000 resamples .* 0\.6 s, over the 0\.5 s left of the "):
            spend("resamples", 1_000, 0.0005, once=0.1)
        spend("resamples", 800, 0.0005, once=0.1)  # exactly what is left
        with pytest.raises(HumevalError, match=r"\(fewer values, groups or entries\)$"):
            spend("n_resamples", 1, 0.0005)


def test_a_block_inside_another_spends_the_outer_one_and_none_outside_counts_nothing():
    spend("resamples", 10**9, 1.0)  # outside any job: a metric called on its own
    with job_budget(1.0):
        with job_budget(100.0):  # metrics_study inside a job that opened one already
            spend("resamples", 900, 0.001)
        with pytest.raises(HumevalError, match=r"0\.1 s left of the job's 1 s"):
            spend("resamples", 200, 0.001)
    spend("resamples", 10**9, 1.0)  # the job's budget is closed with it


def ratings(n: int) -> pd.DataFrame:
    rng = np.random.default_rng(0)
    frame = pd.DataFrame({"side": "O", "system": np.repeat(["a", "b"], n // 2), "value": rng.normal(size=n)})
    return frame.assign(criterion="c", response_type="rating", item=np.arange(n).astype(str))


def run_metrics(kept: pd.DataFrame, metrics: list[dict]):
    return metrics_study(StudyData(kept, kept, kept, kept.iloc[:0], config={"name": "s", "metrics": metrics}))


def test_an_effect_sizes_bca_interval_is_counted_with_its_jackknife_and_the_entry_named(monkeypatch):
    """BCa over 200 values, by hand: 9,999 x (5e-7 + 1.2e-8 x 200) + 3.2e-8 x 200^2 + 3e-4 x 200 = 0.0290 + 0.0628
    = 0.0918 s. Within 0.0918 s it runs; the second entry then finds nothing left and is named in one line;
    percentile intervals count no jackknife."""
    monkeypatch.setattr(
        resampling, "JOB_SECONDS", (9_999 * (5e-7 + 1.2e-8 * 200) + 3.2e-8 * 200**2 + 3e-4 * 200) * (1 + 1e-9)
    )
    entry = {"metric": "effect_size", "compare": "system", "pairs": [["a", "b"]], "row": "d"}
    entry["columns"] = {"d": "d", "low": "low", "high": "high"}
    bca = {**entry, "table": "t1", "method": "BCa"}
    assert len(run_metrics(ratings(200), [bca])) == 3
    with pytest.raises(HumevalError, match=r"^key metrics\.1 \(effect_size\): resamples: 9,999 resamples at about "):
        run_metrics(ratings(200), [bca, {**bca, "table": "t2"}])
    monkeypatch.setattr(resampling, "JOB_SECONDS", 9_999 * 2.9e-6 * (1 + 1e-9))  # the percentile interval's only
    assert len(run_metrics(ratings(200), [{**entry, "table": "t1", "method": "percentile"}])) == 3
    with pytest.raises(HumevalError, match=r"\(resamples: 9,999 or fewer\)$"):
        run_metrics(ratings(200), [{**entry, "table": "t1", "method": "percentile", "resamples": 10_000}])


def test_a_choice_bootstrap_is_counted_per_group_by_its_method(monkeypatch):
    """Bradley-Terry, 100 resamples of 40 choices: 100 x (2.5e-3 + 4.4e-6 x 40) = 0.2676 s a group; two groups
    (``by: [criterion]``) need 0.5352 s."""
    rng = np.random.default_rng(1)
    choices = pd.DataFrame(
        {
            "side": "O",
            "response_type": "pairwise",
            "system": rng.choice(list("ab"), 80),
            "system_b": rng.choice(list("cd"), 80),
            "value": rng.choice([1, -1], 80),
            "criterion": np.repeat(["x", "y"], 40),
        }
    )
    entry = {"metric": "choice_ratings", "table": "t", "method": "bradley_terry", "alpha": 0.1, "resamples": 100}
    entry |= {"by": ["criterion"], "row": "{criterion}|{system}"}
    monkeypatch.setattr(resampling, "JOB_SECONDS", 0.5352 * (1 + 1e-9))
    assert len(run_metrics(choices, [entry]))
    monkeypatch.setattr(resampling, "JOB_SECONDS", 0.5352 * (1 - 1e-9))
    with pytest.raises(HumevalError, match=r"key metrics\.0 \(choice_ratings\): resamples: 100 .*\(resamples: 99 or"):
        run_metrics(choices, [entry])


def test_a_qra_correlations_repairings_are_counted_exact_or_not_and_the_entry_named(monkeypatch):
    """Six measurands, exact: 6! = 720 re-pairings of 6e-6 + 2.5e-7 x 6 = 7.5e-6 s, 0.0054 s; above the exact
    limit (3) 9,999 Monte Carlo re-pairings, 0.0750 s. Two entries share the QRA job's budget."""
    from humeval.qra import qra_values

    values = pd.DataFrame(
        {
            "table": "t",
            "row": list("abcdef") * 2,
            "column": ["O"] * 6 + ["R1"] * 6,
            "value": [1.0, 2, 3, 4, 5, 6, 1, 3, 2, 4, 6, 5],
        }
    )
    entry = {"type": "correlation", "table": "q", "measurand_table": "t", "rows": list("abcdef")}
    entry |= {"x": {"column": "O"}, "y": {"column": "R1"}, "methods": ["spearman"]}
    monkeypatch.setattr(resampling, "JOB_SECONDS", 720 * 7.5e-6 * (1 + 1e-9))
    qra_values(values, values.iloc[:0], [entry])
    with pytest.raises(HumevalError, match=r"^key qra\.1 \(correlation\): exact_limit: 720 resamples"):
        qra_values(values, values.iloc[:0], [entry, {**entry, "table": "q2"}])
    monkeypatch.setattr(resampling, "JOB_SECONDS", 9_999 * 7.5e-6 * (1 + 1e-9))
    qra_values(values, values.iloc[:0], [{**entry, "exact_limit": 3}])
    with pytest.raises(HumevalError, match=r"^key qra\.0 \(correlation\): resamples: 10,000 .*\(resamples: 9,999 or"):
        qra_values(values, values.iloc[:0], [{**entry, "exact_limit": 3, "resamples": 10_000}])
