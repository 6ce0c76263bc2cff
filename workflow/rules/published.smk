rule published:
    """Parse the study's published numbers once (value, precision, marker, note): the strings the config
    transcribes from the paper, and the rows of published files (full precision) where the study has any."""
    input:
        raw=f"{RAW_DIR}/{{study}}",
        code=code_for("published"),
    output:
        published="results/{study}/intermediate/published.csv",
    log:
        "results/logs/published/{study}.log",
    benchmark:
        "results/benchmarks/published/{study}.tsv"
    conda:
        "../../envs/humeval.yaml"
    params:
        study=stage_slice("published"),
    script:
        "../scripts/published.py"
