"""Conditions of measurement from Human Evaluation Datasheets (HEDS; Shimorina & Belz 2022), side by side.

The HEDS web form saves a JSON object whose keys are ``heds-<section>-<subsection>-<field>``. Each value is
``{"data": {<criterion or "">: value}, "control": {...}, "text": {...}}``: free text is the data itself; a
multiple-choice option is ``<field>-<k>`` with ``data`` true where it is ticked and ``text`` its label
(``"2. non-experts"``), and ``<field>-other_text`` holds what the evaluator wrote beside it. Per-criterion fields
are keyed by the criterion's name; ``heds-criteria-criterion`` lists the criteria (in ``control``).

:func:`read_datasheet` reads a datasheet as far as it goes: an unreadable, oversized or too deeply nested file, a
key of another shape or a value of the wrong type is skipped with a warning naming it, never an error. Only the
fields of :data:`CONDITIONS` (the conditions that matter for QRA, with readable labels) are read, by key: the
section of names, affiliations and email addresses, and every other field, never are; an email address written
into a condition's own text is removed besides, in any spelling the firewall reads
(:func:`humeval.id_firewall.readable`, :data:`humeval.id_firewall.PERSONAL_DATA`).
"""

from __future__ import annotations

import re
from pathlib import Path

from humeval import strict_json
from humeval.config.conditions import CONDITIONS, CRITERIA_KEY

__all__ = ["clean", "conditions_frame", "read_datasheet"]

#: The largest datasheet read (the HEDS form's own are 20-60 kB) and the deepest nesting (the form's is 3).
MAX_BYTES, MAX_DEPTH = 5_000_000, 20
OPTION = re.compile(r"^(?P<field>.+)-(?P<k>\d+)$")


def clean(text) -> str:
    """One line of text, email addresses removed, the option number dropped (``2. non-experts`` -> ``non-experts``).

    >>> clean("2. ask mailto:a%40b.c, a [at] b.c, root@localhost or x＠y.z")
    'ask [email removed], [email removed], [email removed] or [email removed]'
    >>> clean("write to a&#64;b (dot) c")
    'write to [email removed]'
    """
    from humeval.id_firewall import PERSONAL_DATA, readable
    from humeval.patterns import config_pattern

    text = readable(" ".join(str(text).split()))
    email = config_pattern(PERSONAL_DATA["e-mail address"], ignore_case=True)
    return re.sub(r"^\d+\.\s*", "", email.sub("[email removed]", text))


