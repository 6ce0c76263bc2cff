"""The study file's cell references (:func:`humeval.config.load.check_references` runs them before any job): published
cells, claim operands and p-values, planning findings and pairwise intervals name cells that a declared table has,
a misspelled label named with its closest match; published cells are finite numbers whose notes carry an evidence
class; a metric's statistics, where its parameters name them, land in its table's columns (or rows)."""

from __future__ import annotations

import ast
import math
from string import Formatter

from humeval.config.studyfile import note_of
from humeval.rounding import PRINTED_NUMBER

__all__ = ["cell_problem", "check_cells", "check_claim_cells", "check_metric_cells", "written_stats"]


def cell_problem(tables: dict, table: str, row: str, column: str, path: str) -> str | None:
    """Why ``(table, row, column)`` is no declared cell (with the closest label), or None."""
    import difflib

    if table not in tables:
        return f"key {path}: table {table!r} is not declared ({sorted(tables)})"
    spec = tables[table]
    for what, label, allowed in (("column", column, spec["columns"]), ("row", row, spec.get("rows"))):
        if allowed is not None and str(label) not in [str(a) for a in allowed]:
            close = difflib.get_close_matches(str(label), [str(a) for a in allowed], n=1, cutoff=0.6)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            return f"key {path}: {what} {label!r} is not in table {table!r}{hint}"
    return None


def check_cells(study: dict, fail) -> None:
    """Published cells and claim operands name cells that a declared table has (its columns, and its rows
    where the table lists them), so a misspelled label stops ``snakemake -n`` instead of a later stage."""
    tables = {t["id"]: t for t in study["tables"]}

    def check(table: str, row: str, column: str, path: str) -> None:
        message = cell_problem(tables, table, row, column, path)
        if message:
            fail(message)

    # every published cell that names no declared cell, in one line (a renamed row can make a hundred of them)
    unknown = [
        (path, message)
        for k, block in enumerate(study.get("published", []))
        for row, columns in block["cells"].items()
        for column in columns
        if (
            message := cell_problem(
                tables, block["table"], str(row), str(column), path := f"published.{k}.cells.{row}.{column}"
            )
        )
    ]
    if unknown:
        rest = [path for path, _ in unknown[1:]]
        fail(unknown[0][1] + (f" (and {len(rest)} more cell(s): {', '.join(rest)})" if rest else ""))
    check_published_cells(study, check, fail)
    for k, aggregate in enumerate(study.get("published_aggregates", [])):
        if not aggregate.get("evidence"):
            fail(f"key published_aggregates.{k}: the note needs an evidence class (evidence: explained, ...)")
    for k, entry in enumerate(study.get("qra", [])):
        if entry["type"] == "correlation" and len(entry.get("rows", [])) < 2:
            fail(f"key qra.{k}.rows: a correlation needs two or more measurand rows, got {entry.get('rows', [])}")
        if entry["type"] == "cv_star_pairwise" and entry.get("ci_columns"):
            check_pairwise_intervals(entry, f"qra.{k}", check, fail)
        if entry["type"] == "claims":
            check_claim_cells(study, entry, k, check, fail)
        check_qra_cells(study, entry, f"qra.{k}", check, fail)
    experiments = {e["id"]: e for e in study["experiments"]}
    labels = {e["id"]: e.get("label", e["id"]) for e in study["experiments"]}
    for k, entry in enumerate(study.get("qra3", [])):
        for c, criterion in enumerate(entry["criteria"]):
            evaluated = [  # as humeval.qra.qra3_tables.criterion_experiments: an experiment lacking it is skipped
                e
                for e in entry["experiments"]
                if experiments.get(e, {}).get("criteria") is None or criterion["name"] in experiments[e]["criteria"]
            ]
            check_score_cells(criterion, evaluated, labels, f"qra3.{k}.criteria.{c}.score", check)
    check_planning_cells(study, check, fail)
    check_metric_cells(study, fail)


