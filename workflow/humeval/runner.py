"""The harness every pipeline script runs in: logging to the rule's log, one-line errors.

``run(snakemake, main)`` sends logging and stderr to ``snakemake.log[0]``, calls ``main()``, and turns a
:class:`HumevalError` into one line on the terminal (and in the log) and exit status 1, so Snakemake
removes the job's outputs and the user sees what to fix instead of a traceback. Any other exception (a
bug) also gives one line on the terminal; its traceback goes to the log.
"""

from __future__ import annotations

import logging
import sys
import time
from collections.abc import Callable

from humeval.errors import HumevalError


def config_param(snakemake, name: str = "study"):
    """A config param of the job (``config_slice`` in workflow/rules/common.smk), decoded: a Python literal with
    ``<``, ``>`` and ``&`` escaped, because Snakemake's report embeds each job's params in an inline script."""
    import ast

    return ast.literal_eval(getattr(snakemake.params, name))


def run(snakemake, main: Callable[[], None]) -> None:
    """Run ``main`` with logging to the rule's log file; exit 1 with a clear message on bad input."""
    terminal = sys.stderr
    log_file = open(snakemake.log[0], "w", buffering=1)  # noqa: SIM115 - lives as long as the job
    sys.stderr = log_file
    logging.basicConfig(
        stream=log_file, level=logging.INFO, force=True, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    log = logging.getLogger("humeval")
    started = time.perf_counter()
    label = f"{snakemake.rule} {dict(snakemake.wildcards.items())}"
    log.info("start %s", label)
    try:
        main()
    except HumevalError as exc:
        log.error("%s", exc)
        print(f"humeval error in {label}: {exc}", file=terminal)
        sys.exit(1)
    except Exception as exc:  # a bug, not bad input: one line on the terminal, the traceback in the log
        log.exception("internal error")
        print(
            f"humeval internal error in {label}: {type(exc).__name__}: {exc} (traceback in {snakemake.log[0]})",
            file=terminal,
        )
        sys.exit(1)
    log.info("done %s in %.2f s", label, time.perf_counter() - started)
