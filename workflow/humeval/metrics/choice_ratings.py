"""Ratings of systems from pairwise choices: TrueSkill (Herbrich, Minka & Graepel 2007, the ``trueskill`` package)
and Bradley-Terry (the ``choix`` package's maximum-likelihood fit), as reproductions that report either print them.

TrueSkill is sequential: each choice updates the two systems' ratings in turn, so the result depends on the order of
the updates, which the entry states (the judgements' order in the export, or a seeded shuffle of it).
"""

from __future__ import annotations

from typing import Literal

import numpy as np
import pandas as pd

from humeval.config.registry import register
from humeval.errors import HumevalError
from humeval.metrics import Columns, Frame, StudyData, groups_of, render, value_frame
from humeval.resampling import spend
from humeval.stat_names import METHOD_STATS, choice_stats

__all__ = ["METHOD_STATS", "choice_rating_numbers", "choice_stats", "resample_rows", "trueskill_sequences"]


def trueskill_ratings(pairs: pd.DataFrame, *, draw_probability: float = 0.10, ties: str = "draw") -> pd.DataFrame:
    """TrueSkill ``mu`` and ``sigma`` per system after one update per choice, in the order of ``pairs`` (system,
    system_b, value: +1 system chosen, -1 system_b, 0 a draw), from the package's default prior (mu 25, sigma 25/3,
    beta 25/6, tau 25/300), and ``conservative`` = mu - 3 sigma (:func:`trueskill_sequences` with one sequence).

    >>> pairs = pd.DataFrame({"system": ["a", "a"], "system_b": ["b", "b"], "value": [1, 1]})
    >>> trueskill_ratings(pairs)["mu"].round(3).tolist()
    [31.23, 18.77]
    """
    systems, first, second, value = encode_pairs(pairs)
    mu, sigma = trueskill_sequences(
        first[None, :], second[None, :], value[None, :], len(systems), draw_probability, ties
    )
    return trueskill_frame(mu, sigma, systems)


def trueskill_frame(mu: np.ndarray, sigma: np.ndarray, systems: list) -> pd.DataFrame:
    """``mu``, ``sigma`` and ``conservative`` = mu - 3 sigma per system and sequence (rows: the sequences' systems
    in turn), leaving out a system a sequence never rated."""
    index = np.tile(np.asarray(systems, dtype=object), len(mu))
    frame = pd.DataFrame({"mu": mu.ravel(), "sigma": sigma.ravel()}, index=index).dropna()
    return frame.assign(conservative=frame["mu"] - 3 * frame["sigma"])


def encode_pairs(pairs: pd.DataFrame) -> tuple[list, np.ndarray, np.ndarray, np.ndarray]:
    """The systems in order of first appearance (``system`` before ``system_b`` in each choice), and each choice
    as two system numbers and its value (+1, -1 or 0)."""
    codes, systems = pd.factorize(np.column_stack([pairs["system"], pairs["system_b"]]).ravel())
    codes = codes.reshape(-1, 2)
    return list(systems), codes[:, 0], codes[:, 1], np.sign(pd.to_numeric(pairs["value"]).to_numpy(float))


def package_cdf(x: np.ndarray) -> np.ndarray:
    """The ``trueskill`` package's standard normal cdf, 0.5 erfc(-x / sqrt 2), with its erfc (the Chebyshev
    approximation of Press et al., *Numerical Recipes*, erfcc: relative error below 1.2e-7), on arrays: the package
    computes it one float at a time (``trueskill.backends.cdf``; equal to it to 1e-15, tests/test_metrics_by_group.py).
    """
    u = -x / np.sqrt(2)
    z = np.abs(u)
    t = 1.0 / (1.0 + z / 2.0)
    # the package's expression, term for term and in its order, so that each float is its float
    r = t * np.exp(
        -z * z
        - 1.26551223
        + t
        * (
            1.00002368
            + t
            * (
                0.37409196
                + t
                * (
                    0.09678418
                    + t
                    * (
                        -0.18628806
                        + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277))))
                    )
                )
            )
        )
    )
    return 0.5 * np.where(u < 0, 2.0 - r, r)


def package_pdf(x: np.ndarray) -> np.ndarray:
    """The ``trueskill`` package's standard normal pdf (``trueskill.backends.pdf``) on arrays."""
    return 1 / np.sqrt(2 * np.pi) * np.exp(-(x**2 / 2))


