"""A study's findings and how far they hold: the claims and planning findings a study states (:func:`findings`),
the experiments each is judged in (:func:`finding_sides`), the cells it reads, whether it holds (:func:`evaluate`),
its margin and effect with the standard error its own test implies (:func:`margin`, :func:`effect_and_error`),
whether a reproduction's effect is the original's (:func:`consistency`), and the effect bases planning powers are
given at (:func:`bases`). Shared by reproduction planning (:mod:`humeval.planning.plan`) and the summary's findings."""

from __future__ import annotations

import numpy as np

__all__ = [
    "Z95",
    "bases",
    "consistency",
    "decision_levels",
    "effect_and_error",
    "evaluate",
    "evaluate_draws",
    "finding_cells",
    "finding_sides",
    "findings",
    "margin",
    "margin_draws",
]


def findings(study: dict) -> list[dict]:
    """Every finding: each QRA Type IV claim (with its entry's ``sides``, or its side ``labels`` for original and
    reproduction), then ``planning: findings`` (judged in every experiment)."""
    out = []
    for entry in study.get("qra", []):
        if entry["type"] == "claims":
            out += [dict(claim, labels=entry.get("labels", {}), sides=entry.get("sides")) for claim in entry["claims"]]
    planning = study.get("planning", {})
    out += [dict(finding, per_experiment=True) for finding in planning.get("findings", [])]
    return out


def finding_sides(finding: dict, study: dict) -> list[tuple[str, str, str]]:
    """Where a finding is judged: ``(experiment id, its side name in the data, the text that replaces {side} in
    the finding's cells)`` in the study's order of experiments.

    A claim entry with ``sides`` ({experiment id: text}) is judged in each experiment it names, any number of them;
    a planning finding in every experiment (``{side}``: ``planning.labels`` of the experiment, else its side
    name); a claim without ``sides`` in the first two experiments, as its entry's ``labels`` of original and
    reproduction say (the two-sided form).

    >>> study = {"experiments": [{"id": "O"}, {"id": "R1", "label": "repro"}, {"id": "R2"}]}
    >>> finding_sides({"sides": {"O": "O", "R2": "second"}}, study)
    [('O', 'O', 'O'), ('R2', 'R2', 'second')]
    >>> finding_sides({"labels": {"original": "orig"}}, study)
    [('O', 'O', 'orig'), ('R1', 'repro', 'reproduction')]
    >>> finding_sides({"per_experiment": True}, dict(study, planning={"labels": {"original": "orig", "R2": "two"}}))
    [('O', 'O', 'orig'), ('R1', 'repro', 'repro'), ('R2', 'R2', 'two')]
    """
    experiments = [(e["id"], e.get("label", e["id"])) for e in study.get("experiments", [])]
    if finding.get("sides"):
        return [(i, side, finding["sides"][i]) for i, side in experiments if i in finding["sides"]]
    if finding.get("per_experiment"):  # labels by experiment id, or original (the first) and reproduction (the rest)
        labels = study.get("planning", {}).get("labels", {})
        roles = ["original", *["reproduction"] * (len(experiments) - 1)]
        return [(i, side, labels.get(i, labels.get(role, side))) for (i, side), role in zip(experiments, roles)]
    labels = {"original": "original", "reproduction": "reproduction", **finding.get("labels", {})}
    return [(i, side, labels[role]) for (i, side), role in zip(experiments, ("original", "reproduction"))]


def finding_cells(finding: dict, side_label: str) -> list[tuple[str, str, str]]:
    """The (table, row, column) cells a finding reads on the side labelled ``side_label``."""
    specs = [c[k] for c in finding["comparisons"] for k in ("left", "right")]
    specs += [finding["significance"]["p"]] if finding.get("significance") else []
    return [
        tuple(str(spec[k]).format(side=side_label) for k in ("table", "row", "column"))
        for spec in specs
        if isinstance(spec, dict)
    ]


def decision_levels(chosen: list[dict], labels: list[str]) -> dict:
    """{cell: alphas} for the cells the findings ``chosen`` (each on its side label) read only as their test's p:
    the alphas it is compared with. :func:`humeval.qra.claims.significance_holds` decides p < alpha or p >= alpha,
    so any number on the same side of each alpha as the p gives every finding's decision (a planning bootstrap's
    Tukey p-values, :func:`humeval.metrics.ratings_totals.tukey_draws`); a cell a comparison reads is not among
    them.

    >>> cell = {"table": "t", "row": "{side}", "column": "p"}
    >>> tested = {"comparisons": [{"left": 1, "op": ">", "right": 0}], "significance": {"p": cell, "alpha": 0.01}}
    >>> levels = decision_levels([tested, dict(tested, significance={"p": cell})], ["O", "O"])
    >>> {cell: sorted(alphas) for cell, alphas in levels.items()}
    {('t', 'O', 'p'): [0.01, 0.05]}
    >>> decision_levels([tested, {"comparisons": [{"left": cell, "op": "<", "right": 0.05}]}], ["O", "O"])
    {}
    """
    levels, compared = {}, set()
    for finding, label in zip(chosen, labels):
        cells = finding_cells(finding, label)
        significance = finding.get("significance")
        if significance and isinstance(significance["p"], dict):
            levels.setdefault(cells[-1], set()).add(float(significance.get("alpha", 0.05)))
            cells = cells[:-1]
        compared.update(cells)
    return {cell: frozenset(alphas) for cell, alphas in levels.items() if cell not in compared}


