rule extract:
    """Raw exports -> tidy long table (one row per judgement, pseudonymous ids) and participants."""
    input:
        raw=f"{RAW_DIR}/{{study}}",
        code=code_for("extract"),
    output:
        judgements="results/{study}/tidy/judgements.csv",
        participants="results/{study}/tidy/participants.csv",
    log:
        "results/logs/extract/{study}.log",
    benchmark:
        "results/benchmarks/extract/{study}.tsv"
    conda:
        "../../envs/humeval.yaml"
    params:
        study=stage_slice("extract"),
    script:
        "../scripts/extract.py"
