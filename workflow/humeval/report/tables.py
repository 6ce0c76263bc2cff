"""Paper-shaped tables from the audit: CSV (full precision) and Markdown (the paper's precision).

A cell shows the recomputed value where there is one, else the published value. In Markdown values are
rounded by the study's convention (``rounding: half_up``, as most papers print, or ``half_even``); a
published-only cell is marked with a dagger, a mismatch with a double dagger, and a matching cell whose
rounded text differs from the printed number (a value at the rounding boundary) with a section sign; the
footnotes say why.
"""

from __future__ import annotations

import math
import re
from decimal import ROUND_HALF_EVEN, ROUND_HALF_UP

import pandas as pd

from humeval.rounding import quantized

__all__ = [
    "format_number",
    "frame_latex",
    "frame_markdown",
    "latex_table",
    "markdown_table",
    "table_cells",
    "table_heading",
    "table_key",
    "table_name",
    "table_words",
    "wide_table",
]

PUBLISHED_MARK = "†"
MISMATCH_MARK = "‡"
ROUNDING_MARK = "§"
INPUT_MARK = "°"
ROUNDINGS = {"half_up": ROUND_HALF_UP, "half_even": ROUND_HALF_EVEN}


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


def format_number(value: float, precision: int, rounding: str = "half_up") -> str:
    """Fixed-point text at ``precision`` decimals, rounded ``half_up`` (away from zero at a tie, on the decimal
    the value prints as) or ``half_even``; small p-values in scientific notation.

    >>> format_number(23.0, 2), format_number(-8.6667, 2), format_number(1.7e-05, 6), format_number(float('nan'), 2)
    ('23.00', '-8.67', '1.7e-05', '')
    >>> format_number(0.125, 2), format_number(0.125, 2, "half_even")
    ('0.13', '0.12')
    >>> format_number(float("-inf"), 2), format_number(2.75, 32)[-4:], format_number(1e300, 3)[-6:]
    ('-inf', '0000', '00.000')
    """
    if pd.isna(value):
        return ""
    if not math.isfinite(value):  # an infinite statistic (Student's t of two constant groups) prints as such
        return "inf" if value > 0 else "-inf"
    if value != 0 and abs(value) < 10.0 ** -min(precision, 3) / 2:
        return f"{value:.2g}"
    return f"{quantized(value, precision, ROUNDINGS[rounding]):.{precision}f}"


def display_precision(table: dict, row: str, column: str, precision: int) -> int:
    """Decimals a cell is printed with: as the paper printed it (the cell's precision), but never more than the
    table declares for its row or column, so a number read from a full-precision published file prints at the
    table's precision, not as float noise.

    >>> table = {"precision": {"cv_star": 2}}
    >>> display_precision(table, "A", "cv_star", 1), display_precision(table, "A", "cv_star", 14)
    (1, 2)
    """
    declared = table.get("row_precision", {}).get(row, table.get("precision", {}).get(column))
    return min(int(precision), int(declared)) if declared is not None else int(precision)


def table_words(table: dict) -> dict[str, str]:
    """The paper's words for a table's rows and columns (its ``labels``), by key as text: what every page shows in
    place of a key.

    >>> table_words({"id": "table1", "labels": {"cv_star": "CV*", 1: "one"}})
    {'cv_star': 'CV*', '1': 'one'}
    """
    return {str(k): str(v) for k, v in (table.get("labels") or {}).items()}


def table_name(table: dict) -> str:
    """A table as a reader knows it: the paper's name and its id (``Table 1 (table1)``), or its id alone.

    >>> table_name({"id": "table1", "paper": "Table 1"}), table_name({"id": "derived_counts"})
    ('Table 1 (table1)', 'derived_counts')
    """
    paper = table.get("paper")
    return f"{paper} ({table['id']})" if paper and paper != table["id"] else table["id"]


