"""Loader for ABC-Eval / DialogueEval JSON evaluations (Finch et al. 2023; Finch, Finch & Choi 2024).

An evaluation is ``{"dialogues": {id: dialogue}, "work_units": {id: unit}}``; a dialogue holds
``likert_annotations[label] = [{work_unit_id, label, score}]`` (score a *string* "1".."5" in the public
files) and ``comparative_annotations[label] = [{work_unit_id, label, dialogue_compared_to_id, score, bot,
bot_compared_to}]``; every pairwise judgement is stored twice, once in each dialogue of the pair, with the
sign negated (checked here). A work unit gives the ``worker_id``.

Inputs: ``likert`` and ``comparative`` (the public student-external files, merged as the authors did:
dialogues of the comparative file, their Likert annotations from the Likert file, work units united),
and optionally ``abc_eval`` (the full ABC-Eval ``data.json``: a project whose evaluations
``dialogue_collection`` and ``surge_evaluation`` hold the groups Stui and Surx).

Sides are evaluator groups: ``groups`` in the params maps a group to ``{workers: [...]}`` (raw worker
ids), ``{pseudonyms: [...]}`` (their pseudonyms, so that configs need not name raw ids), ``{workers:
rest}`` (the public files' other workers) or ``{evaluation: <name in data.json>}``.

Tidy rows keep each stored record, as the authors' analysis does: Likert ``item`` = dialogue id;
pairwise ``item`` = ``<dialogue>|<compared dialogue>`` (one row per orientation), ``pair`` = the two ids
sorted, ``orientation`` = ``primary`` (dialogue id < compared id) or ``mirror``. ``order`` is the
annotation's position in its JSON list and ``label_order`` the label's position in the dialogue, which
fix the row order of the authors' sampler. Worker and work-unit ids are pseudonymised.

Bespoke because the export is nested JSON (dialogues -> annotations -> labels) with mirrored pairwise records and evaluator groups derived from work units, not a table.
"""

from __future__ import annotations

import json

import pandas as pd

from humeval import strict_json
from humeval.config.registry import register
from humeval.errors import HumevalError, refuse_first
from humeval.loaders import require_inputs
from humeval.tidy import pseudonym, pseudonyms

__all__ = ["load", "read_json"]


def read_json(path: str) -> dict:
    try:
        with open(path, encoding="utf-8") as handle:
            return strict_json.load(handle)
    except strict_json.DuplicateKey as exc:
        raise HumevalError(f"not an evaluation: {exc}", file=path) from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise HumevalError(f"not valid UTF-8 JSON: {exc}", file=path) from None
    except RecursionError:  # Python's JSON parser recurses once per level
        raise HumevalError("not an evaluation: the JSON nests too deeply to read", file=path) from None


def evaluation(document: dict, key: str | None, path: str) -> dict:
    """The evaluation under ``key`` (or the single top-level one); checks its two tables."""
    if key is None:
        if len(document) != 1:
            raise HumevalError(f"expected one evaluation at the top level, found {sorted(document)[:5]}", file=path)
        key = next(iter(document))
    if key not in document or not isinstance(document[key], dict):
        raise HumevalError(f"no evaluation {key!r} (top-level keys: {sorted(document)[:8]})", file=path)
    found = document[key]
    for table in ("dialogues", "work_units"):
        if not isinstance(found.get(table), dict):
            raise HumevalError(f"evaluation {key!r} lacks the mapping {table!r}", file=path)
    return found


def records(dialogues: dict, kind: str, path: str) -> list[dict]:
    """One dict per stored annotation of ``kind`` (``likert`` or ``comparative``)."""
    field = f"{kind}_annotations"
    out = []
    for dialogue_id, dialogue in dialogues.items():
        bot = dialogue.get("bot")
        for label_order, (label, stored) in enumerate((dialogue.get(field) or {}).items()):
            for order, annotation in enumerate(stored):
                try:
                    row = {
                        "dialogue": dialogue_id,
                        "bot": bot,
                        "label": label,
                        "label_order": label_order,
                        "order": order,
                        "work_unit": annotation["work_unit_id"],
                        "score": annotation["score"],
                    }
                    if kind == "comparative":
                        row.update(
                            compared=annotation["dialogue_compared_to_id"], bot_compared=annotation["bot_compared_to"]
                        )
                except (KeyError, TypeError) as exc:
                    raise HumevalError(
                        f"dialogue {dialogue_id!r}, {field}[{label!r}][{order}]: missing key {exc}", file=path
                    ) from None
                out.append(row)
    return out


def likert_frame(rows: list[dict], path: str) -> pd.DataFrame:
    frame = pd.DataFrame(rows, columns=["dialogue", "bot", "label", "label_order", "order", "work_unit", "score"])
    scores = pd.to_numeric(frame["score"], errors="coerce")
    bad = ~scores.isin([1, 2, 3, 4, 5])
    if bad.any():
        first = frame[bad].iloc[0]
        raise HumevalError(
            f"dialogue {first['dialogue']!r}, label {first['label']!r}: Likert score {first['score']!r} is not 1..5",
            file=path,
        )
    return frame.assign(score=scores.astype(int))


