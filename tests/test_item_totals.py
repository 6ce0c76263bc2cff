"""The item-totals forms (humeval.metrics.item_totals) against the metrics they stand for: on random resamples of
a small pilot's items (each drawn item with all its judgements, a copy relabelled as an item of its own, as
planning's bootstrap draws them), every cell equals the registered metric's on the resampled frame, and a cell the
metric leaves out (a system no drawn item shows) is NaN."""

import numpy as np
import pandas as pd
import pytest

from humeval.config.registry import function
from humeval.errors import HumevalError
from humeval.metrics import StudyData
from humeval.metrics.item_totals_forms import ITEM_TOTALS

SYSTEMS = [{"code": "a", "label": "A"}, {"code": "b", "label": "B"}, {"code": "c", "label": "C"}]
#: A derived frame as arvan's: per input (several items each) and system, wins - losses over both positions.
DERIVED = [
    {"id": "input_scores", "by": ["input", "system"], "reduce": "pairwise_score"},
    # per criterion and system: the criteria are the observations, fixed, and no unit the items nest in
    {"id": "criterion_scores", "by": ["criterion", "system"], "reduce": "pairwise_score"},
]
CONFIG = {"systems": SYSTEMS, "derived": DERIVED}


def pairwise_pilot(rng, items=12, raters=3, pairs=(("a", "b"), ("c", "a"), ("b", "c"))):
    rows = []
    for i in range(items):
        first, second = pairs[i % len(pairs)]
        for r in range(raters):
            rows.append({"item": f"i{i}", "participant": f"p{r}", "system": first, "system_b": second})
    frame = pd.DataFrame(rows)
    frame["value"] = rng.choice([-1, 0, 1], size=len(frame))
    return frame.assign(side="O", response_type="pairwise", judgement_id=np.arange(len(frame)).astype(str))


def rank_pilot(rng, items=10):
    rows = []
    for i in range(items):
        for r, order in enumerate(rng.permuted(np.tile([1, 2, 3], (2, 1)), axis=1)):
            rows += [
                {"item": f"s{i}", "participant": f"p{r}", "system": s, "value": int(v)} for s, v in zip("abc", order)
            ]
    frame = pd.DataFrame(rows)
    return frame.assign(side="O", response_type="rank", judgement_id=np.arange(len(frame)).astype(str))


def ratings_pilot(rng, items=8, raters=2):
    rows = [
        {"item": f"q{i}", "participant": f"p{(i + r) % 3}", "system": s, "criterion": c}
        for i in range(items)
        for r in range(raters)
        for s in "abc"
        for c in ("fluency", "relevance")
    ]
    frame = pd.DataFrame(rows)
    frame["value"] = rng.integers(1, 6, size=len(frame)).astype(float)
    return frame.assign(side="O", response_type="likert", judgement_id=np.arange(len(frame)).astype(str))


def design_pilot(rng, items=12, raters=6):
    """A rating-design study (santhanam's shape): every rater of a condition rates every item on two criteria,
    participants with a row, minutes and two experience answers, and an automatic score per item."""
    conditions = ("Likert", "RME")
    people = pd.DataFrame(
        [
            {
                "side": "reproduction",
                "participant": f"{c}{r}",
                "condition": c,
                "row": r,
                "minutes": float(rng.integers(5, 30)),
                "q1": "yes" if r % 2 else "no",
                "q2": "yes" if r % 3 else "no",
            }
            for c in conditions
            for r in range(raters)
        ]
    )
    rows = [
        {
            "side": "reproduction",
            "participant": f"{c}{r}",
            "condition": c,
            "criterion": k,
            "item": f"c{i}",
            "value": float(rng.integers(1, 4) + (i % 3)),
        }
        for c in conditions
        for r in range(raters)
        for k in ("readability", "coherence")
        for i in range(items)
    ]
    rows += [
        {
            "side": "automatic",
            "participant": "auto",
            "condition": c,
            "criterion": k,
            "item": f"c{i}",
            "value": float(rng.normal()),
        }
        for c in conditions
        for k in ("readability", "coherence")
        for i in range(items)
    ]
    frame = pd.DataFrame(rows).assign(response_type="rating", system="s")
    return frame.assign(judgement_id=np.arange(len(frame)).astype(str)), people


