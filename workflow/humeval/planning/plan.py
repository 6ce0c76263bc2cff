"""Reproduction planning: how likely a reproduction of a given size is to recover each of the original's findings.

A finding is a QRA Type IV claim (:func:`humeval.qra.claims.claim_holds`: comparisons of table cells that must all
hold and, where the paper tested it, a p-value below its alpha), or one listed under the study's ``planning:
findings``. It is planned from one experiment's judgements, the pilot (``planning.pilot``, else the first
experiment whose judgements are public and compute its cells), at designs stated in people x items x judgements
per item (:func:`grid`, and each reproduction's actual size), by two methods (docs/planning.md):

- ``model`` (:class:`humeval.planning.model.ModelFinding`): a crossed random-effects model of the pilot's ratings
  (:mod:`humeval.planning.crossed_model`; evaluator, evaluator-by-group, item and residual variance) simulates any design;
  the finding's cells (two group means, and their t test where the paper tested it) are computed vectorised over
  simulations and checked in every run against the study's own metric entries on one simulated data set. Power
  is given at effect bases (:func:`humeval.findings.bases`): ``observed``, ``safeguard`` (Perugini et al. 2014) and ``assumed``,
  with the analytic power of the same test (Westfall, Kenny & Judd 2014) and the minimum detectable effect.
- ``bootstrap`` (:class:`humeval.planning.bootstrap.Simulator`): for designs of the pilot's people and at most its items, all the pilot's
  people (never copied: a copied rater agrees perfectly with itself) and its items drawn with replacement, the
  study's own metric entries run on each draw. Any finding, at the observed effect only: a cross-check of the
  model where both apply.

A finding without a test is read as the probability of the same direction, not as power. Each power has
Wilson's 95% interval over its simulations (scipy); ``failed`` counts simulations whose cells could not be
computed, which count as not recovered. Seeded by ``seed``.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from humeval.config.planning import EVALUATOR_FACTORS, PlanningSettings
from humeval.findings import (
    Z95,
    bases,
    decision_levels,
    effect_and_error,
    evaluate,
    finding_cells,
    finding_sides,
    findings,
)
from humeval.planning.bootstrap import Simulator, wilson
from humeval.planning.budget import Budget
from humeval.planning.models import NotModelled, model_of, result_columns
from humeval.planning.power_table import BASIS_NOTES, COLUMNS, one_shot_caveat
from humeval.planning.stated import plan_stated
from humeval.qra.claims import expects_no_difference

__all__ = ["pilot_of", "plan_study", "side_size"]


def pilot_of(finding: dict, sides: list[tuple[str, str, str]], size: dict, computed: set, chosen: str | None):
    """The experiment a finding is planned from, as ``(id, side, {side} text)``: ``planning.pilot`` where the
    config chooses one, else the first of the finding's experiments (O, then R1, ...); it must have public
    judgements and the finding's cells among the computed metric values. None when none qualifies."""
    for experiment, side, label in sides:
        if chosen not in (None, experiment):
            continue
        if size.get(side, (0,))[0] > 0 and set(finding_cells(finding, label)) <= computed:
            return experiment, side, label
    return None


def side_size(kept: pd.DataFrame, side: str) -> tuple[int, int, float]:
    """A side's people, items, and judgements per item and criterion (how many people judged each item)."""
    rows = kept[kept["side"] == side]
    evaluators, items = rows["participant"].nunique(), rows["item"].nunique()
    criteria = rows["criterion"].nunique() if "criterion" in rows else 1
    return evaluators, items, len(rows) / max(1, items * max(1, criteria))


def measures(finding: dict, label: str | None, known: set) -> bool:
    """Whether an experiment measures a finding: the finding is judged there (``label``, its ``{side}`` text, is
    not None) and its cells are among the ``known`` computed or published ones (R2 of yao rated readability
    only)."""
    return label is not None and set(finding_cells(finding, label)) <= known


