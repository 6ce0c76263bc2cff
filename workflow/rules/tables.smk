rule tables:
    """numbers.csv (recomputed vs published, with status) and every paper table as CSV + Markdown."""
    input:
        numbers="results/{study}/intermediate/metrics.csv",
        qra="results/{study}/intermediate/qra.csv",
        code=CODE_VERSION,
    output:
        audit=report(
            "results/{study}/numbers.csv", caption="../report/numbers.rst", category="{study}", subcategory="audit"
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
    conda:
        "../../envs/humeval.yaml"
    params:
        study=get_study,
    script:
        "../scripts/tables.py"
