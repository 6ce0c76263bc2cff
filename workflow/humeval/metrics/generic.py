"""Generic metrics that ReproHum reproductions print, composed by ``by``, ``where`` and label templates like
``describe``: pairwise tallies with best-worst scores, tests across k systems (scipy), percentage and majority
agreement, and item-level CV* between experiments.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from humeval.errors import HumevalError
from humeval.metrics import StudyData, groups_of, render, value_frame
from humeval.metrics.tally import TALLY_STATS, pairwise_tally
from humeval.vocabulary import register


@register("metric", "pairwise_tally")
def pairwise_tally_numbers(
    data: StudyData,
    *,
    table: str,
    row: str = "{system}",
    column: str = "{stat}",
    stats: list[str] = TALLY_STATS,
    by: list[str] = (),
    majority: bool = False,
    labels: dict | None = None,
    where: dict | None = None,
    frame: str = "kept",
    variant: str | None = None,
) -> pd.DataFrame:
    """Wins, losses, ties, win % and best-worst scores per system (:func:`pairwise_tally`) from the pairwise
    judgements, per group of ``by`` (e.g. criterion, side). With ``majority: true`` each item's judgements are
    first reduced to their majority vote (sign of the sum), one comparison per item; else every judgement
    counts. Templates over the ``by`` keys, ``{system}`` and ``{stat}``."""
    from humeval.metrics.pairwise import majority_vote

    unknown = [s for s in stats if s not in TALLY_STATS]
    if unknown:
        raise HumevalError(f"metric pairwise_tally: unknown statistic(s) {unknown}; known: {list(TALLY_STATS)}")
    rows = data.rows(frame, variant, where)
    rows = rows[rows["response_type"] == "pairwise"]
    out = []
    for keys, group in groups_of(rows, by):
        pairs = majority_vote(group).rename(columns={"vote": "value"}) if majority else group
        tally = pairwise_tally(pairs)
        for system, record in tally.iterrows():
            for stat in stats:
                fields = {**keys, "system": system, "stat": stat}
                out.append((render(row, fields, labels), render(column, fields, labels), float(record[stat])))
    return value_frame(table, out)


K_SAMPLE_TESTS = ("anova", "kruskal", "levene", "tukey")


def k_sample_tests(samples: dict[str, np.ndarray], tests: list[str]) -> list[tuple[str, str, float]]:
    """(test, stat, value) of tests across the k groups in ``samples`` (scipy.stats): ``anova`` (one-way,
    ``f_oneway``: statistic F, df_between, df_within, p), ``kruskal`` (H, p), ``levene`` (W, p; centre median)
    and ``tukey`` (``tukey_hsd``: per pair ``<a> vs <b>``, the mean difference a - b, p and the 95% interval).

    >>> out = dict(((t, s), v) for t, s, v in k_sample_tests({"a": [1, 2, 3], "b": [2, 3, 4], "c": [6, 7, 8]},
    ...                                                        ["anova"]))
    >>> round(out[("anova", "statistic")], 4), out[("anova", "df_between")], out[("anova", "df_within")]
    (21.0, 2.0, 6.0)
    """
    from scipy import stats

    names, arrays = list(samples), [np.asarray(v, dtype=float) for v in samples.values()]
    if len(arrays) < 2:
        raise HumevalError(f"tests across groups need two or more groups, got {names}")
    out = []
    for test in tests:
        if test == "anova":
            result = stats.f_oneway(*arrays)
            n = sum(a.size for a in arrays)
            out += [
                ("anova", "statistic", float(result.statistic)),
                ("anova", "df_between", float(len(arrays) - 1)),
                ("anova", "df_within", float(n - len(arrays))),
                ("anova", "p", float(result.pvalue)),
            ]
        elif test in ("kruskal", "levene"):
            result = stats.kruskal(*arrays) if test == "kruskal" else stats.levene(*arrays)
            out += [(test, "statistic", float(result.statistic)), (test, "p", float(result.pvalue))]
        elif test == "tukey":
            result = stats.tukey_hsd(*arrays)
            interval = result.confidence_interval(0.95)
            for i in range(len(arrays)):
                for j in range(i + 1, len(arrays)):
                    pair = f"{names[i]} vs {names[j]}"
                    out += [
                        (pair, "diff", float(arrays[i].mean() - arrays[j].mean())),
                        (pair, "p", float(result.pvalue[i, j])),
                        (pair, "ci_low", float(interval.low[i, j])),
                        (pair, "ci_high", float(interval.high[i, j])),
                    ]
        else:
            raise HumevalError(f"unknown test {test!r}; known: {list(K_SAMPLE_TESTS)}")
    return out


@register("metric", "k_sample_tests")
def k_sample_numbers(
    data: StudyData,
    *,
    table: str,
    tests: list[str],
    group: str = "system",
    by: list[str] = (),
    row: str = "{test}",
    column: str = "{stat}",
    labels: dict | None = None,
    where: dict | None = None,
    frame: str = "kept",
    variant: str | None = None,
) -> pd.DataFrame:
    """Tests across the k values of ``group`` (systems, by default), per group of ``by``
    (:func:`k_sample_tests`): ``anova``, ``kruskal``, ``levene``, ``tukey``. Templates over the ``by`` keys,
    ``{test}`` (the test, or ``<a> vs <b>`` for a Tukey pair) and ``{stat}``."""
    rows = data.rows(frame, variant, where)
    out = []
    for keys, part in groups_of(rows, by):
        samples = {
            str(name): pd.to_numeric(values["value"]).to_numpy() for name, values in part.groupby(group, sort=False)
        }
        for test, stat, value in k_sample_tests(samples, tests):
            fields = {**keys, "test": test, "stat": stat}
            out.append((render(row, fields, labels), render(column, fields, labels), value))
    return value_frame(table, out)


def agreement(values: pd.DataFrame) -> dict[str, float]:
    """Percentage agreement of raters over units (``unit``, ``value``): ``pairwise``, the share of agreeing
    pairs of ratings within a unit, pooled over units with two or more ratings; ``majority``, the share of
    ratings equal to their unit's most frequent value (a tie: every tied value counts as the majority), over
    the same units.

    >>> frame = pd.DataFrame({"unit": ["u", "u", "u", "v", "v"], "value": [1, 1, 2, 3, 3]})
    >>> agreement(frame)
    {'pairwise': 50.0, 'majority': 80.0, 'units': 2.0}
    """
    counts = values.groupby(["unit", "value"], sort=False).size()
    per_unit = counts.groupby(level="unit").sum()
    rated = per_unit[per_unit >= 2].index
    counts = counts[counts.index.get_level_values("unit").isin(rated)]
    agreeing = (counts * (counts - 1) / 2).groupby(level="unit").sum()
    n = per_unit.loc[rated]
    pairs = n * (n - 1) / 2
    top = counts.groupby(level="unit").transform("max")
    in_majority = counts[counts == top].groupby(level="unit").sum()
    return {
        "pairwise": float(100 * agreeing.sum() / pairs.sum()) if pairs.sum() else float("nan"),
        "majority": float(100 * in_majority.sum() / n.sum()) if n.sum() else float("nan"),
        "units": float(len(rated)),
    }


@register("metric", "percent_agreement")
def percent_agreement_numbers(
    data: StudyData,
    *,
    table: str,
    units: list[str],
    row: str,
    column: str = "{stat}",
    stats: list[str] = ("pairwise", "majority"),
    by: list[str] = (),
    labels: dict | None = None,
    where: dict | None = None,
    frame: str = "kept",
    variant: str | None = None,
) -> pd.DataFrame:
    """Percentage agreement (:func:`agreement`: ``pairwise``, ``majority``, ``units``) over the units made of
    the ``units`` columns (e.g. item and system), per group of ``by``. Templates over the ``by`` keys and
    ``{stat}``."""
    rows = data.rows(frame, variant, where)
    out = []
    for keys, part in groups_of(rows, by):
        unit = part.groupby(units, sort=False, dropna=False).ngroup()
        measures = agreement(pd.DataFrame({"unit": unit.to_numpy(), "value": part["value"].astype(str).to_numpy()}))
        for stat in stats:
            fields = {**keys, "stat": stat}
            out.append((render(row, fields, labels), render(column, fields, labels), measures[stat]))
    return value_frame(table, out)


ITEM_CV_STATS = ("n", "mean", "median", "sd")


@register("metric", "item_cv_star")
def item_cv_star_numbers(
    data: StudyData,
    *,
    table: str,
    sides: list[str],
    row: str = "{system}",
    column: str = "{stat}",
    units: list[str] = ("item",),
    by: list[str] = (),
    shift: float = 0.0,
    stats: list[str] = ITEM_CV_STATS,
    labels: dict | None = None,
    where: dict | None = None,
    frame: str = "kept",
    variant: str | None = None,
) -> pd.DataFrame:
    """Item-level CV* between experiments: per item (the ``units`` columns) and system, the CV* (Belz, Popović &
    Mille 2022, with the small-sample correction) of the item's mean score in each of the ``sides``, on scores
    shifted by ``shift``; summarised per system (and group of ``by``) over the items every side scored: ``n``,
    ``mean``, ``median`` and ``sd`` (ddof 1) of the item CV* values. Templates over the ``by`` keys,
    ``{system}`` and ``{stat}``."""
    from humeval.cv_star import cv_star_rows

    rows = data.rows(frame, variant, where)
    rows = rows[rows["side"].isin(sides)]
    out = []
    for keys, part in groups_of(rows, by):
        scores = (
            part.assign(value=pd.to_numeric(part["value"]))
            .groupby([*units, "system", "side"], sort=False)["value"]
            .mean()
            .unstack("side")
            .reindex(columns=list(sides))
            .dropna()
        )
        for system, items in scores.groupby(level="system", sort=False):
            values = pd.Series(cv_star_rows(items.to_numpy(), shift)).dropna()
            summary = {
                "n": float(values.size),
                "mean": values.mean(),
                "median": values.median(),
                "sd": values.std(ddof=1),
            }
            for stat in stats:
                fields = {**keys, "system": system, "stat": stat}
                out.append((render(row, fields, labels), render(column, fields, labels), float(summary[stat])))
    return value_frame(table, out)
