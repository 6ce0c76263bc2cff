"""The audit and the paper tables as self-contained HTML pages, readable inline in the Snakemake report.

Snakemake's report shows HTML inline and a CSV only as a download. Each page is one file with its own style and
a few lines of script (no network): click a column header to sort, type in the box to filter rows, pick a
status to show only those cells, 100 rows a page, and a link that downloads the CSV the workflow wrote (its
bytes, embedded). Every text that reaches a page (labels from the config, raw text, notes) is escaped with
:func:`html.escape`, so no string of a config or an export can add markup or script to it.

Why not ``itables`` (DataTables) in its offline mode: each page would embed its 618,633-byte bundle
(``itables/html/dt_bundle.js`` of itables 2.9.1); the report holds 92 such pages, each base64-encoded twice (the
page, then the report), so the report would grow from 7.3 MB by about 100 MB, for sorting, filtering and paging
that the 20 lines of :data:`SCRIPT` do.
"""

from __future__ import annotations

import base64
import html
import re
from pathlib import Path

import pandas as pd

from humeval.intermediate import PRINTED
from humeval.report.tables import format_number, table_cells, table_heading, table_key

__all__ = [
    "EVIDENCE",
    "EVIDENCE_WORDS",
    "PAGE_ROWS",
    "STATUSES",
    "STYLE",
    "audit_html",
    "claims_rows",
    "escape",
    "findings_rows",
    "frame_html",
    "interval",
    "joined",
    "power_rows",
    "qra3_rows",
    "table_html",
]

