"""The planning bootstrap's parts (humeval.planning.bootstrap) on frames small enough to check by hand: labels of
copied items, draws within strata, which metric entries a simulation runs, the pilot's coding, a helper side drawn
with the pilot's items, the group shift a model reads, and the two ways of computing draws (all at once, one at a
time) giving the same power. Each test kills mutants of tools/mutate.py (docs/testing.md)."""

import numpy as np
import pandas as pd
import pytest

from humeval.errors import HumevalError
from humeval.metrics import StudyData, metrics_study
from humeval.planning.bootstrap import Simulator, draw_items, needed_entries, relabelled

DESCRIBE = {"metric": "describe", "table": "t", "by": ["side", "system"], "row": "{side}", "column": "{system}_{stat}"}


def ratings(side="O", evaluators=4, items=6, seed=0, systems=("A", "B")) -> pd.DataFrame:
    """Every evaluator rates every item's output of each system (1-5)."""
    rng = np.random.default_rng(seed)
    rows = [
        {"side": side, "participant": f"{side}p{e}", "item": f"i{i}", "system": s}
        for e in range(evaluators)
        for i in range(items)
        for s in systems
    ]
    frame = pd.DataFrame(rows).assign(criterion="quality", response_type="rating", system_b="")
    frame["value"] = rng.integers(1, 6, len(frame)).astype(float)
    return frame.assign(judgement_id=[f"{side}j{k}" for k in range(len(frame))])


def study(kept, metrics, people=None, experiments=("O",)) -> StudyData:
    config = {"name": "s", "experiments": [{"id": e} for e in experiments], "metrics": metrics}
    if people is None:
        people = kept[["side", "participant"]].drop_duplicates().reset_index(drop=True)
    return StudyData(kept=kept, tidy=kept, participants=people, exclusions=kept.iloc[:0], config=config)


def cells_of(data) -> dict:
    cells = metrics_study(data)
    return dict(zip(zip(cells["table"], cells["row"], cells["column"]), cells["value"]))


def test_every_later_copy_of_an_item_is_named_apart_from_the_first():
    """Copy 1 of item ``a`` is ``a~1``: were it ``a``, two copies would be one item to every metric."""
    assert relabelled(["a", "b"], np.array([0, 0, 1, 1]), np.array([0, 1, 0, 2])).tolist() == ["a", "a~1", "b", "b~2"]


def test_draws_cover_every_item_and_strata_keep_their_shares_by_largest_remainders():
    """Without strata every item can be drawn (item 0 too); with two conditions of 2 and 1 items, a draw of 4 gives
    them 3 and 1 (quotas 2.67 and 1.33: the larger remainder gets the item left over)."""
    plain = draw_items(np.random.default_rng(0), None, 3, 200, 3)
    assert plain.shape == (200, 3) and set(plain.ravel().tolist()) == {0, 1, 2}
    strata = draw_items(np.random.default_rng(0), np.array([0, 0, 1]), 3, 200, 4)
    assert strata.shape == (200, 4)
    assert ((strata < 2).sum(axis=1) == 3).all() and ((strata == 2).sum(axis=1) == 1).all()


def test_a_simulation_runs_only_the_entries_that_write_a_findings_cells(monkeypatch):
    """An entry alone on its table is kept without being run; of two entries of one table, each is run alone once
    and only the one writing an expected cell is kept."""
    import humeval.metrics

    lone = {"metric": "describe", "table": "a"}
    writes = {"metric": "counts", "table": "b", "rows": "x"}
    other = {"metric": "counts", "table": "b", "rows": "y"}
    ran = []

    def fake(data):
        (entry,) = data.config["metrics"]
        ran.append(entry)
        return pd.DataFrame({"table": ["b"], "row": [entry["rows"]], "column": ["n"], "value": [1.0]})

    monkeypatch.setattr(humeval.metrics, "metrics_study", fake)
    data = study(ratings(), [])
    assert needed_entries(data, [lone, writes, other], {("b", "x", "n")}) == [lone, writes]
    assert ran == [writes, other]


