rule tables:
    """The audit (numbers.csv: every number the study's tables hold, recomputed vs published, with status and
    diagnosis) and every paper table from it as CSV (full precision) and Markdown (the paper's precision, marked
    cells). One job: the tables are a view of the audit, and a second process would only reread it."""
    input:
        metrics="results/{study}/intermediate/metrics.csv",
        qra="results/{study}/intermediate/qra.csv",
        published="results/{study}/intermediate/published.csv",
        code=code_for("tables"),
    output:
        audit=report(
            "results/{study}/numbers.csv",
            caption="../report/numbers.rst",
            category="{study}",
            subcategory="audit",
        ),
        tables=report(
            directory("results/{study}/tables"),
            patterns=["{name}.csv"],
            caption="../report/tables.rst",
            category="{study}",
            subcategory="tables",
        ),
    log:
        "results/logs/tables/{study}.log",
    priority: stage_priority("tables")
    conda:
        "../../envs/humeval.yaml"
    params:
        study=config_slice("tables", "rounding"),
    script:
        "../scripts/tables.py"
