"""The identifier and personal-data firewall of extraction (docs/raw-data-and-privacy.md): every raw id that
reached a text column replaced by its pseudonym (:func:`scrub_ids`), an error message scrubbed before it is printed
or logged (:func:`scrub_message`), and carried free text declared as such with e-mail and IP addresses, URL queries,
phone numbers and id-like runs removed, undeclared addresses refused (:func:`personal_data_firewall`). The
pseudonyms themselves are :mod:`humeval.tidy`'s."""

from __future__ import annotations

import numpy as np
import pandas as pd

from humeval.errors import HumevalError
from humeval.tidy import INVISIBLE, JUDGEMENT_COLUMNS

__all__ = ["PERSONAL_DATA", "personal_data_firewall", "personal_header", "readable", "scrub_ids", "scrub_message"]


#: The shortest raw id that :func:`scrub_ids` looks for in text. Platform ids are long (the six studies': 7 to 36
#: characters; Prolific 24, MTurk 13-14, Qualtrics 17); a study's own numbering is not (its annotators 0-4, its
#: participants 42-938), and looking for ``3`` in free text would rewrite every 3.
MIN_SCANNED_ID = 6
#: A raw id shorter than :data:`MIN_SCANNED_ID` that holds a letter and at least this many characters (``ab12``, a
#: first name) is replaced in an error message where it stands as a whole word (:func:`short_ids_replaced`); one
#: of digits alone (``42``) or of one character stays there, since a message's row numbers and counts would read
#: as it. In carried free text every raw id of any length is replaced where it stands as a whole word (issue 54:
#: a study's rater ids are known, so a rater who signs a comment "rater 42" is not named by it), a count equal to
#: a rater's number ("3 of 5") with it: the text then reads the pseudonym there.
MIN_SHORT_ID = 2
#: Columns :func:`scrub_ids` leaves alone: fixed vocabularies, numbers and the pseudonyms themselves.
NOT_SCANNED = ("study", "side", "participant", "response_type", "value")


