rule exclude:
    """Apply the study's named exclusion rules; every dropped judgement goes to exclusions.csv (the kept ones are
    the tidy judgements it does not hold, derived where they are read)."""
    input:
        judgements="results/{study}/tidy/judgements.csv",
        participants="results/{study}/tidy/participants.csv",
        code=code_for("exclude"),
    output:
        exclusions="results/{study}/exclusions.csv",
        variants="results/{study}/exclusions_variants.csv",
    log:
        "results/logs/exclude/{study}.log",
    benchmark:
        "results/benchmarks/exclude/{study}.tsv"
    conda:
        "../../envs/humeval.yaml"
    params:
        study=stage_slice("exclude"),
    script:
        "../scripts/exclude.py"
