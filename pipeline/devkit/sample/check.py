"""How close curated questions come to the sample archive's truth.json, sheet by sheet.

After `make extract` on the embedded sample this says, per sheet, how many expected questions were
found, and of those how many have the right type, choices and answer, and how similar the question
text is. Numbers are compared through look-alike letters (Greek Α1 and Latin A1 are the same number).

    python -m pipeline.devkit.sample.check curated/sample_pl.parquet curated/sample_el.parquet \
        --truth build/sample_site/truth.json
"""
from __future__ import annotations

import argparse
import sys
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field
from difflib import SequenceMatcher
from pathlib import Path

from pipeline.records import Question
from pipeline.devkit.sample.site import SheetTruth, TruthQuestion, load_truth

# Greek capitals that print like Latin ones; numbers such as "Α1" come out of OCR in either script.
_TO_LATIN = str.maketrans("ΑΒΕΖΗΙΚΜΝΟΡΤΥΧ", "ABEZHIKMNOPTYX")


def number_key(number: str) -> str:
    text = unicodedata.normalize("NFC", number).translate(_TO_LATIN).casefold()
    return ".".join(part for part in text.replace(" ", ".").split(".") if part)


def _norm(text: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())


@dataclass
class SheetAgreement:
    sheet: str
    expected: int
    closed: int = 0  # expected closed questions (the ones with choices and an answer)
    found: int = 0  # expected questions with a curated question of the same number
    same_type: int = 0
    same_choices: int = 0  # choice texts equal after whitespace/Unicode normalisation (closed questions)
    same_answer: int = 0
    text_similarity: float = 0.0  # mean over found questions, 0..1
    missing: list[str] = field(default_factory=list)
    unexpected: list[str] = field(default_factory=list)  # curated numbers truth does not have
    wrong_answers: list[str] = field(default_factory=list)  # "3: B (expected A)"

    def line(self) -> str:
        return (
            f"{self.sheet}: found {self.found}/{self.expected}, type {self.same_type}/{self.found}, "
            f"choices {self.same_choices}/{self.closed}, answer {self.same_answer}/{self.closed}, "
            f"text {self.text_similarity:.2f}"
            + (f"; missing {self.missing}" if self.missing else "")
            + (f"; unexpected {self.unexpected}" if self.unexpected else "")
            + (f"; wrong {self.wrong_answers}" if self.wrong_answers else "")
        )


def _text_score(expected: TruthQuestion, got: Question) -> float:
    want, have = _norm(expected.question), _norm(got.question)
    if want and want in have:
        return 1.0  # e.g. a statement printed after its block's instruction
    return SequenceMatcher(None, want, have, autojunk=False).ratio()


def _sheet_of(question: Question, truth: dict[str, SheetTruth]) -> str | None:
    url = question.source_url.replace("\\", "/")
    for sheet in truth:
        if url.endswith("/" + sheet) or url == sheet:
            return sheet
    return None


def compare_with_truth(questions: Iterable[Question], truth: dict[str, SheetTruth]) -> list[SheetAgreement]:
    """One agreement per truth sheet (in truth order); questions from other files are ignored."""
    by_sheet: dict[str, dict[str, Question]] = {sheet: {} for sheet in truth}
    for question in questions:
        sheet = _sheet_of(question, truth)
        if sheet is not None:
            by_sheet[sheet].setdefault(number_key(question.number), question)
    results = []
    for sheet, expected in truth.items():
        got = by_sheet[sheet]
        agreement = SheetAgreement(sheet=sheet, expected=len(expected.questions))
        expected_keys = {number_key(q.number) for q in expected.questions}
        agreement.unexpected = sorted(q.number for key, q in got.items() if key not in expected_keys)
        scores = []
        for want in expected.questions:
            closed = want.type != "open"
            agreement.closed += closed
            have = got.get(number_key(want.number))
            if have is None:
                agreement.missing.append(want.number)
                continue
            agreement.found += 1
            agreement.same_type += have.type == want.type
            scores.append(_text_score(want, have))
            if not closed:
                continue
            agreement.same_choices += [_norm(c) for c in have.choices] == [_norm(c) for c in want.choices]
            if have.answer is not None and _norm(have.answer) == _norm(want.answer or ""):
                agreement.same_answer += 1
            else:
                agreement.wrong_answers.append(f"{want.number}: {have.answer} (expected {want.answer})")
        agreement.text_similarity = sum(scores) / len(scores) if scores else 0.0
        results.append(agreement)
    return results


def _read_parquet(path: Path) -> list[Question]:
    import pyarrow.parquet as pq

    from pipeline.records import table_to_questions

    try:
        return table_to_questions(pq.read_table(path))
    except FileNotFoundError:
        raise FileNotFoundError(f"{path}: no such curated file (run `make extract` first)") from None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m pipeline.devkit.sample.check", description=__doc__.splitlines()[0])
    parser.add_argument("curated", nargs="+", type=Path, help="curated Parquet files")
    parser.add_argument("--truth", type=Path, default=Path("build/sample_site/truth.json"))
    args = parser.parse_args(argv)
    try:
        truth = load_truth(args.truth)
        questions = [q for path in args.curated for q in _read_parquet(path)]
    except (FileNotFoundError, ValueError) as exc:
        print(f"check: {exc}", file=sys.stderr)
        return 2
    for agreement in compare_with_truth(questions, truth):
        print(agreement.line())
    return 0


if __name__ == "__main__":
    sys.exit(main())