#: Personal data a free-text column may hold, each run by RE2 (linear in the text) on :func:`readable` text:
#: e-mail addresses (``@`` or ``[at]``, ``(at)``, ``{at}``; dots or ``(dot)``, ``[dot]``, ``{dot}``), IP addresses
#: (v4; v6 in every standard form of RFC 4291 and 5952: eight groups, compressed in the middle, at the end
#: ``2001:db8::`` or in front of an embedded v4 address ``::ffff:192.0.2.1``; the longer form tried first, so
#: ``2001:db8:0:0:1::1`` goes whole; three to seven groups without ``::`` are no address, ``10:30:00`` is a time),
#: URLs with a query or a fragment of parameters, and without a scheme those of a parameter
#: (``example.org/s?PROLIFIC_PID=...``), phone numbers (nine or more digits, one or two of the usual separators
#: between them: ``(020) 7946 0958``, ``+1 (555) 123-4567``), geographic coordinates (a pair of decimal degrees of
#: four or more decimals, as Qualtrics' LocationLatitude/LocationLongitude and a browser's geolocation give them,
#: the hemisphere before or after; degrees, minutes and seconds or decimal minutes, ``51°30'26"N``, ``N 51°
#: 30.44'``; a number labelled ``lat``/``lon``), device data (a browser's user agent, ``Mozilla/5.0 (...)``, and
#: any product's whose comment names a platform, ``Dalvik/2.1.0 (Linux; U; Android 11)``; a network card's MAC
#: address, ``00:1A:2B:3C:4D:5E``, ``00-1A-...``, ``001a.2b3c.4d5e``) and long id-like runs (20 or more letters and
#: digits, both).
DEGREES = r"[-+]?\d{1,3}\.\d{4,}(?:\s*°)?(?:\s*[NSEW]\b)?"
#: Minutes or seconds of an angle: whole or decimal.
ARC = r"\d{1,2}(?:[.,]\d+)?"
#: An angle in degrees and minutes (and seconds), as a hemisphere letter stands before or after it.
DMS = rf"\d{{1,3}}(?:\.\d+)?\s*°\s*(?:{ARC}\s*['′’]\s*(?:{ARC}\s*(?:[\"″”]|['′’]{{2}})\s*)?)?"
#: One group of an IPv6 address.
HEX = r"[0-9A-Fa-f]{1,4}"
IPV4 = r"(?:\d{1,3}\.){3}\d{1,3}"
#: A phone number's next digit: up to two of the usual separators before it (``) 7``, `` (5``).
PHONE_DIGIT = r"[\s().-]{0,2}\d"
#: Operating systems and devices a user agent's comment names.
PLATFORM = r"Linux|Android|Windows|Macintosh|Mac OS|iPhone|iPad|iOS|CPU OS|X11|CrOS|Darwin"
PERSONAL_DATA = {
    "e-mail address": r"(mailto:)?[\pL\pN\pM_.+-]+\s*(@|\[at\]|\(at\)|\{at\})\s*[\pL\pN\pM_-]+"
    r"((\.|\s*(\[dot\]|\(dot\)|\{dot\})\s*)[\pL\pN\pM_-]+)*",
    "IP address": rf"(?:(?:{HEX})?:){{2,7}}{IPV4}\b"
    rf"|\b(?:{IPV4}|(?:{HEX}:){{1,6}}:{HEX}(?::{HEX})*|(?:{HEX}:){{7}}{HEX})\b"
    rf"|\b(?:{HEX}:){{2,6}}:",
    "URL with a query": r"[A-Za-z][A-Za-z0-9+.-]*://[^\s?#]*(?:\?|#[^\s=]*=)\S*"
    r"|\b[\pL\pN-]+(?:\.[\pL\pN-]+)+(?::\d+)?(?:/[^\s?#]*)?[?#][^\s=]*=\S*",
    "phone number": rf"\+?\(?\d(?:{PHONE_DIGIT}){{8,}}",
    "geographic coordinates": rf"{DEGREES}(?:\s*[,;/]\s*|\s+){DEGREES}"
    rf"|{DMS}[NSEW]\b|\b[NSEW]\s*{DMS}"
    r"|\b[NS]\s*\d{1,2}\.\d{3,}\s*[,;/]?\s*[EW]\s*\d{1,3}\.\d{3,}"
    r"|\b(?:lat|latitude|lon|lng|long|longitude)\b\s*[:=]?\s*[-+]?\d{1,3}\.\d{3,}",
    "device data": r"\b(?:Mozilla|Opera)/\d+(?:\.\d+)*(?:\s*\([^)]*\))?(?:\s+[\w.-]+/[\w.+-]+(?:\s*\([^)]*\))?)*"
    rf"|\b[A-Za-z][\w.-]*/\d+(?:\.\d+)*\s*\([^)]*(?:{PLATFORM})[^)]*\)(?:\s+[\w.-]+/[\w.+-]+(?:\s*\([^)]*\))?)*"
    r"|\b[0-9A-Fa-f]{2}(?:[:-][0-9A-Fa-f]{2}){5}\b|\b[0-9A-Fa-f]{4}\.[0-9A-Fa-f]{4}\.[0-9A-Fa-f]{4}\b",
    "id": r"\b(?:[A-Za-z]+\d|\d+[A-Za-z])[A-Za-z0-9]{18,}\b",
}
#: The fewest digits of a number that an error message loses as a possible id (:func:`scrub_message`): the numeric
#: ids of the generated hostile suite have 17 digits; a row number or a count in a message never reaches 12.
ID_DIGITS = 12
#: What a label column (one not declared ``carry_as: {column: text}``) is refused for holding, by content, as the
#: refusal names it: only a declaration as free text carries such a column out, scrubbed.
REFUSED_IN_LABELS = {
    "e-mail address": "an e-mail address",
    "IP address": "an IP address",
    "geographic coordinates": "geographic coordinates",
    "device data": "device data (a browser's user agent)",
    "id": "a long id-like run (a participant id?)",
}
#: A whole value that is a phone number in international form (``+44 20 7946 0958``): a label column holding one
#: is refused like an address; bare digits are not (item and unit ids are often 9-10 digits), their header says.
INTERNATIONAL_PHONE = rf"^\s*\+\d(?:{PHONE_DIGIT}){{7,}}\s*$"
#: Headers (the carried column's name or the export columns it copies) that say what a column holds, whatever its
#: values look like: a location or a name no scrubber can make anonymous (Qualtrics' LocationLatitude/
#: LocationLongitude, a city, a postcode; a form's "First name", "What is your name?") is never carried; contact details only declared as free text, scrubbed; a platform's
#: participant id (Prolific's PROLIFIC_PID, MTurk's WorkerId, a respondent id) only as the participant, which the
#: identifier firewall pseudonymises: another such column would carry raw ids it never learns.
PERSONAL_HEADERS = {
    "a location": r"latitude|longitude|^(lat|lon|lng|geo|gps|location|city|town|postcode|post_code|zip|zipcode|zip_code|address)$|location_?(lat|lon)",
    "a person's name": r"(first|last|full|given|family|sur|middle|real)[ _.-]?name|^your[ _.-]?name|what is your name",
    "contact details": r"phone|mobile|telephone|^tel$|e-?mail|ip_?address|recipient",
    "device data": r"user.?agent|browser|operating.?system|screen.?(resolution|size|width|height)|^(os|device|device.?(type|model|name)|resolution|q_version|q_resolution)$",
    "a participant id": r"prolific|turker|^(worker|participant|respondent|response|annotator|rater|labell?er|user|subject|session|panelist)[ _.-]?id$|^(pid|uid|workerid)$",
}

