"""The tabular loader on small exports written by hand: melted columns (per system, per item, with slots),
close matches for a missing column, joins that filter or keep the first of a doubled key, and a form whose
questions share one header with a positional key file."""

import pytest


def load_ratings(tmp_path, text: str, **params):
    """The tabular loader on one export (input role ``ratings``, study ``s``, side ``O``) holding ``text``."""
    from humeval.loaders.tabular import load

    path = tmp_path / "wide.csv"
    path.write_text(text)
    return load({"ratings": str(path)}, "s", "O", **params)


def test_tabular_loader_melts_one_column_per_system(tmp_path):
    judgements, participants = load_ratings(
        tmp_path,
        "rater,item,quality_sysA,quality_sysB\nr1,i1,4,2\nr2,i1,5,\n",
        shape="melt",
        participant="rater",
        item=["item"],
        columns=r"^(?P<criterion>\w+)_(?P<system>sys\w)$",
    )
    assert sorted(zip(judgements["system"], judgements["value"].fillna(-1))) == [
        ("sysA", 4.0),
        ("sysA", 5.0),
        ("sysB", -1.0),
        ("sysB", 2.0),
    ]
    assert set(judgements["criterion"]) == {"quality"} and len(participants) == 2


def test_a_missing_column_of_a_tabular_export_shows_its_close_matches_not_every_header(tmp_path):
    from humeval.errors import HumevalError

    headers = [f"q{k}" for k in range(270)] + ["rater", "item_id"]
    with pytest.raises(HumevalError) as caught:
        load_ratings(
            tmp_path,
            ",".join(headers) + "\n" + ",".join(["1"] * len(headers)) + "\n",
            participant="rater",
            item=["itemid"],
            criteria={"q": "q1"},
            system={"value": "A"},
        )
    assert "item: no column 'itemid' (close matches: ['item_id']; 272 columns)" in str(caught.value)
    assert "q200" not in str(caught.value)


def test_a_melt_whose_headers_name_the_item_gives_one_judgement_per_item(tmp_path):
    judgements, _ = load_ratings(
        tmp_path,
        "rater,q_item1,q_item2\nr1,4,2\nr2,5,3\n",
        participant="rater",
        item=["rater"],
        shape="melt",
        columns=r"^(?P<criterion>q)_(?P<item>item\d)$",
        system={"value": "A"},
    )
    assert len(judgements) == 4 and judgements["judgement_id"].nunique() == 4  # was 2 ids for 4 judgements


def test_an_optional_group_that_does_not_match_a_header_is_one_line_naming_file_header_and_group(tmp_path):
    from humeval.errors import HumevalError

    melt = {"participant": "rater", "item": ["rater"], "shape": "melt"}
    with pytest.raises(HumevalError) as caught:
        load_ratings(
            tmp_path,
            "rater,sys1,sys2,fluency1,fluency\nr1,A,B,1,2\n",
            columns=r"^(?P<criterion>fluency)(?P<slot>\d)?$",
            system={"column": "sys{slot}"},
            **melt,
        )
    assert str(caught.value) == (
        f"{tmp_path / 'wide.csv'}: header 'fluency': the columns pattern's group 'slot' did not match it, but a "
        "column spec names {slot}"
    )
    with pytest.raises(HumevalError, match=r"header 'x1': the columns pattern's group 'criterion' did not match it"):
        load_ratings(
            tmp_path, "rater,x1\nr1,1\n", columns=r"^(?P<criterion>q)?x(?P<item>\d)$", system={"value": "A"}, **melt
        )


def test_a_join_may_filter_its_key_file_and_keep_the_first_of_a_key_listed_twice(tmp_path):
    from humeval.errors import HumevalError
    from humeval.loaders.tabular import load

    export, key = tmp_path / "export.csv", tmp_path / "key.csv"
    export.write_text("rater,item_id,score\nr1,k1,4\nr1,k2,2\n")
    key.write_text("item_id,model,batch\nk1,A,1\nk1,A,1\nk2,B,1\nk2,C,2\n")  # k1 twice; k2 in two batches
    params = {
        "participant": "rater",
        "item": ["item_id"],
        "shape": "long",
        "criterion": "q",
        "value": "score",
        "system": {"column": "model"},
    }
    with pytest.raises(HumevalError, match=r"join: key \['k1'\] appears twice"):
        load(
            {"export": str(export), "key": str(key)},
            "s",
            "O",
            join={"role": "key", "on": "item_id", "columns": ["model"]},
            **params,
        )
    join = {"role": "key", "on": "item_id", "columns": ["model"], "where": {"batch": 1}, "duplicates": "first"}
    judgements, _ = load({"export": str(export), "key": str(key)}, "s", "O", join=join, **params)
    assert dict(zip(judgements["item"], judgements["system"])) == {"k1": "A", "k2": "B"}