EVIDENCE = re.compile(r"^\[(\w+)\]\s*")
STATUSES = ("match", "mismatch", "published_only", "recomputed_only", "published_input")
#: The order a reviewer reads an audit in: what differs, what could not be checked, then the rest.
READING_ORDER = ("mismatch", "published_only", "published_input", "match", "recomputed_only")
#: The evidence classes of a diagnosis (docs/audit.md), in words: the audit and table pages' legend, the verdict card.
EVIDENCE_WORDS = {
    "reproduced": "the paper computed it otherwise: a published-mode variant gives the printed number",
    "explained": "it cannot be recomputed from the public data (the evidence is given)",
    "hypothesis": "a plausible cause, not verified",
}
#: The legend below every audit and table page: what each status colour and each evidence class means.
LEGEND = [
    (
        "Status: green match (recomputed, equal to the printed number at its precision), red mismatch (differs: its "
        "note says why), yellow published only (no raw data or no measure recomputes it), blue published input (a "
        "printed number used as an input), no colour recomputed only (the paper printed none)."
    ),
    *(f"Evidence {name}: {words}." for name, words in EVIDENCE_WORDS.items()),
]
#: Beyond this many columns a table is set smaller, so that 32 columns of two-decimal numbers fit a 1280-pixel window.
WIDE_COLUMNS = 24
#: Rows a page shows at once.
PAGE_ROWS = 100
#: The audit's columns (table, row, column, value, published, status, evidence, note) as shares of the page, in a
#: fixed layout: the note readable beside the numbers in the report's 925-pixel pane at 1280x800 (it was 1,009 to
#: 1,456 pixels wide, the notes past the pane's right edge).
AUDIT_WIDTHS = (10, 11, 12, 9, 9, 11, 10, 28)
#: A long text's column (``td.note``) is held at least 22rem wide, readable beside the numbers, or 15% of the window
#: where that is less, so that two of them (a finding's text and its power's note) leave room for the numbers: in
#: headless Chromium, the findings summary's table was 1,491 px wide at the 925 px pane of 1280x800 and 1,503 px (its
#: box 1,503) at 1920x1080, the claims summary's 1,774 px at both; 33 of 187 pages scrolled sideways in their box at
#: 925 px and 4 at 1565 px, against 23 and 2 at 15% (min(22rem,18vw): 29 and 3).
STYLE = """
body{font-family:system-ui,sans-serif;margin:1rem;color:#1f2937}
h1{font-size:1.2rem;margin:0 0 .3rem}p{margin:.2rem 0 .6rem;max-width:60rem}
table{border-collapse:collapse;font-size:.85rem}th,td{border:1px solid #d1d5db;padding:.2rem .45rem;vertical-align:top}
th{background:#f3f4f6;cursor:pointer;position:sticky;top:0}td.num{text-align:right;font-variant-numeric:tabular-nums}
tr.match td.status,td.match{background:#dcfce7}tr.mismatch td.status,td.mismatch{background:#fee2e2}
tr.published_only td.status,td.published_only{background:#fef9c3}tr.published_input td.status,td.published_input{background:#e0e7ff}
tr.recomputed_only td.status,td.recomputed_only{background:#f9fafb}.controls{margin:.4rem 0}
.controls input,.controls select,.controls button{font-size:.85rem;margin-right:.5rem}ul.notes{font-size:.85rem;max-width:60rem}
table.audit{width:100%;font-size:.8rem}td.note{min-width:min(22rem,15vw);white-space:normal}.controls a{font-size:.85rem;margin-left:.5rem}
table.wide{font-size:.72rem}table.wide th,table.wide td{padding:.15rem .25rem}table.fit{table-layout:fixed;width:100%}table.fit td,table.fit th{overflow-wrap:anywhere}table.fit td.note{min-width:0}
.scroll{overflow:auto;max-height:calc(100vh - 2rem);max-width:100%}
.scroll td:first-child,.scroll th:first-child{position:sticky;left:0;background:#fff;z-index:1}.scroll th:first-child{background:#f3f4f6;z-index:2}
"""
SCRIPT = """
const table=document.querySelector("table.data"),rows=[...table.tBodies[0].rows],size=PAGE_ROWS;let first=0;
const info=document.getElementById("info"),prev=document.getElementById("prev"),next=document.getElementById("next");
function apply(){const q=document.getElementById("filter").value.toLowerCase(),s=document.getElementById("status");
const want=s?s.value:"";const shown=rows.filter(r=>r.textContent.toLowerCase().includes(q)&&(!want||r.dataset.status.split(" ").includes(want)));
first=Math.max(0,Math.min(first,shown.length-1));first-=first%size;rows.forEach(r=>{r.hidden=true});
shown.slice(first,first+size).forEach(r=>{r.hidden=false});
info.textContent=shown.length>size?`rows ${first+1}-${Math.min(first+size,shown.length)} of ${shown.length}`:`${shown.length} rows`;
prev.hidden=next.hidden=shown.length<=size;prev.disabled=first===0;next.disabled=first+size>=shown.length;}
document.getElementById("filter").addEventListener("input",()=>{first=0;apply()});
const sel=document.getElementById("status");if(sel)sel.addEventListener("change",()=>{first=0;apply()});
prev.addEventListener("click",()=>{first-=size;apply()});next.addEventListener("click",()=>{first+=size;apply()});
[...table.tHead.rows[0].cells].forEach((th,i)=>th.addEventListener("click",()=>{const up=th.dataset.dir!=="up";
th.dataset.dir=up?"up":"down";const key=r=>{const t=r.cells[i].dataset.sort??r.cells[i].textContent;const n=parseFloat(t);
return isNaN(n)?t:n};rows.sort((a,b)=>{const x=key(a),y=key(b);return (x<y?-1:x>y?1:0)*(up?1:-1)});
rows.forEach(r=>table.tBodies[0].appendChild(r));first=0;apply()}));
apply();
""".replace("PAGE_ROWS", str(PAGE_ROWS))


def escape(value) -> str:
    """A cell's text, HTML-escaped; empty for a missing value of any kind (None, NaN, pandas' NA and NaT, which
    would otherwise read ``<NA>``).

    >>> escape(pd.NA), escape(float("nan")), escape("<b>")
    ('', '', '&lt;b&gt;')
    """
    missing = value is None or (pd.api.types.is_scalar(value) and pd.isna(value))
    return "" if missing else html.escape(str(value))


def data_table(header: list, rows: list[str], kind: str = "", widths: list[int] = ()) -> str:
    """The sortable table of a page: escaped header cells, then the rows (each already escaped HTML); ``widths``:
    each column's share of the page in percent (a fixed layout, :data:`AUDIT_WIDTHS`)."""
    head = "".join(f"<th>{escape(h)}</th>" for h in header)
    columns = "".join(f'<col style="width:{int(w)}%">' for w in widths)
    columns = f"<colgroup>{columns}</colgroup>" if columns else ""
    return f'<table class="data {kind}">{columns}<thead><tr>{head}</tr></thead><tbody>{"".join(rows)}</tbody></table>'


