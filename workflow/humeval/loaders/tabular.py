"""Generic loader for tabular exports, by config alone: CSV, TSV, XLSX (one sheet), JSON lines and nested JSON,
long or wide.

Every input role of the extract entry is one file, read in role order and stacked (several files per
experiment: batches, annotators); the parameters are those of :func:`load`.

Slot layouts (one row per task, N judged slots per row): with ``shape: melt``, the ``columns`` regex may have
named groups besides ``criterion``/``item``/``system`` (``slot``), and the column specs of ``participant``,
``item``, ``judgement``, ``system``, ``system_b`` and ``carry`` may use them as ``{slot}`` placeholders, filled
per matched header; each row, slot and criterion is one judgement. A pairwise web-app export::

    params:
      shape: melt
      columns: '^(?P<criterion>fluency)(?P<slot>\\d+)$'      # fluency1, fluency2, ...
      participant: PROLIFIC_PID
      item: ['ix{slot}']
      system: {column: 'systema{slot}'}
      system_b: {column: 'systemb{slot}'}
      carry: {output: ['output_a{slot}', 'output_b{slot}']}
      response_type: pairwise
      value_map: {A: 1, B: -1}

One workbook per annotator and a key file of items::

    inputs: {ann1: annotator_ann1, ann2: annotator_ann2, key: item_key}
    params:
      shape: long
      participant: {file_pattern: 'annotator_(\\w+)'}
      item: [item_id]
      join: {role: key, on: item_id, columns: [model]}
      system: {column: model}
      criterion: quality
      value: score

An empty value stays a row with an empty value (the exclusion ``missing_value`` logs and drops it); a value
that is not a number (after ``value_map``) or outside ``scale`` is an error naming the file, row and column.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

import pandas as pd

from humeval.config.registry import register
from humeval.errors import HumevalError, refuse_first
from humeval.id_firewall import scrub_ids
from humeval.loaders.headers import repeated_header
from humeval.loaders.tabular_join import joined_with_key, key_table, positional_blocks
from humeval.loaders.tabular_read import Header, find_column, joined, keep_rows, numeric, read_table
from humeval.patterns import config_pattern
from humeval.tidy import ids_so_far, pseudonyms

__all__ = ["load"]


def system_values(raw: pd.DataFrame, spec, path: str, what: str) -> pd.Series:
    """The system column (renamed by ``map``; an unmapped code is an error) or a constant ``{value}``."""
    if isinstance(spec, dict) and "value" in spec:
        return pd.Series(spec["value"], index=raw.index)
    spec = {"column": spec} if isinstance(spec, str) else spec
    column = find_column(Header(raw), spec, path, what)
    values = raw[column]
    if "map" in spec:
        refuse_first(
            raw,
            ~values.isin(list(spec["map"])),
            lambda r: (
                f"row {r['_row']}, column {column!r}: system {r[column]!r} is not in the config's map "
                f"{sorted(spec['map'])}"
            ),
            path,
        )
        values = values.map(spec["map"])
    return values


def column_or_value(raw: pd.DataFrame, spec, path: str, what: str):
    """A field that may be a column or a constant, saying which: ``{column: x}`` (or ``{pattern: ...}``) the
    column's values, ``{value: x}`` the constant ``x``; a bare string is a constant, unless it names a column of the
    export, where it is refused as ambiguous (``criterion: condition`` was read as the text 'condition' beside
    ``participant: rater``, which names a column)."""
    if isinstance(spec, dict):
        return spec["value"] if "value" in spec else raw[find_column(Header(raw), spec, path, what)]
    if spec is not None and str(spec) in Header(raw):
        raise HumevalError(
            f"{what}: {spec!r} is also a column of the export: write {{column: {spec}}} for the column's values, or "
            f"{{value: {spec}}} for the constant",
            file=path,
        )
    return spec


#: What a carried column holds (``carry_as``): how the personal-data firewall treats it.
CarriedKind = Literal["label", "number", "text"]

#: Names a ``carry`` entry may not take: the loader's own working columns and the tidy table's columns (a carried
#: column of that name would be overwritten or dropped). Read by the config check (humeval.config.load) before any job.
RESERVED_CARRY = {
    "rater": "the loader's raw participant id",
    "rater_number": "a tidy column: each rater's number in order of first appearance per side",
    "_row": "the loader's row number",
    "_judgement": "the loader's judgement key",
    "_file": "the loader's input file",
    "study": "a tidy column",
    "side": "a tidy column",
    "judgement_id": "a tidy column",
    "participant": "a tidy column",
    "item": "a tidy column",
    "criterion": "a tidy column",
    "response_type": "a tidy column",
    "system": "a tidy column",
    "system_b": "a tidy column",
    "value": "a tidy column",
}


def fill(spec, groups: dict, path: str):
    """``spec`` with every ``{name}`` in its strings replaced by the named group of the matched header (a slot
    layout: ``systema{slot}`` names the system column of slot k); a name the header regex lacks is an error."""
    if isinstance(spec, str):
        try:
            return spec.format(**groups) if "{" in spec else spec
        except (KeyError, IndexError, ValueError) as exc:
            raise HumevalError(
                f"column spec {spec!r}: {exc} is not a named group of the columns pattern (groups: {sorted(groups)})",
                file=path,
            ) from None
    if isinstance(spec, list):
        return [fill(s, groups, path) for s in spec]
    if isinstance(spec, dict):  # column specs and carry entries; a map's or a constant's text is data
        return {k: v if k in NOT_COLUMNS else fill(v, groups, path) for k, v in spec.items()}
    return spec


NOT_COLUMNS = ("map", "value", "from", "file_pattern", "part")


def has_placeholder(spec) -> bool:
    """Whether a column spec names a column through a ``{group}`` placeholder (a slot layout)."""
    if isinstance(spec, str):
        return "{" in spec
    if isinstance(spec, list):
        return any(has_placeholder(s) for s in spec)
    if isinstance(spec, dict):
        return any(has_placeholder(v) for k, v in spec.items() if k not in NOT_COLUMNS)
    return False


def participant_values(raw: pd.DataFrame, spec, path: str, role: str) -> pd.Series:
    """The rater: a column spec; or ``{from: file}`` (the file's name without suffix), ``{from: role}`` (the input
    role), ``{file_pattern: regex}`` (the regex's first group on the file name), or a constant ``{value}``, for
    exports with one file per annotator and no annotator column."""
    if isinstance(spec, dict) and ("from" in spec or "file_pattern" in spec or "value" in spec):
        if "value" in spec:
            value = str(spec["value"])
        elif "file_pattern" in spec:
            match = config_pattern(spec["file_pattern"]).search(Path(path).name)
            if not match or not match.groups():
                raise HumevalError(
                    f"participant: file_pattern {spec['file_pattern']!r} finds no group in the file name", file=path
                )
            value = match.group(1)
        elif spec["from"] in ("file", "role"):
            value = Path(path).stem if spec["from"] == "file" else role
        else:
            raise HumevalError(f"participant: from {spec['from']!r} must be file or role", file=path)
        return pd.Series(value, index=raw.index)
    return raw[find_column(Header(raw), spec, path, "participant")]


def base_rows(raw: pd.DataFrame, options: dict, path: str, role: str, salt: tuple[str, str]) -> pd.DataFrame:
    """The columns every judged value of a row shares: participant (the rater's pseudonym, ``salt`` the study and
    side :func:`pseudonyms` key it with), item, row, judgement, system_b, carried columns. An item, judgement or
    carried column built from the participant column holds the same pseudonym, never the raw id; an empty
    participant is an error."""
    columns = Header(raw)
    rater = participant_values(raw, options["participant"], path, role)
    empty = rater.astype(str).str.strip() == ""
    if empty.any():
        raise HumevalError(
            f"row {raw['_row'].iloc[int(empty.to_numpy().argmax())]}: the participant (rater) id is empty; every "
            "judgement needs its rater (drop such rows with where, or name another participant column)",
            file=path,
        )
    participant = pseudonyms(
        rater, salt[0], keyed=f"{salt[1]}:", source=path, case=options.get("participant_case", "refuse")
    )
    source = raw
    spec = options["participant"]
    if not (isinstance(spec, dict) and {"from", "file_pattern", "value"} & set(spec)):
        source = raw.assign(**{find_column(columns, spec, path, "participant"): participant})
    base = pd.DataFrame(
        {
            "participant": participant,
            "item": joined(source, [find_column(columns, c, path, "item") for c in options["item"]]),
            "_row": raw["_row"],
        },
        index=raw.index,
    )
    if "judgement" in options:
        base["_judgement"] = joined(source, [find_column(columns, c, path, "judgement") for c in options["judgement"]])
    if "system_b" in options:
        base["system_b"] = system_values(raw, options["system_b"], path, "system_b")
    for name, spec in options.get("carry", {}).items():
        carried = spec if isinstance(spec, list) else [spec]
        base[name] = joined(source, [find_column(columns, c, path, f"carry {name}") for c in carried])
        if isinstance(spec, dict) and "part" in spec:  # the raw ids in it pseudonymised first: no part of one leaks
            whole = scrub_ids(pd.DataFrame({name: base[name]}), ids_so_far())[name]
            base[name] = text_part(whole, spec["part"], raw["_row"], f"carry {name}", path)
    return base


def text_part(text: pd.Series, pattern: str, rows: pd.Series, what: str, path: str) -> pd.Series:
    """The first group of the regular expression ``pattern`` (RE2, :func:`humeval.patterns.config_pattern`) on each
    value of ``text``, found once per distinct value: a carried column's part of a key (``{column: Input.code,
    part: '^([^#]+)#'}``, the summary of puduppully's ``256#1#0``); a value the pattern does not match, or whose
    group is empty, is an error naming the row."""
    regex = config_pattern(pattern)
    if regex.groups < 1:
        raise HumevalError(f"{what}: part {pattern!r} has no group: write the part to keep in parentheses", file=path)
    distinct = pd.unique(text)
    found = [regex.search(str(value)) for value in distinct]
    parts = {value: (match.group(1) or "") if match else "" for value, match in zip(distinct, found)}
    values = text.map(parts)
    refuse_first(
        pd.DataFrame({"_row": rows, "text": text}),
        values == "",
        lambda r: f"row {r['_row']}, {what}: part {pattern!r} finds nothing in {r['text']!r}",
        path,
    )
    return values


SLOT_KEYS = ("participant", "item", "judgement", "system", "system_b", "carry")


def check_groups_matched(column: str, groups: set[str], names: set[str], options: dict, path: str) -> None:
    """A header the ``columns`` pattern matched gives every named group the layout needs: the criterion (unless the
    params give one) and each group a column spec's ``{placeholder}`` names. An optional group that did not match
    is one line naming the file, the header and the group (not an empty judgement id found later). ``groups``:
    the groups this header gives; ``names``: every named group of the pattern."""
    if "criterion" not in groups and options.get("criterion") is None:
        raise HumevalError(
            f"header {column!r}: the columns pattern's group 'criterion' did not match it and the params give no "
            "criterion",
            file=path,
        )
    needed = {name for key in SLOT_KEYS if key in options for name in placeholders(options[key])}
    unmatched = sorted(needed & (names - groups))
    if unmatched:
        raise HumevalError(
            f"header {column!r}: the columns pattern's group {unmatched[0]!r} did not match it, but a column spec "
            f"names {{{unmatched[0]}}}",
            file=path,
        )


def placeholders(spec) -> set[str]:
    """The ``{name}`` placeholders of a column spec (its strings, lists and dicts, not a map's or a constant's text)."""
    import string

    if isinstance(spec, str):
        return {name for _, name, _, _ in string.Formatter().parse(spec) if name}
    if isinstance(spec, list):
        return set().union(*(placeholders(s) for s in spec)) if spec else set()
    if isinstance(spec, dict):
        return set().union(*(placeholders(v) for k, v in spec.items() if k not in NOT_COLUMNS)) if spec else set()
    return set()


def required(value, key: str, shape: str, path: str):
    """A shape's own parameter: optional in general, required by its shape."""
    if value is None:
        raise HumevalError(f"loader tabular: shape {shape!r} needs the parameter {key!r}", file=path)
    return value


