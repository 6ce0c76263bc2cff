"""Effect sizes between bots and their differences between evaluator groups (Finch et al. 2024, sec. 5).

Likert: Cohen's d = (mean_a - mean_b) / pooled SD, pooled SD = sqrt(((n_a-1) s_a^2 + (n_b-1) s_b^2) /
(n_a + n_b - 2)), s with ddof = 1. Pairwise: Cohen's h = 2 asin(sqrt(p_a)) - 2 asin(sqrt(p_b)), p_x = bot
x's wins / (wins + losses) over all its comparisons (ties dropped). Group difference
Delta(G1, G2) = mean over bot pairs of |ES_G1(a, b) - ES_G2(a, b)|, with a bootstrap CI that resamples
each group's units independently (Likert: singly annotated dialogues; pairwise: singly annotated pairs),
vectorised over resamples (``scipy.stats.bootstrap(vectorized=True)``).

Bespoke (beside the generic ``effect_size``) because these are differences of per-bot-pair effects between
evaluator groups over the authors' seeded single-annotation sampler, which a grouping cannot express.
"""

from __future__ import annotations

import logging
from itertools import combinations

import numpy as np
import pandas as pd

from humeval.config.registry import register
from humeval.errors import HumevalError
from humeval.metrics import StudyData, value_frame
from humeval.metrics.designs.evaluator_groups import annotation_rows, singly_annotated
from humeval.resampling import spend

__all__ = ["cohens_d", "cohens_h", "effect_size_diff_numbers", "likert_mean_numbers", "pairwise_win_numbers"]

log = logging.getLogger(__name__)


def per_bot_sums(bots: np.ndarray, weights: list[np.ndarray], n_bots: int) -> list[np.ndarray]:
    """Per-bot counts and weighted sums over the last axis, for any leading batch axes.

    One ``np.bincount`` per quantity over (batch, bot) codes: much faster than a mask per bot on
    10,000 bootstrap resamples. Returns ``[counts, sum(weights[0]), ...]``, each shaped (..., n_bots).
    """
    lead = bots.shape[:-1]
    batches = int(np.prod(lead)) if lead else 1
    codes = (np.arange(batches).reshape(lead + (1,)) * n_bots + bots).ravel() if lead else bots.ravel()
    size = batches * n_bots
    out = [np.bincount(codes, minlength=size)]
    out += [np.bincount(codes, weights=w.ravel(), minlength=size) for w in weights]
    return [o.reshape(lead + (n_bots,)) for o in out]


def cohens_d(scores: np.ndarray, bots: np.ndarray, pairs: list[tuple[int, int]]) -> np.ndarray:
    """Cohen's d per bot pair; ``scores``/``bots`` may carry leading batch axes (units on the last).

    >>> cohens_d(np.array([1., 2, 3, 2, 3, 4]), np.array([0, 0, 0, 1, 1, 1]), [(0, 1)]).round(6).tolist()
    [-1.0]
    """
    n_bots = int(max(max(pair) for pair in pairs)) + 1
    n, s1, s2 = per_bot_sums(bots, [scores, scores**2], n_bots)
    mean = s1 / n
    var = (s2 - n * mean**2) / (n - 1)
    a, b = (np.array(i) for i in zip(*pairs))
    pooled = np.sqrt(((n[..., a] - 1) * var[..., a] + (n[..., b] - 1) * var[..., b]) / (n[..., a] + n[..., b] - 2))
    return (mean[..., a] - mean[..., b]) / pooled


