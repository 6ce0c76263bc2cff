"""The synthetic findings and pilots that the planning tests share (tests/test_planning.py,
tests/test_crossed_model.py): a two-mean finding with its Student t test, and an exact sign test on pilots where
each person made one comparison."""

import numpy as np
import pandas as pd


def comparison_finding(fid: str, text: str, left: tuple, right: tuple, op: str = ">", **extra) -> dict:
    """A finding (or claim) of one comparison, ``left op right``, each side a (table, row, column) cell."""
    cell = dict.fromkeys(("table", "row", "column"))
    comparison = {"left": dict(zip(cell, left)), "op": op, "right": dict(zip(cell, right))}
    return {"id": fid, "text": text, "comparisons": [comparison], **extra}


#: Means per side and system, and Student's t of A against B per side.
T_TEST_METRICS = [
    {
        "metric": "describe",
        "table": "means",
        "by": ["side", "system"],
        "stats": ["mean"],
        "row": "{side}",
        "column": "{system}",
    },
    {
        "metric": "significance",
        "table": "tests",
        "by": ["side"],
        "compare": "system",
        "pairs": [["A", "B"]],
        "row": "{side}",
        "tests": [{"test": "student_t", "columns": {"statistic": "t", "p": "p"}}],
    },
]
#: A rated higher than B, and Student's t significant at 0.05.
T_TEST_FINDING = comparison_finding(
    "F1",
    "A is rated higher than B (Student t, p < 0.05)",
    ("means", "{side}", "A"),
    ("means", "{side}", "B"),
    significance={"p": {"table": "tests", "row": "{side}", "column": "p"}, "alpha": 0.05},
)
#: Wins, losses and the exact sign test per side and system.
SIGN_TEST_METRICS = [
    {
        "metric": "pairwise_tally",
        "table": "tally",
        "stats": ["wins", "losses", "sign_p"],
        "by": ["side"],
        "row": "{side}|{system}",
    }
]
#: A wins more comparisons against B than it loses, by the exact sign test at 0.05.
SIGN_TEST_FINDING = comparison_finding(
    "F1",
    "A wins more comparisons than it loses against B (exact sign test, p < 0.05)",
    ("tally", "{side}|A", "wins"),
    ("tally", "{side}|A", "losses"),
    significance={"p": {"table": "tally", "row": "{side}|A", "column": "sign_p"}},
)


def study_data(
    judgements: pd.DataFrame, metrics: list[dict], finding: dict, planning: dict, name: str = "synthetic-2026-power"
):
    """A synthetic pilot study of one experiment ``O`` planning one finding (its name seeds the simulations)."""
    from humeval.metrics import StudyData

    config = {
        "name": name,
        "experiments": [{"id": "O"}],
        "metrics": metrics,
        "planning": {"labels": {"original": "O"}, "findings": [finding], **planning},
    }
    empty = pd.DataFrame(columns=["judgement_id"])
    return StudyData(kept=judgements, tidy=judgements, participants=pd.DataFrame(), exclusions=empty, config=config)


def one_comparison_each(values) -> pd.DataFrame:
    """A pairwise pilot where person k compared A with B once, on item k (liu's workers): ``values`` +1 A, -1 B."""
    n = len(values)
    return pd.DataFrame(
        {
            "side": "O",
            "criterion": "c",
            "participant": [f"P{x}" for x in range(n)],
            "item": [f"I{x}" for x in range(n)],
            "system": "A",
            "system_b": "B",
            "value": values,
            "response_type": "pairwise",
        }
    ).assign(judgement_id=np.arange(n))


def sign_test_cells(wins: int, n: int, p: float) -> pd.DataFrame:
    """The metric values a sign-test pilot's planning reads: A's wins, losses and sign-test p on side O."""
    return pd.DataFrame(
        {"table": "tally", "row": "O|A", "column": ["wins", "losses", "sign_p"], "value": [wins, n - wins, p]}
    )
