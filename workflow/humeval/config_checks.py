"""The study file's cross-reference checks that a schema cannot express, each a function of the study and a
``fail(message)`` that raises one line naming the file (:func:`humeval.config.check_references` runs them all
before any job): published cells and claim operands that name declared cells, experiments, derived frames,
conditions, figure labels, parameters read from the code, rater selection, ids used as values, format strings
and budgets."""

from __future__ import annotations

import difflib
import math
import re

from humeval.rounding import PRINTED_NUMBER

__all__ = [
    "check_budgets",
    "check_cells",
    "check_conditions",
    "check_derived",
    "check_experiments",
    "check_figure_labels",
    "check_format_strings",
    "check_id_as_value",
    "check_parameters",
    "check_qra3",
    "check_rater_selection",
    "check_tally_defaults",
]


def participant_columns(study: dict) -> set[str]:
    """The carried columns a ``tabular`` entry builds from its participant column: they hold pseudonyms (the
    identifier firewall), which change whenever a raw file changes."""
    built = set()
    for entry in study["extract"]:
        params = entry.get("params", {}) or {}
        if entry["loader"] != "tabular" or not isinstance(params.get("participant"), str):
            continue
        for name, spec in (params.get("carry") or {}).items():
            if spec == params["participant"] or spec == [params["participant"]]:
                built.add(name)
    return built


#: The widest a format spec in a config template may pad or cut a value (``{:>12}``, ``{:.4f}``): a label is a few
#: dozen characters; ``{:>300000000}`` once wrote 1.2 GB.
MAX_FORMAT_WIDTH = 100


def format_problem(text: str) -> str | None:
    """What is wrong with a config string used as a ``str.format`` template, or None: a field that reaches into an
    attribute or item (``{side.__class__}``), or a width or precision over :data:`MAX_FORMAT_WIDTH`. A string
    that is no template (a regex with ``{2}``, unbalanced braces) is left to the code that reads it.

    >>> format_problem("{system}|{stat}"), format_problem("{:>300000000}"), format_problem("{side.__class__}")
    (None, 'the format width 300000000 is over 100', "the field 'side.__class__' reaches into an attribute or item")
    """
    import string

    try:
        parts = list(string.Formatter().parse(text))
    except ValueError:
        return None
    for _, field, spec, _ in parts:
        if field and re.search(r"[.\[]", field) and not re.fullmatch(r"[\d,\s]*", field):
            return f"the field {field!r} reaches into an attribute or item"
        for number in re.findall(r"\d+", spec or ""):
            if int(number) > MAX_FORMAT_WIDTH:
                return f"the format width {int(number)} is over {MAX_FORMAT_WIDTH}"
    return None


def check_format_strings(study: dict, fail) -> None:
    """Every string of the study that is a format template is bounded (:func:`format_problem`), whichever key holds
    it: one walk of the whole file, so a new template key is covered without a line here."""
    stack = [("", study)]
    while stack:
        path, value = stack.pop()
        if isinstance(value, dict):
            stack += [(f"{path}.{k}" if path else str(k), v) for k, v in value.items()]
        elif isinstance(value, list):
            stack += [(f"{path}.{k}", v) for k, v in enumerate(value)]
        elif isinstance(value, str) and "{" in value and (problem := format_problem(value)):
            fail(f"key {path}: {problem}")


#: The most resamples any entry may ask for (``resamples``, ``n_resamples``): finch's bootstrap uses 10,000;
#: a billion asked for 89 GiB.
MAX_RESAMPLES = 100_000
#: The most simulations planning may run per design, and the most evaluator-item cells it may simulate in all
#: (simulations x the largest planned evaluators x the largest planned items): yao's grid is 1.4 million, the
#: largest shipped; 100,000 simulations once asked for about 14 hours.
MAX_SIMULATIONS, MAX_PLANNED_CELLS = 5_000, 200_000_000