def cohens_h(bot_a: np.ndarray, bot_b: np.ndarray, values: np.ndarray, pairs: list[tuple[int, int]]) -> np.ndarray:
    """Cohen's h per bot pair from pairwise units (bot A, bot B, +1/0/-1 from A's side).

    >>> a, b, v = np.array([0, 0, 1, 0]), np.array([1, 1, 2, 2]), np.array([1, 1, -1, 0])
    >>> # bot 0: 2 wins 0 losses (p = 1); bot 1: 0 wins 3 losses (p = 0): h = 2 asin(1) - 0 = pi
    >>> round(float(cohens_h(a, b, v, [(0, 1)])[0]), 6) == round(float(np.pi), 6)
    True
    """
    n_bots = int(max(bot_a.max(), bot_b.max(), max(max(pair) for pair in pairs))) + 1
    win_a, lose_a = (values == 1).astype(float), (values == -1).astype(float)
    _, wins_as_a, losses_as_a = per_bot_sums(bot_a, [win_a, lose_a], n_bots)
    _, losses_as_b, wins_as_b = per_bot_sums(bot_b, [win_a, lose_a], n_bots)
    wins, losses = wins_as_a + wins_as_b, losses_as_a + losses_as_b
    p = wins / (wins + losses)
    a, b = (np.array(i) for i in zip(*pairs))
    return 2 * np.arcsin(np.sqrt(p[..., a])) - 2 * np.arcsin(np.sqrt(p[..., b]))


def _units(single: pd.DataFrame, task: str, codes: dict[str, int]) -> dict[str, np.ndarray]:
    if task == "likert":
        return {"bots": single["system"].map(codes).to_numpy(), "scores": single["value"].to_numpy(float)}
    primary = single[single["orientation"] == "primary"]
    return {
        "a": primary["system"].map(codes).to_numpy(),
        "b": primary["system_b"].map(codes).to_numpy(),
        "v": primary["value"].to_numpy(float),
    }


def _effect(units: dict, task: str, pairs, index=None) -> np.ndarray:
    pick = (lambda x: x) if index is None else (lambda x: x[index])
    if task == "likert":
        return cohens_d(pick(units["scores"]), pick(units["bots"]), pairs)
    return cohens_h(pick(units["a"]), pick(units["b"]), pick(units["v"]), pairs)


#: The counted cost of one resample of Delta per unit and bot pair, and of BCa's jackknife per unit squared and
#: pair (CPU s: finch's intervals, 10,000 resamples of 224-413 units and 6 pairs, took 0.06-0.12 s each; Cohen's
#: d's jackknife 3.2e-8 per value squared), for :func:`humeval.resampling.spend`.
DELTA_RESAMPLE, DELTA_JACKKNIFE = 5e-9, 5e-9


def effect_size_difference(
    units_1: dict, units_2: dict, task: str, pairs, n_resamples: int, seed: int, confidence: float = 0.95
) -> tuple[float, float, float]:
    """Delta(G1, G2) and its bootstrap CI (BCa for Likert, percentile for pairwise)."""
    from scipy import stats

    def delta(i1, i2, axis=-1):
        e1 = _effect(units_1, task, pairs, i1.astype(int))
        e2 = _effect(units_2, task, pairs, i2.astype(int))
        return np.abs(e1 - e2).mean(axis=-1)

    n1 = len(next(iter(units_1.values())))
    n2 = len(next(iter(units_2.values())))
    estimate = float(delta(np.arange(n1), np.arange(n2)))
    n = n1 + n2  # counted at the costs measured (DELTA_RESAMPLE)
    spend("n_resamples", n_resamples, DELTA_RESAMPLE * n * len(pairs), DELTA_JACKKNIFE * n * n * len(pairs))
    result = stats.bootstrap(
        (np.arange(n1), np.arange(n2)),
        delta,
        vectorized=True,
        paired=False,
        n_resamples=n_resamples,
        confidence_level=confidence,
        method="BCa" if task == "likert" else "percentile",
        rng=np.random.default_rng(seed),
    )
    return estimate, float(result.confidence_interval.low), float(result.confidence_interval.high)


