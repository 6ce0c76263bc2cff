"""ICC(C,k) and ICC(A,k) from mean squares (humeval.metrics.designs.icc.icc) against the library they
replace, pingouin's intraclass_corr: both coefficients and the consistency p-value to 1e-10 on random matrices of
any size, with and without duplicate ratings (averaged, as pingouin does), and a missing rating refused as
pingouin refuses it."""

import numpy as np
import pandas as pd
import pingouin
import pytest

from humeval.metrics.designs.icc import icc


def ratings(rng, n, k, duplicated=False):
    matrix = rng.normal(size=(n, 1)) * rng.uniform(0, 2) + rng.normal(size=(n, k)) + rng.normal(size=(1, k))
    frame = pd.DataFrame(
        {
            "item": np.repeat(np.arange(n), k),
            "participant": np.tile([f"p{j}" for j in range(k)], n),
            "value": matrix.ravel(),
        }
    )
    return pd.concat([frame, frame.assign(value=frame["value"] + rng.normal(size=len(frame)))]) if duplicated else frame


@pytest.mark.parametrize("duplicated", [False, True])
def test_icc_from_mean_squares_equals_pingouin(duplicated):
    rng = np.random.default_rng(11)
    for _ in range(60):
        frame = ratings(rng, int(rng.integers(3, 40)), int(rng.integers(2, 15)), duplicated)
        table = pingouin.intraclass_corr(data=frame, targets="item", raters="participant", ratings="value")
        table = table.set_index("Type")
        got = icc(frame)
        assert got["ICC-C"][0] == pytest.approx(table.loc["ICC(C,k)", "ICC"], abs=1e-10)
        assert got["ICC-A"][0] == pytest.approx(table.loc["ICC(A,k)", "ICC"], abs=1e-10)
        assert got["ICC-C"][1] == pytest.approx(table.loc["ICC(C,k)", "pval"], abs=1e-10)


def test_a_missing_rating_is_refused_as_pingouin_refuses_it():
    frame = ratings(np.random.default_rng(12), 5, 3).iloc[1:]
    with pytest.raises(ValueError, match="missing values"):
        pingouin.intraclass_corr(data=frame, targets="item", raters="participant", ratings="value")
    with pytest.raises(ValueError, match="missing values"):
        icc(frame)
