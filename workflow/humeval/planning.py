"""Reproduction planning: how likely a reproduction of a given size is to recover each of the original's findings.

A finding is a QRA Type IV claim (:func:`humeval.qra.claims.claim_holds`: comparisons of table cells that must all
hold and, where the paper tested it, a p-value below its alpha), or one listed under the study's ``planning:
findings``. Its power at a design (E evaluators, I items) is the share of simulated reproductions of that size in
which it holds, after Card et al. (2020, "With Little Power Comes Great Responsibility", EMNLP): each simulation
draws E evaluators and I items with replacement from the pilot's (a two-way cluster bootstrap, the "pigeonhole"
bootstrap of Owen 2007), keeps every judgement the pilot has of a drawn evaluator on a drawn item, once per copy
of each (copies relabelled as new evaluators and items, so an evaluator drawn twice is two evaluators, each with
the items the design gave the original one), and recomputes the finding's own cells with the study's own metric
entries (:func:`humeval.metrics.metrics_study`) on the pilot's side, the other sides left as they are. The pilot
is the first experiment (O, then R1, ...) whose judgements are public and whose cells the metrics compute.

The resampling is vectorised (:func:`copies`: one ``bincount`` and ``repeat`` per simulation, no loop over
judgements); each simulation then runs the metric entries the findings read, once. Seeded by ``seed``; the
interval of each power is Wilson's 95% interval for a binomial proportion over the simulations (scipy).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from humeval.errors import HumevalError

#: Planned designs by default: these multiples of the pilot's evaluators, at the pilot's items.
EVALUATOR_FACTORS = (0.5, 1, 2, 4)
#: Simulations per design by default: Wilson's 95% interval is at most +-0.07 wide around a power of 0.5 (0.055
#: around 0.8), and the slowest default study plans in under a minute (docs/performance.md).
SIMULATIONS = 200
#: The power a design must reach to be called sufficient (Cohen 1988).
TARGET = 0.8
COLUMNS = [
    "finding",
    "design",
    "evaluators",
    "items",
    "power",
    "ci_low",
    "ci_high",
    "simulations",
    "failed",
    "pilot",
    "note",
]


def as_numbers(power: pd.DataFrame) -> pd.DataFrame:
    """A ``power.csv`` as read back (every cell text but the audit's numeric columns) with its numbers as numbers."""
    numbers = ["evaluators", "items", "power", "ci_low", "ci_high", "simulations", "failed"]
    return power.assign(**{c: pd.to_numeric(power[c]) for c in numbers if c in power})


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


def evaluate(finding: dict, values: dict, label: str) -> bool:
    """Whether ``finding`` holds on the side labelled ``label`` given ``values`` {(table, row, column): number}."""
    from humeval.qra.claims import claim_holds

    def operand(spec):
        if isinstance(spec, (int, float)):
            return float(spec)
        return values.get(tuple(str(spec[k]).format(side=label) for k in ("table", "row", "column")), float("nan"))

    return claim_holds(finding, operand)[0]


def copies(evaluator: np.ndarray, item: np.ndarray, drawn_evaluators: np.ndarray, drawn_items: np.ndarray):
    """One simulated design from the pilot's judgements (``evaluator`` and ``item`` codes per judgement, 0-based):
    the judgement rows it holds, and for each the copy of its evaluator and of its item (0 = the first).

    A judgement of evaluator e on item i appears once per (copy of e, copy of i): ``count_e * count_i`` times.

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
    text = [str(n) for n in names]
    return np.array(
        [text[u % count] if u < count else f"{text[u % count]}~{u // count}" for u in unique], dtype=object
    )[inverse]


class Simulator:
    """The pilot side's kept judgements, coded once, and the study's metric entries that compute the findings'
    cells; :meth:`power` simulates designs of it."""

    def __init__(self, data, side: str, expected: dict):
        from humeval.metrics import StudyData

        rows = data.kept
        self.pilot = rows[rows["side"] == side].reset_index(drop=True)
        self.others = rows[rows["side"] != side]
        self.evaluator, self.evaluators = pd.factorize(self.pilot["participant"])
        self.item, self.items = pd.factorize(self.pilot["item"])
        people = data.participants
        if "participant" not in people:  # no participant table (a study without participant metadata)
            people = pd.DataFrame({"side": pd.Series(dtype=object), "participant": pd.Series(dtype=object)})
        on_side = people["side"] == side if "side" in people else pd.Series(True, index=people.index)
        # the pilot's participant rows (their metadata: condition, row, minutes, ...) in the order of their codes
        self.pilot_people = people[on_side].drop_duplicates("participant").set_index("participant")
        self.pilot_people = self.pilot_people.reindex(pd.Index(self.evaluators, name="participant"))
        self.other_people = people[~on_side]
        tables = {cell[0] for cell in expected}
        config = dict(data.config, metrics=[m for m in data.config.get("metrics", []) if m["table"] in tables])
        self.data, self.config, self.study_data, self.expected = data, config, StudyData, expected
        # the pilot alone where its metrics give the study's numbers from it alone (most group by side); else the
        # other sides' judgements beside it; the cells must be the study's either way
        whole = np.arange(len(self.pilot)), np.zeros(len(self.pilot), dtype=int), np.zeros(len(self.pilot), dtype=int)
        for self.with_others in (False, True):
            try:
                identity = self.values(*whole)
            except (HumevalError, ValueError, KeyError):
                continue
            differing = [c for c, v in expected.items() if not np.isclose(identity.get(c, np.nan), v, equal_nan=True)]
            if not differing:
                return
        raise HumevalError(f"planning: the judgements of side {side!r} do not give the cells {differing[:3]} again")

    def values(self, rows: np.ndarray, a: np.ndarray, b: np.ndarray) -> dict:
        """The metric cells of one simulated design (the pilot's rows ``rows``, evaluator copies ``a``, item copies
        ``b``) as {(table, row, column): value}."""
        from humeval.metrics import metrics_study

        sample = self.pilot.iloc[rows].reset_index(drop=True)
        evaluator, item = self.evaluator[rows], self.item[rows]
        sample["participant"] = relabelled(self.evaluators, evaluator, a)
        sample["item"] = relabelled(self.items, item, b)
        sample["judgement_id"] = np.arange(len(sample))  # each copy a judgement of its own
        kept = pd.concat([self.others, sample], ignore_index=True) if self.with_others else sample
        # every evaluator copy is a participant of its own, with its original's metadata: a metric that looks raters
        # up in the participants (santhanam's ICCs by condition) sees every drawn rater, not only the originals
        first = ~pd.Series(sample["participant"]).duplicated().to_numpy()
        people = self.pilot_people.iloc[evaluator[first]].reset_index(drop=True)
        people["participant"] = sample["participant"].to_numpy()[first]
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

    def power(self, chosen: list[dict], labels: list[str], evaluators: int, items: int, simulations: int, rng):
        """For each finding of ``chosen`` (evaluated on its side label), how many of ``simulations`` designs of
        ``evaluators`` x ``items`` recover it, and how many simulations the metrics refused (counted as not
        recovered: a reproduction whose numbers cannot be computed recovers nothing), and for each finding whether any
        simulation changed a cell it reads (one that never changes is not recomputed from the pilot's judgements:
        its share of simulations is no power)."""
        import logging

        drawn_e = rng.integers(0, len(self.evaluators), size=(simulations, evaluators))
        drawn_i = rng.integers(0, len(self.items), size=(simulations, items))
        held, failed = np.zeros(len(chosen), dtype=int), 0
        cells_of = [finding_cells(f, label) for f, label in zip(chosen, labels)]
        changed = np.zeros(len(chosen), dtype=bool)  # whether any simulation moved a cell the finding reads
        logging.disable(logging.INFO)  # the metrics' notes, once per simulation, would flood the job's log
        try:
            for s in range(simulations):
                try:
                    values = self.values(*copies(self.evaluator, self.item, drawn_e[s], drawn_i[s]))
                except (HumevalError, ValueError, ZeroDivisionError, AssertionError):  # pingouin asserts its input
                    failed += 1
                    continue
                held += [evaluate(f, values, label) for f, label in zip(chosen, labels)]
                changed |= [
                    any(not np.isclose(values.get(c, np.nan), self.expected[c], equal_nan=True) for c in cells)
                    for cells in cells_of
                ]
        finally:
            logging.disable(logging.NOTSET)
        return held, failed, changed


def wilson(successes: int, n: int) -> tuple[float, float]:
    """Wilson's 95% interval of a binomial proportion (scipy's ``binomtest(...).proportion_ci``).

    Checked by hand: centre (p + z^2/2n) / (1 + z^2/n), half-width z sqrt(p(1-p)/n + z^2/4n^2) / (1 + z^2/n).

    >>> [round(x, 4) for x in wilson(160, 200)]
    [0.7391, 0.8495]
    """
    from scipy.stats import binomtest

    interval = binomtest(int(successes), int(n)).proportion_ci(confidence_level=0.95, method="wilson")
    return float(interval.low), float(interval.high)


def pilot_of(finding: dict, sides: list[tuple[str, str, str]], size: dict, computed: set, chosen: str | None):
    """The experiment a finding is resampled from, as ``(id, side, {side} text)``: ``planning.pilot`` where the
    config chooses one, else the first of the finding's experiments (O, then R1, ...); it must have public
    judgements and the finding's cells among the computed metric values. None when none qualifies."""
    for experiment, side, label in sides:
        if chosen not in (None, experiment):
            continue
        if size.get(side, (0,))[0] > 0 and set(finding_cells(finding, label)) <= computed:
            return experiment, side, label
    return None


