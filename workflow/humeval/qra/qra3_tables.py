"""QRA3 tables of a study: Types I-IV at system, criterion and study level for experiments O, R1, ..., Rk.

A ``qra3`` entry of a study config names its experiments, its criteria and, per criterion, where each
experiment's system-level score is (a cell template over the metric values, else the published numbers)
and, for Type III, how an experiment labels an item. It writes:

- ``<table>``: rows ``<Criterion>|<System>`` (Type I), ``<Criterion>|all`` (criterion level: mean CV* of
  the systems; Type II; Type III; Type IV) and ``all|all`` (study level: mean of the criterion CV*s;
  Type IV pooled over all criteria);
- ``<table>_pairwise``: rows ``<Criterion>|<Ei>-<Ej>``, Pearson, Spearman and alpha per experiment pair;
- ``<table>_input``: rows ``<Criterion>|<Experiment>|<System>``, the scores used (``result``), the QRA3
  tool's input, audited against a published input file where there is one;
- the tool's input CSV and config JSON (:func:`tool_input_csv`, :func:`tool_config`).

A cell that needs at least two experiments (or three systems, for a correlation) and has fewer is left
empty, and :func:`qra3_entry` says why in its notes.
"""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pandas as pd

from humeval.errors import HumevalError
from humeval.qra.inputs import cell_value
from humeval.qra.qra3 import (
    finding_agreements,
    item_labels_by_group,
    kendall_w,
    labels_alpha,
    pairwise_correlations,
    type1_measures,
)

__all__ = ["item_labels", "qra3_entry", "score_matrix", "tool_config", "tool_input_csv", "unshared_items"]


def criterion_experiments(entry: dict, criterion: dict, experiments: dict[str, dict]) -> list[str]:
    """The experiments that evaluated ``criterion``: each experiment's ``criteria`` (default: all)."""
    out = []
    for experiment in entry["experiments"]:
        evaluated = experiments[experiment].get("criteria")
        if evaluated is None or criterion["name"] in evaluated:
            out.append(experiment)
    return out


def score_matrix(values, published, criterion: dict, experiments: list[str], labels: dict[str, str]):
    """Experiments x systems scores of one criterion, and the source of each score (``recomputed``, ``missing``
    or ``published <table>/<row>/<column>``, the published cell it was taken from). The ``score`` template
    (``{experiment}``, ``{label}``, ``{system}``) may be overridden per experiment (``by_experiment``)."""
    scores, sources = {}, {}
    for experiment in experiments:
        template = {**criterion["score"], **criterion["score"].get("by_experiment", {}).get(experiment, {})}
        for system in criterion["systems"]:
            fields = {"experiment": experiment, "label": labels[experiment], "system": system}
            cell = {k: str(template[k]).format(**fields) for k in ("table", "row", "column")}
            score, source = cell_value(values, published, **cell)
            scores[(experiment, system)] = score
            sources[(experiment, system)] = (
                f"published {cell['table']}/{cell['row']}/{cell['column']}" if (source == "published") else source
            )
    if all(source == "missing" for source in sources.values()):
        template = criterion["score"]
        raise HumevalError(
            f"QRA3 criterion {criterion.get('name', '')!r}: no experiment has a score at {template['table']}/"
            f"{template['row']}/{template['column']} (neither recomputed nor published): check the template"
        )
    matrix = pd.Series(scores).unstack().reindex(index=experiments, columns=criterion["systems"])
    return matrix, sources


def item_labels(kept: pd.DataFrame, spec: dict, experiments: list[str], labels: dict[str, str]) -> pd.DataFrame:
    """Experiments x items labels of one criterion: per (item, system) the ``rule`` over the item's raters. A
    ``criterion`` (and ``response_type``) that no kept judgement of the experiments has is one line naming what
    they hold: it left Type III empty, silently.

    >>> kept = pd.DataFrame({"criterion": "fluency", "side": "O", "response_type": "rating", "item": "i1",
    ...                      "system": "a", "value": [3]})
    >>> item_labels(kept, {"criterion": "fluncy"}, ["O"], {"O": "O"})
    Traceback (most recent call last):
    humeval.errors.HumevalError: item_labels.criterion 'fluncy': no kept judgement of ['O'] has it (their criteria: ['fluency'])
    """
    part = kept[kept["side"].isin([labels[e] for e in experiments])]
    for key in [k for k in ("criterion", "response_type") if k in spec]:
        chosen = part[key] == spec[key]
        if not chosen.any():
            raise HumevalError(
                f"item_labels.{key} {spec[key]!r}: no kept judgement of {experiments} has it "
                f"(their {'criteria' if key == 'criterion' else 'response types'}: {sorted(part[key].unique())})"
            )
        part = part[chosen]
    part = part.assign(value=pd.to_numeric(part["value"]), unit=part["item"].astype(str) + "|" + part["system"])
    grouped = item_labels_by_group(
        part.set_index(["side", "unit"])["value"], ["side", "unit"], spec.get("rule", "rounded_mean")
    )
    by_label = grouped.unstack("unit")
    return by_label.reindex([labels[e] for e in experiments]).set_axis(experiments)