def table_cells(audit: pd.DataFrame, table: dict, rounding: str = "half_up"):
    """The table as printed: (header, rows of (label, [(text, status), ...]), footnotes {(mark, text): [cells]}),
    values at the paper's precision and rounding, marked by status; shared by Markdown and HTML. Rows and columns
    are shown in the paper's words where the table's ``labels`` give them, else by their keys; the row header too,
    else by its parts (``criterion|system`` reads "criterion, system").

    With ``significance: {p_suffix, threshold, mark?}`` a recomputed cell is marked (``*``) when the value
    in row ``<row><p_suffix>`` of its column is at or above ``threshold`` (not significant). With ``compare``
    (the authors' rounding recipe the audit compares by) a recomputed cell is shown rounded by that recipe.
    """
    from humeval.audit import COMPARISONS

    part = audit[audit["table"] == table["id"]].set_index(["row", "column"])
    wide = wide_table(audit, table)
    compare = COMPARISONS[table["compare"]] if table.get("compare") else None
    worded = table_words(table)

    def label(key) -> str:
        return worded.get(str(key), str(key))

    header = [worded.get(str(wide.index.name), str(wide.index.name).replace("|", ", "))]
    header += [label(c) for c in wide.columns]
    rows, footnotes = [], {}
    for row in wide.index:
        cells = []
        for column in wide.columns:
            if (row, column) not in part.index:
                cells.append(("", ""))
                continue
            cell = part.loc[(row, column)]
            digits = display_precision(table, row, column, cell["precision"])
            shown = wide.loc[row, column]
            if compare and pd.notna(cell["value"]) and row not in table.get("row_precision", {}):
                # the authors' rounding recipe for the table's values (e.g. R's 3 significant digits); rows
                # with their own precision (p-values, counts) are shown plainly
                shown = compare(shown, int(cell["precision"]))
            number = format_number(shown, digits, rounding)
            bound = cell["bound"] if "bound" in cell and isinstance(cell["bound"], str) else ""
            # a published-only number printed as a bound is shown as the paper printed it ("< 0.05")
            text = f"{bound} {number}" if bound and pd.isna(cell["value"]) else number
            flag = table.get("significance")
            if flag and pd.notna(cell["value"]) and (f"{row}{flag['p_suffix']}", column) in part.index:
                p = part.loc[(f"{row}{flag['p_suffix']}", column), "value"]
                text += flag.get("mark", "*") if pd.notna(p) and p >= flag["threshold"] else ""
            if cell["status"] == "published_only":
                text += PUBLISHED_MARK
                footnotes.setdefault((PUBLISHED_MARK, f"published only. {cell['note']}"), []).append(
                    f"{label(row)} / {label(column)}"
                )
            elif cell["status"] == "match" and number != format_number(cell["published"], digits, rounding):
                text += ROUNDING_MARK
                footnotes.setdefault(
                    (ROUNDING_MARK, f"matches within half a unit, but rounds ({rounding}) to another printed digit"), []
                ).append(f"{label(row)} / {label(column)} (published {format_number(cell['published'], digits)})")
            elif cell["status"] == "mismatch":
                text += MISMATCH_MARK
                footnotes.setdefault((MISMATCH_MARK, f"differs from the published value. {cell['note']}"), []).append(
                    f"{label(row)} / {label(column)} (recomputed {format_number(cell['value'], digits)}, "
                    f"published {format_number(cell['published'], digits)})"
                )
            elif cell["status"] == "published_input":
                text += INPUT_MARK
                footnotes.setdefault((INPUT_MARK, "a published number used as an input"), []).append(
                    f"{label(row)} / {label(column)} ({cell['note']})"
                )
            cells.append((text, cell["status"]))
        rows.append((label(row), cells))
    return header, rows, footnotes


def markdown_escape(text: str) -> str:
    """Text safe in a GitHub Markdown table cell: pipes, backslashes and inline markup escaped, one line.

    >>> print(markdown_escape("Likert|reproduction"), markdown_escape("a*b_<c>"))
    Likert\\|reproduction a\\*b\\_\\<c\\>
    """
    text = str(text).replace("\\", "\\\\")
    for char in "|*_`[]<>#~":
        text = text.replace(char, "\\" + char)
    return " ".join(text.split())


def table_heading(table: dict) -> str:
    """A table page's heading: how the paper names it (``paper``), then its caption; a table the pipeline derives
    says so.

    >>> table_heading({"id": "table3", "paper": "Table 3", "title": "Rank counts"})
    'Table 3: Rank counts'
    >>> table_heading({"id": "counts", "title": "Judgements per side"})
    'Judgements per side (derived, not a table of the paper)'
    """
    title = table.get("title") or table["id"]
    return f"{table['paper']}: {title}" if table.get("paper") else f"{title} (derived, not a table of the paper)"


def table_key(table: dict) -> str:
    """The table's ``key`` as one sentence below its caption ("" without one).

    >>> table_key({"key": {"Con": "consistent", "Devx": "chatbot developers"}})
    'Key: Con, consistent; Devx, chatbot developers.'
    """
    key = table.get("key") or {}
    return "Key: " + "; ".join(f"{short}, {meaning}" for short, meaning in key.items()) + "." if key else ""


def markdown_table(audit: pd.DataFrame, table: dict, rounding: str = "half_up") -> str:
    """The table as GitHub Markdown (:func:`table_cells`), labels escaped, with status footnotes."""
    header, rows, footnotes = table_cells(audit, table, rounding)
    lines = ["| " + " | ".join(map(markdown_escape, header)) + " |", "|" + "---|" * len(header)]
    for label, cells in rows:
        lines.append("| " + " | ".join([markdown_escape(label)] + [markdown_escape(t) for t, _ in cells]) + " |")
    title = f"**{markdown_escape(table['id'])}**" + (
        f": {markdown_escape(table['title'])}" if table.get("title") else ""
    )
    notes = "".join(
        f"\n- {mark} {markdown_escape('; '.join(cells))}: {markdown_escape(text)}"
        for (mark, text), cells in footnotes.items()
    )
    key = f"\n{markdown_escape(table_key(table))}\n" if table.get("key") else ""
    return f"{title}\n\n" + "\n".join(lines) + "\n" + key + (f"\nNotes:{notes}\n" if notes else "")


