"""Generated hostile studies for the whole-pipeline adversarial run (tests/security/test_hostile_pipeline.py).

A *case* is one export and its config entry (one experiment of a study): raters with platform-like ids (24 hex
digits, 17-digit numbers, email addresses), system labels and experiment labels that are markup, formula cells or
reStructuredText directives, items and free-text notes that carry raw ids, odd number spellings, a gold flag
``+`` that an exclusion matches on, and a HEDS datasheet whose criterion names hold RST directives and whose
contact fields hold email addresses. Rater ids come in other spellings in some rows (a trailing space, a zero-width
space, full-width characters: one rater in any spelling; in a quarter of the cases, one rater in upper case in
some rows, with ``participant_case: fold``); a free-text contact column declared ``carry_as: text`` holds e-mail
and IP addresses; labels hold mathtext and braces (a format spec in any string of a study file is refused before
any job runs, for the whole run: test_hostile_study_files.py). Every other good study writes its means' precision
as ``010``, YAML 1.1's octal eight and YAML 1.2's ten. A *refused* case plants one defect (an empty rater id, a
judgement given twice, a value that is no number, one id in two letter cases, a header given twice, an e-mail
column not declared as text, a key file lacking the key of an item that carries a raw id, or listing it twice, an
item id whose bytes are no UTF-8) and must end its study in one line. Every study draws a bar figure whose title,
axis and bar labels hold mathtext, braces and markup. Half the good cases join a key file of topics per item (the
tabular loader's ``join``). Good cases are batched four to a study (experiments O, R1, R2, R3); a refused case has
a study of its own.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import yaml
from hypothesis import strategies as st

MARKUP = [
    "<img src=x onerror=alert(1)>",
    "</script><script>alert(1)</script>",
    "=1+1+cmd|' /C calc'!A0",
    "+SUM(1)",
    "-2+3",
    "@HYPERLINK(x)",
    "\tTAB",
    "\rCR line",
    "``x`` .. raw:: html",
    ".. include:: /etc/passwd",
    "a_ `link <javascript:alert(1)>`_",
    "Ünïcödé ＜b＞",
    '"quoted", comma',
    r"$\frac{1}{$ $\sqrt{\sqrt{x}}$",  # mathtext, and braces where a side label meets a template
]
BAD_KINDS = (
    "empty_id",
    "duplicate",
    "not_a_number",
    "case_variant",
    "duplicate_header",
    "undeclared_email",
    "missing_key",
    "doubled_key",
    "undecodable",
)
#: Personal data in the contact column, none of which may reach an output (RFC 5737 and example.net addresses).
CONTACTS = ("write to jane.roe@example.net", "from 192.0.2.77 at noon", "")
HEADER = ["PROLIFIC_PID", "item", "system", "score", "gold", "note", "contact"]


def spelled(rater: str, how: str) -> str:
    """The same id as an export may spell it: a trailing space, a zero-width space before it, or full-width
    characters (Unicode NFKC folds them back)."""
    if how == "space":
        return rater + " "
    if how == "zero_width":
        return "\u200b" + rater
    return "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in rater)


COMMIT = "0123456789abcdef0123456789abcdef01234567"
#: The tabular loader's parameters for a long export keyed by Prolific ids (shared with test_id_firewall.py).
LONG_PROLIFIC = {
    "shape": "long",
    "participant": "PROLIFIC_PID",
    "item": ["item"],
    "system": {"column": "system"},
    "criterion": "quality",
    "value": "score",
}


def raw_id(kind: str, k: int) -> str:
    """A platform-like participant id: never shorter than the firewall's minimum, never a common word."""
    digest = hashlib.sha256(f"{kind}{k}".encode()).hexdigest()
    if kind == "hex":
        return digest[:24]
    if kind == "digits":
        return str(10**16 + int(digest[:12], 16) % 9 * 10**15 + int(digest[12:20], 16) % 10**15)
    return f"rater.{digest[:8]}@example.org"


