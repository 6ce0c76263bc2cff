"""A crossed random-effects model of ratings, for planning reproductions of any size (:mod:`humeval.planning.plan`).

Within one criterion, a rating of item ``i`` (nested in its fixed group ``g``: a system, a condition) by evaluator
``e`` is

    y = mu_g + u_e + s_(e,g) + v_i + eps,

with evaluator intercepts ``u`` (variance ``evaluator``), evaluator-by-group slopes ``s`` (``evaluator_by_group``:
an evaluator who prefers one system), item intercepts ``v`` (``item``) and a residual ``eps`` (``residual``): the
crossed design of Westfall, Kenny & Judd (2014, JEP: General 143(5), "Statistical power and optimal design in
experiments in which samples of participants respond to samples of stimuli"), as Card et al. (2020, EMNLP) fit
it to Likert human evaluations. Components are estimated by the method of moments from unbalanced data with
U-statistics (Gao & Owen 2017, "Efficient moment calculations for variance components in large unbalanced
crossed random effects models", EJS 11): half the mean squared difference between two ratings that share

- the evaluator and the group but not the item: ``item + residual``;
- the evaluator but not the group: ``item + residual + evaluator_by_group``;
- the item but not the evaluator: ``evaluator + evaluator_by_group + residual``;
- the group only: ``evaluator + evaluator_by_group + item + residual``;

four equations in four unknowns (each clipped at 0). Every pair sum is a difference of grouped sums of squares
(:func:`pair_sums`), so the fit is linear in the judgements.

A design is stated in people x items x judgements per item (:func:`layout`); :func:`simulate` draws the ratings of
any number of simulated studies of it at once, and :func:`mean_difference_sd` gives the exact standard deviation
of a difference of two group means under the model, for the analytic power of :func:`analytic_power`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

__all__ = [
    "COMPONENTS",
    "analytic_power",
    "components",
    "layout",
    "mean_difference_sd",
    "minimum_detectable",
    "naive_standard_error",
    "random_terms",
    "simulate",
    "two_sample_t",
    "valid_df",
    "with_means",
]

COMPONENTS = ("evaluator", "evaluator_by_group", "item", "residual")


def pair_sums(values: np.ndarray, *keys: np.ndarray) -> tuple[float, float]:
    """The sum over unordered pairs of judgements sharing every key of ``(y - y')^2``, and the number of pairs:
    per cell, ``n sum(y^2) - (sum y)^2`` and ``n(n-1)/2``.

    >>> pair_sums(np.array([1.0, 2.0, 4.0]), np.array([0, 0, 1]))
    (1.0, 1.0)
    """
    if keys:
        cell = pd.MultiIndex.from_arrays(keys).factorize()[0] if len(keys) > 1 else pd.factorize(keys[0])[0]
    else:
        cell = np.zeros(values.size, dtype=int)
    n = np.bincount(cell)
    total = np.bincount(cell, weights=values)
    squares = np.bincount(cell, weights=values * values)
    return float((n * squares - total * total).sum()), float((n * (n - 1) / 2).sum())


def components(values, evaluator, item, group) -> dict:
    """The four variance components of one criterion's ratings (``values``, with their ``evaluator``, ``item`` and
    fixed ``group`` codes; each item in one group), by the U-statistics of the module docstring, from the ratings'
    deviations from their group means. Where a kind of pair does not occur (every item judged once), the
    components it separates cannot be told apart and the residual keeps their sum.

    A check by hand, one evaluator effect and nothing else (two evaluators at +1 and -1, two items each): the
    unbiased variance of {+1, -1} is 2.

    >>> comps = components(np.array([1.0, 1, -1, -1]), np.array([0, 0, 1, 1]), np.array([0, 1, 2, 3]),
    ...                    np.zeros(4, dtype=int))
    >>> {k: round(v, 6) for k, v in comps.items()}
    {'evaluator': 2.0, 'evaluator_by_group': 0.0, 'item': 0.0, 'residual': 0.0}
    """
    values = np.asarray(values, dtype=float)
    group_mean = np.bincount(group, weights=values) / np.bincount(group)
    r = values - group_mean[group]

    def mean_half(*pairs):  # (sum, count) of the pairs kept: sum_a - sum_b - ... over counts alike
        total = sum(sign * pair_sums(r, *keys)[0] for sign, keys in pairs)
        count = sum(sign * pair_sums(r, *keys)[1] for sign, keys in pairs)
        return total / (2 * count) if count > 0 else np.nan

    same_evaluator_group = mean_half((1, (evaluator, group)), (-1, (evaluator, item)))
    same_evaluator_other_group = mean_half((1, (evaluator,)), (-1, (evaluator, group)))
    same_item = mean_half((1, (item,)), (-1, (item, evaluator)))
    same_group = mean_half((1, (group,)), (-1, (group, evaluator)), (-1, (group, item)), (1, (group, item, evaluator)))
    total = float(np.mean(r * r) * r.size / max(1, r.size - group_mean.size))
    if np.isnan(same_item):  # one judgement per item: item and residual are one
        same_item = same_group
    if np.isnan(same_evaluator_group):  # one judgement per evaluator and group
        same_evaluator_group = same_group
    if np.isnan(same_evaluator_other_group):  # every evaluator judged one group (between-subject)
        same_evaluator_other_group = same_evaluator_group
    if np.isnan(same_group):
        same_group = total
    item_ = max(0.0, same_group - same_item)
    residual = max(0.0, same_evaluator_group - item_)
    slope = max(0.0, same_evaluator_other_group - same_evaluator_group)
    evaluator_ = max(0.0, same_item - slope - residual)
    return {"evaluator": evaluator_, "evaluator_by_group": slope, "item": item_, "residual": residual}


@dataclass
class Layout:
    """One design's judgements (one criterion): for each, its evaluator, item and fixed group (codes from 0)."""

    evaluator: np.ndarray
    item: np.ndarray
    group: np.ndarray
    people: int
    items: int
    groups: int