def side_size(kept: pd.DataFrame, side: str) -> tuple[int, int, float]:
    """A side's evaluators, items, and judgements per item and criterion (its workload per item)."""
    rows = kept[kept["side"] == side]
    evaluators, items = rows["participant"].nunique(), rows["item"].nunique()
    criteria = rows["criterion"].nunique() if "criterion" in rows else 1
    return evaluators, items, len(rows) / max(1, items * max(1, criteria))


def pilot_equivalent(pilot: tuple[int, int, float], reproduction: tuple[int, int, float]) -> int:
    """How many of the pilot's evaluators give a reproduction's judgements per item and criterion in the
    bootstrap (where each item copy gets E'/E of the pilot's judgements per item): E' = E_pilot x per_R /
    per_pilot, at least 2. With the pilot's workload per evaluator it is the reproduction's evaluators (yao's R1-R3:
    5 of O's 5); where the pilot's evaluators judged one item each (liu's original: 2,880 workers, 3.00 judgements
    per item) and the reproduction's 31 each (77 evaluators, 804 items, 3.00 per item), it is 2,880.

    >>> pilot_equivalent((2880, 960, 3.0), (77, 804, 3.0)), pilot_equivalent((5, 361, 2.0), (5, 361, 2.0))
    (2880, 5)
    """
    return max(2, round(pilot[0] * reproduction[2] / pilot[2]))


