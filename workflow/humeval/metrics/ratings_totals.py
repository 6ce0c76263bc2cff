"""Item-totals forms (:mod:`humeval.metrics.item_totals`) of the ratings metrics: ``describe`` (mean, SD, n, sum),
``significance`` (Student's and Welch's t) and ``k_sample_tests`` (one-way ANOVA and Tukey's HSD) from per-item
counts, sums and sums of squares, and Spearman's rho of per-item values under any item multiplicities
(:func:`spearman_draws`)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from humeval.errors import HumevalError
from humeval.metrics import StudyData, render
from humeval.metrics.derived import unit_columns
from humeval.metrics.item_totals import ItemTotals, NoForm, item_codes, nan_where, per_item_counts

__all__ = [
    "describe_totals",
    "k_sample_totals",
    "significance_totals",
    "spearman_draws",
    "tukey_critical_sides",
    "tukey_p_bounds",
]


def numeric_rows(data: StudyData, frame: str, variant: str | None, where: dict | None) -> pd.DataFrame:
    """The rows a ratings metric reads, with numeric values; :class:`NoForm` where a variant or a derived frame
    is read (their rows are not the pilot's items) or a value is not a number."""
    if variant is not None or frame not in ("kept", "tidy"):
        raise NoForm(f"frame {frame!r}, variant {variant!r}")
    rows = data.rows(frame, variant, where)
    values = pd.to_numeric(rows["value"], errors="coerce")
    if values.isna().any():
        raise NoForm("a value that is not a number")
    return rows.assign(value=values.to_numpy(dtype=float))


def group_codes(rows: pd.DataFrame, by: list) -> tuple[np.ndarray, list[dict]]:
    """Each row's group of ``by`` (0-based, in order of first appearance, as :func:`humeval.metrics.groups_of`) and
    each group's keys."""
    if not by:
        return np.zeros(len(rows), dtype=int), [{}]
    code = rows.groupby(by, sort=False).ngroup().to_numpy()
    if (code < 0).any():
        raise NoForm("a missing group key")
    keys = rows[by].drop_duplicates().to_dict("records")
    return code, keys


def moments(code: np.ndarray, n_items: int, group: np.ndarray, n_groups: int, values: np.ndarray) -> np.ndarray:
    """items x 3G: per item and group, the count, sum and sum of squares of ``values`` (n, sum x, sum x^2)."""
    flat = code * n_groups + group
    size = n_items * n_groups
    parts = [np.bincount(flat, weights=w, minlength=size) for w in (np.ones_like(values), values, values**2)]
    return np.hstack([part.reshape(n_items, n_groups) for part in parts])


def mean_and_variance(totals: np.ndarray, n_groups: int):
    """Per draw and group: n, the mean and the sample variance (ddof 1) from the totals of :func:`moments`; NaN
    where a group has no value (mean) or one (variance)."""
    n, total, squares = totals[:, :n_groups], totals[:, n_groups : 2 * n_groups], totals[:, 2 * n_groups :]
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = np.where(n > 0, total / n, np.nan)
        variance = np.where(n > 1, np.maximum(squares - n * mean**2, 0.0) / (n - 1), np.nan)
    return n, mean, variance


def describe_totals(
    data: StudyData,
    *,
    table: str,
    by: list,
    row: str,
    column: str,
    stats=("mean", "sd"),
    labels: dict | None = None,
    where: dict | None = None,
    frame: str = "kept",
    variant: str | None = None,
    **declined,
) -> ItemTotals:
    """:func:`humeval.metrics.descriptive.describe_numbers` for ``mean``, ``sd`` (ddof 1), ``n`` and ``sum``: per
    item and group its count, sum and sum of squares; mean S/n, variance (Q - n mean^2) / (n - 1)."""
    if declined or set(stats) - {"mean", "sd", "n", "sum"}:
        raise NoForm(f"describe with {sorted(declined) or sorted(stats)}")
    rows = numeric_rows(data, frame, variant, where)
    group, keys = group_codes(rows, list(by))
    code, items = item_codes(rows["item"])
    per_item = moments(code, len(items), group, len(keys), rows["value"].to_numpy())
    names = [
        [(render(row, {**k, "stat": stat}, labels), render(column, {**k, "stat": stat}, labels)) for stat in stats]
        for k in keys
    ]

    def cells(totals):
        n, mean, variance = mean_and_variance(totals, len(keys))
        found = {"n": n, "sum": totals[:, len(keys) : 2 * len(keys)], "mean": mean, "sd": np.sqrt(variance)}
        return {
            (table, *name): nan_where(found[stat][:, g], n[:, g] == 0)
            for g in range(len(keys))
            for stat, name in zip(stats, names[g])
        }

    return ItemTotals(items, per_item, cells)


def significance_totals(
    data: StudyData,
    *,
    table: str,
    compare: str,
    pairs: list,
    tests: list,
    row: str,
    by: list = (),
    labels: dict | None = None,
    where: dict | None = None,
    frame: str = "kept",
    variant: str | None = None,
    **declined,
) -> ItemTotals:
    """:func:`humeval.metrics.significance.significance_numbers` for Student's and Welch's t (scipy's
    ``ttest_ind``) without a correction: per item, group and pair member the count, sum and sum of squares. Student:
    t = (m_a - m_b) / sqrt(s_p^2 (1/n_a + 1/n_b)), s_p^2 the pooled variance, df n_a + n_b - 2; Welch: se^2 =
    v_a/n_a + v_b/n_b, df by Welch-Satterthwaite; the 95% interval of m_a - m_b as scipy's ``confidence_interval``.
    A group whose member has fewer than 2 values is NaN (the metric refuses the data)."""
    if declined or any(t["test"] not in ("student_t", "welch_t") or t.get("correction") for t in tests):
        raise NoForm("significance with other tests or options")
    rows = numeric_rows(data, frame, variant, where)
    group, keys = group_codes(rows, list(by))
    code, items = item_codes(rows["item"])
    member = rows[compare].to_numpy()
    blocks = []
    for a, b in pairs:
        for value in (a, b):
            on = member == value
            blocks.append(moments(code[on], len(items), group[on], len(keys), rows["value"].to_numpy()[on]))
    per_item = np.hstack(blocks)
    width = 3 * len(keys)

    def cells(totals):
        from scipy import stats

        out = {}
        for p, (a, b) in enumerate(pairs):
            n_a, m_a, v_a = mean_and_variance(totals[:, 2 * p * width : (2 * p + 1) * width], len(keys))
            n_b, m_b, v_b = mean_and_variance(totals[:, (2 * p + 1) * width : (2 * p + 2) * width], len(keys))
            enough = (n_a >= 2) & (n_b >= 2)
            for spec in tests:
                with np.errstate(invalid="ignore", divide="ignore"):
                    if spec["test"] == "student_t":
                        df = n_a + n_b - 2
                        se = np.sqrt(((n_a - 1) * v_a + (n_b - 1) * v_b) / df * (1 / n_a + 1 / n_b))
                    else:
                        se = np.sqrt(v_a / n_a + v_b / n_b)
                        df = se**4 / ((v_a / n_a) ** 2 / (n_a - 1) + (v_b / n_b) ** 2 / (n_b - 1))
                    t = (m_a - m_b) / se
                    alternative = spec.get("alternative", "two-sided")
                    if alternative == "two-sided":
                        p_value, q = 2 * stats.t.sf(np.abs(t), df), stats.t.ppf(0.975, df)
                        low, high = m_a - m_b - q * se, m_a - m_b + q * se
                    else:
                        q = stats.t.ppf(0.95, df)
                        greater = alternative == "greater"
                        p_value = stats.t.sf(t, df) if greater else stats.t.cdf(t, df)
                        low = m_a - m_b - q * se if greater else np.full_like(t, -np.inf)
                        high = np.full_like(t, np.inf) if greater else m_a - m_b + q * se
                found = {"statistic": t, "df": df, "p": p_value, "ci_low": low, "ci_high": high}
                unknown = sorted(set(spec["columns"]) - set(found))
                if unknown:
                    raise HumevalError(f"test {spec['test']} gives no {unknown}; it gives {sorted(found)}")
                for g, k in enumerate(keys):
                    label = render(row, {**k, "a": a, "b": b}, labels)
                    for stat, col in spec["columns"].items():
                        out[(table, label, col)] = nan_where(found[stat][:, g], ~enough[:, g])
        return out

    return ItemTotals(items, per_item, cells)


class Samples:
    """Per draw, the k samples of one group of a k-sample test (S x k): their sizes, means and variances, which of
    them the draw holds, k, N - k and the within-sample sum of squares; a draw the metric refuses (fewer than two
    samples, or, with a ``stated`` order, one of them missing) is ``refused``."""

    def __init__(self, sizes: np.ndarray, means: np.ndarray, variances: np.ndarray, stated: bool):
        self.sizes, self.means, self.present = sizes, means, sizes > 0
        self.k = self.present.sum(axis=1)
        self.refused = (self.k < 2) | (~self.present.all(axis=1) if stated else False)
        self.df = np.where(self.present, sizes, 0).sum(axis=1) - self.k
        self.within = np.where(self.present, (sizes - 1) * np.nan_to_num(variances), 0).sum(axis=1)


def anova_draws(samples: Samples) -> tuple[tuple[np.ndarray, ...], np.ndarray]:
    """One-way ANOVA per draw, as ``scipy.stats.f_oneway``: (F, k - 1, N - k, p) and the refused draws."""
    from scipy.special import fdtrc

    present, sizes, k, df = samples.present, samples.sizes, samples.k, samples.df
    means = np.nan_to_num(samples.means)
    with np.errstate(invalid="ignore", divide="ignore"):
        grand = np.where(present, sizes * means, 0).sum(axis=1) / (df + k)
        between = np.where(present, sizes * (means - grand[:, None]) ** 2, 0).sum(axis=1)
        f = (between / (k - 1)) / (samples.within / df)
    return (f, (k - 1).astype(float), df.astype(float), fdtrc(k - 1, df, f)), samples.refused


def tukey_draws(samples: Samples, i: int, j: int, printed: bool, intervals: bool, levels: frozenset | None = None):
    """Tukey-Kramer's (diff, p, ci_low, ci_high) of samples i < j per draw, as :func:`tukey_hsd_pairs` computes
    them (the difference j - i where ``printed``), and the draws without it: refused, either sample missing, or
    any sample of one value (the metric refuses Tukey's HSD there). With ``levels`` (the alphas the p is only
    compared with, :func:`humeval.findings.decision_levels`), the p of a draw is scipy's only where its bounds
    (:func:`tukey_p_bounds`) leave a level between them, else their lower end, on the same side of every level."""
    from humeval.metrics.significance import studentized_range_quantile, studentized_range_sf

    sizes, means, present, k, df = samples.sizes, samples.means, samples.present, samples.k, samples.df
    skip = samples.refused | (present & (sizes <= 1)).any(axis=1) | ~present[:, i] | ~present[:, j]
    held = np.where(present, sizes, np.nan)
    with np.errstate(invalid="ignore", divide="ignore"):
        smallest = np.nanmin(held, axis=1)
        equal = smallest == np.nanmax(held, axis=1)
        normalize = np.where(equal, 2 / smallest, 1 / sizes[:, j] + 1 / sizes[:, i])
        error = np.sqrt(normalize * (samples.within / df) / 2)
        q = np.abs(means[:, i] - means[:, j]) / error
    p, level = np.full(len(q), np.nan), np.full(len(q), np.nan)
    exact = ~skip
    if levels is not None:
        low, exact = tukey_p_bounds(q, k, df, ~skip, levels)
        p[~skip] = low
        exact = tukey_critical_sides(q, k, df, exact, levels, p)
    p[exact] = [studentized_range_sf(float(q[s]), int(k[s]), float(df[s])) for s in np.flatnonzero(exact)]
    draws = np.flatnonzero(~skip)
    if intervals:
        level[draws] = [studentized_range_quantile(0.95, int(k[s]), float(df[s])) for s in draws]
    a, b = (j, i) if printed else (i, j)  # the difference a - b and its interval
    difference = means[:, a] - means[:, b]
    return (difference, p, difference - level * error, difference + level * error), skip


def tukey_p_bounds(q: np.ndarray, k: np.ndarray, df: np.ndarray, held: np.ndarray, levels: frozenset):
    """For the draws ``held``: a lower bound of Tukey's p = P(Q_{k, df} > q), and the draws whose exact p is still
    needed to tell on which side of each of ``levels`` it lies.

    The studentized range of k standard normals over an independent s (s^2 ~ chi^2_df / df) is at least the range
    of two of them, and exceeds q only where one of its k(k - 1)/2 pairs does, each pair's difference over s being
    sqrt(2) times Student's t on df: L = 2 P(T_df > q / sqrt(2)) <= p <= min(1, k(k - 1)/2 L) (Bonferroni). Where
    no level lies in [L, U] (widened by 1e-6 of each end, more than scipy's integral errs), L decides as p does;
    else, and for a (q, df) two draws share (one integral serves both, and a p the draws never move stays the
    pilot's, as :meth:`humeval.planning.bootstrap.Simulator.power` asks), the exact p. arvan's planning (k = 4,
    alpha 0.05): 193 of its 1,009 draws need it, 10.2 of its 14.3 CPU s before.

    q = 8 and 0.5 decided by L (8 twice: one integral for both), 3.2 not (L = 0.027, U = 0.164):

    >>> q, k, df = np.array([8.0, 0.5, 3.2, 8.0, 7.0]), np.full(5, 4), np.full(5, 60.0)
    >>> low, exact = tukey_p_bounds(q, k, df, np.ones(5, bool), frozenset({0.05}))
    >>> exact.tolist(), bool(low[0] < 0.05 < low[1])
    ([True, False, True, True, False], True)
    """
    from scipy.special import stdtr

    with np.errstate(invalid="ignore"):
        low = 2 * stdtr(df[held], -q[held] / np.sqrt(2))
    high = np.minimum(1.0, k[held] * (k[held] - 1) / 2 * low)
    between = np.zeros(low.shape, dtype=bool)
    for alpha in levels:
        between |= (low * (1 - 1e-6) <= alpha) & (alpha <= high * (1 + 1e-6))
    shared = np.zeros(low.shape, dtype=bool)
    if low.size:
        _, where, counts = np.unique(np.stack([q[held], df[held]]), axis=1, return_inverse=True, return_counts=True)
        shared = counts[where.ravel()] > 1
    exact = np.zeros(len(q), dtype=bool)
    exact[held] = between | shared
    return low, exact


#: How many draws of one (k, df) whose bounds leave a level between them pay for the critical values: a quantile is a
#: root search over the double integral (0.2-0.3 s), one p the integral alone (2-10 ms).
CRITICAL_FROM = 30


def tukey_critical_sides(q, k, df, exact: np.ndarray, levels: frozenset, p: np.ndarray) -> np.ndarray:
    """The draws of ``exact`` (whose bounds, :func:`tukey_p_bounds`, leave a level undecided) that still need the
    exact p, the others' ``p`` (their lower bounds) set in place to a value on p's side of every level: where
    :data:`CRITICAL_FROM` or more share one (k, df), p < alpha exactly where q exceeds the critical value
    q_alpha = the studentized range's 1 - alpha quantile (one root search per level, k and df), so q decides; a q
    within 1e-4 of a critical value keeps the exact p. A decided draw's value is the largest of its lower bound
    and the levels p exceeds: not below any of them (p < alpha is false there, p >= alpha true), below every
    other. puduppully's planning (k = 5, df 95, summaries drawn whole): 626 integrals, 5.3 of its 8.1 CPU s.

    >>> q, k, df = np.array([3.7, 4.2, 3.0] * 10), np.full(30, 4), np.full(30, 60.0)
    >>> p = np.full(30, 0.01)
    >>> still = tukey_critical_sides(q, k, df, np.ones(30, bool), frozenset({0.05}), p)
    >>> bool(still.any()), p[:3].tolist()  # q_0.05 = 3.737: 3.7 and 3.0 above alpha, 4.2 below
    (False, [0.05, 0.01, 0.05])
    """
    from humeval.metrics.significance import studentized_range_quantile

    still = exact.copy()
    if not exact.any():
        return still
    cells = np.stack([k[exact], df[exact]])
    groups, where, counts = np.unique(cells, axis=1, return_inverse=True, return_counts=True)
    draws = np.flatnonzero(exact)
    for g in np.flatnonzero(counts >= CRITICAL_FROM):
        mine = draws[where.ravel() == g]
        below = np.full(mine.size, -np.inf)  # the largest level p exceeds
        close = np.zeros(mine.size, dtype=bool)
        for alpha in sorted(levels):
            critical = studentized_range_quantile(1 - alpha, int(groups[0, g]), float(groups[1, g]))
            close |= np.abs(q[mine] - critical) <= 1e-4 * critical
            below = np.where(q[mine] < critical, np.maximum(below, alpha), below)
        decided = mine[~close]
        p[decided] = np.maximum(p[decided], below[~close])
        still[decided] = False
    return still


def derived_spec(data: StudyData, frame: str) -> dict | None:
    """The study's ``derived`` entry of id ``frame``, or None."""
    return {d["id"]: d for d in data.config.get("derived", [])}.get(frame)


def derived_sums(data: StudyData, frame: str, variant: str | None, where: dict | None):
    """A derived frame (:func:`humeval.metrics.derived.derive`) whose value is a sum over its judgements (``count``,
    ``sum``, ``pairwise_score`` over both positions) and whose groups are not items: its rows (the ``by`` columns),
    and per judgement its item code, the distinct items and (its contribution to its row's value, its row). A
    draw's value of a row is the sum of its drawn judgements' contributions, and the row exists where one is drawn.
    :class:`NoForm` for other reducers, groups of items, a variant, a ``where`` on the frame, or a frame made from
    another."""
    from humeval.metrics.derived import both_positions

    spec = derived_spec(data, frame)
    if spec is None or variant is not None or where or spec.get("variant") is not None:
        # a variant drops judgements by id, and a draw's copies are judgements of their own
        raise NoForm(f"frame {frame!r} with variant {variant or (spec or {}).get('variant')!r}, where {where!r}")
    by, reduce, of = list(spec["by"]), spec["reduce"], spec.get("of", "value")
    if (
        reduce not in ("count", "sum", "pairwise_score")
        or "item" in by
        or spec.get("from", "kept") not in ("kept", "tidy")
    ):
        raise NoForm(f"derived frame {frame!r}: {reduce} by {by} from {spec.get('from', 'kept')!r}")
    source = data.rows(spec.get("from", "kept"), None, spec.get("where"))
    if reduce == "pairwise_score":
        source = both_positions(source)
        contribution = np.sign(source["value"].to_numpy(dtype=float))
    elif reduce == "sum":
        contribution = pd.to_numeric(source[of], errors="coerce").to_numpy(dtype=float)
    else:
        contribution = np.ones(len(source))
    if source[by].isna().any().any() or np.isnan(contribution).any():
        raise NoForm("a missing group key or value")
    row = source.groupby(by, sort=False).ngroup().to_numpy()
    rows = source[by].drop_duplicates().reset_index(drop=True)
    code, items = item_codes(source["item"])
    return rows, code, items, (contribution, row)


def derived_moments(rows: pd.DataFrame, code, n_items: int, contribution, cell, width: int, units: list):
    """Per item the totals a derived frame's rows (:func:`derived_sums`) give its test's moments by, and the map
    from a draw's totals to the moments (None: they are the moments). With ``units`` (each row an observation of
    its unit, :func:`humeval.metrics.derived.unit_columns`), a row's moments stand on its unit's first item, so a
    draw that holds a unit's items m times holds its rows m times. Without, per item each row's drawn sum and
    count, a row being the sum of the judgements a draw holds, present where one is."""
    value, derived_row = contribution
    if units:
        score = np.bincount(derived_row, weights=value, minlength=len(rows))
        unit = rows.groupby(units, sort=False).ngroup().to_numpy()
        first = np.full(int(unit.max()) + 1, n_items)
        np.minimum.at(first, unit[derived_row], code)  # a unit's first item stands for it
        return moments(first[unit], n_items, cell, width, score), None
    cells_n = len(rows)
    per_item = np.hstack(
        [
            per_item_counts(code, n_items, derived_row, cells_n, value),
            per_item_counts(code, n_items, derived_row, cells_n),
        ]
    )
    indicator = np.zeros((cells_n, width))
    indicator[np.arange(cells_n), cell] = 1.0

    def observed(totals):
        drawn, present = totals[:, :cells_n], (totals[:, cells_n:] > 0).astype(float)
        return np.hstack([present @ indicator, drawn @ indicator, (drawn**2) @ indicator])

    return per_item, observed


def k_sample_totals(
    data: StudyData,
    *,
    table: str,
    tests: list,
    group: str = "system",
    by: list = (),
    order="first",
    adjust: str = "holm",
    row: str = "{test}",
    column: str = "{stat}",
    labels: dict | None = None,
    where: dict | None = None,
    frame: str = "kept",
    variant: str | None = None,
    **declined,
) -> ItemTotals:
    """:func:`humeval.metrics.significance.k_sample_numbers` for ``anova`` and ``tukey`` with the groups in a
    stated or the printed order: per item, by-group and sample (a value of ``group``) the count, sum and sum of
    squares. Over the samples a draw holds (the printed order's k can shrink; a stated order must find all of
    them, else its cells are NaN, as the metric refuses such data): ANOVA's F = (SS_b / (k - 1)) / (SS_w / (N -
    k)) with SS_b = sum n_i (m_i - m)^2 and SS_w = sum (n_i - 1) s_i^2, p the F distribution's upper tail
    (``scipy.special.fdtrc``, as ``f_oneway``); Tukey-Kramer's q and p as :func:`tukey_hsd_pairs` computes them,
    each p by scipy's studentized range (:func:`studentized_range_sf`, kept per (q, k, df)), only for the pairs
    whose cells the bootstrap reads where it names them (``data.wanted``), the interval only where one is read.
    The order of first appearance is declined: a draw can change it, and with it the pairs' names and signs
    (``adjust`` applies to Dunn's test only, which is declined).

    A derived frame whose rows are observations of a unit (:func:`humeval.metrics.derived.unit_columns`: a summary,
    an input) is resampled by unit: each row's moments stand on its unit's first item, so a draw that holds every
    item of a unit m times (planning's unit draws, :meth:`humeval.planning.bootstrap.Simulator.draws`) holds the
    row m times, as the test's sample of units with replacement would. Without units, a row is the sum of its drawn
    judgements."""
    from humeval.metrics.significance import TEST_STATS, wanted_pairs

    if declined or set(tests) - {"anova", "tukey"} or isinstance(order, str) and order != "printed":
        raise NoForm(f"k_sample_tests with {sorted(declined) or tests}, order {order!r}")
    if frame in ("kept", "tidy"):
        rows = numeric_rows(data, frame, variant, where)
        code, items = item_codes(rows["item"])
    else:  # one value per group of a derived frame, each a sum over the items (:func:`derived_sums`)
        rows, code, items, contribution = derived_sums(data, frame, variant, where)
    by_group, keys = group_codes(rows, list(by))
    sample, names = pd.factorize(rows[group])
    if (sample < 0).any():
        raise NoForm("a missing group value")
    names = [str(name) for name in names]
    wanted = sorted(names) if order == "printed" else [str(g) for g in order]
    if sorted(set(names) - set(wanted)):
        raise NoForm(f"groups {sorted(set(names) - set(wanted))} outside the order")
    position = np.array([wanted.index(name) for name in names])[sample]  # each row's sample, in the test's order
    k_all, width = len(wanted), len(keys) * len(wanted)
    cell = by_group * k_all + position  # each row's (by-group, sample) cell of the moments
    if frame in ("kept", "tidy"):
        per_item, observed = moments(code, len(items), cell, width, rows["value"].to_numpy()), None
    else:
        units = unit_columns(derived_spec(data, frame), {"by": by, "group": group})
        per_item, observed = derived_moments(rows, code, len(items), contribution, cell, width, units)

    # per by-group: its keys, the Tukey pairs (i, j) of ``wanted`` it writes, each with the alphas its p is only
    # compared with (``data.levels``, None: its exact p), and whether intervals
    plans = []
    for g, key in enumerate(keys):
        pairs, intervals = (
            ({(i, j) for i in range(k_all) for j in range(i + 1, k_all)}, True)
            if data.wanted is None
            else wanted_pairs(wanted, table, row, column, key, labels, data.wanted)
        )
        levels = {}
        for i, j in pairs:
            fields = {**key, "test": f"{wanted[i]} vs {wanted[j]}", "stat": "p"}
            levels[i, j] = (data.levels or {}).get((table, render(row, fields, labels), render(column, fields, labels)))
        plans.append((key, sorted(pairs), intervals, levels))
    printed = order == "printed"

    def cells(totals):
        totals = totals if observed is None else observed(totals)
        n, mean, variance = (part.reshape(len(totals), len(keys), k_all) for part in mean_and_variance(totals, width))
        out = {}
        for g, (key, pairs, intervals, levels) in enumerate(plans):
            samples = Samples(n[:, g], mean[:, g], variance[:, g], stated=not printed)
            found = {"anova": anova_draws(samples)} if "anova" in tests else {}
            if "tukey" in tests:
                for i, j in pairs:
                    found[f"{wanted[i]} vs {wanted[j]}"] = tukey_draws(samples, i, j, printed, intervals, levels[i, j])
            for test, (values, refused) in found.items():
                for stat, value in zip(TEST_STATS["tukey" if test != "anova" else "anova"], values):
                    fields = {**key, "test": test, "stat": stat}
                    cell = (table, render(row, fields, labels), render(column, fields, labels))
                    out[cell] = nan_where(value, refused)
        return out

    calls = sum(len(pairs) for _, pairs, _, _ in plans) if "tukey" in tests else 0
    return ItemTotals(items, per_item, cells, calls)


def weighted_ranks(multiplicity: np.ndarray, x: np.ndarray) -> np.ndarray:
    """S x items: each item's average rank (1-based, ties share the mean rank) among the values ``x`` where item i
    appears ``multiplicity[s, i]`` times in draw s: the items of a smaller value, plus (copies + 1) / 2.

    >>> weighted_ranks(np.array([[1.0, 1, 1], [2, 0, 1]]), np.array([5.0, 3, 5])).tolist()
    [[2.5, 1.0, 2.5], [2.0, 0.5, 2.0]]
    """
    classes, code = np.unique(x, return_inverse=True)
    indicator = np.zeros((x.size, classes.size))
    indicator[np.arange(x.size), code] = 1.0
    copies = multiplicity @ indicator
    return ((np.cumsum(copies, axis=1) - copies) + (copies + 1) / 2)[:, code]


def spearman_draws(multiplicity: np.ndarray, x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Spearman's rho and its two-sided p (scipy's ``spearmanr``: Pearson's r of the average ranks, t = r sqrt((n -
    2) / ((1 + r)(1 - r))) on n - 2 df) of the paired per-item values ``x`` and ``y`` in each draw (S x items
    multiplicities; an item drawn k times is k pairs). Items where either is NaN are left out, as an inner join
    leaves them."""
    from scipy import stats

    both = ~(np.isnan(x) | np.isnan(y))
    weight, x, y = multiplicity[:, both], x[both], y[both]
    n = weight.sum(axis=1)
    rank_x, rank_y = weighted_ranks(weight, x), weighted_ranks(weight, y)
    centre = ((n + 1) / 2)[:, None]  # the mean of ranks 1..n
    with np.errstate(invalid="ignore", divide="ignore"):
        covariance = (weight * (rank_x - centre) * (rank_y - centre)).sum(axis=1)
        spread = np.sqrt((weight * (rank_x - centre) ** 2).sum(axis=1) * (weight * (rank_y - centre) ** 2).sum(axis=1))
        rho = covariance / spread
        t = rho * np.sqrt(((n - 2) / ((rho + 1.0) * (1.0 - rho))).clip(0))
    return rho, 2 * stats.t.sf(np.abs(t), n - 2)
