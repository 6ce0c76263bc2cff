"""Planning's model of ICC findings (humeval.planning.icc): the exact distribution it draws from checked against
pingouin on simulated rating matrices, its analytic probability against scipy's adaptive quadrature and a large
simulation, and, through ``plan_study`` on a synthetic two-condition pilot, that a design of twice the pilot's
people compares ICCs of twice as many distinct raters, and that with no difference the finding holds at most at
its nominal rate (one half: the same direction, untested)."""

import numpy as np
import pandas as pd
import pytest
from planning_cases import comparison_finding, study_data
from scipy import stats
from scipy.integrate import quad

from humeval.metrics import metrics_study
from humeval.planning.icc import IccFinding, IccLayout
from humeval.planning.plan import plan_study

#: The pilot: conditions A and B, each rated by its own raters on its own items (all of them, once).
RATERS, ITEMS = 8, 40
ICC_METRICS = [
    {"metric": "icc", "table": "icc", "subgroup": "all", "conditions": ["A", "B"], "criteria": ["c"], "side": "O"}
]
#: Condition A's ratings are more consistent than B's.
ICC_FINDING = comparison_finding(
    "F1",
    "A's ratings are more consistent than B's (ICC-C)",
    ("icc", "ICC-C|c", "A|{side}"),
    ("icc", "ICC-C|c", "B|{side}"),
)


def two_way(rng, items: int, raters: int, item_var: float, rater_var: float = 0.3, draws: int = 1) -> np.ndarray:
    """``draws`` items x raters matrices of the two-way random model, residual variance 1."""
    return (
        rng.normal(0, np.sqrt(item_var), (draws, items, 1))
        + rng.normal(0, np.sqrt(rater_var), (draws, 1, raters))
        + rng.normal(0, 1, (draws, items, raters))
    )


def icc_pilot(rng, item_var: dict) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Judgements and participants of a pilot whose conditions' item variances are ``item_var``."""
    frames, people = [], []
    for condition, var in item_var.items():
        matrix = two_way(rng, ITEMS, RATERS, var)[0]
        i, e = np.meshgrid(np.arange(ITEMS), np.arange(RATERS), indexing="ij")
        frames.append(
            pd.DataFrame(
                {
                    "side": "O",
                    "condition": condition,
                    "criterion": "c",
                    "participant": [f"{condition}P{x}" for x in e.ravel()],
                    "item": [f"{condition}I{x}" for x in i.ravel()],
                    "system": "S",
                    "value": matrix.ravel(),
                    "response_type": "rating",
                }
            )
        )
        people += [{"side": "O", "participant": f"{condition}P{x}", "condition": condition} for x in range(RATERS)]
    judgements = pd.concat(frames, ignore_index=True)
    people = pd.DataFrame(people).assign(row=lambda p: np.arange(len(p)))
    return judgements.assign(judgement_id=np.arange(len(judgements))), people


def planned(judgements, people, planning) -> pd.DataFrame:
    data = study_data(judgements, ICC_METRICS, ICC_FINDING, planning)
    data.participants = people
    return plan_study(data, metrics_study(data))


def pair_probability(lam_a, lam_b, d_a, d_b) -> float:
    """P(lambda_a F_a > lambda_b F_b) by scipy's adaptive quadrature over F_b's density."""
    integrand = lambda x: stats.f.pdf(x, *d_b) * stats.f.sf(lam_b * x / lam_a, *d_a)
    return quad(integrand, 0, np.inf, limit=400, epsabs=1e-13, epsrel=1e-12)[0]


@pytest.mark.slow  # tens of seconds of simulation: CI runs it
def test_the_model_draws_icc_as_pingouin_computes_it_on_two_way_ratings():
    """ICC(C,k) of 30 items x 5 raters drawn from the two-way model (item variance 0.5): pingouin's ICC(C,k) on 600
    simulated matrices and the model's 1 - 1 / (lambda F) on 20,000 draws have the same distribution (two-sample
    KS, p > 0.01) and both means are the exact one, 1 - (d1 / (d1 - 2)) / lambda, within 4 standard errors; with
    the raters' number halved (copies counted as raters), the exact mean is outside them."""
    pingouin = pytest.importorskip("pingouin")
    rng = np.random.default_rng(3)
    n, k, item_var = 30, 5, 0.5
    iccs = []
    for matrix in two_way(rng, n, k, item_var, draws=600):
        frame = pd.DataFrame(
            {"item": np.repeat(np.arange(n), k), "rater": np.tile(np.arange(k), n), "score": matrix.ravel()}
        )
        table = pingouin.intraclass_corr(frame, targets="item", raters="rater", ratings="score").set_index("Type")
        iccs.append(table.loc["ICC(C,k)", "ICC"])
    iccs = np.array(iccs)
    lay = IccLayout(np.array([float(k)]), np.array([float(n)]))
    d1, d2 = lay.df
    lam = 1 + k * item_var
    model = 1 - 1 / (lam * (rng.chisquare(d1, 20000) / d1) / (rng.chisquare(d2, 20000) / d2))
    assert stats.ks_2samp(iccs, model).pvalue > 0.01
    exact = 1 - (d1[0] / (d1[0] - 2)) / lam
    for sample in (iccs, model):
        assert abs(sample.mean() - exact) < 4 * sample.std(ddof=1) / np.sqrt(sample.size), (sample.mean(), exact)
    halved = 1 - (d1[0] / (d1[0] - 2)) / (1 + k / 2 * item_var)
    assert abs(iccs.mean() - halved) > 4 * iccs.std(ddof=1) / np.sqrt(iccs.size)


