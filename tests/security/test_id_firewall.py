"""Classes 4, 5, 7, 8 and 9: raw participant ids leave extraction only as pseudonyms, whatever route a config or
an export gives them (one test per route), ids are text, an empty id is one line naming the file and row, and a
datasheet's contact fields are never read."""

import json
import re

import pandas as pd
import pytest
from hostile import LONG_PROLIFIC

from humeval.errors import HumevalError
from humeval.loaders import extract_study

PID = ["5f1a2b3c4d5e6f7a8b9c0d1e", "60aa11bb22cc33dd44ee55ff"]


def extract(tmp_path, rows, params, name="export.csv", text=None):
    """Run the tabular loader through extraction (where the firewall stands) on one export."""
    path = tmp_path / name
    if text is None:
        pd.DataFrame(rows).to_csv(path, index=False)
    else:
        path.write_text(text)
    study = {
        "name": "s",
        "raw": [{"id": "export"}],
        "extract": [{"side": "O", "loader": "tabular", "inputs": {"ratings": "export"}, "params": params}],
    }
    return extract_study(study, {"export": str(path)})


def everything(*frames) -> str:
    return "\n".join(frame.astype(str).to_csv() for frame in frames)


BASE = LONG_PROLIFIC
ROWS = [
    {"PROLIFIC_PID": PID[0], "item": "i1", "system": "A", "score": 1, "comment": f"my prolific id is {PID[0]}"},
    {"PROLIFIC_PID": PID[1], "item": "i1", "system": "A", "score": 2, "comment": f"not {PID[0]}, I am {PID[1]}!"},
]


@pytest.mark.parametrize(
    "route",
    [
        {"judgement": ["PROLIFIC_PID", "item"]},  # a judgement id built from the participant column
        {"carry": {"note": "PROLIFIC_PID"}},  # the participant column carried under another name
        {"carry": {"note": ["item", "PROLIFIC_PID"]}},  # ... joined with another column
        {"item": ["item", "PROLIFIC_PID"]},  # an item built from it
        {"carry": {"comment": "comment"}},  # free text that writes the id out
    ],
)
def test_no_route_carries_a_raw_id_out_of_extraction(tmp_path, route):
    judgements, participants = extract(tmp_path, ROWS, {**BASE, **route})
    text = everything(judgements, participants)
    assert not [p for p in PID if p in text], text
    pseudonyms = sorted(judgements["participant"].unique())
    assert len(pseudonyms) == 2
    if "carry" in route and "comment" in route["carry"]:  # each id replaced by its own pseudonym
        own = dict(zip(judgements["participant"], judgements["comment"]))
        first, second = (judgements["participant"].iloc[k] for k in (0, 1))
        assert own[first] == f"my prolific id is {first}" and own[second] == f"not {first}, I am {second}!"


def test_a_short_study_number_is_not_rewritten_in_a_carried_label(tmp_path):
    """Ids shorter than MIN_SCANNED_ID of digits alone (a study's own numbering, 0-4) are not looked for in a
    carried column not declared free text (a label from a closed set: a condition, a list): a 3 stays 3."""
    rows = [{"PROLIFIC_PID": "3", "item": "i3", "system": "A", "score": 1, "comment": "item 3 of 3"}]
    judgements, _ = extract(tmp_path, rows, {**BASE, "carry": {"comment": "comment"}})
    assert judgements["comment"].tolist() == ["item 3 of 3"] and judgements["item"].tolist() == ["i3"]


def test_a_short_rater_id_with_a_letter_is_scrubbed_from_carried_text_as_a_word(tmp_path):
    """A short id holding a letter (``Jo7``, a first name) signed in a comment is its pseudonym, in any letter
    case and spelling (full-width, a soft hyphen inside); inside a longer word it is not an id and stays."""
    rows = [
        {"PROLIFIC_PID": "Jo7", "item": "i1", "system": "A", "score": 1, "comment": "thanks, JO7 (not Jo7x)"},
        {"PROLIFIC_PID": "Kim", "item": "i1", "system": "A", "score": 2, "comment": "k\u00adim: ｊｏ７ was here"},
    ]
    judgements, _ = extract(tmp_path, rows, {**BASE, "carry": {"comment": "comment"}, "carry_as": {"comment": "text"}})
    jo, kim = judgements["participant"].tolist()
    assert judgements["comment"].tolist() == [f"thanks, {jo} (not Jo7x)", f"{kim}: {jo} was here"]


