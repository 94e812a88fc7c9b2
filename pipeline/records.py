"""The one record schema of examcorpus: a curated exam question.

Defined once here as a dataclass; the Arrow/Parquet schema is derived from it so the two can never
drift apart. docs/concepts/records.md documents every field (docs/reference/records.md is generated from here).
"""
from __future__ import annotations

import dataclasses
import re
import typing
import unicodedata
from dataclasses import dataclass, field
from enum import Enum

import pyarrow as pa
import regex

from pipeline.diagnostics import Code, Diagnostic, with_codes


class QuestionType(str, Enum):
    SINGLE_CHOICE = "single_choice"
    TRUE_FALSE = "true_false"
    MATCHING = "matching"
    FILL_IN = "fill_in"
    SHORT_ANSWER = "short_answer"
    OPEN = "open"


CLOSED_TYPES = frozenset({QuestionType.SINGLE_CHOICE, QuestionType.TRUE_FALSE, QuestionType.MATCHING})


@dataclass(frozen=True)
class ImageRef:
    """A figure cropped from a page, kept as PNG for the describe stage."""

    path: str  # relative to the project root (content-addressed under raw/)
    page: int  # 1-based page number in the source PDF
    bbox: tuple[float, float, float, float]  # x0, top, x1, bottom in PDF points
    sha256: str


@dataclass(frozen=True)
class Region:
    """Where on a page a question was printed: the box around its lines (header, stem, options)."""

    page: int  # 1-based
    bbox: tuple[float, float, float, float]  # x0, top, x1, bottom in PDF points, origin top-left


@dataclass(frozen=True)
class Question:
    id: str
    source: str
    country: str
    language: str
    exam: str
    level: str | None
    subject: str
    year: int
    session: str | None
    sheet_code: str | None
    number: str
    type: str  # a QuestionType value
    question: str
    context: str | None
    choices: list[str]
    choice_labels: list[str]
    answer: str | None
    answer_index: int | None
    points: float | None
    images: list[ImageRef]
    source_url: str
    source_sha256: str
    pages: list[int]
    pipeline_version: str
    # Validation problems (pipeline.diagnostics.Diagnostic, each its rendered message); empty for a clean record.
    flags: list[str] = field(default_factory=list)
    # What the key says about the item: annulled (no answer, not scored), a reserve question (counts
    # only if another is annulled), a pilot item (keyed, not scored in the exam itself).
    voided: bool = False
    reserve: bool = False
    pilot: bool = False
    regions: list[Region] = field(default_factory=list)  # one box per page the question's lines are on
    # Figure descriptions accepted on the review page (pipeline.review's merge); null until then.
    image_description: str | None = None  # "[1] …\n\n[2] …" when a question has several figures
    image_transcription: str | None = None  # the text visible in the figure(s), same numbering
    description_model: str | None = None  # the model(s) that wrote them, ", "-joined
    reviewed_by: str | None = None  # the annotator(s) who accepted them, ", "-joined
    reviewed_at: str | None = None  # ISO 8601 UTC time of the latest accepting decision
    # The code of each flag, in the same order: what the audit page filters on and tools compare, while
    # `flags` stays the readable form. Always derived from `flags`; given, it only types flags that
    # come as text (a row read back from Parquet or JSON).
    flag_codes: list[str] = field(default_factory=list)
    # Read by OCR: the lowest Tesseract word confidence (0–100) of the lines its stem and options were read
    # from; null for a question read from the text layer (and in curated data of before). Where a part
    # rests on an unsure word, the record also has an `ocr.uncertain` flag naming it.
    reading_confidence: float | None = None  # OCR: the lowest word confidence (0–100) of its lines; null: read from the text layer

    def __post_init__(self):
        # A record's flags concern the record: said here, they hold however it was made or read back
        # (parsed, from the parse cache, from curated Parquet, after a curator's correction).
        first_page = self.pages[0] if self.pages else None
        typed = []
        for flag in with_codes(self.flags, self.flag_codes, Code.FLAG):
            concerns = dataclasses.replace(flag.concerns, source_url=self.source_url, source_sha256=self.source_sha256,
                                           question=self.number, question_id=self.id, page=flag.concerns.page or first_page)
            typed.append(Diagnostic(flag.code, flag.message, concerns))
        object.__setattr__(self, "flags", typed)
        object.__setattr__(self, "flag_codes", [f.code.code for f in typed])

    def to_row(self) -> dict:
        # Field by field rather than dataclasses.asdict, whose deep copy of every value was most of the
        # time a season run spends writing an archive's curated file; the row is the same.
        row = {name: getattr(self, name) for name in _QUESTION_FIELD_NAMES}
        for name in ("choices", "choice_labels", "pages", "flags"):
            row[name] = list(row[name])
        row["images"] = [_boxed_row(image) for image in self.images]
        row["regions"] = [_boxed_row(region) for region in self.regions]
        return row

    @classmethod
    def from_row(cls, row: dict) -> "Question":
        data = dict(row)
        data["images"] = [ImageRef(**dict(img, bbox=tuple(img["bbox"]))) for img in data.get("images") or []]
        data["regions"] = [Region(**dict(r, bbox=tuple(r["bbox"]))) for r in data.get("regions") or []]
        for name in ("choices", "choice_labels", "pages"):
            data[name] = list(data.get(name) or [])
        data["flags"] = list(data.get("flags") or [])
        data["flag_codes"] = list(data.get("flag_codes") or [])
        return cls(**data)