#: What :data:`PERSONAL_HEADERS` names that no declaration carries: no scrubber makes a place or a name anonymous.
NEVER_CARRIED = ("a location", "a person's name")


def readable(text: str) -> str:
    """Text as every scrubber reads it: HTML character references and percent-escapes decoded (``&#64;``,
    ``&commat;`` and ``%40`` are ``@``), Unicode NFKC (full-width ``５``, ``＠`` and ``．`` are ``5``, ``@`` and
    ``.``; ``﹫`` is ``@``) and invisible characters removed (:data:`humeval.tidy.INVISIBLE`: zero-width spaces,
    soft hyphens, bidirectional marks), until nothing more changes (``%2540`` is ``@``), so that no spelling of an
    id, an address or a number hides it from the patterns. The one normalisation of the firewall, before every
    scrubber: of carried free text (:func:`personal_data_firewall`), of the text searched for raw ids
    (:func:`scrub_ids`), of error messages (:func:`scrub_message`) and of datasheets' conditions
    (:func:`humeval.heds.clean`); the id reader (:func:`humeval.tidy.normalised_id`) folds ids alike.

    >>> readable("mail jo\u200b＠example．org from １９２.０.２.１")
    'mail jo@example.org from 192.0.2.1'
    >>> readable("jo&#64;example.org, jo%2540example.org, 5f1a\u200e2b\u2062c3")
    'jo@example.org, jo@example.org, 5f1a2bc3'
    """
    import html
    import unicodedata
    from urllib.parse import unquote

    for _ in range(4):  # each round decodes one layer; four cover any spelling met in practice
        folded = unicodedata.normalize("NFKC", unquote(html.unescape(text))).translate(INVISIBLE)
        if folded == text:
            break
        text = folded
    return text


def readable_values(values: pd.Series) -> pd.Series:
    """:func:`readable` of each value of a Series of text, normalising only the values it can change: those that
    are not ASCII or hold a ``%`` or ``&`` (NFKC leaves ASCII as it is and no invisible character is ASCII). At 10^6
    judgements of the ranking shape the firewall met 366,680 distinct values, all ASCII, and called
    :func:`readable` on each twice (0.7 s of the extract job).

    >>> readable_values(pd.Series(["a1", "５f\u200b1", "a%31"], dtype=object)).tolist()
    ['a1', '5f1', 'a1']
    """
    other = ~values.str.isascii().astype(bool) | values.str.contains("%|&", regex=True).astype(bool)
    if not other.any():
        return values
    out = values.copy()
    out[other] = values[other].map(readable)
    return out


