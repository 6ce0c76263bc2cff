"""Planning's model of an ICC finding (:class:`IccFinding`, docs/planning.md): comparisons of ICC(C,k) cells
(McGraw & Wong 1996) simulated at any number of *distinct* raters and items from the two-way random model that
each cell's own mean squares imply.

Under the two-way model x_ij = mu + a_i + b_j + e_ij (items i, raters j; normal, complete), the consistency
mean squares are independent, MSR ~ (s_e^2 + k s_a^2) chi2(n - 1) / (n - 1) and MSE ~ s_e^2 chi2((n - 1)(k - 1)) /
((n - 1)(k - 1)), so ICC(C,k) = 1 - MSE / MSR = 1 - 1 / (lambda F) with lambda = 1 + k s_a^2 / s_e^2 and
F ~ F(n - 1, (n - 1)(k - 1)) (McGraw & Wong 1996, Table 7). A cell's ratio s_a^2 / s_e^2 is estimated from its
pilot value, (MSR / MSE - 1) / k = (1 / (1 - ICC) - 1) / k, the ANOVA estimator; a design of k' raters and n'
items draws F on its own degrees of freedom with lambda' = 1 + k' s_a^2 / s_e^2: k' distinct raters, never
copies (a copied rater agrees perfectly with itself)."""

from __future__ import annotations

import functools
import operator

import numpy as np

from humeval.errors import HumevalError
from humeval.findings import margin
from humeval.planning.models import NotModelled

__all__ = ["IccFinding", "IccLayout"]

#: Gauss-Legendre nodes of the analytic probability's integral over a quantile (0, 1): 400 give the integral of
#: santhanam-like comparisons to 1e-7 of scipy's adaptive ``quad`` (tests/test_planning_icc.py), in a millisecond.
NODES = 400

HOLDS = {">": operator.gt, ">=": operator.ge, "<": operator.lt, "<=": operator.le}


@functools.cache
def nodes() -> tuple[np.ndarray, np.ndarray]:
    """:data:`NODES` Gauss-Legendre nodes and weights on (0, 1)."""
    x, w = np.polynomial.legendre.leggauss(NODES)
    return (x + 1) / 2, w / 2


@functools.lru_cache(maxsize=4096)
def quantiles(d1: float, d2: float) -> np.ndarray:
    """F(d1, d2)'s quantiles at the nodes (:func:`nodes`): each design's cells ask for the same few."""
    from scipy.special import fdtri  # the F quantile, as scipy.stats.f.ppf computes it, without scipy.stats

    return fdtri(d1, d2, nodes()[0])


class IccLayout:
    """One design's raters ``k`` and items ``n`` per ICC cell (arrays in :attr:`IccFinding.cells` order)."""

    def __init__(self, raters: np.ndarray, items: np.ndarray):
        self.raters, self.items = raters, items
        self.df = items - 1, (items - 1) * (raters - 1)


