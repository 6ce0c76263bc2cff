"""The tabular loader's joins (:mod:`humeval.loaders.tabular`): a key file of items joined to the judgements by a
column or by the position of each question (``join: {positional: k}``)."""

from __future__ import annotations

import pandas as pd

from humeval.errors import HumevalError
from humeval.loaders.tabular_read import columns_hint, keep_rows, read_table

__all__ = ["joined_with_key", "key_table", "positional_blocks"]


def key_table(inputs: dict, join: dict) -> pd.DataFrame:
    """The key file of ``join: {role, on, columns}``: one row per key value (a key given twice is an error)."""
    if join["role"] not in inputs:
        raise HumevalError(f"join: no input role {join['role']!r} (roles: {sorted(inputs)})")
    path = inputs[join["role"]]
    key = keep_rows(read_table(path, join), join.get("where", {}), path)
    on = join["on"] if isinstance(join["on"], dict) else {join["on"]: join["on"]}
    wanted = [*on.values(), *join.get("columns", [])]
    missing = [c for c in wanted if c not in key.columns]
    if missing:
        raise HumevalError(
            f"join: key file lacks column(s) {missing} ({columns_hint(list(key.columns), missing[0])})", file=path
        )
    key = key[wanted]
    if join.get("duplicates", "error") == "first":  # a key file that lists each item more than once
        key = key.drop_duplicates(list(on.values()), keep="first")
    twice = key.duplicated(list(on.values()))
    if twice.any():
        raise HumevalError(
            f"join: key {key[list(on.values())].iloc[int(twice.to_numpy().argmax())].tolist()} appears twice", file=path
        )
    return key.rename(columns={right: left for left, right in on.items()})


def positional_blocks(inputs: dict, join: dict) -> list[dict]:
    """A key file that lists its questions by position, ``positional`` rows per question in order (a pair's two
    systems, say): per question, ``{<column><j>: value}`` for each of the join's ``columns`` and j = 1..positional,
    which the question's melted header takes (``system: {column: system1}``, ``system_b: {column: system2}``).

    A key file whose rows do not fill whole questions is an error naming it.
    """
    if join["role"] not in inputs:
        raise HumevalError(f"join: no input role {join['role']!r} (roles: {sorted(inputs)})")
    path, size = inputs[join["role"]], int(join["positional"])
    key = keep_rows(read_table(path, join), join.get("where", {}), path).reset_index(drop=True)
    missing = [c for c in join.get("columns", []) if c not in key.columns]
    if missing:
        raise HumevalError(
            f"join: key file lacks column(s) {missing} ({columns_hint(list(key.columns), missing[0])})", file=path
        )
    if len(key) % size:
        raise HumevalError(f"join: {len(key)} rows are not whole questions of {size} rows each", file=path)
    return [
        {f"{c}{j + 1}": key.loc[start + j, c] for c in join.get("columns", []) for j in range(size)}
        for start in range(0, len(key), size)
    ]


def joined_with_key(raw: pd.DataFrame, key: pd.DataFrame, join: dict, path: str) -> pd.DataFrame:
    """``raw`` with the key file's ``columns`` added by the ``on`` columns; a row without its key is an error."""
    on = list(join["on"]) if isinstance(join["on"], dict) else [join["on"]]
    missing = [c for c in on if c not in raw.columns]
    if missing:
        raise HumevalError(
            f"join: no column(s) {missing} to join on ({columns_hint(list(raw.columns), missing[0])})", file=path
        )
    clash = [c for c in join.get("columns", []) if c in raw.columns]
    if clash:
        raise HumevalError(f"join: column(s) {clash} are in the export already", file=path)
    merged = raw.merge(key, on=on, how="left", indicator=True)
    lost = merged["_merge"] != "both"
    if lost.any():
        first = merged[lost].iloc[0]
        raise HumevalError(f"row {first['_row']}: {[first[c] for c in on]} is not in the join's key file", file=path)
    return merged.drop(columns="_merge").set_axis(raw.index)