def test_a_rater_id_of_any_length_is_scrubbed_from_declared_free_text_as_a_word(tmp_path):
    """Issue 54: a study's rater ids are known, so in a column declared free text (``carry_as: text``) one of
    digits alone (``42``, ``7``) is its pseudonym wherever it stands as a whole word, in any spelling (full-width
    digits); inside a number (142, 4.2, 7,5) it is not an id and stays, as it does in a label column beside it."""
    rows = [
        {
            "PROLIFIC_PID": "42",
            "item": "i1",
            "system": "A",
            "score": 1,
            "note": "rater 42, not 142 or 4.2",
            "list": "7",
        },
        {"PROLIFIC_PID": "7", "item": "i1", "system": "A", "score": 2, "note": "４２ and I (7) gave 7,5", "list": "42"},
    ]
    params = {**BASE, "carry": {"note": "note", "list": "list"}, "carry_as": {"note": "text"}}
    judgements, _ = extract(tmp_path, rows, params)
    forty_two, seven = judgements["participant"].tolist()
    assert judgements["note"].tolist() == [
        f"rater {forty_two}, not 142 or 4.2",
        f"{forty_two} and I ({seven}) gave 7,5",
    ]
    assert judgements["list"].tolist() == ["7", "42"]


def test_json_lines_ids_are_text_and_a_null_id_is_one_line(tmp_path):
    """17-digit numeric ids stay two raters when another row's id is null (float64 merged them on d9d9851), and
    the null id is an error naming the file and row, not a participant 'nan'."""
    lines = [
        {"rater": 12345678901234567, "item": "i", "system": "A", "score": 1},
        {"rater": 12345678901234568, "item": "i", "system": "A", "score": 2},
    ]
    text = "\n".join(json.dumps(line) for line in lines) + "\n"
    params = {**BASE, "participant": "rater"}
    judgements, participants = extract(tmp_path, None, params, "export.jsonl", text)
    assert len(participants) == 2 and judgements["value"].tolist() == [1.0, 2.0]
    with pytest.raises(HumevalError, match=r"export\.jsonl.*row ratings:4: the participant \(rater\) id is empty"):
        extract(tmp_path, None, params, "export.jsonl", text + json.dumps({**lines[0], "rater": None}) + "\n")


def test_empty_rater_cells_of_two_raters_are_one_line_not_one_merged_participant(tmp_path):
    rows = [
        {"PROLIFIC_PID": "", "item": "i1", "system": "A", "score": 1},
        {"PROLIFIC_PID": "", "item": "i2", "system": "A", "score": 5},
    ]
    with pytest.raises(HumevalError, match=r"export\.csv: row ratings:2: the participant \(rater\) id is empty"):
        extract(tmp_path, rows, BASE)


def test_no_string_is_missing_unless_the_config_says_so(tmp_path):
    """JSON lines: "None", "nan" and "NaN" are text alike (a value "nan" is refused, as "NaN" was), and a carried
    "None" stays "None"; with na_values: [nan] the value is an empty rating, which missing_value logs."""
    lines = [{"rater": "r0000001", "item": "i", "system": "A", "score": "nan", "note": "None"}]
    text = json.dumps(lines[0]) + "\n"
    params = {**BASE, "participant": "rater", "carry": {"note": "note"}}
    with pytest.raises(HumevalError, match="'nan' is not a value"):
        extract(tmp_path, None, params, "export.jsonl", text)
    judgements, _ = extract(tmp_path, None, {**params, "na_values": ["nan"]}, "export.jsonl", text)
    assert judgements["value"].isna().all() and judgements["note"].tolist() == ["None"]


def test_a_datasheets_contact_fields_are_never_read(tmp_path):
    from humeval.heds import clean, read_datasheet

    sheet = {
        "heds-names_and_affiliations-contact-email": {"data": {"": "secret.person@example.org"}},
        "heds-names_and_affiliations-contact-name": {"data": {"": "Secret Person"}},
        "heds-other-notes": {"data": {"": "write to someone@example.org"}},
        "heds-sample_evaluators_design-evaluators-recruitment_method": {
            "data": {"": "Prolific; ask mailto:a%40b.c, a[at]b.c, a@localhost or a＠b.c"}
        },
    }
    (tmp_path / "heds.json").write_text(json.dumps(sheet, ensure_ascii=False))
    values, _ = read_datasheet(tmp_path / "heds.json")
    text = json.dumps(values, ensure_ascii=False)
    for secret in ("secret.person", "Secret Person", "someone@", "a%40b", "a[at]b", "a@localhost", "a＠b", "a@b"):
        assert secret not in text, (secret, text)
    assert values["heds-sample_evaluators_design-evaluators-recruitment_method"][""].startswith("Prolific; ask ")
    assert clean("a (at) b.org") == "[email removed]"


