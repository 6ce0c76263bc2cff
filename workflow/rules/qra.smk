rule qra:
    """Original vs reproduction: QRA Type I (CV*) and Type II (correlations) as the study config sets."""
    input:
        numbers="results/{study}/intermediate/metrics.csv",
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
