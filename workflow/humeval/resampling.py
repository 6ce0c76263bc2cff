"""Resampling within a budget of time per job (issue 54, item 4): every bootstrap and permutation test of the
metrics and QRA jobs is counted before it runs, at the costs its call site measured, against one budget per job
(:func:`job_budget`, opened by :func:`humeval.metrics.metrics_study` and :func:`humeval.qra.qra_values`).

The study file bounds each entry's resamples at ``snakemake -n`` (:data:`humeval.config.checks.MAX_RESAMPLES`),
but not what they cost: that grows with the values each resample draws, with the groups and pairs an entry
resamples apart, with BCa's jackknife (n^2) and with the number of entries. Measured, CPU s: 100,000 re-pairings
of a QRA correlation of 1,000 measurands 24; 9,999 BCa resamples of an effect size over 20,000 ratings 13.7;
Bradley-Terry's bootstrap 7 ms a resample, so 10,000 resamples of ten groups about 12 minutes. A count is the same
on every machine, so a study's numbers never depend on how loaded it is; one over the budget stops its job in one
line naming the entry, what it would cost and how many resamples fit.
"""

from __future__ import annotations

import contextlib
import contextvars
from dataclasses import dataclass

from humeval.errors import HumevalError

__all__ = ["JOB_SECONDS", "counted", "job_budget", "spend"]

#: What the resampling of one metrics or QRA job may count: half the minute a job has on two cores.
JOB_SECONDS = 30.0


@dataclass
class _Left:
    total: float
    left: float
    spent: float = 0.0


_BUDGET: contextvars.ContextVar[_Left | None] = contextvars.ContextVar("resampling budget", default=None)


@contextlib.contextmanager
def job_budget(seconds: float | None = None):
    """The budget of one job's resampling (:data:`JOB_SECONDS`), spent by :func:`spend` inside the block (a block
    inside another spends the outer one's); outside any, nothing is counted (a metric called on its own, as in its
    doctest)."""
    if _BUDGET.get() is not None:
        yield
        return
    token = _BUDGET.set(_Left(*(2 * [JOB_SECONDS if seconds is None else seconds])))
    try:
        yield
    finally:
        _BUDGET.reset(token)


@contextlib.contextmanager
def counted():
    """Count, without bounding, the resampling of the block (a block of its own, inside a job's budget or not):
    yields the record whose ``spent`` is what it counted, in seconds. What one draw of planning's bootstrap would
    cost where each draw runs the metrics (:meth:`humeval.planning.bootstrap.Simulator.draw_cost`), each of which
    opens a budget of its own.

    >>> with counted() as count:
    ...     spend("resamples", 1_000, 0.0005, once=0.1)
    >>> count.spent
    0.6
    """
    record = _Left(float("inf"), float("inf"))
    token = _BUDGET.set(record)
    try:
        yield record
    finally:
        _BUDGET.reset(token)


def spend(key: str, resamples: int, per_resample: float, once: float = 0.0) -> None:
    """Count ``resamples`` resamples of ``per_resample`` seconds each, and ``once`` seconds that do not depend on
    them (BCa's jackknife), against the job's budget; over it, a :class:`HumevalError` naming ``key`` and the
    resamples that fit.

    >>> with job_budget(1.0):
    ...     spend("resamples", 1_000, 0.0005)
    ...     spend("resamples", 2_000, 0.0005, once=0.1)
    Traceback (most recent call last):
    ...
    humeval.errors.HumevalError: resamples: 2,000 resamples at about 0.0005 s each (counted, not timed) would take 1.1 s, over the 0.5 s left of the job's 1 s for resampling (resamples: 800 or fewer)
    """
    budget = _BUDGET.get()
    if budget is None:
        return
    seconds = resamples * per_resample + once
    if seconds <= budget.left:
        budget.left -= seconds
        budget.spent += seconds
        return
    fits = max(0, int((budget.left - once) / per_resample)) if per_resample > 0 else 0
    advice = f"{key}: {fits:,} or fewer" if fits else "fewer values, groups or entries"
    raise HumevalError(
        f"{key}: {resamples:,} resamples at about {per_resample:.3g} s each (counted, not timed) would take "
        f"{seconds:.3g} s, over the {budget.left:.3g} s left of the job's {budget.total:.3g} s for resampling "
        f"({advice})"
    )