def comparative_frame(rows: list[dict], path: str) -> pd.DataFrame:
    columns = ["dialogue", "bot", "label", "label_order", "order", "work_unit", "score", "compared", "bot_compared"]
    frame = pd.DataFrame(rows, columns=columns)
    scores = pd.to_numeric(frame["score"], errors="coerce")
    refuse_first(
        frame,
        ~scores.isin([-1, 0, 1]),
        lambda r: (
            f"dialogue {r['dialogue']!r}, label {r['label']!r}: comparative score {r['score']!r} is not -1, 0 or 1"
        ),
        path,
    )
    frame = frame.assign(score=scores.astype(int))
    mirror = frame.merge(
        frame,
        left_on=["work_unit", "label", "dialogue", "compared"],
        right_on=["work_unit", "label", "compared", "dialogue"],
        how="left",
        suffixes=("", "_m"),
    )
    refuse_first(
        mirror,
        mirror["score_m"].isna() | (mirror["score_m"] != -mirror["score"]),
        lambda r: (
            f"comparative judgement of work unit {r['work_unit']!r} on {r['dialogue']!r} vs {r['compared']!r} "
            f"({r['label']}) is not stored mirrored with the sign negated"
        ),
        path,
    )
    return frame


def tidy_rows(
    frame: pd.DataFrame, kind: str, group: pd.Series, workers: pd.Series, study: str, path: str
) -> pd.DataFrame:
    """Tidy judgements of one kind (read from ``path``); ``group``/``workers`` are indexed like ``frame``."""
    participant = pseudonyms(workers, study, prefix="W", source=path)
    work_unit = pseudonyms(frame["work_unit"], study, prefix="U", source=path)
    common = {
        "study": study,
        "side": group,
        "participant": participant,
        "criterion": frame["label"],
        "system": frame["bot"],
        "value": frame["score"],
        "dialogue": frame["dialogue"],
        "label_order": frame["label_order"],
        "order": frame["order"],
        "work_unit": work_unit,
    }
    if kind == "likert":
        return pd.DataFrame(
            {
                **common,
                "judgement_id": work_unit + ":" + frame["label"] + ":" + frame["dialogue"],
                "item": frame["dialogue"],
                "response_type": "rating",
                "system_b": "",
                "category": "likert",
                "pair": "",
                "orientation": "",
            }
        )
    primary = frame["dialogue"] < frame["compared"]
    pair = (
        frame["dialogue"].where(primary, frame["compared"]) + "|" + frame["compared"].where(primary, frame["dialogue"])
    )
    return pd.DataFrame(
        {
            **common,
            "judgement_id": work_unit + ":" + frame["label"] + ":" + frame["dialogue"] + "|" + frame["compared"],
            "item": frame["dialogue"] + "|" + frame["compared"],
            "response_type": "pairwise",
            "system_b": frame["bot_compared"],
            "category": "pairwise",
            "pair": pair,
            "orientation": primary.map({True: "primary", False: "mirror"}),
        }
    )