def written_stats(entry: dict) -> list[str] | None:
    """The statistics a metric entry writes as ``{stat}``, where its parameters determine them: the tests of
    ``k_sample_tests`` (:data:`humeval.stat_names.TEST_STATS`), the method and resamples of
    ``choice_ratings`` (:func:`humeval.stat_names.choice_stats`), else its ``stats`` as given or by
    the registry's default; None for a metric whose statistics depend on the data.

    >>> written_stats({"metric": "k_sample_tests", "tests": ["anova", "kruskal"]})
    ['statistic', 'df_between', 'df_within', 'p']
    >>> written_stats({"metric": "describe", "table": "t", "row": "{system}", "column": "{stat}"})
    ['mean', 'sd']
    """
    from humeval.config.registry import entries

    name = entry["metric"]
    if name == "k_sample_tests":
        from humeval.stat_names import TEST_STATS

        return list(dict.fromkeys(s for test in entry.get("tests", []) for s in TEST_STATS.get(test, ())))
    if name == "choice_ratings":
        from humeval.stat_names import METHOD_STATS, choice_stats

        method, resamples = entry.get("method"), entry.get("resamples", 0)
        return choice_stats(method, resamples) if method in METHOD_STATS and isinstance(resamples, int) else None
    registered = entries("metric").get(name)
    parameter = next((p for p in registered.parameters if p.name == "stats"), None) if registered else None
    if parameter is None:
        return None
    given = entry["stats"] if "stats" in entry else ast.literal_eval(parameter.value or parameter.default)
    return [str(s) for s in given] if isinstance(given, list | tuple) else None


def check_metric_cells(study: dict, fail) -> None:
    """A metric entry whose ``row`` or ``column`` template is ``{stat}`` alone writes a label per statistic it
    computes (:func:`written_stats`, through ``labels.stat``): each must be a column (a row, where the table lists
    rows) of its table, or the audit stops on it after every metric has run (``anova_table``'s ``df_between``,
    TrueSkill's ``conservative``)."""
    from humeval.config.registry import entries

    tables = {t["id"]: t for t in study["tables"]}
    for k, entry in enumerate(study.get("metrics", [])):
        table, registered = tables.get(entry.get("table")), entries("metric").get(entry["metric"])
        if table is None or registered is None:
            continue
        defaults = {p.name: p.default for p in registered.parameters}
        for key in ("row", "column"):
            template = entry.get(key) or (ast.literal_eval(defaults[key]) if defaults.get(key) else None)
            allowed = table.get(f"{key}s") if key == "row" else table["columns"]
            if not isinstance(template, str) or allowed is None:
                continue
            if {field for _, field, _, _ in Formatter().parse(template) if field is not None} != {"stat"}:
                continue
            stats, shown = written_stats(entry), (entry.get("labels") or {}).get("stat") or {}
            missing = [
                (stat, label)
                for stat in stats or []
                if (label := template.format(stat=shown.get(stat, stat))) not in [str(a) for a in allowed]
            ]
            if missing:
                stat, label = missing[0]
                more = f" (and {len(missing) - 1} more: {[m[1] for m in missing[1:]]})" if len(missing) > 1 else ""
                fail(
                    f"key metrics.{k}.{key}: {entry['metric']} writes {label!r} (statistic {stat!r}){more}, which is "
                    f"not a {key} of table {entry['table']!r}: add it to the table's {key}s, or name it with labels.stat"
                )


def check_qra_cells(study: dict, entry: dict, path: str, check, fail) -> None:
    """The cells a QRA entry reads and writes (``cv_star``, ``correlation``, ``cv_star_pairwise``): each measurand
    row in each input's column of the measurand table, each result cell in its table, and the experiments a
    pairwise entry names, so that a misspelled row or column stops ``snakemake -n`` rather than the QRA job."""
    kind = entry["type"]
    if kind in ("cv_star", "correlation"):
        inputs = entry.get("inputs", []) if kind == "cv_star" else [entry.get("x", {}), entry.get("y", {})]
        names = [f"inputs.{i}" for i in range(len(inputs))] if kind == "cv_star" else ["x", "y"]
        for name, spec in zip(names, inputs):
            for row in entry.get("rows", []):
                check(entry["measurand_table"], str(row), str(spec.get("column")), f"{path}.{name}.column")
    if kind == "cv_star":
        written = [("column", entry.get("column", "cv_star")), ("sd_column", entry.get("sd_column"))]
        written += [("ci_columns", column) for column in entry.get("ci_columns") or []]
        for row in entry.get("rows", []):
            for key, column in written:
                if column is not None:
                    check(entry["table"], str(row), str(column), f"{path}.{key}")
    if kind == "correlation":
        methods = entry.get("methods", ["pearson", "spearman"])
        default = {f"{m}.{stat}": [m, stat] for m in methods for stat in ("r", "p", "p_exact")}
        for key, (row, column) in (entry.get("cells") or default).items():
            check(entry["table"], str(row), str(column), f"{path}.cells.{key}")
    if kind == "cv_star_pairwise":
        check_pairwise_cells(study, entry, path, check, fail)