def measures(finding: dict, label: str | None, known: set) -> bool:
    """Whether an experiment measures a finding: the finding is judged there (``label``, its ``{side}`` text, is
    not None) and its cells are among the ``known`` computed or published ones (R2 of yao rated readability
    only)."""
    return label is not None and set(finding_cells(finding, label)) <= known


def plan_study(data, metrics: pd.DataFrame) -> pd.DataFrame:
    """The study's ``planning/power.csv``: per finding, its power at every planned design (``design`` =
    ``planned``) and at the actual size of every reproduction (``design`` = its id), with Wilson intervals, the
    pilot experiment, and a note where a finding cannot be resampled. ``metrics``: the study's metric values
    (which cells the data compute). The findings of one pilot share their simulations, and a design asked for
    twice (a reproduction of the pilot's size) is simulated once."""
    study = data.config
    planning = study.get("planning", {})
    simulations, rng = planning.get("simulations", SIMULATIONS), np.random.default_rng(planning.get("seed", 0))
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
            note = "no experiment with public judgements computes this finding's cells (published numbers only)"
            computing = [
                i
                for i, _, label in finding_sides(finding, study)
                if set(finding_cells(finding, label)) <= set(computed)
            ]
            if computing:  # computed, but from judgements under other side names (finch's sides are evaluator groups)
                note = (
                    f"{', '.join(computing)} computes this finding's cells from judgements whose sides are not its own "
                    "(a design of groups, not experiments): not simulated"
                )
            if planning.get("pilot"):
                note = f"the pilot {planning['pilot']} has no public judgements computing this finding's cells"
            rows.append({"finding": finding["id"], "design": "planned", "note": note})
        else:
            groups.setdefault(pilot[:2], []).append(finding)
    for (experiment, side), chosen in groups.items():
        labels = [label_in[f["id"]][experiment] for f in chosen]
        cells = {cell for f, label in zip(chosen, labels) for cell in finding_cells(f, label)}
        simulator = Simulator(data, side, {cell: computed[cell] for cell in cells})
        evaluators, items, _ = size[side]
        designs = [
            ("planned", e, i)
            for e in planning.get("evaluators", sorted({max(2, round(f * evaluators)) for f in EVALUATOR_FACTORS}))
            for i in planning.get("items", [items])
        ]
        notes = {}
        for reproduction, reproduction_side in experiments[1:]:
            given = planning.get("sizes", {}).get(reproduction)
            actual = size[reproduction_side]
            unmeasured = [f["id"] for f in chosen if not measures(f, label_in[f["id"]].get(reproduction), known)]
            rows += [
                {
                    "finding": f,
                    "design": reproduction,
                    "pilot": experiment,
                    "note": f"{reproduction} does not measure it",
                }
                for f in unmeasured
            ]
            if len(unmeasured) == len(chosen):
                continue
            if actual[0] > 0:
                equivalent = pilot_equivalent(size[side], actual)
                designs.append((reproduction, equivalent, actual[1]))
                notes[reproduction] = (
                    f"{reproduction}: {actual[0]} evaluators x {actual[1]} items, {actual[2]:.2f} judgements per item "
                    f"and criterion, i.e. {equivalent} of the pilot's evaluators ({size[side][2]:.2f} per item and "
                    "criterion)"
                )
            elif given:
                designs.append((reproduction, given["evaluators"], given["items"]))
            else:
                note = f"{reproduction}'s size is unknown (its judgements are not public): give planning.sizes.{reproduction}"
                rows += [
                    {"finding": f["id"], "design": reproduction, "pilot": experiment, "note": note} for f in chosen
                ]
        results = {}
        for e, i in dict.fromkeys((int(e), int(i)) for _, e, i in designs):
            results[(e, i)] = simulator.power(chosen, labels, e, i, simulations, rng)
        source = f"resampled from {experiment} ({evaluators} evaluators, {items} items)"
        pilot_values = {cell: computed[cell] for cell in cells}
        absent = {f["id"] for f, label in zip(chosen, labels) if not evaluate(f, pilot_values, label)}
        for design, e, i in designs:
            held, failed, changed = results[(int(e), int(i))]
            for finding, count, moved in zip(chosen, held, changed):
                if design != "planned" and not measures(finding, label_in[finding["id"]].get(design), known):
                    continue
                if not moved:  # no silent 1.0: its cells are not recomputed from the pilot's judgements
                    note = (
                        f"its cells did not change in {simulations} simulations of {experiment}'s judgements (they "
                        "are not computed from them): no power"
                    )
                    rows.append({"finding": finding["id"], "design": design, "pilot": experiment, "note": note})
                    continue
                low, high = wilson(count, simulations)
                rows.append(
                    {
                        "finding": finding["id"],
                        "design": design,
                        "evaluators": int(e),
                        "items": int(i),
                        "power": count / simulations,
                        "ci_low": low,
                        "ci_high": high,
                        "simulations": simulations,
                        "failed": failed,
                        "pilot": experiment,
                        "note": "; ".join(
                            [source]
                            + ([notes[design]] if design in notes else [])
                            + (
                                [f"the finding does not hold in {experiment}: this is the power of a study like it"]
                                if finding["id"] in absent
                                else []
                            )
                        ),
                    }
                )
    if not findings(study):
        note = "no findings: the study states no claims (QRA Type IV) and no planning findings"
        rows.append({"finding": "none", "design": "planned", "note": note})
    order = {f["id"]: k for k, f in enumerate(findings(study))}
    frame = pd.DataFrame(rows, columns=COLUMNS)
    frame = frame.astype({c: "Int64" for c in ("evaluators", "items", "simulations", "failed")})
    key = frame["finding"].map(order).fillna(-1) * 2 + (frame["design"] != "planned")  # per finding, planned first
    return frame.iloc[key.argsort(kind="stable")].reset_index(drop=True)


def smallest_sufficient(power: pd.DataFrame) -> pd.DataFrame:
    """Per finding, the smallest planned design (fewest judgements expected: evaluators x items) whose power
    reaches :data:`TARGET`, or a note that none of the grid does."""
    out = []
    planned = power[power["design"] == "planned"]
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
