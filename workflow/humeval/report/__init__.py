"""What a reviewer sees, in one wing: the front page and console summary (:mod:`.front_page`), the verdict cards
(:mod:`.verdict_card`), the HTML pages of tables and audits (:mod:`.html_tables`), the tables as CSV, Markdown and
LaTeX (:mod:`.tables`, :mod:`.table_files`) and the figures by family (:mod:`.figures`). They read what the stages
computed (numbers.csv, the summaries, power.csv) and compute nothing of their own."""

import re

__all__ = ["report_label", "study_labels"]

#: What a label of Snakemake's report may not hold: the report embeds its labels as JSON inside a ``<script>``
#: element, where ``</script>`` or ``<!--`` would end or bend the script, and a control or line-separator
#: character would break the line.
REPORT_LABEL_UNSAFE = re.compile(r"[<>&\x00-\x1f\x7f\u2028\u2029]")


def report_label(text) -> str:
    """A label of Snakemake's report (``report(labels=...)``) as plain text: every character of
    :data:`REPORT_LABEL_UNSAFE` replaced by ``?``. The one way config text (a table's ``paper`` name) reaches the
    report's labels, so none can close the script that holds them.

    >>> report_label("Table 3</script><img src=x onerror=alert(1)>")
    'Table 3?/script??img src=x onerror=alert(1)?'
    """
    return REPORT_LABEL_UNSAFE.sub("?", str(text))


def study_labels(studies) -> dict[str, str]:
    """Each study's short label, unique among ``studies`` by construction: its first two dash-separated parts
    (author-year, ``yao-2022``), or as many more as tell it from every other study (a copy of yao enabled beside
    it, ``yao-2022-storybook-qag-copy``, no longer gives two ``yao-2022`` rows).

    >>> study_labels(["yao-2022-storybook-qag", "yao-2022-storybook-qag-copy", "liu-2021-dexperts-fluency"])
    {'yao-2022-storybook-qag': 'yao-2022-storybook-qag', 'yao-2022-storybook-qag-copy': 'yao-2022-storybook-qag-copy', 'liu-2021-dexperts-fluency': 'liu-2021'}
    """
    from collections import Counter

    names = list(dict.fromkeys(studies))
    shared = Counter(prefix for name in names for prefix in prefixes(name))  # linear in the studies' names
    labels = {}
    for name in names:
        labels[name] = next((p for p in prefixes(name) if shared[p] == 1), name)
    return labels


def prefixes(name: str) -> list[str]:
    """A study name's dash-separated prefixes of two parts and more (the whole name last)."""
    parts = name.split("-")
    return ["-".join(parts[:k]) for k in range(min(2, len(parts)), len(parts) + 1)]