def personal_header(names: list[str]) -> str | None:
    """What :data:`PERSONAL_HEADERS` says a column named ``names`` (its carried name and the export columns it
    copies) holds, or None.

    >>> personal_header(["where", "LocationLatitude"]), personal_header(["contact", "Phone number"])
    ('a location', 'contact details')
    >>> personal_header(["who", "First name"]), personal_header(["who", "What is your name?"])
    ("a person's name", "a person's name")
    >>> personal_header(["pid", "PROLIFIC_PID"]), personal_header(["w", "WorkerId"])
    ('a participant id', 'a participant id')
    >>> personal_header(["ua", "User-Agent"]), personal_header(["os", "Q_OperatingSystem"])
    ('device data', 'device data')
    >>> personal_header(["section", "story_name", "section_id"]) is None
    True
    """
    from humeval.patterns import config_pattern

    for what, pattern in PERSONAL_HEADERS.items():
        if any(config_pattern(pattern, ignore_case=True).search(str(name).strip()) for name in names):
            return what
    return None


def personal_data_firewall(
    frame: pd.DataFrame,
    declared: dict[str, str],
    source: str,
    headers: dict[str, list[str]] | None = None,
    participant: list[str] = (),
) -> pd.DataFrame:
    """The carried columns of ``frame`` (those the tidy table does not define) as they may leave extraction: a
    column declared ``text`` (``carry_as``) has every :data:`PERSONAL_DATA` match replaced by ``[removed]``; a
    column not declared so that holds an e-mail or IP address, geographic coordinates, a user agent or an
    international phone number is refused in one line naming it; a column declared ``number`` must hold numbers.
    Whatever it holds, a column whose name or export columns (``headers``: carried name -> the export's headers)
    name a location or a person's name is refused (:data:`NEVER_CARRIED`), contact details and device data unless
    declared ``text`` (:func:`personal_header`), and a participant id unless every export column it copies that
    names one is the ``participant`` column itself (which holds the pseudonym, never the raw id). A column not
    declared ``text`` that holds a long id-like run (:data:`PERSONAL_DATA`'s ``id``: a Prolific id under any
    header) is refused as an address is. Each distinct value is looked at once.

    >>> frame = pd.DataFrame({"note": ["mail me: jo@example.org from 203.0.113.7", "fine"]})
    >>> personal_data_firewall(frame, {"note": "text"}, "x.csv")["note"].tolist()
    ['mail me: [removed] from [removed]', 'fine']
    >>> personal_data_firewall(frame, {}, "x.csv")
    Traceback (most recent call last):
    humeval.errors.HumevalError: x.csv: carried column 'note' holds an e-mail address: declare it carry_as: {note: text} to carry it with personal data removed, or do not carry it
    """
    from humeval.patterns import config_pattern

    changed = {}
    for column in frame.columns:
        if column in JUDGEMENT_COLUMNS or column == "rater_number" or pd.api.types.is_numeric_dtype(frame[column]):
            continue
        kind = declared.get(column, "label")
        copied = (headers or {}).get(column, [])
        what = personal_header([column, *copied])
        if what == "a participant id" and all(
            h in participant or personal_header([h]) != what for h in copied
        ):  # the participant column (and a name that says so): its pseudonyms
            what = personal_header([h for h in copied if h not in participant])
        if what in NEVER_CARRIED or (what and kind != "text"):
            advice = {
                **dict.fromkeys(NEVER_CARRIED, "do not carry it"),
                "a participant id": "name it as the participant (pseudonymised), or do not carry it",
            }.get(what, f"declare it carry_as: {{{column}: text}}")
            raise HumevalError(
                f"carried column {column!r} holds {what} by its header ({[column, *(headers or {}).get(column, [])]}): "
                f"personal data; {advice}",
                file=source,
            )
        codes, distinct = pd.factorize(frame[column], use_na_sentinel=True)
        text = [readable(str(v)) for v in distinct]  # free text leaves extraction as the scrubbers read it
        if kind == "number":
            bad = [v for v in text if pd.isna(pd.to_numeric(v, errors="coerce")) and v.strip()]
            if bad:
                raise HumevalError(f"carried column {column!r} is declared a number but holds text", file=source)
            continue
        if kind == "text":
            for pattern in PERSONAL_DATA.values():
                compiled = config_pattern(pattern, ignore_case=True)
                text = [compiled.sub("[removed]", v) if compiled.search(v) else v for v in text]
            values = np.asarray(text, dtype=object)[codes] if len(text) else np.asarray([], dtype=object)
            values[codes == -1] = None
            changed[column] = pd.Series(values, index=frame.index, dtype=object)
            continue
        phone = config_pattern(INTERNATIONAL_PHONE)
        if any(phone.search(v) for v in text):
            raise HumevalError(
                f"carried column {column!r} holds a phone number: declare it carry_as: {{{column}: text}} to carry it "
                "with personal data removed, or do not carry it",
                file=source,
            )
        joined = "\0".join(text)  # one linear search per pattern over the column's distinct values
        for name, held in REFUSED_IN_LABELS.items():
            if config_pattern(PERSONAL_DATA[name], ignore_case=True).search(joined):
                raise HumevalError(
                    f"carried column {column!r} holds {held}: declare it carry_as: {{{column}: text}} to carry it "
                    "with personal data removed, or do not carry it",
                    file=source,
                )
    return frame.assign(**changed) if changed else frame