def check_budgets(study: dict, fail) -> None:
    """Resampling and planning within a budget of time and memory, known before any job runs: every ``resamples``
    or ``n_resamples`` of a metric or QRA entry at most :data:`MAX_RESAMPLES`; planning's ``simulations`` at most
    :data:`MAX_SIMULATIONS` and its grid at most :data:`MAX_PLANNED_CELLS` cells simulated."""
    for section in ("metrics", "qra"):
        for k, entry in enumerate(study.get(section, [])):
            for key in ("resamples", "n_resamples"):
                if isinstance(entry.get(key), int) and entry[key] > MAX_RESAMPLES:
                    fail(f"key {section}.{k}.{key}: {entry[key]:,} resamples is over the budget of {MAX_RESAMPLES:,}")
    planning = study.get("planning", {})
    simulations = planning.get("simulations", 1000)  # the default of both methods (humeval.planning)
    if simulations > MAX_SIMULATIONS:
        fail(f"key planning.simulations: {simulations:,} is over the budget of {MAX_SIMULATIONS:,} per design")
    cells = simulations * max(planning.get("evaluators", [1])) * max(planning.get("items", [1]))
    if cells > MAX_PLANNED_CELLS:
        fail(
            f"key planning: simulations x evaluators x items = {cells:,} evaluator-item cells, over the budget of "
            f"{MAX_PLANNED_CELLS:,} (fewer simulations, evaluators or items)"
        )


def check_tally_defaults(study: dict, fail) -> None:
    """A ``pairwise_tally`` entry that relies on the default statistics while its table has a ``score`` column:
    ``score`` was among the defaults for a while and is opt-in again (the defaults as first shipped), so say what
    to write instead of leaving the column empty."""
    tables = {t["id"]: [str(c) for c in t["columns"]] for t in study["tables"]}
    for k, entry in enumerate(study.get("metrics", [])):
        if entry["metric"] != "pairwise_tally" or "stats" in entry or entry.get("column", "{stat}") != "{stat}":
            continue
        if "score" in tables.get(entry["table"], []):
            fail(
                f"key metrics.{k}.stats: the table {entry['table']!r} has a score column, which pairwise_tally writes "
                "only when asked: add stats: [wins, losses, ties, n, win_pct, bws, bws_scaled, score]"
            )


def check_id_as_value(study: dict, fail) -> None:
    """A tabular entry may not read its participant column as a judged value, a criterion or a system: those
    columns reach every table and figure, where a raw id (or its pseudonym, which changes with the raw files)
    must not stand."""
    for k, entry in enumerate(study["extract"]):
        params = entry.get("params") or {}
        rater = params.get("participant")
        if entry["loader"] != "tabular" or not isinstance(rater, str):
            continue
        used = {
            "value": params.get("value"),
            "criterion": params.get("criterion"),
            "system": params.get("system"),
            "system_b": params.get("system_b"),
            **{f"criteria.{name}": column for name, column in (params.get("criteria") or {}).items()},
        }
        for key, spec in used.items():
            column = spec.get("column") if isinstance(spec, dict) else spec
            if column == rater:
                fail(
                    f"key extract.{k}.params.{key}: {rater!r} is the participant column; a participant id is never a "
                    "value, criterion or system (number raters with rater_number instead)"
                )


def check_rater_selection(study: dict, fail) -> None:
    """A ``where`` that selects raters through a column built from the participant column matched raw ids before
    the identifier firewall and matches nothing since: say what to write instead (their ``rater_number``)."""
    built = participant_columns(study)
    for key in ("metrics", "derived"):
        for k, entry in enumerate(study.get(key, [])):
            for column in set(entry.get("where") or {}) & built:
                fail(
                    f"key {key}.{k}.where.{column}: {column!r} is built from the participant column, which holds "
                    "pseudonyms since the identifier firewall; select raters by number instead: where: "
                    "{rater_number: [1, 2, ...]} (raters numbered in order of first appearance in each side's export)"
                )


def check_derived(study: dict, fail) -> None:
    """Each ``derived`` frame has its own id, reduces ``kept``, ``tidy`` or an earlier derived frame, and names a
    known reducer (:data:`humeval.metrics.derived.REDUCERS`, read from the source)."""
    from humeval.vocabulary import constant

    reducers, known = constant("humeval.metrics.derived", "REDUCERS"), ["kept", "tidy"]
    for k, spec in enumerate(study.get("derived", [])):
        if spec["id"] in known:
            fail(f"key derived.{k}.id: {spec['id']!r} is taken (kept, tidy, or an earlier derived frame)")
        if spec.get("from", "kept") not in known:
            fail(f"key derived.{k}.from: {spec['from']!r} is not kept, tidy or an earlier derived frame ({known})")
        if spec["reduce"] not in reducers:
            fail(f"key derived.{k}.reduce: unknown reducer {spec['reduce']!r}; known: {list(reducers)}")
        known.append(spec["id"])
    columns = judgement_columns(study)
    for k, spec in enumerate(study.get("derived", [])):
        if columns is None or spec.get("from", "kept") not in ("kept", "tidy"):
            continue  # a derived frame of a derived frame has that frame's columns (by and value)
        for key, named in (
            ("by", spec["by"]),
            ("where", list(spec.get("where") or {})),
            ("of", [spec.get("of", "value")]),
        ):
            for column in named:
                if column not in columns:
                    close = difflib.get_close_matches(column, sorted(columns), n=1)
                    fail(
                        f"key derived.{k}.{key}: no column {column!r} in the judgements"
                        + (f"; did you mean {close[0]!r}?" if close else f" ({sorted(columns)})")
                    )


