"""Reproduction planning: how likely a reproduction of a given size is to recover each of the original's findings.

A finding is a QRA Type IV claim (:func:`humeval.qra.claims.claim_holds`: comparisons of table cells that must all
hold and, where the paper tested it, a p-value below its alpha), or one listed under the study's ``planning:
findings``. It is planned from one experiment's judgements, the pilot (``planning.pilot``, else the first
experiment whose judgements are public and compute its cells), at designs stated in people x items x judgements
per item (:func:`grid`, and each reproduction's actual size), by two methods (docs/planning.md):

- ``model`` (:class:`ModelFinding`): a crossed random-effects model of the pilot's ratings
  (:mod:`humeval.crossed_model`; evaluator, evaluator-by-group, item and residual variance) simulates any design;
  the finding's cells (two group means, and their t test where the paper tested it) are computed vectorised over
  simulations and checked in every run against the study's own metric entries on one simulated data set. Power
  is given at effect bases (:func:`bases`): ``observed``, ``safeguard`` (Perugini et al. 2014) and ``assumed``,
  with the analytic power of the same test (Westfall, Kenny & Judd 2014) and the minimum detectable effect.
- ``bootstrap`` (:class:`Simulator`): for designs of the pilot's people and at most its items, all the pilot's
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

from humeval.errors import HumevalError

#: Planned designs by default: these multiples of the pilot's people, and of its items.
EVALUATOR_FACTORS = (0.5, 1, 2, 4)
#: Bootstrap simulations per design by default: Wilson's 95% interval is at most +-0.07 wide around a power of 0.5
#: (0.055 around 0.8); each runs the study's metric entries once.
SIMULATIONS = 200
#: The power a design must reach to be called sufficient (Cohen 1988).
TARGET = 0.8
COLUMNS = [
    "finding",
    "experiment",
    "design",
    "method",
    "basis",
    "quantity",
    "effect",
    "effect_low",
    "effect_high",
    "evaluators",
    "items",
    "judgements_per_item",
    "power",
    "ci_low",
    "ci_high",
    "analytic_power",
    "analytic_at_effect_low",
    "analytic_at_effect_high",
    "mde",
    "simulations",
    "failed",
    "pilot",
    "note",
]


def as_numbers(power: pd.DataFrame) -> pd.DataFrame:
    """A ``power.csv`` as read back (every cell text but the audit's numeric columns) with its numbers as numbers."""
    numbers = [c for c in COLUMNS if c not in ("finding", "experiment", "design", "method", "basis", "quantity")]
    numbers = [c for c in numbers if c not in ("pilot", "note")]
    counts = ("evaluators", "items", "judgements_per_item", "simulations", "failed")  # counts stay integers
    return power.assign(
        **{c: pd.to_numeric(power[c]).astype("Int64" if c in counts else float) for c in numbers if c in power}
    )


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


def operands(values: dict, label: str):
    """The operand reader of a finding on the side labelled ``label``: a number as it is, a cell ``{table, row,
    column}`` (``{side}`` replaced by ``label``) from ``values``, NaN where it has none."""

    def operand(spec):
        if isinstance(spec, (int, float)):
            return float(spec)
        return values.get(tuple(str(spec[k]).format(side=label) for k in ("table", "row", "column")), float("nan"))

    return operand


def evaluate(finding: dict, values: dict, label: str) -> bool:
    """Whether ``finding`` holds on the side labelled ``label`` given ``values`` {(table, row, column): number}."""
    from humeval.qra.claims import claim_holds

    return claim_holds(finding, operands(values, label))[0]


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
    from scipy.stats import norm

    effect = margin(finding, values, label)
    if not finding.get("significance"):
        return effect, float("nan")
    p = values.get(tuple(str(finding["significance"]["p"][k]).format(side=label) for k in ("table", "row", "column")))
    if p is None or not 0 < p < 1:
        return effect, float("nan")
    return effect, abs(effect) / float(norm.isf(p / 2))


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
    from scipy.stats import norm

    effect, se = effect_and_error(finding, values, label)
    out = {
        "effect": effect,
        "effect_low": effect - Z95 * se,
        "effect_high": effect + Z95 * se,
    }
    if label != original:
        d_o, se_o = effect_and_error(finding, values, original)
        out["difference_p"] = float(2 * norm.sf(abs(effect - d_o) / np.hypot(se, se_o)))
    return out


#: The normal quantile of the lower limit of a 60% two-sided interval: safeguard power's effect is d - 0.8416 SE
#: (Perugini, Gallucci & Costantini 2014, Perspectives on Psychological Science 9(3)).
SAFEGUARD_Z = 0.8416212335729143


def bases(effect: float, se: float, assumed: float | None) -> list[tuple[str, float]]:
    """The effects a finding is planned at: ``observed`` (the pilot's estimate, "if the original's estimate were
    exact"), ``safeguard`` (the lower limit of its 60% interval, not below 0: :data:`SAFEGUARD_Z`) where the
    effect has a standard error, and ``assumed`` where the config states one (``planning: effects``).

    >>> [(name, round(effect, 4)) for name, effect in bases(0.12, 0.0608, 0.05)]
    [('observed', 0.12), ('safeguard', 0.0688), ('assumed', 0.05)]
    """
    out = [("observed", effect)]
    if np.isfinite(se) and np.isfinite(effect):
        out.append(("safeguard", max(0.0, effect - SAFEGUARD_Z * se)))
    if assumed is not None:
        out.append(("assumed", float(assumed)))
    return out


def copies(evaluator: np.ndarray, item: np.ndarray, drawn_evaluators: np.ndarray, drawn_items: np.ndarray):
    """One bootstrap design from the pilot's judgements (``evaluator`` and ``item`` codes per judgement, 0-based):
    the judgement rows it holds, and for each the copy of its evaluator and of its item (0 = the first).

    A judgement of evaluator e on item i appears once per (copy of e, copy of i): ``count_e * count_i`` times.
    :class:`Simulator` draws evaluators without replacement (one copy each: a rater copied would agree perfectly
    with itself) and items with replacement.

    >>> rows, a, b = copies(np.array([0, 1]), np.array([0, 0]), np.array([0, 0, 1]), np.array([0, 0]))
    >>> rows.tolist(), a.tolist(), b.tolist()
    ([0, 0, 0, 0, 1, 1], [0, 0, 1, 1, 0, 0], [0, 1, 0, 1, 0, 1])
    """
    evaluator_count = np.bincount(drawn_evaluators, minlength=evaluator.max() + 1)[evaluator]
    item_count = np.bincount(drawn_items, minlength=item.max() + 1)[item]
    repeats = evaluator_count * item_count
    rows = np.repeat(np.arange(evaluator.size), repeats)
    within = np.arange(rows.size) - np.repeat(np.cumsum(repeats) - repeats, repeats)
    per_item = item_count[rows]
    return rows, within // per_item, within % per_item


def relabelled(names, codes: np.ndarray, copy: np.ndarray) -> np.ndarray:
    """The values coded ``codes`` among the distinct ``names``, with the copy number appended where it is not the
    first copy (``P01`` -> ``P01~2``): each distinct (value, copy) is written once, not once per judgement.

    >>> relabelled(["a", "b"], np.array([0, 1, 0]), np.array([0, 0, 2])).tolist()
    ['a', 'b', 'a~2']
    """
    count = len(names)
    unique, inverse = np.unique(codes + count * copy, return_inverse=True)
    labels = np.asarray([str(n) for n in names], dtype=object)[unique % count]
    later = unique >= count  # only later copies are written anew
    labels[later] = [f"{name}~{k}" for name, k in zip(labels[later], unique[later] // count)]
    return labels[inverse]


def needed_entries(data, entries: list[dict], expected: set) -> list[dict]:
    """The metric entries among ``entries`` that write one of the ``expected`` cells, run once each on the
    study's data: every simulation runs only those (liu's planning ran the two reproduction entries of its
    figure2 in every simulation of the original, two thirds of its cost). All of them where one reads earlier
    entries' cells (``cell_arithmetic``) or where one cannot run alone."""
    from humeval.metrics import StudyData, metrics_study

    if any(entry["metric"] == "cell_arithmetic" for entry in entries):
        return entries
    kept = []
    for entry in entries:
        alone = StudyData(
            kept=data.kept,
            tidy=data.tidy,
            participants=data.participants,
            exclusions=data.exclusions,
            published=data.published,
            config=dict(data.config, metrics=[entry]),
        )
        try:
            cells = metrics_study(alone)
        except (HumevalError, ValueError, KeyError):
            return entries
        if set(zip(cells["table"], cells["row"], cells["column"])) & expected:
            kept.append(entry)
    return kept


class Simulator:
    """The pilot side's kept judgements, coded once, and the study's metric entries that compute the findings'
    cells: :meth:`values` recomputes them from any frame of the pilot's shape, :meth:`power` bootstraps its
    items."""

    def __init__(self, data, side: str, expected: dict):
        from humeval.metrics import StudyData

        rows = data.kept
        self.pilot = rows[rows["side"] == side].reset_index(drop=True)
        self.others = rows[rows["side"] != side]
        self.evaluator, self.evaluators = pd.factorize(self.pilot["participant"])
        self.item, self.items = pd.factorize(self.pilot["item"])
        # one judgement per evaluator and criterion (liu's workers): evaluators are not a factor; items only
        criterion = self.pilot["criterion"] if "criterion" in self.pilot else pd.Series("", index=self.pilot.index)
        self.items_only = bool(self.pilot.groupby([self.evaluator, criterion.to_numpy()]).size().max() == 1)
        people = data.participants
        if "participant" not in people:  # no participant table (a study without participant metadata)
            people = pd.DataFrame({"side": pd.Series(dtype=object), "participant": pd.Series(dtype=object)})
        on_side = people["side"] == side if "side" in people else pd.Series(True, index=people.index)
        # the pilot's participant rows (their metadata: condition, row, minutes, ...) in the order of their codes
        self.pilot_people = people[on_side].drop_duplicates("participant").set_index("participant")
        self.pilot_people = self.pilot_people.reindex(pd.Index(self.evaluators, name="participant"))
        self.other_people = people[~on_side]
        tables = {cell[0] for cell in expected}
        entries = [m for m in data.config.get("metrics", []) if m["table"] in tables]
        config = dict(data.config, metrics=needed_entries(data, entries, set(expected)))
        self.data, self.config, self.study_data, self.expected = data, config, StudyData, expected
        # the pilot alone where its metrics give the study's numbers from it alone (most group by side); else the
        # other sides' judgements beside it; the cells must be the study's either way
        for self.with_others in (False, True):
            try:
                identity = self.values(self.pilot)
            except (HumevalError, ValueError, KeyError):
                continue
            differing = [c for c, v in expected.items() if not np.isclose(identity.get(c, np.nan), v, equal_nan=True)]
            if not differing:
                self.totals = None if self.with_others else self.item_totals()
                return
        raise HumevalError(f"planning: the judgements of side {side!r} do not give the cells {differing[:3]} again")

    def item_totals(self):
        """Each metric entry's item-totals form (:mod:`humeval.metrics.item_totals`) and the columns of the pilot's
        items it reads, where every entry has one; else None (each draw runs the metrics)."""
        from humeval.metrics.item_totals import ITEM_TOTALS

        entries = self.config.get("metrics", [])
        if not entries or any(entry["metric"] not in ITEM_TOTALS for entry in entries):
            return None
        pilot = self.study_data(
            kept=self.pilot,
            tidy=self.pilot,
            participants=self.pilot_people.reset_index(),
            exclusions=self.data.exclusions.iloc[:0],
            published=self.data.published,
            config=self.config,
        )
        forms = []
        for entry in entries:
            params = {key: v for key, v in entry.items() if key not in ("metric", "description")}
            form = ITEM_TOTALS[entry["metric"]](pilot, **params)
            forms.append((form, pd.Index(self.items).get_indexer(form.items)))
        return forms

    def vectorised_values(self, drawn: np.ndarray) -> dict:
        """{cell: value per draw} of the item-totals forms, for draws of the pilot's item codes (S x items)."""
        multiplicity = np.zeros((len(drawn), len(self.items)))
        np.add.at(multiplicity, (np.repeat(np.arange(len(drawn)), drawn.shape[1]), drawn.ravel()), 1.0)
        values = {}
        for form, columns in self.totals:
            values.update(form.values(multiplicity[:, columns]))
        return values

    def sample(self, rows: np.ndarray, b: np.ndarray) -> pd.DataFrame:
        """The judgements of one bootstrap design: the pilot's rows ``rows`` (every rater as they are) and item
        copies ``b`` relabelled as items of their own."""
        sample = self.pilot.iloc[rows].reset_index(drop=True)
        sample["item"] = relabelled(self.items, self.item[rows], b)
        sample["judgement_id"] = np.arange(len(sample))  # each copy a judgement of its own
        return sample

    def values(self, sample: pd.DataFrame) -> dict:
        """The metric cells of the pilot's judgements replaced by ``sample`` as {(table, row, column): value};
        every evaluator in it is a participant with the pilot's metadata of them (none for a simulated one)."""
        from humeval.metrics import metrics_study

        kept = pd.concat([self.others, sample], ignore_index=True) if self.with_others else sample
        names = pd.unique(sample["participant"])
        people = self.pilot_people.reindex(pd.Index(names, name="participant")).reset_index()
        people = pd.concat([self.other_people, people], ignore_index=True)
        data = self.study_data(
            kept=kept,
            tidy=kept,
            participants=people,
            exclusions=self.data.exclusions.iloc[:0],
            published=self.data.published,
            config=self.config,
        )
        cells = metrics_study(data)
        return dict(zip(zip(cells["table"], cells["row"], cells["column"]), cells["value"]))

    def checked_totals(self, drawn_e: np.ndarray, drawn: np.ndarray) -> bool:
        """Whether draws are computed by the item-totals forms: where every entry has one, and only after they gave
        the metrics' own cells on the draw ``drawn`` (to 1e-9; the job fails otherwise)."""
        if self.totals is None:
            return False
        rows, _, item_copy = copies(self.evaluator, self.item, drawn_e, drawn)
        own = self.values(self.sample(rows, item_copy))
        mine = {cell: value[0] for cell, value in self.vectorised_values(drawn[None, :]).items()}
        differing = [
            cell
            for cell in set(own) | set(mine)
            if not np.isclose(own.get(cell, np.nan), mine.get(cell, np.nan), rtol=0, atol=1e-9, equal_nan=True)
        ]
        if differing:
            raise HumevalError(f"planning: the item-totals forms differ from the metrics at {sorted(differing)[:3]}")
        return True

    def power(self, chosen: list[dict], labels: list[str], items: int, simulations: int, rng):
        """For each finding of ``chosen`` (evaluated on its side label), over ``simulations`` bootstrap designs of
        all the pilot's people (each once: a rater copied would agree perfectly with itself) and ``items`` drawn
        with replacement: how many recover it, how many could not compute its cells (the metrics refused the
        data, or a cell is missing: ``failed``, counted apart from misses and not as recoveries), whether any
        simulation changed a cell it reads, and its effect (:func:`margin`) in each.

        People are not resampled: drawing fewer of them as well as the items counts the judgements' variance
        twice (with one rating per item, half the people and all the items, a t test with no effect held in 5.9%
        of 4,000 draws against a nominal 2.5%; Owen 2007 calls the two-way bootstrap conservative), so designs
        of other sizes are the model's."""
        import logging
        import warnings

        drawn_e = np.arange(len(self.evaluators))
        drawn_i = rng.integers(0, len(self.items), size=(simulations, items))
        held, failed = np.zeros(len(chosen), dtype=int), np.zeros(len(chosen), dtype=int)
        cells_of = [finding_cells(f, label) for f, label in zip(chosen, labels)]
        changed = np.zeros(len(chosen), dtype=bool)  # whether any simulation moved a cell the finding reads
        margins = np.full((simulations, len(chosen)), np.nan)
        vectorised = self.checked_totals(drawn_e, drawn_i[0]) and self.vectorised_values(drawn_i)
        logging.disable(logging.INFO)  # the metrics' notes, once per simulation, would flood the job's log
        try:
            with warnings.catch_warnings():  # so would pingouin's and scipy's warnings of a degenerate draw
                warnings.simplefilter("ignore")
                for s in range(simulations):
                    try:
                        if vectorised:
                            values = {cell: value[s] for cell, value in vectorised.items()}
                        else:
                            rows, _, item_copy = copies(self.evaluator, self.item, drawn_e, drawn_i[s])
                            values = self.values(self.sample(rows, item_copy))
                    except (HumevalError, ValueError, ZeroDivisionError, AssertionError):  # an ill-posed draw
                        failed += 1
                        continue
                    missing = [any(np.isnan(values.get(c, np.nan)) for c in cells) for cells in cells_of]
                    failed += missing
                    held += [evaluate(f, values, label) and not m for f, label, m in zip(chosen, labels, missing)]
                    margins[s] = [margin(f, values, label) for f, label in zip(chosen, labels)]
                    changed |= [
                        any(not np.isclose(values.get(c, np.nan), self.expected[c], equal_nan=True) for c in cells)
                        for cells in cells_of
                    ]
        finally:
            logging.disable(logging.NOTSET)
        return held, failed, changed, margins


def wilson(successes: int, n: int) -> tuple[float, float]:
    """Wilson's 95% interval of a binomial proportion (scipy's ``binomtest(...).proportion_ci``).

    Checked by hand: centre (p + z^2/2n) / (1 + z^2/n), half-width z sqrt(p(1-p)/n + z^2/4n^2) / (1 + z^2/n).

    >>> [round(x, 4) for x in wilson(160, 200)]
    [0.7391, 0.8495]
    """
    from scipy.stats import binomtest

    interval = binomtest(int(successes), int(n)).proportion_ci(confidence_level=0.95, method="wilson")
    return float(interval.low), float(interval.high)


#: The metric entries whose cells the crossed model recomputes, vectorised over simulations: group means
#: (``describe``) and two-sample t tests (``significance``). Every run checks the vectorised cells against the entry
#: itself on one simulated data set (:meth:`ModelFinding.check`).
MODELLED_METRICS = ("describe", "significance")
#: Simulations per design and basis of the crossed model by default (vectorised: a design of yao's size costs about
#: 2 ms per 100 simulations); the bootstrap's default stays :data:`SIMULATIONS`.
MODEL_SIMULATIONS = 1000


#: The most simulated ratings the model holds at once (simulations x judgements of a block): 5 million floats,
#: 40 MB an array, whatever the design's size (a 4x design of a 10^6-judgement pilot would otherwise ask for GBs).
BLOCK_CELLS = 5_000_000


class NotModelled(Exception):
    """Why a finding is not planned from the crossed model (it is bootstrapped within the pilot's size)."""


class ModelFinding:
    """A finding of one comparison of two group means (and, where tested, a Student or Welch t test of the same two
    groups' judgements) planned from the crossed model (:mod:`humeval.crossed_model`) fitted to the pilot's ratings
    of its criterion. The groups its cells read are found by shifting each fixed group (criterion x system x
    condition) of the pilot by 1 and recomputing the study's own metric entries: a mean cell moves by exactly 1
    with its group only. Raises :class:`NotModelled` with the reason otherwise."""

    def __init__(self, simulator: Simulator, finding: dict, label: str, stated: dict | None = None):
        from humeval.crossed_model import components, two_sample_t

        comparisons = finding["comparisons"]
        if len(comparisons) != 1 or not all(isinstance(comparisons[0][k], dict) for k in ("left", "right")):
            raise NotModelled("the model plans a finding of one comparison of two cells")
        cells = finding_cells(finding, label)
        names = {m["table"]: m["metric"] for m in simulator.config.get("metrics", [])}
        other = sorted({names.get(c[0], "?") for c in cells} - set(MODELLED_METRICS))
        if other:
            raise NotModelled(f"its cells come from {', '.join(other)}, which the model does not simulate")
        pilot = simulator.pilot
        if (pilot.get("response_type", "rating") != "rating").any():
            raise NotModelled("the pilot's judgements are not all ratings")
        fixed = [c for c in ("criterion", "system", "condition") if c in pilot]
        group = pd.MultiIndex.from_frame(pilot[fixed].astype(str)).factorize()[0]
        left, right = cells[0], cells[1]
        base = simulator.values(pilot)
        self.a = self.b = None
        for g in range(group.max() + 1):
            moved = simulator.values(pilot.assign(value=pilot["value"] + (group == g)))
            shift = [moved.get(c, np.nan) - base.get(c, np.nan) for c in (left, right)]
            if np.allclose(shift, [1, 0]):
                self.a = g
            elif np.allclose(shift, [0, 1]):
                self.b = g
        if self.a is None or self.b is None:
            raise NotModelled("its cells are not the means of two groups of judgements")
        in_a, in_b = group == self.a, group == self.b
        means = pilot.loc[in_a, "value"].mean(), pilot.loc[in_b, "value"].mean()
        if not np.allclose(means, [base[left], base[right]], rtol=1e-12, atol=0):  # a subset's mean moves by 1 too
            raise NotModelled("its cells are not the means of whole groups of the pilot's judgements")
        self.test = None
        if finding.get("significance"):
            p_cell = cells[2]
            for equal_var in (True, False):
                if np.isclose(
                    two_sample_t(pilot["value"].to_numpy()[None, :], in_a, in_b, equal_var)[3][0],
                    base[p_cell],
                    rtol=1e-9,
                    atol=0,
                ):
                    self.test = equal_var
                    break
            else:
                raise NotModelled("its p is not a two-sample t test of the two groups' judgements")
            self.p_cell, self.alpha = p_cell, finding["significance"].get("alpha", 0.05)
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
        from humeval.crossed_model import layout

        both = max(2, round(items * (self.items_a + self.items_b) / self.items_criterion))
        in_a = min(both - 1, max(1, round(both * self.items_a / (self.items_a + self.items_b))))
        per_group = max(1, round(per_item * self.per_item_factor))
        return layout(np.repeat([0, 1], [in_a, both - in_a]), people, min(per_group, people))

    def planned_means(self, effect: float) -> np.ndarray:
        """Group means with the finding's effect (a's mean minus b's, in the direction the claim states) set to
        ``effect``: group a re-centred on b."""
        return np.array([self.means[1] + (effect if self.greater else -effect), self.means[1]])

    def power(self, lay, effect: float, simulations: int, rng) -> dict:
        """Simulated and analytic power (or probability of the same direction, untested) at one design and
        effect: ``held``, ``failed`` (a p that cannot be computed), ``analytic`` (:meth:`analytic_at`) and the
        minimum detectable effect ``mde`` at 80% (:meth:`mde`)."""
        from humeval.crossed_model import simulate, two_sample_t

        means = self.planned_means(effect)
        held = failed = 0
        block = max(1, min(200, BLOCK_CELLS // max(1, lay.evaluator.size)))  # bounds the memory, not the work
        for start in range(0, simulations, block):
            values = simulate(lay, means, self.components, min(block, simulations - start), rng)
            mean_a, mean_b, _, p = two_sample_t(values, lay.group == 0, lay.group == 1, self.test is not False)
            if not self.checked:
                self.check(lay, values[0], mean_a[0], mean_b[0], p[0])
            direction = mean_a > mean_b if self.greater else mean_a < mean_b
            if self.test is None:
                held += int(direction.sum())
            else:
                held += int((direction & (p < self.alpha)).sum())
                failed += int(np.isnan(p).sum())
        return {"held": held, "failed": failed, "analytic": self.analytic_at(lay, effect), "mde": self.mde(lay)}

    def analytic_at(self, lay, effect: float) -> float:
        """The analytic power (or probability of the same direction) at ``effect``."""
        from scipy.stats import norm

        from humeval.crossed_model import analytic_power, mean_difference_sd, naive_standard_error

        sd = mean_difference_sd(lay, self.components, 0, 1)
        if self.test is None:
            return float(norm.sf(-effect / sd))
        se = naive_standard_error(lay, self.components, 0, 1)
        return analytic_power(effect, sd, se, lay.group.size - 2, self.alpha)

    def mde(self, lay) -> float:
        """The smallest effect the design recovers with 80% power (untested: in the same direction 80% of the
        time)."""
        from scipy.stats import norm

        from humeval.crossed_model import mean_difference_sd, minimum_detectable, naive_standard_error

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


def grid(planning: dict, pilot: tuple[int, int, float], items_only: bool = False) -> list[tuple[int, int, int]]:
    """The planned designs, people x items x judgements per item: ``planning.evaluators`` x ``planning.items``,
    by default 0.5, 1, 2 and 4 times the pilot's people and items; each person judging as many items as in the
    pilot, so judgements per item grow with people (at least 1). Where each of the pilot's
    people judged once (``items_only``), people are not a factor: items vary, each judged by as many people as in
    the pilot, everyone once.

    >>> grid({"evaluators": [2, 10]}, (5, 100, 2.0))[:2]
    [(2, 50, 1), (2, 100, 1)]
    >>> grid({"items": [480]}, (2880, 960, 3.0), items_only=True)
    [(1440, 480, 3)]
    """
    people, items, per_item = pilot
    if items_only:
        counts = planning.get("items", sorted({max(2, round(f * items)) for f in EVALUATOR_FACTORS}))
        return [(round(i * per_item), i, round(per_item)) for i in counts]
    evaluators = planning.get("evaluators", sorted({max(2, round(f * people)) for f in EVALUATOR_FACTORS}))
    counts = planning.get("items", sorted({max(2, round(f * items)) for f in EVALUATOR_FACTORS}))
    return [(e, i, int(max(1, round(per_item * e / people)))) for e in evaluators for i in counts]


def plan_study(data, metrics: pd.DataFrame) -> pd.DataFrame:
    """The study's ``planning/power.csv`` (:data:`COLUMNS`): per finding, its power (or, untested, its probability
    of the same direction) at every planned design (``design`` = ``planned``) and at the actual size of every
    reproduction (``design`` and ``experiment`` = its id), at each effect basis (:func:`bases`), by each method
    that applies: ``model`` (the crossed model, :class:`ModelFinding`, any size) and ``bootstrap``
    (:class:`Simulator`, the pilot's people and at most its items), with Wilson intervals and a note where a finding
    cannot be planned. ``metrics``: the study's metric values (which cells the data compute)."""
    study = data.config
    planning = study.get("planning", {})
    rng = np.random.default_rng(planning.get("seed", 0))
    computed = dict(zip(zip(metrics["table"], metrics["row"], metrics["column"]), metrics["value"]))
    experiments = [(e["id"], e.get("label", e["id"])) for e in study.get("experiments", [])]
    size = {side: side_size(data.kept, side) for _, side in experiments}
    published = data.published
    known = set(computed) | set(zip(published["table"], published["row"], published["column"]))
    label_in = {f["id"]: {i: label for i, _, label in finding_sides(f, study)} for f in findings(study)}
    rows, groups = [], {}
    for finding in findings(study):
        pilot = pilot_of(finding, finding_sides(finding, study), size, set(computed), planning.get("pilot"))
        if pilot is None:
            rows.append({"finding": finding["id"], "design": "planned", "note": unplanned(finding, study, computed)})
        else:
            groups.setdefault(pilot[:2], []).append(finding)
    for (experiment, side), chosen in groups.items():
        rows += plan_pilot(data, experiment, side, chosen, label_in, size, known, computed, rng)
    if not findings(study):
        note = "no findings: the study states no claims (QRA Type IV) and no planning findings"
        rows.append({"finding": "none", "design": "planned", "note": note})
    order = {f["id"]: k for k, f in enumerate(findings(study))}
    frame = pd.DataFrame(rows, columns=COLUMNS)
    frame = frame.astype({c: "Int64" for c in ("evaluators", "items", "judgements_per_item", "simulations", "failed")})
    key = frame["finding"].map(order).fillna(-1) * 2 + (frame["design"] != "planned")  # per finding, planned first
    return frame.iloc[key.argsort(kind="stable")].reset_index(drop=True)


def unplanned(finding: dict, study: dict, computed: dict) -> str:
    """Why a finding has no experiment to plan from."""
    planning = study.get("planning", {})
    if planning.get("pilot"):
        return f"the pilot {planning['pilot']} has no public judgements computing this finding's cells"
    computing = [
        i for i, _, label in finding_sides(finding, study) if set(finding_cells(finding, label)) <= set(computed)
    ]
    if computing:  # computed, but from judgements under other side names (finch's sides are evaluator groups)
        return (
            f"{', '.join(computing)} computes this finding's cells from judgements whose sides are not its own "
            "(a design of groups, not experiments): not simulated"
        )
    return "no experiment with public judgements computes this finding's cells (published numbers only)"


def plan_pilot(data, experiment, side, chosen, label_in, size, known, computed, rng) -> list[dict]:  # noqa: C901 - shared draws
    """The power.csv rows of the findings planned from one pilot experiment (they share its simulations)."""
    study = data.config
    planning = study.get("planning", {})
    experiments = [(e["id"], e.get("label", e["id"])) for e in study.get("experiments", [])]
    labels = [label_in[f["id"]][experiment] for f in chosen]
    cells = {cell for f, label in zip(chosen, labels) for cell in finding_cells(f, label)}
    simulator = Simulator(data, side, {cell: computed[cell] for cell in cells})
    pilot_size = size[side]
    people, items, per_item = pilot_size
    pilot_values = {cell: computed[cell] for cell in cells}
    source = f"planned from {experiment} ({people} people x {items} items x {per_item:.2f} judgements per item)"
    rows = []
    targets = [("planned", None, design) for design in grid(planning, pilot_size, simulator.items_only)]
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
        given, actual = planning.get("sizes", {}).get(reproduction), size[reproduction_side]
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
    simulations = planning.get("simulations", SIMULATIONS)
    methods = planning.get("methods", ["model", "bootstrap"])
    models = {}  # finding id -> its ModelFinding, or why it has none
    for finding, label in zip(chosen, labels):
        try:
            if "model" not in methods:
                raise NotModelled("planning.methods leaves the model out")
            models[finding["id"]] = ModelFinding(
                simulator, finding, label, planning.get("components", {}).get(finding["id"])
            )
        except NotModelled as reason:
            models[finding["id"]] = str(reason)
    within = {}  # bootstrap designs: the pilot's people, at most its items -> results
    for design, _, (e, i, _) in targets:
        if (simulator.items_only or e == people) and i <= items:
            within.setdefault(int(i), None)
    if all(isinstance(m, ModelFinding) for m in models.values()):  # the bootstrap only cross-checks the model
        within = {i: None for i in within if i == items}
    for i in within if "bootstrap" in methods else ():
        within[i] = simulator.power(chosen, labels, i, simulations, rng)
    within = {key: result for key, result in within.items() if result is not None}
    full = within.get(items)
    for k, (finding, label) in enumerate(zip(chosen, labels)):
        effect, se = effect_and_error(finding, pilot_values, label)
        low, high = effect - Z95 * se, effect + Z95 * se
        spread = full[3][:, k][np.isfinite(full[3][:, k])] if full is not None else np.array([])
        if not np.isfinite(se) and spread.size > 1:  # untested: the bootstrap's spread at the pilot's size
            se, (low, high) = float(np.std(spread, ddof=1)), np.percentile(spread, [2.5, 97.5])
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
        model = models[finding["id"]] if isinstance(models[finding["id"]], ModelFinding) else None
        why = "" if model else models[finding["id"]]
        model_simulations, done, beyond = planning.get("simulations", MODEL_SIMULATIONS), {}, ""
        stated = ["variance components as stated in planning.components"] if model and model.stated else []
        if model and model.crossed:
            stated.append("its items are judged in both groups: modelled as distinct items per group (conservative)")
        planned_bases = bases(effect, se, planning.get("effects", {}).get(finding["id"]))
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
                held, failed, changed = boot[0][k], boot[1][k], boot[2][k]
                if not changed:  # no silent 1.0: its cells are not recomputed from the pilot's judgements
                    note = (
                        f"its cells did not change in {simulations} simulations of {experiment}'s judgements "
                        "(they are not computed from them): no power"
                    )
                    rows.append({**common, **shape, "method": "bootstrap", "basis": "observed", "note": note})
                else:
                    low, high = wilson(held, simulations)
                    extra = (
                        [f"{experiment}'s people each judged once: its items are resampled, not its people"]
                        if simulator.items_only
                        else []
                    )
                    rows.append(
                        {
                            **common,
                            **shape,
                            "method": "bootstrap",
                            "basis": "observed",
                            "effect": effect,
                            "power": held / simulations,
                            "ci_low": low,
                            "ci_high": high,
                            "simulations": simulations,
                            "failed": failed,
                            "note": "; ".join(notes + extra),
                        }
                    )
            if model is None:
                if boot is None and reproduction:
                    note = f"{reproduction}'s size is not {experiment}'s: only the model plans other sizes, and {why}"
                    rows.append({**common, **shape, "method": "model", "basis": "observed", "note": note})
                elif boot is None and not beyond:
                    beyond = f"designs of other sizes than {experiment}'s people (or more items) are not planned: only the model plans them, and {why}"
                    rows.append({**common, "design": "planned", "method": "model", "note": beyond})
                continue
            lay = model.layout(int(e), int(i), int(j))
            for basis, value in planned_bases:
                # common random numbers: one stream per design, the same for every basis and finding (a basis
                # only shifts a mean, so a smaller effect never holds where a larger one did not)
                key = (int(e), int(i), int(j), basis)
                if key not in done:
                    draws = np.random.default_rng([planning.get("seed", 0), int(e), int(i), int(j)])
                    done[key] = model.power(lay, value, model_simulations, draws)
                result = done[key]
                low, high = wilson(result["held"], model_simulations)
                rows.append(
                    {
                        **common,
                        **shape,
                        "method": "model",
                        "basis": basis,
                        "effect": value,
                        "power": result["held"] / model_simulations,
                        "ci_low": low,
                        "ci_high": high,
                        "analytic_power": result["analytic"],
                        "mde": result["mde"],
                        "analytic_at_effect_low": model.analytic_at(lay, common["effect_low"]),
                        "analytic_at_effect_high": model.analytic_at(lay, common["effect_high"]),
                        "simulations": model_simulations,
                        "failed": result["failed"],
                        "note": "; ".join(notes + [BASIS_NOTES[basis]] + stated),
                    }
                )
    return rows


#: What each basis means, in power.csv's notes.
BASIS_NOTES = {
    "observed": "if the pilot's estimate were exact",
    "safeguard": "at the lower limit of the effect's 60% interval (safeguard power)",
    "assumed": "at the effect stated in planning.effects",
}


def headline(power: pd.DataFrame) -> pd.DataFrame:
    """Per finding and design, the row a reader is shown first: the model's at the safeguard basis where there is
    one, else its observed basis, else the bootstrap's (rows of a power.csv without ``method`` are kept as they are).

    >>> frame = pd.DataFrame({"finding": "F", "design": "planned", "evaluators": 5, "items": 9,
    ...                       "method": ["bootstrap", "model", "model"], "basis": ["observed", "observed", "safeguard"]})
    >>> headline(frame)[["method", "basis"]].values.tolist()
    [['model', 'safeguard']]
    """
    if "method" not in power:
        return power
    rank = (power["method"] != "model").astype(int) * 4 + power["basis"].map(
        {"safeguard": 0, "observed": 1, "assumed": 2}
    ).fillna(3)
    keys = ["finding", "design", "evaluators", "items"]
    ordered = power.assign(_rank=rank.to_numpy()).sort_values("_rank", kind="stable")
    first = ~ordered[keys].astype(str).duplicated()
    return ordered[first].drop(columns="_rank").sort_index()


def smallest_sufficient(power: pd.DataFrame) -> pd.DataFrame:
    """Per finding, the smallest planned design (fewest judgements expected: evaluators x items) whose power
    reaches :data:`TARGET`, or a note that none of the grid does."""
    out = []
    planned = headline(power[power["design"] == "planned"])
    for finding, part in planned.groupby("finding", sort=False):
        part = part.dropna(subset=["power"])
        enough = part[part["power"] >= TARGET].assign(size=lambda f: f["evaluators"] * f["items"])
        if part.empty:
            out.append({"finding": finding, "note": planned.loc[planned["finding"] == finding, "note"].iloc[0]})
        elif enough.empty:
            best = part.loc[part["power"].idxmax()]
            out.append(
                {
                    "finding": finding,
                    "power": best["power"],
                    "note": f"no planned design reaches {TARGET:.0%}; the largest power is at "
                    f"{best['evaluators']:.0f} evaluators x {best['items']:.0f} items",
                }
            )
        else:
            best = enough.sort_values(["size", "evaluators"]).iloc[0]
            out.append(
                {
                    "finding": finding,
                    "evaluators": best["evaluators"],
                    "items": best["items"],
                    "power": best["power"],
                    "ci_low": best["ci_low"],
                    "ci_high": best["ci_high"],
                    "note": "",
                }
            )
    frame = pd.DataFrame(out, columns=["finding", "evaluators", "items", "power", "ci_low", "ci_high", "note"])
    return frame.astype({"evaluators": "Int64", "items": "Int64"})
