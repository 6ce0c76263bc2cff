"""The report's front page (``results/summary/overview.rst``, included by workflow/report/workflow.rst): the
verdict per study and the lines below it, built from the summary's frames. Data reaches it only through
:func:`rst_text`, so nothing of a config, an export or a datasheet can form markup there."""

from __future__ import annotations

import re

import pandas as pd

from humeval.report import study_labels
from humeval.summary import conditions_differing

__all__ = [
    "NONE_STATED",
    "console_summary",
    "misses_with_power",
    "numbers_reproduced",
    "overview_rst",
    "rst_text",
    "verdict_frame",
    "verdict_rows",
]

#: The characters a data-derived string may keep on the report's front page (RST): letters, digits, space and
#: ``.,;:()/-``. None of them can start markup inline, and no line break can start a directive.
RST_SAFE = re.compile(r"[^A-Za-z0-9 .,;:()/-]")
#: A study's findings cell when its study file states none.
NONE_STATED = "none stated"


def rst_text(text) -> str:
    """``text`` as plain RST text: every character outside :data:`RST_SAFE` replaced by ``?``. The one way data
    (study names, experiment ids, counts, the code version) reaches the front page, which Snakemake's report renders
    with docutils: no backquote, asterisk, underscore, pipe or line break, so no inline markup, substitution,
    reference, role or directive (``raw``, ``include``) can be formed from a config, an export or a datasheet.

    >>> rst_text("crit\\n\\n.. raw:: html\\n\\n<script>")
    'crit??.. raw:: html???script?'
    """
    return RST_SAFE.sub("?", str(text))


def rst_table(header: list[str], rows: list[list[str]]) -> str:
    """An RST list-table (cells already RST)."""
    lines = [".. list-table::", "   :header-rows: 1", ""]
    for row in [header, *rows]:
        lines += [f"   * - {row[0]}"] + [f"     - {cell}" for cell in row[1:]]
    return "\n".join(lines) + "\n"


def numbers_reproduced(record: dict) -> str:
    """Of the printed numbers recomputed from judgements, how many match (``11 of 11``); the numbers computed from
    printed numbers alone (``basis``) after them in brackets, so that no count claims a judgement was read where
    none was (``none from judgements (24 of 24 from printed numbers)``).

    >>> numbers_reproduced({"match": 30, "mismatch": 1, "match_printed": 24, "mismatch_printed": 0})
    '6 of 7 (and 24 of 24 from printed numbers)'
    >>> numbers_reproduced({"match": 24, "mismatch": 0, "match_printed": 24, "mismatch_printed": 0})
    'none from judgements (24 of 24 from printed numbers)'

    Every character survives the front page's RST (:func:`rst_text`; a ``+`` once showed as ``?``):

    >>> text = numbers_reproduced({"match": 30, "mismatch": 1, "match_printed": 24, "mismatch_printed": 0})
    >>> rst_text(text) == text
    True
    """
    printed_match, printed_mismatch = record["match_printed"], record["mismatch_printed"]
    match, mismatch = record["match"] - printed_match, record["mismatch"] - printed_mismatch
    printed = printed_match + printed_mismatch
    from_printed = f"{printed_match} of {printed} from printed numbers"
    if not printed:
        return f"{match} of {match + mismatch}"
    if not match + mismatch:
        return f"none from judgements ({from_printed})"
    return f"{match} of {match + mismatch} (and {from_printed})"


def mismatch_words(record: dict) -> str:
    """The printed numbers that differ, the diagnosed kept apart from the undiagnosed (``summary/audit.csv``'s
    ``mismatch`` and ``mismatch_undiagnosed``), so that "29 of 42 match" is not read as 13 failures; "" where none
    differ.

    >>> mismatch_words({"mismatch": 13, "mismatch_undiagnosed": 0})
    '13 differ, all diagnosed'
    >>> mismatch_words({"mismatch": 3, "mismatch_undiagnosed": 1})
    '3 differ: 2 diagnosed, 1 undiagnosed'
    """
    differ, undiagnosed = int(record["mismatch"]), int(record["mismatch_undiagnosed"])
    if not differ:
        return ""
    verb = "differs" if differ == 1 else "differ"
    if not undiagnosed:
        return f"{differ} {verb}, {'diagnosed' if differ == 1 else 'all diagnosed'}"
    return f"{differ} {verb}: {differ - undiagnosed} diagnosed, {undiagnosed} undiagnosed"