def judgement_columns(study: dict) -> set[str] | None:
    """The columns the tidy judgements will have, where the config alone tells (every ``extract`` entry uses the
    ``tabular`` loader: the tidy columns, ``rater_number``, the carried columns and the slot names); None where
    a study-specific loader adds columns of its own."""
    import re

    from humeval.tidy import JUDGEMENT_COLUMNS

    if any(entry["loader"] != "tabular" for entry in study["extract"]):
        return None
    columns = {*JUDGEMENT_COLUMNS, "rater_number"}
    for entry in study["extract"]:
        params = entry.get("params") or {}
        columns |= set(params.get("carry") or {})
        columns |= set(re.findall(r"\(\?P<(\w+)>", repr(params)))  # a slot pattern's named groups
    return columns


def check_conditions(study: dict, raw_ids: list[str], fail) -> None:
    """An experiment's ``datasheet`` names a raw file, and its hand-stated ``conditions`` name HEDS fields the
    conditions table lists (:data:`humeval.heds.CONDITIONS`), with a close match for a typo."""
    import difflib

    from humeval.heds import CONDITIONS

    fields = [field for _, field, _ in CONDITIONS]
    for k, experiment in enumerate(study["experiments"]):
        if experiment.get("datasheet") and experiment["datasheet"] not in raw_ids:
            fail(f"key experiments.{k}.datasheet: {experiment['datasheet']!r} is not the id of a raw file ({raw_ids})")
        for field in experiment.get("conditions") or {}:
            if field not in fields:
                close = difflib.get_close_matches(field, fields, n=1, cutoff=0.6)
                fail(
                    f"key experiments.{k}.conditions.{field}: not a HEDS field of the conditions table"
                    + (f"; did you mean {close[0]!r}?" if close else f" ({fields})")
                )


def check_figure_labels(study: dict, fail) -> None:
    """A bars figure's ``labels`` name only columns it draws, and a table's ``labels`` only its rows and columns
    (a stray key would silently label nothing)."""
    import difflib

    places = [
        (f"figures.{k}", figure["labels"], [str(c) for c in figure.get("columns", [])], "a column the figure draws")
        for k, figure in enumerate(study.get("figures", []))
        if figure.get("kind") == "bars" and isinstance(figure.get("labels"), dict)
    ] + [
        (
            f"tables.{k}",
            table["labels"],
            [str(c) for c in [table.get("row_header", "row"), *table.get("rows", []), *table["columns"]]],
            "the row header, a row or a column",
        )
        for k, table in enumerate(study.get("tables", []))
        if isinstance(table.get("labels"), dict)
    ]
    for path, labels, shown, what in places:
        for key in labels:
            if str(key) not in shown:
                close = difflib.get_close_matches(str(key), shown, n=1, cutoff=0.6)
                fail(
                    f"key {path}.labels.{key}: not {what} ({shown})"
                    + (f"; did you mean {close[0]!r}?" if close else "")
                )


def check_parameters(study: dict, fail) -> None:
    """Every loader, metric, exclusion, QRA and figure entry gives only the parameters its function declares,
    every one it requires, each of its declared type (:func:`humeval.vocabulary.check_entry`: read from the
    signature; a typo gets a close match)."""
    from humeval import vocabulary

    for kind, (section, key) in vocabulary.KINDS.items():
        known = vocabulary.entries(kind)
        for k, entry in enumerate(study.get(section, [])):
            if entry[key] not in known:
                continue  # the schema's enum or check_references named it
            params_key = "params" if kind in ("loader", "exclusion") else ""
            shown = ("paper", "key") if kind == "figure" else ()  # its name in the paper and its key: drawn apart
            given = entry.get("params", {}) if params_key else _without(entry, key, "description", "id", *shown)
            path = f"{section}.{k}" + (f".{params_key}" if params_key else "")
            frames = {"Frame": {d["id"] for d in study.get("derived", [])}}  # a derived frame is a frame too
            message = vocabulary.check_entry(known[entry[key]], given, path, also=frames)
            if message:
                fail(message + f" ({entry[key]}; see docs/{'loaders' if kind == 'loader' else 'metrics'}.md)")