def layout(item_groups: np.ndarray, people: int, per_item: int) -> Layout:
    """A design of ``people`` evaluators judging the items whose groups are ``item_groups`` (one code per item),
    ``per_item`` distinct evaluators per item, assigned in turn (judgement k of the design goes to evaluator
    k mod ``people``, items in group order): each evaluator judges each group's items about equally often, as a
    counterbalanced study does.

    >>> lay = layout(np.array([0, 0, 1, 1]), people=2, per_item=2)
    >>> lay.evaluator.tolist(), lay.item.tolist(), lay.group.tolist()
    ([0, 1, 0, 1, 0, 1, 0, 1], [0, 0, 1, 1, 2, 2, 3, 3], [0, 0, 0, 0, 1, 1, 1, 1])
    """
    if per_item > people:
        raise ValueError(f"{per_item} judgements per item need at least as many people, not {people}")
    order = np.argsort(item_groups, kind="stable")
    item = np.repeat(order, per_item)
    evaluator = np.arange(item.size) % people
    return Layout(evaluator, item, np.asarray(item_groups)[item], people, len(item_groups), int(item_groups.max()) + 1)


def random_terms(lay: Layout, comps: dict, simulations: int, rng) -> list[np.ndarray]:
    """The model's random terms of each of ``simulations`` x judgements of the design ``lay`` (evaluator, evaluator
    by group, item, residual), normal and drawn independently per simulation: what :func:`simulate` adds to the
    group means, drawn once where several effects share them (common random numbers)."""
    sd = {k: np.sqrt(comps[k]) for k in COMPONENTS}
    u = rng.standard_normal((simulations, lay.people)) * sd["evaluator"]
    s = rng.standard_normal((simulations, lay.people * lay.groups)) * sd["evaluator_by_group"]
    v = rng.standard_normal((simulations, lay.items)) * sd["item"]
    eps = rng.standard_normal((simulations, lay.evaluator.size)) * sd["residual"]
    return [u[:, lay.evaluator], s[:, lay.evaluator * lay.groups + lay.group], v[:, lay.item], eps]