def csv_link(path: str | Path | None) -> str:
    """A link that downloads the CSV at ``path`` as the workflow wrote it (its bytes in a data URI), or nothing."""
    if path is None:
        return ""
    data = base64.b64encode(Path(path).read_bytes()).decode()
    return f'<a download="{escape(Path(path).name)}" href="data:text/csv;base64,{data}">download CSV</a>'


def page(
    title: str, intro: str, table: str, statuses: list[str], notes: list[str] = (), csv: str | Path | None = None
) -> str:
    """One HTML page: heading, a sentence, the filter, status and paging controls with the CSV download, the table
    and its notes (all text escaped)."""
    options = "".join(f'<option value="{s}">{s.replace("_", " ")}</option>' for s in statuses)
    select = f'<select id="status"><option value="">every status</option>{options}</select>' if statuses else ""
    listed = "".join(f"<li>{n}</li>" for n in notes)
    return (
        f'<!DOCTYPE html><html><head><meta charset="utf-8"><title>{escape(title)}</title><style>{STYLE}</style>'
        f"</head><body><h1>{escape(title)}</h1><p>{escape(intro)}</p>"
        f'<div class="controls"><input id="filter" placeholder="filter rows" size="30">{select}'
        '<button id="prev">previous</button><span id="info"></span> <button id="next">next</button>'
        f'{csv_link(csv)}</div><div class="scroll">{table}</div>'
        + (f'<ul class="notes">{listed}</ul>' if listed else "")
        + f"<script>{SCRIPT}</script></body></html>\n"
    )


def basis_of(audit: pd.DataFrame) -> pd.Series:
    """The audit's ``basis`` column, empty where an older audit has none."""
    return audit["basis"].fillna("") if "basis" in audit else pd.Series("", index=audit.index)


def status_words(cell) -> str:
    """A number's status as the audit page shows it, saying when it rests on printed numbers alone."""
    printed = getattr(cell, "basis", "") == PRINTED
    return f"{cell.status} (from printed numbers)" if printed else cell.status


def audit_html(audit: pd.DataFrame, study: str, csv: str | Path | None = None, tables: list[dict] | None = None) -> str:
    """The study's ``numbers.csv`` as a page: one row per number in :data:`READING_ORDER` (mismatches first), the
    table as the paper names it and the row and column in the paper's words where the study's ``tables`` give
    them (:func:`humeval.report.tables.table_name`, :func:`~humeval.report.tables.table_words`; the keys stay in
    numbers.csv), the value at the paper's precision (full precision on hover and for sorting), the status marked
    by colour, the evidence class and the note (wrapped in a column wide enough to read)."""
    from humeval.report.tables import table_name, table_words

    specs = {t["id"]: t for t in tables or []}
    names = {t: table_name(spec) for t, spec in specs.items()}
    words = {t: table_words(spec) for t, spec in specs.items()}
    head = ["table", "row", "column", "value", "published", "status", "evidence", "note"]
    body = []
    rank = {s: k for k, s in enumerate(READING_ORDER)}
    ordered = audit.iloc[audit["status"].map(rank).fillna(len(rank)).argsort(kind="stable")]
    for cell in ordered.itertuples(index=False):
        match = EVIDENCE.match(cell.note or "") if isinstance(cell.note, str) else None
        evidence, note = (match.group(1), cell.note[match.end() :]) if match else ("", cell.note)
        bound = getattr(cell, "bound", "") if isinstance(getattr(cell, "bound", ""), str) else ""
        said = words.get(cell.table, {})
        numbers = "".join(
            f'<td class="num" data-sort="{escape(v)}" title="{escape(v)}">'
            f"{escape(sign + format_number(v, int(cell.precision)) if pd.notna(v) else '')}</td>"
            for v, sign in ((cell.value, ""), (cell.published, f"{bound} " if bound else ""))
        )
        body.append(
            f'<tr class="{cell.status}" data-status="{cell.status}"><td>{escape(names.get(cell.table, cell.table))}'
            f"</td><td>{escape(said.get(str(cell.row), str(cell.row)))}</td><td>"
            f"{escape(said.get(str(cell.column), str(cell.column)))}</td>{numbers}"
            f'<td class="status">{escape(status_words(cell))}</td>'
            f'<td>{escape(evidence)}</td><td class="note">{escape(note)}</td></tr>'
        )
    counts = audit["status"].value_counts()
    summary = ", ".join(f"{counts[s]} {s.replace('_', ' ')}" for s in STATUSES if s in counts)
    table = data_table(head, body, "audit fit", AUDIT_WIDTHS)
    printed = int((basis_of(audit) == PRINTED).sum())
    intro = (
        f"The audit of {study}: every number its tables hold, recomputed from the raw data (value) against the "
        f"number the paper printed (published), at the paper's precision. {len(audit)} numbers: {summary}. "
        + (
            f"{printed} of them are computed from printed numbers alone, not from judgements (status 'from printed "
            "numbers'). "
            if printed
            else ""
        )
        + "Mismatches first, then published only, published inputs, matches and recomputed only."
    )
    statuses = [s for s in STATUSES if s in counts]
    return page(f"{study}: audit (numbers.csv)", intro, table, statuses, [escape(n) for n in LEGEND], csv=csv)


