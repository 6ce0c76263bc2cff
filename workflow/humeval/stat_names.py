"""The names of the statistics the tests and the choice ratings write (``{stat}``), in their order: the one list
the metrics write from and ``snakemake -n`` checks a study's tables against (:mod:`humeval.config.cells`), kept below
both so that the config check imports no metric."""

from __future__ import annotations

__all__ = ["METHOD_STATS", "TEST_STATS", "choice_stats"]

#: The statistics (``{stat}``) each of :func:`humeval.metrics.significance.k_sample_tests`' tests writes, in
#: order.
TEST_STATS = {
    "anova": ("statistic", "df_between", "df_within", "p"),
    "kruskal": ("statistic", "p"),
    "levene": ("statistic", "p"),
    "tukey": ("diff", "p", "ci_low", "ci_high"),
    "anova_table": ("ss_between", "ss_within", "ms_between", "ms_within", "eta_squared"),
    "kruskal_effect": ("eta_squared_h",),
    "dunn": ("z", "p", "p_adjusted"),
    "shapiro": ("statistic", "p"),
}

#: The statistics each method writes (``{stat}``), in order.
METHOD_STATS = {"trueskill": ("mu", "sigma", "conservative"), "bradley_terry": ("log_strength", "strength")}


def choice_stats(method: str, resamples: int = 0) -> list[str]:
    """The statistics :func:`humeval.metrics.choice_ratings.choice_rating_numbers` writes per system, in its
    order: the method's, then with ``resamples`` each one's ``_low`` and ``_high`` bound.

    >>> choice_stats("bradley_terry", resamples=100)
    ['log_strength', 'strength', 'log_strength_low', 'strength_low', 'log_strength_high', 'strength_high']
    """
    stats = list(METHOD_STATS[method])
    return stats + ([f"{s}_{end}" for end in ("low", "high") for s in stats] if resamples else [])
