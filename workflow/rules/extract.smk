rule extract:
    """Raw exports -> tidy long table (one row per judgement, pseudonymous ids) and participants."""
    input:
        raw=f"{RAW_DIR}/{{study}}",
        code=CODE_VERSION,
    output:
        judgements="results/{study}/tidy/judgements.csv",
        participants="results/{study}/tidy/participants.csv",
    log:
        "results/logs/extract/{study}.log",
    conda:
        "../../envs/humeval.yaml"
    params:
        study=get_study,
        files=get_raw_files,
    script:
        "../scripts/extract.py"
