"""`examcorpus score-extraction`: how faithfully curated records reproduce a ground truth, per sheet.

Ground truths come in the formats found upstream:
 - NÚCEM-style JSON (`processed_YYYY.json`): {"questions": [{id, task_type: mcq|short_text, options{A..}, answer{correct_option}}]}
   — pairs with the records of the same year unless a sheet is named;
 - CONAREME-style CSV (`questions, option_A.., correct_answer`), one row per question in order
   — pairs with the sheet of the same file stem ("PRUEBA A.csv" ↔ "PRUEBA A.pdf");
 - our own truth JSON/YAML for families without upstream records:
   {"sheets": [{"sheet": "<part of the sheet URL>", "types": [single_choice, true_false],
                "questions": [{"number": "3.1", "answer": "A", "options": {"A": "…"}}]}]}
   A sheet with "questions": [] asserts that nothing may be extracted from it (negative sheets).
 - `truth.jsonl`, one question a line: {"number", "section", "answer", "question", "choices", "voided", "pilot",
   "reserve"} — pairs with the sheets (PDFs) in the same folder unless a sheet is named.
A question of a part whose numbering restarts may name its part: {"section": "2", "number": "5"} is the
record numbered 2.5 (the records' convention: the part's declared prefix, then the printed number; see
layout.sections); writing "number": "2.5" is the same.
In every format a question's options may be a list (labels A, B, … in order) or a label → text map
(`options` or `choices`); a field the scorer does not know is an error, never ignored.

Only the numbers a truth lists are scored: records it does not list are counted and shown apart
(`extra`) and do not fail the bar, except on a negative sheet. A voided question (answer null,
"voided": true) is not scored for its answer.

Printed per sheet: question recall and precision, option-text exact match (Unicode NFC, whitespace
collapsed), answer accuracy on matched closed questions, and whether the bar is met.
"""
from __future__ import annotations

import argparse
import csv
import json
import re
import sys
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote

import pyarrow.parquet as pq
import yaml

from pipeline.infra import JsonDuplicateKeyError, load_yaml, loads_unique_keys
from pipeline.parse import number_key
from pipeline.infra import JsonlError, iter_jsonl
from pipeline.records import Question, table_to_questions

BAR_RECALL = 0.99
BAR_OPTION_EXACT = 0.98
BAR_ANSWER = 1.0

_TRUTH_TYPES = {"mcq": "single_choice", "short_text": "short_answer"}


class FidelityError(ValueError):
    """Unusable input to the scorer; the message names the file and the problem."""


@dataclass
class TruthQuestion:
    number: str
    type: str
    answer: str | None = None
    options: dict[str, str] | None = None
    voided: bool = False


@dataclass
class TruthSheet:
    name: str  # how the sheet is shown in the report
    selects: object  # callable(Question) -> bool: which records belong to this sheet
    types: set[str]
    questions: list[TruthQuestion]


@dataclass
class SheetScore:
    name: str
    truth: int
    extracted: int
    matched: int
    options_total: int = 0
    options_exact: int = 0
    answers_total: int = 0
    answers_right: int = 0
    voided: int = 0
    missing: list[str] = field(default_factory=list)
    extra: list[str] = field(default_factory=list)
    wrong_answers: list[str] = field(default_factory=list)
    option_mismatches: list[str] = field(default_factory=list)

    @property
    def recall(self) -> float:
        return self.matched / self.truth if self.truth else 1.0

    @property
    def precision(self) -> float:
        return self.matched / self.extracted if self.extracted else 1.0

    @property
    def option_exact(self) -> float:
        return self.options_exact / self.options_total if self.options_total else 1.0

    @property
    def answer_accuracy(self) -> float:
        return self.answers_right / self.answers_total if self.answers_total else 1.0

    @property
    def passed(self) -> bool:
        if self.truth == 0:
            return self.extracted == 0
        # Extras are shown apart: a truth may list part of a sheet (say, its closed questions only).
        return self.recall >= BAR_RECALL and self.option_exact >= BAR_OPTION_EXACT and self.answer_accuracy >= BAR_ANSWER


