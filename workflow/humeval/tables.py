"""Paper-shaped tables from the audit: CSV (full precision) and Markdown (the paper's precision).

A cell shows the recomputed value where there is one, else the published value. In Markdown a
published-only cell is marked with a dagger and a mismatch with a double dagger; the footnotes say why.
"""

from __future__ import annotations

import pandas as pd

PUBLISHED_MARK = "†"
MISMATCH_MARK = "‡"


def wide_table(audit: pd.DataFrame, table: dict) -> pd.DataFrame:
    """Rows x columns of one table: recomputed value, else published value; index named ``row_header``."""
    part = audit[audit["table"] == table["id"]]
    shown = part["value"].where(part["value"].notna(), part["published"])
    wide = part.assign(shown=shown).pivot(index="row", columns="column", values="shown")
    rows = table.get("rows") or list(dict.fromkeys(part["row"]))
    wide = wide.reindex(
        index=[r for r in rows if r in wide.index], columns=[c for c in table["columns"] if c in wide.columns]
    )
    wide.index.name = table.get("row_header", "row")
    wide.columns.name = None
    return wide


def format_number(value: float, precision: int) -> str:
    """Fixed-point text at ``precision`` decimals; small p-values in scientific notation.

    >>> format_number(23.0, 2), format_number(-8.6667, 2), format_number(1.7e-05, 6), format_number(float('nan'), 2)
    ('23.00', '-8.67', '1.7e-05', '')
    """
    if pd.isna(value):
        return ""
    if value != 0 and abs(value) < 10.0 ** -min(precision, 3) / 2:
        return f"{value:.2g}"
    return f"{value:.{precision}f}"


def markdown_table(audit: pd.DataFrame, table: dict) -> str:
    """The table as GitHub Markdown, values at the paper's precision, with status footnotes.

    With ``significance: {p_suffix, threshold, mark?}`` a recomputed cell is marked (``*``) when the value
    in row ``<row><p_suffix>`` of its column is at or above ``threshold`` (not significant).
    """
    part = audit[audit["table"] == table["id"]].set_index(["row", "column"])
    wide = wide_table(audit, table)
    header = [wide.index.name] + list(wide.columns)
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    footnotes: dict[tuple[str, str], list[str]] = {}
    for row in wide.index:
        cells = [str(row)]
        for column in wide.columns:
            if (row, column) not in part.index:
                cells.append("")
                continue
            cell = part.loc[(row, column)]
            text = format_number(wide.loc[row, column], int(cell["precision"]))
            flag = table.get("significance")
            if flag and pd.notna(cell["value"]) and (f"{row}{flag['p_suffix']}", column) in part.index:
                p = part.loc[(f"{row}{flag['p_suffix']}", column), "value"]
                text += flag.get("mark", "*") if pd.notna(p) and p >= flag["threshold"] else ""
            if cell["status"] == "published_only":
                text += PUBLISHED_MARK
                footnotes.setdefault((PUBLISHED_MARK, f"published only. {cell['note']}"), []).append(
                    f"{row} / {column}"
                )
            elif cell["status"] == "mismatch":
                text += MISMATCH_MARK
                footnotes.setdefault((MISMATCH_MARK, f"differs from the published value. {cell['note']}"), []).append(
                    f"{row} / {column} (recomputed {format_number(cell['value'], int(cell['precision']))}, "
                    f"published {format_number(cell['published'], int(cell['precision']))})"
                )
            cells.append(text)
        lines.append("| " + " | ".join(cells) + " |")
    title = f"**{table['id']}**" + (f": {table['title']}" if table.get("title") else "")
    notes = "".join(f"\n- {mark} {'; '.join(cells)}: {text}" for (mark, text), cells in footnotes.items())
    return f"{title}\n\n" + "\n".join(lines) + "\n" + (f"\nNotes:{notes}\n" if notes else "")


def frame_markdown(frame: pd.DataFrame, decimals: int = 3) -> str:
    """A plain data frame as a GitHub Markdown table (numbers at ``decimals``, text as is, pipes escaped).

    >>> print(frame_markdown(pd.DataFrame({"a": ["x|y"], "b": [0.12345]})))
    | a | b |
    |---|---|
    | x\\|y | 0.123 |
    """

    def cell(value):
        if isinstance(value, float):
            return format_number(value, decimals)
        return str(value).replace("|", "\\|").replace("\n", " ")

    lines = ["| " + " | ".join(map(str, frame.columns)) + " |", "|" + "---|" * len(frame.columns)]
    lines += ["| " + " | ".join(cell(v) for v in row) + " |" for row in frame.itertuples(index=False)]
    return "\n".join(lines)