def with_means(lay: Layout, means: np.ndarray, terms: list[np.ndarray]) -> np.ndarray:
    """Ratings: the group means ``means`` plus the random ``terms`` (:func:`random_terms`)."""
    values = means[lay.group] + terms[0]
    for term in terms[1:]:
        values += term
    return values


def simulate(lay: Layout, means: np.ndarray, comps: dict, simulations: int, rng) -> np.ndarray:
    """``simulations`` x judgements ratings of the design ``lay`` drawn from the model (group means ``means``,
    variance components ``comps``), normal random effects drawn independently per simulation."""
    return with_means(lay, means, random_terms(lay, comps, simulations, rng))


def weights(codes: np.ndarray, rows: np.ndarray, size: int) -> np.ndarray:
    """The weight of each level of ``codes`` in the mean of ``rows``: its share of them."""
    return np.bincount(codes[rows], minlength=size) / rows.sum()


def mean_difference_sd(lay: Layout, comps: dict, a: int, b: int) -> float:
    """The exact standard deviation, under the model, of the mean of group ``a``'s judgements minus that of group
    ``b``'s, in the design ``lay``: each component's variance times the sum of squared differences of its levels'
    weights in the two means (the variance of a contrast, Westfall, Kenny & Judd 2014, eq. 5, for any assignment).

    Two groups of one item each, judged once by the same evaluator: only item and residual remain, each twice.

    >>> lay = Layout(np.array([0, 0]), np.array([0, 1]), np.array([0, 1]), 1, 2, 2)
    >>> round(mean_difference_sd(lay, {"evaluator": 5.0, "evaluator_by_group": 1.0, "item": 1.0, "residual": 1.0},
    ...                          0, 1) ** 2, 6)
    6.0
    """
    in_a, in_b = lay.group == a, lay.group == b
    variance = 0.0
    for name, codes, size in (
        ("evaluator", lay.evaluator, lay.people),
        ("evaluator_by_group", lay.evaluator * lay.groups + lay.group, lay.people * lay.groups),
        ("item", lay.item, lay.items),
    ):
        variance += comps[name] * float(((weights(codes, in_a, size) - weights(codes, in_b, size)) ** 2).sum())
    variance += comps["residual"] * (1 / in_a.sum() + 1 / in_b.sum())
    return float(np.sqrt(variance))


def valid_df(lay: Layout, comps: dict, a: int, b: int) -> int:
    """Degrees of freedom for a test of the two groups' mean difference that is valid under the model: the fewest
    of the random terms that vary the contrast (:func:`mean_difference_sd`): evaluators ``people - 1``, evaluator by
    group ``people - 1``, items ``items - groups``, residual ``judgements - 2``. The Satterthwaite degrees of freedom
    of Westfall, Kenny & Judd (2014) for a positive combination of the terms' mean squares are at least the fewest
    of theirs ((sum x)^2 / sum x^2/df_k >= min df_k), so a test at these degrees of freedom with the design's true
    standard error is conservative against their approximation: at zero effect it rejects at most at its nominal
    rate (:func:`analytic_power` with ``naive_se = sd``).

    Every one of 4 evaluators judges each of 3 items per group (items nested in the groups): the evaluator term
    cancels, the evaluator-by-group term (3 df) is the fewest.

    >>> lay = layout(np.repeat([0, 1], 3), 4, 4)
    >>> valid_df(lay, {"evaluator": 1.0, "evaluator_by_group": 0.5, "item": 0.3, "residual": 1.0}, 0, 1)
    3
    """
    in_a, in_b = lay.group == a, lay.group == b
    dfs = [int(in_a.sum() + in_b.sum()) - 2]
    for name, codes, size, df in (
        ("evaluator", lay.evaluator, lay.people, lay.people - 1),
        ("evaluator_by_group", lay.evaluator * lay.groups + lay.group, lay.people * lay.groups, lay.people - 1),
        ("item", lay.item, lay.items, lay.items - lay.groups),
    ):
        share = float(((weights(codes, in_a, size) - weights(codes, in_b, size)) ** 2).sum())
        if comps[name] > 0 and share > 1e-12:
            dfs.append(df)
    return max(1, min(dfs))