def test_an_id_in_any_spelling_is_one_participant_and_never_leaves_extraction(tmp_path):
    """An id cell with a trailing space or a zero-width space is the same rater (two raters moved a mean from 2.625
    to 2.889 with complete_respondents); an id written in upper case in a comment is scrubbed as well."""
    rows = [
        {"PROLIFIC_PID": PID[0], "item": "i1", "system": "A", "score": 1, "comment": f"I am {PID[0].upper()}"},
        {"PROLIFIC_PID": PID[0] + " ", "item": "i2", "system": "A", "score": 2, "comment": "ok"},
        {"PROLIFIC_PID": PID[0][:4] + "\u200b" + PID[0][4:], "item": "i3", "system": "A", "score": 3, "comment": ""},
        {"PROLIFIC_PID": PID[1], "item": "i1", "system": "A", "score": 4, "comment": f"not {PID[0].upper()}"},
    ]
    judgements, participants = extract(tmp_path, rows, {**BASE, "carry": {"comment": "comment"}})
    assert judgements["participant"].nunique() == 2 and len(participants) == 2
    assert judgements.groupby("participant")["value"].size().sort_values().tolist() == [1, 3]
    text = everything(judgements, participants).casefold()
    assert not any(pid.casefold() in text for pid in PID), text


def test_two_ids_that_differ_only_in_letter_case_are_refused(tmp_path):
    rows = [
        {"PROLIFIC_PID": PID[0], "item": "i1", "system": "A", "score": 1},
        {"PROLIFIC_PID": PID[0].upper(), "item": "i2", "system": "A", "score": 2},
    ]
    with pytest.raises(HumevalError, match="participant ids differ only in letter case") as info:
        extract(tmp_path, rows, BASE)
    assert PID[0] not in str(info.value) and PID[0].upper() not in str(info.value)
    assert "participant_case: fold" in str(info.value)


def test_participant_case_says_whether_two_spellings_are_one_rater(tmp_path):
    """``participant_case: fold`` (the platform's ids ignore case): one rater, named as the spelling seen first
    names them, so the pseudonym is the one an export written consistently gets; ``exact``: two raters. Neither
    spelling leaves extraction."""
    rows = [
        {"PROLIFIC_PID": PID[0], "item": "i1", "system": "A", "score": 1, "comment": ""},
        {"PROLIFIC_PID": PID[0].upper(), "item": "i2", "system": "A", "score": 2, "comment": f"I am {PID[0].upper()}"},
        {"PROLIFIC_PID": PID[1], "item": "i1", "system": "A", "score": 4, "comment": ""},
    ]
    consistent = [{**r, "PROLIFIC_PID": r["PROLIFIC_PID"].lower()} for r in rows]
    refused, _ = extract(tmp_path, consistent, BASE, "c.csv")
    assert (
        refused["participant"].tolist()
        == extract(tmp_path, consistent, {**BASE, "participant_case": "fold"}, "c.csv")[0]["participant"].tolist()
    )
    carry = {"carry": {"comment": "comment"}, "carry_as": {"comment": "text"}}
    folded, participants = extract(tmp_path, rows, {**BASE, **carry, "participant_case": "fold"}, "f.csv")
    assert folded["participant"].nunique() == 2 and len(participants) == 2
    exact, participants = extract(tmp_path, rows, {**BASE, **carry, "participant_case": "exact"}, "f.csv")
    assert exact["participant"].nunique() == 3 and len(participants) == 3
    assert folded["participant"].iloc[1] == folded["participant"].iloc[0] == exact["participant"].iloc[0]
    assert exact["participant"].iloc[1] != exact["participant"].iloc[0]
    for frame in (folded, exact):
        text = everything(frame, participants).casefold()
        assert not any(pid.casefold() in text for pid in PID), text


def test_personal_data_of_any_kind_is_refused_or_scrubbed_by_what_a_carried_column_declares(tmp_path):
    """carry once took an IP address or e-mail column through untouched. Undeclared, such a column is refused in one
    line; declared free text (carry_as: text), it leaves extraction with every address, URL query, phone number and
    id-like run removed."""
    rows = [
        {
            "PROLIFIC_PID": PID[0],
            "item": "i1",
            "system": "A",
            "score": 1,
            "ip": "203.0.113.21",
            "comment": "reach me at jo.doe@example.org or +44 20 7946 0958, see https://x.org/p?id=77",
        },
        {
            "PROLIFIC_PID": PID[1],
            "item": "i1",
            "system": "A",
            "score": 2,
            "ip": "2001:db8:85a3::8a2e:370:7334",
            "comment": "token AB12CD34EF56GH78IJ90KL ok",
        },
    ]
    with pytest.raises(HumevalError, match=r"carried column 'ip' holds an IP address: declare it carry_as"):
        extract(tmp_path, rows, {**BASE, "carry": {"ip": "ip"}})
    with pytest.raises(HumevalError, match=r"carried column 'comment' holds an e-mail address"):
        extract(tmp_path, rows, {**BASE, "carry": {"comment": "comment"}})
    judgements, _ = extract(tmp_path, rows, {**BASE, "carry": {"comment": "comment"}, "carry_as": {"comment": "text"}})
    assert judgements["comment"].tolist() == ["reach me at [removed] or [removed], see [removed]", "token [removed] ok"]
    text = everything(judgements)
    assert not any(s in text for s in ("example.org", "7946", "id=77", "AB12CD34", "203.0.113", "2001:db8"))


