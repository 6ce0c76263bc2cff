rule fetch_raw:
    """Copy the study's pinned raw exports from the mirror or download them; refuse any whose sha256 differs."""
    output:
        directory(f"{RAW_DIR}/{{study}}"),
    log:
        "results/logs/fetch_raw/{study}.log",
    benchmark:
        "results/benchmarks/fetch_raw/{study}.tsv"
    conda:
        "../../envs/humeval.yaml"
    params:
        # the files' URLs and checksums (their digest) are provenance; where they are copied from (a mirror) is
        # not, so the script resolves the mirror itself (config raw_mirror, else $HUMEVAL_RAW_MIRROR) and a run
        # with another mirror or none does not refetch
        study=stage_slice("fetch_raw"),
    script:
        "../scripts/fetch_raw.py"
