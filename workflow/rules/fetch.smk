rule fetch_raw:
    """Copy the study's pinned raw exports from the mirror or download them; refuse any whose sha256 differs."""
    output:
        directory(f"{RAW_DIR}/{{study}}"),
    log:
        "results/logs/fetch_raw/{study}.log",
    params:
        files=get_raw_files,
        mirror=RAW_MIRROR,
    conda:
        "../../envs/humeval.yaml"
    script:
        "../scripts/fetch_raw.py"
