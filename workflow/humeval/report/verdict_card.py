"""A study's verdict card (``results/summary/card-<study>.html``, at the top of its section in the report): which
findings held in which experiment, what each reproduction could have seen (its size and its power to recover each
finding, with the interval), and why published numbers differ (the mismatches grouped by diagnosis, each with its
count, reason and evidence class in words). Read from ``summary/findings.csv``, the study's ``numbers.csv`` and
``planning/power.csv``; every text through :func:`humeval.report.html_tables.escape`.
"""

from __future__ import annotations

import pandas as pd

from humeval.intermediate import PRINTED
from humeval.report.html_tables import EVIDENCE, EVIDENCE_WORDS, STYLE, escape

__all__ = ["verdict_card_html"]

#: A finding's state in an experiment (``findings.csv``'s ``holds``), as the card says it, and its colour class.
HOLDS = {"yes": ("holds", "match"), "no": ("does not hold", "mismatch"), "not measured": ("not measured", "")}
CARD_STYLE = STYLE + (
    "h2{font-size:1rem;margin:1rem 0 .3rem}td.finding{max-width:40rem;white-space:normal}"
    "td.mismatch{font-weight:600}span.id{color:#6b7280;font-size:.75rem;margin-left:.3rem}"
    "table.card{margin-bottom:.4rem}p.legend{font-size:.8rem;color:#4b5563}"
)


def missed_effect(holds, difference_p) -> str:
    """For a finding that does not hold where both experiments were tested: whether the reproduction's effect is
    the original's within their errors (the p of their difference, :func:`humeval.findings.consistency`): a miss
    with the original's effect is a miss of significance, not of the effect."""
    if holds != "no" or difference_p is None or pd.isna(difference_p):
        return ""
    return f" (effect {'consistent with' if difference_p >= 0.05 else 'unlike'} the original's, p {difference_p:.2g})"


def findings_table(found: pd.DataFrame) -> tuple[str, list[str]]:
    """Findings (their text) x experiments: holds / does not hold / not measured, coloured; the experiments."""
    experiments = list(dict.fromkeys(found["experiment"]))
    head = "".join(f"<th>{escape(e)}</th>" for e in experiments)
    rows = []
    for (finding, text), part in found.groupby(["finding", "text"], sort=False):
        state = dict(zip(part["experiment"], part["holds"]))
        difference = dict(zip(part["experiment"], part["difference_p"]))
        cells = ""
        for experiment in experiments:
            words, kind = HOLDS.get(state.get(experiment, "not measured"), (state.get(experiment), ""))
            words += missed_effect(state.get(experiment), difference.get(experiment))
            cells += f'<td class="{kind}">{escape(words)}</td>'
        rows.append(f'<tr><td class="finding">{escape(text)}<span class="id">{escape(finding)}</span></td>{cells}</tr>')
    table = f'<table class="card"><thead><tr><th>finding</th>{head}</tr></thead><tbody>{"".join(rows)}</tbody></table>'
    return table, experiments


def size_of(power: pd.DataFrame | None, experiment: str) -> str:
    """A reproduction's real size from its planning rows: people x items x judgements per item, or ""."""
    if power is None or power.empty:
        return ""
    rows = power[(power["design"] == experiment) & power["evaluators"].notna()]
    if rows.empty:
        return ""
    row = rows.iloc[0]
    return f"{int(row['evaluators'])} people x {int(row['items'])} items x {int(row['judgements_per_item'])} per item"


def power_cell(row) -> str:
    """A finding's power in a reproduction with its basis (and its 95% interval where simulated) and what limits
    its meaning (``power_note``, e.g. :func:`humeval.planning.power_table.one_shot_caveat`), or the plain reason there is
    none; where it is a valid analysis's, the paper's test beside it (:func:`paper_words`)."""
    if pd.notna(row.power):
        basis = f" at the {row.power_basis} effect" if isinstance(row.power_basis, str) and row.power_basis else ""
        interval = f" [{row.power_low:.2f}, {row.power_high:.2f}]" if pd.notna(row.power_low) else ""
        caveat = f" ({row.power_note})" if isinstance(row.power_note, str) and row.power_note else ""
        return f"{row.power:.2f}{interval}{basis}{paper_words(row)}{caveat}"
    note = row.power_note if isinstance(row.power_note, str) and row.power_note else "not estimated"
    return note[0].upper() + note[1:]


