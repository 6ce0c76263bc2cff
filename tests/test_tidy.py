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