def depth(value, limit: int) -> int:
    """How deeply ``value`` nests (at most ``limit + 1``: counting stops there), without recursion."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        node, level = stack.pop()
        deepest = max(deepest, level)
        if deepest > limit:
            break
        children = node.values() if isinstance(node, dict) else node if isinstance(node, list) else ()
        stack.extend((child, level + 1) for child in children)
    return deepest


def read_datasheet(path: str | Path) -> tuple[dict[str, dict[str, str]], list[str]]:  # noqa: C901 - each malformed part a warning
    """``({field: {criterion or "": text}}, warnings)``: ticked options joined with ``; `` (their other text after
    a colon), free text as given; the personal section skipped. Never raises for a malformed datasheet."""
    warnings: list[str] = []
    name = Path(path).name
    try:
        if Path(path).stat().st_size > MAX_BYTES:
            return {}, [f"{name}: larger than {MAX_BYTES:,} bytes; no conditions read"]
        document = strict_json.loads(Path(path).read_text(encoding="utf-8"))
    except strict_json.DuplicateKey as exc:
        return {}, [f"{name}: {exc}; no conditions read"]
    except RecursionError:
        return {}, [f"{name}: nested more deeply than {MAX_DEPTH} levels; no conditions read"]
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        return {}, [f"{name}: not a readable HEDS JSON ({type(exc).__name__}); no conditions read"]
    if not isinstance(document, dict):
        return {}, [f"{name}: expected a JSON object of heds-... keys; no conditions read"]
    if depth(document, MAX_DEPTH) > MAX_DEPTH:
        return {}, [f"{name}: nested more deeply than {MAX_DEPTH} levels; no conditions read"]
    options: dict[str, dict[str, list[str]]] = {}
    other: dict[str, dict[str, str]] = {}
    free: dict[str, dict[str, str]] = {}
    criteria: list[str] = []
    for key, value in document.items():
        if not isinstance(key, str) or not key.startswith("heds-"):
            warnings.append(f"skipped {str(key)[:60]!r}: not a heds- key")
            continue
        match = OPTION.match(key)
        field = key[: -len("-other_text")] if key.endswith("-other_text") else match["field"] if match else key
        if field not in READ:
            continue  # names, affiliations and emails, and every field no condition needs: never read
        if not isinstance(value, dict) or not isinstance(value.get("data", {}), dict):
            warnings.append(f"skipped {key}: expected {{data: {{...}}}}, got {type(value).__name__}")
            continue
        data = value.get("data", {})
        if key == CRITERIA_KEY:
            control = value.get("control", {})
            criteria = [str(c) for c in (control if isinstance(control, dict) else [])] or [str(c) for c in data]
            continue
        if key.endswith("-other_text"):
            other[key[: -len("-other_text")]] = {str(c): clean(t) for c, t in data.items() if str(t).strip()}
            continue
        if match:
            labels = value.get("text", {}) if isinstance(value.get("text", {}), dict) else {}
            for criterion, ticked in data.items():
                if ticked is True and str(labels.get(criterion, "")).strip():
                    options.setdefault(match["field"], {}).setdefault(str(criterion), []).append(
                        clean(labels[criterion])
                    )
                elif not isinstance(ticked, bool):
                    warnings.append(f"skipped {key} ({criterion}): an option is true or false, not {ticked!r}")
            continue
        free[key] = {str(c): clean(t) for c, t in data.items() if isinstance(t, (str, int, float)) and str(t).strip()}
    values: dict[str, dict[str, str]] = {k: dict(v) for k, v in free.items()}
    for field in set(options) | set(other):
        for criterion in set(options.get(field, {})) | set(other.get(field, {})):
            ticked = "; ".join(options.get(field, {}).get(criterion, []))
            note = other.get(field, {}).get(criterion, "")
            values.setdefault(field, {})[criterion] = f"{ticked}: {note}" if ticked and note else ticked or note
    if criteria:
        values[CRITERIA_KEY] = {"": ", ".join(criteria)}
    return values, warnings


#: The datasheet fields :func:`read_datasheet` reads: those of :data:`CONDITIONS`, no other.
READ = {field for _, field, _ in CONDITIONS}


def condition_rows(values: dict[str, dict[str, str]], criteria: list[str]) -> dict[tuple[str, str], str]:
    """``{(label, HEDS key): text}`` of :data:`CONDITIONS` for one experiment, a per-criterion condition as one
    row per criterion (``Verbatim question | Readability``)."""
    rows = {}
    for label, field, per_criterion in CONDITIONS:
        if per_criterion:
            for criterion in criteria:
                rows[(f"{label} | {criterion}", field)] = values.get(field, {}).get(criterion, "")
        else:
            rows[(label, field)] = values.get(field, {}).get("", "")
    return rows


def normalised(text: str) -> str:
    return " ".join(str(text).casefold().split())


def conditions_frame(study: dict, raw_paths: dict[str, str]):
    """The study's conditions table: one row per condition (``condition``, ``heds_key``), one column per
    experiment (its datasheet, a ``raw`` file named by ``datasheet``, and the conditions its config states by
    hand, which take precedence), and ``differs_from_O`` (the experiments whose stated value differs from O's,
    where both are stated) and ``sources`` (where each stated value comes from: a datasheet, or the source a
    hand-stated condition gives). Returns ``(frame, warnings)``; ``None`` when no experiment states any condition."""
    import pandas as pd

    experiments = study.get("experiments", [])
    if not any(e.get("datasheet") or e.get("conditions") for e in experiments):
        return None, []
    warnings, per_experiment, criteria, sources = [], {}, [], {}
    for experiment in experiments:
        values: dict[str, dict[str, str]] = {}
        if experiment.get("datasheet"):
            path = raw_paths.get(experiment["datasheet"])
            if path is None:
                warnings.append(f"{experiment['id']}: datasheet {experiment['datasheet']!r} was not fetched")
            else:
                read, problems = read_datasheet(path)
                values.update(read)
                sources.update({(experiment["id"], field): f"datasheet {experiment['datasheet']}" for field in read})
                warnings += [f"{experiment['id']}: {p}" for p in problems]
        for field, stated in (experiment.get("conditions") or {}).items():
            value = stated["value"]
            sources[(experiment["id"], field)] = clean(stated["source"])
            values[field] = (
                {str(c): clean(t) for c, t in value.items()} if isinstance(value, dict) else {"": clean(value)}
            )
        listed = values.get(CRITERIA_KEY, {}).get("", "")
        criteria += [c.strip() for c in listed.split(",") if c.strip() and c.strip() not in criteria]
        per_experiment[experiment["id"]] = values
    ids = [e["id"] for e in experiments]
    rows = {e: condition_rows(per_experiment[e], criteria) for e in ids}
    keys = list(rows[ids[0]])
    frame = pd.DataFrame(
        [{"condition": label, "heds_key": field, **{e: rows[e][(label, field)] for e in ids}} for label, field in keys]
    )
    frame["differs_from_O"] = [
        ", ".join(e for e in ids[1:] if row[e] and row[ids[0]] and normalised(row[e]) != normalised(row[ids[0]]))
        for row in frame.to_dict("records")
    ]
    frame["sources"] = [
        "; ".join(f"{e}: {sources[(e, row['heds_key'])]}" for e in ids if row[e] and (e, row["heds_key"]) in sources)
        for row in frame.to_dict("records")
    ]
    return frame, warnings
