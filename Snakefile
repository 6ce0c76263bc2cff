# humeval-repro: regenerate published reproduction studies of human evaluations from raw exports.
# This file only sets up and includes; the rules live in workflow/rules, the logic in workflow/humeval.
from snakemake.utils import min_version

min_version("9.0")


configfile: "config/config.yaml"


report: "workflow/report/workflow.rst"


# On a cluster (profiles/slurm) these run where Snakemake runs, not submitted: downloads (compute nodes often
# have no internet), the published numbers (milliseconds of parsing), the code stamp and the target rule.
localrules:
    all,
    fetch_raw,
    published,
    code_version,


include: "workflow/rules/common.smk"
include: "workflow/rules/code_version.smk"
include: "workflow/rules/fetch.smk"
include: "workflow/rules/published.smk"
include: "workflow/rules/extract.smk"
include: "workflow/rules/exclude.smk"
include: "workflow/rules/metrics.smk"
include: "workflow/rules/qra.smk"
include: "workflow/rules/tables.smk"
include: "workflow/rules/figures.smk"
include: "workflow/rules/summary.smk"
include: "workflow/rules/rulegraph.smk"


rule all:
    default_target: True
    input:
        get_final_output(),