def test_a_location_or_contact_column_is_refused_by_its_header_and_an_international_phone_by_its_value(tmp_path):
    """Issue 54: a Qualtrics export's LocationLatitude, a bare-digit phone column and a ``+44 ...`` number were
    carried as labels. A header naming a location is refused even declared free text (no scrubber makes a place
    anonymous); contact details by header only declared free text, scrubbed; an international phone number in a
    label column is refused by its value."""
    rows = [
        {
            "PROLIFIC_PID": PID[0],
            "item": "i1",
            "system": "A",
            "score": 1,
            "LocationLatitude": "51.5072",
            "Phone": "02079460958",
            "tel2": "+44 20 7946 0958",
        },
        {
            "PROLIFIC_PID": PID[1],
            "item": "i1",
            "system": "A",
            "score": 2,
            "LocationLatitude": "48.8566",
            "Phone": "0612345678",
            "tel2": "+33 6 12 34 56 78",
        },
    ]
    cases = [
        ({"carry": {"where": "LocationLatitude"}}, "carried column 'where' holds a location by its header"),
        ({"carry": {"lat": "LocationLatitude"}, "carry_as": {"lat": "text"}}, "holds a location by its header"),
        ({"carry": {"phone": "Phone"}}, "carried column 'phone' holds contact details by its header"),
        ({"carry": {"reach": "tel2"}}, "carried column 'reach' holds a phone number: declare it carry_as"),
    ]
    for params, message in cases:
        with pytest.raises(HumevalError, match=re.escape(message)):
            extract(tmp_path, rows, {**BASE, **params})
    judgements, _ = extract(tmp_path, rows, {**BASE, "carry": {"phone": "Phone"}, "carry_as": {"phone": "text"}})
    assert judgements["phone"].tolist() == ["[removed]", "[removed]"]
    assert not any(s in everything(judgements) for s in ("7946", "612345678", "51.5072"))


def test_an_error_raised_before_any_pseudonym_exists_quotes_no_raw_id(tmp_path):
    """A join's key-file errors run before the participant column is pseudonymised, and quoted raw ids; every
    error of extraction passes one scrubber."""
    export = tmp_path / "export.csv"
    pd.DataFrame(ROWS).drop(columns="comment").to_csv(export, index=False)
    key = tmp_path / "key.csv"
    pd.DataFrame({"PROLIFIC_PID": [PID[0], PID[0]], "group": ["a", "b"]}).to_csv(key, index=False)
    params = {**BASE, "join": {"role": "key", "on": "PROLIFIC_PID", "columns": ["group"]}}
    study = {
        "name": "s",
        "raw": [{"id": "export"}, {"id": "key"}],
        "extract": [
            {"side": "O", "loader": "tabular", "inputs": {"ratings": "export", "key": "key"}, "params": params}
        ],
    }
    with pytest.raises(HumevalError, match="appears twice") as info:
        extract_study(study, {"export": str(export), "key": str(key)})
    assert PID[0] not in str(info.value) and "[removed]" in str(info.value)


def test_an_all_digit_id_in_a_numeric_column_leaves_extraction_as_its_pseudonym():
    """A loader that types its columns (JSON, SQLite) can hand the firewall a worker number (an all-digit id, 17
    digits as some platforms give them) in a numeric column; the firewall scanned text only, so it left extraction
    raw. Now every number equal to a raw id is its pseudonym, in an integer column exactly and in a float column
    as the float the id reads as; other numbers stay numbers."""
    from humeval.id_firewall import scrub_ids

    ids = {"12345678901234567": "Pa", "76543210987654321": "Pb"}
    frame = pd.DataFrame(
        {
            "worker": pd.Series([12345678901234567, 76543210987654321, 5], dtype="int64"),
            "as_float": [12345678901234567.0, 1.5, 2.0],
            "n": [3, 4, 5],
        }
    )
    scrubbed = scrub_ids(frame, ids)
    assert scrubbed["worker"].tolist() == ["Pa", "Pb", 5]
    assert scrubbed["as_float"].tolist() == ["Pa", 1.5, 2.0]
    assert scrubbed["n"].tolist() == [3, 4, 5] and pd.api.types.is_integer_dtype(scrubbed["n"])


