"""The planning job's budget for its bootstraps, counted before each runs: so that a job within the budgets of the
study file (``planning.simulations`` at most 5,000, :data:`humeval.config.checks.MAX_SIMULATIONS`) ends within a
minute on two cores whatever its pilot and its metric entries (issue 54, item 4).

A bootstrap's time is not known at ``snakemake -n``: it depends on whether every metric entry its findings read
has an item-totals form (then all draws run at once, :meth:`humeval.planning.bootstrap.Simulator.power`) and on
the pilot's size. The job counts it, before drawing, from the draws, the judgements and the items it will
simulate, at the costs below, each the slowest measured per unit on the nine shipped studies' pilots (CPU s of
``Simulator.power`` alone, quiet machine, December 2026). So the count is the same on every machine, and a
bootstrap over the budget is not run: its power.csv rows say so and what to write, and the model's rows stay.

Measured: arvan's bootstrap at ``simulations: 5000`` (within the file's budgets) took 146 CPU s, 9 ms of each draw
being Tukey's p (scipy's studentized range, a double integral); santhanam's per-draw metrics at 57,100 judgements
took 0.23-0.35 s a draw, which is 5.8-11.7 minutes for its 2,000 draws, had it no item-totals forms.
"""

from __future__ import annotations

__all__ = ["BOOTSTRAP_SECONDS", "MAX_DRAWN", "Budget", "OverBudget", "draw_seconds"]

#: What the bootstraps of one planning job may cost, counted (:func:`draw_seconds`): half of the minute a job has
#: on two cores, the other half being the job's start (about 3 s), its model and what a loaded machine takes.
BOOTSTRAP_SECONDS = 30.0
#: Per draw run one by one (the metric entries on a frame of the draw): a fixed part and a part per judgement,
#: the line above the measured 10-31 ms of 1,800-15,680 judgements (puduppully's, with Tukey's p, the slowest)
#: and 0.23-0.35 s of santhanam's 57,100.
ONE_BY_ONE_DRAW, ONE_BY_ONE_JUDGEMENT = 0.025, 6e-6
#: Per draw of the item-totals forms: a fixed part (lux's tallies, 0.95 ms a draw of its null pilot, the slowest),
#: a part per drawn item (hosking's 1,800 items: 0.11 us each), and each scipy evaluation a form makes per draw
#: (Tukey's p, 5-11 ms for 3 groups at 10 to 5,000 df).
VECTORISED_DRAW, VECTORISED_ITEM, SCIPY_CALL = 0.001, 1.2e-7, 0.011
#: The most drawn items a bootstrap holds at once (simulations x items: the draws and their multiplicities, 8
#: bytes each, 320 MB in all).
MAX_DRAWN = 20_000_000


def draw_seconds(vectorised: bool, judgements: int, items: int, calls: int, resampling: float = 0.0) -> float:
    """The counted cost of one draw of ``items`` items: run one by one over ``judgements`` judgements, with the
    ``resampling`` seconds its metrics count (:func:`humeval.resampling.spend`: an effect size's bootstrap, a
    permutation test), or by the item-totals forms with ``calls`` scipy evaluations.

    >>> round(draw_seconds(False, 57_100, 200, 0), 4), round(draw_seconds(True, 3_600, 1_200, 1), 6)
    (0.3676, 0.012144)
    >>> round(draw_seconds(False, 57_100, 200, 0, resampling=0.5), 4)
    0.8676
    """
    if not vectorised:
        return ONE_BY_ONE_DRAW + ONE_BY_ONE_JUDGEMENT * judgements + resampling
    return VECTORISED_DRAW + VECTORISED_ITEM * items + SCIPY_CALL * calls


class OverBudget(Exception):
    """A bootstrap the job's budget does not cover; its text says why and what to write."""


class Budget:
    """The seconds left of a job's :data:`BOOTSTRAP_SECONDS`, spent pilot by pilot in the job's order.

    >>> budget = Budget()
    >>> budget.spend(1000, [(0.01, 100), (0.01, 200)], "R1's bootstrap")
    >>> budget.spend(1000, [(0.0125, 100)], "R2's bootstrap")
    Traceback (most recent call last):
    ...
    humeval.planning.budget.OverBudget: R2's bootstrap is not run: 1000 simulations at about 0.0125 s each (counted, not timed) would take 12.5 s, over the 10 s left of the job's 30 s for bootstraps (planning.simulations: 800 or fewer, or planning.methods: [model])
    """

    def __init__(self, seconds: float | None = None):
        self.total = self.left = BOOTSTRAP_SECONDS if seconds is None else seconds

    def spend(self, simulations: int, draws: list[tuple[float, int]], what: str) -> None:
        """Take ``simulations`` of each of ``draws`` ((seconds, items) of one draw, :func:`draw_seconds`) from what
        is left, or raise :class:`OverBudget` saying how many simulations would fit."""
        per_simulation = sum(seconds for seconds, _ in draws)
        widest = max(items for _, items in draws)
        fits = min(int(self.left / per_simulation), MAX_DRAWN // max(widest, 1))
        if simulations <= fits:
            self.left -= simulations * per_simulation
            return
        if simulations * widest > MAX_DRAWN:
            why = f"{simulations:,} x {widest:,} drawn items is over the {MAX_DRAWN:,} a bootstrap holds at once"
        else:
            why = (
                f"{simulations} simulations at about {per_simulation:.3g} s each (counted, not timed) would take "
                f"{simulations * per_simulation:.3g} s, over the {self.left:.3g} s left of the job's {self.total:.3g} s "
                "for bootstraps"
            )
        advice = (
            f"planning.simulations: {fits} or fewer, or planning.methods: [model]"
            if fits
            else "planning.methods: [model]"
        )
        raise OverBudget(f"{what} is not run: {why} ({advice})")
