rule tables:
    """Every paper table as CSV (full precision) and Markdown (the paper's precision, marked cells), from the audit."""
    input:
        audit="results/{study}/numbers.csv",
        code=code_for("tables"),
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
        study=config_slice("tables", "rounding"),
    script:
        "../scripts/tables.py"