def trueskill_sequences(first, second, value, systems: int, draw_probability: float = 0.10, ties: str = "draw"):
    """TrueSkill's two-player update (Herbrich, Minka & Graepel 2007, eqs. for v and w) applied choice by choice to
    many sequences at once: ``first``, ``second`` and ``value`` are arrays of shape (sequences, choices), one
    sequence per row (a bootstrap resample), ``value`` > 0 when ``first`` was chosen, < 0 when ``second`` was, 0 a
    tie: a draw, or with ``ties="skip"`` no update at all. Returns ``mu`` and ``sigma`` of shape (sequences,
    systems), NaN for a system a sequence never updates.

    Per choice, winner w and loser l (a draw: either order): the dynamics widen each belief, s2 = sigma^2 + tau^2;
    c^2 = s2_w + s2_l + 2 beta^2, t = (mu_w - mu_l) / c and eps = margin / c, with the draw margin
    ``trueskill.calc_draw_margin(draw_probability, 2)``; then mu_w += s2_w v / c, mu_l -= s2_l v / c and
    sigma^2 = s2 (1 - s2 w / c^2), with v, w the package's ``v_win``/``w_win`` (``v_draw``/``w_draw`` for a draw)
    computed from its own normal cdf and pdf (:func:`package_cdf`, :func:`package_pdf`: its erfc approximation, so
    that the numbers are the package's, not scipy's: they differ by about 1e-7). Checked against ``trueskill.rate_1vs1`` run choice by choice
    (tests/test_metrics_by_group.py, tests/test_code_health.py: equal to 1e-12).

    Why not ``trueskill.rate_1vs1`` itself: it builds a factor graph per choice, 170 us each, so puduppully's
    bootstrap (100 resamples of 1,800 choices) took 62 s of CPU in its metrics job and the notebook's 1,000
    resamples would take ten minutes; here one pass over the choices updates every resample at once (1,000
    resamples of 600 choices in 0.5 s; 4.7 s with the package's own scalar cdf and pdf through ``np.vectorize``).
    """
    import trueskill

    env = trueskill.TrueSkill(draw_probability=draw_probability)
    margin = trueskill.calc_draw_margin(draw_probability, 2, env=env)
    first, second, value = (np.asarray(a) for a in (first, second, value))
    everyone = np.arange(first.shape[0])
    mu = np.full((first.shape[0], systems), env.mu)
    var = np.full((first.shape[0], systems), env.sigma**2)
    met = np.zeros((first.shape[0], systems), dtype=bool)
    for k in range(first.shape[1]):
        rows = everyone if ties == "draw" else everyone[value[:, k] != 0]
        swap, drawn = value[rows, k] < 0, value[rows, k] == 0
        w, l = np.where(swap, second[rows, k], first[rows, k]), np.where(swap, first[rows, k], second[rows, k])
        s2w, s2l = var[rows, w] + env.tau**2, var[rows, l] + env.tau**2
        c2 = s2w + s2l + 2 * env.beta**2
        c = np.sqrt(c2)
        t, eps = (mu[rows, w] - mu[rows, l]) / c, margin / c
        v, ww = np.empty_like(t), np.empty_like(t)
        won = ~drawn
        if won.any():
            x = t[won] - eps[won]
            denom = package_cdf(x)
            v[won] = np.where(denom != 0, package_pdf(x) / np.where(denom != 0, denom, 1), -x)
            ww[won] = v[won] * (v[won] + x)
        if drawn.any():
            d, e = t[drawn], eps[drawn]
            a, b = e - np.abs(d), -e - np.abs(d)
            denom = package_cdf(a) - package_cdf(b)
            vd = (package_pdf(b) - package_pdf(a)) / denom
            v[drawn] = vd * np.where(d < 0, -1, 1)
            ww[drawn] = vd**2 + (a * package_pdf(a) - b * package_pdf(b)) / denom
        if not np.all((ww > 0) & (ww < 1)):
            raise HumevalError("TrueSkill's update is out of floating-point range (a winner rated far below its loser)")
        mu[rows, w] += s2w / c * v
        mu[rows, l] -= s2l / c * v
        var[rows, w] = s2w * (1 - s2w / c2 * ww)
        var[rows, l] = s2l * (1 - s2l / c2 * ww)
        met[rows, w] = met[rows, l] = True
    return np.where(met, mu, np.nan), np.where(met, np.sqrt(var), np.nan)


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


