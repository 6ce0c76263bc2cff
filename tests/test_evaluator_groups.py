"""Evaluator-group designs (Finch, Finch & Choi 2024): Cohen's d and h, the authors' single-annotation sampler and
within-group alpha, on hand-computed data."""

import math
import random

import numpy as np
import pandas as pd
import pytest

from humeval.metrics.designs.evaluator_group_effects import cohens_d, cohens_h
from humeval.metrics.designs.evaluator_groups import annotation_rows, singly_annotated, within_group_alpha


def row(category, dialogue, label, label_order, order, value, compared=None):
    item = dialogue if compared is None else f"{dialogue}|{compared}"
    pair = "" if compared is None else "|".join(sorted([dialogue, compared]))
    return {
        "side": "G",
        "category": category,
        "item": item,
        "criterion": label,
        "dialogue": dialogue,
        "pair": pair,
        "label_order": label_order,
        "order": order,
        "value": value,
    }


def sampler_fixture():
    """Annotation 0 holds value 1 (Likert) / -1 (pairwise), annotation 1 value 5 / +1: the value shows the pick."""
    rows = [
        row("likert", "dD", "x", 0, 0, 1),
        row("likert", "dD", "x", 0, 1, 5),  # listed first, sorted later
        row("likert", "dA", "x", 0, 0, 1),
        row("likert", "dA", "x", 0, 1, 5),
        row("likert", "dA", "y", 1, 0, 1),
        row("likert", "dA", "y", 1, 1, 5),
        row("likert", "dB", "x", 0, 0, 1),  # single: kept, no draw
        row("likert", "dC", "x", 0, 0, 1),
        row("likert", "dC", "x", 0, 1, 5),
        row("pairwise", "dP", "x", 0, 0, -1, "dQ"),
        row("pairwise", "dP", "x", 0, 1, 1, "dQ"),
        row("pairwise", "dQ", "x", 0, 0, -1, "dP"),
        row("pairwise", "dQ", "x", 0, 1, 1, "dP"),
    ]
    return pd.DataFrame(rows)


def test_authors_sampler_picks_worked_out_by_hand():
    # Python's random seeded with 123 draws randint(0, 1) = 0, 1, 0, 1, 1, 0, ...
    assert [random.Random(123).randint(0, 1) for _ in range(1)] == [0]
    # Rows in order: Likert before pairwise, dialogue sorted, label in JSON order:
    #   dA/x  doubly -> draw 1 = 0, first draw of dA         -> pick 0 (value 1)
    #   dA/y  doubly -> draw 2 = 1 consumed, dA reuses 0      -> pick 0 (value 1)
    #   dB/x  single -> no draw                              -> pick 0 (value 1)
    #   dC/x  doubly -> draw 3 = 0                           -> pick 0 (value 1)
    #   dD/x  doubly -> draw 4 = 1                           -> pick 1 (value 5)
    #   dP|dQ doubly -> draw 5 = 1, first draw of pair {P,Q} -> pick 1 (value +1)
    #   dQ|dP doubly -> draw 6 = 0 consumed, pair reuses 1    -> pick 1 (value +1)
    single = singly_annotated(annotation_rows(sampler_fixture()), {"name": "authors", "seed": 123})
    picked = single.set_index(["item", "criterion"])["value"].to_dict()
    assert picked == {
        ("dA", "x"): 1,
        ("dA", "y"): 1,
        ("dB", "x"): 1,
        ("dC", "x"): 1,
        ("dD", "x"): 5,
        ("dP|dQ", "x"): 1,
        ("dQ|dP", "x"): 1,
    }


def test_first_sampler_always_keeps_the_first_annotation():
    single = singly_annotated(annotation_rows(sampler_fixture()), {"name": "first"})
    assert set(single.loc[single["category"] == "likert", "value"]) == {1}
    assert set(single.loc[single["category"] == "pairwise", "value"]) == {-1}


def test_within_group_alpha_uses_first_two_annotations_only():
    frame = pd.DataFrame(
        [
            row("likert", f"d{k}", "x", 0, o, v)
            for k, values in enumerate([(1, 1, 5), (5, 5, 1), (3, 3)])
            for o, v in enumerate(values)
        ]
    )
    alpha = within_group_alpha(annotation_rows(frame))
    assert alpha["x"] == pytest.approx(1.0)  # the third annotations (which disagree) are ignored


def test_cohens_d_matches_hand_computation():
    # bot 0: 1, 2, 3 (mean 2, var 1); bot 1: 3, 4, 5, 6 (mean 4.5, var 5/3)
    # pooled SD = sqrt((2 * 1 + 3 * 5/3) / 5) = sqrt(7/5); d = (2 - 4.5) / sqrt(1.4)
    scores = np.array([1, 2, 3, 3, 4, 5, 6], dtype=float)
    bots = np.array([0, 0, 0, 1, 1, 1, 1])
    assert cohens_d(scores, bots, [(0, 1)])[0] == pytest.approx(-2.5 / math.sqrt(1.4))


def test_cohens_h_drops_ties_and_counts_both_sides():
    # bot 0 vs 1: 0 wins, 1 wins, tie; bot 0 vs 2: 0 wins. p0 = 2/3 (2 wins, 1 loss), p1 = 1/2 (1 win, 1 loss)
    a, b, v = np.array([0, 0, 0, 0]), np.array([1, 1, 1, 2]), np.array([1, -1, 0, 1])
    expected = 2 * math.asin(math.sqrt(2 / 3)) - 2 * math.asin(math.sqrt(1 / 2))
    assert cohens_h(a, b, v, [(0, 1)])[0] == pytest.approx(expected)


def test_batched_effect_sizes_equal_one_at_a_time():
    rng = np.random.default_rng(0)
    scores, bots = rng.integers(1, 6, size=40).astype(float), rng.integers(0, 4, size=40)
    index = rng.integers(0, 40, size=(5, 40))
    batched = cohens_d(scores[index], bots[index], [(0, 1), (2, 3)])
    single = np.stack([cohens_d(scores[i], bots[i], [(0, 1), (2, 3)]) for i in index])
    assert np.allclose(batched, single)