def grouped(rater: str) -> str:
    """A raw id written out in groups of four, as a person copies one (``5f1a 2b3c 4d5e ...``): none of its exact
    spellings (an e-mail-like id stays as it is: an address in a label column is refused whole)."""
    return rater if "@" in rater else " ".join(rater[k : k + 4] for k in range(0, len(rater), 4))


def respelled(rows: list[list[str]], raters: list[str], rng) -> bool:
    """Spell raters otherwise in some of their rows: half the time the first in another Unicode spelling, a quarter
    of the time another in upper case (True: the study must say ``participant_case: fold``)."""
    if rng.random() < 0.5:
        how = rng.choice(["space", "zero_width", "full_width"])
        for row in rows:
            if row[0] == raters[0] and rng.random() < 0.5:
                row[0] = spelled(raters[0], how)
    lettered = [r for r in raters[1:] if r != r.upper()]
    if rng.random() >= 0.25 or not lettered:
        return False
    for row in rows:
        if row[0] == lettered[0] and rng.random() < 0.5:
            row[0] = lettered[0].upper()
    return True


@st.composite
def case(draw, index: int, bad: str | None = None):
    """One experiment's export: rows of (rater, item, system, score, gold, note). Hypothesis draws the seed; the
    content comes from a generator seeded with it and the case's index, so that a batch of 200 is varied from its
    first example on (Hypothesis tries the simplest values first: every case would be alike)."""
    import random

    rng = random.Random(f"{draw(st.integers(0, 10**9))}:{index}:{bad}")
    raters = [raw_id(rng.choice(["hex", "digits", "email"]), rng.randrange(10**9)) for _ in range(rng.randint(2, 4))]
    systems = rng.sample(MARKUP, 2)
    items = [f"item-{k}" for k in range(3)]
    if rng.random() < 0.5 or bad in ("missing_key", "doubled_key"):
        items[0] = f"item-of-{raters[0]}"  # an item that carries a raw id
    notes = [
        "",
        "my prolific id is {rater}",
        "my id in groups: {grouped}",
        "ask {other} about it",
        '=HYPERLINK("http://x")',
        "<b>b</b> .. raw::",
        "ok",
    ]
    rows = []
    for rater in raters:
        for item in items:
            for system in systems:
                score = rng.choice(["1", "2", "3", "4", "5", " 4 ", "3.0", "+2", "1e0", ""])
                note = rng.choice(notes).format(rater=rater, other=rng.choice(raters), grouped=grouped(rater))
                rows.append([rater, item, system, score, rng.choice(["", "", "+"]), note, rng.choice(CONTACTS)])
    fold = respelled(rows, raters, rng) if bad is None else False
    if bad == "empty_id":
        rows[rng.randrange(len(rows))][0] = ""
    elif bad == "duplicate":
        rows.append(list(rows[rng.randrange(len(rows))]))
    elif bad == "not_a_number":
        rows[rng.randrange(len(rows))][3] = "four"
    elif bad == "case_variant":  # one rater's id in upper case in one row: two participants or one?
        mixed = hashlib.sha256(str(index).encode()).hexdigest()[:24]
        rows[0][0], rows[-1][0] = mixed, mixed.upper()
    elif bad == "undeclared_email":  # the contact column holds an e-mail address and is carried undeclared
        rows[0][6] = CONTACTS[0]
    elif bad == "undecodable":  # an item id holding bytes that are no UTF-8 (an encoded lone surrogate, ED A0 80)
        rows[rng.randrange(len(rows))][1] = "item-\udced\udca0\udc80"
    key = key_file(items, bad, rng) if bad in ("missing_key", "doubled_key") or rng.random() < 0.5 else None
    return {
        "raters": raters,
        "systems": systems,
        "rows": rows,
        "label": rng.choice(MARKUP),
        "bad": bad,
        "key": key,
        "fold": fold,
    }


def key_file(items: list[str], bad: str | None, rng) -> list[list[str]] | None:
    """A key file of a topic per item, joined on the item (none for a case refused for another defect); without
    the key of the item that carries a raw id (``missing_key``: the error must not quote it), or with it twice."""
    if bad not in (None, "missing_key", "doubled_key"):
        return None
    key = [[item, f"topic {k} {rng.choice(MARKUP)}"] for k, item in enumerate(items)]
    if bad == "missing_key":
        return key[1:]
    if bad == "doubled_key":
        return key + [[items[0], "another topic"]]
    return key