def grid(
    settings: PlanningSettings, pilot: tuple[int, int, float], items_only: bool = False
) -> list[tuple[int, int, int]]:
    """The planned designs, people x items x judgements per item: ``planning.evaluators`` x ``planning.items``,
    by default 0.5, 1, 2 and 4 times the pilot's people and items; each person judging as many items as in the
    pilot, so judgements per item grow with people (at least 1). Where each of the pilot's
    people judged once (``items_only``), people are not a factor: items vary, each judged by as many people as in
    the pilot, everyone once.

    >>> grid(PlanningSettings.of({"evaluators": [2, 10]}), (5, 100, 2.0))[:2]
    [(2, 50, 1), (2, 100, 1)]
    >>> grid(PlanningSettings.of({"items": [480]}), (2880, 960, 3.0), items_only=True)
    [(1440, 480, 3)]
    """
    people, items, per_item = pilot
    counts = settings.items
    if counts is None:
        counts = sorted({max(2, round(f * items)) for f in EVALUATOR_FACTORS})
    if items_only:
        return [(round(i * per_item), i, round(per_item)) for i in counts]
    evaluators = settings.evaluators
    if evaluators is None:
        evaluators = sorted({max(2, round(f * people)) for f in EVALUATOR_FACTORS})
    return [(e, i, int(max(1, round(per_item * e / people)))) for e in evaluators for i in counts]


def plan_study(data, metrics: pd.DataFrame) -> pd.DataFrame:
    """The study's ``planning/power.csv`` (:data:`COLUMNS`): per finding, its power (or, untested, its probability
    of the same direction) at every planned design (``design`` = ``planned``) and at the actual size of every
    reproduction (``design`` and ``experiment`` = its id), at each effect basis (:func:`bases`), by each method
    that applies: ``model`` (the crossed model, :class:`ModelFinding`, any size) and ``bootstrap``
    (:class:`Simulator`, the pilot's people and at most its items), with Wilson intervals and a note where a finding
    cannot be planned. ``metrics``: the study's metric values (which cells the data compute)."""
    study = data.config
    settings = PlanningSettings.of(study.get("planning"))
    rng = np.random.default_rng(settings.seed)
    computed = dict(zip(zip(metrics["table"], metrics["row"], metrics["column"]), metrics["value"]))
    experiments = [(e["id"], e.get("label", e["id"])) for e in study.get("experiments", [])]
    size = {side: side_size(data.kept, side) for _, side in experiments}
    published = data.published
    known = set(computed) | set(zip(published["table"], published["row"], published["column"]))
    label_in = {f["id"]: {i: label for i, _, label in finding_sides(f, study)} for f in findings(study)}
    rows, groups = [], {}
    for finding in findings(study):
        if expects_no_difference(finding):
            rows.append({"finding": finding["id"], "design": "planned", "note": NO_DIFFERENCE})
            continue
        pilot = pilot_of(finding, finding_sides(finding, study), size, set(computed), settings.pilot)
        if pilot is None:  # planned from stated numbers where the config gives them (humeval.planning.stated)
            stated = plan_stated(finding, settings, [e for e, _ in experiments[1:]])
            rows += stated or [
                {"finding": finding["id"], "design": "planned", "note": unplanned(finding, study, computed)}
            ]
        else:
            groups.setdefault(pilot[:2], []).append(finding)
    budget = Budget()  # the bootstraps of all pilots together (humeval.planning.budget)
    for (experiment, side), chosen in groups.items():
        rows += plan_pilot(data, settings, experiment, side, chosen, label_in, size, known, computed, rng, budget)
    if not findings(study):
        note = "no findings: the study states no claims (QRA Type IV) and no planning findings"
        rows.append({"finding": "none", "design": "planned", "note": note})
    order = {f["id"]: k for k, f in enumerate(findings(study))}
    frame = pd.DataFrame(rows, columns=COLUMNS)
    frame = frame.astype({c: "Int64" for c in ("evaluators", "items", "judgements_per_item", "simulations", "failed")})
    key = frame["finding"].map(order).fillna(-1) * 2 + (frame["design"] != "planned")  # per finding, planned first
    return frame.iloc[key.argsort(kind="stable")].reset_index(drop=True)


#: Why a finding of no significant difference is not planned.
NO_DIFFERENCE = (
    "a finding of no significant difference is not planned: more judgements make it less likely to hold, so power "
    "does not apply; state it as equivalence within a margin (the significance metric's test tost) to plan it"
)