def scrub_message(text: str, ids: dict[str, str]) -> str:
    """An error raised during extraction as it may be printed or logged: the raw ids pseudonymised so far replaced
    by their pseudonyms (:func:`scrub_text`), and any other e-mail or IP address, URL query or id-like run
    (:data:`PERSONAL_DATA`; a join's key-file error runs before any pseudonym exists) replaced by ``[removed]``.

    A run of :data:`ID_DIGITS` or more digits is removed too, wherever it stands (a 17-digit id inside an item
    name, ``item-of-17000001142836570``, passed the patterns, which leave numbers alone: row numbers and counts
    stay readable, and none is that long).

    >>> scrub_message("join: key ['5f1a2b3c4d5e6f7a8b9c0d1e'] appears twice", {})
    "join: key ['[removed]'] appears twice"
    >>> scrub_message("row 12: key ['item-of-17000001142836570'] is missing", {})
    "row 12: key ['item-of-[removed]'] is missing"
    """
    from humeval.patterns import config_pattern

    text = scrub_text(readable(text), ids)
    for name, pattern in PERSONAL_DATA.items():
        if name != "phone number":  # row numbers and counts stay readable
            text = config_pattern(pattern, ignore_case=True).sub("[removed]", text)
    return config_pattern(rf"\d{{{ID_DIGITS},}}").sub("[removed]", text)


def scrub_text(text: str, ids: dict[str, str]) -> str:
    """``text`` (an error message that quotes an export's cells) with every raw id of at least
    :data:`MIN_SCANNED_ID` characters replaced by its pseudonym, in any letter case, the longest first, and every
    shorter one of :data:`MIN_SHORT_ID` that stands as a whole word.

    >>> scrub_text("row 3: item 'item-of-5F1A2B3C4D' appears twice", {"5f1a2b3c4d": "P1", "42": "P2"})
    "row 3: item 'item-of-P1' appears twice"
    >>> scrub_text("row 42: rater 'Ab12' rated twice", {"ab12": "P1", "42": "P2"})
    "row 42: rater 'P1' rated twice"
    """
    import re

    lowered = text.casefold()
    for raw in sorted((r for r in ids if len(r) >= MIN_SCANNED_ID and r.casefold() in lowered), key=len, reverse=True):
        text = re.sub(re.escape(raw), ids[raw].replace("\\", "\\\\"), text, flags=re.IGNORECASE)
    short = short_ids(ids)
    text = short_ids_replaced(pd.Series([text], dtype=object), short)[0].iloc[0] if short else text
    return spaced_ids_replaced(pd.Series([text], dtype=object), spaced_ids(ids))[0].iloc[0]


