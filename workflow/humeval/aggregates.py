"""Published aggregates a study uses as inputs where its raw data are not public (rank counts, answer counts per
system), checked on load by :mod:`humeval.config.load` and read by the metrics."""

from __future__ import annotations

from humeval.errors import HumevalError

__all__ = ["aggregate_cells", "answer_count_rows", "rank_count_rows"]


def rank_count_rows(aggregate: dict) -> dict[str, list[int]]:
    """The counts of a ``published_aggregates`` entry of kind rank_counts, ``{system: [f(s, 1), ...]}``, after
    checking them: every system gives the same number of ranks, each system's counts sum to the stated
    ``total`` and, when every ranking fills every rank once (as many ranks as systems), so do each rank's."""
    if any(not isinstance(row, list) for row in aggregate["counts"].values()) or "{rank}" not in aggregate["column"]:
        raise HumevalError(
            f"published aggregate {aggregate['id']}: rank_counts give a list of counts per system and a column with {{rank}}"
        )
    if "total" not in aggregate:
        raise HumevalError(f"published aggregate {aggregate['id']}: rank_counts need the total number of rankings")
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


def answer_count_rows(aggregate: dict) -> dict[str, dict[str, int]]:
    """The counts of a ``published_aggregates`` entry of kind answer_counts, ``{system: {answer: count}}``, after
    checking them: every system gives the same answers and, with a ``total``, its counts sum to it."""
    counts = aggregate["counts"]
    if any(not isinstance(row, dict) for row in counts.values()) or "{answer}" not in aggregate["column"]:
        raise HumevalError(
            f"published aggregate {aggregate['id']}: answer_counts give {{answer: count}} per system and a column "
            "with {answer}"
        )
    answers = [list(row) for row in counts.values()]
    if any(row != answers[0] for row in answers):
        raise HumevalError(f"published aggregate {aggregate['id']}: systems give different answers ({answers[0]}, ...)")
    for system, row in counts.items():
        if "total" in aggregate and sum(row.values()) != int(aggregate["total"]):
            raise HumevalError(
                f"published aggregate {aggregate['id']}: counts of system {system!r} sum to {sum(row.values())}, "
                f"expected total {aggregate['total']}"
            )
    return {system: {str(answer): int(n) for answer, n in row.items()} for system, row in counts.items()}


def aggregate_cells(aggregate: dict) -> dict[str, dict[str, str]]:
    """The printed cells of a ``published_aggregates`` entry (its table's rows and columns), checked by kind."""
    if aggregate["kind"] == "answer_counts":
        rows = answer_count_rows(aggregate)
        return {s: {aggregate["column"].format(answer=a): str(n) for a, n in row.items()} for s, row in rows.items()}
    rows = rank_count_rows(aggregate)
    return {s: {aggregate["column"].format(rank=r): str(n) for r, n in enumerate(row, 1)} for s, row in rows.items()}