def test_a_form_with_one_repeated_question_header_and_a_positional_key_file(tmp_path):
    """Google Forms: every preference question has the same header (pandas reads them as x, x.1, x.2), and the key
    file lists each question's two systems positionally, two rows per question in order."""
    from humeval.errors import HumevalError
    from humeval.loaders.tabular import load

    export, key = tmp_path / "form.csv", tmp_path / "key.csv"
    question = "Which response is better?"
    export.write_text(
        f"Timestamp,Rater,{question},{question},{question}\n"
        "t1,ann,Response A,Response B,Response A\n"
        "t2,bob,Response A,Response A,Response B\n"
    )
    key.write_text("system\nGPT\nOURS\nOURS\nGPT\nGPT\nBASE\n")  # q1: GPT vs OURS, q2: OURS vs GPT, q3: GPT vs BASE
    inputs, params = (
        {"form": str(export), "key": str(key)},
        {
            "participant": "Rater",
            "item": ["position"],
            "shape": "melt",
            "columns": r"^(?P<criterion>Which response is better\?)(\.\d+)?$",
            "response_type": "pairwise",
            "system": {"column": "system1"},
            "system_b": {"column": "system2"},
            "value_map": {"Response A": 1, "Response B": -1},
            "join": {"role": "key", "positional": 2, "columns": ["system"]},
        },
    )
    judgements, _ = load(inputs, "s", "O", **params)
    got = sorted(zip(judgements["item"], judgements["system"], judgements["system_b"], judgements["value"]))
    assert got == [
        ("1", "GPT", "OURS", 1),
        ("1", "GPT", "OURS", 1),
        ("2", "OURS", "GPT", -1),
        ("2", "OURS", "GPT", 1),
        ("3", "GPT", "BASE", -1),
        ("3", "GPT", "BASE", 1),
    ]
    assert judgements["judgement_id"].nunique() == 6
    key.write_text("system\nGPT\nOURS\nOURS\n")
    with pytest.raises(HumevalError, match=r"join: 3 rows are not whole questions of 2 rows each"):
        load(inputs, "s", "O", **params)


def test_a_criterion_that_is_also_a_column_says_which_it_is(tmp_path):
    """``criterion: condition`` was read as the text 'condition' where ``participant: rater`` and ``value: score``
    name columns (issue 51): a bare string naming a column is refused, ``{column}`` and ``{value}`` say which."""
    from humeval.errors import HumevalError

    text = "rater,item,condition,score\nr1,i1,fluency,4\nr1,i2,adequacy,2\n"
    params = {"participant": "rater", "item": ["item"], "shape": "long", "value": "score", "system": {"value": "A"}}
    with pytest.raises(HumevalError, match=r"criterion: 'condition' is also a column of the export: write \{column"):
        load_ratings(tmp_path, text, criterion="condition", **params)
    column, _ = load_ratings(tmp_path, text, criterion={"column": "condition"}, **params)
    constant, _ = load_ratings(tmp_path, text, criterion={"value": "condition"}, **params)
    bare, _ = load_ratings(tmp_path, text, criterion="quality", **params)  # no such column: the constant
    assert column["criterion"].tolist() == ["fluency", "adequacy"]
    assert set(constant["criterion"]) == {"condition"} and set(bare["criterion"]) == {"quality"}


NESTED = (
    '{"collection": "c", "runs": [{"run": "X", "topics": [{"topic": "t1", "nuggets": '
    '[{"nugget": "n1", "assessor": "a", "score": 2, "meta": {"importance": "vital"}}, '
    '{"nugget": "n2", "assessor": "a", "score": 1.50}]}]}, '
    '{"run": "Y", "topics": [{"topic": "t1", "nuggets": [{"nugget": "n1", "assessor": "a", "score": 0}]}]}]}'
)