def scrub_ids(
    frame: pd.DataFrame, ids: dict[str, str], free_text: frozenset = frozenset(), source: str | None = None
) -> pd.DataFrame:
    """The identifier firewall: every raw id of at least :data:`MIN_SCANNED_ID` characters that stands in a text
    column of ``frame`` (a judgement id, an item, a carried free-text answer such as "my prolific id is 5f1a...")
    replaced by its pseudonym (``ids``, from :func:`collected_ids`), in any letter case, whatever route brought it
    there; in a carried column a shorter one that holds a letter, and in one of ``free_text`` (declared ``carry_as:
    text``) one of any length, where it stands as a whole word (:data:`MIN_SHORT_ID`). A value that is a raw id
    stops extraction in one line naming ``source`` and the row (:func:`refuse_ids_as_values`).

    Linear in the text: the distinct values of a column are joined and cut into runs of letters and digits once
    (one regular-expression pass in C); only the ids whose longest such run is among them, or that have no run
    of :data:`MIN_SCANNED_ID` characters (an e-mail address), are then replaced, in the values that hold them.

    >>> notes = pd.DataFrame({"note": ["my id is 5f1a2b3c4d!", "rater 42", "ok 142"], "list": ["1", "42", "3"]})
    >>> scrub_ids(notes, {"5f1a2b3c4d": "P1", "42": "P2"}, free_text=frozenset({"note"}))
    ... # doctest: +NORMALIZE_WHITESPACE
               note list
    0  my id is P1!    1
    1      rater P2   42
    2        ok 142    3
    """
    import re

    import numpy as np

    scanned = {raw: name for raw, name in ids.items() if len(raw) >= MIN_SCANNED_ID}
    short, every, spread = short_ids(ids), short_ids(ids, every=True), spaced_ids(ids)
    if not scanned and not short and not (free_text and every):
        return frame
    anchors = {raw: max(re.findall(r"[A-Za-z0-9]+", raw) or [""], key=len).casefold() for raw in scanned}
    numeric = {
        int(raw.strip()): name for raw, name in scanned.items() if raw.strip().isascii() and raw.strip().isdigit()
    }
    if "value" in frame.columns:
        refuse_ids_as_values(frame["value"], scanned, numeric, source)
    changed = {}
    for column in frame.columns:
        if column in NOT_SCANNED:
            continue
        if pd.api.types.is_numeric_dtype(frame[column]):  # an all-digit id read as a number (a worker number)
            if numeric and not pd.api.types.is_bool_dtype(frame[column]):
                changed.update(numeric_ids_replaced(frame[column], numeric))
            continue
        codes, distinct = pd.factorize(frame[column], use_na_sentinel=True)
        if not len(distinct):
            continue
        original = pd.Series(distinct, dtype=object).astype(str)
        folded = readable_values(original)  # an id in full-width digits or with a zero-width space inside is the id
        text = folded.copy()
        runs = set(re.findall(f"[a-z0-9]{{{MIN_SCANNED_ID},}}", "\n".join(text.tolist()).casefold()))  # shorter: below
        present = [r for r in scanned if anchors[r] in runs or len(anchors[r]) < MIN_SCANNED_ID]
        hit = False
        for raw in sorted(present, key=len, reverse=True):  # a longer id first: it may contain a shorter one
            spelled = re.compile(re.escape(raw), re.IGNORECASE)
            holds = text.str.contains(spelled)
            if holds.any():
                text[holds] = text[holds].str.replace(spelled, scanned[raw].replace("\\", "\\\\"), regex=True)
                hit = True
        whole_words = every if column in free_text else short
        if column not in JUDGEMENT_COLUMNS and whole_words:  # carried: short ids too, as whole words
            text, shortened = short_ids_replaced(text, whole_words)
            hit = hit or shortened
        if column not in JUDGEMENT_COLUMNS and spread:  # carried: an id written out in groups
            text, grouped = spaced_ids_replaced(text, spread)
            hit = hit or grouped
        if hit:
            text = text.where(text != folded, original)  # a value without an id stays as written
            values = np.asarray(text, dtype=object)[codes]
            values[codes == -1] = None
            changed[column] = pd.Series(values, index=frame.index, dtype=object)
    return frame.assign(**changed) if changed else frame


