rule tables:
    """Every paper table as CSV (full precision) and Markdown (the paper's precision, marked cells), from the audit."""
    input:
        audit="results/{study}/numbers.csv",
        code=CODE_VERSION,
    output:
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