CASES = {
    "relative_preference": (
        pairwise_pilot,
        {"table": "t", "side": "O", "column": "pref", "score_column": "score", "per_appearance_suffix": " per"},
    ),
    "preference_shares": (
        lambda rng: pairwise_pilot(rng, pairs=(("a", "b"), ("c", "a"), ("a", "c"))),
        {"table": "t", "side": "O", "focus": "a", "columns": {"focus": "win", "equal": "tie", "baseline": "loss"}},
    ),
    "pairwise_tally": (
        lambda rng: pairwise_pilot(rng).assign(criterion=lambda f: np.where(f["participant"] == "p0", "x", "y")),
        {
            "table": "t",
            "by": ["criterion"],
            "row": "{criterion}|{system}",
            "stats": ["wins", "losses", "ties", "n", "win_pct", "bws", "bws_scaled", "score", "sign_p"],
            "labels": {"system": {"a": "A"}},
        },
    ),
    "pairwise_tally:majority": (
        lambda rng: pairwise_pilot(rng, items=9, raters=4),
        {"table": "t", "majority": True, "scale": "proportion", "where": {"side": "O"}, "stats": ["win_pct", "bws"]},
    ),
    "rank_table": (
        rank_pilot,
        {"table": "t", "sides": [{"side": "O", "avg_column": "avg", "counts_column": "r{rank}"}]},
    ),
    "describe": (
        ratings_pilot,
        {
            "table": "t",
            "by": ["criterion", "system"],
            "row": "{criterion}",
            "column": "{system}_{stat}",
            "stats": ["mean", "sd", "n", "sum"],
            "labels": {"system": {"a": "A"}},
        },
    ),
    "significance": (
        ratings_pilot,
        {
            "table": "t",
            "by": ["criterion"],
            "compare": "system",
            "pairs": [["a", "b"], ["c", "a"]],
            "row": "{criterion}|{a}>{b}",
            "where": {"criterion": "fluency"},
            "tests": [
                {"test": "student_t", "columns": {"statistic": "t", "df": "df", "p": "p", "ci_low": "lo"}},
                {
                    "test": "welch_t",
                    "alternative": "greater",
                    "columns": {"statistic": "tw", "df": "dfw", "p": "pw", "ci_low": "low", "ci_high": "high"},
                },
                {"test": "student_t", "alternative": "less", "columns": {"p": "pl", "ci_high": "hl"}},
            ],
        },
    ),
    "k_sample_tests": (
        ratings_pilot,
        {
            "table": "t",
            "by": ["criterion"],
            "tests": ["anova", "tukey"],
            "order": "printed",
            "row": "{criterion}|{test}",
        },
    ),
    # observations of a unit (input) the items nest in: drawn by unit, each input copy an observation of its own
    "k_sample_tests:derived frame": (
        lambda rng: pairwise_pilot(rng, items=24, raters=3).assign(input=lambda f: f["item"].str[1:].astype(int) % 6),
        {"table": "t", "tests": ["anova", "tukey"], "order": "printed", "frame": "input_scores"},
        "input",
    ),
    "k_sample_tests:derived frame of criteria": (
        lambda rng: pairwise_pilot(rng, items=24, raters=3).assign(
            criterion=lambda f: "c" + (f["participant"].str[1:].astype(int) % 3).astype(str)
        ),
        {"table": "t", "tests": ["anova", "tukey"], "order": "printed", "frame": "criterion_scores"},
    ),
    "k_sample_tests:stated order": (
        lambda rng: ratings_pilot(rng, items=6, raters=3),
        {"table": "t", "tests": ["tukey"], "order": ["c", "a", "b"], "where": {"criterion": "relevance"}},
    ),
    "icc": (
        design_pilot,
        {"table": "t", "subgroup": "q1no", "conditions": ["Likert", "RME"], "criteria": ["readability", "coherence"]},
    ),
    "mode_correlation": (design_pilot, {"table": "t", "conditions": ["Likert", "RME"]}),
    "auto_correlation": (
        design_pilot,
        {"table": "t", "conditions": ["Likert", "RME"], "criteria": ["readability", "coherence"]},
    ),
}


