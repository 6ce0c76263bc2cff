rule qra:
    """Original vs reproduction: QRA Type I (CV*), Type II (correlations) and Type IV (claims) as the study sets."""
    input:
        metrics="results/{study}/intermediate/metrics.csv",
        published="results/{study}/intermediate/published.csv",
        code=CODE_VERSION,
    output:
        qra="results/{study}/intermediate/qra.csv",
        summary="results/{study}/intermediate/qra_summary.csv",
    log:
        "results/logs/qra/{study}.log",
    conda:
        "../../envs/humeval.yaml"
    params:
        study=get_study,
    script:
        "../scripts/qra.py"
