rule code_version:
    """Stamp the package sources (sha256 per file); a change to the package reruns every stage."""
    input:
        PACKAGE_SOURCES,
    output:
        CODE_VERSION,
    log:
        "results/logs/code_version/code_version.log",
    conda:
        "../../envs/humeval.yaml"
    script:
        "../scripts/code_version.py"