@register("metric", "effect_size_diff")
def effect_size_diff_numbers(
    data: StudyData,
    *,
    table: str,
    pairs: list[list[str]],
    sampler: dict,
    criteria: dict[str, str],
    n_resamples: int,
    seed: int,
) -> pd.DataFrame:
    """The difference between two evaluator groups' effect sizes (Finch et al. 2024): per criterion, the mean over
    bot pairs of |ES_G1 - ES_G2| (Cohen's d for Likert, Cohen's h for pairwise), with a 95% bootstrap interval
    (BCa for Likert, percentile for pairwise; scipy ``bootstrap``).

    Parameters
    ----------
    pairs : list of list of str
        The group pairs ``[G1, G2]``.
    n_resamples : int
        Bootstrap resamples.
    seed : int
        The seed of the bootstrap generator.

    Returns
    -------
    DataFrame
        Cells (table, row, column, value): rows ``<G1>/<G2>|<task>``, columns the criterion labels with
        ``_lo``/``_hi`` interval columns.

    Notes
    -----
    Delta(G1, G2) = (1 / P) sum over the P bot pairs (a, b) of |ES_G1(a, b) - ES_G2(a, b)|. Likert: Cohen's
    d = (mean_a - mean_b) / s_pooled, s_pooled^2 = ((n_a - 1) s_a^2 + (n_b - 1) s_b^2) / (n_a + n_b - 2)
    (:func:`cohens_d`); pairwise: Cohen's h = 2 asin sqrt(p_a) - 2 asin sqrt(p_b), p_x = wins / (wins + losses)
    of bot x over all its comparisons, ties left out (:func:`cohens_h`). One annotation per item and group
    (``sampler``), so that units are independent; the interval resamples each group's units apart (scipy's
    ``bootstrap``, BCa for Likert, percentile for pairwise, as the authors' code). The paper draws these
    (no printed number to audit); tests/test_e2e_finch.py checks each interval holds its estimate.

    References
    ----------
    Cohen (1988), *Statistical Power Analysis for the Behavioral Sciences*, 2nd ed., Erlbaum (d, h); Efron (1987),
    "Better Bootstrap Confidence Intervals", *JASA* 82(397): 171-185 (BCa); Finch, Finch & Choi (2024),
    "Exploring the Impact of Human Evaluator Group on Chat-Oriented Dialogue Evaluation", *LREC-COLING 2024*.

    Examples
    --------
    The per-pair effects Delta averages: bot 0 rated 1, 2, 3 and bot 1 rated 2, 3, 4 (pooled SD 1, d = -1); bot 0
    won both its comparisons and bot 1 lost all three (h = 2 asin 1 - 2 asin 0 = pi).

    >>> cohens_d(np.array([1., 2, 3, 2, 3, 4]), np.array([0, 0, 0, 1, 1, 1]), [(0, 1)]).round(6).tolist()
    [-1.0]
    >>> a, b, v = np.array([0, 0, 1, 0]), np.array([1, 1, 2, 2]), np.array([1, 1, -1, 0])
    >>> round(float(cohens_h(a, b, v, [(0, 1)])[0]), 6)
    3.141593
    """
    codes = {code: k for k, code in enumerate(data.system_labels())}
    bot_pairs = list(combinations(range(len(codes)), 2))
    present = set(data.kept["side"])
    out = []
    for task in ("likert", "pairwise"):
        single = singly_annotated(annotation_rows(data.kept[data.kept["category"] == task]), sampler)
        unknown = set(single["system"]) - set(codes)
        if unknown:
            raise HumevalError(f"metric effect_size_diff: bot(s) {sorted(unknown)} are not in the config's systems")
        for g1, g2 in pairs:
            if g1 not in present or g2 not in present:
                continue
            log.info(
                "bootstrapping effect-size differences %s/%s, %s: %d criteria x %d resamples",
                g1,
                g2,
                task,
                len(criteria),
                n_resamples,
            )
            for criterion, label in criteria.items():
                part = single[single["criterion"] == criterion]
                units = [_units(part[part["side"] == g], task, codes) for g in (g1, g2)]
                estimate, low, high = effect_size_difference(*units, task, bot_pairs, n_resamples, seed)
                row = f"{g1}/{g2}|{task}"
                out += [(row, label, estimate), (row, f"{label}_lo", low), (row, f"{label}_hi", high)]
    return value_frame(table, out)


