"""Planning without data (docs/planning.md): a finding that no experiment's judgements compute (a study whose
raw data are not public, or a reproduction planned before any exists), planned from an assumed effect and
variance components stated in config, ``planning.effects`` and ``planning.components`` (its own, another study's
in this repository, or a paper's numbers), by the crossed model of :class:`humeval.planning.model.ModelFinding`."""

from __future__ import annotations

import numpy as np

from humeval.config.planning import PlanningSettings
from humeval.planning.model import ModelFinding
from humeval.planning.models import NotModelled, result_columns

__all__ = ["StatedFinding", "plan_stated"]

STATED_NOTE = (
    "planned without data: no experiment's judgements compute this finding; the effect and variance components "
    "as stated in planning.effects and planning.components; each person judges every item under both compared "
    "conditions"
)


class StatedFinding(ModelFinding):
    """A finding of one comparison of two means (and, where the paper tested it, Student's t test) with no pilot:
    its variance components and effect are the config's, its design fully crossed (every person judges every item
    under both compared conditions, an item modelled as one item per condition, as :class:`ModelFinding` does).
    Raises :class:`NotModelled` with the reason otherwise."""

    def __init__(self, finding: dict, components: dict):  # no pilot: none of the parent's fitting
        comparisons = finding["comparisons"]
        if len(comparisons) != 1 or not all(isinstance(comparisons[0][k], dict) for k in ("left", "right")):
            raise NotModelled("planning without data models a finding of one comparison of two cells")
        self.components = {name: float(components[name]) for name in components}
        self.test = True if finding.get("significance") else None  # Student's t, the model's own test
        self.alpha = (finding.get("significance") or {}).get("alpha", 0.05)
        self.greater = comparisons[0]["op"].startswith(">")
        self.means = np.zeros(2)  # the effect alone sets the difference
        self.stated = self.crossed = self.checked = True  # no metric entries to check against: no judgements

    def layout(self, people: int, items: int, per_item: int):
        """``people`` judging each of ``items`` items under both conditions (``per_item`` follows: 2 x people)."""
        from humeval.planning.crossed_model import layout

        return layout(np.repeat([0, 1], [items, items]), people, people)


def plan_stated(finding: dict, settings: PlanningSettings, reproductions: list[str]) -> list[dict]:
    """The power.csv rows of a finding planned without data, at ``planning.evaluators`` x ``planning.items`` and
    each reproduction of ``reproductions`` whose size ``planning.sizes`` states; one row saying what to state
    where the config lacks it."""
    fid = finding["id"]
    effect, components = settings.effects.get(fid), settings.components.get(fid)
    base = {"finding": fid, "design": "planned", "pilot": ""}
    if effect is None or components is None:
        return []
    if not settings.evaluators or not settings.items:
        note = "planned without data only at stated designs: state planning.evaluators and planning.items"
        return [{**base, "method": "model", "note": note}]
    try:
        model = StatedFinding(finding, components)
    except NotModelled as reason:
        return [{**base, "method": "model", "note": str(reason)}]
    sizes = settings.sizes
    targets = [("planned", None, e, i) for e in settings.evaluators for i in settings.items]
    targets += [(r, r, sizes[r]["evaluators"], sizes[r]["items"]) for r in reproductions if r in sizes]
    simulations, rows = settings.simulations, []
    for design, reproduction, people, items in targets:
        lay = model.layout(int(people), int(items), 0)
        draws = np.random.default_rng([settings.seed, int(people), int(items), 2 * int(people)])
        result = model.power(lay, [float(effect)], simulations, draws)[0]
        rows.append(
            {
                **base,
                "experiment": reproduction,
                "design": design,
                "method": "model",
                "basis": "assumed",
                "quantity": "power" if finding.get("significance") else "same direction",
                "effect": float(effect),
                "evaluators": people,
                "items": items,
                "judgements_per_item": 2 * people,
                **result_columns(result, simulations),
                "note": STATED_NOTE,
            }
        )
    return rows
