"""End to end: the three studies shipped from their researchers' study files (issue 51: arvan, puduppully, lux) and
yao's fourth reproduction (R4), from the raw exports through Snakemake, against the numbers the authors' repositories
print (transcribed in each study file's ``published`` block, with the file and table they come from)."""

import pandas as pd
import pytest

pytestmark = pytest.mark.e2e

#: Per study: published numbers matched, mismatched (each diagnosed) and the findings judged, as the full run gives.
AUDIT = {
    "arvan-2024-paraphrase-bws": (94, 2),
    "puduppully-2021-macro-planning": (312, 5),
    "lux-2022-tts-preference": (55, 5),
    "yao-2022-storybook-qag": (307, 0),
}

#: Printed numbers, as the authors' files print them, and the cell that must reproduce them.
PRINTED = {
    # mo-arvan/reprohum-0744-02 results/lab1: best-worst scale, wins and losses per system
    ("arvan-2024-paraphrase-bws", "results", "VAE", "reproduction"): 56.99999999999999,
    ("arvan-2024-paraphrase-bws", "results", "VAE", "wins"): 1413,
    ("arvan-2024-paraphrase-bws", "results", "VAE", "losses"): 387,
    ("arvan-2024-paraphrase-bws", "results", "Separator", "reproduction"): 1.4444444444444444,
    # evanmiltenburg/ReproHum-D2T: best-worst scores per system and criterion
    ("puduppully-2021-macro-planning", "bws", "template", "Repetition"): 43.75,
    ("puduppully-2021-macro-planning", "bws", "gold", "Grammaticality"): 9.17,
    ("puduppully-2021-macro-planning", "bws", "ed_cc", "Grammaticality"): -19.58,
    # evanmiltenburg/ReproHum-D2T Results/TrueSkill.ipynb: 95% bootstrap interval ends of TrueSkill mu, as printed
    ("puduppully-2021-macro-planning", "trueskill", "Repetition|macro", "high"): 26.73274073074079,
    ("puduppully-2021-macro-planning", "trueskill", "Coherence|ed_cc", "high"): 26.235840080643,
    ("puduppully-2021-macro-planning", "trueskill", "Grammaticality|template", "low"): 23.884949173782534,
    # manhue/repronlp2023_lux_and_vu: preference counts and Krippendorff's alpha at full precision
    ("lux-2022-tts-preference", "preferences", "FastSpeech|baseline", "R1_count"): 113,
    ("lux-2022-tts-preference", "preferences", "FastSpeech|proposed", "R1_count"): 471,
    ("lux-2022-tts-preference", "agreement", "all questions", "alpha"): 0.11752534562060091,
    ("lux-2022-tts-preference", "agreement", "complete respondents only", "alpha"): 0.11971738161650125,
    # manhue/ReproNLP2026_0031-01 tables/*.html: R4's readability means, Welch t and rater bias (6 decimals)
    ("yao-2022-storybook-qag", "table1", "Readability|R4", "QAG_mean"): 3.595833,
    ("yao-2022-storybook-qag", "table1", "Readability|R4", "GT_sd"): 0.989572,
    ("yao-2022-storybook-qag", "r4_ttests", "GT|PAQ", "p"): 2.103613e-13,
    ("yao-2022-storybook-qag", "r4_ttests", "PAQ|QAG", "t"): -2.396208,
    ("yao-2022-storybook-qag", "r4_rater_bias", "4", "mean"): 4.477612,
    ("yao-2022-storybook-qag", "r4_alpha_pairs", "2|3", "alpha"): 0.492273,
    ("yao-2022-storybook-qag", "r4_alpha_pairs", "2|3", "shared_items"): 92,
}


def audit(full_run, study: str) -> pd.DataFrame:
    return pd.read_csv(full_run / "results" / study / "numbers.csv", keep_default_na=False)


@pytest.mark.parametrize("study", sorted(AUDIT))
def test_every_printed_number_matches_or_is_diagnosed(full_run, study):
    numbers = audit(full_run, study)
    matches, mismatches = AUDIT[study]
    assert (numbers["status"] == "match").sum() == matches
    assert (numbers["status"] == "mismatch").sum() == mismatches
    assert not numbers["note"].str.startswith("UNDIAGNOSED").any()
    assert (numbers.loc[numbers["status"] == "mismatch", "note"] != "").all()


@pytest.mark.parametrize("cell", sorted(PRINTED), ids="/".join)
def test_a_printed_number_is_reproduced(full_run, cell):
    study, table, row, column = cell
    numbers = audit(full_run, study).set_index(["table", "row", "column"])
    found = numbers.loc[(table, row, column)]
    assert float(found["published"]) == pytest.approx(PRINTED[cell], rel=1e-12)
    assert found["status"] == "match"


def test_r4_raters_are_chosen_by_number_and_their_means_are_the_authors_slots(full_run):
    """R4's annotator slots (labeller_id 0-4) are raters 4, 5, 3, 2, 1 in order of first appearance: each slot's
    mean readability recomputed here from the tidy judgements equals the rater-bias row the study file names."""
    tidy = pd.read_csv(full_run / "results/yao-2022-storybook-qag/tidy/judgements.csv")
    r4 = tidy[(tidy["side"] == "R4") & (tidy["criterion"] == "readability")]
    means = r4.groupby("rater_number")["value"].mean()
    numbers = audit(full_run, "yao-2022-storybook-qag").set_index(["table", "row", "column"])
    for slot, rater in enumerate([4, 5, 3, 2, 1]):
        assert float(numbers.loc[("r4_rater_bias", str(slot), "mean"), "value"]) == pytest.approx(means[rater])
    assert r4["participant"].nunique() == 5 and len(r4) == 722  # 361 QA pairs, two raters each


@pytest.mark.parametrize("study", sorted(AUDIT))
def test_findings_are_judged_in_every_experiment_with_judgements(full_run, study):
    found = pd.read_csv(full_run / "results/summary/findings.csv")
    mine = found[found["study"] == study]
    assert len(mine) > 0 and set(mine["holds"]) <= {"yes", "no", "not measured"}
    if study == "yao-2022-storybook-qag":  # R4 rated readability only: Y1 judged (and holds), Y2 not measured
        r4 = mine[mine["experiment"] == "R4"].set_index("finding")["holds"]
        assert (r4["Y1"], r4["Y2"]) == ("yes", "not measured")