class IccFinding:
    """An untested finding whose comparisons each set one ICC(C,k) cell of an ``icc`` table against another,
    planned at any design (people x items) from the two-way model of each cell (module docstring). A design
    scales each cell's raters and items with the study's (``round(k * people / pilot people)``, at least 2), so
    santhanam's C7 at twice its 163 people compares ICCs of twice as many distinct raters per subgroup. Cells are
    drawn independently: two cells of one condition share its items, whose shared part would make their
    difference less variable, so the model is conservative there. Raises :class:`NotModelled` otherwise."""

    #: The metrics whose cells it simulates: ICC(C,k) cells of an ``icc`` table; it models no test.
    METRICS = frozenset({"icc"})
    test = None

    def __init__(self, simulator, finding: dict, label: str, stated: dict | None = None):
        if stated is not None:
            raise NotModelled("planning.components states a two-mean model's components, not an ICC's")
        if finding.get("significance"):
            raise NotModelled("the ICC model plans untested comparisons of ICCs")
        comparisons = finding["comparisons"]
        if not all(isinstance(c[k], dict) for c in comparisons for k in ("left", "right")):
            raise NotModelled("the ICC model plans comparisons of two cells")
        entries = {m["table"]: m for m in simulator.config.get("metrics", [])}
        base = simulator.identity
        pilot = simulator.pilot
        cells, pairs = [], []
        for c in comparisons:
            pair = []
            for key in ("left", "right"):
                cell = tuple(str(c[key][k]).format(side=label) for k in ("table", "row", "column"))
                kind, _, criterion = cell[1].partition("|")
                if entries.get(cell[0], {}).get("metric") != "icc" or kind != "ICC-C" or "|" in criterion:
                    raise NotModelled("its cells are not ICC(C,k) cells of an icc table")
                if cell not in cells:
                    cells.append(cell)
                pair.append(cells.index(cell))
            pairs.append((pair[0], c["op"], pair[1]))
        self.greater = [(a, b) if op.startswith(">") else (b, a) for a, op, b in pairs]
        shifted = {}  # the cells an effect moves (each comparison's left), and which way
        for a, op, _ in pairs:
            shifted.setdefault(a, set()).add(-1 if op.startswith(">") else 1)
        if any(len(way) > 1 for way in shifted.values()) or set(shifted) & {b for _, _, b in pairs}:
            raise NotModelled("a cell is on the left of one comparison and the right of another")
        self.shift = np.array([next(iter(shifted.get(k, {0}))) for k in range(len(cells))], dtype=float)
        raters, items = [], []
        for table, row, column in cells:
            condition, criterion = column.rpartition("|")[0], row.partition("|")[2]
            judged = pilot[(pilot["condition"] == condition) & (pilot["criterion"] == criterion)]
            raters.append(base.get((table, "n", column), np.nan))
            items.append(judged["item"].nunique())
        self.raters, self.items = np.array(raters, dtype=float), np.array(items, dtype=float)
        self.icc = np.array([base[cell] for cell in cells], dtype=float)
        self.check(cells, base)
        self.pairs = pairs
        self.margin = margin(finding, base, label)
        self.people, self.pilot_items = pilot["participant"].nunique(), pilot["item"].nunique()
        self.stated = self.crossed = False

    def check(self, cells, base) -> None:
        """Each cell's raters and items are those its metric entry used: its own p-value is the F test of ICC(C,k)
        on (items - 1, (items - 1)(raters - 1)) degrees of freedom (:func:`humeval.metrics.designs.icc.icc_p_values`);
        the job fails otherwise."""
        from scipy.special import fdtrc  # the F survival function (scipy.stats.f.sf)

        p = np.array([base.get((t, f"{r}|p", c), np.nan) for t, r, c in cells])
        mine = fdtrc(self.items - 1, (self.items - 1) * (self.raters - 1), 1 / (1 - self.icc))
        if not np.allclose(mine, p, rtol=1e-9, atol=0):
            raise HumevalError(f"planning: the ICC model's raters and items do not give the cells' p-values {cells}")

    def layout(self, people: int, items: int, per_item: int) -> IccLayout:
        """Each cell's raters and items at a study of ``people`` x ``items`` (``per_item`` follows: every rater of a
        cell rates each of its items)."""
        scale = people / self.people, items / self.pilot_items
        return IccLayout(
            np.maximum(2, np.round(self.raters * scale[0])), np.maximum(2, np.round(self.items * scale[1]))
        )

    def lambdas(self, lay: IccLayout, effect: float) -> np.ndarray:
        """Each cell's lambda = 1 + k' s_a^2 / s_e^2 at the design, the cells an effect moves shifted (on the ICC
        scale, at the pilot's raters) so that the finding's margin is ``effect``; NaN where that asks for an ICC of
        1 or more."""
        icc = self.icc + self.shift * (self.margin - effect)
        ratio = np.maximum(0.0, (1 / (1 - icc) - 1) / self.raters)  # a negative ICC: no item variance
        return np.where(icc < 1, 1 + lay.raters * ratio, np.nan)

    def power(self, lay: IccLayout, effects: list[float], simulations: int, rng) -> list[dict]:
        """The probability that every comparison holds (the same direction: the finding is untested) at one design
        and each of ``effects``, on common random numbers (each cell's F drawn once for all effects)."""
        d1, d2 = lay.df
        draws = (rng.chisquare(d1, (simulations, d1.size)) / d1) / (rng.chisquare(d2, (simulations, d2.size)) / d2)
        results, mde = [], self.mde(lay)
        for effect in effects:
            lam = self.lambdas(lay, effect)
            icc = 1 - 1 / (lam * draws)
            holds = np.ones(simulations, dtype=bool)
            for a, op, b in self.pairs:
                holds &= HOLDS[op](icc[:, a], icc[:, b])
            failed = simulations if np.isnan(lam).any() else 0
            results.append(
                {
                    "held": 0 if failed else int(holds.sum()),
                    "failed": failed,
                    "analytic": self.analytic_at(lay, effect),
                    "mde": mde,
                }
            )
        return results

    def analytic_at(self, lay: IccLayout, effect: float) -> float:
        """The exact probability that every comparison holds: a comparison holds where lambda_g F_g > lambda_l F_l
        (g the cell claimed greater). Comparisons that share no cell multiply; comparisons that all share one cell
        are integrated over that cell's F (Gauss-Legendre over its quantile); NaN for other shapes."""
        from scipy.special import fdtr, fdtrc  # the F distribution and survival functions (scipy.stats.f.cdf, .sf)

        lam = self.lambdas(lay, effect)
        if np.isnan(lam).any():
            return float("nan")
        d1, d2 = lay.df
        used = [k for pair in self.greater for k in pair]
        weights = nodes()[1]

        def star(shared: int, others: list[int], above: bool) -> float:
            x = quantiles(float(d1[shared]), float(d2[shared])) * lam[shared]
            terms = [fdtr(d1[o], d2[o], x / lam[o]) if above else fdtrc(d1[o], d2[o], x / lam[o]) for o in others]
            return float(weights @ np.prod(terms, axis=0))

        if len(set(used)) == len(used):  # independent comparisons: the narrower cell's F is integrated over
            probability = 1.0
            for g, low in self.greater:
                if d1[g] >= d1[low]:
                    probability *= star(g, [low], True)
                else:
                    probability *= star(low, [g], False)
            return probability
        shared = set.intersection(*[set(pair) for pair in self.greater])
        if len(shared) == 1:
            s = shared.pop()
            if all(g == s for g, _ in self.greater):
                return star(s, [low for _, low in self.greater], True)
            if all(low == s for _, low in self.greater):
                return star(s, [g for g, _ in self.greater], False)
        return float("nan")

    def mde(self, lay: IccLayout) -> float:
        """The smallest effect (the finding's margin, on the ICC scale) with which every comparison holds 80% of the
        time (:meth:`analytic_at`); NaN where there is no analytic probability or none reaches 80%."""
        from scipy.optimize import brentq

        rising = self.shift < 0  # cells an effect raises: their ICC stays below 1
        top = self.margin + (float(np.min(1 - self.icc[rising])) if rising.any() else 1.0) - 1e-9
        at = self.analytic_at(lay, top)
        if not np.isfinite(at) or at < 0.8:
            return float("nan")
        if self.analytic_at(lay, 0.0) >= 0.8:
            return 0.0
        return float(brentq(lambda e: self.analytic_at(lay, e) - 0.8, 0.0, top, xtol=1e-6))
