import pandas as pd
import pytest

from humeval.errors import HumevalError
from humeval.metrics.agreement import krippendorff_alpha, krippendorff_alpha_by_batch


def two_coders(values_1, values_2, batch=1):
    units = [f"u{k}" for k in range(len(values_1))]
    return pd.DataFrame(
        {
            "participant": ["c1"] * len(units) + ["c2"] * len(units),
            "item": units * 2,
            "value": list(values_1) + list(values_2),
            "batch": batch,
        }
    )


def test_nominal_alpha_matches_hand_computed_coincidences():
    # units (A,A), (B,B), (A,B), (B,A): o_AA = o_BB = o_AB = o_BA = 2, n = 8, n_A = n_B = 4
    # D_o = 4/8 = 0.5; D_e = 2 * 4 * 4 / (8 * 7) = 0.5714; alpha = 1 - 0.5 / 0.5714 = 0.125
    frame = two_coders(["A", "B", "A", "B"], ["A", "B", "B", "A"])
    assert krippendorff_alpha(frame, ["item"], "nominal") == pytest.approx(0.125)


def test_text_coding_does_not_change_alpha():
    coded = two_coders([1, 2, 1, 2], [1, 2, 2, 1])
    assert krippendorff_alpha(coded, ["item"], "nominal") == pytest.approx(0.125)


def test_alpha_by_batch_separates_batches():
    frame = pd.concat(
        [
            two_coders(["A", "B", "A", "B"], ["A", "B", "A", "B"], batch=1),
            two_coders(["A", "B", "A", "B"], ["A", "B", "B", "A"], batch=2),
        ]
    )
    alphas = krippendorff_alpha_by_batch(frame, "batch", ["item"], "nominal")
    assert alphas.to_dict() == pytest.approx({1: 1.0, 2: 0.125})


def test_a_coder_judging_a_unit_twice_is_an_error():
    frame = two_coders(["A", "B"], ["A", "B"])
    with pytest.raises(HumevalError, match="more than once"):
        krippendorff_alpha(pd.concat([frame, frame.head(1)]), ["item"], "nominal")


def test_fleiss_kappa_equals_statsmodels_own_counting():
    """The units x categories counts come from one bincount; statsmodels' ``aggregate_raters`` on the per-unit
    ratings gives the same kappa (200 units, 4 of 30 coders each, 3 categories)."""
    import numpy as np
    from statsmodels.stats import inter_rater

    from humeval.metrics.agreement import kappa

    rng = np.random.default_rng(1)
    rows = [
        {"participant": f"c{c}", "item": u, "value": int(rng.integers(1, 4))}
        for u in range(200)
        for c in rng.choice(30, 4, replace=False)
    ]
    frame = pd.DataFrame(rows)
    per_unit = frame.groupby("item")["value"].apply(list)
    expected = inter_rater.fleiss_kappa(inter_rater.aggregate_raters(np.array(per_unit.tolist()))[0])
    assert kappa(frame, ["item"], "fleiss") == pytest.approx(expected, abs=1e-15)
