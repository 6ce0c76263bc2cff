rule published:
    """Parse the study's published numbers (the strings the paper printed) once: value, precision, marker, note."""
    input:
        code=CODE_VERSION,
    output:
        published="results/{study}/intermediate/published.csv",
    log:
        "results/logs/published/{study}.log",
    conda:
        "../../envs/humeval.yaml"
    params:
        study=get_published_config,
    script:
        "../scripts/published.py"