def test_the_pilot_is_coded_once_with_its_own_people_and_alone_where_that_gives_its_cells():
    """A pilot whose metric groups by side is simulated alone; the other side's people are kept apart for the
    sides a draw does not touch; a cell that is NaN in the study (B's SD from one judgement) is the study's too."""
    kept = pd.concat([ratings("O"), ratings("R1", seed=1)], ignore_index=True)
    single = kept.iloc[[0]].assign(system="C", judgement_id="c")
    kept = pd.concat([kept, single], ignore_index=True)
    data = study(kept, [DESCRIBE], experiments=("O", "R1"))
    cells = cells_of(data)
    assert np.isnan(cells[("t", "O", "C_sd")])
    simulator = Simulator(data, "O", {c: v for c, v in cells.items() if c[1] == "O"})
    assert not simulator.with_others
    assert simulator.other_people["participant"].tolist() == [f"R1p{e}" for e in range(4)]
    assert simulator.pilot_people.index.tolist() == [f"Op{e}" for e in range(4)]
    assert not simulator.items_only  # each person rated several outputs of one criterion


def test_one_judgement_per_evaluator_and_criterion_makes_items_the_only_factor():
    """liu's workers judge once per criterion: evaluators are not a factor of the design; twice, they are."""
    once = ratings(evaluators=6, items=1, systems=("A",))
    once = pd.concat([once, once.assign(criterion="fluency")], ignore_index=True)
    once["judgement_id"] = [f"j{k}" for k in range(len(once))]
    metric = {**DESCRIBE, "by": ["side", "criterion"], "column": "{criterion}_{stat}"}
    data = study(once, [metric])
    assert Simulator(data, "O", cells_of(data)).items_only
    twice = pd.concat([once, once.assign(item="i1")], ignore_index=True)
    twice["judgement_id"] = [f"j{k}" for k in range(len(twice))]
    data = study(twice, [metric])
    assert not Simulator(data, "O", cells_of(data)).items_only


def test_a_helper_side_follows_the_copies_of_the_items_it_judges():
    """The other side's judgements of drawn item 0 (the first code) appear once per copy, the later copy renamed
    like the pilot's and its judgement id marked, with the side's own columns; those of an undrawn item are gone,
    and those of items the pilot does not judge stay as they are."""
    pilot = ratings(items=3, systems=("A",))
    helper = pd.DataFrame(
        {
            "side": "H",
            "participant": "auto",
            "item": ["i0", "i1", "i2", "x"],
            "value": [0.1, 0.2, 0.3, 0.4],
            "judgement_id": ["h0", "h1", "h2", "hx"],
        }
    ).assign(criterion="quality", response_type="rating", system="A", system_b="")
    entry = {"table": "t", "x": "O", "y": "H", "by": ["criterion"], "units": ["item"], "methods": ["pearson"]}
    data = study(pd.concat([pilot, helper], ignore_index=True), [{"metric": "item_correlation", "row": "c", **entry}])
    simulator = Simulator(data, "O", cells_of(data))
    assert simulator.with_others
    drawn = simulator.others_drawn(np.array([0, 0, 1]))
    assert list(drawn.columns) == list(simulator.others.columns)
    assert sorted(zip(drawn["item"], drawn["judgement_id"])) == [
        ("i0", "h0"),
        ("i0~1", "h0~1"),
        ("i1", "h1"),
        ("x", "hx"),
    ]


def test_a_group_moved_by_one_moves_only_its_own_cells_once_per_pilot():
    """The model finds the groups a finding reads by moving one group's judgements by +1: A's mean rises by 1,
    B's stays; asked again, the same cells come back without a metric run."""
    data = study(ratings(), [DESCRIBE])
    cells = cells_of(data)
    simulator = Simulator(data, "O", cells)
    group = pd.factorize(simulator.pilot["system"])[0]
    moved = simulator.shifted(("system",), 0, group)
    assert moved[("t", "O", "A_mean")] == pytest.approx(cells[("t", "O", "A_mean")] + 1, abs=1e-12)
    assert moved[("t", "O", "B_mean")] == pytest.approx(cells[("t", "O", "B_mean")], abs=1e-12)
    assert simulator.shifted(("system",), 0, group) is moved


def finding(label="O"):
    return {
        "id": "F",
        "text": "A is rated above B",
        "comparisons": [
            {
                "left": {"table": "t", "row": "{side}", "column": "A_mean"},
                "op": ">",
                "right": {"table": "t", "row": "{side}", "column": "B_mean"},
            }
        ],
    }