def naive_standard_error(lay: Layout, comps: dict, a: int, b: int) -> float:
    """The standard error a two-sample t test on the judgements (which takes them as independent) reports, at
    its expectation under the model: sqrt(s_p^2 (1/n_a + 1/n_b)) with E[s_g^2] = n_g/(n_g - 1) (sigma^2 -
    Var(mean_g)), sigma^2 the sum of the components (the expected sum of squares about a group's mean)."""
    total = sum(comps[k] for k in COMPONENTS)
    pooled, df = 0.0, 0
    for g in (a, b):
        rows = lay.group == g
        n = int(rows.sum())
        mean_variance = (
            sum(
                comps[name] * float((weights(codes, rows, size) ** 2).sum())
                for name, codes, size in (
                    ("evaluator", lay.evaluator, lay.people),
                    ("evaluator_by_group", lay.evaluator * lay.groups + lay.group, lay.people * lay.groups),
                    ("item", lay.item, lay.items),
                )
            )
            + comps["residual"] / n
        )
        pooled += n * (total - mean_variance)
        df += n - 1
    n_a, n_b = int((lay.group == a).sum()), int((lay.group == b).sum())
    return float(np.sqrt(pooled / df * (1 / n_a + 1 / n_b)))


def analytic_power(effect: float, sd: float, naive_se: float, df: int, alpha: float = 0.05) -> float:
    """The probability that a two-sided t test at ``alpha`` on the judgements finds the difference significant in
    the direction of ``effect`` (> 0): P(d > t_crit x SE) with d ~ N(effect, sd^2) and the test's standard error at
    its expectation ``naive_se`` (the normal approximation of Westfall, Kenny & Judd 2014; its error is the
    variability of the estimated SE, of order 1/df).

    A test whose SE is the true sd has the nominal one-sided rate at no effect:

    >>> round(analytic_power(0.0, 1.0, 1.0, 10**6), 4)
    0.025
    """
    from scipy.stats import norm, t

    critical = t.ppf(1 - alpha / 2, df)
    return float(norm.sf((critical * naive_se - effect) / sd)) if sd > 0 else float(effect > critical * naive_se)


def minimum_detectable(sd: float, naive_se: float, df: int, alpha: float = 0.05, power: float = 0.8) -> float:
    """The smallest effect the design detects with ``power`` (80%) by the test of :func:`analytic_power`:
    t_crit x SE + z_power x sd.

    >>> round(minimum_detectable(1.0, 1.0, 10**6), 3)
    2.802
    """
    from scipy.stats import norm, t

    return float(t.ppf(1 - alpha / 2, df) * naive_se + norm.ppf(power) * sd)


def two_sample_t(values: np.ndarray, in_a: np.ndarray, in_b: np.ndarray, equal_var: bool = True):
    """Per simulation (rows of ``values``), the mean of the judgements ``in_a`` minus those ``in_b`` and the
    two-sided p of Student's t (``equal_var``) or Welch's t, vectorised over simulations: the statistic and p of
    scipy.stats.ttest_ind, which tests/test_crossed_model.py checks it against."""
    from scipy.stats import t as t_dist

    a, b = values[:, in_a], values[:, in_b]
    n_a, n_b = a.shape[1], b.shape[1]
    mean_a, mean_b = a.mean(axis=1), b.mean(axis=1)
    var_a, var_b = a.var(axis=1, ddof=1), b.var(axis=1, ddof=1)
    if equal_var:
        df = np.full(len(values), n_a + n_b - 2.0)
        se = np.sqrt(((n_a - 1) * var_a + (n_b - 1) * var_b) / df * (1 / n_a + 1 / n_b))
    else:
        ra, rb = var_a / n_a, var_b / n_b
        se = np.sqrt(ra + rb)
        df = (ra + rb) ** 2 / (ra**2 / (n_a - 1) + rb**2 / (n_b - 1))
    with np.errstate(divide="ignore", invalid="ignore"):
        statistic = (mean_a - mean_b) / se
    return mean_a, mean_b, statistic, 2 * t_dist.sf(np.abs(statistic), df)
