rule audit:
    """numbers.csv: every number the study's tables hold, recomputed vs published, with status and diagnosis."""
    input:
        metrics="results/{study}/intermediate/metrics.csv",
        qra="results/{study}/intermediate/qra.csv",
        published="results/{study}/intermediate/published.csv",
        code=code_for("audit"),
    output:
        audit=report(
            "results/{study}/numbers.csv",
            caption="../report/numbers.rst",
            category="{study}",
            subcategory="audit",
        ),
    log:
        "results/logs/audit/{study}.log",
    conda:
        "../../envs/humeval.yaml"
    params:
        study=config_slice("tables"),
    script:
        "../scripts/audit.py"
