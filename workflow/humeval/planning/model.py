"""Planning's crossed random-effects model of a finding (:class:`ModelFinding`, docs/planning.md): the finding's
two group means (and their t test) simulated vectorised at any design from the pilot's variance components
(:mod:`humeval.planning.crossed_model`), checked against the study's own metric entries in every run."""

from __future__ import annotations

import numpy as np
import pandas as pd

from humeval.errors import HumevalError
from humeval.findings import finding_cells
from humeval.planning.bootstrap import Simulator
from humeval.planning.models import NotModelled

__all__ = ["ModelFinding"]


#: The most simulated ratings the model holds at once (simulations x judgements of a block): 5 million floats,
#: 40 MB an array, whatever the design's size (a 4x design of a 10^6-judgement pilot would otherwise ask for GBs).
BLOCK_CELLS = 5_000_000


def mean_groups(simulator: Simulator, left: tuple, right: tuple) -> tuple[np.ndarray, int, int]:
    """The pilot's groups of judgements (by criterion, system and condition) and the two whose means the finding's
    ``left`` and ``right`` cells are: adding 1 to a group's values moves exactly its cell by 1, and each cell is
    its group's whole mean (a subset's mean moves by 1 too)."""
    pilot, base = simulator.pilot, simulator.identity
    fixed = [c for c in ("criterion", "system", "condition") if c in pilot]
    group = pd.MultiIndex.from_frame(pilot[fixed].astype(str)).factorize()[0]
    a = b = None
    for g in range(group.max() + 1):
        moved = simulator.shifted(tuple(fixed), g, group)
        shift = [moved.get(c, np.nan) - base.get(c, np.nan) for c in (left, right)]
        if np.allclose(shift, [1, 0]):
            a = g
        elif np.allclose(shift, [0, 1]):
            b = g
    if a is None or b is None:
        raise NotModelled("its cells are not the means of two groups of judgements")
    means = pilot.loc[group == a, "value"].mean(), pilot.loc[group == b, "value"].mean()
    if not np.allclose(means, [base[left], base[right]], rtol=1e-12, atol=0):
        raise NotModelled("its cells are not the means of whole groups of the pilot's judgements")
    return group, a, b


def t_test_variances(values: np.ndarray, in_a: np.ndarray, in_b: np.ndarray, p: float) -> bool:
    """Whether the finding's p is Student's (True) or Welch's (False) two-sample t test of the two groups."""
    from humeval.planning.crossed_model import two_sample_t

    for equal_var in (True, False):
        if np.isclose(two_sample_t(values[None, :], in_a, in_b, equal_var)[3][0], p, rtol=1e-9, atol=0):
            return equal_var
    raise NotModelled("its p is not a two-sample t test of the two groups' judgements")


