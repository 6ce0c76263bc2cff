"""Which planning model plans a finding (humeval.planning.models): the first registered model whose declared
metrics cover every cell the finding reads, else the default two-mean model, which says why it cannot."""

import pytest

from humeval.planning import models
from humeval.planning.models import NotModelled, model_of


class Pilot:
    """What model_of reads of a pilot: the study's metric entries."""

    def __init__(self):
        self.config = {"metrics": [{"table": "icc", "metric": "icc"}, {"table": "means", "metric": "describe"}]}


def finding(table):
    cell = {"table": table, "row": "r", "column": "{side}"}
    return {"id": "F", "comparisons": [{"left": cell, "op": ">", "right": {**cell, "row": "s"}}]}


class Recorded:
    """A model that records that it was chosen."""

    METRICS = frozenset({"describe"})

    def __init__(self, simulator, finding, label, stated):
        self.chosen = (finding["id"], label)


class Refusing:
    METRICS = frozenset({"icc"})

    def __init__(self, simulator, finding, label, stated):
        raise NotModelled("refused")


def test_the_first_registered_model_whose_metrics_cover_the_cells_plans_the_finding(monkeypatch):
    monkeypatch.setattr(models, "MODELS", (("test_planning_models", "Refusing"), ("test_planning_models", "Recorded")))
    assert model_of(Pilot(), finding("means"), "O", None).chosen == ("F", "O")
    with pytest.raises(NotModelled, match="refused"):
        model_of(Pilot(), finding("icc"), "O", None)
    both = finding("icc")
    both["comparisons"].append(finding("means")["comparisons"][0])  # no model covers both: the default, last
    assert model_of(Pilot(), both, "R1", None).chosen == ("F", "R1")


def test_cells_no_model_declares_go_to_the_default_model_which_says_why():
    """A cell of a table no metric entry writes ("?") is simulated by no model: the two-mean model, the default,
    refuses it in words (its first check: one comparison of two cells)."""
    with pytest.raises(NotModelled, match="its cells come from \\?, which the model does not simulate"):
        model_of(Pilot(), finding("elsewhere"), "O", None)


def test_the_shipped_models_declare_what_they_plan():
    registered = models.registered()
    assert [m.__name__ for m in registered] == ["IccFinding", "ModelFinding"]
    assert registered[0].METRICS == {"icc"} and registered[-1].METRICS == {"describe", "significance"}