def unshared_items(labelled: pd.DataFrame) -> list[str]:
    """A line for each experiment whose labelled items no other experiment labels (their item ids do not overlap):
    Type III's alpha pairs labels by item, so such an experiment adds nothing to it, which a reader must be told.

    >>> unshared_items(pd.DataFrame({"i1": [1, 2, None], "i2": [1, None, None], "x9": [None, None, 3]},
    ...                             index=["O", "R1", "R2"]))
    ['Type III: R2 labels 1 item(s), none of them labelled by another experiment (the item ids do not overlap): it adds nothing to alpha']
    """
    present = labelled.notna()
    shared = present & (present.sum(axis=0) >= 2)
    return [
        f"Type III: {experiment} labels {int(present.loc[experiment].sum())} item(s), none of them labelled by another "
        "experiment (the item ids do not overlap): it adds nothing to alpha"
        for experiment in labelled.index
        if present.loc[experiment].any() and not shared.loc[experiment].any()
    ]


def type2_cells(table: str, name: str, matrix: pd.DataFrame, systems: list[str]) -> tuple[list, list[str]]:
    """Type II of one criterion: each pair of experiments' Pearson and Spearman over the systems, and with three
    or more systems their means and Kendall's W; (cells, notes)."""
    cells, notes = [], []
    pairs = pairwise_correlations(matrix)
    for pair in pairs.itertuples():
        cells += [
            (f"{table}_pairwise", f"{name}|{pair.a}-{pair.b}", "pearson", pair.pearson),
            (f"{table}_pairwise", f"{name}|{pair.a}-{pair.b}", "spearman", pair.spearman),
        ]
    if len(systems) >= 3 and pairs[["pearson", "spearman"]].notna().all().all():
        w, p = kendall_w(matrix.to_numpy())
        cells += [
            (table, f"{name}|all", "pearson_mean", float(pairs["pearson"].mean())),
            (table, f"{name}|all", "spearman_mean", float(pairs["spearman"].mean())),
            (table, f"{name}|all", "kendall_w", w),
            (table, f"{name}|all", "kendall_w_p", p),
        ]
    else:
        notes.append(f"{name}: Type II needs three or more systems with varying scores ({len(systems)} systems)")
    return cells, notes


def type3_cells(table, name, spec: dict, entry: dict, kept, included: list[str], labels: dict) -> tuple[list, list]:
    """Type III of one criterion: Krippendorff's alpha of the experiments' item-level labels (``spec``), over all
    of them and per pair; (cells, notes)."""
    cells = []
    labelled = item_labels(kept, spec, included, labels)
    notes = [f"{name}: {line}" for line in unshared_items(labelled)]
    level, domain = spec.get("level", entry.get("level", "ordinal")), spec.get("value_domain")
    alpha = labels_alpha(labelled, level, domain)
    if np.isnan(alpha):
        notes.append(f"{name}: Type III needs two or more experiments labelling the same items")
    else:
        cells.append((table, f"{name}|all", "alpha", alpha))
    for a, b in combinations(included, 2):
        pair_alpha = labels_alpha(labelled.loc[[a, b]], level, domain)
        if not np.isnan(pair_alpha):
            cells.append((f"{table}_pairwise", f"{name}|{a}-{b}", "alpha", pair_alpha))
    return cells, notes


