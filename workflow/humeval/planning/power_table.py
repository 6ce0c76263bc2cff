"""The table planning writes (``planning/power.csv``) and what readers take from it: its columns, its numbers read
back (:func:`as_numbers`), the row a reader sees first per finding and design (:func:`headline`) and the smallest
sufficient design (:func:`smallest_sufficient`). Its own module so that the summary and the planning page read a
power table without importing the simulations."""

from __future__ import annotations

import pandas as pd

__all__ = ["BASIS_NOTES", "COLUMNS", "TARGET", "as_numbers", "headline", "one_shot_caveat", "smallest_sufficient"]

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
    "valid_power",
    "valid_mde",
    "paper_null_rate",
    "simulations",
    "failed",
    "pilot",
    "caveat",
    "note",
]


def as_numbers(power: pd.DataFrame) -> pd.DataFrame:
    """A ``power.csv`` as read back (every cell text but the audit's numeric columns) with its numbers as numbers."""
    numbers = [c for c in COLUMNS if c not in ("finding", "experiment", "design", "method", "basis", "quantity")]
    numbers = [c for c in numbers if c not in ("pilot", "caveat", "note")]
    counts = ("evaluators", "items", "judgements_per_item", "simulations", "failed")  # counts stay integers
    return power.assign(
        **{c: pd.to_numeric(power[c]).astype("Int64" if c in counts else float) for c in numbers if c in power}
    )


def one_shot_caveat(experiment: str, people: int, judgements: int, pilot: str) -> str:
    """What a reproduction's power means when it is drawn from a pilot whose people each judged once: the draws
    are ``judgements`` one-shot judgements, so they hold no person effect, while the reproduction's ``people``
    each judged several items; people who differ (in leniency, in taste) make its judgements less independent
    than that, so the power is an upper bound. "" where the reproduction's people judged once too.

    >>> one_shot_caveat("R1", 77, 2412, "O")
    "drawn as 2,412 one-shot judgements, as O's were, though R1's 77 people judged about 31 each: the draws hold no person effect, so this power is an upper bound where people differ"
    """
    if people >= judgements:
        return ""
    return (
        f"drawn as {judgements:,} one-shot judgements, as {pilot}'s were, though {experiment}'s {people:,} people "
        f"judged about {judgements / people:.0f} each: the draws hold no person effect, so this power is an upper "
        "bound where people differ"
    )


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


def what_power(row: pd.Series) -> dict:
    """What a power of :func:`smallest_sufficient` is: its ``analysis`` (``valid`` where the crossed model plans
    the finding, else ``as published``: the finding judged as the paper judged it), ``method`` (model or bootstrap), effect ``basis`` and ``quantity``
    (power, or the probability of the same direction for an untested finding), and the paper's test's power
    beside a valid one (``paper_power``, from :func:`smallest_sufficient`'s ``paper``): a bare 1.000 says none of
    these."""
    valid = pd.notna(row.get("valid_power", float("nan")))
    return {key: row.get(key, "") for key in ("method", "basis", "quantity")} | {
        "analysis": "valid" if valid else "as published",
        "paper_power": row.get("paper", float("nan")) if valid else float("nan"),
    }


def smallest_sufficient(power: pd.DataFrame) -> pd.DataFrame:
    """Per finding, the smallest planned design (fewest judgements expected: evaluators x items) whose headline
    power reaches :data:`TARGET`, or a note that none of the grid does. The headline is the power of an analysis
    valid under the crossed model where the model plans the finding (``valid_power``; issue 53: the paper's test
    promises more than such a design delivers), else the paper's test's simulated power with its interval."""
    out = []
    planned = headline(power[power["design"] == "planned"])
    if "valid_power" in planned:  # the valid analysis is analytic: no simulation interval
        valid = planned["valid_power"].notna()
        planned = planned.assign(
            paper=planned["power"],
            power=planned["valid_power"].where(valid, planned["power"]),
            ci_low=planned["ci_low"].where(~valid),
            ci_high=planned["ci_high"].where(~valid),
        )
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
                    **what_power(best),
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
                    **what_power(best),
                    "note": "",
                }
            )
    columns = ["finding", "evaluators", "items", "analysis", "method", "basis", "quantity", "power", "ci_low"]
    frame = pd.DataFrame(out, columns=[*columns, "ci_high", "paper_power", "note"])
    return frame.astype({"evaluators": "Int64", "items": "Int64"})
