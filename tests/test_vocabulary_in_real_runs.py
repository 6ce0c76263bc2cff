"""Every vocabulary entry proven through Snakemake: each registered loader, metric, exclusion, QRA type and figure
kind, each reducer of a derived frame and each planning option is used by a study that CI runs through Snakemake
(a shipped study, or the synthetic ones of .test/, whose numbers are worked out by hand), so no feature is done on
a unit test alone. Parameters are held to the same rule, except those listed in NOT_YET_IN_A_RUN: that list may
only shrink (a test fails when a listed parameter comes into use, so it is taken off)."""

import yaml
from helpers import REPO

from humeval.config import registry as vocabulary
from humeval.config.studyfile import read_yaml

#: Parameters no study CI runs gives yet (their defaults run, their other values only in unit tests). Shared
#: plumbing (row, column, labels, where, frame, variant, by) is proven through the entries that use it.
NOT_YET_IN_A_RUN = {
    "loader:abc_eval_json": {"likert_key", "comparative_key"},
    "loader:auto_score_workbook": {"column"},
    "loader:qualtrics_survey": {"criteria", "metadata_columns", "criterion_spellings"},
    "loader:surveygizmo_workbook": {"criteria", "metadata_columns", "sheet"},
    "loader:tabular": {"sep", "sheet", "na_values"},
    "metric:choice_ratings": {"order", "draw_probability", "alpha"},
    "metric:group_agreement": {"level"},
    "metric:icc": {"side"},
    "metric:mode_correlation": {"side"},
    "metric:auto_correlation": {"side", "auto_side"},
    "metric:reliability_correlation": {"side"},
    "metric:timing": {"side"},
    "metric:fre_agreement": {"model", "side", "auto_side", "criterion"},
    "metric:effect_size": {"confidence", "method", "seed"},
    "metric:preference_shares": {"scale"},
    "metric:significance": {"pair_on"},
    "metric:krippendorff_alpha_by_batch": {"batch"},
    "exclusion:complete_respondents": {"unit"},
    "exclusion:attention_check": {"unit"},
    "qra:correlation": {"exact_limit", "resamples", "seed"},
    "qra:cv_star_pairwise": {"ci_columns"},
}
PLUMBING = {"row", "column", "labels", "where", "frame", "variant", "by"}


def studies_run_in_ci() -> list[dict]:
    """The shipped studies the main config enables and the .test configuration's studies."""
    shipped = yaml.safe_load((REPO / "config/config.yaml").read_text())["studies"]
    tested = yaml.safe_load((REPO / ".test/config/config.yaml").read_text())["studies"]
    return [read_yaml(REPO / "config/studies" / f"{n}.yaml") for n in shipped] + [
        read_yaml(REPO / ".test/config/studies" / f"{n}.yaml") for n in tested
    ]


def usage() -> tuple[dict, set, set]:
    used: dict[str, set] = {}
    reducers, planning = set(), set()
    for study in studies_run_in_ci():
        for kind, (section, key) in vocabulary.KINDS.items():
            for entry in study.get(section, []):
                given = entry.get("params", {}) if kind in ("loader", "exclusion") else entry
                used.setdefault(f"{kind}:{entry[key]}", set()).update(given)
        reducers |= {d["reduce"] for d in study.get("derived", [])}
        planning |= set(study.get("planning", {}))
    return used, reducers, planning


def test_every_registered_entry_reducer_and_planning_option_runs_in_a_study_ci_runs():
    used, reducers, planning = usage()
    registered = {f"{kind}:{name}" for kind in vocabulary.KINDS for name in vocabulary.entries(kind)}
    assert not sorted(registered - set(used)), f"registered but in no study CI runs: {sorted(registered - set(used))}"
    all_reducers = set(vocabulary.constant("humeval.metrics.derived", "REDUCERS"))
    assert not all_reducers - reducers, f"reducers no study CI runs uses: {sorted(all_reducers - reducers)}"
    schema = yaml.safe_load((REPO / "workflow/schemas/study.schema.yaml").read_text())
    options = set(schema["properties"]["planning"]["properties"])
    assert not options - planning, f"planning options no study CI runs uses: {sorted(options - planning)}"


def test_every_parameter_runs_in_a_study_ci_runs_or_is_listed_as_not_yet():
    used, _, _ = usage()
    unused, now_used = [], []
    for kind in vocabulary.KINDS:
        for name, entry in vocabulary.entries(kind).items():
            key = f"{kind}:{name}"
            listed = NOT_YET_IN_A_RUN.get(key, set())
            for parameter in entry.parameters:
                if parameter.name in PLUMBING or parameter.required:
                    continue
                if parameter.name not in used.get(key, set()) and parameter.name not in listed:
                    unused.append(f"{key}.{parameter.name}")
                if parameter.name in used.get(key, set()) and parameter.name in listed:
                    now_used.append(f"{key}.{parameter.name}")
    assert not unused, f"parameters no study CI runs gives (use one in .test/, with a hand-computed number): {unused}"
    assert not now_used, f"now used in a run: take them off NOT_YET_IN_A_RUN: {now_used}"