def experiments_sentence(study: dict) -> str:
    """Which experiments the study sets side by side: ``O (original): citation; R1 ...``."""
    return "; ".join(
        f"{e['id']}"
        + (f" ({e['label']})" if e.get("label", e["id"]) != e["id"] else "")
        + f": {e.get('citation', '').rstrip('.')}"
        for e in study.get("experiments", [])
    )


def table_html(
    audit: pd.DataFrame, table: dict, study: dict, rounding: str = "half_up", csv: str | Path | None = None
) -> str:
    """One paper table as a page, laid out like the paper (:func:`humeval.report.tables.table_cells`): each cell
    coloured by its audit status and marked as in the Markdown version, with the footnotes below."""
    header, rows, footnotes = table_cells(audit, table, rounding)
    body = []
    for label, cells in rows:
        statuses = " ".join(sorted({s for _, s in cells if s}))
        tds = "".join(
            f'<td class="num {status}" data-sort="{escape(text)}">{escape(text)}</td>' for text, status in cells
        )
        body.append(f'<tr data-status="{statuses}"><td>{escape(label)}</td>{tds}</tr>')
    html_table = data_table(header, body, "wide" if len(header) > WIDE_COLUMNS else "")
    notes = [f"{escape(mark)} {escape('; '.join(cells))}: {escape(text)}" for (mark, text), cells in footnotes.items()]
    used = sorted({s for _, cells in rows for _, s in cells if s}, key=STATUSES.index)
    intro = (
        f"{study['name']}, table {table['id']}. Experiments: {experiments_sentence(study)}. A cell holds the recomputed value "
        "where raw data exist, else the published value, at the paper's precision and rounding "
        f"({rounding.replace('_', ' ')}); green: matches the paper, red: differs (‡), yellow: published only (†), "
        "blue: a published number used as an input (°)." + (f" {table_key(table)}" if table.get("key") else "")
    )
    return page(table_heading(table), intro, html_table, used, notes + [escape(n) for n in LEGEND], csv)


def frame_html(
    frame: pd.DataFrame, title: str, intro: str, decimals: int = 3, csv: str | Path | None = None, fit: bool = False
) -> str:
    """Any data frame as a sortable, filterable page (numbers at ``decimals``, full precision on hover); ``fit``:
    columns of equal width that fill the window, long words broken (a table of texts, the conditions)."""

    def cell(value) -> str:
        if isinstance(value, float):
            shown = format_number(value, decimals) if pd.notna(value) else ""
            return f'<td class="num" data-sort="{escape(value)}" title="{escape(value)}">{shown}</td>'
        text = escape(value)
        return f'<td class="note">{text}</td>' if len(text) > 60 else f"<td>{text}</td>"  # long text: wide, not tall

    rows = "".join(
        f'<tr data-status="{escape(getattr(r, "status", ""))}">' + "".join(cell(v) for v in r) + "</tr>"
        for r in frame.itertuples(index=False)
    )
    header = [str(c).replace("_", " ") for c in frame.columns]  # findings_hold reads "findings hold"; the CSV keeps it
    table = data_table(header, [rows], "fit" if fit else "")
    return page(title, intro, table, [], csv=csv)


