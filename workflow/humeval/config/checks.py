"""The study file's cross-reference checks that a schema cannot express, each a function of the study and a
``fail(message)`` that raises one line naming the file (:func:`humeval.config.load.check_references` runs them all
before any job): experiments, derived frames, conditions, figure labels, parameters read from the code, rater
selection, ids used as values, format strings and budgets; the cells that published numbers, claims and planning
findings name are checked in :mod:`humeval.config.cells`."""

from __future__ import annotations

import difflib
import re

__all__ = [
    "check_budgets",
    "check_conditions",
    "check_derived",
    "check_experiments",
    "check_figure_labels",
    "check_findings_name_a_side",
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
#: a billion asked for 89 GiB. At the bound (measured, CPU s, quiet machine): finch's effect-size bootstrap (BCa,
#: six group pairs) takes 18.1 of its metrics job (2.6 at its 10,000); a QRA correlation's permutation p 0.8 at 9
#: measurands, 2.5 at 100 and 24 at 1,000. The bound is per entry: entries at it add up.
MAX_RESAMPLES = 100_000
#: The most simulations planning may run per design (100,000 once asked for about 14 hours), and the most
#: judgements it may simulate in all: simulations x the judgements of every design of its grid and of
#: ``planning.sizes``, each at most 2 x people x items (every person judging every item under both compared
#: conditions, the design of planning without data). The model simulates about 15 million judgements a CPU
#: second (20 simulations of 1,500 people x 1,500 items planned without data, 90 million judgements: 11.2 s of
#: CPU with scipy's import, on 2 loaded cores), so the budget is about 7 s a job; the largest shipped grid, yao's
#: as its researcher wrote it, is 33 million. Before, only the largest design counted (simulations x the largest
#: evaluators x the largest items, at most 200 million): a grid of many designs, or a stated 3,000 x 3,000 design
#: at twice its count, ran past 4 minutes.
MAX_SIMULATIONS, MAX_SIMULATED_JUDGEMENTS = 5_000, 100_000_000


def simulated_judgements(planning: dict) -> int:
    """The most judgements a ``planning`` block can have the model simulate (see
    :data:`MAX_SIMULATED_JUDGEMENTS`); its default grid, 0.5 to 4 times the pilot's people and items, is bounded
    by the pilot's data, not counted here.

    >>> simulated_judgements({"simulations": 20, "evaluators": [10, 20], "items": [100], "sizes": {"R1": {
    ...     "evaluators": 5, "items": 50}}})
    130000
    """
    from humeval.config.planning import PlanningSettings

    settings = PlanningSettings.of(planning)
    grid = sum(settings.evaluators or ()) * sum(settings.items or ())
    sized = sum(size["evaluators"] * size["items"] for size in settings.sizes.values())
    return settings.simulations * 2 * (grid + sized)


def check_budgets(study: dict, fail) -> None:
    """Resampling and planning within a budget of time and memory, known before any job runs: every ``resamples``
    or ``n_resamples`` of a metric or QRA entry at most :data:`MAX_RESAMPLES`; planning's ``simulations`` at most
    :data:`MAX_SIMULATIONS` and the judgements it simulates at most :data:`MAX_SIMULATED_JUDGEMENTS`."""
    for section in ("metrics", "qra"):
        for k, entry in enumerate(study.get(section, [])):
            for key in ("resamples", "n_resamples"):
                if isinstance(entry.get(key), int) and entry[key] > MAX_RESAMPLES:
                    fail(f"key {section}.{k}.{key}: {entry[key]:,} resamples is over the budget of {MAX_RESAMPLES:,}")
    from humeval.config.planning import PlanningSettings

    planning = study.get("planning", {})
    simulations = PlanningSettings.of(planning).simulations
    if simulations > MAX_SIMULATIONS:
        fail(f"key planning.simulations: {simulations:,} is over the budget of {MAX_SIMULATIONS:,} per design")
    judgements = simulated_judgements(planning)
    if judgements > MAX_SIMULATED_JUDGEMENTS:
        fail(
            f"key planning: simulations x the judgements of every planned design (evaluators x items x 2, summed over "
            f"the grid and planning.sizes) = {judgements:,}, over the budget of {MAX_SIMULATED_JUDGEMENTS:,} "
            "(fewer simulations, evaluators, items or designs)"
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
    from humeval.config.registry import constant

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
    conditions table lists (:data:`humeval.config.conditions.CONDITIONS`), with a close match for a typo."""
    import difflib

    from humeval.config.conditions import CONDITIONS

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
    every one it requires, each of its declared type (:func:`humeval.config.registry.check_entry`: read from the
    signature; a typo gets a close match)."""
    from humeval.config import registry as vocabulary

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


def check_findings_name_a_side(study: dict, fail) -> None:
    """Every finding (a QRA claim or a ``planning.findings`` entry) reads at least one cell whose table, row or
    column names ``{side}``: one that does not reads the same cells in every experiment, so its verdict is one
    verdict copied and no simulation of a pilot changes it (planning showed power 1.0 for such a finding)."""
    places = [
        (f"qra.{k}.claims.{c}", claim)
        for k, entry in enumerate(study.get("qra", []))
        if entry.get("type") == "claims"
        for c, claim in enumerate(entry.get("claims", []))
    ]
    places += [
        (f"planning.findings.{f}", finding) for f, finding in enumerate(study.get("planning", {}).get("findings", []))
    ]
    for path, finding in places:
        cells = [c[k] for c in finding.get("comparisons", []) for k in ("left", "right") if isinstance(c.get(k), dict)]
        cells += [finding["significance"]["p"]] if finding.get("significance") else []
        if cells and not any("{side}" in str(value) for cell in cells for value in cell.values()):
            fail(
                f"key {path} ({finding.get('id')}): no cell it reads names {{side}}, so it reads the same cells in every "
                'experiment and no simulation changes them; write {side} where the experiment goes (row: "O" -> '
                'row: "{side}")'
            )