FULL_WIDTH = str.maketrans("0123456789abcdef", "０１２３４５６７８９ａｂｃｄｅｆ")


@pytest.mark.parametrize(
    "comment,gone",
    [
        (f"my id is {PID[0].translate(FULL_WIDTH)}", PID[0][:12]),  # an id in full-width characters
        (f"my id is {PID[0][:8]}\u200b{PID[0][8:]}", PID[0][8:]),  # an id with a zero-width space inside
        (f"my id is {PID[0][:8]}\u00ad{PID[0][8:]}", PID[0][8:]),  # ... or a soft hyphen
        ("write to jo.doe＠example.org", "example"),  # a full-width at sign
        ("write to jo.doe﹫example.org", "example"),  # a small at sign
        ("from １９２.０.２.１３", "２.１３"),  # a full-width IPv4 address
        ("from 2001:db8::1 today", "db8"),  # a compressed IPv6 address
    ],
)
def test_free_text_is_normalised_before_every_scrubber(tmp_path, comment, gone):
    """Issue 54: the id reader folded Unicode and dropped invisible characters, the free-text scrubbers did not, so
    an id or an address spelled so was carried. Now each is removed (or its id pseudonymised) in a column declared
    free text, and an address so spelled in an undeclared column is refused."""
    rows = [dict(ROWS[0], comment=comment), ROWS[1]]
    params = {**BASE, "carry": {"comment": "comment"}, "carry_as": {"comment": "text"}}
    judgements, participants = extract(tmp_path, rows, params)
    text = everything(judgements, participants)
    assert gone not in text and gone.translate(FULL_WIDTH) not in text, judgements["comment"].tolist()
    assert PID[0] not in text
    if "id is" in comment:  # the id, however spelled, is its pseudonym
        first = judgements["participant"].iloc[0]
        assert judgements["comment"].iloc[0] == f"my id is {first}"
    else:
        with pytest.raises(HumevalError, match=r"carried column 'comment' holds an (e-mail|IP) address"):
            extract(tmp_path, rows, {**BASE, "carry": {"comment": "comment"}})


@pytest.mark.parametrize(
    "carry",
    [
        {"pid": "PROLIFIC_PID"},
        {"pid": {"column": "PROLIFIC_PID", "part": "^(.{12})"}},
        {"worker": ["item", "WorkerId"]},
        {"note": "free"},  # a Prolific id under a header that says nothing
    ],
    ids=["prolific header", "part of it", "worker id beside an item", "id-like run"],
)
def test_a_carried_column_of_another_platforms_ids_is_refused_at_extraction(tmp_path, carry):
    """The participant (ResponseId) is pseudonymised; a second column of raw platform ids (Prolific's, MTurk's),
    or a part of one, or a long id-like run under any header, is personal data the identifier firewall does not
    know: refused in one line, before anything is written. The participant column itself may be carried (its
    pseudonyms)."""
    from humeval.errors import HumevalError
    from humeval.loaders import extract_study

    export = tmp_path / "x.csv"
    export.write_text(
        "ResponseId,PROLIFIC_PID,WorkerId,item,score,free,key\n"
        "R_1abcdefghijklmn,5f8a9b7c6d5e4f3a2b1c0d9e,A1B2C3D4E5F6G7,i1,3,5f8a9b7c6d5e4f3a2b1c0d9e,R_1abcdefghijklmn#3\n"
        "R_2abcdefghijklmn,6f8a9b7c6d5e4f3a2b1c0d9e,A7B2C3D4E5F6G7,i1,4,ok,R_2abcdefghijklmn#4\n"
    )
    params = {"participant": "ResponseId", "item": ["item"], "criteria": {"q": "score"}, "system": {"value": "A"}}
    study = {
        "name": "s",
        "raw": [{"id": "x", "url": "https://example.org/x.csv", "sha256": "0" * 64}],
        "extract": [{"side": "O", "loader": "tabular", "inputs": {"r": "x"}, "params": params}],
    }
    kept, _ = extract_study(study, {"x": str(export)})  # no carry: fine
    rater_and_parts = {
        "rater_id": "ResponseId",
        "code": {"column": "ResponseId", "part": "^(.{6})"},
        "copy": {"column": "key", "part": "^(.{6})"},  # a raw id in another column: pseudonymised before its part
    }
    study["extract"][0]["params"] = dict(params, carry=rater_and_parts)
    carried, _ = extract_study(study, {"x": str(export)})
    assert (carried["rater_id"] == kept["participant"]).all()  # the participant's own column: its pseudonyms
    assert not carried["code"].str.startswith("R_").any()  # a part of it: a part of the pseudonym
    assert (carried["copy"] == kept["participant"].str[:6]).all()
    study["extract"][0]["params"] = dict(params, carry=carry)
    with pytest.raises(HumevalError) as caught:
        extract_study(study, {"x": str(export)})
    message = str(caught.value)
    assert "\n" not in message and ("participant id" in message), message
    assert "5f8a9b7c6d5e4f3a2b1c0d9e" not in message and "A1B2C3D4E5F6G7" not in message