def unplanned(finding: dict, study: dict, computed: dict) -> str:
    """Why a finding has no experiment to plan from."""
    pilot = PlanningSettings.of(study.get("planning")).pilot
    if pilot:
        return f"the pilot {pilot} has no public judgements computing this finding's cells"
    computing = [
        i for i, _, label in finding_sides(finding, study) if set(finding_cells(finding, label)) <= set(computed)
    ]
    if computing:  # computed, but from judgements under other side names (finch's sides are evaluator groups)
        return (
            f"{', '.join(computing)} computes this finding's cells from judgements whose sides are not its own "
            "(a design of groups, not experiments): not simulated"
        )
    return (
        "no experiment with public judgements computes this finding's cells (published numbers only); "
        "planning.effects and planning.components plan it without data"
    )


def reproduction_targets(experiments, settings, experiment, chosen, label_in, size, known, per_item) -> tuple:
    """Each reproduction's own design, ``(design, experiment, (people, items, per item))``, from its judgements or
    from ``planning.sizes``; and the rows of the findings a reproduction does not measure or cannot be sized for."""
    targets, rows = [], []
    for reproduction, reproduction_side in experiments[1:]:
        unmeasured = [f["id"] for f in chosen if not measures(f, label_in[f["id"]].get(reproduction), known)]
        rows += [
            {
                "finding": f,
                "experiment": reproduction,
                "design": reproduction,
                "pilot": experiment,
                "note": f"{reproduction} does not measure it",
            }
            for f in unmeasured
        ]
        given, actual = settings.sizes.get(reproduction), size[reproduction_side]
        if actual[0] > 0:
            targets.append((reproduction, reproduction, (actual[0], actual[1], max(1, round(actual[2])))))
        elif given:
            targets.append(
                (
                    reproduction,
                    reproduction,
                    (given["evaluators"], given["items"], given.get("judgements_per_item", max(1, round(per_item)))),
                )
            )
        else:
            note = (
                f"{reproduction}'s size is unknown: its judgements are not public (planning.sizes.{reproduction} can "
                "state it)"
            )
            rows += [
                {
                    "finding": f["id"],
                    "experiment": reproduction,
                    "design": reproduction,
                    "pilot": experiment,
                    "note": note,
                }
                for f in chosen
                if f["id"] not in unmeasured
            ]
    return targets, rows


def finding_models(simulator, chosen, labels, settings) -> dict:
    """Finding id -> its model (:func:`humeval.planning.models.model_of`), or the reason it has none."""
    models = {}
    for finding, label in zip(chosen, labels):
        try:
            if not settings.plans("model"):
                raise NotModelled("planning.methods leaves the model out")
            models[finding["id"]] = model_of(simulator, finding, label, settings.components.get(finding["id"]))
        except NotModelled as reason:
            models[finding["id"]] = str(reason)
    return models


def bootstrap_results(
    simulator, chosen, labels, targets, models, settings, pilot_size, rng, budget, experiment
) -> dict:
    """Items -> the bootstrap's simulations at the pilot's people and that many of its items, for each target
    within the pilot; only at its own size where every finding has a model (the bootstrap then only cross-checks
    it); with the rate at zero effect at the pilot's own size, and the null pilot's simulator (None without one),
    from whose items the safeguard basis of a finding no model plans is drawn (:func:`safeguard_results`). All of
    them are counted against the job's ``budget`` (:class:`humeval.planning.budget.Budget`) before any is drawn:
    over it, each size's result is the reason none was run."""
    from humeval.planning.budget import OverBudget

    people, items, _ = pilot_size
    within = {}
    for _, _, (e, i, _) in targets:
        if (simulator.items_only or e == people) and i <= items:
            within.setdefault(int(i), None)
    if not any(isinstance(m, str) for m in models.values()):
        within = {i: None for i in within if i == items}
    if not settings.plans("bootstrap") or not within:
        return {}, None
    # the rate at zero effect at the pilot's own size only: arvan's null pilots cost 2.3 s a size (Tukey's p)
    null = simulator.null_simulator() if items in within else None
    costs = [(simulator.draw_cost(i), i) for i in within] + ([(null.draw_cost(items), items)] if null else [])
    try:
        budget.spend(settings.simulations, costs, f"the bootstrap of {experiment}")
    except OverBudget as reason:
        return dict.fromkeys(within, str(reason)), None
    null_draws = np.random.default_rng([settings.seed, NULL_STREAM])  # apart: the draws above stay as they were
    for i in within:
        within[i] = simulator.power(chosen, labels, i, settings.simulations, rng)
        rate = (
            simulator.null_rate(chosen, labels, i, settings.simulations, null_draws, null)
            if null and i == items
            else None
        )
        within[i] += (np.full(len(chosen), np.nan) if rate is None else rate,)
    return within, null