_QUESTION_FIELD_NAMES = tuple(f.name for f in dataclasses.fields(Question))


def _boxed_row(item: ImageRef | Region) -> dict:
    """An ImageRef or Region as a row: its fields, the bbox as a list."""
    row = {f.name: getattr(item, f.name) for f in dataclasses.fields(item)}
    row["bbox"] = list(row["bbox"])
    return row


_SLUG = re.compile(r"[^\w.]+")  # Unicode-aware: Greek Α1 and Β1 must not collide


def question_id(source: str, year: int, session: str | None, sheet_code: str | None, number: str) -> str:
    """Stable id: the same question on a re-run gets the same id, whatever else changed.

    Each part is NFKC-normalised first: a text layer may spell "Ś" as S + a combining acute, which `\\w`
    does not take (the mark became "_", so "Ś" and "Š" decomposed were one id, and "Ś" composed another),
    and a full-width "１" is the number "1". Look-alikes of other scripts stay apart (Cyrillic "А" is no "A")."""
    parts = [unicodedata.normalize("NFKC", p) for p in (source, str(year), session or "-", sheet_code or "-", number)]
    return ":".join(_SLUG.sub("_", p).strip("_") or "-" for p in parts)


# Invisible characters (zero-width, soft hyphen, joiners…), from the Unicode data the `regex` module carries; ids and
# the leakage check's canonical text both drop them (`split.canonical`).
IGNORABLE = regex.compile(r"\p{Default_Ignorable_Code_Point}+")


def id_key(qid: str) -> str:
    """The form in which two record ids are one: NFKC, invisible (default-ignorable) characters out. An id
    `question_id` made is its own key; an id made elsewhere (an older run, a hand-edited curated file) that
    differs from another only by a full-width `１`, a superscript `¹`, a circled `①` or a zero-width space reads
    as that other id to every reader, so ids are compared unique in this form (`alike_ids`)."""
    if qid.isascii():
        return qid
    return unicodedata.normalize("NFKC", IGNORABLE.sub("", qid))


def alike_ids(ids: typing.Iterable[str]) -> list[list[str]]:
    """The groups of two or more ids (each id once per record it is on) that are one id in their `id_key` form,
    sorted: the same id twice, or ids that differ only by compatibility forms or invisible characters."""
    groups: dict[str, list[str]] = {}
    for qid in ids:
        groups.setdefault(id_key(qid), []).append(qid)
    return sorted(sorted(group) for group in groups.values() if len(group) > 1)


def describe_alike(groups: list[list[str]], limit: int = 10) -> str:
    """`alike_ids` groups in words: an id twice by its name; alike ids each as Python's `ascii` writes it, so
    a full-width digit or an invisible character shows."""
    shown = [group[0] if len(set(group)) == 1 else " = ".join(ascii(qid) for qid in dict.fromkeys(group))
             for group in groups[:limit]]
    return ", ".join(shown) + (f" … (+{len(groups) - limit})" if len(groups) > limit else "")