def _without(entry: dict, *keys: str) -> dict:
    return {k: v for k, v in entry.items() if k not in keys}


def check_cells(study: dict, fail) -> None:  # noqa: C901 - one pass over every published cell and operand
    """Published cells and claim operands name cells that a declared table has (its columns, and its rows
    where the table lists them), so a misspelled label stops ``snakemake -n`` instead of a later stage."""
    import difflib

    tables = {t["id"]: t for t in study["tables"]}

    def problem(table: str, row: str, column: str, path: str) -> str | None:
        if table not in tables:
            return f"key {path}: table {table!r} is not declared ({sorted(tables)})"
        spec = tables[table]
        for what, label, allowed in (("column", column, spec["columns"]), ("row", row, spec.get("rows"))):
            if allowed is not None and str(label) not in [str(a) for a in allowed]:
                close = difflib.get_close_matches(str(label), [str(a) for a in allowed], n=1, cutoff=0.6)
                hint = f"; did you mean {close[0]!r}?" if close else ""
                return f"key {path}: {what} {label!r} is not in table {table!r}{hint}"
        return None

    def check(table: str, row: str, column: str, path: str) -> None:
        message = problem(table, row, column, path)
        if message:
            fail(message)

    # every published cell that names no declared cell, in one line (a renamed row can make a hundred of them)
    unknown = [
        (path, message)
        for k, block in enumerate(study.get("published", []))
        for row, columns in block["cells"].items()
        for column in columns
        if (message := problem(block["table"], str(row), str(column), path := f"published.{k}.cells.{row}.{column}"))
    ]
    if unknown:
        rest = [path for path, _ in unknown[1:]]
        fail(unknown[0][1] + (f" (and {len(rest)} more cell(s): {', '.join(rest)})" if rest else ""))
    for k, block in enumerate(study.get("published", [])):
        for row, columns in block["cells"].items():
            for column, cell in columns.items():
                path = f"published.{k}.cells.{row}.{column}"
                printed = cell.get("value") if isinstance(cell, dict) else cell
                number = PRINTED_NUMBER.match(str(printed))
                if number and not math.isfinite(float(number["number"])):
                    fail(f"key {path}: {printed!r} is not a finite number")
                cell = cell if isinstance(cell, dict) else {}
                note, evidence = cell.get("note") or block.get("note"), cell.get("evidence") or block.get("evidence")
                if note and not evidence:
                    fail(
                        f"key {path}: the note needs an evidence class (evidence: reproduced, explained or hypothesis)"
                    )
                if evidence == "reproduced" and not cell.get("variant"):
                    fail(f"key {path}: evidence reproduced needs the variant that reproduces the printed number")
                if cell.get("variant"):
                    v = cell["variant"]
                    check(v["table"], str(v["row"]), str(v["column"]), f"{path}.variant")
    for k, aggregate in enumerate(study.get("published_aggregates", [])):
        if not aggregate.get("evidence"):
            fail(f"key published_aggregates.{k}: the note needs an evidence class (evidence: explained, ...)")
    for k, entry in enumerate(study.get("qra", [])):
        if entry["type"] == "correlation" and len(entry.get("rows", [])) < 2:
            fail(f"key qra.{k}.rows: a correlation needs two or more measurand rows, got {entry.get('rows', [])}")
        if entry["type"] == "cv_star_pairwise" and entry.get("ci_columns"):
            check_pairwise_intervals(entry, f"qra.{k}", check, fail)
        if entry["type"] != "claims":
            continue
        labels = {"original": "original", "reproduction": "reproduction", **entry.get("labels", {})}
        if entry.get("sides"):
            check_claim_sides(study, entry, f"qra.{k}", fail)
            # the first experiment's cells must exist (a later one may not measure the claim: not measured)
            labels = {"first": next(iter(entry["sides"].values()))}
        for c, claim in enumerate(entry["claims"]):
            for m, comparison in enumerate(claim["comparisons"]):
                for side_key in ("left", "right"):
                    operand = comparison[side_key]
                    if isinstance(operand, dict):
                        for side in labels.values():
                            cell = {key: str(v).format(side=side) for key, v in operand.items()}
                            check(
                                cell["table"],
                                cell["row"],
                                cell["column"],
                                f"qra.{k}.claims.{c}.comparisons.{m}.{side_key}",
                            )
            if claim.get("significance"):
                for side in labels.values():
                    cell = {key: str(v).format(side=side) for key, v in claim["significance"]["p"].items()}
                    check(cell["table"], cell["row"], cell["column"], f"qra.{k}.claims.{c}.significance.p")

    planning = study.get("planning", {})
    ids = [e["id"] for e in study.get("experiments", [])]
    for key in ("pilot", *(f"labels.{i}" for i in planning.get("labels", {}) if i not in ("original", "reproduction"))):
        experiment = planning.get(key) if key == "pilot" else key.split(".", 1)[1]
        if experiment is not None and experiment not in ids:
            fail(f"key planning.{key}: {experiment!r} is not an experiment id {ids}")
    # a finding is the original's: its cells must exist for O (a reproduction may not measure every criterion)
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