class ModelFinding:
    """A finding of one comparison of two group means (and, where tested, a Student or Welch t test of the same two
    groups' judgements) planned from the crossed model (:mod:`humeval.planning.crossed_model`) fitted to the pilot's ratings
    of its criterion. The groups its cells read are found by shifting each fixed group (criterion x system x
    condition) of the pilot by 1 and recomputing the study's own metric entries: a mean cell moves by exactly 1
    with its group only. Raises :class:`NotModelled` with the reason otherwise."""

    #: The metrics whose cells it simulates: group means and their t test.
    METRICS = frozenset({"describe", "significance"})

    def __init__(self, simulator: Simulator, finding: dict, label: str, stated: dict | None = None):
        from humeval.planning.crossed_model import components

        comparisons = finding["comparisons"]
        if len(comparisons) != 1 or not all(isinstance(comparisons[0][k], dict) for k in ("left", "right")):
            raise NotModelled("the model plans a finding of one comparison of two cells")
        cells = finding_cells(finding, label)
        names = {m["table"]: m["metric"] for m in simulator.config.get("metrics", [])}
        other = sorted({names.get(c[0], "?") for c in cells} - self.METRICS)
        if other:
            raise NotModelled(f"its cells come from {', '.join(other)}, which the model does not simulate")
        pilot = simulator.pilot
        if (pilot.get("response_type", "rating") != "rating").any():
            raise NotModelled("the pilot's judgements are not all ratings")
        left, right = cells[0], cells[1]
        base = simulator.identity
        group, self.a, self.b = mean_groups(simulator, left, right)
        in_a, in_b = group == self.a, group == self.b
        self.test = None
        if finding.get("significance"):
            self.p_cell, self.alpha = cells[2], finding["significance"].get("alpha", 0.05)
            self.test = t_test_variances(pilot["value"].to_numpy(), in_a, in_b, base[self.p_cell])
        criterion = (
            pilot["criterion"] == pilot.loc[in_a, "criterion"].iloc[0] if "criterion" in pilot else pilot.index >= 0
        )
        # the components of the two groups' judgements alone: another group's spread (yao's ground truth, rated
        # 4.9 of 5 with a variance of 0.11 against 1.3-1.5) is not theirs
        rows = pilot[in_a | in_b]
        # an item judged in both groups (the same input, two systems' outputs) is one item per group: the part
        # of its effect the two share, which cancels in the difference, is not credited (conservative)
        self.crossed = rows["item"].nunique() != rows.assign(g=group[in_a | in_b]).groupby(["item", "g"]).ngroups
        rows = rows.assign(
            item=rows["item"].astype(str) + "|" + pd.Series(group, index=pilot.index)[in_a | in_b].astype(str)
        )
        codes = [pd.factorize(rows[c])[0] for c in ("participant", "item")]
        self.components = components(rows["value"].to_numpy(float), *codes, (group[in_a | in_b] == self.b).astype(int))
        self.stated = stated is not None
        if stated is not None:  # planning.components: another study's, or numbers from a paper
            self.components = {name: float(stated[name]) for name in self.components}
        self.means = np.array([pilot.loc[in_a, "value"].mean(), pilot.loc[in_b, "value"].mean()])
        self.items_a, self.items_b = (
            rows.loc[in_a[in_a | in_b], "item"].nunique(),
            rows.loc[in_b[in_a | in_b], "item"].nunique(),
        )
        self.items_criterion = pilot.loc[criterion, "item"].nunique()
        # judgements per item of a group, per judgement per item of the study (1 where items are nested in groups)
        self.per_item_factor = (len(rows) / (self.items_a + self.items_b)) / (criterion.sum() / self.items_criterion)
        self.greater = comparisons[0]["op"].startswith(">")
        self.simulator, self.cells, self.checked = simulator, (left, right), False
        self.group, self.in_a, self.in_b = group, in_a, in_b

    def layout(self, people: int, items: int, per_item: int):
        """The two groups' part of a study of ``people`` x ``items`` (the study's, all groups) x ``per_item``."""
        from humeval.planning.crossed_model import layout

        both = max(2, round(items * (self.items_a + self.items_b) / self.items_criterion))
        in_a = min(both - 1, max(1, round(both * self.items_a / (self.items_a + self.items_b))))
        per_group = max(1, round(per_item * self.per_item_factor))
        return layout(np.repeat([0, 1], [in_a, both - in_a]), people, min(per_group, people))

    def planned_means(self, effect: float) -> np.ndarray:
        """Group means with the finding's effect (a's mean minus b's, in the direction the claim states) set to
        ``effect``: group a re-centred on b."""
        return np.array([self.means[1] + (effect if self.greater else -effect), self.means[1]])

    def power(self, lay, effects: list[float], simulations: int, rng) -> list[dict]:
        """Simulated and analytic power (or probability of the same direction, untested) at one design and each of
        ``effects``, on common random numbers (each simulation's random terms drawn once, the effects shifting the
        means): per effect ``held``, ``failed`` (a p that cannot be computed), ``analytic`` (:meth:`analytic_at`) and
        the minimum detectable effect ``mde`` at 80% (:meth:`mde`)."""
        from humeval.planning.crossed_model import random_terms, two_sample_t, with_means

        held, failed = np.zeros(len(effects), dtype=int), np.zeros(len(effects), dtype=int)
        block = max(1, min(200, BLOCK_CELLS // max(1, lay.evaluator.size)))  # bounds the memory, not the work
        for start in range(0, simulations, block):
            terms = random_terms(lay, self.components, min(block, simulations - start), rng)
            for k, effect in enumerate(effects):
                values = with_means(lay, self.planned_means(effect), terms)
                mean_a, mean_b, _, p = two_sample_t(values, lay.group == 0, lay.group == 1, self.test is not False)
                if not self.checked:
                    self.check(lay, values[0], mean_a[0], mean_b[0], p[0])
                direction = mean_a > mean_b if self.greater else mean_a < mean_b
                if self.test is None:
                    held[k] += int(direction.sum())
                else:
                    held[k] += int((direction & (p < self.alpha)).sum())
                    failed[k] += int(np.isnan(p).sum())
        mde = self.mde(lay)
        return [
            {
                "held": int(h),
                "failed": int(f),
                "analytic": self.analytic_at(lay, effect),
                "mde": mde,
                **self.valid_analysis(lay, effect),
            }
            for h, f, effect in zip(held, failed, effects)
        ]

    def analytic_at(self, lay, effect: float) -> float:
        """The analytic power (or probability of the same direction) at ``effect``."""
        from scipy.stats import norm

        from humeval.planning.crossed_model import analytic_power, mean_difference_sd, naive_standard_error

        sd = mean_difference_sd(lay, self.components, 0, 1)
        if self.test is None:
            return float(norm.sf(-effect / sd))
        se = naive_standard_error(lay, self.components, 0, 1)
        return analytic_power(effect, sd, se, lay.group.size - 2, self.alpha)

    def valid_analysis(self, lay, effect: float) -> dict:
        """Beside the paper's test, for a tested finding: the power of a test valid under the crossed model
        (``valid``: the true standard error of the difference, :func:`humeval.planning.crossed_model.mean_difference_sd`,
        at the conservative degrees of freedom of :func:`humeval.planning.crossed_model.valid_df`; Westfall, Kenny & Judd
        2014), its minimum detectable effect (``valid_mde``), and the rate at which the paper's test (Student's t
        on judgements taken as independent) sees the finding hold at zero effect (``null_rate``; nominal 0.025).
        NaN for an untested finding (a probability of the same direction has no test to be valid)."""
        from humeval.planning.crossed_model import analytic_power, minimum_detectable, naive_standard_error, valid_df

        if self.test is None:
            return {"valid": float("nan"), "valid_mde": float("nan"), "null_rate": float("nan")}
        sd = self.standard_error(lay)
        df = valid_df(lay, self.components, 0, 1)
        naive = naive_standard_error(lay, self.components, 0, 1)
        return {
            "valid": analytic_power(effect, sd, sd, df, self.alpha),
            "valid_mde": minimum_detectable(sd, sd, df, self.alpha),
            "null_rate": analytic_power(0.0, sd, naive, lay.group.size - 2, self.alpha),
        }

    def standard_error(self, lay) -> float:
        """The standard error of the finding's difference of means in the design ``lay`` under the crossed model
        (:func:`humeval.planning.crossed_model.mean_difference_sd`, Westfall, Kenny & Judd 2014, eq. 5): the SE a valid
        analysis has, against which the one the paper's test implies (judgements taken as independent) is too
        small where evaluators or items vary."""
        from humeval.planning.crossed_model import mean_difference_sd

        return float(mean_difference_sd(lay, self.components, 0, 1))

    def mde(self, lay) -> float:
        """The smallest effect the design recovers with 80% power (untested: in the same direction 80% of the
        time)."""
        from scipy.stats import norm

        from humeval.planning.crossed_model import mean_difference_sd, minimum_detectable, naive_standard_error

        sd = mean_difference_sd(lay, self.components, 0, 1)
        if self.test is None:
            return float(norm.ppf(0.8) * sd)
        se = naive_standard_error(lay, self.components, 0, 1)
        return minimum_detectable(sd, se, lay.group.size - 2, self.alpha)

    def check(self, lay, values, mean_a, mean_b, p):
        """The vectorised cells of one simulated data set equal the study's own metric entries run on it (the
        pilot's other groups as they are, the two groups' judgements replaced by the simulated ones): the run's
        proof that the model computes the finding's own cells."""
        pilot = self.simulator.pilot
        template = pilot[self.in_a].iloc[0], pilot[self.in_b].iloc[0]
        simulated = pd.DataFrame([template[g] for g in lay.group]).reset_index(drop=True)
        simulated["participant"] = [f"simulated{e}" for e in lay.evaluator]
        simulated["item"] = [f"simulated-item{i}" for i in lay.item]
        simulated["value"] = values
        frame = pd.concat([pilot[~(self.in_a | self.in_b)], simulated], ignore_index=True)
        frame["judgement_id"] = np.arange(len(frame))
        cells = self.simulator.values(frame)
        expected = [mean_a, mean_b] + ([p] if self.test is not None else [])
        names = [*self.cells] + ([self.p_cell] if self.test is not None else [])
        got = [cells.get(c, np.nan) for c in names]
        if not np.allclose(got, expected, rtol=1e-9, atol=1e-12, equal_nan=True):
            raise HumevalError(
                f"planning: the model's cells {expected} differ from the metric entries' {got} ({names})"
            )
        self.checked = True
