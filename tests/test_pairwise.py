import pandas as pd
import pytest

from humeval.metrics import StudyData
from humeval.metrics.pairwise import majority_vote, preference_scores, relative_preference_numbers


def judgements():
    # item 1: a vs b, votes A, A, B -> a wins; item 2: b vs c, votes B, B, A -> c wins;
    # item 3: c vs a, votes A, A, A -> c wins
    rows = (
        [("i1", "a", "b", v) for v in (1, 1, -1)]
        + [("i2", "b", "c", v) for v in (-1, -1, 1)]
        + [("i3", "c", "a", v) for v in (1, 1, 1)]
    )
    frame = pd.DataFrame(rows, columns=["item", "system", "system_b", "value"])
    return frame.assign(
        side="reproduction", response_type="pairwise", judgement_id=[f"j{k}" for k in range(len(frame))]
    )


def test_majority_vote_and_scores_by_hand():
    votes = majority_vote(judgements()).set_index("item")["vote"]
    assert votes.to_dict() == {"i1": 1, "i2": -1, "i3": 1}
    scores = preference_scores(majority_vote(judgements()))
    assert scores.to_dict() == {"a": 0, "b": -2, "c": 2}  # a: +1 -1, b: -1 -1, c: +1 +1


def test_relative_preference_divides_by_all_comparisons_with_per_appearance_row():
    config = {"systems": [{"code": "a", "label": "A"}, {"code": "b", "label": "B"}, {"code": "c", "label": "C"}]}
    data = StudyData(
        kept=judgements(), tidy=judgements(), participants=pd.DataFrame(), exclusions=pd.DataFrame(), config=config
    )
    out = relative_preference_numbers(
        data, table="pref", side="reproduction", column="repro", score_column="score", per_appearance_suffix=" (pa)"
    )
    cells = out.set_index(["row", "column"])["value"]
    assert cells[("C", "repro")] == pytest.approx(100 * 2 / 3)  # 3 comparisons in all
    assert cells[("C (pa)", "repro")] == pytest.approx(100 * 2 / 2)  # c appears in 2
    assert cells[("B", "score")] == -2


def test_the_tally_by_hand_with_the_sign_test():
    """a: 3 wins, 1 loss, 1 tie (n 5): win_pct 60, bws 100 (3 - 1) / 5 = 40, bws_scaled 70, score 2, sign_p the
    exact two-sided binomial of 3 of 4 = 2 (1 + 4) / 16 = 0.625; b: 1 win, 3 losses, 0 ties; c: no decision (1
    tie) has sign_p 1; d: 0 wins, 2 losses has 2 (1/4) = 0.5."""
    from humeval.metrics.tally import pairwise_tally

    pairs = pd.DataFrame(
        [("a", "b", 1), ("a", "b", 1), ("b", "a", -1), ("a", "b", -1), ("a", "c", 0), ("d", "b", -1), ("b", "d", 1)],
        columns=["system", "system_b", "value"],
    )
    tally = pairwise_tally(pairs, sign_test=True)
    assert tally.loc["a"].tolist() == [3, 1, 1, 5, 60, 40, 70, 2, 0.625]
    assert tally.loc["b"].tolist() == [3, 3, 0, 6, 50, 0, 50, 0, 1.0]
    assert tally.loc["c", "sign_p"] == 1.0 and tally.loc["c", "n"] == 1
    assert tally.loc["d"].tolist() == [0, 2, 0, 2, 0, -100, 0, -2, 0.5]