def test_draws_all_at_once_give_the_power_of_draws_one_at_a_time():
    """``describe`` has an item-totals form, so every draw is computed at once after one draw was checked against
    the metric itself; run one at a time instead (the form withheld), the same draws give the same recoveries,
    failures, moved cells and effects. One simulation is a valid run too."""
    kept = ratings(evaluators=3, items=8, seed=5)
    kept["value"] += np.random.default_rng(6).normal(scale=0.1, size=len(kept))  # no two draws' means tie
    kept.loc[kept["system"] == "A", "value"] += 0.5  # A above B in most draws, not all
    data = study(kept, [DESCRIBE])
    simulator = Simulator(data, "O", cells_of(data))
    assert simulator.totals is not None
    at_once = simulator.power([finding()], ["O"], 8, 60, np.random.default_rng(7))
    assert simulator.checked_totals(np.arange(3), np.arange(8))
    simulator.totals = None
    assert not simulator.checked_totals(np.arange(3), np.arange(8))
    one_by_one = simulator.power([finding()], ["O"], 8, 60, np.random.default_rng(7))
    assert 0 < at_once[0][0] < 60  # held in some draws, not all
    for mine, theirs in zip(at_once, one_by_one):
        np.testing.assert_allclose(np.asarray(mine, dtype=float), np.asarray(theirs, dtype=float), rtol=1e-12)
    single = simulator.power([finding()], ["O"], 8, 1, np.random.default_rng(7))
    assert single[0].tolist() in ([0], [1]) and single[1].tolist() == [0]


def test_item_totals_that_differ_from_the_metric_stop_the_job():
    """The check of one draw is exact to 1e-9: a form off by 1e-6 is an error, not a power."""
    data = study(ratings(), [DESCRIBE])
    simulator = Simulator(data, "O", cells_of(data))
    honest = simulator.vectorised_values
    simulator.vectorised_values = lambda drawn: {c: v + 1e-6 for c, v in honest(drawn).items()}
    with pytest.raises(HumevalError, match="item-totals forms differ from the metrics"):
        simulator.checked_totals(np.arange(4), np.arange(6))


def test_a_cell_no_draw_can_compute_fails_every_draw_and_is_not_moved():
    """C is rated once (its SD is NaN in the pilot): with one item per draw, C's SD is NaN in every draw, so a
    finding reading it fails in all of them and its cell did not move, all at once and one at a time; the check of
    the item-totals forms takes NaN for NaN. A draw the metrics refuse (here the third) is one failure."""
    kept = ratings(evaluators=3, items=4, seed=8)
    kept = pd.concat([kept, kept.iloc[[0]].assign(system="C", judgement_id="c")], ignore_index=True)
    data = study(kept, [DESCRIBE])
    simulator = Simulator(data, "O", cells_of(data))
    sd = {
        "id": "G",
        "text": "C's ratings spread less than a point",
        "comparisons": [{"left": {"table": "t", "row": "{side}", "column": "C_sd"}, "op": "<", "right": 1}],
    }
    held, failed, changed, _, _ = simulator.power([finding(), sd], ["O", "O"], 1, 20, np.random.default_rng(2))
    assert failed.tolist() == [0, 20] and held[1] == 0 and changed.tolist() == [True, False]
    simulator.totals = None
    values, calls = simulator.values, []

    def refusing(sample, drawn=None, by_unit=False):
        calls.append(1)
        if len(calls) == 3:
            raise ValueError("an ill-posed draw")
        return values(sample, drawn, by_unit)

    simulator.values = refusing
    held, failed, changed, _, _ = simulator.power([finding(), sd], ["O", "O"], 1, 20, np.random.default_rng(2))
    assert failed.tolist() == [1, 20] and changed.tolist() == [True, False]


def test_a_draw_has_no_exclusions():
    """Every draw is a new experiment's kept judgements: a count of the excluded is 0 in it, whatever the pilot
    excluded."""
    kept = ratings()
    data = study(kept, [])
    data = StudyData(
        kept=kept,
        tidy=kept,
        participants=data.participants,
        exclusions=kept.iloc[:1].assign(rule="gold"),
        config={
            **data.config,
            "metrics": [
                {
                    "metric": "counts",
                    "table": "c",
                    "rows": {"judgements": {"frame": "kept"}, "out": {"frame": "excluded"}},
                }
            ],
        },
    )
    simulator = Simulator(data, "O", {("c", "judgements", "n"): float(len(kept))})
    assert simulator.values(simulator.pilot)[("c", "out", "n")] == 0.0


