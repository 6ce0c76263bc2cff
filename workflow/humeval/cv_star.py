"""CV*, the small-sample coefficient of variation of QRA Type I (Belz, Popovic & Mille 2022), and the
corrected SD s / c4(n) it divides by the mean. A low-level piece: the QRA entries (:mod:`humeval.qra.precision`),
QRA3's Type I measures (:mod:`humeval.qra.qra3`) and the item-level CV* metric all use it; it imports nothing of
the package."""

from __future__ import annotations

import math

import numpy as np

__all__ = ["c4", "cv_star", "cv_star_rows", "sd_star"]


def c4(n: int) -> float:
    """Bias-correction factor of the sample SD: c4(n) = sqrt(2/(n-1)) Gamma(n/2) / Gamma((n-1)/2).

    >>> round(c4(2), 6)
    0.797885
    """
    if n < 2:
        raise ValueError("c4 needs n >= 2")
    return math.sqrt(2.0 / (n - 1)) * math.exp(math.lgamma(n / 2) - math.lgamma((n - 1) / 2))


def cv_star(values, shift: float = 0.0, c4_correction: bool = True) -> float:
    """CV* = (1 + 1/(4n)) * (s / c4(n)) / |mean| * 100 over ``values + shift``.

    s is the sample SD (ddof = 1), n the number of measurements (Belz, Popovic & Mille 2022; reference
    code asbelz/coeff-var). Returns NaN when the mean is 0. ``c4_correction=False`` divides by s itself
    (a published variant: the Yao 2022 family's notebook, 1.125 x 100 x s / |mean| for n = 2).

    >>> round(cv_star([36, 23.0]), 3), round(cv_star([36, 23.0], c4_correction=False), 3)
    (43.936, 35.056)
    """
    return float(cv_star_rows(np.asarray(values, dtype=float).reshape(1, -1), shift, c4_correction)[0])


def cv_star_rows(matrix, shift: float = 0.0, c4_correction: bool = True) -> np.ndarray:
    """:func:`cv_star` of every row of a 2-D array (measurands x measurements) at once, with numpy: item-level
    CV* over a hundred thousand items without a Python call per item. NaN where n < 2 (one measurement has no
    spread: CV* is undefined, not an error) or the mean is 0.

    >>> cv_star_rows([[36, 23.0], [1, 1], [-1, 1]]).round(3).tolist()
    [43.936, 0.0, nan]
    """
    x = np.asarray(matrix, dtype=float) + shift
    n = x.shape[1]
    if n < 2:
        return np.full(x.shape[0], np.nan)
    mean = x.mean(axis=1)
    s = x.std(axis=1, ddof=1) / (c4(n) if c4_correction else 1.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(mean == 0, np.nan, (1 + 1 / (4 * n)) * s / np.abs(mean) * 100)


def sd_star(values) -> float:
    """The small-sample-corrected SD s / c4(n) that CV* divides by the mean (ddof = 1 for s).

    Reported beside CV* because papers sometimes print it in CV*'s place.

    >>> round(sd_star([0.37, 0.47]), 4)
    0.0886
    """
    x = np.asarray(values, dtype=float)
    return float(x.std(ddof=1) / c4(x.size)) if x.size >= 2 else float("nan")
