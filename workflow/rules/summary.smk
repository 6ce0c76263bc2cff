rule summary:
    """Cross-study summary: QRA Types I/II with inputs and recipes, claims (Type IV), QRA3, audit counts and mismatches."""
    input:
        audits=expand("results/{study}/numbers.csv", study=STUDIES),
        qra=expand("results/{study}/intermediate/qra_summary.csv", study=STUDIES),
        qra3=expand("results/{study}/qra3", study=STUDIES),
        code=code_for("summary"),
    output:
        qra=report("results/summary/qra.csv", caption="../report/summary_qra.rst", category="Summary"),
        qra_md="results/summary/qra.md",
        claims=report("results/summary/claims.csv", caption="../report/summary_claims.rst", category="Summary"),
        claims_md="results/summary/claims.md",
        audit=report("results/summary/audit.csv", caption="../report/summary_audit.rst", category="Summary"),
        mismatches=report(
            "results/summary/audit_mismatches.csv", caption="../report/summary_audit.rst", category="Summary"
        ),
        audit_md="results/summary/audit.md",
        figure=report("results/summary/figure_cv_star.png", caption="../report/summary_figure.rst", category="Summary"),
        qra3=report("results/summary/qra3.csv", caption="../report/summary_qra3.rst", category="Summary"),
        qra3_md="results/summary/qra3.md",
        qra3_figure=report("results/summary/figure_qra3.png", caption="../report/summary_qra3.rst", category="Summary"),
    log:
        "results/logs/summary/summary.log",
    priority: stage_priority("summary")
    conda:
        "../../envs/humeval.yaml"
    params:
        studies=list(STUDIES),
        formats=FIGURE_FORMATS,
        configs={name: {k: s[k] for k in ("qra", "qra3") if k in s} for name, s in STUDIES.items()},
    script:
        "../scripts/summary.py"