def safeguard_results(simulator, null, finding, k, label, effect, safeguard, within, settings, budget) -> dict:
    """Items -> the bootstrap's power at the safeguard basis for finding ``k``, which no model plans, at each size
    the bootstrap ran and moved its cells: draws of the pilot shrunk toward its null by the weight ``safeguard /
    effect`` (:meth:`Simulator.shrunk_draws`), on a stream of their own per size, the same for every finding
    (common random numbers), through the null pilot's simulator, or one of the finding's own cells where that one
    makes scipy calls a draw (it computes every finding's: arvan's A1 would pay A2t's Tukey p). Each result is (held, failed, weight), or (None, None, 1.0)
    where the safeguard effect is the estimate (a finding that does not hold in the pilot: its power is the
    observed one), or the reason its draws are over the job's ``budget``. Empty without a null pilot, or where
    the effect is not a number."""
    from humeval.planning.budget import OverBudget

    if null is None or not (np.isfinite(effect) and np.isfinite(safeguard)):
        return {}
    sizes = [i for i, boot in within.items() if not isinstance(boot, str) and boot[2][k] and not boot[4][k]]
    weight = float(np.clip(safeguard / effect, 0.0, 1.0)) if effect > 0 else 1.0
    if weight == 1.0 or not sizes:
        return dict.fromkeys(sizes, (None, None, weight))
    own = null
    if null.totals is not None and any(form.calls for form, _ in null.totals):  # a simulator of its own cells only
        cells = {c: simulator.expected[c] for c in finding_cells(finding, label)}
        own = Simulator(null.data, null.pilot["side"].iloc[0], cells, like=simulator)
    try:
        costs = [(own.draw_cost(i), i) for i in sizes]
        budget.spend(settings.simulations, costs, f"the safeguard basis of {finding['id']}")
    except OverBudget as reason:
        return dict.fromkeys(sizes, str(reason))
    results = {}
    for i in sizes:
        draws = np.random.default_rng([settings.seed, SAFEGUARD_STREAM, i])
        drawn = simulator.shrunk_draws(
            null, weight, i, settings.simulations, draws, simulator.uses_units(finding, label)
        )
        held, failed, *_ = own.power([finding], [label], i, settings.simulations, None, drawn)
        results[i] = int(held[0]), int(failed[0]), weight
    return results


#: The seed's second word for the null pilots' draws (:meth:`Simulator.null_rate`), apart from the bootstrap's,
#: and for the safeguard basis's shrunk draws (:func:`safeguard_results`).
NULL_STREAM, SAFEGUARD_STREAM = 53, 54


def bootstrap_row(boot, k, common, shape, effect, notes, experiment, simulations, items_only) -> dict:
    """The bootstrap's power.csv row of finding ``k`` at one design, or the row saying why it has no power (a
    text ``boot``: why it was not run)."""
    if isinstance(boot, str):
        return {**common, **shape, "method": "bootstrap", "basis": "observed", "note": boot}
    held, failed, changed, fixed_p = boot[0][k], boot[1][k], boot[2][k], boot[4][k]
    if not changed or fixed_p:  # no silent 1.0 or 0.0: what it reads is not recomputed from the pilot's judgements
        what = "its cells" if not changed else "its test's p-value"
        note = (
            f"{what} did not change in {simulations} simulations of {experiment}'s judgements "
            "(computed from other data than them): no power"
        )
        return {**common, **shape, "method": "bootstrap", "basis": "observed", "note": note}
    low, high = wilson(held, simulations)
    extra = [f"{experiment}'s people each judged once: its items are resampled, not its people"] if items_only else []
    null = boot[5][k]
    if np.isfinite(null):
        extra.append(
            f"at zero effect it holds in {100 * null:.1f}% (the pilot made null: its systems permuted within items)"
        )

    people, judgements = shape["evaluators"], shape["items"] * shape["judgements_per_item"]
    reproduction = shape["experiment"]
    caveat = one_shot_caveat(reproduction, people, judgements, experiment) if items_only and reproduction else ""
    return {
        **common,
        **shape,
        "method": "bootstrap",
        "basis": "observed",
        "effect": effect,
        "power": held / simulations,
        "ci_low": low,
        "ci_high": high,
        "paper_null_rate": null,
        "simulations": simulations,
        "failed": failed,
        "caveat": caveat,
        "note": "; ".join(notes + extra),
    }


