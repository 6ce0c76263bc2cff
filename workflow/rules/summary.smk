rule summary:
    """Cross-study summary: QRA Types I/II with inputs and recipes, claims (Type IV), QRA3, audit counts and
    mismatches (CSV, Markdown, HTML for the report), and the report's landing page (overview.rst)."""
    input:
        audits=expand("results/{study}/numbers.csv", study=STUDIES),
        qra=expand("results/{study}/intermediate/qra_summary.csv", study=STUDIES),
        qra3=expand("results/{study}/qra3", study=STUDIES),
        code_version=CODE_VERSION,
        planning=expand("results/{study}/planning/power.csv", study=STUDIES) if PLANNING else [],
        code=code_for("summary"),
    output:
        qra="results/summary/qra.csv",
        qra_md="results/summary/qra.md",
        qra_html=report(
            "results/summary/qra.html",
            caption="../report/summary_qra.rst",
            category="Summary",
            labels={"study": "all", "table": "qra", "kind": "summary"},
        ),
        verdict="results/summary/verdict.csv",
        verdict_html=report(
            "results/summary/summary-verdict.html",
            caption="../report/summary_verdict.rst",
            category="Summary",
            labels={"study": "all", "table": "verdict", "kind": "summary"},
        ),
        claims="results/summary/claims.csv",
        claims_md="results/summary/claims.md",
        claims_html=report(
            "results/summary/summary-claims.html",
            caption="../report/summary_claims.rst",
            category="Summary",
            labels={"study": "all", "table": "claims", "kind": "summary"},
        ),
        audit="results/summary/audit.csv",
        mismatches="results/summary/audit_mismatches.csv",
        audit_md="results/summary/audit.md",
        audit_html=report(
            "results/summary/summary-audit.html",
            caption="../report/summary_audit.rst",
            category="Summary",
            labels={"study": "all", "table": "audit", "kind": "summary"},
        ),
        figure=report(
            "results/summary/figure_cv_star.png",
            caption="../report/summary_figure.rst",
            category="Summary",
            labels={"study": "all", "figure": "figure_cv_star", "kind": "figure"},
        ),
        qra3="results/summary/qra3.csv",
        qra3_md="results/summary/qra3.md",
        qra3_html=report(
            "results/summary/qra3.html",
            caption="../report/summary_qra3.rst",
            category="Summary",
            labels={"study": "all", "table": "qra3", "kind": "summary"},
        ),
        qra3_figure=report(
            "results/summary/figure_qra3.png",
            caption="../report/summary_qra3.rst",
            category="Summary",
            labels={"study": "all", "figure": "figure_qra3", "kind": "figure"},
        ),
        raw_html=report(
            "results/summary/summary-raw-files.html",
            caption="../report/summary_audit.rst",
            category="Summary",
            labels={"study": "all", "table": "raw files", "kind": "provenance"},
        ),
        findings="results/summary/findings.csv",
        findings_html=report(
            "results/summary/summary-findings.html",
            caption="../report/summary_claims.rst",
            category="Summary",
            labels={"study": "all", "table": "findings", "kind": "summary"},
        ),
        planning="results/summary/planning.csv",
        planning_html=report(
            "results/summary/summary-planning.html",
            caption="../report/planning.rst",
            category="Summary",
            labels={"study": "all", "table": "planning", "kind": "summary"},
        ),
        overview="results/summary/overview.rst",
        run="results/summary/run.csv",
        run_html=report(
            "results/summary/summary-run.html",
            caption="../report/summary_run.rst",
            category="Summary",
            labels={"study": "all", "table": "run", "kind": "provenance"},
        ),
        cards=[
            report(
                f"results/summary/card-{study}.html",
                caption="../report/verdict_card.rst",
                category=study,
                subcategory="at a glance",
                labels={"study": study, "table": "verdict card", "kind": "verdict"},
            )
            for study in STUDIES
        ],
    log:
        "results/logs/summary/summary.log",
    benchmark:
        "results/benchmarks/summary/summary.tsv"
    conda:
        "../../envs/humeval.yaml"
    params:
        studies=list(STUDIES),
        planning=PLANNING,
        formats=FIGURE_FORMATS,
        configs=all_studies_slice("summary"),
    script:
        "../scripts/summary.py"