TALLY = [
    {"metric": "pairwise_tally", "table": "t", "stats": ["win_pct"], "column": "pct"},
    {"metric": "pairwise_tally", "table": "s", "stats": ["sign_p"], "column": "p"},
]
SIGN_FINDING = {
    "id": "F",
    "comparisons": [
        {
            "left": {"table": "t", "row": "A", "column": "pct"},
            "op": ">",
            "right": {"table": "t", "row": "B", "column": "pct"},
        }
    ],
    "significance": {"p": {"table": "s", "row": "A", "column": "p"}, "alpha": 0.05},
}


def choices(items: int, raters: int, item_sd: float, seed: int) -> pd.DataFrame:
    """``raters`` choices of A against B on each item (A shown first on odd items), A's chance on an item the
    logistic of an item effect of SD ``item_sd`` around no preference: items differ, systems do not."""
    rng = np.random.default_rng(seed)
    chance = 1 / (1 + np.exp(-rng.normal(0, item_sd, items)))
    rows = []
    for i in range(items):
        first, second = ("A", "B") if i % 2 else ("B", "A")
        for r in range(raters):
            won = rng.random() < chance[i]
            sign = 1 if (won and first == "A") or (not won and first == "B") else -1
            rows.append(
                {
                    "side": "O",
                    "participant": f"p{r}",
                    "item": f"i{i}",
                    "system": first,
                    "system_b": second,
                    "value": sign,
                }
            )
    frame = pd.DataFrame(rows).assign(criterion="q", response_type="pairwise")
    return frame.assign(judgement_id=[f"j{k}" for k in range(len(frame))])


def sign_simulator(kept) -> Simulator:
    data = study(kept, TALLY)
    cells = {("t", "A", "pct"), ("t", "B", "pct"), ("s", "A", "p")}
    return Simulator(data, "O", {c: v for c, v in cells_of(data).items() if c in cells})


def test_the_rate_at_zero_effect_is_nominal_where_the_papers_test_is_valid_and_not_where_items_differ():
    """A sign test over all judgements is valid where each item has one judgement: resampling the pilot made null
    (each item in both orders of A and B) the finding 'A preferred, p < 0.05' holds about 2.5% of the time. Where 20
    raters judge each item and items differ (item SD 2 on the logit scale), the judgements of an item are not
    independent and the same test holds far more often at zero effect: the rate says so. A null pilot that swapped
    single judgements rather than items would make the second nominal; one random swap per item would leave the
    first a chance effect (12.8% of 400 draws over ten such null pilots, measured); none would give the pilot's own
    effect."""
    finding = [SIGN_FINDING]
    one_each = sign_simulator(choices(items=400, raters=1, item_sd=0.0, seed=1))
    assert one_each.totals is not None  # pairwise_tally's item-totals form: all draws at once
    rate = one_each.null_rate(finding, [""], 400, 400, np.random.default_rng(2))
    assert rate[0] <= 0.05, rate  # nominal 2.5%; 400 draws: 0.05 is 3.2 standard errors above
    crossed = sign_simulator(choices(items=40, raters=20, item_sd=2.0, seed=3))
    rate = crossed.null_rate(finding, [""], 40, 400, np.random.default_rng(4))
    assert rate[0] >= 0.15, rate  # about half the items' majorities favour A: the pooled test sees a preference


def test_a_null_pilot_shows_each_item_in_every_order_of_its_systems_on_every_side():
    """An item of three systems comes back twice more, rotated (A, B, C -> B, C, A -> C, A, B), on the pilot and on
    a helper side judging it; an item no pilot judgement shows, and one of one system, stay as they were."""
    from humeval.planning.bootstrap import null_pilot

    kept = pd.DataFrame(
        {
            "side": ["O", "O", "H", "X", "O"],
            "item": ["i", "i", "i", "k", "j"],
            "system": ["A", "B", "C", "A", "C"],
            "system_b": ["B", "C", "A", "B", None],
        }
    )
    null = null_pilot(kept, ["i", "j"])
    assert null.iloc[:5].equals(kept)
    added = null.iloc[5:]
    assert added["item"].tolist() == ["i~null1"] * 3 + ["i~null2"] * 3
    assert added["side"].tolist() == ["O", "O", "H"] * 2
    assert added["system"].tolist() == ["B", "C", "A", "C", "A", "B"]
    assert added["system_b"].tolist() == ["C", "A", "B", "A", "B", "C"]