def test_a_nested_json_export_is_one_row_per_record_with_its_enclosing_fields(tmp_path):
    """Issue 51: records found by a path, nested fields as ``a.b`` and every enclosing level's fields carried, as
    pandas.json_normalize names them; numbers as written."""
    from humeval.loaders.tabular_read import read_json_records

    path = tmp_path / "export.json"
    path.write_text(NESTED)
    frame = read_json_records(str(path), ["runs", "topics", "nuggets"])
    assert list(frame["runs.run"]) == ["X", "X", "Y"] and list(frame["score"]) == ["2", "1.50", "0"]
    assert list(frame["runs.topics.topic"]) == ["t1"] * 3 and list(frame["collection"]) == ["c"] * 3
    assert list(frame["meta.importance"]) == ["vital", "", ""]
    judgements, _ = load_ratings(
        tmp_path,
        NESTED,
        records=["runs", "topics", "nuggets"],
        format="json",
        shape="long",
        participant="assessor",
        item=["runs.topics.topic", "nugget"],
        system={"column": "runs.run"},
        criterion={"value": "support"},
        value="score",
    )
    assert sorted(zip(judgements["system"], judgements["item"], judgements["value"])) == [
        ("X", "t1|n1", 2.0),
        ("X", "t1|n2", 1.5),
        ("Y", "t1|n1", 0.0),
    ]


@pytest.mark.parametrize(
    "text,records,line",
    [
        (NESTED, ["runs", "topic", "nuggets"], "records runs > topic > nuggets: element 0 of runs has no key 'topic'"),
        (NESTED, ["runs", "topics", "nuggets", "meta"], "records runs > topics > nuggets > meta: 'meta' is not a list"),
        ('{"runs": {"run": "X"}}', ["runs"], "records runs: 'runs' is not a list (element 0)"),
        ('{"runs": [1, 2]}', ["runs"], "records runs: record 0 is a str, not an object"),
        ('{"runs": []}', [], "the document is one object: say where its records are"),
        ('{"a": 1, "a": 2}', ["a"], "the key 'a' appears twice in one object"),
        ('{"runs": [}', ["runs"], "not a JSON document (JSONDecodeError"),
        ("3", [], "expected a JSON object or list, got str"),
    ],
)
def test_a_nested_json_export_that_does_not_have_its_records_is_one_line(tmp_path, text, records, line):
    from humeval.errors import HumevalError
    from humeval.loaders.tabular_read import read_json_records

    path = tmp_path / "export.json"
    path.write_text(text)
    with pytest.raises(HumevalError) as caught:
        read_json_records(str(path), records)
    assert line in str(caught.value) and "\n" not in str(caught.value)


def test_a_carried_part_of_a_column_is_its_patterns_first_group_and_a_value_it_misses_names_its_row(tmp_path):
    """``carry: {summary: {column: code, part: regex}}`` carries the regex's first group of each value (puduppully's
    summary ``256`` of the item key ``256#1#0``); a value it does not match, or a pattern without a group, is one
    line naming the row or the key."""
    from humeval.errors import HumevalError

    text = "rater,code,score\nr1,256#1#0,1\nr2,12#4#3,2\n"
    common = {"participant": "rater", "item": ["code"], "criteria": {"q": "score"}, "system": {"value": "A"}}
    judgements, _ = load_ratings(tmp_path, text, carry={"summary": {"column": "code", "part": "^([^#]+)#"}}, **common)
    assert judgements.sort_values("item")["summary"].tolist() == ["12", "256"]
    with pytest.raises(HumevalError) as caught:
        load_ratings(
            tmp_path, text + "r3,oops,3\n", carry={"summary": {"column": "code", "part": "^([^#]+)#"}}, **common
        )
    assert "wide.csv: row ratings:4, carry summary: part '^([^#]+)#' finds nothing in 'oops'" in str(caught.value)
    with pytest.raises(HumevalError, match="has no group"):
        load_ratings(tmp_path, text, carry={"summary": {"column": "code", "part": "^[^#]+#"}}, **common)