def refuse_ids_as_values(
    values: pd.Series, scanned: dict[str, str], numeric: dict[int, str], source: str | None = None
) -> None:
    """Stop where a judgement's value is a participant's raw id (of :data:`MIN_SCANNED_ID` or more characters, in
    any spelling; an all-digit one also as a number): a rater who typed their worker number into a rating field.
    The value column must stay a number, so no pseudonym can stand there; the row is named, the id never quoted.

    >>> refuse_ids_as_values(pd.Series(["3", "17000001142836570"]), {"17000001142836570": "P1"},
    ...                      {17000001142836570: "P1"})
    Traceback (most recent call last):
    humeval.errors.HumevalError: column 'value' row 1 holds a participant's raw id (a rater typed it as the answer?): a value is a number, never an id; leave the row out (the loader's where) or mend the export
    """
    if not scanned:
        return
    if pd.api.types.is_numeric_dtype(values):
        if not numeric or pd.api.types.is_bool_dtype(values):
            return
        keys = list(numeric) if pd.api.types.is_integer_dtype(values) else [float(key) for key in numeric]
        hits = values.isin(keys)
    else:
        text = values.dropna().astype(str)
        folded = readable_values(text).str.strip().str.casefold()
        hits = folded.isin({raw.strip().casefold() for raw in scanned}).reindex(values.index, fill_value=False)
    if hits.any():
        raise HumevalError(
            f"column 'value' row {int(hits.to_numpy().argmax())} holds a participant's raw id (a rater typed it as the "
            "answer?): a value is a number, never an id; leave the row out (the loader's where) or mend the export",
            file=source,
        )


def short_ids(ids: dict[str, str], every: bool = False) -> dict[str, str]:
    """The raw ids of ``ids`` (raw -> pseudonym) that are looked for only as whole words: shorter than
    :data:`MIN_SCANNED_ID`, and, unless ``every`` (carried free text), of :data:`MIN_SHORT_ID` or more characters
    with a letter among them (an error message's row numbers stay).

    >>> ids = {"42": "P1", "Jo7": "P2", "7": "P3", "5f1a2b3c4d": "P4"}
    >>> sorted(short_ids(ids)), sorted(short_ids(ids, every=True))
    (['Jo7'], ['42', '7', 'Jo7'])
    """
    return {
        raw: name
        for raw, name in ids.items()
        if len(raw) < MIN_SCANNED_ID and (every or (len(raw) >= MIN_SHORT_ID and any(map(str.isalpha, raw))))
    }


def short_ids_replaced(text: pd.Series, short: dict[str, str]) -> tuple[pd.Series, bool]:
    """``text`` (a carried column's distinct values, :func:`readable`) with every short raw id of ``short`` (raw ->
    pseudonym; see :data:`MIN_SHORT_ID`) that stands as a whole word, in any letter case, replaced by its pseudonym,
    and whether any was. Linear in the text: its words are collected once, and only the ids among them are
    looked for.

    >>> short_ids_replaced(pd.Series(["thanks, ab12", "Ab12x and ab12"]), {"ab12": "P1"})[0].tolist()
    ['thanks, P1', 'Ab12x and P1']
    >>> short_ids_replaced(pd.Series(["I am 5.", "rated 4.5 or 5,0 at 10:5"]), {"5": "P2"})[0].tolist()
    ['I am P2.', 'rated 4.5 or 5,0 at 10:5']
    """
    import re

    joined = "\n".join(text.tolist()).casefold()
    words = set(re.findall(r"\w+", joined))
    present = [raw for raw in short if raw.casefold() in (words if raw.isalnum() else joined)]
    hit = False
    for raw in sorted(present, key=len, reverse=True):
        # a whole word, and not a part of a number (4.5, 3,000, 10:42)
        spelled = re.compile(rf"(?<!\w)(?<!\d[.,:]){re.escape(raw)}(?!\w)(?![.,:]\d)", re.IGNORECASE)
        holds = text.str.contains(spelled)
        if holds.any():
            text = text.copy()
            text[holds] = text[holds].str.replace(spelled, short[raw].replace("\\", "\\\\"), regex=True)
            hit = True
    return text, hit


#: What may stand between the characters of a raw id written out in groups (``5f1a 2b3c``, ``5f1a-2b3c``,
#: ``5 f 1 a``): up to three spaces, hyphens or underscores. Not ``.``, ``,`` or ``:``, which group a number's
#: digits or a time's.
SPACING = "[\\s_-]{1,3}"


