rule metrics:
    """Per-study metric values on the kept judgements (table, row, column, value)."""
    input:
        judgements="results/{study}/tidy/judgements.csv",
        participants="results/{study}/tidy/participants.csv",
        exclusions="results/{study}/exclusions.csv",
        variants="results/{study}/exclusions_variants.csv",
        published="results/{study}/intermediate/published.csv",
        code=code_for("metrics"),
    output:
        metrics="results/{study}/intermediate/metrics.csv",
    log:
        "results/logs/metrics/{study}.log",
    benchmark:
        "results/benchmarks/metrics/{study}.tsv"
    conda:
        "../../envs/humeval.yaml"
    params:
        study=stage_slice("metrics"),
    script:
        "../scripts/metrics.py"
