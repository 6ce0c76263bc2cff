"""A study file's ``planning:`` block read once (:class:`PlanningSettings`): each key typed, each default written
here and nowhere else (the study schema, ``workflow/schemas/study.schema.yaml``, documents the same defaults)."""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["EVALUATOR_FACTORS", "PlanningSettings"]

#: The default grid: 0.5, 1, 2 and 4 times the pilot's people and items.
EVALUATOR_FACTORS = (0.5, 1, 2, 4)


@dataclass(frozen=True)
class PlanningSettings:
    """The ``planning:`` block of a study file (docs/planning.md), with its defaults.

    >>> settings = PlanningSettings.of({"evaluators": [6, 12], "seed": 3})
    >>> settings.evaluators, settings.items, settings.simulations, settings.seed, settings.plans("bootstrap")
    ((6, 12), None, 1000, 3, True)
    >>> PlanningSettings.of({"methods": ["model"]}).plans("bootstrap")
    False
    >>> none = PlanningSettings.of(None)  # the defaults the schema documents
    >>> none.simulations, none.seed, none.methods, none.evaluators, none.pilot
    (1000, 0, ('model', 'bootstrap'), None, None)
    """

    #: The planned people and items (None: :data:`EVALUATOR_FACTORS` times the pilot's).
    evaluators: tuple[int, ...] | None = None
    items: tuple[int, ...] | None = None
    #: Simulated reproductions per design, for the model and the bootstrap alike: Wilson's 95% interval is at most
    #: +-0.031 wide around a power of 0.5 (0.025 around 0.8). Where the metrics are computed for all draws at once
    #: (every shipped study's) 1,000 bootstrap draws cost 0.15 s more than 200 (hosking 0.38 -> 0.53 s, shardlow 0.38
    #: -> 0.44 s, liu 0.49 s both); the model simulates a design of yao's size in about 2 ms per 100.
    simulations: int = 1000
    #: The seed of every simulation's generator.
    seed: int = 0
    #: The experiment to plan from (None: the original, else the first experiment that computes a finding).
    pilot: str | None = None
    #: The methods that plan: the crossed model (any size) and the bootstrap (up to the pilot's size).
    methods: tuple[str, ...] = ("model", "bootstrap")
    #: Per reproduction whose judgements are not public: its stated size (evaluators, items, judgements_per_item).
    sizes: dict = field(default_factory=dict)
    #: Per finding: stated variance components (planning without data, or another study's).
    components: dict = field(default_factory=dict)
    #: Per finding: an assumed effect, planned beside the observed and safeguard ones.
    effects: dict = field(default_factory=dict)

    @classmethod
    def of(cls, planning: dict | None) -> PlanningSettings:
        """The settings of a ``planning:`` block (a study without one gets every default)."""
        planning = planning or {}
        listed = {key: tuple(planning[key]) for key in ("evaluators", "items", "methods") if key in planning}
        keys = ("simulations", "seed", "pilot", "sizes", "components", "effects")
        return cls(**listed, **{key: planning[key] for key in keys if planning.get(key) is not None})

    def plans(self, method: str) -> bool:
        """Whether ``method`` (``model`` or ``bootstrap``) plans."""
        return method in self.methods
