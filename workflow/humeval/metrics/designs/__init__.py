"""Metrics that serve one paper's design and cannot be said with the generic ones: the evaluator-group comparisons
of Finch, Finch & Choi (2024) (:mod:`.evaluator_groups`, :mod:`.evaluator_group_effects`) and the rating-design
analyses of Santhanam & Shaikh (2019) / Braggaar et al. (2022) (:mod:`.rating_designs`). Each is registered by name
in the vocabulary (:func:`humeval.config.registry.entries`) like any other metric."""

__all__ = []
