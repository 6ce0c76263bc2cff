"""The pairwise tally: wins, losses and ties per system over both positions, and the scores made from them. A
low-level piece that the pairwise metrics (preference scores, relative preference) and the generic
``pairwise_tally`` metric share; it imports nothing of the package."""

from __future__ import annotations

from typing import Literal, get_args

import pandas as pd

#: The statistics of :func:`pairwise_tally`.
TallyStat = Literal["wins", "losses", "ties", "n", "win_pct", "bws", "bws_scaled", "score"]
TALLY_STATS = get_args(TallyStat)


def pairwise_tally(pairs: pd.DataFrame) -> pd.DataFrame:
    """Per system over both positions: wins, losses, ties, comparisons ``n``, ``win_pct`` = 100 wins / n, the
    best-worst score ``bws`` = 100 (wins - losses) / n (-100..100; Louviere et al. 2015, as a pairwise choice
    is a best-worst choice of two), ``bws_scaled`` = (bws + 100) / 2 (0..100) and the raw ``score`` = wins -
    losses. ``pairs``: system, system_b, value (+1 system preferred, -1 system_b, 0 tie).

    >>> pairs = pd.DataFrame({"system": ["a", "a", "b"], "system_b": ["b", "c", "c"], "value": [1, 0, -1]})
    >>> pairwise_tally(pairs).loc["a"].tolist()
    [1.0, 0.0, 1.0, 2.0, 50.0, 50.0, 75.0, 1.0]
    """
    value = pd.to_numeric(pairs["value"]).to_numpy()
    first = pd.DataFrame({"system": pairs["system"].to_numpy(), "result": value})
    second = pd.DataFrame({"system": pairs["system_b"].to_numpy(), "result": -value})
    both = pd.concat([first, second], ignore_index=True)
    tally = pd.DataFrame(
        {
            "wins": both["result"].gt(0).groupby(both["system"], sort=False).sum(),
            "losses": both["result"].lt(0).groupby(both["system"], sort=False).sum(),
            "ties": both["result"].eq(0).groupby(both["system"], sort=False).sum(),
        }
    ).astype(float)
    tally["n"] = tally[["wins", "losses", "ties"]].sum(axis=1)
    tally["win_pct"] = 100 * tally["wins"] / tally["n"]
    tally["bws"] = 100 * (tally["wins"] - tally["losses"]) / tally["n"]
    tally["bws_scaled"] = (tally["bws"] + 100) / 2
    tally["score"] = tally["wins"] - tally["losses"]
    return tally[list(TALLY_STATS)]
