"""Published aggregates a study uses as inputs where its raw data are not public (rank counts), checked on load
by :mod:`humeval.config` and read by the metrics."""

from __future__ import annotations

from humeval.errors import HumevalError


def rank_count_rows(aggregate: dict) -> dict[str, list[int]]:
    """The counts of a ``published_aggregates`` entry of kind rank_counts, ``{system: [f(s, 1), ...]}``, after
    checking them: every system gives the same number of ranks, each system's counts sum to the stated
    ``total`` and, when every ranking fills every rank once (as many ranks as systems), so do each rank's."""
    counts = {system: [int(c) for c in row] for system, row in aggregate["counts"].items()}
    widths = {len(row) for row in counts.values()}
    if len(widths) != 1:
        raise HumevalError(f"published aggregate {aggregate['id']}: systems give different numbers of ranks")
    total = int(aggregate["total"])
    for system, row in counts.items():
        if sum(row) != total:
            raise HumevalError(
                f"published aggregate {aggregate['id']}: counts of system {system!r} sum to {sum(row)}, "
                f"expected total {total}"
            )
    if len(counts) == widths.pop():
        for rank, column in enumerate(zip(*counts.values()), start=1):
            if sum(column) != total:
                raise HumevalError(
                    f"published aggregate {aggregate['id']}: counts at rank {rank} sum to {sum(column)}, "
                    f"expected total {total}"
                )
    return counts