# Quotation marks: transcriptions write ASCII quotes where sheets print typographic ones (and back).
_QUOTES = str.maketrans({c: '"' for c in "“”„‟«»″'‘’‚‛′"})


_SPACE_BEFORE_CLOSING = re.compile(r"\s+(?=[,.;:!?)\]])")
_SPACE_AFTER_OPENING = re.compile(r"(?<=[(\[])\s+")


def normalize_text(text: str) -> str:
    """Text compared with the truth: NFC, whitespace collapsed, every quotation mark one '"', no space
    before closing punctuation or after an opening bracket (transcriptions made from other extractors
    write "(RDC) ." where the sheet prints "(RDC).")."""
    text = " ".join(unicodedata.normalize("NFC", text).translate(_QUOTES).split())
    return _SPACE_AFTER_OPENING.sub("", _SPACE_BEFORE_CLOSING.sub("", text))


# --------------------------------------------------------------------------- truth readers


def _by_url_part(part: str):
    return lambda q: part in q.source_url or part in unquote(q.source_url)


def _read_nucem(path: Path, data: dict, sheet: str | None) -> list[TruthSheet]:
    questions = []
    for item in data.get("questions") or []:
        if "id" not in item:
            raise FidelityError(f"{path}: a question has no 'id'")
        kind = _TRUTH_TYPES.get(item.get("task_type"), item.get("task_type") or "open")
        answer = (item.get("answer") or {}).get("correct_option") if kind == "single_choice" else None
        questions.append(TruthQuestion(str(item["id"]), kind, answer, item.get("options") or None))
    if sheet:
        selects = _by_url_part(sheet)
    else:
        match = re.search(r"(19|20)\d\d", path.stem)
        if not match:
            raise FidelityError(f"{path}: name the sheet (TRUTH=SHEET): no year in the file name to pair it by")
        year = int(match.group(0))
        selects = lambda q: q.year == year
    return [TruthSheet(sheet or path.name, selects, {q.type for q in questions}, questions)]


def _read_csv(path: Path, sheet: str | None) -> list[TruthSheet]:
    with open(path, encoding="utf-8-sig", newline="") as handle:
        rows = list(csv.DictReader(handle))
    if not rows:
        return [TruthSheet(sheet or path.name, _by_url_part(sheet or path.stem + ".pdf"), {"single_choice"}, [])]
    labels = [name.split("_", 1)[1] for name in rows[0] if name.startswith("option_")]
    if not labels or "correct_answer" not in rows[0]:
        raise FidelityError(f"{path}: expected columns option_A… and correct_answer, got {list(rows[0])}")
    questions = [
        TruthQuestion(
            str(i + 1),
            "single_choice",
            (row.get("correct_answer") or "").strip() or None,
            {label: row.get(f"option_{label}") or "" for label in labels if row.get(f"option_{label}") is not None},
        )
        for i, row in enumerate(rows)
    ]
    target = sheet or path.stem + ".pdf"
    return [TruthSheet(target, _by_url_part(target), {"single_choice"}, questions)]


_QUESTION_FIELDS = {"number", "section", "type", "answer", "question", "options", "choices", "choice_labels", "voided", "pilot", "reserve", "points"}
_DEFAULT_LABELS = "ABCDEFGHIJ"


def _truth_options(question: dict, where: str) -> dict[str, str] | None:
    """`options`/`choices` as a label → text map or as a list (labelled A, B, … unless `choice_labels`)."""
    unknown = sorted(set(question) - _QUESTION_FIELDS)
    if unknown:
        raise FidelityError(f"{where}: unknown field(s) {unknown}; a truth question has {sorted(_QUESTION_FIELDS)}")
    options = question.get("options") or question.get("choices")
    if not options:
        return None
    if isinstance(options, dict):
        return {str(label): str(text) for label, text in options.items()}
    if not isinstance(options, list):
        raise FidelityError(f"{where}: options must be a list or a label → text map, got {type(options).__name__}")
    labels = question.get("choice_labels") or list(_DEFAULT_LABELS[: len(options)])
    if len(labels) != len(options):
        raise FidelityError(f"{where}: {len(options)} options but {len(labels)} choice_labels")
    return {str(label): str(text) for label, text in zip(labels, options)}