def qra3_entry(values, published, kept, entry: dict, experiments: dict[str, dict]):
    """One QRA3 table: (cells, notes, tool input rows). ``experiments``: id -> config entry (``label``)."""
    labels = {e: experiments[e].get("label", e) for e in experiments}
    scale, over = entry.get("scale_starts_at", 0), entry.get("over_correction", False)
    table, cells, notes, tool_rows = entry["table"], [], [], []
    criterion_cv, pooled_agree, pooled_compared = [], 0, 0
    for c, criterion in enumerate(entry["criteria"]):
        name, systems = criterion["name"], criterion["systems"]
        included = criterion_experiments(entry, criterion, experiments)
        matrix, sources = score_matrix(values, published, criterion, included, labels)
        lacking = [e for e in included if matrix.loc[e].isna().any()]
        if lacking:
            notes.append(f"{name}: {lacking} have no score for every system (no raw data, nothing published): left out")
            included = [e for e in included if e not in lacking]
            matrix = matrix.loc[included]
        for (experiment, system), score in matrix.stack().items():
            cells.append((f"{table}_input", f"{name}|{experiment}|{system}", "result", score))
            tool_rows.append((experiment, system, name, score, sources[(experiment, system)]))
        shift = criterion.get("scale_starts_at", scale)
        correct = criterion.get("over_correction", over)
        if len(included) < 2:
            notes.append(f"{name}: only {included} have scores for it; Types I-IV need two or more experiments")
            continue
        system_cv = []
        for system in systems:
            measures = type1_measures(matrix[system].to_numpy(), shift, correct)
            system_cv.append(measures["cv_star"])
            cells += [(table, f"{name}|{system}", k, v) for k, v in measures.items()]
        cells.append((table, f"{name}|all", "cv_star", float(np.mean(system_cv))))
        criterion_cv.append(float(np.mean(system_cv)))
        more, said = type2_cells(table, name, matrix, systems)
        cells, notes = cells + more, notes + said
        agree, compared = finding_agreements(matrix)
        pooled_agree, pooled_compared = pooled_agree + agree, pooled_compared + compared
        if compared:
            cells.append((table, f"{name}|all", "p_findings", agree / compared))
        else:
            notes.append(f"{name}: Type IV needs two or more systems to order ({len(systems)} system)")
        if "item_labels" in criterion:
            try:
                more, said = type3_cells(table, name, criterion["item_labels"], entry, kept, included, labels)
            except HumevalError as exc:
                raise HumevalError(f"criteria.{c}.{exc}") from None
            cells, notes = cells + more, notes + said
        else:
            notes.append(f"{name}: no item-level labels configured, so no Type III")
    if criterion_cv:
        cells.append((table, "all|all", "cv_star", float(np.mean(criterion_cv))))
    if pooled_compared:
        cells.append((table, "all|all", "p_findings", pooled_agree / pooled_compared))
    return cells, notes, tool_rows


def tool_input_csv(tool_rows: list[tuple], key: str) -> pd.DataFrame:
    """The QRA3 tool's input: ``Key,Study,Experiment,System,Criterion,Result``, ordered by experiment,
    system, criterion (the order of the published inputs)."""
    frame = pd.DataFrame(tool_rows, columns=["Experiment", "System", "Criterion", "Result", "source"])
    order = {column: {v: i for i, v in enumerate(dict.fromkeys(frame[column]))} for column in ("Experiment", "System")}
    frame = frame.sort_values(["Experiment", "System"], key=lambda s: s.map(order[s.name]), kind="stable")
    return frame.assign(Key=key, Study=key)[
        ["Key", "Study", "Experiment", "System", "Criterion", "Result"]
    ].reset_index(drop=True)


def tool_config(entry: dict, experiments: dict[str, dict], key: str) -> dict:
    """The QRA3 tool's config JSON for one entry (scale start, Type III mode and labels, experiments,
    criteria with their over-correction)."""
    config = {
        "scale_starts_at": entry.get("scale_starts_at", 0),
        "type_iii_agreement_method": "auto",
        "type_iii_krippendorff_alpha_mode": entry.get("level", "ordinal"),
        **({"type_iii_ordinal_labels": entry["ordinal_labels"]} if entry.get("ordinal_labels") else {}),
        "experiments": {e: experiments[e].get("citation", e) for e in entry["experiments"]},
        "citation": experiments[entry["experiments"][0]].get("citation", ""),
        "criteria": {
            c.get("key", c["name"]): {
                "map": c["name"],
                "apply_over_correction": c.get("over_correction", entry.get("over_correction", False)),
                "normal_data": True,
            }
            for c in entry["criteria"]
        },
    }
    return {key: config}
