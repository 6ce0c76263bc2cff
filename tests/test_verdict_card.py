"""The verdict card a reviewer opens first (:mod:`humeval.report.verdict_card`), on frames small enough to write the
expected words by hand: which finding holds where, each reproduction's size and power, why numbers differ."""

import pandas as pd

from humeval.intermediate import JUDGEMENTS, PRINTED
from humeval.report.verdict_card import verdict_card_html

NAN = float("nan")


def found(rows) -> pd.DataFrame:
    """findings.csv rows: (finding, text, experiment, holds, difference_p, power, low, high, basis, note)."""
    columns = ["finding", "text", "experiment", "holds", "difference_p", "power", "power_low", "power_high"]
    return pd.DataFrame(rows, columns=[*columns, "power_basis", "power_note"]).assign(
        power_analysis="as published", paper_power=NAN, paper_power_low=NAN, paper_power_high=NAN, paper_null_rate=NAN
    )


FOUND = found(
    [
        ("F3", "C beats D", "O", "yes", NAN, NAN, NAN, NAN, "", ""),
        ("F3", "C beats D", "R1", "not measured", NAN, NAN, NAN, NAN, NAN, NAN),
        ("F1", "A beats B", "O", "yes", NAN, NAN, NAN, NAN, "", ""),
        ("F1", "A beats B", "R1", "no", 0.05, 0.61, 0.55, 0.67, "safeguard", "an upper bound"),
        ("F1", "A beats B", "R2", "no", 0.0123, NAN, NAN, NAN, "", "R2 does not measure this finding's cells"),
        ("F2", "B <beats> C", "O", "no", NAN, NAN, NAN, NAN, "", ""),
        ("F2", "B <beats> C", "R1", "no", NAN, 0.61, 0.55, 0.67, "safeguard", "an upper bound"),
        ("F4", "D beats E", "O", "yes", NAN, NAN, NAN, NAN, "", ""),
        ("F4", "D beats E", "R1", "yes", NAN, 0.3, NAN, NAN, NAN, NAN),  # no interval, basis or note
    ]
)
POWER = pd.DataFrame(
    {
        "design": ["planned", "R1", "R1"],
        "evaluators": [5, 10, 12],
        "items": [50, 100, 100],
        "judgements_per_item": [1, 3, 3],
    }
)


def audit(rows) -> pd.DataFrame:
    """(status, note, basis, table, row, column) rows, with unrecomputed for published-only ones."""
    frame = pd.DataFrame(rows, columns=["status", "note", "basis", "table", "row", "column"])
    return frame.assign(unrecomputed=["no_raw_data" if s == "published_only" else "" for s in frame["status"]])


AUDIT = audit(
    [("match", "", JUDGEMENTS, "t2", "a", "m")] * 3
    + [("match", "", PRINTED, "q", "a", "cv")] * 2
    + [("mismatch", "[explained] rounded before averaging", JUDGEMENTS, "t2", r, "m") for r in "bcde"]
    + [("mismatch", "", PRINTED, "q", "b", "cv")]
    + [("mismatch", "[hypothesis] a typo", JUDGEMENTS, "t3", r, "m") for r in "xyz"]
    + [("mismatch", "", JUDGEMENTS, "t3", "z", "m")]
    + [("published_only", "", "", "t9", "a", "m")] * 2
)
TABLES = [{"id": "t2", "paper": "Table 2", "labels": {"m": "Mean"}}]


def card(found=FOUND, audit=AUDIT, power=POWER) -> str:
    return verdict_card_html("toy<study>", found, audit, power, TABLES)