def _truth_question(question: dict, where: str, default_type: str = "single_choice") -> TruthQuestion:
    if "number" not in question:
        raise FidelityError(f"{where}: a question has no 'number'")
    number = str(question["number"])
    section = question.get("section")
    if section is not None:
        if not str(section).strip():
            raise FidelityError(f"{where}: 'section' is empty; leave it out for a question of no section")
        # The records' convention for restarted numbering: question 5 of the part whose declared prefix is
        # '2.' is 2.5 (layout.sections); a truth names the part ("section": 2) and the printed number.
        number = f"{str(section).strip().rstrip('.')}.{number}"
    return TruthQuestion(
        number, question.get("type", default_type), question.get("answer"),
        _truth_options(question, where), bool(question.get("voided")),
    )


def _read_jsonl(path: Path, sheet: str | None) -> list[TruthSheet]:
    try:
        questions = [_truth_question(item, f"{path}:{line_number}") for line_number, item in iter_jsonl(path, tail="parse")]
    except JsonlError as exc:
        raise FidelityError(f"{exc.where}: a line must hold one question object ({exc.reason})") from None
    if sheet:
        parts = [sheet]
    else:
        parts = [pdf.name for pdf in sorted(path.parent.glob("*.pdf"))]
        if not parts:
            raise FidelityError(f"{path}: no PDF beside it to pair with; name the sheet (TRUTH=SHEET)")
    selects = lambda q: any(_by_url_part(part)(q) for part in parts)  # noqa: E731
    return [TruthSheet(sheet or str(path.parent.name + "/" + path.name), selects, {q.type for q in questions} or {"single_choice"}, questions)]


def _read_sheets_format(path: Path, data: dict) -> list[TruthSheet]:
    result = []
    for n, item in enumerate(data.get("sheets") or []):
        if "sheet" not in item:
            raise FidelityError(f"{path}: sheets[{n}] has no 'sheet' (a part of the sheet's URL or file name)")
        questions = [_truth_question(q, f"{path}: sheets[{n}].questions[{i}]") for i, q in enumerate(item.get("questions") or [])]
        types = set(item.get("types") or {q.type for q in questions} or {"single_choice", "true_false"})
        result.append(TruthSheet(item["sheet"], _by_url_part(item["sheet"]), types, questions))
    return result


def read_truth(spec: str) -> list[TruthSheet]:
    """TRUTH or TRUTH=SHEET (SHEET: a part of the sheet's URL, overriding the default pairing)."""
    path_text, _, sheet = spec.partition("=")
    path = Path(path_text)
    if not path.is_file():
        raise FidelityError(f"{path}: truth file not found")
    if path.suffix.lower() == ".csv":
        return _read_csv(path, sheet or None)
    if path.suffix.lower() == ".jsonl":
        return _read_jsonl(path, sheet or None)
    try:
        text = path.read_text(encoding="utf-8")
        data = loads_unique_keys(text) if path.suffix.lower() == ".json" else load_yaml(text)
    except (json.JSONDecodeError, JsonDuplicateKeyError, yaml.YAMLError, UnicodeDecodeError) as exc:
        raise FidelityError(f"{path}: cannot read the truth file: {exc}") from None
    if not isinstance(data, dict):
        raise FidelityError(f"{path}: the truth file must hold a mapping")
    if "sheets" in data:
        return _read_sheets_format(path, data)
    if "questions" in data:
        return _read_nucem(path, data, sheet or None)
    raise FidelityError(f"{path}: unknown truth format (expected 'sheets' or 'questions' at the top level)")


# --------------------------------------------------------------------------- scoring


def _match_key(number: str) -> str:
    """A question number as truth and records are matched: `number_key`'s form cut into its runs of
    digits and of letters, so a section written with or without a dot is the same part ("1.R2", a
    reserve section nested in part 1, is the truth's section "1.R" with number 2)."""
    return ".".join(re.findall(r"\d+|[^\W\d_]+", number_key(number)))