@register("metric", "likert_means")
def likert_mean_numbers(data: StudyData, *, table: str, sampler: dict, criteria: dict[str, str]) -> pd.DataFrame:
    """Mean Likert rating per evaluator group, bot and criterion with a 95% t interval (Finch et al. 2024); its
    parameters (table, sampler, criteria) are the metrics' shared ones.

    Returns
    -------
    DataFrame
        Cells (table, row, column, value): rows ``<group>|<bot>``, columns the criterion labels with
        ``_lo``/``_hi`` interval columns.

    Notes
    -----
    Per group, bot and criterion over the singly annotated dialogues (``sampler``): mean +- t_{0.975, n-1} s /
    sqrt(n), s the sample SD (n - 1), the t interval of a mean (scipy's ``t.ppf``).

    References
    ----------
    Student (1908), "The Probable Error of a Mean", *Biometrika* 6(1): 1-25; Finch, Finch & Choi (2024),
    *LREC-COLING 2024* (the per-group Likert means).

    Examples
    --------
    One group rates one bot 3, 4 and 5: mean 4, SD 1, half-width t_{0.975, 2} / sqrt(3) = 2.4841.

    >>> from scipy import stats
    >>> round(float(stats.t.ppf(0.975, 2) * 1.0 / np.sqrt(3)), 4)
    2.4841
    """
    from scipy import stats

    single = singly_annotated(annotation_rows(data.kept[data.kept["category"] == "likert"]), sampler)
    summary = single.groupby(["side", "system", "criterion"])["value"].agg(["mean", "std", "count"]).reset_index()
    half = stats.t.ppf(0.975, summary["count"] - 1) * summary["std"] / np.sqrt(summary["count"])
    labels = data.system_labels()
    out = []
    for r, h in zip(summary.itertuples(), half):
        row, label = f"{r.side}|{labels.get(r.system, r.system)}", criteria[r.criterion]
        out += [(row, label, r.mean), (row, f"{label}_lo", r.mean - h), (row, f"{label}_hi", r.mean + h)]
    return value_frame(table, out)


@register("metric", "pairwise_wins")
def pairwise_win_numbers(data: StudyData, *, table: str, sampler: dict, criteria: dict[str, str]) -> pd.DataFrame:
    """Win share and win-or-tie share of each bot against all others per evaluator group and criterion (ties in
    the denominator), with a 95% Wilson interval of the win share (Finch et al. 2024); its parameters (table,
    sampler, criteria) are the metrics' shared ones.

    Returns
    -------
    DataFrame
        Cells (table, row, column, value): rows ``<group>|<bot>``, columns the criterion labels (win share),
        ``<label>_wintie``, and ``_lo``/``_hi`` interval columns.

    Notes
    -----
    Per group, bot and criterion over n singly annotated comparisons with W wins and T ties: win share p = W / n,
    win-or-tie share (W + T) / n, and the Wilson score interval of p, (p + z^2/2n +- z sqrt(p(1 - p)/n +
    z^2/4n^2)) / (1 + z^2/n) with z = 1.96 (scipy's ``binomtest(W, n).proportion_ci(method="wilson")``).

    References
    ----------
    Wilson (1927), "Probable Inference, the Law of Succession, and Statistical Inference", *JASA* 22(158):
    209-212; Finch, Finch & Choi (2024), *LREC-COLING 2024* (the per-group win
    shares).

    Examples
    --------
    7 wins in 10 comparisons: the Wilson interval of 0.7.

    >>> from scipy import stats
    >>> ci = stats.binomtest(7, 10).proportion_ci(method="wilson")
    >>> round(float(ci.low), 4), round(float(ci.high), 4)
    (0.3968, 0.8922)
    """
    from scipy import stats

    single = singly_annotated(annotation_rows(data.kept[data.kept["category"] == "pairwise"]), sampler)
    counts = (
        single.groupby(["side", "system", "criterion"])["value"]
        .agg(wins=lambda v: int((v == 1).sum()), ties=lambda v: int((v == 0).sum()), n="size")
        .reset_index()
    )
    labels = data.system_labels()
    out = []
    for r in counts.itertuples():
        ci = stats.binomtest(r.wins, r.n).proportion_ci(method="wilson")
        row, label = f"{r.side}|{labels.get(r.system, r.system)}", criteria[r.criterion]
        out += [
            (row, f"{label}_win", r.wins / r.n),
            (row, f"{label}_wintie", (r.wins + r.ties) / r.n),
            (row, f"{label}_lo", ci.low),
            (row, f"{label}_hi", ci.high),
        ]
    return value_frame(table, out)