def check_experiments(study: dict, fail) -> None:
    """Experiments: unique ids and labels; each has raw data (an extract entry for it) or published numbers
    (a published aggregate of its side or a published block tagged with it); every extract entry feeds a
    declared experiment."""
    ids = [e["id"] for e in study["experiments"]]
    labels = [e.get("label", e["id"]) for e in study["experiments"]]
    for what, names in (("id", ids), ("label", labels)):
        twice = sorted({n for n in names if names.count(n) > 1})
        if twice:
            fail(f"key experiments: experiment {what}(s) {twice} used twice")
    if "O" not in ids:
        fail("key experiments: no original (an experiment with id O)")
    by_label = dict(zip(labels, ids))
    fed = set()
    for k, entry in enumerate(study["extract"]):
        listed = entry.get("experiments")
        if listed is None and entry["side"] not in by_label:
            fail(
                f"key extract.{k}.side: {entry['side']!r} is no experiment's label {labels}; name the experiments it "
                "loads with 'experiments'"
            )
        for experiment in listed if listed is not None else [by_label[entry["side"]]]:
            if experiment not in ids:
                fail(f"key extract.{k}.experiments: {experiment!r} is not an experiment id {ids}")
            fed.add(experiment)
    fed |= {by_label[a["side"]] for a in study.get("published_aggregates", []) if a.get("side") in by_label}
    for k, block in enumerate(study.get("published", [])):
        if "experiment" in block:
            if block["experiment"] not in ids:
                fail(f"key published.{k}.experiment: {block['experiment']!r} is not an experiment id {ids}")
            fed.add(block["experiment"])
    fed |= {e["id"] for e in study["experiments"] if e.get("design_only")}
    for experiment in ids:
        if experiment not in fed:
            fail(
                f"key experiments: experiment {experiment!r} has neither raw data (an extract entry) nor published "
                "numbers (a published aggregate of its side, or a published block with experiment: "
                f"{experiment}); an original known only from its design says design_only: true"
            )


def check_qra3(study: dict, fail) -> None:
    """QRA3 entries: known experiments, at least two; a criterion that a listed experiment did not evaluate
    needs ``missing: skip_experiment``; the tables they add do not clash with declared ones."""
    experiments = {e["id"]: e for e in study["experiments"]}
    for k, entry in enumerate(study.get("qra3", [])):
        unknown = [e for e in entry["experiments"] if e not in experiments]
        if unknown:
            fail(f"key qra3.{k}.experiments: {unknown} are not experiment ids {sorted(experiments)}")
        if len(set(entry["experiments"])) != len(entry["experiments"]):
            fail(f"key qra3.{k}.experiments: an experiment is listed twice")
        for c, criterion in enumerate(entry["criteria"]):
            lacking = [
                e
                for e in entry["experiments"]
                if experiments[e].get("criteria") is not None and criterion["name"] not in experiments[e]["criteria"]
            ]
            if lacking and entry.get("missing") != "skip_experiment":
                fail(
                    f"key qra3.{k}.criteria.{c}: experiment(s) {lacking} did not evaluate {criterion['name']!r}; say "
                    "how to treat that with missing: skip_experiment, or leave them out of experiments"
                )
