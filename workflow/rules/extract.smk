rule extract:
    """Raw exports -> tidy long table (one row per judgement, pseudonymous ids) and participants."""
    input:
        unpack(get_raw_inputs),
        code=PACKAGE_SOURCES,
    output:
        judgements="results/{study}/tidy/judgements.csv",
        participants="results/{study}/tidy/participants.csv",
    log:
        "results/logs/extract/{study}.log",
    params:
        study=get_study,
    conda:
        "../../envs/humeval.yaml"
    script:
        "../scripts/extract.py"