def score_sheet(truth: TruthSheet, records: list[Question]) -> SheetScore:
    mine = [q for q in records if truth.selects(q) and q.type in truth.types]
    by_number: dict[str, Question] = {}
    for q in mine:
        by_number.setdefault(_match_key(q.number), q)
    truth_numbers = {_match_key(t.number) for t in truth.questions}
    score = SheetScore(truth.name, truth=len(truth.questions), extracted=len(mine), matched=0)
    score.extra = sorted(q.number for q in mine if _match_key(q.number) not in truth_numbers)
    for item in truth.questions:
        ours = by_number.get(_match_key(item.number))
        if ours is None:
            score.missing.append(item.number)
            continue
        score.matched += 1
        if item.options:
            mapping = dict(zip(ours.choice_labels, ours.choices))
            for label, text in item.options.items():
                score.options_total += 1
                if normalize_text(mapping.get(label, "")) == normalize_text(text):
                    score.options_exact += 1
                elif len(score.option_mismatches) < 5:
                    score.option_mismatches.append(f"{item.number}{label}: {mapping.get(label)!r} != {text!r}")
        if item.voided:
            score.voided += 1
        elif item.answer is not None and item.type in ("single_choice", "true_false", "matching"):
            score.answers_total += 1
            if ours.answer == item.answer:
                score.answers_right += 1
            else:
                score.wrong_answers.append(f"{item.number}: {ours.answer!r} != {item.answer!r}")
    return score


def load_records(path: Path) -> list[Question]:
    if not path.exists():
        raise FidelityError(f"{path}: no such file or folder")
    files = sorted(path.rglob("*.parquet")) if path.is_dir() else [path]
    if not files:
        raise FidelityError(f"{path}: no Parquet files found")
    records: list[Question] = []
    for file in files:
        try:
            records += table_to_questions(pq.read_table(file))
        except (OSError, ValueError, TypeError, KeyError) as exc:  # pyarrow's errors derive from these
            raise FidelityError(f"{file}: not a curated records file: {exc}") from None
    return records


def format_report(scores: list[SheetScore]) -> str:
    lines = [f"{'sheet':40} {'truth':>5} {'found':>5} {'extra':>5} {'recall':>7} {'prec.':>7} {'opt.exact':>9} {'answers':>8}  bar"]
    for s in scores:
        lines.append(
            f"{s.name[:40]:40} {s.truth:5d} {s.extracted:5d} {len(s.extra):5d} {s.recall:7.1%} {s.precision:7.1%} "
            f"{s.option_exact:9.1%} {s.answer_accuracy:8.1%}  {'PASS' if s.passed else 'FAIL'}"
        )
        for label, items in (("missing", s.missing), ("extra", s.extra), ("wrong answers", s.wrong_answers), ("option text", s.option_mismatches)):
            if items:
                lines.append(f"    {label}: {', '.join(items[:10])}{' …' if len(items) > 10 else ''}")
    return "\n".join(lines)


def build_parser() -> argparse.ArgumentParser:
    """`examcorpus score-extraction`'s options (the docs' CLI reference renders its help)."""
    parser = argparse.ArgumentParser(
        prog="examcorpus score-extraction",
        description="Compare curated records with ground-truth files, per sheet; exit 1 when a sheet misses the bar.",
    )
    parser.add_argument("records", type=Path, help="a curated Parquet file or a folder of them")
    parser.add_argument("truth", nargs="+", help="truth files (truth.jsonl, NÚCEM JSON, CONAREME CSV, or sheets JSON/YAML); TRUTH=SHEET names the sheet")
    parser.add_argument("--json", action="store_true", help="print the scores as JSON")
    return parser


def main(argv: list[str]) -> int:
    args = build_parser().parse_args(argv)
    try:
        records = load_records(args.records)
        sheets = [sheet for spec in args.truth for sheet in read_truth(spec)]
    except FidelityError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    scores = [score_sheet(sheet, records) for sheet in sheets]
    if args.json:
        print(json.dumps([dict(vars(s), recall=s.recall, precision=s.precision, option_exact=s.option_exact,
                               answer_accuracy=s.answer_accuracy, passed=s.passed) for s in scores], ensure_ascii=False, indent=1))
    else:
        print(format_report(scores))
    return 0 if all(s.passed for s in scores) else 1
