"""The record schema: one definition, a faithful Parquet round trip, stable ids."""
import dataclasses
import unicodedata

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from pipeline.records import (
    QUESTION_FIELDS,
    conform_to_schema,
    QUESTION_SCHEMA,
    ImageRef,
    Question,
    Region,
    question_id,
    questions_to_table,
    table_to_questions,
)

ISSUE_FIELDS = (
    "id source country language exam level subject year session sheet_code number type question context "
    "choices choice_labels answer answer_index points images source_url source_sha256 pages pipeline_version"
).split()


def make_question(**overrides) -> Question:
    values = dict(
        id=question_id("sample_pl", 2024, "czerwiec", "EE.08-X-24.06", "3"),
        source="sample_pl", country="PL", language="pl", exam="egzamin zawodowy", level=None,
        subject="EE.08", year=2024, session="czerwiec", sheet_code="EE.08-X-24.06", number="3",
        type="single_choice", question="Który protokół służy do przesyłania poczty?", context=None,
        choices=["HTTP", "SMTP", "FTP", "DNS"], choice_labels=["A", "B", "C", "D"], answer="B", answer_index=1,
        points=1.0, images=[ImageRef(path="raw/figures/ab.png", page=2, bbox=(10.0, 20.0, 110.0, 90.0), sha256="ab")],
        source_url="http://127.0.0.1/x.pdf", source_sha256="f" * 64, pages=[2], pipeline_version="0.1.0",
    )
    values.update(overrides)
    return Question(**values)


def test_schema_has_every_field_the_issue_names_in_order():
    assert list(QUESTION_FIELDS[: len(ISSUE_FIELDS)]) == ISSUE_FIELDS
    assert QUESTION_SCHEMA.names == list(QUESTION_FIELDS)


def test_parquet_round_trip_preserves_every_value(tmp_path):
    questions = [make_question(), make_question(number="4", id="x", answer=None, answer_index=None, images=[], points=None)]
    pq.write_table(questions_to_table(questions), tmp_path / "q.parquet")
    assert table_to_questions(pq.read_table(tmp_path / "q.parquet")) == questions


def test_question_id_is_stable_and_readable():
    first = question_id("pl_cke_matura_informatyka", 2016, "maj", "MIN-P1_1P-162", "3.1")
    assert first == question_id("pl_cke_matura_informatyka", 2016, "maj", "MIN-P1_1P-162", "3.1")
    assert first == "pl_cke_matura_informatyka:2016:maj:MIN_P1_1P_162:3.1"
    assert question_id("s", 2020, None, None, "Α1") == "s:2020:-:-:Α1"


def test_question_id_keeps_greek_numbering_apart():
    assert question_id("gr", 2020, None, None, "Α1") != question_id("gr", 2020, None, None, "Β1")


def test_question_id_is_one_for_every_spelling_of_a_part_and_apart_for_different_letters():
    """A text layer may give a sheet code's "Ś" decomposed (S + combining acute): before, the mark became "_",
    so decomposed "Ś" and "Š" made one id (two sheets' questions colliding) and composed "Ś" another."""
    composed, acute, caron = "MAT-Ś", unicodedata.normalize("NFD", "MAT-Ś"), unicodedata.normalize("NFD", "MAT-Š")
    assert question_id("s", 2020, "maj", acute, "1") == question_id("s", 2020, "maj", composed, "1")
    assert question_id("s", 2020, "maj", acute, "1") != question_id("s", 2020, "maj", caron, "1")
    assert question_id("s", 2020, None, None, "\uff11") == question_id("s", 2020, None, None, "1")  # full-width １
    assert question_id("s", 2020, None, "\u0410-1", "1") != question_id("s", 2020, None, "A-1", "1")  # Cyrillic А is no A


def test_question_id_differs_between_sheets_and_numbers():
    ids = {
        question_id("s", 2020, "maj", "A-100", "1"),
        question_id("s", 2020, "maj", "A-200", "1"),
        question_id("s", 2020, "maj", "A-100", "2"),
        question_id("s", 2021, "maj", "A-100", "1"),
    }
    assert len(ids) == 4


def test_a_table_written_before_the_item_status_fields_reads_with_their_defaults(tmp_path):
    """Curated Parquet of an earlier version lacks voided/reserve/pilot: it still reads, unannulled."""
    old = questions_to_table([make_question()]).drop_columns(["voided", "reserve", "pilot"])
    pq.write_table(old, tmp_path / "old.parquet")
    [question] = table_to_questions(conform_to_schema(pq.read_table(tmp_path / "old.parquet")))
    assert (question.voided, question.reserve, question.pilot) == (False, False, False)
    assert question == make_question()


def test_a_table_missing_a_required_field_is_refused_by_name():
    with pytest.raises(KeyError, match="question"):
        conform_to_schema(questions_to_table([make_question()]).drop_columns(["question"]))


