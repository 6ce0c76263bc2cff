"""The audit and table pages a reviewer reads in the report (humeval.report.html_tables): rows in reading order, the
note in a column of its own, 100 rows a page, and a download link holding exactly the CSV the workflow wrote."""

import base64
import re

import pandas as pd

from humeval.intermediate import write_csv
from humeval.report.html_tables import EVIDENCE_WORDS, PAGE_ROWS, STATUSES, audit_html


def audit_frame(n):
    statuses = ["match", "recomputed_only", "mismatch", "published_only", "published_input"]
    return pd.DataFrame(
        {
            "table": "t1",
            "row": [f"r{k}" for k in range(n)],
            "column": "x",
            "value": [float(k) for k in range(n)],
            "published": [float(k) for k in range(n)],
            "precision": 2,
            "status": [statuses[k % 5] for k in range(n)],
            "note": [f"[explained] note {k} =HYPERLINK" if k % 5 == 2 else "" for k in range(n)],
        }
    )


def test_an_audit_page_reads_mismatches_first_and_downloads_the_written_csv(tmp_path):
    audit = audit_frame(250)
    write_csv(audit, tmp_path / "numbers.csv")
    page = audit_html(audit, "s-2020-x", csv=tmp_path / "numbers.csv")
    statuses = re.findall(r'<tr class="(\w+)" data-status=', page)
    assert len(statuses) == 250
    assert statuses == sorted(
        statuses, key=["mismatch", "published_only", "published_input", "match", "recomputed_only"].index
    )
    rows = re.findall(r'<tr class="\w+" data-status="\w+"><td>t1</td><td>(r\d+)</td>', page)
    assert rows[:3] == ["r2", "r7", "r12"]  # stable within a status: the CSV's order
    link = re.search(r'<a download="numbers.csv" href="data:text/csv;base64,([A-Za-z0-9+/=]+)">', page)
    assert base64.b64decode(link.group(1)) == (tmp_path / "numbers.csv").read_bytes()
    assert '<td class="note">note 2 =HYPERLINK</td>' in page  # the note as text, its own column
    assert f"size={PAGE_ROWS};" in page and 'id="next"' in page and 'id="prev"' in page
    legend = re.findall(r"<li>(Status: .*?|Evidence \w+: .*?)</li>", page)  # every status and class explained
    assert len(legend) == 4 and all(s.replace("_", " ") in legend[0] for s in STATUSES)
    assert [line.split(":")[0] for line in legend[1:]] == [f"Evidence {name}" for name in EVIDENCE_WORDS]


def test_a_page_without_a_csv_has_no_download_link():
    assert "download" not in audit_html(audit_frame(3), "s-2020-x")


def test_the_audit_page_names_tables_rows_and_columns_as_the_paper_does():
    """Issue 55: the page showed keys (``table1 / PPLM / cv_star``) where the study gives the paper's words; the
    keys stay in numbers.csv, and a table without a paper name or labels shows its keys."""
    audit = audit_frame(2).assign(column=["cv_star", "sd"])
    tables = [{"id": "t1", "paper": "Table 1", "labels": {"cv_star": "CV*", "r1": "PPLM"}}]
    page = audit_html(audit, "s-2020-x", tables=tables)
    assert "<td>Table 1 (t1)</td><td>r0</td><td>CV*</td>" in page
    assert "<td>Table 1 (t1)</td><td>PPLM</td><td>sd</td>" in page
    assert "<td>t1</td><td>r0</td><td>cv_star</td>" in audit_html(audit, "s-2020-x")