UNDEFINED_ON_ONE_ITEM = ("icc", "mode_correlation", "auto_correlation")


def resampled(pilot: pd.DataFrame, drawn: np.ndarray, items: np.ndarray, copy=None, unit=None) -> pd.DataFrame:
    """The judgements of the drawn items (codes into ``items``), each copy an item of its own, and with a ``unit``
    column, each item's unit copy (``copy``, per drawn item) a unit of its own."""
    parts = [pilot[pilot["item"] == items[code]].assign(item=f"{items[code]}~{k}") for k, code in enumerate(drawn)]
    if unit is not None:
        parts = [part.assign(**{unit: part[unit].astype(str) + f"~{c}"}) for part, c in zip(parts, copy)]
    return pd.concat(parts, ignore_index=True)


def unit_draws(rng, pilot: pd.DataFrame, items: np.ndarray, unit: str, simulations: int):
    """Draws of the pilot's units with replacement, each with all its items: per draw the item codes and each
    one's unit copy (its place in the draw)."""
    of = pilot.drop_duplicates("item").set_index("item")[unit]
    members = {u: np.flatnonzero(of.reindex(items).to_numpy() == u) for u in pd.unique(of)}
    names = list(members)
    out = []
    for row in rng.integers(0, len(names), size=(simulations, len(names))):
        codes = [members[names[u]] for u in row]
        out.append((np.concatenate(codes), np.repeat(np.arange(len(row)), [len(c) for c in codes])))
    return out


def cells(frame: pd.DataFrame) -> dict:
    return dict(zip(zip(frame["table"], frame["row"], frame["column"]), frame["value"]))


@pytest.mark.parametrize("metric", sorted(CASES))
def test_an_item_totals_form_gives_its_metrics_cells_on_every_resample(metric):
    rng = np.random.default_rng(7)
    make, params, *unit = CASES[metric]
    unit = unit[0] if unit else None
    metric = metric.split(":")[0]  # a second case of one metric: "name:what it varies"
    pilot = make(rng)
    pilot, people = pilot if isinstance(pilot, tuple) else (pilot, pd.DataFrame())
    data = StudyData(pilot, pilot, people, pd.DataFrame(), config=CONFIG)
    form = ITEM_TOTALS[metric](data, **params)
    identity = {c: v[0] for c, v in form.values(np.ones((1, len(form.items)))).items()}
    assert identity == pytest.approx(cells(function("metric", metric)(data, **params)), rel=1e-12)
    if unit is None:
        draws = rng.integers(0, len(form.items), size=(40, len(form.items)))
        draws[0] = 0  # one item drawn every time: systems it does not show are left out
        draws = [(drawn, None) for drawn in draws]
    else:
        draws = unit_draws(rng, pilot, form.items, unit, 40)
    # one distinct item defines no ICC or rank correlation (the metric's value there is rounding noise, -inf or NaN)
    first = 1 if metric in UNDEFINED_ON_ONE_ITEM else 0
    multiplicity = np.zeros((len(draws), len(form.items)))
    for s, (drawn, _) in enumerate(draws):
        np.add.at(multiplicity[s], drawn, 1.0)
    mine = form.values(multiplicity)
    for s, (drawn, copy) in list(enumerate(draws))[first:]:
        sample = resampled(pilot, drawn, form.items, copy, unit)
        resample = StudyData(sample, sample, people, pd.DataFrame(), config=CONFIG)
        try:
            theirs = cells(function("metric", metric)(resample, **params))
        except (HumevalError, ValueError):  # the metric refuses the draw (a t test of fewer than 2 values, a Tukey
            # test of one value per sample; planning counts it failed): the form's cells NaN
            assert any(np.isnan(values[s]) for values in mine.values()), s
            continue
        for cell, values in mine.items():
            if cell in theirs:
                assert values[s] == pytest.approx(theirs[cell], rel=1e-12, abs=1e-12, nan_ok=True), (s, cell)
            else:
                assert np.isnan(values[s]), (s, cell)
        assert set(theirs) <= set(mine)