def test_the_analytic_probability_equals_adaptive_quadrature_and_a_large_simulation():
    """santhanam-like cells (40-42 raters, 150-200 items): one comparison, three sharing the greater cell (C4's
    shape) and two independent ones, each by the Gauss-Legendre rule against scipy's ``quad`` to 1e-7, and against
    200,000 simulations within 4 standard errors."""
    finding = IccFinding.__new__(IccFinding)
    finding.icc = np.array([0.8931, 0.9043, 0.9114, 0.8298])
    finding.raters, finding.items = np.array([40.0, 42, 41, 40]), np.array([150.0, 200, 150, 200])
    finding.shift, finding.margin = np.zeros(4), 0.0
    lay = IccLayout(finding.raters, finding.items)
    lam = finding.lambdas(lay, 0.0)
    d1, d2 = lay.df
    df = [(d1[j], d2[j]) for j in range(4)]
    rng = np.random.default_rng(0)
    draws = (rng.chisquare(d1, (200_000, 4)) / d1) / (rng.chisquare(d2, (200_000, 4)) / d2) * lam
    star = quad(
        lambda x: stats.f.pdf(x, *df[0]) * np.prod([stats.f.cdf(lam[0] * x / lam[j], *df[j]) for j in (1, 2, 3)]),
        0,
        np.inf,
        limit=400,
        epsabs=1e-13,
        epsrel=1e-12,
    )[0]
    shapes = {
        "pair": ([(0, ">", 1)], pair_probability(lam[0], lam[1], df[0], df[1]), draws[:, 0] > draws[:, 1]),
        "star": ([(0, ">", j) for j in (1, 2, 3)], star, (draws[:, [0]] > draws[:, 1:]).all(axis=1)),
        "independent": (
            [(0, ">", 1), (3, "<", 2)],
            pair_probability(lam[0], lam[1], df[0], df[1]) * pair_probability(lam[2], lam[3], df[2], df[3]),
            (draws[:, 0] > draws[:, 1]) & (draws[:, 3] < draws[:, 2]),
        ),
    }
    for name, (pairs, exact, held) in shapes.items():
        finding.pairs = pairs
        finding.greater = [(a, b) if op == ">" else (b, a) for a, op, b in pairs]
        got = finding.analytic_at(lay, 0.0)
        assert abs(got - exact) < 1e-7, (name, got, exact)
        assert abs(held.mean() - exact) < 4 * np.sqrt(exact * (1 - exact) / held.size), (name, held.mean(), exact)


def test_an_icc_finding_at_twice_the_pilots_people_compares_twice_as_many_distinct_raters():
    """A pilot of 8 raters per condition (16 people): planned at 32 and 64 people, the model's probability that
    A's ICC(C,k) exceeds B's is the exact one for 16 and 32 distinct raters per condition (scipy's quadrature,
    from the pilot's mean squares computed here), within the simulation's 99.5% interval, and not the one for
    the pilot's 8 raters (copies add no rater: their ICC would be the pilot's raters' again)."""
    judgements, people = icc_pilot(np.random.default_rng(1), {"A": 0.35, "B": 0.2})
    power = planned(judgements, people, {"evaluators": [32, 64], "items": [80], "simulations": 4000})
    model = power[(power["method"] == "model") & (power["basis"] == "observed")].set_index("evaluators")
    assert sorted(model.index) == [32, 64]
    ratio = {}  # per condition, item variance over residual variance: (MSR / MSE - 1) / k
    for condition in "AB":
        part = judgements[judgements["condition"] == condition]
        matrix = part.pivot(index="item", columns="participant", values="value").to_numpy()
        n, k = matrix.shape
        msr = k * matrix.mean(axis=1).var(ddof=1)
        resid = matrix - matrix.mean(axis=1, keepdims=True) - matrix.mean(axis=0) + matrix.mean()
        ratio[condition] = (msr / ((resid**2).sum() / ((n - 1) * (k - 1))) - 1) / k
    df = (ITEMS - 1, (ITEMS - 1) * (RATERS - 1))
    for people_, raters in ((32, 2 * RATERS), (64, 4 * RATERS)):
        row = model.loc[people_]
        distinct = (ITEMS - 1, (ITEMS - 1) * (raters - 1))
        exact = pair_probability(1 + raters * ratio["A"], 1 + raters * ratio["B"], distinct, distinct)
        copies = pair_probability(1 + RATERS * ratio["A"], 1 + RATERS * ratio["B"], df, df)
        # two checks, each at 99.5% (Bonferroni): together they fail 1% of seeds
        held = round(row["power"] * row["simulations"])
        interval = stats.binomtest(held, int(row["simulations"])).proportion_ci(1 - 0.01 / 2, method="wilson")
        assert interval.low <= exact <= interval.high, (people_, exact, row.to_dict())
        assert not interval.low <= copies <= interval.high, (people_, copies, row.to_dict())
        assert abs(row["analytic_power"] - exact) < 1e-7


def test_with_no_difference_an_icc_comparison_holds_at_most_half_the_time():
    """Both conditions' ICCs set equal (``planning.effects: {F1: 0}``): the model's probability that A's ICC
    exceeds B's is at most one half within Monte Carlo error, at half, equal and four times the pilot's people."""
    judgements, people = icc_pilot(np.random.default_rng(2), {"A": 0.35, "B": 0.2})
    power = planned(
        judgements, people, {"evaluators": [8, 16, 64], "items": [80], "effects": {"F1": 0.0}, "simulations": 4000}
    )
    rows = power[(power["method"] == "model") & (power["basis"] == "assumed")]
    assert sorted(rows["evaluators"]) == [8, 16, 64]
    for row in rows.itertuples():
        assert row.ci_low <= 0.5, row
        assert abs(row.analytic_power - 0.5) < 1e-6, row  # equal cells: exactly even