def spaced_ids(ids: dict[str, str]) -> dict[str, str]:
    """The raw ids of ``ids`` (raw -> pseudonym) of :data:`MIN_SCANNED_ID` or more letters and digits, keyed by those
    letters and digits alone, case-folded: how :func:`spaced_ids_replaced` finds one written out in groups.

    >>> spaced_ids({"5F1A-2b3c4d": "P1", "ab12": "P2"})
    {'5f1a2b3c4d': 'P1'}
    """
    import re

    compact = {re.sub(r"[\W_]", "", raw).casefold(): name for raw, name in ids.items()}
    return {key: name for key, name in compact.items() if len(key) >= MIN_SCANNED_ID}


def spaced_ids_replaced(text: pd.Series, spaced: dict[str, str]) -> tuple[pd.Series, bool]:
    """``text`` (distinct values, :func:`readable`) with every raw id of ``spaced`` (:func:`spaced_ids`) written out
    in groups, whole words of its letters and digits in order with :data:`SPACING` between them (``my id is 5f1a
    2b3c 4d5e``, ``5 f 1 a 2 b 3 c 4 d``), in any letter case, replaced by its pseudonym, and whether any was. The
    exact spellings are :func:`scrub_ids`'s; these are the spellings an id's own text does not contain (issue 54: an
    id in groups of four was carried raw, declared free text or a label).

    Linear in the text: only runs of two or more words joined by spacing are looked at, and from each word only as
    many words as go on spelling the start of an id (1 MB of one-letter words took 1.2 CPU s before this pruning,
    when every word read on to the longest id's length; 0.5 s after, and 0.6 s for 1 MB spelling an id's first 23
    characters over and over).

    >>> spaced_ids_replaced(pd.Series(["id 5F1A 2b3c-4d ok", "scores 1 2 3", "5f1a2b3c4d"]), {"5f1a2b3c4d": "P1"})[0].tolist()
    ['id P1 ok', 'scores 1 2 3', '5f1a2b3c4d']
    """
    import re

    if not spaced:
        return text, False
    lengths, longest = {len(key) for key in spaced}, max(map(len, spaced))
    prefixes = {key[:n] for key in spaced for n in range(1, len(key) + 1)}
    chain, word = re.compile(rf"[^\W_]+(?:{SPACING}[^\W_]+)+"), re.compile(r"[^\W_]+")
    hit, out = False, text.copy()
    for k, value in enumerate(text.tolist()):
        spans = []
        for found in chain.finditer(value):
            words = [
                (w.start() + found.start(), w.end() + found.start(), w.group().casefold())
                for w in word.finditer(found.group())
            ]
            first = 0
            while first < len(words):
                letters, last, name = "", first, None
                for last in range(first, len(words)):
                    letters += words[last][2]
                    if letters not in prefixes:  # no id starts so: on to the next first word
                        break
                    if len(letters) in lengths and letters in spaced:
                        name = spaced[letters]
                    if len(letters) >= longest or name:
                        break
                if name and last > first:  # one word alone is an exact spelling: scrub_ids' own
                    spans.append((words[first][0], words[last][1], name))
                    first = last + 1
                else:
                    first += 1
        for begin, end, name in reversed(spans):
            value = value[:begin] + name + value[end:]
        if spans:
            out.iloc[k] = value
            hit = True
    return out, hit


def numeric_ids_replaced(cells: pd.Series, numeric: dict[int, str]) -> dict[str, pd.Series]:
    """``{column: cells}`` with every number equal to an all-digit raw id (``numeric``: id as an int -> its
    pseudonym) replaced by the pseudonym, the column then text; empty where none is there. Integers are compared
    exactly; a float column (where a 17-digit id has lost its last digits) as the float each id reads as.

    >>> numeric_ids_replaced(pd.Series([7, 12345678901234567], name="x"), {12345678901234567: "P1"})["x"].tolist()
    [7, 'P1']
    """
    if pd.api.types.is_integer_dtype(cells):
        hits = cells.isin(list(numeric))
        lookup = numeric
    else:
        lookup = {float(key): name for key, name in numeric.items()}
        hits = cells.isin(list(lookup))
    if not hits.any():
        return {}
    out = cells.astype(object)
    out[hits] = [lookup[value] for value in cells[hits].tolist()]
    return {cells.name: out}