def check_pairwise_cells(study: dict, entry: dict, path: str, check, fail) -> None:
    """A ``cv_star_pairwise`` entry's reference and experiments (experiment ids), the rows it writes (a system
    column each and its summary column) and each experiment's score cells."""
    ids = [e["id"] for e in study["experiments"]]
    for key, named in (("reference", [entry["reference"]]), ("experiments", entry["experiments"])):
        unknown = [e for e in named if e not in ids]
        if unknown:
            fail(f"key {path}.{key}: {unknown} are not experiment ids {ids}")
    for c, criterion in enumerate(entry["criteria"]):
        for experiment in criterion.get("experiments", entry["experiments"]):
            row = f"{criterion.get('name')}|{(entry.get('row_labels') or {}).get(experiment, experiment)}"
            for column in [*criterion.get("systems", []), entry.get("summary_column", "criterion")]:
                check(entry["table"], row, str(column), f"{path}.summary_column")
        experiments = [entry["reference"], *criterion.get("experiments", entry["experiments"])]
        identity = {e: e for e in experiments}
        check_score_cells(criterion, experiments, identity, f"{path}.criteria.{c}.score", check)


def check_score_cells(criterion: dict, experiments: list[str], labels: dict[str, str], path: str, check) -> None:
    """Each experiment's score cell of each system of a QRA3 (or pairwise) criterion, its ``score`` template
    (``{experiment}``, ``{label}``, ``{system}``, overridden per experiment by ``by_experiment``) filled in as
    :func:`humeval.qra.qra3_tables.score_matrix` fills it."""
    score = criterion.get("score", {})
    for experiment in experiments:
        template = {**score, **score.get("by_experiment", {}).get(experiment, {})}
        for system in criterion.get("systems", []):
            fields = {"experiment": experiment, "label": labels.get(experiment, experiment), "system": system}
            cell = {k: str(template.get(k, "")).format(**fields) for k in ("table", "row", "column")}
            check(cell["table"], cell["row"], cell["column"], path)


def check_published_cells(study: dict, check, fail) -> None:
    """Each published cell: a finite number, a note with its evidence class, ``reproduced`` with the variant that
    reproduces it, and that variant a declared cell."""
    for k, block in enumerate(study.get("published", [])):
        check_note_scope(block, f"published.{k}", fail)
        for row, columns in block["cells"].items():
            for column, cell in columns.items():
                path = f"published.{k}.cells.{row}.{column}"
                printed = cell.get("value") if isinstance(cell, dict) else cell
                number = PRINTED_NUMBER.match(str(printed))
                if number and not math.isfinite(float(number["number"])):
                    fail(f"key {path}: {printed!r} is not a finite number")
                cell = cell if isinstance(cell, dict) else {}
                note = note_of(cell, block, str(row), str(column))
                evidence = cell.get("evidence") or block.get("evidence")
                if note and not evidence:
                    fail(
                        f"key {path}: the note needs an evidence class (evidence: reproduced, explained or hypothesis)"
                    )
                if evidence == "reproduced" and not cell.get("variant"):
                    fail(f"key {path}: evidence reproduced needs the variant that reproduces the printed number")
                if cell.get("variant"):
                    v = cell["variant"]
                    check(v["table"], str(v["row"]), str(v["column"]), f"{path}.variant")


def check_note_scope(block: dict, path: str, fail) -> None:
    """A block's ``explains`` names rows and columns of its own cells, and limits a note the block has."""
    scope = block.get("explains")
    if scope is None:
        return
    if not block.get("note"):
        fail(f"key {path}.explains: it limits the block's note to some cells, and the block has no note")
    present = {
        "rows": [str(r) for r in block["cells"]],
        "columns": list(dict.fromkeys(str(c) for columns in block["cells"].values() for c in columns)),
    }
    for key, labels in scope.items():
        absent = [label for label in labels if str(label) not in present[key]]
        if absent:
            fail(f"key {path}.explains.{key}: {absent} are not {key} of the block's cells ({present[key]})")