@pytest.mark.parametrize(
    "comment,gone",
    [
        ("I was at 51.50735, -0.12776 then", "0.12776"),  # decimal degrees, as a browser's geolocation gives them
        ("home: 40.7128N 74.0060W", "74.0060"),  # with hemispheres
        ("near 51°30'26\"N 0°7'39\"W", "30'26"),  # degrees, minutes and seconds
        ("lat: 48.8566, lng=2.3522", "2.3522"),  # labelled
        ("at ５１．５０７３５，－０．１２７７６", "12776"),  # full-width digits
        ("via Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/120.0 Safari/537.36", "Win64"),
    ],
    ids=["decimal pair", "hemispheres", "dms", "labelled", "full width", "user agent"],
)
def test_coordinates_and_device_data_are_removed_from_free_text_and_refused_in_a_label(tmp_path, comment, gone):
    """Issue 54 item 2 names geographic coordinates and device data among what the scrubbers remove and what a
    column is refused for holding, by name and by content; both were carried (a comment "I was at 51.50735,
    -0.12776", a label column of user agents, a ``Browser`` column). Declared free text, each leaves extraction as
    ``[removed]``; undeclared, the column is refused in one line naming what it holds."""
    rows = [dict(ROWS[0], comment=comment), dict(ROWS[1], comment="scores 4.5, 3.25; took long 3.5 minutes")]
    params = {**BASE, "carry": {"comment": "comment"}, "carry_as": {"comment": "text"}}
    judgements, _ = extract(tmp_path, rows, params)
    assert gone not in everything(judgements) and "[removed]" in judgements["comment"].iloc[0]
    assert judgements["comment"].iloc[1] == "scores 4.5, 3.25; took long 3.5 minutes"  # numbers, not a place
    what = "device data" if "Mozilla" in comment else "geographic coordinates"
    with pytest.raises(HumevalError, match=rf"carried column 'comment' holds {what}"):
        extract(tmp_path, rows, {**BASE, "carry": {"comment": "comment"}})


@pytest.mark.parametrize("header", ["Browser", "User-Agent", "Q_OperatingSystem", "screen_resolution", "device"])
def test_a_device_column_is_refused_by_its_header_unless_declared_free_text(tmp_path, header):
    """Qualtrics' meta-info question writes the browser, its version, the operating system and the screen
    resolution: device data, which identifies a participant with other columns. Carried under any name, such a
    column is refused unless declared free text."""
    rows = [dict(ROWS[0], **{header: "Chrome"}), dict(ROWS[1], **{header: "Firefox"})]
    with pytest.raises(HumevalError, match=re.escape("carried column 'kit' holds device data by its header")):
        extract(tmp_path, rows, {**BASE, "carry": {"kit": header}})
    judgements, _ = extract(tmp_path, rows, {**BASE, "carry": {"kit": header}, "carry_as": {"kit": "text"}})
    assert judgements["kit"].tolist() == ["Chrome", "Firefox"]


@pytest.mark.parametrize(
    "typed",
    ["17000001142836570", " 17000001142836570 ", "１７０００００１１４２８３６５７０", PID[0].upper()],
    ids=["digits", "spaced", "full width", "prolific id"],
)
def test_a_rater_who_types_an_id_as_the_answer_stops_extraction_in_one_line(tmp_path, typed):
    """The firewall left the value column alone (it must stay a number, so no pseudonym can stand there): a worker
    number typed into a rating field reached the tidy table raw. Now a value that is any participant's raw id, in
    any spelling, stops extraction in one line naming the file and the row, the id not quoted; a rater's other
    numbers pass."""
    ids = ["17000001142836570", PID[0]]
    rows = [
        {"PROLIFIC_PID": ids[0], "item": "i1", "system": "A", "score": "3"},
        {"PROLIFIC_PID": ids[1], "item": "i1", "system": "A", "score": typed},
    ]
    judgements, _ = extract(tmp_path, [rows[0], dict(rows[1], score="1700000114")], BASE)  # a number, not an id
    assert judgements["value"].tolist() == [3, 1700000114]
    with pytest.raises(HumevalError) as raised:
        extract(tmp_path, rows, BASE)
    message = str(raised.value)  # digits: the firewall's line; text the loader refuses as no number, the id scrubbed
    said = (
        "column 'value' row 1 holds a participant's raw id"
        if typed.strip().isdecimal() and typed.isascii()
        else "is not a value"
    )
    assert re.fullmatch(rf".*export\.csv: .*{re.escape(said)}.*", message), message
    assert not any(i in message.casefold() for i in (ids[0], PID[0], "１７００")) and "\n" not in message