@register("loader", "abc_eval_json")
def load(
    inputs: dict[str, str],
    study: str,
    side: str,
    *,
    groups: dict[str, dict],
    likert_key: str | None = None,
    comparative_key: str | None = None,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Tidy judgements of every configured evaluator group (``side`` is unused: groups are the sides); input
    roles ``likert``, ``comparative`` and optionally ``abc_eval`` (see the module docstring).

    Parameters
    ----------
    groups : dict of str to dict
        Evaluator group (its side) -> who is in it: ``{workers: [raw ids]}``, ``{pseudonyms: [...]}`` (so that
        a config need not name raw ids), ``{workers: rest}`` (every other worker of the public files) or
        ``{evaluation: <name in data.json>}``. A worker in no group is an error unless a group takes the rest.
    likert_key, comparative_key : str, optional
        The evaluation to read in the ``likert`` and ``comparative`` files. Default: the file's single
        top-level evaluation.

    Returns
    -------
    judgements, participants : DataFrame
        One row per stored annotation: Likert rows (``item`` = dialogue) and pairwise rows (``item`` =
        ``<dialogue>|<compared dialogue>``) with ``pair``, ``orientation``, ``order``, ``label_order`` and
        ``work_unit``; one participant per worker and group (pseudonymised) with ``work_units``.

    Notes
    -----
    A Likert score is an integer 1..5; a comparative score s of dialogue d against d' is -1, 0 or 1 and is stored
    twice, as (d, d', s) and (d', d, -s): the loader checks that every record has its mirror with the sign negated
    and keeps both, ``orientation`` telling them apart (``primary`` where d < d'), as the authors' analysis keeps
    every stored record. A worker is the ``worker_id`` of the annotation's work unit, pseudonymised; a
    group given by ``pseudonyms`` selects the same workers in any copy of the study whose raw files are the same.

    References
    ----------
    Finch, Finch & Choi (2023), "Don't Forget Your ABC's: Evaluating the State-of-the-Art in Chat-Oriented Dialogue
    Systems", *ACL 2023*; Finch, Finch & Choi (2024), "Exploring the Impact of Human Evaluator Group on
    Chat-Oriented Dialogue Evaluation", *LREC-COLING 2024* (the files and groups this reads).

    Examples
    --------
    A Likert score of dialogue d1 and one comparison of d1 (bart) with d2 (blender), stored in both dialogues:

    >>> import json, pathlib, shutil, tempfile
    >>> from humeval.loaders import extract_study
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> likert = {"e": {"work_units": {"u1": {"worker_id": "w-0001"}}, "dialogues": {
    ...     "d1": {"bot": "bart", "likert_annotations": {"quality": [{"work_unit_id": "u1", "score": "4"}]}}}}}
    >>> def compared(other, bot, score):
    ...     return [{"work_unit_id": "u2", "score": score, "dialogue_compared_to_id": other, "bot_compared_to": bot}]
    >>> comparative = {"e": {"work_units": {"u2": {"worker_id": "w-0001"}}, "dialogues": {
    ...     "d1": {"bot": "bart", "comparative_annotations": {"quality": compared("d2", "blender", 1)}},
    ...     "d2": {"bot": "blender", "comparative_annotations": {"quality": compared("d1", "bart", -1)}}}}}
    >>> for name, document in (("likert", likert), ("comparative", comparative)):
    ...     _ = (folder / f"{name}.json").write_text(json.dumps(document))
    >>> study = {"name": "demo", "raw": [{"id": "likert"}, {"id": "comparative"}], "extract": [{"side": "Stux",
    ...     "loader": "abc_eval_json", "inputs": {"likert": "likert", "comparative": "comparative"},
    ...     "params": {"groups": {"Stux": {"workers": "rest"}}}}]}
    >>> judgements, workers = extract_study(study, {n: str(folder / f"{n}.json") for n in ("likert", "comparative")})
    >>> judgements[["side", "item", "system", "system_b", "value", "orientation"]].to_string(index=False)
    'side  item  system system_b  value orientation\\nStux    d1    bart               4            \\nStux d1|d2    bart  blender      1     primary\\nStux d2|d1 blender     bart     -1      mirror'
    >>> workers["work_units"].tolist()
    [2]
    >>> shutil.rmtree(folder)
    """
    require_inputs(inputs, ["likert", "comparative"], "abc_eval_json", study)
    likert_doc = evaluation(read_json(inputs["likert"]), likert_key, inputs["likert"])
    comparative_doc = evaluation(read_json(inputs["comparative"]), comparative_key, inputs["comparative"])
    work_units = {**likert_doc["work_units"], **comparative_doc["work_units"]}
    dialogues = comparative_doc["dialogues"]
    likert_source = {d: likert_doc["dialogues"][d] for d in dialogues if d in likert_doc["dialogues"]}
    sources = [
        (
            "public",
            likert_source,
            dialogues,
            work_units,
            {"likert": inputs["likert"], "comparative": inputs["comparative"]},
        )
    ]
    if inputs.get("abc_eval"):
        project = read_json(inputs["abc_eval"])
        for name, spec in groups.items():
            if "evaluation" in spec:
                found = evaluation(project, spec["evaluation"], inputs["abc_eval"])
                sources.append(
                    (
                        name,
                        found["dialogues"],
                        found["dialogues"],
                        found["work_units"],
                        {"likert": inputs["abc_eval"], "comparative": inputs["abc_eval"]},
                    )
                )

    def members(spec: dict) -> set:
        raw = spec.get("workers") if isinstance(spec.get("workers"), list) else []
        return {pseudonym(w, study, prefix="W") for w in raw} | set(spec.get("pseudonyms", []))

    listed = {name: members(spec) for name, spec in groups.items()}
    rest = [name for name, spec in groups.items() if spec.get("workers") == "rest"]
    frames = []
    for source, likert_dialogues, comparative_dialogues, units, paths in sources:
        for kind, dialogues_of_kind, build in (
            ("likert", likert_dialogues, likert_frame),
            ("comparative", comparative_dialogues, comparative_frame),
        ):
            path = paths[kind]
            frame = build(records(dialogues_of_kind, kind, path), path)
            unknown = ~frame["work_unit"].isin(list(units))
            if unknown.any():
                raise HumevalError(
                    f"work unit {frame.loc[unknown, 'work_unit'].iloc[0]!r} is not in work_units", file=path
                )
            workers = frame["work_unit"].map({u: unit["worker_id"] for u, unit in units.items()})
            if source == "public":
                named = pseudonyms(workers, study, prefix="W", source=path)
                group = named.map(lambda p: next((g for g, m in listed.items() if p in m), rest[0] if rest else None))
                if group.isna().any():
                    raise HumevalError(
                        f"worker {named[group.isna()].iloc[0]!r} (pseudonym) belongs to no "
                        "configured group, and no group takes the rest",
                        file=path,
                    )
            else:
                group = pd.Series(source, index=frame.index)
            frames.append(tidy_rows(frame, kind, group, workers, study, path))
    judgements = pd.concat(frames, ignore_index=True)
    participants = judgements.groupby(["study", "side", "participant"], as_index=False).agg(
        work_units=("work_unit", "nunique")
    )
    return judgements, participants
