"""Every paper table also as LaTeX (``tables/<table>.tex``, booktabs), compiled with pdfLaTeX from Debian's
packages: each study's tables in one document, and a table whose labels hold every character LaTeX reads as markup."""

import shutil
import subprocess

import pandas as pd
import pytest
from helpers import CI_LIMIT, skip_or_fail

from humeval.report.tables import latex_table

pytestmark = pytest.mark.e2e
PREAMBLE = r"\documentclass{article}\usepackage{booktabs}\usepackage[margin=1cm,landscape]{geometry}\begin{document}"


def compile_latex(folder, name: str, body: str) -> subprocess.CompletedProcess:
    if not shutil.which("pdflatex"):
        skip_or_fail("pdflatex is not installed (Debian: texlive-latex-base texlive-latex-recommended)")
    (folder / f"{name}.tex").write_text(PREAMBLE + "\n" + body + "\n\\end{document}\n")
    return subprocess.run(
        ["pdflatex", "-interaction=nonstopmode", "-halt-on-error", f"{name}.tex"],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=CI_LIMIT,
        check=False,
    )


def test_every_table_has_a_tex_beside_its_csv_and_every_study_compiles(full_run, tmp_path):
    studies = sorted(p.parent / "tables" for p in (full_run / "results").glob("*/numbers.csv"))
    assert len(studies) >= 6
    for tables in studies:
        csvs = sorted(tables.glob("*.csv"))
        assert csvs and all(c.with_suffix(".tex").is_file() for c in csvs), tables
        body = "\n".join(f"\\input{{{c.with_suffix('.tex')}}}\\clearpage" for c in csvs)
        result = compile_latex(tmp_path, tables.parent.name, body)
        assert result.returncode == 0, result.stdout[-3000:]


def test_a_table_with_markup_characters_and_every_status_mark_compiles(tmp_path):
    audit = pd.DataFrame(
        {
            "table": "t_1",
            "row": ["A & B_1", "[2cm] 50% {x}", "*c#d", "e~f"],  # after \\, [ and * would be its argument
            "column": "$value^2",
            "value": [1.0, None, 2.0, 3.0],
            "published": [1.0, 4.0, 2.5, None],
            "precision": 2,
            "status": ["match", "published_only", "mismatch", "recomputed_only"],
            "note": ["", "no raw data \\ here", "a rounding <recipe> | ≠", ""],
        }
    )
    table = {"id": "t_1", "title": "Fifty % of $ & _ {}", "columns": ["$value^2"]}
    tex = latex_table(audit, table)
    assert r"\textsuperscript{\dag}" in tex and r"\textsuperscript{\ddag}" in tex and r"A \& B\_1" in tex
    assert r"{}[2cm] 50\% \{x\}" in tex and r"{}*c\#d" in tex
    result = compile_latex(tmp_path, "markup", tex)
    assert result.returncode == 0, result.stdout[-3000:]