def test_a_row_holds_every_field_as_plain_values_and_owns_its_lists():
    from pipeline.records import Region

    question = make_question(flags=["not keyed"], regions=[Region(page=2, bbox=(1.0, 2.0, 3.0, 4.0))])
    row = question.to_row()
    assert list(row) == list(QUESTION_FIELDS)
    assert row["images"] == [{"path": "raw/figures/ab.png", "page": 2, "bbox": [10.0, 20.0, 110.0, 90.0], "sha256": "ab"}]
    assert row["regions"] == [{"page": 2, "bbox": [1.0, 2.0, 3.0, 4.0]}]
    row["choices"].append("changed")
    row["flags"].clear()
    assert question.choices == ["HTTP", "SMTP", "FTP", "DNS"] and question.flags == ["not keyed"]
    assert Question.from_row(question.to_row()) == question


def test_a_table_written_before_reading_confidence_reads_as_not_ocr_and_the_column_round_trips(tmp_path):
    """Curated Parquet of before the OCR reading confidence lacks its column: it still reads, as null."""
    old = questions_to_table([make_question()]).drop_columns(["reading_confidence"])
    pq.write_table(old, tmp_path / "old.parquet")
    [question] = table_to_questions(conform_to_schema(pq.read_table(tmp_path / "old.parquet")))
    assert question.reading_confidence is None and question == make_question()
    scanned = make_question(reading_confidence=41.5)
    pq.write_table(questions_to_table([scanned]), tmp_path / "new.parquet")
    assert table_to_questions(pq.read_table(tmp_path / "new.parquet")) == [scanned]


def _varied_questions() -> list[Question]:
    """Records across scripts, empty and missing parts, figures and regions at awkward float positions."""
    import random

    rng = random.Random(7)
    texts = ["Który protokół?", "Ποια είναι η σωστή απάντηση;", "다음 중 옳은 것은?", "Câu nào đúng? Ưu tiên",
             "Hangisi doğrudur? İ ı", "Какой ответ верный? Ёё", 'quotes " and \\ and \n newline\ttab', "emoji 🧪 and \u200b"]
    questions = []
    for i, text in enumerate(texts):
        box = tuple(rng.uniform(0, 842) for _ in range(4))
        questions.append(make_question(
            number=str(i + 1), question=text, context=None if i % 2 else texts[-1 - i],
            choices=[] if i == 3 else [texts[(i + k) % len(texts)] for k in range(4)],
            choice_labels=[] if i == 3 else ["A", "B", "C", "D"], answer=None if i == 2 else "A",
            answer_index=None if i == 2 else 0, points=None if i == 4 else rng.uniform(0, 3) / 7,
            images=[] if i % 3 else [ImageRef(path=f"raw/figures/{i}.png", page=i, bbox=box, sha256="c" * 64)],
            regions=[Region(page=1, bbox=box), Region(page=2, bbox=(0.1, 0.2, 1e-7, 595.2755905511812))],
            pages=[1, 2], voided=i == 5, reserve=i == 6, pilot=i == 7,
            flags=["stem.short: its stem is short"] if i % 2 else [],
            reading_confidence=None if i % 2 else rng.uniform(0, 100)))
    return questions


def test_a_table_of_records_is_the_one_pyarrow_builds_from_the_rows():
    questions = _varied_questions()
    expected = pa.Table.from_pylist([q.to_row() for q in questions], schema=QUESTION_SCHEMA)
    assert questions_to_table(questions).equals(expected, check_metadata=True)
    # A row JSON lines cannot carry in the schema (a None where a value is required) is built as pyarrow builds it.
    odd = dataclasses.replace(questions[0], question=None)
    assert questions_to_table([odd]).equals(pa.Table.from_pylist([odd.to_row()], schema=QUESTION_SCHEMA))
    assert questions_to_table([]).num_rows == 0 and questions_to_table([]).schema.equals(QUESTION_SCHEMA)


def test_writing_and_reading_curated_records_does_not_load_pandas(tmp_path):
    import subprocess
    import sys
    from pathlib import Path

    probe = (
        "import sys; import pyarrow.parquet as pq; from pipeline.records import conform_to_schema, questions_to_table, "
        "table_to_questions; from tests.pipeline.test_records import _varied_questions; "
        f"pq.write_table(questions_to_table(_varied_questions()), {str(tmp_path / 'q.parquet')!r}); "
        f"back = table_to_questions(conform_to_schema(pq.ParquetFile({str(tmp_path / 'q.parquet')!r}).read())); "
        "print(len(back), back == _varied_questions(), 'pandas' in sys.modules, 'pyarrow.compute' in sys.modules)"
    )
    root = Path(__file__).resolve().parents[2]
    out = subprocess.run([sys.executable, "-c", probe], cwd=root, capture_output=True, text=True, check=True).stdout
    assert out.split() == ["8", "True", "False", "False"]
