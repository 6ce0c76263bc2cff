"""Ratings of systems from pairwise choices: TrueSkill (Herbrich, Minka & Graepel 2007, the ``trueskill`` package)
and Bradley-Terry (the ``choix`` package's maximum-likelihood fit), as reproductions that report either print them.

TrueSkill is sequential: each choice updates the two systems' ratings in turn, so the result depends on the order of
the updates, which the entry states (the judgements' order in the export, or a seeded shuffle of it).
"""

from __future__ import annotations

from typing import Literal

import numpy as np
import pandas as pd

from humeval.errors import HumevalError
from humeval.metrics import Columns, Frame, StudyData, groups_of, render, value_frame
from humeval.vocabulary import register

__all__ = ["METHOD_STATS", "choice_rating_numbers", "choice_stats"]


#: The statistics each method writes (``{stat}``), in order.
METHOD_STATS = {"trueskill": ("mu", "sigma", "conservative"), "bradley_terry": ("log_strength", "strength")}


def choice_stats(method: str, resamples: int = 0) -> list[str]:
    """The statistics :func:`choice_rating_numbers` writes per system, in its order: the method's, then with
    ``resamples`` each one's ``_low`` and ``_high`` bound (the one list ``snakemake -n`` checks a table against).

    >>> choice_stats("bradley_terry", resamples=100)
    ['log_strength', 'strength', 'log_strength_low', 'strength_low', 'log_strength_high', 'strength_high']
    """
    stats = list(METHOD_STATS[method])
    return stats + ([f"{s}_{end}" for end in ("low", "high") for s in stats] if resamples else [])


def trueskill_ratings(pairs: pd.DataFrame, *, draw_probability: float = 0.10) -> pd.DataFrame:
    """TrueSkill ``mu`` and ``sigma`` per system after one update per choice, in the order of ``pairs`` (system,
    system_b, value: +1 system chosen, -1 system_b, 0 a draw), from the package's default prior (mu 25, sigma 25/3,
    beta 25/6, tau 25/300), and ``conservative`` = mu - 3 sigma.

    >>> pairs = pd.DataFrame({"system": ["a", "a"], "system_b": ["b", "b"], "value": [1, 1]})
    >>> trueskill_ratings(pairs)["mu"].round(3).tolist()
    [31.23, 18.77]
    """
    import trueskill

    env = trueskill.TrueSkill(draw_probability=draw_probability)
    ratings: dict[str, trueskill.Rating] = {}
    for a, b, value in zip(pairs["system"], pairs["system_b"], pd.to_numeric(pairs["value"])):
        ra, rb = ratings.setdefault(a, env.create_rating()), ratings.setdefault(b, env.create_rating())
        if value < 0:
            rb, ra = trueskill.rate_1vs1(rb, ra, env=env)
        else:
            ra, rb = trueskill.rate_1vs1(ra, rb, drawn=bool(value == 0), env=env)
        ratings[a], ratings[b] = ra, rb
    frame = pd.DataFrame({"mu": [r.mu for r in ratings.values()], "sigma": [r.sigma for r in ratings.values()]})
    frame.index = list(ratings)
    return frame.assign(conservative=frame["mu"] - 3 * frame["sigma"])


def bradley_terry_strengths(pairs: pd.DataFrame, *, alpha: float = 0.0) -> pd.DataFrame:
    """Bradley-Terry strengths per system by maximum likelihood (``choix.ilsr_pairwise``, regularised by ``alpha``):
    ``log_strength`` (mean 0) and ``strength`` (the shares exp(log_strength) / their sum, the probability model's
    scale). Draws carry no information for the model and are left out.

    >>> pairs = pd.DataFrame({"system": ["a"] * 4, "system_b": ["b"] * 4, "value": [1, 1, 1, -1]})
    >>> bradley_terry_strengths(pairs)["strength"].round(4).tolist()  # a beats b 3 times to 1: 3 / (3 + 1)
    [0.75, 0.25]
    """
    import choix

    decided = pairs[pd.to_numeric(pairs["value"]) != 0]
    systems = list(dict.fromkeys([*pairs["system"], *pairs["system_b"]]))
    index = {s: k for k, s in enumerate(systems)}
    won = pd.to_numeric(decided["value"]) > 0
    data = [
        (index[a], index[b]) if w else (index[b], index[a])
        for a, b, w in zip(decided["system"], decided["system_b"], won)
    ]
    try:
        params = choix.ilsr_pairwise(len(systems), data, alpha=alpha)
    except (RuntimeError, ValueError) as exc:  # no finite maximum: a system never won or never lost
        raise HumevalError(f"Bradley-Terry has no finite fit ({exc}); set alpha > 0 to regularise it") from None
    log_strength = params - params.mean()
    strength = np.exp(log_strength) / np.exp(log_strength).sum()
    return pd.DataFrame({"log_strength": log_strength, "strength": strength}, index=systems)


#: The most resamples a ``choice_ratings`` bootstrap may ask for: each rates every choice once (TrueSkill about
#: 20 µs a choice), so 10,000 resamples of 1,000 choices take minutes, not hours.
MAX_RESAMPLES = 10_000


def bootstrap_interval(pairs: pd.DataFrame, rate, resamples: int, seed: int) -> pd.DataFrame:
    """The 95% percentile interval of each rating statistic over ``resamples`` resamples of the choices drawn with
    replacement (``numpy.random.default_rng(seed).integers``, one row of indices per resample), each rated by
    ``rate``: columns ``<stat>_low`` and ``<stat>_high`` per system. A system a resample does not hold leaves that
    resample out of its interval."""
    draws = np.random.default_rng(seed).integers(0, len(pairs), size=(resamples, len(pairs)))
    rated = pd.concat([rate(pairs.iloc[d]).assign(_resample=k) for k, d in enumerate(draws)])
    grouped = rated.drop(columns="_resample").groupby(level=0)
    low, high = grouped.quantile(0.025), grouped.quantile(0.975)
    return pd.concat([low.add_suffix("_low"), high.add_suffix("_high")], axis=1)