def safeguard_row(observed: dict, shrunk, safeguard: float, simulations: int, unit: str = "item") -> dict:
    """The bootstrap's row at the safeguard basis beside its ``observed`` row at the same design, from the shrunk
    draws' result (:func:`safeguard_results`), or the row saying why it has none; ``unit``: what was drawn."""
    if isinstance(shrunk, str):
        return {
            **observed,
            "basis": "safeguard",
            "effect": safeguard,
            "power": np.nan,
            "ci_low": np.nan,
            "ci_high": np.nan,
            "failed": pd.NA,
            "note": shrunk,
        }
    held, failed, weight = shrunk
    if held is None:
        how = "the safeguard effect is the estimate (the finding does not hold in the pilot): its power as observed"
        return {**observed, "basis": "safeguard", "effect": safeguard, "note": f"{observed['note']}; {how}"}
    low, high = wilson(held, simulations)
    how = (
        f"at the safeguard effect: each drawn {unit} as it is with probability {weight:.3f}, else in a random order "
        "of its systems (the pilot shrunk toward its null)"
    )
    return {
        **observed,
        "basis": "safeguard",
        "effect": safeguard,
        "power": held / simulations,
        "ci_low": low,
        "ci_high": high,
        "failed": failed,
        "note": f"{observed['note']}; {how}",
    }


def model_rows(model, design_key, planned_bases, common, shape, notes, stated, settings, done) -> list[dict]:
    """The model's power.csv rows of one finding at one design, one per effect basis. ``done`` caches each design's
    simulations: common random numbers, one stream per design, the same for every basis and finding, drawn once for
    all bases (a basis only shifts a mean, so a smaller effect never holds where a larger one did not)."""
    simulations = settings.simulations
    lay = model.layout(*design_key)
    if design_key not in done:
        draws = np.random.default_rng([settings.seed, *design_key])
        done[design_key] = model.power(lay, [value for _, value in planned_bases], simulations, draws)
    rows = []
    for (basis, value), result in zip(planned_bases, done[design_key]):
        rows.append(
            {
                **common,
                **shape,
                "method": "model",
                "basis": basis,
                "effect": value,
                **result_columns(result, simulations),
                "analytic_at_effect_low": model.analytic_at(lay, common["effect_low"]),
                "analytic_at_effect_high": model.analytic_at(lay, common["effect_high"]),
                "note": "; ".join(notes + [BASIS_NOTES[basis]] + stated),
            }
        )
    return rows


