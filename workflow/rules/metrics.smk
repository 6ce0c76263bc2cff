rule metrics:
    """Per-study metrics on the kept judgements (numbers: table, row, column, value)."""
    input:
        kept="results/{study}/intermediate/judgements_kept.csv",
        judgements="results/{study}/tidy/judgements.csv",
        participants="results/{study}/tidy/participants.csv",
        exclusions="results/{study}/exclusions.csv",
        code=CODE_VERSION,
    output:
        numbers="results/{study}/intermediate/metrics.csv",
    log:
        "results/logs/metrics/{study}.log",
    conda:
        "../../envs/humeval.yaml"
    params:
        study=get_study,
    script:
        "../scripts/metrics.py"