def interval(value, low, high) -> str:
    """A number at 3 decimals with its interval in brackets where both limits are known; empty where it is missing.

    >>> interval(0.12, 0.0, 0.24), interval(19.4444, float("nan"), float("nan")), interval(float("nan"), 0.1, 0.2)
    ('0.120 [0.000, 0.240]', '19.444', '')
    """
    if pd.isna(value):
        return ""
    return f"{value:.3f}" + (f" [{low:.3f}, {high:.3f}]" if pd.notna(low) and pd.notna(high) else "")


def joined(*columns: pd.Series, sep: str = ", ") -> list[str]:
    """Per row, the texts of ``columns`` that are present, joined by ``sep`` (one cell for what a reader reads
    together: a power's basis and its analysis)."""
    return [sep.join(str(v) for v in values if pd.notna(v) and str(v)) for values in zip(*columns)]


def findings_rows(found: pd.DataFrame) -> pd.DataFrame:
    """``summary/findings.csv`` as its page shows it, one column per question a reader asks (the CSV's 19 columns
    ran past the report's pane even at 1920x1080, power and its note out of sight): the finding, where, whether it
    holds, its effect and the power a study of that size had, each with its 95% interval, the power's basis and
    analysis, and the paper's own test's power with its rate at zero effect beside it.

    >>> row = {"study": "s", "finding": "Y2", "text": "A beats B", "experiment": "R1", "holds": "no",
    ...        "effect": 0.03, "effect_low": -0.1, "effect_high": 0.16, "difference_p": 0.99, "power": 0.52,
    ...        "power_basis": "observed", "power_analysis": "valid", "power_low": 0.49, "power_high": 0.55,
    ...        "power_note": "", "paper_power": 0.81, "paper_power_low": 0.78, "paper_power_high": 0.83,
    ...        "paper_null_rate": 0.149}
    >>> shown = findings_rows(pd.DataFrame([row])).iloc[0]
    >>> shown["effect [95%]"], shown["power [95%]"], shown["basis, analysis"]
    ('0.030 [-0.100, 0.160]', '0.520 [0.490, 0.550]', 'observed, valid')
    >>> shown["the paper's test [95%]; at zero effect"]
    '0.810 [0.780, 0.830]; 0.149 at zero effect'
    """
    paper = [
        interval(p, low, high) + (f"; {null:.3f} at zero effect" if pd.notna(p) and pd.notna(null) else "")
        for p, low, high, null in zip(
            found["paper_power"], found["paper_power_low"], found["paper_power_high"], found["paper_null_rate"]
        )
    ]
    return pd.DataFrame(
        {
            **{c: found[c] for c in ("study", "finding", "text", "experiment", "holds")},
            "effect [95%]": [interval(*v) for v in zip(found["effect"], found["effect_low"], found["effect_high"])],
            "difference_p": found["difference_p"].astype(float),
            "power [95%]": [interval(*v) for v in zip(found["power"], found["power_low"], found["power_high"])],
            "basis, analysis": joined(found["power_basis"], found["power_analysis"]),
            "the paper's test [95%]; at zero effect": paper,
            "note": found["power_note"].fillna(""),
        }
    )


def claims_rows(claims: pd.DataFrame) -> pd.DataFrame:
    """``summary/claims.csv`` as its page shows it: the reproduction's power in one cell with its 95% interval.

    >>> row = {"study": "s", "claim": "C1", "experiment": "R1", "text": "A beats B", "original_holds": "yes",
    ...        "reproduction_holds": "no", "replicated": "no", "evidence": "A 3.1 vs B 3.4",
    ...        "reproduction_power": 0.4, "power_low": 0.37, "power_high": 0.43, "power_note": ""}
    >>> claims_rows(pd.DataFrame([row])).iloc[0, -2:].tolist()
    ['0.400 [0.370, 0.430]', '']
    """
    power = [interval(*v) for v in zip(claims["reproduction_power"], claims["power_low"], claims["power_high"])]
    kept = claims.drop(columns=["reproduction_power", "power_low", "power_high", "power_note"])
    return kept.assign(**{"reproduction power [95%]": power, "note": claims["power_note"].fillna("")})