def plan_pilot(data, settings, experiment, side, chosen, label_in, size, known, computed, rng, budget) -> list[dict]:
    """The power.csv rows of the findings planned from one pilot experiment (they share its simulations): the
    designs (:func:`grid`, :func:`reproduction_targets`), each finding's model and the bootstrap's draws (within
    the job's ``budget``), then per finding and design its rows (:func:`bootstrap_row`, :func:`model_rows`)."""
    study = data.config
    experiments = [(e["id"], e.get("label", e["id"])) for e in study.get("experiments", [])]
    labels = [label_in[f["id"]][experiment] for f in chosen]
    cells = {cell for f, label in zip(chosen, labels) for cell in finding_cells(f, label)}
    simulator = Simulator(data, side, {cell: computed[cell] for cell in cells}, levels=decision_levels(chosen, labels))
    pilot_size = size[side]
    people, items, per_item = pilot_size
    pilot_values = {cell: computed[cell] for cell in cells}
    source = f"planned from {experiment} ({people} people x {items} items x {per_item:.2f} judgements per item)"
    targets = [("planned", None, design) for design in grid(settings, pilot_size, simulator.items_only)]
    own, rows = reproduction_targets(experiments, settings, experiment, chosen, label_in, size, known, per_item)
    targets += own
    simulations = settings.simulations
    models = finding_models(simulator, chosen, labels, settings)
    within, null = bootstrap_results(
        simulator, chosen, labels, targets, models, settings, pilot_size, rng, budget, experiment
    )
    full = within.get(items) if not isinstance(within.get(items), str) else None
    for k, (finding, label) in enumerate(zip(chosen, labels)):
        effect, se = effect_and_error(finding, pilot_values, label)
        spread = full[3][:, k][np.isfinite(full[3][:, k])] if full is not None else np.array([])
        if not np.isfinite(se) and spread.size > 1:
            # Untested: the bootstrap's SE at the pilot's size, the one the safeguard basis uses, and the normal
            # interval around the estimate (Efron & Tibshirani 1993, section 13.2), as for a tested finding. Not
            # the percentiles: the effect is the smallest of its comparisons' margins, whose draws sit below the
            # estimate (santhanam's C6, 16 comparisons: draws centred on 0.154 against 0.244; percentiles
            # [0.055, 0.225] excluded it).
            se = float(np.std(spread, ddof=1))
        model = None if isinstance(models[finding["id"]], str) else models[finding["id"]]
        if model is not None and model.test is not None and np.isfinite(se):
            # Tested and modelled: the SE the crossed model gives the difference at the pilot's design, not the one
            # its test implies, which takes judgements as independent (yao's Y2: 0.109 from t = 1.978, against the
            # model's 0.123), for the interval and the safeguard basis alike (issue 53)
            se = model.standard_error(model.layout(people, items, max(1, round(per_item))))
        low, high = effect - Z95 * se, effect + Z95 * se
        common = {
            "finding": finding["id"],
            "pilot": experiment,
            "quantity": "power" if finding.get("significance") else "same direction",
            "effect_low": low,
            "effect_high": high,
        }
        notes = [source] + (
            [f"the finding does not hold in {experiment}: this is what a study like it shows"]
            if not evaluate(finding, pilot_values, label)
            else []
        )
        unit = simulator.units.columns[0] if simulator.uses_units(finding, label) else "item"
        if unit != "item":
            notes.append(
                f"its test runs over {unit}: the bootstrap draws {unit} values ({len(simulator.units.members)} in "
                f"{experiment}) with replacement, as many as the design's items make in proportion, each with all "
                "its items"
            )
        why = "" if model else models[finding["id"]]
        done, beyond = {}, ""
        stated = ["variance components as stated in planning.components"] if model and model.stated else []
        if model and model.crossed:
            stated.append("its items are judged in both groups: modelled as distinct items per group (conservative)")
        planned_bases = bases(effect, se, settings.effects.get(finding["id"]))
        safeguard = dict(planned_bases).get("safeguard", float("nan"))
        shrunk = (
            {}
            if model
            else safeguard_results(simulator, null, finding, k, label, effect, safeguard, within, settings, budget)
        )
        for design, reproduction, (e, i, j) in targets:
            if reproduction and not measures(finding, label_in[finding["id"]].get(reproduction), known):
                continue
            shape = {
                "experiment": reproduction,
                "design": design,
                "evaluators": e,
                "items": i,
                "judgements_per_item": j,
            }
            boot = within.get(int(i)) if simulator.items_only or e == people else None
            if boot is not None:
                rows.append(
                    bootstrap_row(boot, k, common, shape, effect, notes, experiment, simulations, simulator.items_only)
                )
                if int(i) in shrunk:
                    rows.append(safeguard_row(rows[-1], shrunk[int(i)], safeguard, simulations, unit))
            if model is not None:
                rows += model_rows(
                    model, (int(e), int(i), int(j)), planned_bases, common, shape, notes, stated, settings, done
                )
            elif boot is None and reproduction:
                note = f"{reproduction}'s size is not {experiment}'s: only the model plans other sizes, and {why}"
                rows.append({**common, **shape, "method": "model", "basis": "observed", "note": note})
            elif boot is None and not beyond:
                beyond = f"designs of other sizes than {experiment}'s people (or more items) are not planned: only the model plans them, and {why}"
                rows.append({**common, "design": "planned", "method": "model", "note": beyond})
    return rows


#: What each basis means, in power.csv's notes.
