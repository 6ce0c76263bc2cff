"""The experimental conditions a study file may state per experiment (``conditions:``), each a field of the Human
Evaluation Datasheet (Shimorina & Belz 2022): the study file's vocabulary for them, which the checks read before
any job (:func:`humeval.config.checks.check_conditions`) and the datasheet reader and the conditions table read in
the tables job (:mod:`humeval.heds`)."""

from __future__ import annotations

__all__ = ["CONDITIONS", "CRITERIA_KEY"]

#: The datasheet field listing the criteria, one condition per criterion being read from the fields after it.
CRITERIA_KEY = "heds-criteria-criterion"

#: (label, HEDS field, per criterion): the conditions a conditions table lists, in order.
CONDITIONS = [
    ("Number of evaluators", "heds-sample_evaluators_design-evaluators-number_of_evaluators", False),
    ("Evaluator expertise", "heds-sample_evaluators_design-evaluators-evaluators-expertise", False),
    ("Recruitment and platform", "heds-sample_evaluators_design-evaluators-recruitment_method", False),
    ("Payment", "heds-sample_evaluators_design-evaluators-evaluators-payment", False),
    ("Evaluators are authors", "heds-sample_evaluators_design-evaluators-evaluators-are_authors", False),
    ("Evaluators known to the authors", "heds-sample_evaluators_design-evaluators-evaluators-known_to_authors", False),
    ("Criteria evaluated", CRITERIA_KEY, False),
    ("Verbatim question", "heds-criteria-criterion-response_elicitation-verbatim_question", True),
    ("Form of response", "heds-criteria-criterion-response_elicitation-form_of_response", True),
    ("Scale size", "heds-criteria-criterion-response_elicitation-size_of_scale", True),
    ("Scale (list or range)", "heds-criteria-criterion-response_elicitation-list_or_range", True),
    ("Quality assurance", "heds-sample_evaluators_design-experimental_design-quality_assurance-method", False),
    ("Statistical power", "heds-sample_evaluators_design-sample-statistical_power-method", False),
    ("Preregistered", "heds-sample_evaluators_design-experimental_design-preregistered", False),
]
