import pandas as pd
import pytest

from humeval.errors import HumevalError
from humeval.tidy import JUDGEMENT_COLUMNS, validate_judgements


def frame(**overrides):
    base = {
        "study": "s",
        "side": "reproduction",
        "judgement_id": "j1",
        "participant": "P1",
        "item": "i1",
        "criterion": "meaning",
        "response_type": "pairwise",
        "system": "a",
        "system_b": "b",
        "value": 1,
    }
    base.update(overrides)
    return pd.DataFrame([base])


def test_valid_frame_keeps_schema_order_and_extras():
    out = validate_judgements(frame(batch=3))
    assert list(out.columns) == JUDGEMENT_COLUMNS + ["batch"]


@pytest.mark.parametrize(
    "overrides, message",
    [
        ({"response_type": "likert"}, "response_type"),
        ({"value": "x"}, "not a number"),
        ({"value": 2}, "not -1, 0 or 1"),
        ({"system_b": ""}, "system_b"),
        ({"participant": ""}, "participant"),
    ],
)
def test_invalid_rows_name_column_and_row(overrides, message):
    with pytest.raises(HumevalError, match=message):
        validate_judgements(frame(**overrides))


def test_missing_column_is_named():
    with pytest.raises(HumevalError, match="criterion"):
        validate_judgements(frame().drop(columns="criterion"))


def test_a_where_on_a_column_of_pseudonyms_says_to_select_raters_by_number():
    import pandas as pd

    from humeval.errors import HumevalError
    from humeval.metrics import filter_where
    from humeval.tidy import rater_numbers

    rows = pd.DataFrame({"side": ["O"] * 3 + ["R1"], "participant": ["Pb1", "Pa2", "Pb1", "Pc3"]})
    rows["slot"] = rows["participant"]
    rows["rater_number"] = rater_numbers(rows)
    assert rows["rater_number"].tolist() == [1, 2, 1, 1]
    assert len(filter_where(rows, {"rater_number": [1]}, rows)) == 3
    with pytest.raises(HumevalError, match=r"holds rater pseudonyms .* where: \{rater_number: \[1, 2, \.\.\.\]\}"):
        filter_where(rows, {"slot": [0, 1]}, rows)
