# humeval-repro: the entry point of the clone. The workflow itself is workflow/Snakefile (the catalogue layout);
# this file uses it exactly as a consumer workflow does (docs/deployment.md): as a module, with this clone's
# config/config.yaml.


configfile: "config/config.yaml"


module humeval:
    snakefile:
        "workflow/Snakefile"
    config:
        config


use rule * from humeval


onsuccess:
    # the console's closing summary: where the report is, and one line per study (humeval.report.front_page; a module's
    # onsuccess does not run, so a consumer workflow adds these lines to its own, docs/deployment.md)
    from humeval.report.front_page import console_summary

    for line in console_summary("results/summary/verdict.csv"):
        logger.info(line)