def melted_rows(raw, options, path, role, salt, blocks, base, slotted) -> list[pd.DataFrame]:
    """Shape ``melt``: every header the ``columns`` pattern matches is one judged value per row; its named groups
    say what it holds (criterion, item, system) or fill the column specs' ``{slot}`` placeholders."""
    columns = Header(raw)
    pattern = config_pattern(required(options.get("columns"), "columns", "melt", path), ignore_case=True)
    matched = [(c, pattern.search(c)) for c in columns]
    matched = [(c, m) for c, m in matched if m]
    if not matched:
        raise HumevalError(
            f"no header matches columns pattern {pattern.pattern!r} (first columns: {columns[:8]}; {len(columns)} columns)",
            file=path,
        )
    names = {c for c, _ in matched}
    for first, group in columns.repeated.items():  # x matched but not x.1: one of k columns read as if it were all
        if first in names and not names.issuperset(group):
            repeated_header(columns, first, path, "columns pattern")
    uses_position = "position" in {n for k in SLOT_KEYS if k in options for n in placeholders(options[k])}
    if blocks is not None and len(blocks) != len(matched):
        raise HumevalError(
            f"join: the positional key file lists {len(blocks)} questions, the export has {len(matched)} "
            f"matching headers",
            file=path,
        )
    frames = []
    for position, (column, match) in enumerate(matched, 1):
        groups = {k: v for k, v in match.groupdict().items() if v is not None}
        slots = {k: v for k, v in groups.items() if k not in ("criterion", "item", "system")}
        if uses_position:  # {position}: the header's place among the matched headers (1, 2, ...)
            groups.setdefault("position", str(position))
        if uses_position or blocks is not None:  # each header is a question of its own: one judgement each
            slots.setdefault("position", str(position))
        if blocks is not None:  # the key file's question, and its place as column position
            raw = raw.assign(position=str(position), **blocks[position - 1])
        check_groups_matched(column, set(groups), set(pattern.groupindex), options, path)
        # a slot layout: column specs with {name} placeholders, filled from this header's named groups
        local = {**options, **{k: fill(options[k], groups, path) for k in SLOT_KEYS if k in options}}
        part = base_rows(raw, local, path, role, salt) if slotted or slots else base.copy()
        criterion = groups.get("criterion") or column_or_value(raw, options.get("criterion"), path, "criterion")
        part["criterion"] = criterion
        if groups.get("item"):
            part["item"] = groups["item"]
        part["system"] = (
            groups["system"]
            if groups.get("system")
            else system_values(raw, required(local.get("system"), "system", "melt", path), path, "system")
        )
        if (slots or groups.get("item")) and "judgement" not in options:
            # one judgement per row, slot (or item named by the header) and criterion
            keys = [*slots.values(), *([groups["item"]] if groups.get("item") else [])]
            part["_judgement"] = part["_row"] + f":{'|'.join(keys)}:{criterion}"
        frames.append(part.assign(value=numeric(raw[column], options, raw["_row"], column, path)))
    return frames


