"""The metrics that have an item-totals form (:mod:`humeval.metrics.item_totals`), by their registered name."""

from __future__ import annotations

from humeval.metrics.designs.design_totals import auto_correlation_totals, icc_totals, mode_correlation_totals
from humeval.metrics.item_totals import (
    pairwise_tally_totals,
    preference_share_totals,
    rank_table_totals,
    relative_preference_totals,
)
from humeval.metrics.ratings_totals import describe_totals, k_sample_totals, significance_totals

__all__ = ["ITEM_TOTALS"]

ITEM_TOTALS = {
    "relative_preference": relative_preference_totals,
    "preference_shares": preference_share_totals,
    "pairwise_tally": pairwise_tally_totals,
    "rank_table": rank_table_totals,
    "describe": describe_totals,
    "significance": significance_totals,
    "k_sample_tests": k_sample_totals,
    "icc": icc_totals,
    "mode_correlation": mode_correlation_totals,
    "auto_correlation": auto_correlation_totals,
}