def verdict_rows(counts: pd.DataFrame, found: pd.DataFrame, qra3: pd.DataFrame, studies: dict) -> list[dict]:
    """Per study, the reviewer's verdict: of the original's findings that hold in their first experiment (QRA Type
    IV claims and planning findings, ``summary/findings.csv``), how many hold in each reproduction that measures
    them (``4 of 5 (R1); 1 of 1 (R2)``), how many of the printed numbers the raw data can determine
    it recomputes (``summary/audit.csv``: match of match + mismatch), how many stay published only for want of raw
    data and for want of a measure (with those whose config states no reason), and the
    study-level QRA3 CV* over the most experiments a QRA3 table of the study compares (in brackets)."""
    rows = []
    for record in counts.to_dict("records"):
        study = record["study"]
        own = found[found["study"] == study]
        first = own.groupby("finding", sort=False)["holds"].transform("first")
        pairs = own[
            first.isin(["yes", "not measured"])  # an original known only from its design states it, unmeasured
            & own["holds"].isin(["yes", "no"])
            & ~own.index.isin(own.groupby("finding").head(1).index)
        ]
        headline = qra3[(qra3["study"] == study) & (qra3["level"] == "study")]
        widest = headline["experiments"].str.count(",")
        rows.append(
            {
                "study": study,
                "findings": "; ".join(
                    f"{(part['holds'] == 'yes').sum()} of {len(part)} ({experiment})"
                    for experiment, part in pairs.groupby("experiment", sort=False)
                )
                or NONE_STATED,
                "numbers": numbers_reproduced(record),
                "mismatches": mismatch_words(record),
                "no_raw_data": str(record["no_raw_data"]),
                "no_measure": str(record["no_measure"])
                + (f" (and {record['reason_not_stated']} unstated)" if record["reason_not_stated"] else ""),
                "qra3": "; ".join(  # over the most experiments a QRA3 table compares
                    f"{h.cv_star:.1f} ({h.experiments.replace(' ', '')})"
                    if pd.notna(h.cv_star)
                    else f"none ({h.experiments.replace(' ', '')})"
                    for h in headline[widest == widest.max()].itertuples()
                )
                or "none",
            }
        )
    return rows


def misses_with_power(found: pd.DataFrame) -> str:
    """The findings a reproduction did not recover, each with the power a study of its size had to, grouped by
    study and reproduction (``yao-2022 R1: Y2 0.52; santhanam-2019 R1: C1, C2 n/a``; n/a where the power was not
    estimated, e.g. resampled from that reproduction itself), and where both were tested whether its effect is
    the original's (the p of their difference, :func:`humeval.findings.consistency`): a miss at a power near 1
    says the finding did not reproduce; at a low power, or with the original's effect, that the reproduction
    could hardly have seen it. Empty without misses."""
    first = found.groupby(["study", "finding"], sort=False)["holds"].transform("first")
    missed = found[first.isin(["yes", "not measured"]) & (found["holds"] == "no")]  # as verdict_rows counts them
    labels = study_labels(found["study"])
    parts = []
    for (study, experiment), part in missed.groupby(["study", "experiment"], sort=False):
        powers = [f"{p:.2f}" if pd.notna(p) else "n/a" for p in part["power"]]
        differences = part["difference_p"] if "difference_p" in part else pd.Series(float("nan"), index=part.index)
        # a miss whose effect is the original's within their errors is a miss of significance, not of the effect
        powers = [
            power
            if pd.isna(p)
            else f"{power} (effect {'consistent with' if p >= 0.05 else 'unlike'} the original, p {p:.2g})"
            for power, p in zip(powers, differences)
        ]
        listed = (
            f"{', '.join(part['finding'])} {powers[0]}"
            if len(set(powers)) == 1
            else ", ".join(f"{f} {p}" for f, p in zip(part["finding"], powers))
        )
        parts.append(f"{labels[study]} {experiment}: {listed}")
    return "; ".join(parts)


def verdict_frame(verdicts: list[dict], found: pd.DataFrame) -> pd.DataFrame:
    """The verdict rows (:func:`verdict_rows`) as the table ``summary/verdict.csv`` and its page hold, with each
    study's findings not recovered and their power (:func:`misses_with_power`)."""
    own = dict(iter(found.groupby("study", sort=False))) if "study" in found else {}  # one pass, not one per study
    return pd.DataFrame(
        [
            {
                "study": v["study"],
                "findings_hold": v["findings"],
                "numbers_match": v["numbers"],
                "numbers_differ": v["mismatches"],
                "no_raw_data": v["no_raw_data"],
                "no_measure": v["no_measure"],
                "qra3_cv_star": v["qra3"],
                "not_recovered": misses_with_power(own.get(v["study"], found.iloc[:0])),
            }
            for v in verdicts
        ],
        columns=[
            "study",
            "findings_hold",
            "numbers_match",
            "numbers_differ",
            "no_raw_data",
            "no_measure",
            "qra3_cv_star",
            "not_recovered",
        ],
    )


#: The summary pages the front page links, each opened in one click.
SUMMARY_PAGES = ("findings", "audit", "verdict", "planning", "raw-files", "run")


def opens(page: str, path: str) -> str:
    """The RST link target ``page`` that opens the report's HTML result ``path`` in its main pane in one click, as
    Snakemake's own result buttons do (``app.setView`` with the result's data URI); the targets Snakemake defines
    for a result's file name open only its sidebar's result panel, leaving the main pane on the previous page.
    ``path`` is the workflow's own output path (the study name in it through :func:`rst_text`), so no data can
    leave the single-quoted strings.

    >>> print(opens("card-x", "results/summary/card-x.html"))
    .. _card-x: javascript:app.setView({content:'html',contentPath:results['results/summary/card-x.html'].data_uri,resultPath:'results/summary/card-x.html'})
    """
    return (
        f".. _{page}: javascript:app.setView({{content:'html',"
        f"contentPath:results['{path}'].data_uri,resultPath:'{path}'}})"
    )


