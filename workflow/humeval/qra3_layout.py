"""The layout of a study's QRA3 tables (their ids, rows and columns), which config validation declares
before any job runs; plain Python, so Snakemake's own process imports no pandas for it. The measures are
in :mod:`humeval.qra.qra3`, the tables filled in :mod:`humeval.qra.qra3_tables`."""

from __future__ import annotations

from itertools import combinations

__all__ = ["LABELS", "QRA3_COLUMNS", "TYPE1_COLUMNS", "claims_labels", "declared_tables", "row_parts", "table_rows"]

TYPE1_COLUMNS = ["cv_star", "sd_star", "sd_ci_low", "sd_ci_high", "within_1sd", "within_2sd"]
TYPE2_COLUMNS = ["pearson_mean", "spearman_mean", "kendall_w", "kendall_w_p"]
QRA3_COLUMNS = [*TYPE1_COLUMNS, *TYPE2_COLUMNS, "alpha", "p_findings"]
PAIRWISE_COLUMNS = ["pearson", "spearman", "alpha"]
#: How the report words the QRA3 tables' headers (Belz 2025's names; the CSVs keep the keys).
LABELS = {
    "criterion|system": "criterion, system",
    "criterion|pair": "criterion, pair of experiments",
    "criterion|experiment|system": "criterion, experiment, system",
    "cv_star": "CV*",
    "sd_star": "SD*",
    "sd_ci_low": "SD* 95% CI, low",
    "sd_ci_high": "SD* 95% CI, high",
    "within_1sd": "within 1 SD*",
    "within_2sd": "within 2 SD*",
    "pearson_mean": "mean Pearson r",
    "spearman_mean": "mean Spearman rho",
    "kendall_w": "Kendall's W",
    "kendall_w_p": "Kendall's W, p",
    "alpha": "Krippendorff's alpha",
    "p_findings": "share of system orderings agreeing",
    "pearson": "Pearson r",
    "spearman": "Spearman rho",
    "result": "score",
}


def claims_labels(columns: list) -> dict:
    """How the report words a claims table's columns: a comparison's two sides and test, and whether it held in
    both (the CSV keeps the keys).

    >>> claims_labels(["original", "replicated", "original_left", "R1_p"])
    {'replicated': 'held in both', 'original_left': 'original: left side', 'R1_p': 'R1: p'}
    """
    words = {"_left": "left side", "_right": "right side", "_p": "p"}
    labels = {"replicated": "held in both"} if "replicated" in columns else {}
    for column in map(str, columns):
        for end, word in words.items():
            if column.endswith(end):
                labels[column] = f"{column[: -len(end)]}: {word}"
    return labels


def worded(keys: list[str], rows: list[str] = ()) -> dict:
    """:data:`LABELS` for the ``keys`` a table has, and its ``rows`` with their parts as words: ``a|b`` reads
    "a, b", ``all`` systems or criteria as "all systems" or "all criteria".

    >>> worded(["cv_star"], ["Meaning|VAE", "Meaning|all", "all|all"])
    {'cv_star': 'CV*', 'Meaning|VAE': 'Meaning, VAE', 'Meaning|all': 'Meaning, all systems', 'all|all': 'all criteria'}
    """
    labels = {k: LABELS[k] for k in keys if k in LABELS}
    for row in rows:
        criterion, *rest = row.split("|")
        labels[row] = (
            "all criteria"
            if row == "all|all"
            else ", ".join([criterion, *("all systems" if part == "all" else part for part in rest)])
        )
    return labels


def row_parts(entry: dict) -> list[tuple[str, str]]:
    """(criterion, system) of each row of a QRA3 table, in order: each criterion's systems, then the criterion
    (system ``all``), then the study (``all``, ``all``). A label may itself hold ``|`` (``FastSpeech|baseline``),
    so a row is never split to find its parts."""
    parts = []
    for criterion in entry["criteria"]:
        parts += [(criterion["name"], system) for system in [*criterion["systems"], "all"]]
    return [*parts, ("all", "all")]


def table_rows(entry: dict) -> list[str]:
    """The row labels of a QRA3 table (:func:`row_parts` joined with ``|``)."""
    return [f"{criterion}|{system}" for criterion, system in row_parts(entry)]


def declared_tables(entry: dict) -> list[dict]:
    """The table declarations a ``qra3`` entry adds to the study's tables (so the audit accepts its cells)."""
    experiments = entry["experiments"]
    pairs = [f"{a}-{b}" for a, b in combinations(experiments, 2)]
    title = entry.get("title", f"QRA3 over experiments {', '.join(experiments)}")
    return [
        {
            "id": entry["table"],
            "title": title,
            "row_header": "criterion|system",
            "rows": table_rows(entry),
            "columns": QRA3_COLUMNS,
            "labels": worded(["criterion|system", *QRA3_COLUMNS], table_rows(entry)),
            "precision": {"within_1sd": 0, "within_2sd": 0},
        },
        {
            "id": f"{entry['table']}_pairwise",
            "title": f"{title}: each pair of experiments",
            "row_header": "criterion|pair",
            "rows": (rows := [f"{c['name']}|{p}" for c in entry["criteria"] for p in pairs]),
            "columns": PAIRWISE_COLUMNS,
            "labels": worded(["criterion|pair", *PAIRWISE_COLUMNS], rows),
        },
        {
            "id": f"{entry['table']}_input",
            "title": f"{title}: the system-level scores (the QRA3 tool's input)",
            "row_header": "criterion|experiment|system",
            "rows": (
                inputs := [f"{c['name']}|{e}|{s}" for c in entry["criteria"] for e in experiments for s in c["systems"]]
            ),
            "columns": ["result"],
            "labels": worded(["criterion|experiment|system", "result"], inputs),
            "precision": {"result": 4},
        },
    ]