_IMAGE_TYPE = pa.struct(
    [
        ("path", pa.string()),
        ("page", pa.int32()),
        ("bbox", pa.list_(pa.float64())),
        ("sha256", pa.string()),
    ]
)

_ARROW_TYPES: dict[object, pa.DataType] = {
    str: pa.string(),
    "str": pa.string(),
    "str | None": pa.string(),
    "int": pa.int32(),
    "int | None": pa.int32(),
    "float | None": pa.float64(),
    "bool": pa.bool_(),
    "list[str]": pa.list_(pa.string()),
    "list[int]": pa.list_(pa.int32()),
    "list[ImageRef]": pa.list_(_IMAGE_TYPE),
    "list[Region]": pa.list_(pa.struct([("page", pa.int32()), ("bbox", pa.list_(pa.float64()))])),
}


def _arrow_schema() -> pa.Schema:
    fields = []
    for f in dataclasses.fields(Question):
        type_name = f.type if isinstance(f.type, str) else typing.get_type_hints(Question)[f.name]
        nullable = "None" in str(type_name)
        fields.append(pa.field(f.name, _ARROW_TYPES[type_name], nullable=nullable))
    return pa.schema(fields, metadata={b"examcorpus.schema": b"question/1"})


QUESTION_SCHEMA: pa.Schema = _arrow_schema()
QUESTION_FIELDS: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(Question))


def _default_of(f: dataclasses.Field):
    if f.default is not dataclasses.MISSING:
        return f.default
    if f.default_factory is not dataclasses.MISSING:
        return f.default_factory()
    raise KeyError(f.name)


def conform_to_schema(table: pa.Table) -> pa.Table:
    """A question table written before a field with a default was added (curated Parquet of an earlier
    version) gets that field's default in every row, then the schema's column order and types; a
    missing field without a default raises KeyError naming it. A table already in the schema (what
    this version writes) only takes the schema's metadata: the cast would load pyarrow.compute for nothing."""
    if table.schema.equals(QUESTION_SCHEMA):
        return pa.Table.from_arrays(table.columns, schema=QUESTION_SCHEMA)
    for f in dataclasses.fields(Question):
        if f.name not in table.column_names:
            value = _default_of(f)
            table = table.append_column(
                QUESTION_SCHEMA.field(f.name), pa.array([value] * table.num_rows, type=QUESTION_SCHEMA.field(f.name).type)
            )
    return table.select(list(QUESTION_FIELDS)).cast(QUESTION_SCHEMA)


def questions_to_table(questions: typing.Iterable[Question]) -> pa.Table:
    """The records as a table in QUESTION_SCHEMA. Built by Arrow's JSON reader from the rows as JSON
    lines, the same table `Table.from_pylist` builds: converting Python objects makes pyarrow import
    pandas (a third of a CPU second, a tenth of a season re-run's start) to ask whether they are pandas
    objects. Rows JSON cannot carry in the schema's types (a None in a required field, a value of another
    type) go through `from_pylist`, which accepts or refuses them as it always did."""
    rows = [q.to_row() for q in questions]
    if rows:
        try:
            return _table_from_json_lines(rows)
        except (ValueError, pa.ArrowException):
            pass
    return pa.Table.from_pylist(rows, schema=QUESTION_SCHEMA)


def _table_from_json_lines(rows: list[dict]) -> pa.Table:
    import json

    import pyarrow.json as pa_json

    data = "\n".join(json.dumps(row, ensure_ascii=False) for row in rows).encode("utf-8")
    parsed = pa_json.read_json(
        pa.py_buffer(data),
        read_options=pa_json.ReadOptions(block_size=len(data) + 1, use_threads=False),
        parse_options=pa_json.ParseOptions(explicit_schema=QUESTION_SCHEMA, unexpected_field_behavior="error"),
    )
    # The reader's schema lacks the required fields' nullability and the schema's metadata.
    return pa.Table.from_arrays(parsed.columns, schema=QUESTION_SCHEMA)


def table_to_questions(table: pa.Table) -> list[Question]:
    return [Question.from_row(row) for row in table.to_pylist()]