def qra3_rows(qra3: pd.DataFrame) -> pd.DataFrame:
    """``summary/qra3.csv`` as its page shows it: each measure with what qualifies it in one cell (sd* with its 95%
    interval, the experiments within one and two sd*, the mean Pearson and Spearman correlations, Kendall's W with
    its p), 14 columns where the CSV has 19 (it ran past the report's pane at 1920x1080).

    >>> row = {"study": "s", "table": "t", "level": "system", "criterion": "c", "system": "A", "experiments": "O, R1",
    ...        "cv_star": 8.9, "sd_star": 11.5, "sd_ci_low": -54.4, "sd_ci_high": 77.4, "within_1sd": 2.0,
    ...        "within_2sd": 2.0, "pearson_mean": 0.81, "spearman_mean": 1.0, "kendall_w": 0.8,
    ...        "kendall_w_p": 1.7e-05, "alpha": float("nan"), "p_findings": float("nan"), "note": ""}
    >>> qra3_rows(pd.DataFrame([row])).iloc[0, 7:11].tolist()
    ['11.500 [-54.400, 77.400]', '2 / 2', '0.810 / 1.000', '0.800 (p 1.7e-05)']
    """

    def pair(a, b, shown=lambda v: format_number(v, 3)) -> str:
        return f"{shown(a)} / {shown(b)}" if pd.notna(a) and pd.notna(b) else ""

    def count(value) -> str:
        return str(int(value)) if float(value).is_integer() else format_number(value, 3)

    return pd.DataFrame(
        {
            **{c: qra3[c] for c in ("study", "table", "level", "criterion", "system", "experiments", "cv_star")},
            "sd* [95%]": [interval(*v) for v in zip(qra3["sd_star"], qra3["sd_ci_low"], qra3["sd_ci_high"])],
            "within 1 / 2 sd*": [pair(a, b, count) for a, b in zip(qra3["within_1sd"], qra3["within_2sd"])],
            "pearson / spearman mean": [pair(a, b) for a, b in zip(qra3["pearson_mean"], qra3["spearman_mean"])],
            "kendall W (p)": [
                f"{format_number(w, 3)} (p {format_number(p, 3)})" if pd.notna(w) else ""
                for w, p in zip(qra3["kendall_w"], qra3["kendall_w_p"])
            ],
            **{c: qra3[c].astype(float) for c in ("alpha", "p_findings")},
            "note": qra3["note"].fillna(""),
        }
    )


def power_rows(power: pd.DataFrame) -> pd.DataFrame:
    """``planning/power.csv`` as its page shows it, one column per question a reader asks (the CSV's 23 columns ran
    off a 1280-pixel window): which design (a reproduction's id, else planned) of how many people x items x
    judgements per item, the effect and the power each with its 95% interval, the analytic power and the minimum
    detectable effect, how many simulations failed, the pilot and the note.

    >>> row = {"finding": "Y2", "experiment": "R1", "design": "R1", "method": "model", "basis": "safeguard",
    ...        "quantity": "power", "effect": 0.12, "effect_low": 0.0, "effect_high": 0.24, "evaluators": 5,
    ...        "items": 361, "judgements_per_item": 2, "power": 0.24, "ci_low": 0.21, "ci_high": 0.27,
    ...        "analytic_power": 0.235, "mde": 0.2, "simulations": 1000, "failed": 0, "pilot": "O", "caveat": "", "note": ""}
    >>> power_rows(pd.DataFrame([row])).iloc[0, :5].tolist()
    ['Y2', 'R1', '5 x 361 x 2', 'model, safeguard', '0.120 [0.000, 0.240]']
    """

    def count(value) -> str:
        return "" if pd.isna(value) else str(int(value))

    sized = power["evaluators"].notna()
    return pd.DataFrame(
        {
            "finding": power["finding"],
            "design": power["design"].fillna(""),
            "people x items x per item": [
                f"{count(e)} x {count(i)} x {count(j)}" if known else ""
                for e, i, j, known in zip(power["evaluators"], power["items"], power["judgements_per_item"], sized)
            ],
            "method, basis": joined(power["method"], power["basis"]),
            "effect [95%]": [interval(*v) for v in zip(power["effect"], power["effect_low"], power["effect_high"])],
            "power or same direction [95%]": [
                interval(*v) for v in zip(power["power"], power["ci_low"], power["ci_high"])
            ],
            "analytic": power["analytic_power"].astype(float),
            "mde": power["mde"].astype(float),
            "failed": [
                f"{count(f)} of {count(n)}" if pd.notna(n) else ""
                for f, n in zip(power["failed"], power["simulations"])
            ],
            "pilot": power["pilot"].fillna(""),
            "note": joined(power["caveat"], power["note"], sep="; "),
        }
    )