def paper_words(row) -> str:
    """Beside the power of an analysis valid under the crossed model (the headline where the model plans the
    finding): the power the paper's own test promises, and how often it sees the finding hold when there is no
    effect (nominal 2.5%), so that the paper's promise is not read as the design's.

    >>> import types
    >>> paper_words(types.SimpleNamespace(power_analysis="valid", paper_power=0.995, paper_power_low=0.99,
    ...                                   paper_power_high=0.999, paper_null_rate=0.123))
    ", a valid analysis (the paper's test: 0.99 [0.99, 1.00], holding at zero effect in 12.3%, nominal 2.5%)"

    A bootstrap's power is the paper's own analysis; beside it, how often that analysis sees the finding hold in
    pilots made null (the systems permuted within items):

    >>> paper_words(types.SimpleNamespace(power_analysis="as published", paper_null_rate=0.32))
    ", the paper's analysis (holding at zero effect in 32.0%)"
    """
    if getattr(row, "power_analysis", "") == "as published" and pd.notna(getattr(row, "paper_null_rate", None)):
        return f", the paper's analysis (holding at zero effect in {100 * row.paper_null_rate:.1f}%)"
    if getattr(row, "power_analysis", "") != "valid":
        return ""
    paper, low, high = row.paper_power, row.paper_power_low, row.paper_power_high
    interval = f" [{low:.2f}, {high:.2f}]" if pd.notna(low) else ""
    null = f", holding at zero effect in {100 * row.paper_null_rate:.1f}%" if pd.notna(row.paper_null_rate) else ""
    return f", a valid analysis (the paper's test: {paper:.2f}{interval}{null}, nominal 2.5%)"


def reproductions_table(found: pd.DataFrame, experiments: list[str], power: pd.DataFrame | None) -> str:
    """Per reproduction (every experiment after the first): its size, and per finding its power to recover it
    (findings with the same power, or the same reason for none, in one row)."""
    rows = []
    for experiment in experiments[1:]:
        size = size_of(power, experiment) or "not sized by planning (the reason is beside)"
        own = found[found["experiment"] == experiment]
        said = {}  # findings with the same power or the same reason share a row
        for row in own.itertuples(index=False):
            said.setdefault(power_cell(row), []).append(row.finding)
        for k, (cell, findings) in enumerate(said.items()):
            first = f'<td rowspan="{len(said)}">{escape(experiment)}</td><td rowspan="{len(said)}">{escape(size)}</td>'
            rows.append(
                f"<tr>{first if k == 0 else ''}<td>{escape(', '.join(findings))}</td>"
                f'<td class="finding">{escape(cell)}</td></tr>'
            )
    head = "<tr><th>reproduction</th><th>size</th><th>finding</th><th>power to recover it</th></tr>"
    return f'<table class="card"><thead>{head}</thead><tbody>{"".join(rows)}</tbody></table>' if rows else ""


def cell_words(tables: dict, table: str, row: str, column: str) -> str:
    """A cell as the paper names it: its table's paper name (else its id), row and column by their labels.

    >>> cell_words({"table2": {"paper": "Table 2", "labels": {"likert_total": "Likert, annotated"}}},
    ...            "table2", "Stux", "likert_total")
    'Table 2: Stux / Likert, annotated'
    """
    from humeval.report.tables import table_words

    spec = tables.get(table, {})
    words = table_words(spec)
    return f"{spec.get('paper') or table}: {words.get(str(row), row)} / {words.get(str(column), column)}"


def recomputed_from_judgements(audit: pd.DataFrame) -> pd.DataFrame:
    """The audit's matches and mismatches that rest on judgements (``basis``, :mod:`humeval.audit`)."""
    compared = audit[audit["status"].isin(["match", "mismatch"])]
    return compared[compared["basis"].fillna("") != PRINTED] if "basis" in compared else compared


def printed_only_line(audit: pd.DataFrame) -> str:
    """How many printed numbers were recomputed from other printed numbers alone and how many of them match
    (a QRA measure of published inputs: it checks the paper's arithmetic, not its data), or ""."""
    if "basis" not in audit:
        return ""
    printed = audit[audit["status"].isin(["match", "mismatch"]) & (audit["basis"].fillna("") == PRINTED)]
    if printed.empty:
        return ""
    return (
        f"<p>{int((printed['status'] == 'match').sum())} of {len(printed)} printed numbers computed from other "
        "printed numbers alone (no judgement behind them) match: they check the paper's arithmetic, not its "
        "data.</p>"
    )


