"""QRA Type IV claims, line by line (issue 52): verdicts on two sides and on any number of experiments, the default
alpha, "replicated", the operand cells each verdict rests on, bounds, and the order of sides. Each test is built
so that one changed line of humeval.qra.claims (or the audit's bounds, the tally's sign test, the bootstrap's item
draws) makes it fail."""

import numpy as np
import pandas as pd
import pytest

from humeval.audit import status_of
from humeval.published import published_frame
from humeval.qra.claims import claims_entry

COLUMNS = ["table", "row", "column", "value"]


def values(cells: dict) -> pd.DataFrame:
    """Metric values {(row, column): value} of table ``m``."""
    return pd.DataFrame([("m", r, c, v) for (r, c), v in cells.items()], columns=COLUMNS)


def claim(p_alpha: float | None = None) -> dict:
    """A is above B on the side, and (where ``p_alpha`` is not None) the side's test is significant."""
    spec = {
        "id": "C1",
        "text": "A above B",
        "comparisons": [
            {
                "left": {"table": "m", "row": "{side}", "column": "A"},
                "op": ">",
                "right": {"table": "m", "row": "{side}", "column": "B"},
            }
        ],
    }
    if p_alpha is not None:
        spec["significance"] = {"p": {"table": "m", "row": "{side}", "column": "p"}}
        if p_alpha:
            spec["significance"]["alpha"] = p_alpha
    return spec


def cells_of(out) -> dict:
    return {(row, column): value for _, row, column, value in out}


EMPTY = published_frame([])


def test_two_sides_give_each_verdict_replicated_and_the_operands_in_their_own_cells():
    numbers = values(
        {("original", "A"): 3.0, ("original", "B"): 2.0, ("reproduction", "A"): 1.0, ("reproduction", "B"): 4.0}
    )
    out, summary = claims_entry(numbers, EMPTY, table="claims", claims=[claim()])
    got = cells_of(out)
    assert summary == []
    assert got[("C1", "original")] == 1.0 and got[("C1", "reproduction")] == 0.0
    assert got[("C1", "replicated")] == 0.0  # holds in the original only: not replicated ("or" would say 1)
    assert (got[("C1.1", "original_left")], got[("C1.1", "original_right")]) == (3.0, 2.0)
    assert (got[("C1.1", "reproduction_left")], got[("C1.1", "reproduction_right")]) == (1.0, 4.0)


def test_a_claim_that_holds_on_both_sides_replicates():
    numbers = values(
        {("original", "A"): 3.0, ("original", "B"): 2.0, ("reproduction", "A"): 5.0, ("reproduction", "B"): 4.0}
    )
    got = cells_of(claims_entry(numbers, EMPTY, table="claims", claims=[claim()])[0])
    assert got[("C1", "replicated")] == 1.0


@pytest.mark.parametrize(
    "p,alpha,holds", [(0.07, None, 0.0), (0.049, None, 1.0), (0.05, None, 0.0), (0.07, 0.1, 1.0), (0.02, 0.01, 0.0)]
)
def test_the_default_alpha_is_five_percent_and_a_stated_one_is_used(p, alpha, holds):
    numbers = values({("O", "A"): 3.0, ("O", "B"): 2.0, ("O", "p"): p})
    out, _ = claims_entry(numbers, EMPTY, table="claims", claims=[claim(alpha or 0)], sides={"O": "O"})
    got = cells_of(out)
    assert got[("C1", "O")] == holds and got[("C1.p", "O_p")] == p


@pytest.mark.parametrize("sides", [{"O": "O", "R1": "R1", "R2": "R2"}, {"R2": "R2", "O": "O", "R1": "R1"}])
def test_any_number_of_experiments_each_on_its_own_cells_in_any_order(sides):
    numbers = values({("O", "A"): 3.0, ("O", "B"): 2.0, ("R1", "A"): 2.0, ("R1", "B"): 2.5})
    got = cells_of(claims_entry(numbers, EMPTY, table="claims", claims=[claim()], sides=sides)[0])
    assert got[("C1", "O")] == 1.0 and got[("C1", "R1")] == 0.0
    assert ("C1", "R2") not in got  # R2 has no cells: not measured, no verdict
    assert (got[("C1.1", "R1_left")], got[("C1.1", "R1_right")]) == (2.0, 2.5)
    assert "replicated" not in {column for _, column in got}


def test_a_published_only_side_is_judged_on_its_printed_numbers_a_bound_as_a_bound():
    numbers = values({("O", "A"): 3.0, ("O", "B"): 2.0, ("O", "p"): 0.01})
    printed = published_frame(
        [
            {
                "table": "m",
                "source": "paper",
                "cells": {"R1": {"A": "3.1", "B": "2.2", "p": "< 0.05"}},
            }
        ]
    )
    got = cells_of(claims_entry(numbers, printed, table="claims", claims=[claim(0)], sides={"O": "O", "R1": "R1"})[0])
    assert got[("C1", "R1")] == 1.0 and got[("C1.p", "R1_p")] == 0.05
    loose = published_frame(
        [{"table": "m", "source": "paper", "cells": {"R1": {"A": "3.1", "B": "2.2", "p": "< 0.1"}}}]
    )
    got = cells_of(claims_entry(numbers, loose, table="claims", claims=[claim(0)], sides={"O": "O", "R1": "R1"})[0])
    assert got[("C1", "R1")] == 0.0  # p < 0.1 does not say p < 0.05