def test_an_id_typed_as_a_number_in_a_typed_value_column_is_refused():
    """A loader that types its columns (JSON, SQLite) hands the value as an integer or a float."""
    from humeval.id_firewall import scrub_ids

    ids = {"12345678901234567": "Pa"}
    for value in (pd.Series([3, 12345678901234567]), pd.Series([3.0, 12345678901234567.0])):
        with pytest.raises(HumevalError, match=r"^s\.json: column 'value' row 1 holds a participant's raw id"):
            scrub_ids(pd.DataFrame({"value": value}), ids, source="s.json")
    assert scrub_ids(pd.DataFrame({"value": [3.0, 1.5]}), ids)["value"].tolist() == [3.0, 1.5]


@pytest.mark.parametrize("header", ["First name", "surname", "Full_Name", "What is your name?", "your name"])
def test_a_column_of_names_is_never_carried(tmp_path, header):
    """A form's "What is your name?" or a Qualtrics panel's first name was carried as a label, or declared free
    text and kept (no scrubber finds a name): refused by its header either way."""
    rows = [dict(ROWS[0], **{header: "Jo Doe"}), dict(ROWS[1], **{header: "Ann Roe"})]
    for declared in ({}, {"carry_as": {"who": "text"}}):
        with pytest.raises(HumevalError, match=re.escape("carried column 'who' holds a person's name by its header")):
            extract(tmp_path, rows, {**BASE, "carry": {"who": header}, **declared})


@pytest.mark.parametrize(
    "comment,gone",
    [
        ("call (020) 7946 0958 after six", "7946"),  # an area code in brackets, then a space
        ("or +1 (555) 123-4567", "555"),
        ("from 2001:db8:0:0:1::1 now", "::1"),  # compressed after uncompressed groups: the whole address
        ("at [2001:db8::8a2e:370:7334]:8080", "8a2e"),
    ],
)
def test_a_phone_number_or_ipv6_address_in_any_common_spelling_goes_whole(tmp_path, comment, gone):
    """Issue 54: a phone number whose separators come two at a time (``(020) 7946``) was carried as written, and an
    IPv6 address compressed after its first groups left its tail (``[removed]::1``)."""
    rows = [dict(ROWS[0], comment=comment), ROWS[1]]
    judgements, _ = extract(tmp_path, rows, {**BASE, "carry": {"comment": "comment"}, "carry_as": {"comment": "text"}})
    assert gone not in judgements["comment"].iloc[0] and "[removed]" in judgements["comment"].iloc[0]


def test_an_international_phone_number_with_brackets_in_a_label_column_is_refused(tmp_path):
    rows = [dict(ROWS[0], code="+1 (555) 123-4567"), dict(ROWS[1], code="+44 (0)20 7946 0958")]
    with pytest.raises(HumevalError, match=r"carried column 'reach' holds a phone number"):
        extract(tmp_path, rows, {**BASE, "carry": {"reach": "code"}})