def resample_rows(n: int, resamples: int, seed: int, resampler: str = "default_rng") -> np.ndarray:
    """Row numbers of ``resamples`` bootstrap resamples of ``n`` rows, one resample per row of the result:
    ``default_rng``, ``numpy.random.default_rng(seed).integers(0, n)``; ``seeded_resample``, TrueSkill.ipynb's
    (van Miltenburg et al. 2023): Python's ``random.seed(seed)`` draws one seed per resample,
    ``random.sample(range(10**9), resamples)``, and each resample is what ``sklearn.utils.resample(rows,
    random_state=that_seed)`` draws, ``numpy.random.RandomState(that_seed)`` choosing n of n rows with replacement
    (checked against scikit-learn, installed with pingouin, in tests/test_metrics_by_group.py).

    >>> resample_rows(5, 2, 42069, "seeded_resample").shape
    (2, 5)
    """
    if resampler == "default_rng":
        return np.random.default_rng(seed).integers(0, n, size=(resamples, n))
    import random

    seeds = random.Random(seed).sample(range(1_000_000_000), resamples)
    return np.stack([np.random.RandomState(s).choice(n, size=n, replace=True) for s in seeds])


#: The counted cost of one resample (CPU s, fixed and per choice), a line above those measured at 20 to 20,000
#: choices of 4 x 4 systems: TrueSkill, all resamples at once, 2.3e-4 to 0.13 a resample; Bradley-Terry, one fit a
#: resample, 2.3e-3 to 0.058 (for :func:`humeval.resampling.spend`).
RESAMPLE_COST = {"trueskill": (2.5e-4, 6.5e-6), "bradley_terry": (2.5e-3, 4.4e-6)}

#: Resampled choices rated at once by :func:`bootstrap_interval` (three arrays of this many numbers, 8 bytes each):
#: 2 million keep the gathered copies under 50 MB whatever the number of choices (puduppully: 1,000 x 600 in one).
RESAMPLED_CHOICES_PER_BLOCK = 2_000_000


def bootstrap_interval(pairs: pd.DataFrame, rate, draws: np.ndarray, *, draw_probability=None, ties="draw"):
    """The 95% percentile interval of each rating statistic over the resamples ``draws`` (row numbers of ``pairs``,
    one resample per row, :func:`resample_rows`), each rated by ``rate`` (TrueSkill, given its
    ``draw_probability`` and ``ties``: every resample at once, :func:`trueskill_sequences`): columns
    ``<stat>_low`` and ``<stat>_high`` per system (numpy's linear percentiles, as ``np.percentile``). A system a
    resample does not rate leaves that resample out of its interval."""
    if draw_probability is None:
        rated = pd.concat([rate(pairs.iloc[d]) for d in draws])
    else:
        systems, first, second, value = encode_pairs(pairs)
        # a block of resamples at a time, so that the gathered choices stay within RESAMPLED_CHOICES_PER_BLOCK
        block = max(1, RESAMPLED_CHOICES_PER_BLOCK // max(1, draws.shape[1]))
        rated_blocks = [
            trueskill_sequences(first[d], second[d], value[d], len(systems), draw_probability, ties)
            for d in (draws[k : k + block] for k in range(0, len(draws), block))
        ]
        mu, sigma = (np.concatenate(parts) for parts in zip(*rated_blocks))
        rated = trueskill_frame(mu, sigma, systems)
    grouped = rated.groupby(level=0, sort=False)
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
    resampler: Literal["default_rng", "seeded_resample"] = "default_rng",
    ties: Literal["draw", "skip"] = "draw",
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
    resampler : {'default_rng', 'seeded_resample'}
        How the resamples are drawn (:func:`resample_rows`): numpy's default generator seeded with ``seed``, or
        TrueSkill.ipynb's ``sklearn.utils.resample`` with one seed per resample from Python's ``random`` seeded
        with ``seed`` (so that its printed intervals can be recomputed).
    ties : {'draw', 'skip'}
        A tie (value 0) in TrueSkill: rated as a draw, or left out of the updates while it stays in the pool the
        bootstrap draws from (TrueSkill.ipynb skips the answers it cannot read after resampling). Bradley-Terry
        leaves ties out either way.

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
            return trueskill_ratings(pairs, draw_probability=draw_probability, ties=ties)
        return bradley_terry_strengths(pairs, alpha=alpha)

    for keys, pairs in groups_of(rows, by):
        if order == "shuffled":
            pairs = pairs.iloc[np.random.default_rng(seed).permutation(len(pairs))]
        rated = rate(pairs)
        if resamples:
            fixed, per_choice = RESAMPLE_COST[method]
            spend("resamples", resamples, fixed + per_choice * len(pairs))
            draws = resample_rows(len(pairs), resamples, seed, resampler)
            trueskill = draw_probability if method == "trueskill" else None
            rated = rated.join(bootstrap_interval(pairs, rate, draws, draw_probability=trueskill, ties=ties))
        rated = rated[choice_stats(method, resamples)]
        for system, record in rated.iterrows():
            for stat, value in record.items():
                fields = {**keys, "system": system, "stat": stat}
                out.append((render(row, fields, labels), render(column, fields, labels), float(value)))
    return value_frame(table, out)
