"""How parse reads what OCR misread on a scan's lines, each a declared parse pass a spec can disable: an
option label read as its look-alike (`label-lookalikes`), a letter in a number's place (`number-lookalikes`),
the circle of a true/false answer box read into its label (`ringed-marks`) and a key's answer letter read
twice (`doubled-key-letter`). On an OCR'd sheet that needs each one, disabling it from the spec changes
the curated records, and the records with every pass are the ones the printed sheet holds."""
from __future__ import annotations

import pytest

from pipeline.acquire import ManifestEntry
from pipeline.extract import ExtractedDocument, Line, Page, PageMethod
from pipeline.infra import load_yaml
from pipeline.parse import PARSE_PASSES, Point, parse_sheet, recovery_key
from pipeline.specs import parse_spec, spec_path

SPEC = "pl_cke_matura_informatyka"
READING_PASSES = ("label-lookalikes", "number-lookalikes", "ringed-marks", "doubled-key-letter")

# (x0, text) of the scan's lines, top to bottom; a tuple of several is one row (a true/false statement and
# its answer boxes). What OCR misread: "Zadanie 3.l." (task 3.1), "€." (label C), "Po"/"OF" (P, F read with
# their boxes' circles).
SHEET = [
    (70, "Zadanie 1.2. (0-1)"),
    (70, "Oceń, czy podane zdania są prawdziwe. Zaznacz P, jeśli zdanie jest prawdziwe, albo F – jeśli fałszywe."),
    ((80, "1. Liczba 7 jest liczbą pierwszą."), (473, "P"), (505, "F")),
    ((80, "2. Liczba 9 jest liczbą pierwszą."), (473, "Po"), (505, "OF")),
    ((80, "3. Liczba 12 jest parzysta."), (473, "P"), (505, "F")),
    (70, "Zadanie 3.l. (0-1)"),
    (70, "Która z podanych liczb jest liczbą pierwszą?"),
    (70, "A. 21"),
    (70, "B. 25"),
    (70, "€. 29"),
    (70, "D. 33"),
]
# The marking scheme, scanned: the answer letter read twice, in both cases.
KEY = [(70, "Zadanie 1.2. (0-1)"), (70, "Poprawna odpowiedź"), (70, "PFP"),
       (70, "Zadanie 3.1. (0-1)"), (70, "Poprawna odpowiedź"), (70, "Cc")]


def _document(rows, name: str) -> ExtractedDocument:
    lines, top = [], 80
    for row in rows:
        for x0, text in row if isinstance(row[0], tuple) else [row]:
            lines.append(Line(text=text, x0=x0, top=top, x1=x0 + 6 * len(text), bottom=top + 10, font_size=10))
        top += 16
    page = Page(number=1, width=595, height=842, method=PageMethod.OCR, lines=lines)
    return ExtractedDocument(sha256="0" * 64, path=name, page_count=1, pages=[page], stage_version="test")


def _entry(role: str, name: str) -> ManifestEntry:
    return ManifestEntry(url=f"file:///{name}", final_url=f"file:///{name}", spec=SPEC, role=role, facts={"year": "2018"},
                         status="local", sha256="0" * 64, path=name)


def _records(tmp_path, disable: list[str]) -> dict[str, dict]:
    data = load_yaml(spec_path(SPEC).read_text(encoding="utf-8"))
    data.setdefault("ocr", {})["passes"] = {"disable": disable}
    spec = parse_spec(data, tmp_path / f"{SPEC}.yaml")
    keys = [(_document(KEY, "Zasady.pdf"), _entry("key", "Zasady.pdf"))]
    result = parse_sheet(_document(SHEET, "Arkusz.pdf"), _entry("sheet", "Arkusz.pdf"), keys, spec)
    return {q.number: q.to_row() for q in result.questions}


def test_every_reading_pass_is_declared_at_its_point_and_keys_only_ocr_sheets():
    declared = {p.name: p for p in PARSE_PASSES}
    assert [declared[name].point for name in READING_PASSES] == [Point.OCR_LINE, Point.OCR_LINE, Point.MARK, Point.KEY_ENTRY]
    for name in READING_PASSES:
        assert declared[name].ocr_only
        assert (name, declared[name].version) in recovery_key([], True)
        assert (name, declared[name].version) not in recovery_key([], False)
        assert (name, declared[name].version) not in recovery_key([name], True)


def test_with_every_pass_the_scan_reads_as_printed(tmp_path):
    records = _records(tmp_path, [])
    assert sorted(records) == ["1.2.1", "1.2.2", "1.2.3", "3.1"]
    assert [records[f"1.2.{n}"]["answer"] for n in (1, 2, 3)] == ["P", "F", "P"]
    assert records["1.2.2"]["question"] == "Liczba 9 jest liczbą pierwszą."
    choice = records["3.1"]
    assert choice["choice_labels"] == ["A", "B", "C", "D"] and choice["choices"] == ["21", "25", "29", "33"]
    assert choice["answer"] == "C"


@pytest.mark.parametrize("disabled", READING_PASSES)
def test_disabling_a_reading_pass_from_the_spec_loses_what_it_reads(tmp_path, disabled):
    every = _records(tmp_path, [])
    without = _records(tmp_path, [disabled])
    assert without != every
    if disabled == "number-lookalikes":  # "Zadanie 3.l." opens task 3, not 3.1: the key's 3.1 keys nothing
        assert "3.1" not in without and without["3"]["answer"] is None
    elif disabled == "label-lookalikes":  # "€." is no label: C only guessed from its column, and flagged so
        assert "parse.label_restored" in without["3.1"]["flag_codes"]
        assert "parse.label_restored" not in every["3.1"]["flag_codes"]
    elif disabled == "ringed-marks":  # a row of unmarked boxes among three: no true/false task, one open question
        assert "1.2.2" not in without and without["1.2"]["type"] == "open"
    else:  # "Cc" is no option label
        assert without["3.1"]["answer"] is None and without["3.1"]["choices"] == every["3.1"]["choices"]
    # Enabled again, the same records.
    assert _records(tmp_path, []) == every
