rule audit:
    """numbers.csv: every number the study's tables hold, recomputed vs published, with status and diagnosis."""
    input:
        metrics="results/{study}/intermediate/metrics.csv",
        qra="results/{study}/intermediate/qra.csv",
        published="results/{study}/intermediate/published.csv",
        code=CODE_VERSION,
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
        study=get_study,
    script:
        "../scripts/audit.py"
