"""What a planning model provides (:class:`PlanningModel`), and which registered model plans a finding
(:func:`model_of`).

A model simulates a finding at any design (people x items x judgements per item); a finding no model plans is
planned by the bootstrap of its pilot only. Each model declares the metrics whose cells it can simulate
(``METRICS``); :func:`model_of` takes the first model of :data:`MODELS` whose metrics cover every cell the finding
reads, else the default model, the crossed two-mean model, which says why it cannot plan the finding. A model's
constructor raises :class:`NotModelled` with the reason where it cannot plan a finding after all (two
comparisons where it plans one, a test it does not model).
"""

from __future__ import annotations

from typing import ClassVar, Protocol

from humeval.findings import finding_cells

__all__ = ["MODELS", "NotModelled", "PlanningModel", "model_of", "registered", "result_columns"]


class NotModelled(Exception):
    """Why a finding is not planned from a model (it is bootstrapped within the pilot's size)."""


class PlanningModel(Protocol):
    """A model of one finding, built from the pilot (``simulator``), the finding, its side label and stated
    components (``planning.components``, or None).

    ``METRICS``: the metrics whose cells it simulates. ``stated``: whether its components are stated rather than
    fitted; ``crossed``: whether items judged in both groups are modelled as distinct items; ``test``: the test it
    models beside the finding (None where it has none), whose standard error the effect interval then uses
    (:meth:`standard_error`)."""

    METRICS: ClassVar[frozenset[str]]
    stated: bool
    crossed: bool
    test: object | None

    def layout(self, people: int, items: int, per_item: int):
        """The design's layout the other methods take."""

    def power(self, lay, effects: list[float], simulations: int, rng) -> list[dict]:
        """Per effect: ``held`` and ``failed`` simulations, the ``analytic`` power and the ``mde``; where a valid
        analysis exists, also ``valid``, ``valid_mde`` and ``null_rate`` (the paper's test at zero effect)."""

    def analytic_at(self, lay, effect: float) -> float:
        """The analytic power at ``effect``."""

    def mde(self, lay) -> float:
        """The minimum detectable effect at 80% power."""


def registered() -> tuple[type[PlanningModel], ...]:
    """:data:`MODELS`, imported: the ICC model, then the crossed two-mean model (the default, last)."""
    import importlib

    return tuple(getattr(importlib.import_module(module), name) for module, name in MODELS)


#: The planning models, as (module, class): each declares the metrics it plans; the last is the default.
MODELS = (("humeval.planning.icc", "IccFinding"), ("humeval.planning.model", "ModelFinding"))


def model_of(simulator, finding: dict, label: str, stated: dict | None) -> PlanningModel:
    """The model that plans ``finding`` at any design: the first registered model whose ``METRICS`` cover the
    metrics of every cell it reads, else the default (which raises :class:`NotModelled` with its reason)."""
    metric = {m["table"]: m["metric"] for m in simulator.config.get("metrics", [])}
    used = {metric.get(cell[0], "?") for cell in finding_cells(finding, label)}
    models = registered()
    chosen = next((model for model in models if used <= model.METRICS), models[-1])
    return chosen(simulator, finding, label, stated)


def result_columns(result: dict, simulations: int) -> dict:
    """The power.csv columns of one effect's result of :meth:`PlanningModel.power` over ``simulations``: the power
    with its 95% Wilson interval, the analytic power and MDE, and, where the model has a valid analysis beside its
    test, its power, its MDE and the paper's test's rate at zero effect (empty for a model without one, as the ICC
    comparisons).

    >>> result_columns({"held": 8, "failed": 0, "analytic": 0.81, "mde": 0.4}, 10)["power"]
    0.8
    """
    from humeval.planning.bootstrap import wilson

    low, high = wilson(result["held"], simulations)
    return {
        "power": result["held"] / simulations,
        "ci_low": low,
        "ci_high": high,
        "analytic_power": result["analytic"],
        "mde": result["mde"],
        "valid_power": result.get("valid", float("nan")),
        "valid_mde": result.get("valid_mde", float("nan")),
        "paper_null_rate": result.get("null_rate", float("nan")),
        "simulations": simulations,
        "failed": result["failed"],
    }
