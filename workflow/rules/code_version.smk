rule code_version:
    """Stamp the package sources the jobs ran (sha256 per file): the code version of the results."""
    input:
        PACKAGE_SOURCES,
    output:
        CODE_VERSION,
    log:
        "results/logs/code_version/code_version.log",
    benchmark:
        "results/benchmarks/code_version/code_version.tsv"
    conda:
        "../../envs/humeval.yaml"
    script:
        "../scripts/code_version.py"