def operands(values: dict, label: str):
    """The operand reader of a finding on the side labelled ``label``: a number as it is, a cell ``{table, row,
    column}`` (``{side}`` replaced by ``label``) from ``values``, NaN where it has none."""

    def operand(spec):
        if isinstance(spec, (int, float)):
            return float(spec)
        return values.get(tuple(str(spec[k]).format(side=label) for k in ("table", "row", "column")), float("nan"))

    return operand


def evaluate(finding: dict, values: dict, label: str, bounds: dict | None = None) -> bool:
    """Whether ``finding`` holds on the side labelled ``label`` given ``values`` {(table, row, column): number};
    ``bounds`` {cell: "<"} marks the numbers read as printed bounds ("< 0.05"), which decide a comparison only
    where every number they admit does (:func:`humeval.qra.claims.compared`)."""
    from humeval.qra.claims import claim_holds

    def bound(spec) -> str:
        if not bounds or not isinstance(spec, dict):
            return ""
        return bounds.get(tuple(str(spec[k]).format(side=label) for k in ("table", "row", "column")), "")

    return claim_holds(finding, operands(values, label), bound)[0]


def evaluate_draws(finding: dict, draws: dict, label: str, n: int) -> np.ndarray:
    """:func:`evaluate` of ``n`` draws at once: ``draws`` maps each cell to its ``n`` values (a cell it lacks is
    NaN in every draw); a NaN operand fails its comparison, as it does one draw at a time.

    >>> finding = {"comparisons": [{"left": {"table": "t", "row": "r", "column": "{side}"}, "op": ">", "right": 0.5}]}
    >>> evaluate_draws(finding, {("t", "r", "O"): np.array([0.7, 0.2, np.nan])}, "O", 3).tolist()
    [True, False, False]
    """
    from humeval.qra.claims import OPERATORS, significance_holds

    operand = operands(draws, label)
    holds = np.ones(n, dtype=bool)
    for comparison in finding["comparisons"]:
        holds &= OPERATORS[comparison["op"]](operand(comparison["left"]), operand(comparison["right"]))
    if finding.get("significance"):
        holds &= significance_holds(finding["significance"], operand(finding["significance"]["p"]))
    return holds


def margin_draws(finding: dict, draws: dict, label: str) -> np.ndarray:
    """:func:`margin` of every draw at once (``draws``: cell -> array of draws), with Python's ``min`` semantics
    one draw at a time: the first comparison's difference, replaced by any later one that is smaller (a NaN
    difference replaces none, and a first NaN stays).

    >>> finding = {"comparisons": [{"left": 3, "op": ">", "right": {"table": "t", "row": "r", "column": "c"}},
    ...                            {"left": 2, "op": ">", "right": 1}]}
    >>> margin_draws(finding, {("t", "r", "c"): np.array([1.0, 2.5, np.nan])}, "O").tolist()
    [1.0, 0.5, nan]
    """
    operand = operands(draws, label)
    result = None
    for c in finding["comparisons"]:
        left, right = operand(c["left"]), operand(c["right"])
        difference = np.asarray(left - right if c["op"].startswith(">") else right - left, dtype=float)
        result = difference if result is None else np.where(difference < result, difference, result)
    return result


def margin(finding: dict, values: dict, label: str) -> float:
    """The finding's effect on the side labelled ``label``: the smallest of its comparisons' differences in the
    direction each states (left - right for ``>``, right - left for ``<``), positive where every comparison holds.

    >>> margin({"comparisons": [{"left": 3, "op": ">", "right": 1}, {"left": 2, "op": "<", "right": 2.5}]}, {}, "O")
    0.5
    """
    operand = operands(values, label)
    return min(
        operand(c["left"]) - operand(c["right"])
        if c["op"].startswith(">")
        else operand(c["right"]) - operand(c["left"])
        for c in finding["comparisons"]
    )