def mismatch_groups(audit: pd.DataFrame, tables: dict | None = None) -> str:
    """The mismatches grouped by diagnosis: count, evidence class in words, the reason, the cells (up to three, as
    the paper names them: :func:`cell_words`)."""
    mismatched = audit[audit["status"] == "mismatch"]
    rows = []
    for note, part in mismatched.groupby(mismatched["note"].fillna(""), sort=False):
        match = EVIDENCE.match(note)
        evidence, reason = (match.group(1), note[match.end() :]) if match else ("", note)
        cells = "; ".join(
            cell_words(tables or {}, *cell) for cell in part[["table", "row", "column"]].head(3).to_numpy()
        )
        more = f" and {len(part) - 3} more" if len(part) > 3 else ""
        rows.append(
            f'<tr><td class="num">{len(part)}</td><td class="finding">{escape(reason or "no diagnosis")}</td>'
            f"<td>{escape(EVIDENCE_WORDS.get(evidence, evidence))}</td><td>{escape(cells + more)}</td></tr>"
        )
    if not rows and recomputed_from_judgements(audit).empty:
        return ""
    if not rows:
        return "<p>Every published number the raw data can determine is reproduced.</p>"
    head = "<tr><th>numbers</th><th>why they differ</th><th>evidence</th><th>cells</th></tr>"
    return f'<table class="card"><thead>{head}</thead><tbody>{"".join(rows)}</tbody></table>'


def verdict_card_html(
    study: str, found: pd.DataFrame, audit: pd.DataFrame, power: pd.DataFrame | None, tables: list[dict] = ()
) -> str:
    """The card's page (module docstring). ``found``: the study's rows of ``findings.csv``; ``tables``: the study's
    table declarations (how the paper names them and their labels)."""
    counts = audit["status"].value_counts()
    unrecomputed = audit.loc[audit["status"] == "published_only", "unrecomputed"].value_counts()
    parts = [f"<h1>{escape(study)}: verdict</h1>"]
    if found.empty:
        parts.append("<p>The study states no findings.</p>")
    else:
        table, experiments = findings_table(found)
        parts += ["<h2>Which findings held</h2>", table, "<h2>What each reproduction could have seen</h2>"]
        parts.append(reproductions_table(found, experiments, power) or "<p>No reproduction of these findings.</p>")
    compared = recomputed_from_judgements(audit)
    matched, mismatched = int((compared["status"] == "match").sum()), int((compared["status"] == "mismatch").sum())
    parts += [
        "<h2>Why published numbers differ</h2>",
        (
            f"<p>{matched} of {matched + mismatched} printed numbers the raw data can determine are reproduced; "
            if len(compared)
            else "<p>No printed number was recomputed from judgements: none was read for the numbers the paper "
            "printed; "
        )
        + (
            f"{int(counts.get('published_only', 0))} are not recomputed ({int(unrecomputed.get('no_raw_data', 0))} for "
            f"want of raw data, {int(unrecomputed.get('no_measure', 0))} for want of a measure).</p>"
        )
        + printed_only_line(audit),
        mismatch_groups(audit, {t["id"]: t for t in tables}),
        (
            '<p class="legend">Colours: green holds or reproduced, red does not hold or differs, no colour not '
            "measured. Power: the probability that a study of the reproduction's size recovers the finding, at the "
            "safeguard effect (the lower limit of the original effect's 60% interval) unless stated "
            "(docs/planning.md): where the crossed model plans the finding, that of an analysis valid under the "
            "model, with the paper's own test beside it (its simulated power with a 95% interval, and how often it "
            "sees the finding hold when there is no effect); elsewhere the paper's test's simulated power with its "
            "95% interval. Evidence: reproduced, explained or hypothesis (docs/audit.md).</p>"
        ),
    ]
    return (
        f'<!DOCTYPE html><html><head><meta charset="utf-8"><title>{escape(study)}: verdict</title>'
        f"<style>{CARD_STYLE}</style></head><body>{''.join(parts)}</body></html>\n"
    )