@register("metric", "choice_ratings")
def choice_rating_numbers(
    data: StudyData,
    *,
    table: str,
    method: Literal["trueskill", "bradley_terry"],
    row: str = "{system}",
    column: str = "{stat}",
    by: Columns = (),
    order: Literal["judgements", "shuffled"] = "judgements",
    seed: int = 0,
    draw_probability: float = 0.10,
    alpha: float = 0.0,
    resamples: int = 0,
    labels: dict | None = None,
    where: dict | None = None,
    frame: Frame = "kept",
    variant: str | None = None,
) -> pd.DataFrame:
    """Ratings of the systems from the pairwise choices, per group of ``by``: TrueSkill (:func:`trueskill_ratings`)
    or Bradley-Terry (:func:`bradley_terry_strengths`).

    Parameters
    ----------
    method : {'trueskill', 'bradley_terry'}
        TrueSkill (sequential updates; statistics ``mu``, ``sigma``, ``conservative``) or Bradley-Terry (a
        maximum-likelihood fit; statistics ``log_strength``, ``strength``).
    row, column : str
        Templates over the ``by`` keys, ``{system}`` and ``{stat}``.
    by : list of str
        The columns whose values make a group, rated apart.
    order : {'judgements', 'shuffled'}
        TrueSkill's order of updates: the judgements' order in the tidy table (the export's), or a shuffle of it
        drawn with ``seed`` (numpy's default generator).
    seed : int
        The seed of the shuffle.
    draw_probability : float
        TrueSkill's prior probability of a draw (the package's default 0.10); a tie is a draw.
    alpha : float
        Bradley-Terry's regularisation (0: the plain maximum-likelihood fit).
    resamples : int
        With more than 0 (at most :data:`MAX_RESAMPLES`), a percentile bootstrap of each statistic: the choices
        drawn with replacement ``resamples`` times (numpy's default generator seeded with ``seed``), each
        resample rated as above (in its drawn order), and the 2.5th and 97.5th percentiles written as
        ``<stat>_low`` and ``<stat>_high``.

    Returns
    -------
    DataFrame
        Cells (table, row, column, value): per group, system and statistic.

    Notes
    -----
    Bradley-Terry: P(a chosen over b) = pi_a / (pi_a + pi_b), the pi fitted by maximum likelihood (``choix``'s
    iterative Luce spectral ranking, with an L2 penalty ``alpha``); ``log_strength`` = log pi centred on 0 and
    ``strength`` = pi / sum pi. TrueSkill: a Gaussian belief N(mu, sigma^2) per system, updated after each choice
    by the ``trueskill`` package's factor-graph message passing (performance noise beta, dynamics tau, a draw
    margin from ``draw_probability``), so the result depends on the order of the choices (``order``);
    ``conservative`` = mu - 3 sigma. The bootstrap's bounds are the 2.5th and 97.5th percentiles of each
    statistic over ``resamples`` resamples of the choices. The ``.test`` study's bootstrap interval of mu is
    checked against the ``trueskill`` package run choice by choice on the raw file's resampled choices
    (``tests/test_code_health.py``). puduppully's 30 printed bounds are not matched (other resamples and RNG
    than the authors'; its audit says why).

    References
    ----------
    Bradley & Terry (1952), *Biometrika* 39(3/4): 324-345; Maystre & Grossglauser (2015), "Fast and Accurate
    Inference of Plackett-Luce Models", *NIPS 28* (ILSR); Herbrich, Minka & Graepel (2007), "TrueSkill: A
    Bayesian Skill Rating System", *NIPS 19*: 569-576.

    Examples
    --------
    a chosen over b three times in four: pi_a / pi_b = 3, so the strengths are 3/4 and 1/4 and the log strengths
    +-log(3) / 2 = +-0.5493.

    >>> j = pd.DataFrame({"side": "O", "response_type": "pairwise", "system": "a", "system_b": "b",
    ...                   "value": [1, 1, 1, -1]})
    >>> out = choice_rating_numbers(StudyData(j, j, j, j.iloc[:0]), table="t", method="bradley_terry")
    >>> out.set_index(["row", "column"])["value"].round(4).to_dict()
    {('a', 'log_strength'): 0.5493, ('a', 'strength'): 0.75, ('b', 'log_strength'): -0.5493, ('b', 'strength'): 0.25}
    """
    if not 0 <= resamples <= MAX_RESAMPLES:
        raise HumevalError(f"resamples: {resamples} is outside 0..{MAX_RESAMPLES:,}")
    rows = data.rows(frame, variant, where)
    rows = rows[rows["response_type"] == "pairwise"]
    out = []

    def rate(pairs):
        if method == "trueskill":
            return trueskill_ratings(pairs, draw_probability=draw_probability)
        return bradley_terry_strengths(pairs, alpha=alpha)

    for keys, pairs in groups_of(rows, by):
        if order == "shuffled":
            pairs = pairs.iloc[np.random.default_rng(seed).permutation(len(pairs))]
        rated = rate(pairs)
        if resamples:
            rated = rated.join(bootstrap_interval(pairs, rate, resamples, seed))
        rated = rated[choice_stats(method, resamples)]
        for system, record in rated.iterrows():
            for stat, value in record.items():
                fields = {**keys, "system": system, "stat": stat}
                out.append((render(row, fields, labels), render(column, fields, labels), float(value)))
    return value_frame(table, out)