def long_rows(
    raw: pd.DataFrame, options: dict, path: str, role: str = "", salt=("", ""), blocks: list[dict] | None = None
) -> pd.DataFrame:
    """One tidy row per judged value, before ids: participant, item, system, criterion, value (+ carried).
    ``blocks``: a positional key file's blocks (:func:`positional_blocks`), the columns the kth melted header
    takes."""
    columns = Header(raw)
    slotted = has_placeholder([options.get(k) for k in SLOT_KEYS])  # a slot layout: built per matched header
    base = None if slotted or blocks is not None else base_rows(raw, options, path, role, salt)
    shape = options.get("shape", "wide")
    frames = []
    if slotted and shape != "melt":
        raise HumevalError(
            f"loader tabular: column specs with {{placeholders}} need shape melt, not {shape!r}", file=path
        )
    if shape == "wide":
        base["system"] = system_values(raw, required(options.get("system"), "system", shape, path), path, "system")
        for criterion, spec in required(options.get("criteria"), "criteria", shape, path).items():
            column = find_column(columns, spec, path, f"criterion {criterion}")
            frames.append(
                base.assign(criterion=criterion, value=numeric(raw[column], options, raw["_row"], column, path))
            )
    elif shape == "long":
        base["system"] = system_values(raw, required(options.get("system"), "system", shape, path), path, "system")
        column = find_column(columns, required(options.get("value"), "value", shape, path), path, "value")
        criterion = required(options.get("criterion"), "criterion", shape, path)
        base["criterion"] = column_or_value(raw, criterion, path, "criterion")
        frames.append(base.assign(value=numeric(raw[column], options, raw["_row"], column, path)))
    elif shape == "melt":
        frames = melted_rows(raw, options, path, role, salt, blocks, base, slotted)
    else:
        raise HumevalError(f"loader tabular: unknown shape {shape!r} (wide, long, melt)", file=path)
    return pd.concat(frames, ignore_index=True)


