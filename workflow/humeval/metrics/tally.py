"""The pairwise tally: wins, losses and ties per system over both positions, and the scores made from them. A
low-level piece that the pairwise metrics (preference scores, relative preference) and the generic
``pairwise_tally`` metric share; it imports nothing of the package."""

from __future__ import annotations

from typing import Literal

import numpy as np
import pandas as pd

__all__ = ["PERCENT_STATS", "TALLY_STATS", "TallyStat", "pairwise_tally"]

#: The statistics of :func:`pairwise_tally`; ``sign_p`` only on request.
TallyStat = Literal["wins", "losses", "ties", "n", "win_pct", "bws", "bws_scaled", "score", "sign_p"]
#: The statistics a ``pairwise_tally`` entry writes by default, frozen as they first shipped (a statistic added
#: later, ``score`` or ``sign_p``, is written only when asked for: a config that relied on the defaults keeps its
#: cells; ``tests/test_frozen_defaults.py``).
TALLY_STATS = ("wins", "losses", "ties", "n", "win_pct", "bws", "bws_scaled")
#: The tally's statistics that are per cent (a metric's ``scale``).
PERCENT_STATS = ("win_pct", "bws", "bws_scaled")


def pairwise_tally(pairs: pd.DataFrame, sign_test: bool = False) -> pd.DataFrame:
    """Per system over both positions: wins, losses, ties, comparisons ``n``, ``win_pct`` = 100 wins / n, the
    best-worst score ``bws`` = 100 (wins - losses) / n (-100..100; Louviere et al. 2015, as a pairwise choice
    is a best-worst choice of two), ``bws_scaled`` = (bws + 100) / 2 (0..100) and the raw ``score`` = wins -
    losses; ``sign_p`` (when ``sign_test``) the two-sided exact binomial sign test of wins against losses, ties
    left out (scipy's ``binomtest``, p = 0.5; 1 without any win or loss). ``pairs``: system, system_b, value (+1
    system preferred, -1 system_b, 0 tie).

    >>> pairs = pd.DataFrame({"system": ["a", "a", "b"], "system_b": ["b", "c", "c"], "value": [1, 0, -1]})
    >>> pairwise_tally(pairs).loc["a"].tolist()
    [1.0, 0.0, 1.0, 2.0, 50.0, 50.0, 75.0, 1.0]
    """
    value = pd.to_numeric(pairs["value"]).to_numpy()
    result = np.concatenate([value, -value])
    # systems in order of first appearance over both positions, counted with bincount (three groupbys before)
    code, systems = pd.factorize(np.concatenate([pairs["system"].to_numpy(), pairs["system_b"].to_numpy()]))
    tally = pd.DataFrame(
        {
            "wins": np.bincount(code, weights=result > 0, minlength=len(systems)),
            "losses": np.bincount(code, weights=result < 0, minlength=len(systems)),
            "ties": np.bincount(code, weights=result == 0, minlength=len(systems)),
        },
        index=pd.Index(systems, name="system"),
    ).astype(float)
    tally["n"] = tally[["wins", "losses", "ties"]].sum(axis=1)
    tally["win_pct"] = 100 * tally["wins"] / tally["n"]
    tally["bws"] = 100 * (tally["wins"] - tally["losses"]) / tally["n"]
    tally["bws_scaled"] = (tally["bws"] + 100) / 2
    tally["score"] = tally["wins"] - tally["losses"]
    if not sign_test:
        return tally
    from scipy.stats import binomtest

    tally["sign_p"] = [
        binomtest(int(w), int(w + lo)).pvalue if w + lo > 0 else 1.0 for w, lo in zip(tally["wins"], tally["losses"])
    ]
    return tally