def batch(good: int, bad: int):
    """A strategy for the whole batch: ``good`` good cases and ``bad`` refused ones (the defects in turn)."""
    return st.tuples(
        st.tuples(*[case(k) for k in range(good)]),
        st.tuples(*[case(good + k, BAD_KINDS[k % len(BAD_KINDS)]) for k in range(bad)]),
    )


def csv_text(rows: list[list[str]], duplicate_header: bool = False, header: list[str] = HEADER) -> bytes:
    import csv
    import io

    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(header + (["score"] if duplicate_header else []))
    writer.writerows([row + [row[3]] for row in rows] if duplicate_header else rows)
    return out.getvalue().encode("utf-8", "surrogateescape")  # undecodable bytes written as they are


DATASHEET = {
    "heds-criteria-criterion": {
        "data": {},
        "control": {"Fluency\n\n.. raw:: html\n\n   <script>alert(1)</script>\n\n.. include:: /etc/passwd\n": True},
    },
    "heds-sample_evaluators_design-evaluators-recruitment_method": {
        "data": {"": "Prolific; contact mailto:a%40b.org, c[at]d.org, root@localhost or e＠f.org"}
    },
    "heds-names_and_affiliations-contact-email": {"data": {"": "secret.person@example.org"}},
    "heds-names_and_affiliations-contact-name": {"data": {"": "Secret Person"}},
    "heds-anything-else": {"data": {"": "sensitive@example.org <script>alert(1)</script>"}},
}