def overview_rst(verdicts: list[dict], audits: dict, raw: dict, misses: str = "") -> str:
    """The report's landing page (included by workflow/report/workflow.rst), its verdict rows from the top, one per
    study, labelled by :func:`humeval.report.study_labels`. Per study the verdict (:func:`verdict_rows`) with a
    link that opens its card; links that open the findings, the audit counts, the verdict, planning, the raw files
    and the run (each in one click, :func:`opens`); how many conditions differ from O's. No text of a config, an
    export or a datasheet is on it: only counts, study names and experiment ids, each through :func:`rst_text`;
    the condition names are in each study's conditions table (an escaped HTML page)."""
    labels = study_labels([v["study"] for v in verdicts])
    differing = "; ".join(
        f"{rst_text(labels.get(st, st))} {rst_text(d)}"
        for st, a in audits.items()
        if (d := conditions_differing(a, names=False))
    )
    rows = [
        [
            f"`{rst_text(labels[v['study']])} <card-{rst_text(v['study'])}_>`_",
            rst_text(v["findings"]),
            rst_text(v["numbers"]),
            rst_text(f"{v['no_raw_data']} / {v['no_measure']}"),
            rst_text(v["qra3"]),
        ]
        for v in verdicts
    ]
    header = ["study", "findings hold", "numbers match", "no data / no measure", "QRA3 CV*"]
    body = [rst_table(header, rows)]
    if misses:
        legend = "a valid analysis's power where the crossed model plans the finding; n/a: not estimated, the study's card says why"
        line = f"Not recovered, with the power a study of its size had (`summary-planning.html <open-summary-planning_>`_; {legend}): "
        body += [line + f"{rst_text(misses)}.", ""]
    conditions = f" Conditions differing from O's: {differing or 'none stated'}."
    cards = [rst_text(v["study"]) for v in verdicts]
    targets = [opens(f"card-{study}", f"results/summary/card-{study}.html") for study in cards]
    targets += [opens(f"open-summary-{page}", f"results/summary/summary-{page}.html") for page in SUMMARY_PAGES]
    return "\n".join(
        [
            "Verdict per study",
            "-----------------",
            "",
            "Findings that hold (`summary-findings.html <open-summary-findings_>`_), numbers matched or unrecomputed (`summary-audit.html <open-summary-audit_>`_),",
            "QRA3 CV* (%), as a sortable table on `summary-verdict.html <open-summary-verdict_>`_. A study's name opens",
            "its card: findings, power, why numbers differ.",
            "",
            *body,
            (
                f"{sum(len(listed) for listed in raw.values())} raw files verified by sha256 "
                f"(`summary-raw-files.html <open-summary-raw-files_>`_); versions and config digest: `summary-run.html <open-summary-run_>`_.{conditions}"
            ),
            "",
            *targets,
        ]
    )


def closing_lines(verdicts: list[dict]) -> list[str]:
    """The end of a run's console: where the report is, then one line per study of the verdict table
    (``summary/verdict.csv``, its rows as dicts): its findings that hold, its published numbers recomputed, those
    that differ with the undiagnosed apart (:func:`mismatch_words`), and its folder.

    >>> closing_lines([{"study": "s", "findings_hold": "3 of 3 (R1)", "numbers_match": "11 of 11", "numbers_differ": ""},
    ...                {"study": "t", "findings_hold": NONE_STATED, "numbers_match": "29 of 42",
    ...                 "numbers_differ": "13 differ, all diagnosed"}])[1:]
    ['s: findings 3 of 3 (R1) hold; 11 of 11 published numbers match; results/s/', 't: no findings stated; 29 of 42 published numbers match, 13 differ, all diagnosed; results/t/']
    """
    lines = ["Done. The report: snakemake --report results/report.html; per study:"]
    for row in verdicts:
        held = "no findings stated" if row["findings_hold"] == NONE_STATED else f"findings {row['findings_hold']} hold"
        differ = f", {row['numbers_differ']}" if row.get("numbers_differ") else ""
        numbers = f"{row['numbers_match']} published numbers match{differ}"
        lines.append(f"{row['study']}: {held}; {numbers}; results/{row['study']}/")
    return lines


def console_summary(verdict_csv: str) -> list[str]:
    """:func:`closing_lines` of the run's ``summary/verdict.csv`` (the clone's ``onsuccess``, and the logger
    plugin's answer to a run with nothing to do, which runs no ``onsuccess``); nothing where no run wrote the
    summary (a single target). Read with the csv module: the console waits for no pandas import."""
    import csv
    from pathlib import Path

    if not Path(verdict_csv).is_file():
        return []
    with open(verdict_csv, newline="", encoding="utf-8") as handle:
        return closing_lines(list(csv.DictReader(handle)))