@register("loader", "tabular")
def load(
    inputs: dict[str, str],
    study: str,
    side: str,
    *,
    participant: str | dict,
    item: list[str | dict],
    participant_case: Literal["refuse", "fold", "exact"] = "refuse",
    shape: Literal["wide", "long", "melt"] = "wide",
    criteria: dict[str, str | dict] | None = None,
    columns: str | None = None,
    criterion: str | dict | None = None,
    value: str | dict | None = None,
    system: str | dict | None = None,
    system_b: str | dict | None = None,
    response_type: Literal["rating", "magnitude", "rank", "pairwise"] = "rating",
    judgement: list[str | dict] | None = None,
    value_map: dict[str, float] | None = None,
    scale: list[float] | None = None,
    where: dict | None = None,
    carry: dict[str, str | list | dict] | None = None,
    carry_as: dict[str, CarriedKind] | None = None,
    join: dict | None = None,
    format: Literal["csv", "tsv", "xlsx", "jsonl", "json"] | None = None,
    records: list[str] | None = None,
    sep: str | None = None,
    sheet: int | str = 0,
    na_values: list[str | int | float] = (),
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Tidy judgements (one row per judged value) and the raters of one or more tabular exports; every input role
    is one export, stacked in role order (but the ``join`` key file). A column spec is a header ``name``,
    ``{column: name}`` or ``{pattern: regex}`` (case-insensitive; exactly one header must match).

    Parameters
    ----------
    participant : str or dict
        The rater (pseudonymised per study and side): a column spec, or ``{from: file}`` (the file name),
        ``{from: role}`` (the input role), ``{file_pattern: regex}`` (its first group on the file name) or a
        constant ``{value}``. An empty rater is an error.
    item : list of str or dict
        The column spec(s) identifying the judged item, joined with ``|``.
    participant_case : {'refuse', 'fold', 'exact'}
        Two rater ids that differ only in letter case: ``refuse`` (one line: whether they are one person depends
        on the platform), ``fold`` (one rater: the platform's ids ignore case, as MTurk's worker ids do) or
        ``exact`` (two raters: they do not, as Qualtrics' response ids).
    shape : {'wide', 'long', 'melt'}
        ``wide``: one column per criterion (``criteria``); ``long``: one row per judged value (``value`` and
        ``criterion``); ``melt``: every header matching ``columns`` is one judged value.
    criteria : dict of str to column spec, optional
        ``wide``: criterion -> the column holding its values.
    columns : str, optional
        ``melt``: a regular expression over the headers; its named groups ``criterion``, ``item`` and ``system``
        say what a header holds, any other group (``slot``) fills ``{slot}`` placeholders in the column specs
        of ``participant``, ``item``, ``judgement``, ``system``, ``system_b`` and ``carry``; ``{position}`` is the
        header's place among the matched ones (1, 2, ...: headers a form repeats, which pandas reads as ``x``,
        ``x.1``, ...).
    criterion : str or dict, optional
        ``long``: the criterion, a constant (``{value: x}``, or a bare string that is no column of the export:
        one that is is refused as ambiguous) or a column spec; ``melt``: the criterion when the header has none.
    value : str or dict, optional
        ``long``: the column spec of the judged value.
    system : str or dict, optional
        The judged system: a column spec with an optional ``map`` ({code in the export: system}; a code it
        lacks is an error), or a constant ``{value}``.
    system_b : str or dict, optional
        ``pairwise``: the second system, as ``system``.
    response_type : {'rating', 'magnitude', 'rank', 'pairwise'}
        What a value is; ``pairwise``: +1 = ``system`` preferred, -1 = ``system_b``, 0 = equal; ``rank``: the rows
        of one ranking share a judgement (``judgement``).
    judgement : list of str or dict, optional
        The column spec(s) identifying one act of judging. Default: the row (and, in a slot layout, the slot).
    value_map : dict of str to float, optional
        Text in the export -> number (``{A: 1, B: -1, equal: 0}``); an unmapped text is an error.
    scale : list of float, optional
        ``[low, high]``: a value outside is an error naming the file, row and column.
    where : dict, optional
        ``{column spec: value or [values]}``: the rows to keep (drop gold questions, say), applied first.
    carry : dict of str to column spec or list, optional
        Tidy column -> the column(s) it copies, joined with ``|`` (not a tidy column's name, nor ``rater``); a
        spec ``{column: x, part: regex}`` copies the regex's first group of each value (the summary ``256`` of an
        item key ``256#1#0``: ``part: '^([^#]+)#'``).
    carry_as : dict of str to {'label', 'number', 'text'}, optional
        What a carried column holds, for the identifier and personal-data firewall at extraction: ``label`` (the
        default: a value from a closed set, refused if it holds an e-mail or IP address), ``number``, or ``text``
        (free text: e-mail and IP addresses, URLs with a query, phone numbers and id-like runs are replaced by
        ``[removed]`` before it leaves extraction).
    join : dict, optional
        ``{role, on, columns, where?, duplicates?}``: input ``role`` is a key file, not an export; each export row
        takes the key file's ``columns`` by the ``on`` column(s) (``{export column: key column}`` when they
        differ); a row whose key is missing is an error. ``where`` keeps the key file's matching rows;
        ``duplicates: first`` keeps the first row of a key listed more than once (default ``error``). With
        ``positional: k`` (``melt`` only) the key file has no key column: it lists its questions in order, k rows
        each, and the kth melted header takes question k's values as columns ``<column>1`` .. ``<column>k`` (and k
        as column ``position``, for ``item: [position]``).
    format : {'csv', 'tsv', 'xlsx', 'jsonl', 'json'}, optional
        The file format. Default: from the file suffix (``.csv``, ``.tsv``/``.tab``, ``.xlsx``,
        ``.jsonl``/``.ndjson``, ``.json``), else CSV.
    records : list of str, optional
        ``json``: the keys leading to the records of a nested export (``[runs, topics, nuggets]``), read as
        :func:`pandas.json_normalize` reads them: one row per record, its nested fields as ``a.b`` columns and the
        fields of each enclosing level carried (``runs.name``, ``runs.topics.id``); ``[]`` (default) for a
        top-level list of records. As strict as JSON lines: numbers kept as written, a key given twice refused.
    sep : str, optional
        The CSV separator, a literal (one or more characters; never a regular expression). Default: a tab for TSV,
        else a comma.
    sheet : int or str
        ``xlsx``: the sheet, by position or name.
    na_values : list of str
        Texts that mean a missing value (an empty cell always does); numbers in JSON lines are compared as
        written.

    Returns
    -------
    judgements, participants : DataFrame
        One row per judged value with the carried columns; one participant per rater (pseudonymised).

    Notes
    -----
    The export becomes a tidy table in Wickham's sense: one row per observation, here one judged value
    (participant, item, criterion, system[, system_b], value), one column per variable. ``wide`` stacks one copy of
    the rows per criterion column, ``long`` renames, ``melt`` parses each matched header into its criterion, item
    and system. Cells are read as text (pandas ``dtype=str``: an id or a code keeps its leading zeros and digits) and
    values are then parsed as numbers, through ``value_map`` where the export writes labels; nothing is imputed (an
    empty cell is a missing value, which ``missing_value`` excludes with its reason). A rater id is pseudonymised
    as it is read (HMAC-SHA256 keyed with the study's raw files, :func:`humeval.tidy.pseudonyms`), so that no
    raw id reaches the tidy table.

    References
    ----------
    Wickham (2014), "Tidy Data", *Journal of Statistical Software* 59(10): 1-23; the pandas readers it calls
    (``read_csv``, ``read_excel``, ``json_normalize``); Krawczyk, Bellare & Canetti (1997), RFC 2104, "HMAC".

    Examples
    --------
    Two raters' fluency and adequacy of one story, one column per criterion (``wide``):

    >>> import pathlib, shutil, tempfile
    >>> from humeval.loaders import extract_study
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> export = folder / "ratings.csv"
    >>> _ = export.write_text("PROLIFIC_PID,story,fluency,adequacy\\nrater-0001,s1,4,5\\nrater-0002,s1,2,\\n")
    >>> params = {"participant": "PROLIFIC_PID", "item": ["story"], "system": {"value": "ours"},
    ...           "criteria": {"fluency": "fluency", "adequacy": "adequacy"}}
    >>> study = {"name": "demo", "raw": [{"id": "export"}],
    ...          "extract": [{"side": "R1", "loader": "tabular", "inputs": {"ratings": "export"}, "params": params}]}
    >>> judgements, raters = extract_study(study, {"export": str(export)})
    >>> judgements[["item", "criterion", "system", "value"]].sort_values(["criterion", "value"]).to_string(index=False)
    'item criterion system  value\\n  s1  adequacy   ours    5.0\\n  s1  adequacy   ours    NaN\\n  s1   fluency   ours    2.0\\n  s1   fluency   ours    4.0'
    >>> len(raters), bool(raters["participant"].str.fullmatch(r"P[0-9a-f]{10}").all())
    (2, True)
    >>> shutil.rmtree(folder)
    """
    given = {
        "participant": participant,
        "item": item,
        "participant_case": participant_case,
        "shape": shape,
        "criteria": criteria,
        "columns": columns,
        "criterion": criterion,
        "value": value,
        "system": system,
        "system_b": system_b,
        "response_type": response_type,
        "judgement": judgement,
        "value_map": value_map,
        "scale": scale,
        "where": where,
        "carry": carry,
        "join": join,
        "format": format,
        "records": records,
        "sep": sep,
        "sheet": sheet,
        "na_values": na_values,
    }
    options = {k: v for k, v in given.items() if v is not None}  # the helpers read an absent option as unset
    if not inputs:
        raise HumevalError("loader 'tabular' needs at least one raw input", study=study)
    response_type = options.get("response_type", "rating")
    join = options.get("join")
    positional = bool(join and join.get("positional"))
    key = key_table(inputs, join) if join and not positional else None
    blocks = positional_blocks(inputs, join) if positional else None
    frames = []
    for role, path in inputs.items():
        if join and role == join["role"]:
            continue
        raw = read_table(path, options)
        repeated = raw.attrs.get("repeated_headers", {})
        raw["_row"] = f"{role}:" + pd.Series(range(2, len(raw) + 2), index=raw.index).astype(str)
        if key is not None:
            raw = joined_with_key(raw, key, join, path)
        raw = keep_rows(raw, options.get("where", {}), path)
        raw.attrs = {"repeated_headers": repeated}  # a join's merge keeps no attrs: the header's repeats, again
        rows = long_rows(raw, options, path, role, (study, side), blocks)
        if "_judgement" not in rows:
            rows["_judgement"] = rows["_row"] + (":" + rows["criterion"].astype(str) if response_type != "rank" else "")
        frames.append(rows.assign(_file=path))
    if not frames:
        raise HumevalError("loader 'tabular' needs an export besides the join's key file", study=study)
    long = pd.concat(frames, ignore_index=True)
    long["judgement_id"] = side + ":" + long["_judgement"].astype(str)
    unique = ["judgement_id", "system"] if response_type == "rank" else ["participant", "item", "criterion", "system"]
    if response_type == "pairwise":
        unique = [*unique, "system_b"]
    duplicated = long.duplicated(unique)
    if duplicated.any():
        first = long[duplicated].iloc[0]
        raise HumevalError(
            f"row {first['_row']}: rater, item {first['item']!r} and system {first['system']!r} appear twice",
            file=first["_file"],
        )
    judgements = long.drop(columns=["_row", "_judgement", "_file"]).assign(
        study=study, side=side, response_type=response_type
    )
    if "system_b" not in judgements:
        judgements["system_b"] = ""
    participants = pd.DataFrame(
        {"study": study, "side": side, "participant": sorted(judgements["participant"].unique())}
    )
    return judgements, participants