#: Characters LaTeX reads as markup, and the status marks, as LaTeX text (the one escaping path of ``.tex`` files).
LATEX_TEXT = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
    "<": r"\textless{}",
    ">": r"\textgreater{}",
    "|": r"\textbar{}",
    PUBLISHED_MARK: r"\textsuperscript{\dag}",
    MISMATCH_MARK: r"\textsuperscript{\ddag}",
    ROUNDING_MARK: r"\textsuperscript{\S}",
    INPUT_MARK: r"\textsuperscript{\textdegree}",
    "≠": r"$\neq$",
}


def latex_escape(text) -> str:
    r"""Text safe in a LaTeX document: every character LaTeX reads as markup written as text, the status marks as
    superscripts, one line; any other character outside ASCII as ``?`` (pdfLaTeX's default encoding has no
    glyph for it, and a raw export's text must not break the build).

    A cell that starts with ``[`` or ``*`` gets an empty group first: after the previous row's ``\\`` it would be
    read as that command's optional argument or star.

    >>> print(latex_escape("Likert|R1 & 50% $x_1$ †"))
    Likert\textbar{}R1 \& 50\% \$x\_1\$ \textsuperscript{\dag}
    >>> print(latex_escape("[2cm] row"), latex_escape("*starred"))
    {}[2cm] row {}*starred
    """
    out = []
    for char in " ".join(str(text).split()):
        out.append(LATEX_TEXT.get(char, char if char.isascii() else "?"))
    escaped = "".join(out)
    return "{}" + escaped if escaped.startswith(("[", "*")) else escaped


def latex_table(audit: pd.DataFrame, table: dict, rounding: str = "half_up") -> str:
    """The table as a LaTeX ``table`` float (:func:`table_cells`): booktabs rules, the paper's precision, the
    status marks (†, ‡, §, °) as superscripts and their footnotes below, every label through :func:`latex_escape`.
    Needs ``\\usepackage{booktabs}``."""
    header, rows, footnotes = table_cells(audit, table, rounding)
    lines = [
        r"\begin{table}[ht]",
        r"\centering",
        r"\caption{"
        + latex_escape(" ".join(filter(None, [table.get("title") or table["id"], table_key(table)])))
        + "}",
        r"\label{tab:" + re.sub(r"[^A-Za-z0-9-]", "-", str(table["id"])) + "}",
        r"\begin{tabular}{l" + "r" * (len(header) - 1) + "}",
        r"\toprule",
        " & ".join(latex_escape(h) for h in header) + r" \\",
        r"\midrule",
    ]
    lines += [" & ".join([latex_escape(label)] + [latex_escape(t) for t, _ in cells]) + r" \\" for label, cells in rows]
    lines += [r"\bottomrule", r"\end{tabular}"]
    if footnotes:
        notes = [
            f"{latex_escape(mark)} {latex_escape('; '.join(cells))}: {latex_escape(text)}"
            for (mark, text), cells in footnotes.items()
        ]
        lines += [r"\par\smallskip\footnotesize", r"\\ ".join(notes)]
    lines.append(r"\end{table}")
    return "\n".join(lines) + "\n"


def frame_latex(frame: pd.DataFrame, caption: str, label: str, decimals: int = 3) -> str:
    """A plain data frame as a LaTeX ``table`` float with booktabs rules (numbers at ``decimals``, text through
    :func:`latex_escape`), for tables that are no paper table (the conditions of measurement)."""

    def cell(value):
        return format_number(value, decimals) if isinstance(value, float) else latex_escape(value)

    body = [" & ".join(cell(v) for v in row) + r" \\" for row in frame.itertuples(index=False)]
    return (
        "\n".join(
            [
                r"\begin{table}[ht]",
                r"\centering",
                r"\caption{" + latex_escape(caption) + "}",
                r"\label{tab:" + re.sub(r"[^A-Za-z0-9-]", "-", label) + "}",
                r"\begin{tabular}{l" + "p{3.5cm}" * (len(frame.columns) - 1) + "}",  # long text wraps
                r"\toprule",
                " & ".join(latex_escape(c) for c in frame.columns) + r" \\",
                r"\midrule",
                *body,
                r"\bottomrule",
                r"\end{tabular}",
                r"\end{table}",
            ]
        )
        + "\n"
    )


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
        return markdown_escape(value)

    lines = ["| " + " | ".join(map(markdown_escape, frame.columns)) + " |", "|" + "---|" * len(frame.columns)]
    lines += ["| " + " | ".join(cell(v) for v in row) + " |" for row in frame.itertuples(index=False)]
    return "\n".join(lines)