def effect_and_error(finding: dict, values: dict, label: str) -> tuple[float, float]:
    """A tested finding's effect and its standard error as its own test states them: the effect
    (:func:`margin`) over the normal quantile of half its two-sided p (``|d| / z_(1 - p/2)``), as a z test with
    the same p would have it. NaN without a test, a p, or where p is 0 or 1.

    Yao et al.'s Y2 (t = 1.978, p = 0.0485) with a difference of 0.12: z = 1.973, SE = 0.0608.

    >>> finding = {"comparisons": [{"left": 0.12, "op": ">", "right": 0}],
    ...            "significance": {"p": {"table": "t", "row": "r", "column": "p"}}}
    >>> [round(x, 4) for x in effect_and_error(finding, {("t", "r", "p"): 0.0485}, "O")]
    [0.12, 0.0608]
    """
    from scipy.special import ndtri  # the normal quantile, without importing scipy.stats (0.46 s a job)

    effect = margin(finding, values, label)
    if not finding.get("significance"):
        return effect, float("nan")
    p = values.get(tuple(str(finding["significance"]["p"][k]).format(side=label) for k in ("table", "row", "column")))
    if p is None or not 0 < p < 1:
        return effect, float("nan")
    return effect, abs(effect) / float(-ndtri(p / 2))


#: The normal quantile of a 95% two-sided interval, the one every effect interval here has.
Z95 = 1.959963984540054


def consistency(finding: dict, values: dict, original: str, label: str) -> dict:
    """A finding's effect on the side labelled ``label`` with the 95% interval its own test gives
    (:func:`effect_and_error`), and, for a reproduction, whether it is consistent with the original's (labelled
    ``original``): the two-sided p of the z test of their difference, (d_r - d_o) / sqrt(SE_o^2 + SE_r^2), which
    is below 0.05 exactly where d_r falls outside the original's 95% prediction interval (Patil, Peng & Leek 2016,
    Perspectives on Psychological Science 11(4)). NaN where either has no test.

    Yao's Y2 (question relevance, QAG minus PAQ): O 0.2141 (p = 0.0485), R1 0.2167 (p = 0.0740): R1 misses the
    paper's significance, yet its effect is the original's (the difference's p is 0.99).

    >>> finding = {"comparisons": [{"left": {"table": "m", "row": "{side}", "column": "d"}, "op": ">", "right": 0}],
    ...            "significance": {"p": {"table": "t", "row": "{side}", "column": "p"}}}
    >>> values = {("m", "O", "d"): 0.21412, ("t", "O", "p"): 0.048521, ("m", "R1", "d"): 0.21667,
    ...           ("t", "R1", "p"): 0.073989}
    >>> {k: round(v, 3) for k, v in consistency(finding, values, "O", "R1").items()}
    {'effect': 0.217, 'effect_low': -0.021, 'effect_high': 0.454, 'difference_p': 0.987}
    """
    from scipy.special import ndtr  # the normal distribution function (scipy.stats's norm.sf(x) is ndtr(-x))

    effect, se = effect_and_error(finding, values, label)
    out = {
        "effect": effect,
        "effect_low": effect - Z95 * se,
        "effect_high": effect + Z95 * se,
    }
    if label != original:
        d_o, se_o = effect_and_error(finding, values, original)
        out["difference_p"] = float(2 * ndtr(-abs(effect - d_o) / np.hypot(se, se_o)))
    return out


#: The normal quantile of the lower limit of a 60% two-sided interval: safeguard power's effect is d - 0.8416 SE
#: (Perugini, Gallucci & Costantini 2014, Perspectives on Psychological Science 9(3)).
SAFEGUARD_Z = 0.8416212335729143


def bases(effect: float, se: float, assumed: float | None) -> list[tuple[str, float]]:
    """The effects a finding is planned at: ``observed`` (the pilot's estimate, "if the original's estimate were
    exact"), ``safeguard`` (the lower limit of its 60% interval, not below 0: :data:`SAFEGUARD_Z`) where the
    effect has a standard error, and ``assumed`` where the config states one (``planning: effects``). Where the
    finding does not hold in the pilot (a negative estimate), the safeguard effect is the estimate: never above
    it (0 would plan a failed finding as if it had no effect, and with more power than its estimate gives).

    >>> [(name, round(effect, 4)) for name, effect in bases(0.12, 0.0608, 0.05)]
    [('observed', 0.12), ('safeguard', 0.0688), ('assumed', 0.05)]
    >>> bases(-0.011, 0.009, None)
    [('observed', -0.011), ('safeguard', -0.011)]
    """
    out = [("observed", effect)]
    if np.isfinite(se) and np.isfinite(effect):
        out.append(("safeguard", min(effect, max(0.0, effect - SAFEGUARD_Z * se))))
    if assumed is not None:
        out.append(("assumed", float(assumed)))
    return out