def check_claim_cells(study: dict, entry: dict, k: int, check, fail) -> None:
    """A claims entry's operands and p-values name declared cells on each side (with ``sides``, the first
    experiment's in the study's order that has numbers: a later one may not measure the claim, and a design-only
    original has none)."""
    labels = {"original": "original", "reproduction": "reproduction", **entry.get("labels", {})}
    if entry.get("sides"):
        check_claim_sides(study, entry, f"qra.{k}", fail)
        measured = [e["id"] for e in study["experiments"] if e["id"] in entry["sides"] and not e.get("design_only")]
        labels = {"first": entry["sides"][measured[0]]} if measured else {}
    for c, claim in enumerate(entry["claims"]):
        for m, comparison in enumerate(claim["comparisons"]):
            for side_key in ("left", "right"):
                operand = comparison[side_key]
                if isinstance(operand, dict):
                    for side in labels.values():
                        cell = {key: str(v).format(side=side) for key, v in operand.items()}
                        path = f"qra.{k}.claims.{c}.comparisons.{m}.{side_key}"
                        check(cell["table"], cell["row"], cell["column"], path)
        if claim.get("significance"):
            for side in labels.values():
                cell = {key: str(v).format(side=side) for key, v in claim["significance"]["p"].items()}
                check(cell["table"], cell["row"], cell["column"], f"qra.{k}.claims.{c}.significance.p")


def check_planning_cells(study: dict, check, fail) -> None:
    """Planning's pilot and labels name experiments, and each planning finding's cells exist for the original (a
    reproduction may not measure every criterion)."""
    planning = study.get("planning", {})
    ids = [e["id"] for e in study.get("experiments", [])]
    for key in ("pilot", *(f"labels.{i}" for i in planning.get("labels", {}) if i not in ("original", "reproduction"))):
        experiment = planning.get(key) if key == "pilot" else key.split(".", 1)[1]
        if experiment is not None and experiment not in ids:
            fail(f"key planning.{key}: {experiment!r} is not an experiment id {ids}")
    first = study.get("experiments", [])[:1]
    labels = planning.get("labels", {})
    sides = {e["id"]: labels.get(e["id"], labels.get("original", e.get("label", e["id"]))) for e in first}
    for f, finding in enumerate(planning.get("findings", [])):
        specs = [
            (f"comparisons.{m}.{k}", c[k]) for m, c in enumerate(finding["comparisons"]) for k in ("left", "right")
        ]
        specs += [("significance.p", finding["significance"]["p"])] if finding.get("significance") else []
        for where, spec in specs:
            if isinstance(spec, dict):
                for side in sides.values():
                    cell = {key: str(v).format(side=side) for key, v in spec.items()}
                    check(cell["table"], cell["row"], cell["column"], f"planning.findings.{f}.{where}")


def check_claim_sides(study: dict, entry: dict, path: str, fail) -> None:
    """A claims entry's ``sides`` name experiments, and its table declares the columns it writes (each id, and
    ``<id>_left``, ``<id>_right``, with ``<id>_p`` where a claim has a test)."""
    ids = [e["id"] for e in study["experiments"]]
    unknown = [i for i in entry["sides"] if i not in ids]
    if unknown:
        fail(f"key {path}.sides: {unknown} are not experiment ids {ids}")
    texts = [str(t) for t in entry["sides"].values()]
    twice = next((t for t in texts if texts.count(t) > 1), None)
    if twice is not None:  # {O: original, R1: original}: R1 would be judged on O's cells
        shared = [i for i, t in entry["sides"].items() if str(t) == twice]
        fail(
            f"key {path}.sides: experiments {shared} both read the cells of {{side}} = {twice!r}: each experiment "
            "names the text of its own cells"
        )
    table = next(t for t in study["tables"] if t["id"] == entry["table"])
    tested = any(claim.get("significance") for claim in entry["claims"])
    needed = [
        f"{i}{suffix}" for i in entry["sides"] for suffix in ("", "_left", "_right", *(("_p",) if tested else ()))
    ]
    missing = [c for c in needed if c not in [str(c) for c in table["columns"]]]
    if missing:
        fail(f"key {path}.sides: the table {entry['table']!r} lacks the column(s) {missing} these claims write")


def check_pairwise_intervals(entry: dict, path: str, check, fail) -> None:
    """The cells a ``cv_star_pairwise`` entry's ``ci_columns`` templates name: one column per system, so each
    template must say ``{system}``, and each cell must be in its table."""
    for template in entry["ci_columns"]:
        if template.replace("{system}", "") == template or "{" in template.replace("{system}", ""):
            fail(f"key {path}.ci_columns: {template!r} must name each system's column with {{system}} and nothing else")
    for experiment in entry["experiments"]:
        label = entry.get("row_labels", {}).get(experiment, experiment)
        for criterion in entry["criteria"]:
            if experiment in criterion.get("experiments", entry["experiments"]):
                for system in criterion["systems"]:
                    for template in entry["ci_columns"]:
                        check(entry["table"], f"{criterion['name']}|{label}", template.format(system=system), path)