def test_which_findings_held_where_in_words():
    html = card()
    assert "<title>toy&lt;study&gt;: verdict</title>" in html and "<h1>toy&lt;study&gt;: verdict</h1>" in html
    assert "<thead><tr><th>finding</th><th>O</th><th>R1</th><th>R2</th></tr></thead>" in html
    assert html.index('<span class="id">F3</span>') < html.index('<span class="id">F1</span>')  # the table's order
    assert (
        '<tr><td class="finding">A beats B<span class="id">F1</span></td><td class="match">holds</td>'
        '<td class="mismatch">does not hold (effect consistent with the original&#x27;s, p 0.05)</td>'
        '<td class="mismatch">does not hold (effect unlike the original&#x27;s, p 0.012)</td></tr>'
    ) in html
    assert (
        '<tr><td class="finding">B &lt;beats&gt; C<span class="id">F2</span></td><td class="mismatch">does not hold'
        '</td><td class="mismatch">does not hold</td><td class="">not measured</td></tr>'
    ) in html  # no row for R2: not measured; no difference p: no words on the effect
    assert '<td class="match">holds</td><td class="">not measured</td><td class="">not measured</td>' in html


def test_each_reproductions_size_and_power_with_findings_of_the_same_power_in_one_row():
    html = card()
    assert (
        '<tr><td rowspan="3">R1</td><td rowspan="3">10 people x 100 items x 3 per item</td><td>F3</td>'
        '<td class="finding">Not estimated</td></tr>'
        '<tr><td>F1, F2</td><td class="finding">0.61 [0.55, 0.67] at the safeguard effect (an upper bound)</td></tr>'
        '<tr><td>F4</td><td class="finding">0.30</td></tr>'
    ) in html
    assert (
        '<tr><td rowspan="1">R2</td><td rowspan="1">not sized by planning (the reason is beside)</td><td>F1</td>'
        '<td class="finding">R2 does not measure this finding&#x27;s cells</td></tr>'
    ) in html
    assert "not sized by planning" in card(power=None) and "not sized by planning" in card(power=POWER.iloc[:0])
    only_original = FOUND[FOUND["experiment"] == "O"]
    assert "<p>No reproduction of these findings.</p>" in card(found=only_original)
    assert "<p>The study states no findings.</p>" in card(found=FOUND.iloc[:0])


def test_why_numbers_differ_grouped_by_diagnosis_with_the_papers_names():
    html = card()
    assert "<p>3 of 11 printed numbers the raw data can determine are reproduced; 2 are not recomputed" in html
    assert "(2 for want of raw data, 0 for want of a measure).</p>" in html
    assert "<p>2 of 3 printed numbers computed from other printed numbers alone" in html
    assert (
        '<tr><td class="num">4</td><td class="finding">rounded before averaging</td>'
        "<td>it cannot be recomputed from the public data (the evidence is given)</td>"
        "<td>Table 2: b / Mean; Table 2: c / Mean; Table 2: d / Mean and 1 more</td></tr>"
    ) in html
    assert (
        '<tr><td class="num">2</td><td class="finding">no diagnosis</td><td></td><td>q: b / cv; t3: z / m</td></tr>'
    ) in html
    assert "<td>a plausible cause, not verified</td><td>t3: x / m; t3: y / m; t3: z / m</td></tr>" in html  # three
    assert html.index("rounded before averaging") < html.index("no diagnosis") < html.index("a typo")


def test_every_number_reproduced_or_none_compared_says_so():
    reproduced = audit([("match", "", JUDGEMENTS, "t", "a", "m"), ("published_only", "", "", "t", "b", "m")])
    html = card(audit=reproduced)
    assert "<p>Every published number the raw data can determine is reproduced.</p>" in html
    assert "<p>1 of 1 printed numbers the raw data can determine are reproduced; 1 are not recomputed" in html
    assert "computed from other printed numbers alone" not in html
    printed = audit([("match", "", PRINTED, "q", "a", "cv")])
    html = card(audit=printed)
    assert "<p>No printed number was recomputed from judgements" in html
    assert "Every published number" not in html  # not one judgement was read (issue 51)
    assert "<p>1 of 1 printed numbers computed from other printed numbers alone" in html
    no_basis = audit([("match", "", "", "t", "a", "m")]).drop(columns="basis")
    assert "computed from other printed numbers" not in card(audit=no_basis)
    assert "Every published number the raw data can determine is reproduced." in card(audit=no_basis)