@pytest.mark.parametrize(
    "comment,gone,held",
    [
        ("write to jo&#64;example.org", "example", "an e-mail address"),  # an HTML character reference
        ("write to jo%2540example.org", "example", "an e-mail address"),  # percent-encoded twice
        ("write to jo (at) example (dot) org", "example", "an e-mail address"),  # the dot spelled out too
        (f"my id is {PID[0][:8]}\u200e{PID[0][8:]}", PID[0][8:], None),  # a left-to-right mark inside an id
        (f"my id is {PID[0][:8]}\u2062{PID[0][8:]}", PID[0][8:], None),  # an invisible times
        ("from 2001:db8:: today", "db8", "an IP address"),  # IPv6 compressed at its end
        ("from 64:ff9b::192.0.2.1 today", "0.2.1", "an IP address"),  # IPv6 with an embedded IPv4 address
        ("from ::ffff:192.0.2.1 today", "ffff", "an IP address"),  # an IPv4-mapped address
        ("see example.org/s?PROLIFIC_PID=abc today", "PROLIFIC", None),  # a URL's query without its scheme
        ("see https://example.org/#pid=abc today", "pid=abc", None),  # parameters in a URL's fragment
        ("at 51° 30.44' N today", "30.44", "geographic coordinates"),  # degrees and decimal minutes
        ("at N 40.7128, W 74.0060 today", "74.0060", "geographic coordinates"),  # the hemisphere first
        ("via Dalvik/2.1.0 (Linux; U; Android 11; SM-G991B)", "SM-G991B", "device data"),  # an app's user agent
        ("from 00:1A:2B:3C:4D:5E today", "4D:5E", "device data"),  # a network card's MAC address
        ("from 00-1a-2b-3c-4d-5e today", "4d-5e", "device data"),  # ... with hyphens
        ("from 001a.2b3c.4d5e today", "4d5e", "device data"),  # ... in Cisco's dotted form
    ],
)
def test_every_spelling_of_personal_data_goes_from_free_text_and_stops_a_label(tmp_path, comment, gone, held):
    """Issue 54 item 2, fourth round (held-out spellings of the same data): the one normalisation before every
    scrubber decodes HTML character references and percent-escapes and drops every default-ignorable character
    (a bidirectional mark, an invisible operator: seven were known), and the patterns know IPv6 in each of RFC
    5952's forms, a URL's parameters without a scheme or in a fragment, coordinates in decimal minutes or with the
    hemisphere first, any product's user agent that names a platform, and a MAC address (which the IPv6 pattern
    caught by accident in one of its three spellings, until a time stopped being taken for IPv6). Declared free text, each leaves
    extraction without it (an id as its pseudonym); undeclared, a column holding one of the kinds a label may not
    hold is refused in one line."""
    rows = [dict(ROWS[0], comment=comment), ROWS[1]]
    params = {**BASE, "carry": {"comment": "comment"}, "carry_as": {"comment": "text"}}
    judgements, participants = extract(tmp_path, rows, params)
    text = everything(judgements, participants)
    assert gone not in text, judgements["comment"].iloc[0]
    if "my id is" in comment:
        assert judgements["comment"].iloc[0] == f"my id is {judgements['participant'].iloc[0]}"
    else:
        assert "[removed]" in judgements["comment"].iloc[0]
    if held:
        with pytest.raises(HumevalError, match=rf"carried column 'comment' holds {held}"):
            extract(tmp_path, rows, {**BASE, "carry": {"comment": "comment"}})


@pytest.mark.parametrize("label", ["10:30:00", "3:45:10", "1:2:3", "A/B (2 of 3)", "see it.Why?", "a1:b2:c3:d4"])
def test_times_ratios_and_prose_are_not_personal_data(tmp_path, label):
    """Three to seven groups of hex digits without ``::`` are no IPv6 address (the firewall took ``10:30:00`` for
    one: a time was ``[removed]`` from free text and a label column of times refused), and a question mark after a
    dotted word is no URL's query: carried as written, as a label and as free text."""
    rows = [dict(ROWS[0], comment=label), ROWS[1]]
    for declared in ({}, {"carry_as": {"comment": "text"}}):
        judgements, _ = extract(tmp_path, rows, {**BASE, "carry": {"comment": "comment"}, **declared})
        assert judgements["comment"].iloc[0] == label


@pytest.mark.parametrize(
    "spelled",
    [
        f"{PID[0][:8]} {PID[0][8:16]} {PID[0][16:]}",  # in groups of eight
        "-".join(PID[0][i : i + 4] for i in range(0, 24, 4)).upper(),  # in groups of four, hyphenated, upper case
        " ".join(PID[0]),  # a space between every character
        f"{PID[0][:12]}_\u200b{PID[0][12:]}",  # an underscore, a zero-width space beside it
    ],
    ids=["eights", "fours", "characters", "underscore"],
)
def test_an_id_written_out_in_groups_leaves_extraction_as_its_pseudonym(tmp_path, spelled):
    """Issue 54 ("no raw datum of any spelling"): a Prolific id written in groups (``5f1a2b3c 4d5e6f7a 8b9c0d1e``)
    is none of the id's exact spellings, so it was carried raw, from free text and from a label column alike.
    Now it is its pseudonym wherever it stands in a carried column, and in an error message."""
    from humeval.id_firewall import scrub_message

    rows = [dict(ROWS[0], comment=f"my id is {spelled}, thanks"), dict(ROWS[1], comment="scores 1 2 3, fine")]
    for declared in ({}, {"carry_as": {"comment": "text"}}):
        judgements, participants = extract(tmp_path, rows, {**BASE, "carry": {"comment": "comment"}, **declared})
        first = judgements["participant"].iloc[0]
        assert judgements["comment"].tolist() == [f"my id is {first}, thanks", "scores 1 2 3, fine"]
        assert PID[0][8:16] not in everything(judgements, participants).casefold()
    assert scrub_message(f"row 2: item '{spelled}' appears twice", {PID[0]: "P1"}) == "row 2: item 'P1' appears twice"