def write_batch(workdir: Path, mirror: Path, good: list[dict], bad: list[dict], per_study: int = 4) -> dict:
    """Write the studies (config/studies/hostile-NNN.yaml) and their exports (into ``mirror``); return
    ``{"good": [study names], "bad": {study: case}, "octal": [studies whose means' precision is written 010],
    "ids": set of raw ids, "cases": int}``."""
    studies, ids = {"good": [], "bad": {}, "octal": []}, set()
    groups = [good[k : k + per_study] for k in range(0, len(good), per_study)] + [[c] for c in bad]
    for number, group in enumerate(groups):
        name = f"hostile-{number:03d}"
        experiments, raw, extract, all_systems = [], [], [], []
        sheet = json.dumps(DATASHEET, ensure_ascii=False).encode()
        for k, case in enumerate(group):
            side = "O" if k == 0 else f"R{k}"
            path = f"{name}/{side}.csv"
            data = csv_text(case["rows"], duplicate_header=case["bad"] == "duplicate_header")
            target = mirror / "github/hostile/exports" / COMMIT / path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
            raw.append(
                {
                    "id": f"export_{side}",
                    "url": f"https://raw.githubusercontent.com/hostile/exports/{COMMIT}/{path}",
                    "sha256": hashlib.sha256(data).hexdigest(),
                    "role": f"{side} ratings {case['label']}",
                }
            )
            inputs, join = {"ratings": f"export_{side}"}, {}
            if case["key"] is not None:
                key_data = csv_text(case["key"], header=["item", "topic"])
                key_path = f"{name}/{side}-key.csv"
                (mirror / "github/hostile/exports" / COMMIT / key_path).write_bytes(key_data)
                raw.append(
                    {
                        "id": f"key_{side}",
                        "url": f"https://raw.githubusercontent.com/hostile/exports/{COMMIT}/{key_path}",
                        "sha256": hashlib.sha256(key_data).hexdigest(),
                        "role": f"{side} topic per item",
                    }
                )
                inputs["key"] = f"key_{side}"
                join = {"join": {"role": "key", "on": "item", "columns": ["topic"]}}
            label = f"{side} {case['label']}"  # the side the tidy table names: markup too
            experiment = {"id": side, "label": label, "citation": case["label"]}
            if k == 0:
                experiment["datasheet"] = "heds"
            experiments.append(experiment)
            extract.append(
                {
                    "side": label,
                    "loader": "tabular",
                    "inputs": inputs,
                    "params": {
                        **LONG_PROLIFIC,
                        "judgement": ["PROLIFIC_PID", "item", "system"],
                        "carry": {"gold": "gold", "note": ["note", "PROLIFIC_PID"], "contact": "contact"},
                        **({} if case["bad"] == "undeclared_email" else {"carry_as": {"contact": "text"}}),
                        **({"participant_case": "fold"} if case["fold"] else {}),
                        **join,
                    },
                }
            )
            all_systems += [s for s in case["systems"] if s not in all_systems]
            ids |= set(case["raters"]) - {""}
        target = mirror / "github/hostile/exports" / COMMIT / name / "heds.json"
        target.write_bytes(sheet)
        raw.append(
            {
                "id": "heds",
                "url": f"https://raw.githubusercontent.com/hostile/exports/{COMMIT}/{name}/heds.json",
                "sha256": hashlib.sha256(sheet).hexdigest(),
                "role": "HEDS datasheet <script>alert(1)</script>",
            }
        )
        sides = [e["label"] for e in experiments]
        study = {
            "name": name,
            "title": f"Hostile study {number} {MARKUP[number % len(MARKUP)]}",
            "experiments": experiments,
            "raw": raw,
            "extract": extract,
            "exclusions": [
                {"exclusion": "missing_value"},
                {
                    "exclusion": "drop_where",
                    "params": {"column": "gold", "values": ["+"], "reason": "gold question <b>+</b>"},
                },
            ],
            "metrics": [
                {
                    "metric": "describe",
                    "table": "table1",
                    "by": ["side", "system"],
                    "stats": ["mean", "n"],
                    "row": "{side}",
                    "column": "{system}_{stat}",
                }
            ],
            "tables": [
                {
                    "id": "table1",
                    "title": "Means <script>alert(1)</script>",
                    "paper": "</script><img src=x onerror=alert(1)>",  # reaches the report's labels
                    "row_header": "experiment",
                    "rows": sides,
                    "columns": [f"{s}_{stat}" for s in all_systems for stat in ("mean", "n")],
                    "precision": {f"{s}_{stat}": 2 for s in all_systems for stat in ("mean", "n")},
                }
            ],
            "figures": [  # text from config and data drawn as text: mathtext, braces and markup in every label
                {
                    "id": "figure1",
                    "kind": "bars",
                    "table": "table1",
                    "rows": sides[:1],  # O's means (each experiment has systems of its own)
                    "columns": [f"{s}_mean" for s in group[0]["systems"]],
                    "labels": {f"{s}_mean": s for s in group[0]["systems"]},
                    "ylabel": r"mean $\sqrt{x}$ <b>score</b>",
                    "paper": "Figure 1</script><script>alert(1)</script>",
                    "title": f"Means {MARKUP[-1]} {MARKUP[number % len(MARKUP)]}",
                }
            ],
            "published": [
                {
                    "table": "table1",
                    "source": "Paper </script><img src=x onerror=alert(1)>, Table 1",
                    "note": ".. include:: /etc/passwd =1+1",
                    "evidence": "hypothesis",
                    "cells": {sides[0]: {f"{all_systems[0]}_mean": "3.00"}},
                }
            ],
        }
        text = yaml.safe_dump(study, sort_keys=False, allow_unicode=True)
        if number % 2 and not group[0]["bad"]:  # the means' precision in YAML 1.1's octal form: 1.2 reads ten
            text = "\n".join(
                re.sub(r"_mean[\"']?: 2$", lambda m: m.group(0)[:-1] + "010", line) for line in text.split("\n")
            )
            studies["octal"].append(name)
        (workdir / "config/studies" / f"{name}.yaml").write_text(text)
        if group[0]["bad"]:
            studies["bad"][name] = group[0]
        else:
            studies["good"].append(name)
    studies["ids"] = ids
    studies["cases"] = len(good) + len(bad)
    studies["groups"] = dict(zip([f"hostile-{n:03d}" for n in range(len(groups))], groups))
    return studies
