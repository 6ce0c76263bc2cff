rule tables:
    """The audit (numbers.csv: every number the study's tables hold, recomputed vs published, with status and
    diagnosis) and every paper table from it as CSV (full precision), Markdown and HTML (the paper's precision,
    marked cells; the HTML pages, with the audit's, are the report's tables), and the conditions of measurement
    read from the experiments' datasheets (humeval.heds). One job: the tables are a view of the audit, and a second process would only reread it.
    """
    input:
        metrics="results/{study}/intermediate/metrics.csv",
        qra="results/{study}/intermediate/qra.csv",
        published="results/{study}/intermediate/published.csv",
        raw=f"{RAW_DIR}/{{study}}",
        code=code_for("tables"),
    output:
        audit="results/{study}/numbers.csv",
        audit_html=report(
            "results/{study}/numbers.html",
            caption="../report/numbers.rst",
            category="{study}",
            subcategory="audit",
            labels={"study": "{study}", "table": "numbers.csv", "kind": "audit"},
        ),
        tables=report(
            directory("results/{study}/tables"),
            patterns=["{name}.html"],
            caption="../report/tables.rst",
            category="{study}",
            subcategory="tables",
            labels=paper_labels("tables"),
        ),
    log:
        "results/logs/tables/{study}.log",
    benchmark:
        "results/benchmarks/tables/{study}.tsv"
    conda:
        "../../envs/humeval.yaml"
    params:
        study=stage_slice("tables"),
    script:
        "../scripts/tables.py"
