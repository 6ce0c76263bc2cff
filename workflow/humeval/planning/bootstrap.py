"""Planning's bootstrap (docs/planning.md): all the pilot's people, its items drawn with replacement, the study's
own metric entries recomputed on each draw (:class:`Simulator`), or all draws at once where every entry has an
item-totals form (:mod:`humeval.metrics.item_totals`); Wilson's interval of a simulated power (:func:`wilson`)."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import pandas as pd

from humeval.errors import HumevalError
from humeval.findings import evaluate, evaluate_draws, finding_cells, margin, margin_draws

__all__ = [
    "Simulator",
    "between_subject_strata",
    "copies",
    "draw_items",
    "needed_entries",
    "null_pilot",
    "relabelled",
    "wilson",
]


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


def null_pilot(kept: pd.DataFrame, items, units: tuple = ()) -> pd.DataFrame | None:
    """The judgements ``kept`` made null: each of ``items`` (the pilot's) that shows k >= 2 systems once more in
    each of the k - 1 other cyclic orders of its systems (``system`` and ``system_b`` relabelled alike, on every
    side that judges the item, as item ``<item>~null<r>``), so that every system stands in every other's place
    once per item and none differs from another, while raters, items, positions and agreement stay as they are: the
    labels permuted within items in all k ways at once, a null with no chance effect of its own (one random
    permutation per item would leave one: resampled, a valid sign test held at zero effect in 12.8% of 400 draws
    over ten such null pilots, against 2.5% nominal). None where no item shows two systems (santhanam's designs
    judge one system per item). The ``units`` columns (:meth:`Simulator.item_units`) are relabelled as the item
    is (``256`` -> ``256~null1``): an order of a unit is a unit of its own.

    >>> kept = pd.DataFrame({"item": ["i", "i", "j"], "system": ["a", "a", "c"], "system_b": ["b", "b", None]})
    >>> null_pilot(kept, ["i", "j"])[["item", "system", "system_b"]].values.tolist()
    [['i', 'a', 'b'], ['i', 'a', 'b'], ['j', 'c', nan], ['i~null1', 'b', 'a'], ['i~null1', 'b', 'a']]
    >>> null_pilot(kept.drop(columns="system_b"), ["i", "j"]) is None
    True
    >>> null_pilot(kept.assign(system_b=""), ["i", "j"]) is None  # ratings: no second system
    True
    """
    columns = [c for c in ("system", "system_b") if c in kept]
    linked = kept[kept["item"].isin(pd.Index(items))]
    shown = pd.concat([linked[["item", c]].set_axis(["item", "system"], axis=1) for c in columns])
    shown = shown[shown["system"].notna() & (shown["system"].astype(str) != "")]  # a rating's empty system_b
    systems = shown.drop_duplicates().groupby("item", sort=False)["system"].agg(lambda s: sorted(map(str, s)))
    systems = systems[systems.map(len) >= 2]
    if systems.empty:
        return None
    copies = []
    for shift in range(1, int(systems.map(len).max())):
        turned = systems[systems.map(len) > shift]
        part = linked[linked["item"].isin(turned.index)].copy()
        order = {
            (item, name): names[(k + shift) % len(names)]
            for item, names in turned.items()
            for k, name in enumerate(names)
        }
        for column in columns:
            known = part[column].notna()
            part.loc[known, column] = [
                order[(i, str(v))] for i, v in zip(part.loc[known, "item"], part.loc[known, column])
            ]
        part["item"] = part["item"].astype(str) + f"~null{shift}"
        for column in units:
            known = part[column].notna()
            part.loc[known, column] = part.loc[known, column].astype(str) + f"~null{shift}"
        if "judgement_id" in part:
            part["judgement_id"] = part["judgement_id"].astype(str) + f"~null{shift}"
        copies.append(part)
    return pd.concat([kept, *copies], ignore_index=True)


def needed_entries(data, entries: list[dict], expected: set) -> list[dict]:
    """The metric entries among ``entries`` (those of the tables the ``expected`` cells are in) that write one of
    them: an entry alone on its table does; several entries of one table are each run once on the study's data to
    see which do. Every simulation runs only those (liu's planning ran the two reproduction entries of its
    figure2 in every simulation of the original, two thirds of its cost). All of them where one reads earlier
    entries' cells (``cell_arithmetic``) or where one cannot run alone."""
    from humeval.metrics import StudyData, metrics_study

    if any(entry["metric"] == "cell_arithmetic" for entry in entries):
        return entries
    writers = {}  # table -> how many entries write it: an entry alone on its table writes the expected cells
    for entry in entries:
        writers[entry["table"]] = writers.get(entry["table"], 0) + 1
    kept = []
    for entry in entries:
        if writers[entry["table"]] == 1:  # santhanam's 25 ICC tables: no run needed (1.5 s of its job)
            kept.append(entry)
            continue
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


def between_subject_strata(pilot: pd.DataFrame, evaluator: np.ndarray, item: np.ndarray) -> np.ndarray | None:
    """Each item's between-subject condition (a code per item, in the order of the item codes ``item``) where the
    pilot has one: a ``condition`` of which every person saw one and every item belongs to one. None otherwise
    (santhanam's designs are between-subject, but every response is judged in all four: its items are crossed)."""
    if "condition" not in pilot:
        return None
    condition = pilot["condition"].astype(str)
    if condition.nunique() < 2 or condition.groupby(evaluator).nunique().max() > 1:
        return None
    per_item = condition.groupby(item).agg(["nunique", "first"])
    return None if per_item["nunique"].max() > 1 else pd.factorize(per_item["first"])[0]


def draw_items(rng, strata: np.ndarray | None, n: int, simulations: int, items: int) -> np.ndarray:
    """``simulations`` draws of ``items`` of the pilot's ``n`` items, with replacement: from all of them, or, with
    between-subject ``strata`` (:func:`between_subject_strata`), within each condition, so that a draw keeps every
    condition's share of the items (at the pilot's size its counts exactly; else shares rounded by largest
    remainders): a between-subject design fixes how many items each condition has.

    >>> draws = draw_items(np.random.default_rng(0), np.array([0, 0, 0, 1]), 4, 100, 4)
    >>> bool(((draws < 3).sum(axis=1) == 3).all())
    True
    """
    if strata is None:
        return rng.integers(0, n, size=(simulations, items))
    members = [np.flatnonzero(strata == s) for s in range(int(strata.max()) + 1)]
    quota = np.array([m.size for m in members]) * items / n
    counts = np.floor(quota).astype(int)
    counts[np.argsort(counts - quota, kind="stable")[: items - counts.sum()]] += 1  # largest remainders
    return np.concatenate([m[rng.integers(0, m.size, size=(simulations, c))] for m, c in zip(members, counts)], axis=1)


class Units(NamedTuple):
    """The units a pilot's items nest in (:meth:`Simulator.item_units`)."""

    columns: tuple  # the unit's column (``summary``)
    tables: frozenset  # the tables whose test runs over the units
    apart: frozenset  # those of them no other entry's arithmetic (``cell_arithmetic``) reads
    unit: np.ndarray  # per pilot item code, its unit's code
    names: np.ndarray  # per unit code, its name (the column's value)
    members: list  # per unit code, its items' codes


def order_table(null_names, names) -> np.ndarray:
    """Per name (an item or a unit of a pilot), the codes among ``null_names`` (its null pilot's, :func:`null_pilot`)
    of itself and of each of its other orders (``<name>~null1``, ...), -1 past the last.

    >>> order_table(["a", "b", "a~null1"], ["a", "b"]).tolist()
    [[0, 2], [1, -1]]
    """
    index = pd.Index(null_names)
    columns = [index.get_indexer(names)]
    while (found := index.get_indexer([f"{name}~null{len(columns)}" for name in names])).max() >= 0:
        columns.append(found)
    return np.stack(columns, axis=1)


def shrunk(base: np.ndarray, table: np.ndarray, weight: float, rng) -> np.ndarray:
    """Each drawn code of ``base`` kept as itself (``table``'s first column) with probability ``weight``, else one of
    its orders (its row of :func:`order_table`) at random, itself among them, each alike."""
    counts = (table >= 0).sum(axis=1)
    kept = rng.random(base.shape) < weight
    turn = (rng.random(base.shape) * counts[base]).astype(int)
    return np.where(kept, table[base, 0], table[base, turn])


def expanded(members: list, drawn: np.ndarray) -> list:
    """Per draw of unit codes (a row of ``drawn``), the codes of the drawn units' items, in order."""
    return [np.concatenate([members[u] for u in row]) for row in drawn]


#: The seed of the one draw of units that checks the item-totals forms against the metrics (:meth:`checked_totals`),
#: apart from every bootstrap's stream.
CHECK_STREAM = 55


class Simulator:
    """The pilot side's kept judgements, coded once, and the study's metric entries that compute the findings'
    cells: :meth:`values` recomputes them from any frame of the pilot's shape, :meth:`power` bootstraps its
    items."""

    def __init__(self, data, side: str, expected: dict, like: Simulator | None = None, levels: dict | None = None):
        """``like``: the simulator of the study's own pilot, whose metric entries, way of reading other sides and
        ``levels`` a simulator of a null pilot takes (:meth:`null_rate`); its cells are then its own, not
        ``expected``'s. ``levels``: {cell: alphas} of the cells the findings read only as a test's p
        (:func:`humeval.findings.decision_levels`), which the item-totals forms may bound (the metrics' values
        decide alike)."""
        from humeval.metrics import StudyData

        rows = data.kept
        self.pilot = rows[rows["side"] == side].reset_index(drop=True)
        self.others = rows[rows["side"] != side]
        self.evaluator, self.evaluators = pd.factorize(self.pilot["participant"])
        self.item, self.items = pd.factorize(self.pilot["item"])
        # the other sides' judgements of the pilot's items (automatic scores, another experiment's modes) are drawn
        # with them: a helper side held fixed would not follow a draw's copies (:meth:`others_drawn`)
        self.other_item = pd.Index(self.items).get_indexer(self.others["item"])
        # one judgement per evaluator and criterion (liu's workers): evaluators are not a factor; items only
        criterion = self.pilot["criterion"] if "criterion" in self.pilot else pd.Series("", index=self.pilot.index)
        self.items_only = bool(self.pilot.groupby([self.evaluator, criterion.to_numpy()]).size().max() == 1)
        self.strata = between_subject_strata(self.pilot, self.evaluator, self.item)
        people = data.participants
        if "participant" not in people:  # no participant table (a study without participant metadata)
            people = pd.DataFrame({"side": pd.Series(dtype=object), "participant": pd.Series(dtype=object)})
        on_side = people["side"] == side
        # the pilot's participant rows (their metadata: condition, row, minutes, ...) in the order of their codes
        self.pilot_people = people[on_side].drop_duplicates("participant").set_index("participant")
        self.pilot_people = self.pilot_people.reindex(pd.Index(self.evaluators, name="participant"))
        self.other_people = people[~on_side]
        self.moved = {}  # (grouping columns, group) -> the cells with that group moved by 1 (:meth:`shifted`)
        self.checked, self.orders = False, None  # forms checked (checked_totals); items' null orders (shrunk_draws)
        self.resampling = 0.0  # the counted seconds of the metrics' resampling on the pilot (counted_values)
        self.data, self.study_data = data, StudyData
        self.levels = like.levels if like is not None else levels or {}
        if like is not None:
            # the cells asked for (``study_of`` computes only those), then their values on this pilot
            self.config, self.with_others, self.expected = like.config, like.with_others, expected
            self.units = self.item_units()
            self.identity = self.counted_values()
            self.expected = {cell: self.identity.get(cell, np.nan) for cell in expected}
            self.totals = self.item_totals()
            return
        tables = {cell[0] for cell in expected}
        entries = [m for m in data.config.get("metrics", []) if m["table"] in tables]
        self.config = dict(data.config, metrics=needed_entries(data, entries, set(expected)))
        self.expected = expected
        self.units = self.item_units()
        # the pilot alone where its metrics give the study's numbers from it alone (most group by side); else the
        # other sides' judgements beside it; the cells must be the study's either way
        for self.with_others in (False, True):
            try:
                identity = self.counted_values()
            except (HumevalError, ValueError, KeyError):
                continue
            differing = [c for c, v in expected.items() if not np.isclose(identity.get(c, np.nan), v, equal_nan=True)]
            if not differing:
                self.identity = identity  # every cell of the needed entries on the pilot as it is
                self.totals = self.item_totals()
                return
        raise HumevalError(f"planning: the judgements of side {side!r} do not give the cells {differing[:3]} again")

    def null_simulator(self) -> Simulator | None:
        """The simulator of the pilot made null (:func:`null_pilot`), with this one's metric entries; None where no
        item shows two systems."""
        from humeval.metrics import StudyData

        kept = null_pilot(self.data.kept, self.items, self.units.columns if self.units else ())
        if kept is None:
            return None
        data = StudyData(
            kept=kept,
            tidy=kept,
            participants=self.data.participants,
            exclusions=self.data.exclusions,
            published=self.data.published,
            config=self.data.config,
        )
        return Simulator(data, self.pilot["side"].iloc[0], self.expected, like=self)

    def null_rate(
        self, chosen: list[dict], labels: list[str], items: int, simulations: int, rng, null: Simulator | None = None
    ) -> np.ndarray:
        """For each finding of ``chosen``, how often it holds where there is no effect: the pilot made null
        (:meth:`null_simulator`, or ``null`` where it is made already) bootstrapped as :meth:`power` bootstraps the
        pilot, ``items`` of its items drawn with replacement in each of ``simulations``; the rate the study's own
        analysis reaches at zero effect, beside the power it reaches at the observed effect (issue 53). NaN for
        every finding where no item shows two systems, and for a finding whose cells the null pilot leaves as they
        are (its compared groups are not the systems)."""
        null = null or self.null_simulator()
        if null is None:
            return np.full(len(chosen), np.nan)
        reached = [
            any(not np.isclose(null.expected[c], self.expected[c], equal_nan=True) for c in finding_cells(f, label))
            for f, label in zip(chosen, labels)
        ]
        held = null.power(chosen, labels, items, simulations, rng)[0]
        return np.where(reached, held / simulations, np.nan)

    def shrunk_draws(self, null: Simulator, weight: float, items: int, simulations: int, rng, by_unit: bool = False):
        """Draws of this pilot's items shrunk toward its null (:meth:`null_simulator`), as codes of ``null``'s
        items: ``items`` of the pilot's drawn with replacement, each then kept as it is with probability
        ``weight``, else replaced by one of its k system orders at random (itself among them, :func:`null_pilot`).
        An item's expected contribution to a mean, a share or a sum over items is then ``weight`` times its own
        plus (1 - weight) times the mean over its orders, in which no system differs from another: the pilot's
        effect times ``weight``, as the safeguard basis asks (Perugini et al. 2014). An item of one system stays.
        ``by_unit``: units are drawn (:meth:`draws`), and each is kept or replaced by one of its orders whole (the
        null pilot's unit ``256~null1``, all its items in that order), a list of each draw's items."""
        if by_unit:
            return self.shrunk_unit_draws(null, weight, items, simulations, rng)
        if self.orders is None:  # per pilot item, the codes of its orders among the null's items (itself first)
            self.orders = order_table(null.items, self.items)
        return shrunk(draw_items(rng, self.strata, len(self.items), simulations, items), self.orders, weight, rng)

    def shrunk_unit_draws(self, null: Simulator, weight: float, items: int, simulations: int, rng) -> list:
        """:meth:`shrunk_draws` by unit: the pilot's units drawn with replacement, each kept with probability
        ``weight``, else replaced by one of its k orders at random (itself among them), as the null pilot's units;
        a list of each draw's items among ``null``'s."""
        if null.units is None:
            raise HumevalError("planning: the null pilot's items do not nest in the pilot's units")
        table = order_table(null.units.names, self.units.names)
        if (table[:, 0] < 0).any():
            raise HumevalError("planning: the null pilot lacks a unit of the pilot's")
        base = rng.integers(0, len(self.units.members), size=(simulations, self.unit_count(items)))
        return expanded(null.units.members, shrunk(base, table, weight, rng))

    def item_units(self) -> Units | None:
        """The units the pilot's items nest in, where a metric entry's test runs over observations of a unit
        (:func:`humeval.metrics.derived.unit_columns`: puduppully's per-summary scores, arvan's per-input ones): its
        columns, the tables of the entries that read them, each pilot item's unit and each unit's items, read from
        the judgements of the pilot's items on every side. An item no such judgement names is a unit of its own.
        None without such an entry, where entries name different units or a unit of several columns, where an item
        falls in two units (they do not nest), or in a between-subject design (:func:`between_subject_strata`, drawn within conditions)."""
        from humeval.metrics.derived import unit_columns

        derived = {spec["id"]: spec for spec in self.config.get("derived", [])}
        found = {}
        for entry in self.config.get("metrics", []):
            columns = unit_columns(derived[entry["frame"]], entry) if entry.get("frame") in derived else []
            if columns:
                found.setdefault(tuple(columns), set()).add(entry["table"])
        if len(found) != 1 or self.strata is not None:
            return None
        ((columns, tables),) = found.items()
        rows = pd.concat([self.pilot, self.others], ignore_index=True)
        if len(columns) > 1 or columns[0] not in rows:
            return None
        rows = rows[rows[columns[0]].notna()]
        code = pd.Index(self.items).get_indexer(rows["item"])
        pairs = pd.DataFrame({"item": code, "unit": rows[columns[0]].astype(str).to_numpy()})
        pairs = pairs[pairs["item"] >= 0].drop_duplicates()
        if pairs["item"].duplicated().any():
            return None
        names = pd.Series(pairs["unit"].to_numpy(), index=pairs["item"].to_numpy()).reindex(range(len(self.items)))
        alone = names.isna()
        names[alone] = [f"item {i}" for i in np.flatnonzero(alone)]  # an item no unit names is one of its own
        unit, unit_names = pd.factorize(names)
        order = np.argsort(unit, kind="stable")
        members = np.split(order, np.cumsum(np.bincount(unit))[:-1])
        read = {  # the tables another entry's arithmetic takes operands from
            operand["table"]
            for entry in self.config.get("metrics", [])
            if entry["metric"] == "cell_arithmetic"
            for cell in entry.get("cells", [])
            for operand in (cell.get("left"), cell.get("right"))
            if isinstance(operand, dict)
        }
        return Units(
            columns, frozenset(tables), frozenset(tables - read), unit, np.asarray(unit_names, dtype=object), members
        )

    def uses_units(self, finding: dict, label: str) -> bool:
        """Whether ``finding`` reads a cell of a table whose test runs over units (:meth:`item_units`): its draws
        are then of units, each with all its items (:meth:`draws`)."""
        return bool(self.units) and any(cell[0] in self.units.tables for cell in finding_cells(finding, label))

    def draws(self, rng, simulations: int, items: int, by_unit: bool):
        """``simulations`` draws of the pilot's item codes at ``items`` items (:func:`draw_items`), or, ``by_unit``,
        of its units with replacement, as many as ``items`` makes of the pilot's units in proportion (20 of
        puduppully's 20 summaries at its 200 items), each with all its items: a list of item codes per draw."""
        if not by_unit:
            return draw_items(rng, self.strata, len(self.items), simulations, items)
        members = self.units.members
        return expanded(members, rng.integers(0, len(members), size=(simulations, self.unit_count(items))))

    def unit_count(self, items: int) -> int:
        """How many units a draw of ``items`` items holds: the pilot's units in proportion, at least one."""
        return max(1, round(items * len(self.units.members) / len(self.items)))

    def counted_values(self) -> dict:
        """:meth:`values` of the pilot as it is, and in :attr:`resampling` the seconds its metrics' resampling
        counts (:func:`humeval.resampling.counted`), which each draw run one by one pays again
        (:meth:`draw_cost`)."""
        from humeval.resampling import counted

        with counted() as count:
            values = self.values(self.pilot)
        self.resampling = count.spent
        return values

    def study_of(self, kept: pd.DataFrame, people: pd.DataFrame):
        """The study's data with ``kept`` as its judgements (all kept: a draw has no exclusions) and ``people``."""
        return self.study_data(
            kept=kept,
            tidy=kept,
            participants=people,
            exclusions=self.data.exclusions.iloc[:0],
            published=self.data.published,
            config=self.config,
            wanted=frozenset(self.expected),
            levels=self.levels,
        )

    def item_totals(self):
        """Each metric entry's item-totals form (:mod:`humeval.metrics.item_totals`) and the columns of the pilot's
        items it reads, where every entry has one for its parameters; else None (each draw runs the metrics)."""
        from humeval.metrics.item_totals import NoForm
        from humeval.metrics.item_totals_forms import ITEM_TOTALS

        entries = self.config.get("metrics", [])
        if not entries or any(entry["metric"] not in ITEM_TOTALS for entry in entries):
            return None
        people = self.pilot_people.reset_index()
        if self.with_others:  # the other sides' judgements of the pilot's items follow its draws (others_drawn)
            pilot = self.study_of(
                pd.concat([self.others, self.pilot], ignore_index=True),
                pd.concat([self.other_people, people], ignore_index=True),
            )
        else:
            pilot = self.study_of(self.pilot, people)
        forms = []
        for entry in entries:
            params = {key: v for key, v in entry.items() if key not in ("metric", "description")}
            try:
                form = ITEM_TOTALS[entry["metric"]](pilot, **params)
            except NoForm:
                return None
            forms.append((form, pd.Index(self.items).get_indexer(form.items)))
        self.total_tables = [entry["table"] for entry in entries]
        return forms

    def draw_cost(self, items: int) -> float:
        """The counted seconds of one draw of ``items`` items (:func:`humeval.planning.budget.draw_seconds`): by
        the item-totals forms, or the metrics run on the draw's judgements (the pilot's, in proportion to the items
        drawn, and the other sides' where they are read too), with the resampling they count on the pilot
        (:meth:`counted_values`) grown as the items do, squared for a draw larger than the pilot (BCa's jackknife is
        n^2): a metric's bootstrap in every draw is bounded across the draws, not only within each."""
        from humeval.planning.budget import draw_seconds

        if self.totals is not None:
            return draw_seconds(True, 0, items, sum(form.calls for form, _ in self.totals))
        ratio = items / max(len(self.items), 1)
        judgements = len(self.pilot) * ratio + (len(self.others) if self.with_others else 0)
        return draw_seconds(False, round(judgements), items, 0, self.resampling * max(ratio, ratio**2))

    def vectorised_values(self, drawn: np.ndarray, skip: frozenset = frozenset()) -> dict:
        """{cell: value per draw} of the item-totals forms, for draws of the pilot's item codes (S x items, or a
        list of S arrays: draws of units, :meth:`draws`); an item of another side that the pilot does not judge is
        in every draw once (the last column). The forms of the tables ``skip`` are not computed."""
        width = len(self.items) + 1
        sizes = [len(draw) for draw in drawn]
        cells = np.repeat(np.arange(len(drawn)) * width, sizes) + np.concatenate(list(drawn))
        # counts by bincount: np.add.at's unbuffered loop took 0.46 of hosking's 1.3 CPU s of planning
        multiplicity = np.bincount(cells, minlength=len(drawn) * width).reshape(len(drawn), width).astype(float)
        multiplicity[:, -1] += 1.0
        values = {}
        for (form, columns), table in zip(self.totals, self.total_tables):
            if table not in skip:
                values.update(form.values(multiplicity[:, columns]))
        return values

    def sample(self, rows: np.ndarray, b: np.ndarray, by_unit: bool = False) -> pd.DataFrame:
        """The judgements of one bootstrap design: the pilot's rows ``rows`` (every rater as they are) and item
        copies ``b`` relabelled as items of their own, and, for a draw of units (``by_unit``), as units of their
        own (:meth:`unit_copies`)."""
        sample = self.pilot.iloc[rows].reset_index(drop=True)
        sample["item"] = relabelled(self.items, self.item[rows], b)
        sample["judgement_id"] = np.arange(len(sample))  # each copy a judgement of its own
        return self.unit_copies(sample, b) if by_unit else sample

    def unit_copies(self, rows: pd.DataFrame, copy: np.ndarray) -> pd.DataFrame:
        """``rows`` with their unit columns (:meth:`item_units`) relabelled as copies of their own where ``copy``
        (each row's copy of its item) is not the first (``256`` -> ``256~2``, as :func:`relabelled` writes items): a
        unit drawn twice brings each of its items twice, so an item's copy is its unit's."""
        later = copy > 0
        if not later.any():
            return rows
        rows = rows.copy()
        for column in self.units.columns:
            if column in rows:
                known = later & rows[column].notna().to_numpy()
                text = rows[column].to_numpy(dtype=object, copy=True)
                text[known] = [f"{v}~{k}" for v, k in zip(text[known], copy[known])]
                rows[column] = text
        return rows

    def others_drawn(self, drawn: np.ndarray, by_unit: bool = False) -> pd.DataFrame:
        """The other sides' judgements for a draw of the pilot's item codes ``drawn``: those of a drawn item once per
        copy, relabelled as the pilot's copies are (:func:`relabelled`), so a helper side (automatic scores, the
        modes of another experiment) follows the items it is joined on; those of other items as they are."""
        linked = self.other_item >= 0
        if not linked.any():  # no other side judges the pilot's items (shardlow's published side)
            return self.others
        rows, _, item_copy = copies(
            np.zeros(int(linked.sum()), dtype=int), self.other_item[linked], np.zeros(1, int), drawn
        )
        part = self.others[linked].iloc[rows].reset_index(drop=True)
        part["item"] = relabelled(self.items, self.other_item[linked][rows], item_copy)
        later = item_copy > 0
        part["judgement_id"] = part["judgement_id"].astype(str).to_numpy(dtype=object)
        part.loc[later, "judgement_id"] = part.loc[later, "judgement_id"] + "~" + item_copy[later].astype(str)
        part = self.unit_copies(part, item_copy) if by_unit else part
        return pd.concat([self.others[~linked], part], ignore_index=True)

    def values(self, sample: pd.DataFrame, drawn: np.ndarray | None = None, by_unit: bool = False) -> dict:
        """The metric cells of the pilot's judgements replaced by ``sample`` as {(table, row, column): value};
        every evaluator in it is a participant with the pilot's metadata of them (none for a simulated one). With
        the other sides' judgements (:attr:`with_others`): as they are, or drawn with the pilot's items
        ``drawn`` (:meth:`others_drawn`)."""
        from humeval.metrics import metrics_study

        if self.with_others:
            others = self.others if drawn is None else self.others_drawn(drawn, by_unit)
            kept = pd.concat([others, sample], ignore_index=True)
        else:
            kept = sample
        names = pd.unique(sample["participant"])
        people = self.pilot_people.reindex(pd.Index(names, name="participant")).reset_index()
        people = pd.concat([self.other_people, people], ignore_index=True)
        cells = metrics_study(self.study_of(kept, people))
        return dict(zip(zip(cells["table"], cells["row"], cells["column"]), cells["value"]))

    def shifted(self, fixed: tuple, g: int, group: np.ndarray) -> dict:
        """The cells (:meth:`values`) with the judgements of group ``g`` (of the pilot grouped by the columns
        ``fixed``, ``group`` its codes) moved by 1: how a model finds the groups a finding's cells read. Kept per
        pilot, since every finding of it asks for the same (yao: 18 metric runs for two findings, 9 needed)."""
        key = (fixed, g)
        if key not in self.moved:
            self.moved[key] = self.values(self.pilot.assign(value=self.pilot["value"] + (group == g)))
        return self.moved[key]

    def checked_totals(self, drawn_e: np.ndarray, drawn: np.ndarray) -> bool:
        """Whether draws are computed by the item-totals forms: where every entry has one, and only after they gave
        the metrics' own cells on the draw ``drawn`` (to 1e-9, and a cell of :attr:`levels` on the same side of
        each of its alphas; the job fails otherwise), once per simulator (its later bootstraps, a safeguard's, run
        the same forms)."""
        if self.totals is None:
            return False
        if self.checked:
            return True
        if self.units:  # the forms hold a unit's rows as often as a draw holds the unit: checked on a draw of units
            drawn = self.draws(np.random.default_rng(CHECK_STREAM), 1, len(self.items), True)[0]
        rows, _, item_copy = copies(self.evaluator, self.item, drawn_e, drawn)
        own = self.values(self.sample(rows, item_copy, bool(self.units)), drawn, bool(self.units))
        mine = {cell: value[0] for cell, value in self.vectorised_values([drawn]).items()}
        differing = [
            cell
            for cell in set(own) | set(mine)
            if not same_cell(own.get(cell, np.nan), mine.get(cell, np.nan), self.levels.get(cell))
        ]
        if differing:
            raise HumevalError(f"planning: the item-totals forms differ from the metrics at {sorted(differing)[:3]}")
        self.checked = True
        return True

    def power(self, chosen: list[dict], labels: list[str], items: int, simulations: int, rng, drawn=None):
        """:meth:`power_of` the findings, each drawn as its test runs: items (:func:`draw_items`), or units, each
        with all its items, for a finding that reads a test over units (:meth:`uses_units`). ``drawn``: the draws, made otherwise (:meth:`shrunk_draws`), for findings that all draw alike. Where both
        kinds are drawn, the units' come from a stream spawned from ``rng`` (``Generator.spawn``), so that the
        items' stream, and every finding drawn by item, stays as it was before units were drawn."""
        by_unit = np.array([self.uses_units(f, label) for f, label in zip(chosen, labels)], dtype=bool)
        if drawn is not None or by_unit.all() or not by_unit.any():
            drawn = self.draws(rng, simulations, items, bool(by_unit.any())) if drawn is None else drawn
            return self.power_of(chosen, labels, simulations, drawn, bool(by_unit.any()))
        parts = {}
        for flag, stream in ((False, rng), (True, rng.spawn(1)[0])):  # units apart: the items' draws as before
            picked = np.flatnonzero(by_unit == flag)
            drawn = self.draws(stream, simulations, items, flag)
            parts[flag] = (
                picked,
                self.power_of([chosen[k] for k in picked], [labels[k] for k in picked], simulations, drawn, flag),
            )
        merged = []
        for part in range(5):
            first = parts[False][1][part]
            out = np.empty((simulations, len(chosen)) if first.ndim == 2 else len(chosen), dtype=first.dtype)
            for picked, result in parts.values():
                out[..., picked] = result[part]
            merged.append(out)
        return tuple(merged)

    def power_of(self, chosen: list[dict], labels: list[str], simulations: int, drawn, by_unit: bool):
        """For each finding of ``chosen`` (evaluated on its side label), over ``simulations`` bootstrap designs of
        all the pilot's people (each once: a rater copied would agree perfectly with itself) and ``items`` drawn
        with replacement: how many recover it, how many could not compute its cells (the metrics refused the
        data, or a cell is missing: ``failed``, counted apart from misses and not as recoveries), whether any
        simulation changed a cell its comparisons read, its effect (:func:`margin`) in each, and whether its
        test's p-value stayed fixed in every simulation (computed from data the draws do not reach, such as a
        side of the authors' own scores: puduppully's Tukey p-values, which made its D2 hold in none and D1's
        power count only a direction).

        People are not resampled: drawing fewer of them as well as the items counts the judgements' variance
        twice (with one rating per item, half the people and all the items, a t test with no effect held in 5.9%
        of 4,000 draws against a nominal 2.5%; Owen 2007 calls the two-way bootstrap conservative), so designs
        of other sizes are the model's. ``drawn``: the draws' item codes (:meth:`draws`: simulations x items, or a
        list of each draw's items where they are drawn by unit, ``by_unit``)."""
        import logging
        import warnings

        drawn_e = np.arange(len(self.evaluators))
        held, failed = np.zeros(len(chosen), dtype=int), np.zeros(len(chosen), dtype=int)
        cells_of = [finding_cells(f, label) for f, label in zip(chosen, labels)]
        moved = [np.zeros(len(cells), dtype=bool) for cells in cells_of]  # per cell: did any simulation move it
        margins = np.full((simulations, len(chosen)), np.nan)
        # drawn by item, the tests over units are read by no finding (their forms' Tukey p: 300 integrals of
        # puduppully's 626), unless another entry's arithmetic reads them
        skip = self.units.apart if self.units and not by_unit else frozenset()
        vectorised = self.checked_totals(drawn_e, drawn[0]) and self.vectorised_values(drawn, skip)
        if vectorised:  # every draw's cells at once: the findings too (1.1 s of santhanam's 2,000 draws, one by one)
            for k, (finding, label, cells) in enumerate(zip(chosen, labels, cells_of)):
                nothing = np.full(simulations, np.nan)
                missing = np.zeros(simulations, dtype=bool)
                for c, cell in enumerate(cells):
                    draws = vectorised.get(cell, nothing)
                    missing |= np.isnan(draws)
                    moved[k][c] = bool((~np.isclose(draws, self.expected[cell], equal_nan=True)).any())
                failed[k] = int(missing.sum())
                held[k] = int((evaluate_draws(finding, vectorised, label, simulations) & ~missing).sum())
                margins[:, k] = margin_draws(finding, vectorised, label)
            changed, fixed_p = moved_parts(chosen, moved)
            return held, failed, changed, margins, fixed_p
        logging.disable(logging.INFO)  # the metrics' notes, once per simulation, would flood the job's log
        try:
            with warnings.catch_warnings():  # so would pingouin's and scipy's warnings of a degenerate draw
                warnings.simplefilter("ignore")
                for s in range(simulations):
                    try:
                        rows, _, item_copy = copies(self.evaluator, self.item, drawn_e, drawn[s])
                        values = self.values(self.sample(rows, item_copy, by_unit), drawn[s], by_unit)
                    except (HumevalError, ValueError, ZeroDivisionError, AssertionError):  # an ill-posed draw
                        failed += 1
                        continue
                    missing = [any(np.isnan(values.get(c, np.nan)) for c in cells) for cells in cells_of]
                    failed += missing
                    held += [evaluate(f, values, label) and not m for f, label, m in zip(chosen, labels, missing)]
                    margins[s] = [margin(f, values, label) for f, label in zip(chosen, labels)]
                    for k, cells in enumerate(cells_of):
                        moved[k] |= [
                            not np.isclose(values.get(c, np.nan), self.expected[c], equal_nan=True) for c in cells
                        ]
        finally:
            logging.disable(logging.NOTSET)
        changed, fixed_p = moved_parts(chosen, moved)
        return held, failed, changed, margins, fixed_p


def same_cell(metric: float, form: float, levels: frozenset | None) -> bool:
    """Whether an item-totals form's value of a cell is the metric's: equal to 1e-9, or, for a cell read only
    against ``levels`` (a bounded p), NaN alike and on the same side of each.

    >>> same_cell(0.031, 0.012, frozenset({0.05})), same_cell(0.031, 0.07, frozenset({0.05})), same_cell(0.3, 0.2, None)
    (True, False, False)
    """
    if levels is None or np.isnan(metric) or np.isnan(form):
        return bool(np.isclose(metric, form, rtol=0, atol=1e-9, equal_nan=True))
    return all((metric < alpha) == (form < alpha) for alpha in levels)


def moved_parts(chosen: list[dict], moved: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """From which of each finding's cells (:func:`humeval.findings.finding_cells`, its test's p last) any
    simulation moved: whether one its comparisons read moved, and whether its test's p-value never did.

    A tested finding whose difference moved and whose p did not, and an untested one whose difference moved:

    >>> tested = {"comparisons": [{"left": {"t": 1}, "op": ">", "right": 0}], "significance": {"p": {"t": 2}}}
    >>> untested = {"comparisons": [{"left": {"t": 1}, "op": ">", "right": 0}]}
    >>> changed, fixed_p = moved_parts([tested, untested], [np.array([True, False]), np.array([True])])
    >>> changed.tolist(), fixed_p.tolist()
    ([True, True], [True, False])

    Only the p moved, and nothing moved: no change to the difference; an untested finding has no p to hold fixed:

    >>> changed, fixed_p = moved_parts([tested, untested], [np.array([False, True]), np.array([False])])
    >>> changed.tolist(), fixed_p.tolist()
    ([False, False], [False, False])
    """
    tested = [bool(f.get("significance")) for f in chosen]
    changed = np.array([bool(m[: len(m) - t].any()) for m, t in zip(moved, tested)])
    fixed_p = np.array([t and not bool(m[-1]) for m, t in zip(moved, tested)])
    return changed, fixed_p


def wilson(successes: int, n: int) -> tuple[float, float]:
    """Wilson's 95% interval of a binomial proportion, as scipy's ``binomtest(...).proportion_ci(method="wilson")``
    computes it (Newcombe 1998, method 3): centre (2np + z^2) / 2(n + z^2), half-width z sqrt(4npq + z^2) /
    2(n + z^2), 0 and 1 at the ends. Its own four lines, with scipy.special's normal quantile, because importing
    scipy.stats for it cost a planning job 0.46 s of the 0.7 s it otherwise takes (hosking, liu, shardlow and
    finch test nothing else); ``tests/test_planning.py`` checks it against ``binomtest`` at every k of n = 30.

    >>> [round(x, 4) for x in wilson(160, 200)]
    [0.7391, 0.8495]
    """
    from scipy.special import ndtri

    z, p = ndtri(0.5 + 0.5 * 0.95), successes / n
    denom = 2 * (n + z**2)
    centre, delta = (2 * n * p + z**2) / denom, z / denom * np.sqrt(4 * n * p * (1 - p) + z**2)
    return (0.0 if successes == 0 else float(centre - delta)), (1.0 if successes == n else float(centre + delta))


#: The metric entries whose cells the crossed model recomputes, vectorised over simulations: group means
#: (``describe``) and two-sample t tests (``significance``). Every run checks the vectorised cells against the entry
#: itself on one simulated data set (:meth:`ModelFinding.check`).
