"""Every registered metric on no judgement and on one (as scikit-learn's ``check_estimator`` runs every estimator
on degenerate data): the cells of its table, in the (table, row, column, value) shape, or one line naming the
metric entry; never a traceback (issue 52). Each metric is run as the metrics job runs it
(:func:`humeval.metrics.metrics_study`), with the first entry of it in the smallest study file that uses it."""

from functools import cache

import pandas as pd
import pytest
from helpers import REPO

from humeval.config.load import load_study
from humeval.config.registry import entries
from humeval.errors import HumevalError
from humeval.metrics import StudyData, metrics_study
from humeval.published import published_blocks, published_frame
from humeval.tidy import JUDGEMENT_COLUMNS, PARTICIPANT_COLUMNS

FILES = [
    *sorted((REPO / "config/studies").glob("[a-z]*.yaml")),
    REPO / ".test/config/studies/every-measure-2026-toy.yaml",
]


@cache
def first_entries() -> dict:
    found = {}
    for path in sorted(FILES, key=lambda p: p.stat().st_size):
        study = load_study(path)
        for entry in study.get("metrics", []):
            found.setdefault(entry["metric"], (study, entry))
    return found


def test_every_registered_metric_has_an_entry_in_a_study_file():
    assert set(first_entries()) == set(entries("metric"))


def judgements(study: dict, entry: dict, n: int) -> pd.DataFrame:
    """``n`` (0 or 1) judgements with the tidy columns and those the entry names, the one row passing its
    ``where`` and naming its side."""
    named = [*(entry.get("by") or []), *(entry.get("units") or []), *(entry.get("where") or {})]
    named += [entry[k] for k in ("group", "compare") if isinstance(entry.get(k), str)]
    named += [c for spec in study.get("derived", []) for c in spec["by"]]
    row = {c: "x" for c in dict.fromkeys([*JUDGEMENT_COLUMNS, *map(str, named)])}
    side = entry.get("side") or study["experiments"][0].get("label", study["experiments"][0]["id"])
    row.update(side=side, response_type="rating", value=1.0, rater_number=1, study=study["name"])
    row.update({k: (v[0] if isinstance(v, list) else v) for k, v in (entry.get("where") or {}).items()})
    frame = pd.DataFrame([row]).iloc[:n]
    return frame.astype({"value": float, "rater_number": int})


@pytest.mark.parametrize("name", sorted(entries("metric")))
@pytest.mark.parametrize("n", [0, 1])
def test_every_metric_on_no_or_one_judgement_gives_cells_or_one_line(name, n):
    study, entry = first_entries()[name]
    kept = judgements(study, entry, n)
    people = pd.DataFrame(columns=PARTICIPANT_COLUMNS)
    config = {**study, "metrics": [entry]}
    published = published_frame(published_blocks(study))  # what the job reads (aggregates' counts among them)
    data = StudyData(kept, kept, people, kept.iloc[:0], published=published, config=config)
    try:
        out = metrics_study(data)
    except HumevalError as exc:
        assert "\n" not in str(exc) and str(exc).startswith("key metrics.0"), str(exc)
        return
    assert list(out.columns[:4]) == ["table", "row", "column", "value"]
    assert set(out["table"]) <= {entry["table"]}