def test_a_recomputed_number_is_exact_even_where_the_paper_printed_it_as_a_bound():
    """R1's p is recomputed (0.05, exactly alpha) and the paper printed "< 0.05": the claim reads the recomputed
    number, which is not below 0.05 (reading the printed bound would say it is)."""
    numbers = values({("R1", "A"): 3.0, ("R1", "B"): 2.0, ("R1", "p"): 0.05})
    printed = published_frame([{"table": "m", "source": "paper", "cells": {"R1": {"p": "< 0.05"}}}])
    got = cells_of(claims_entry(numbers, printed, table="claims", claims=[claim(0)], sides={"R1": "R1"})[0])
    assert got[("C1", "R1")] == 0.0


def test_a_no_difference_finding_is_told_apart():
    from humeval.qra.claims import expects_no_difference

    assert expects_no_difference({"significance": {"p": {}, "expect": "not_significant"}})
    assert not expects_no_difference({"significance": {"p": {}, "expect": "significant"}})
    assert not expects_no_difference({"significance": {"p": {}}}) and not expects_no_difference({"id": "C1"})


@pytest.mark.parametrize(
    "value,published,bound,status",
    [
        (2e-16, 2e-16, "<=", "match"),
        (2e-16, 2e-16, "<", "mismatch"),
        (1e-16, 2e-16, "<", "match"),
        (0.99, 0.99, ">=", "match"),
        (0.99, 0.99, ">", "mismatch"),
        (0.995, 0.99, ">", "match"),
    ],
)
def test_the_audit_reads_each_bound_operator_as_written(value, published, bound, status):
    assert status_of(value, published, 16, bound) == status


def test_a_sign_test_without_decisions_has_p_one():
    """A system that only tied has no decision: its sign test's p is 1 (no evidence), not 0."""
    from humeval.metrics.tally import pairwise_tally

    frame = pd.DataFrame({"system": ["A", "A", "B"], "system_b": ["B", "B", "A"], "value": [0.0, 0.0, 0.0]})
    tally = pairwise_tally(frame, sign_test=True)
    assert list(tally["sign_p"]) == [1.0, 1.0]


def test_the_bootstrap_draws_every_item_including_the_last():
    from humeval.planning.bootstrap import draw_items

    draws = draw_items(np.random.default_rng(0), None, 5, 400, 5)
    assert set(np.unique(draws)) == {0, 1, 2, 3, 4}
    stratified = draw_items(np.random.default_rng(0), np.array([0, 0, 1, 1, 1]), 5, 400, 5)
    assert set(np.unique(stratified)) == {0, 1, 2, 3, 4}


def test_findings_are_the_claims_of_claims_entries_only():
    from humeval.findings import findings

    study = {"qra": [{"type": "cv_star", "rows": ["a"]}, {"type": "claims", "claims": [claim()]}]}
    assert [f["id"] for f in findings(study)] == ["C1"]


def test_a_bound_decides_a_finding_only_where_it_is_given():
    """A p of 0.05 against alpha 0.05: exactly 0.05 is not below it; printed "< 0.05" is."""
    from humeval.findings import evaluate

    finding = claim(0.05)
    numbers = {("m", "O", "A"): 3.0, ("m", "O", "B"): 2.0, ("m", "O", "p"): 0.05}
    assert not evaluate(finding, numbers, "O") and not evaluate(finding, numbers, "O", {})
    assert evaluate(finding, numbers, "O", {("m", "O", "p"): "<"})


@pytest.mark.parametrize("p", [None, 0.0, 1.0, 1.5])
def test_an_effect_has_no_standard_error_without_a_p_strictly_between_0_and_1(p):
    from humeval.findings import effect_and_error

    numbers = {("m", "O", "A"): 3.0, ("m", "O", "B"): 2.0} | ({("m", "O", "p"): p} if p is not None else {})
    effect, se = effect_and_error(claim(0.05), numbers, "O")
    assert effect == 1.0 and np.isnan(se)
    effect, se = effect_and_error(claim(0.05), {**numbers, ("m", "O", "p"): 0.5}, "O")  # z = 0.6745: SE 1.4826
    assert se == pytest.approx(1 / 0.6744897501960817)


def test_the_safeguard_basis_needs_a_finite_effect_and_error():
    from humeval.findings import bases

    assert [name for name, _ in bases(float("nan"), 0.1, None)] == ["observed"]
    assert [name for name, _ in bases(0.2, float("nan"), None)] == ["observed"]


def test_every_finding_must_read_a_cell_that_names_its_side():
    from humeval.config.checks import check_findings_name_a_side

    numbers_only = {"id": "C2", "text": "", "comparisons": [{"left": 2, "op": ">", "right": 1}]}
    fixed = {**claim(), "id": "C3"}
    fixed["comparisons"] = [{**fixed["comparisons"][0], "left": {"table": "m", "row": "O", "column": "A"}}]
    fixed["comparisons"][0]["right"] = {"table": "m", "row": "O", "column": "B"}
    problems = []
    check_findings_name_a_side({"qra": [{"type": "claims", "claims": [claim(), numbers_only]}]}, problems.append)
    assert problems == []
    check_findings_name_a_side({"qra": [{"type": "claims", "claims": [claim(), fixed]}]}, problems.append)
    assert len(problems) == 1 and "key qra.0.claims.1 (C3): no cell it reads names {side}" in problems[0]
