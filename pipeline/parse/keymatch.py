"""Does this answer key belong to this sheet? Judged from what the key itself prints.

A key paired by file name alone can still be the wrong one (last year's key saved under this year's
name, a site serving the wrong file). Applying it silently gives confident wrong answers, so before a
key is applied its own text is compared with the sheet's facts. Only evidence the key prints counts:
a key that prints no sheet code or year is not rejected for lacking one. The checks are generic and
use the spec's own rules (`layout.sheet_code`, `key.variant_pattern`, `layout.options.labels`).
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from pipeline.extract import ExtractedDocument
from pipeline.parse.stream import document_text
from pipeline.specs import SourceSpec

YEAR = re.compile(r"\b(19[5-9]\d|20\d\d)\b")
# Labels outside the sheet's count only when they are a clear share of the keyed questions: one OCR
# misreading of a key letter is a per-question flag, not evidence of the wrong key.
MIN_FOREIGN_LABELS = 2
FOREIGN_LABEL_SHARE = 0.25


@dataclass(frozen=True)
class SheetFacts:
    """What the sheet says about itself, as the parser found it."""

    year: int
    sheet_code: str | None
    variant: str | None
    text: str  # every page's text, dropped cover pages included (they carry codes and years)


def _normal(code: str) -> str:
    return re.sub(r"\s+", "", code).upper()


def printed_mismatches(key: ExtractedDocument, sheet: SheetFacts, spec: SourceSpec) -> list[str]:
    """Reasons, from the key's printed identity (sheet code, year, variant), that it is another sheet's key."""
    text = document_text(key)
    reasons = []
    if sheet.sheet_code and spec.layout.sheet_code:
        codes = {_normal(m.group("code")) for m in re.finditer(spec.layout.sheet_code, text, flags=re.MULTILINE)}
        if codes and _normal(sheet.sheet_code) not in codes:
            reasons.append(f"it prints sheet code {', '.join(sorted(codes))}, the sheet is {sheet.sheet_code}")
    if sheet.year:
        key_years = {int(y) for y in YEAR.findall(text)}
        sheet_years = {int(y) for y in YEAR.findall(sheet.text)} | {sheet.year}
        # A year both print (a copyright line) says nothing; a year only the key prints, with the
        # sheet's own year absent from the key, says it is another year's key.
        if key_years and sheet.year not in key_years and key_years - sheet_years:
            reasons.append(f"it prints year {', '.join(map(str, sorted(key_years)))}, the sheet is {sheet.year}")
    if sheet.variant and spec.key.variant_pattern and spec.key.kind != "variant_table":
        pattern = re.compile(spec.key.variant_pattern, re.MULTILINE)
        variants = {m.group("variant") for m in pattern.finditer(text)}
        if variants and sheet.variant not in variants:
            reasons.append(f"it prints variant {', '.join(sorted(variants))}, the sheet is variant {sheet.variant}")
    return reasons


def content_mismatches(
    answers: dict[str, str], closed_numbers: set[str], choice_labels: dict[str, list[str]], spec: SourceSpec
) -> list[str]:
    """Reasons, from the key's entries, that it is another sheet's key: far more entries than the sheet
    has questions, or answers naming option labels the sheet does not have.

    `closed_numbers`: number keys of the sheet's closed questions (and their blocks);
    `choice_labels`: number key -> option labels, for single-choice questions."""
    reasons = []
    if spec.key.kind != "marking_scheme":  # marking schemes also key other parts' open tasks
        unused = [n for n in answers if n not in closed_numbers]
        if closed_numbers and len(unused) > len(closed_numbers):
            reasons.append(
                f"it lists {len(answers)} answers for a sheet of {len(closed_numbers)} closed question numbers "
                f"({len(unused)} with no question)"
            )
    foreign = []
    for number, labels in choice_labels.items():
        entry = answers.get(number, "").strip()
        token = re.match(r"\w+", entry)
        if token and len(token.group()) == 1 and token.group().isalpha() and token.group().upper() not in {
            label.upper() for label in labels
        }:
            foreign.append(token.group())
    keyed = sum(1 for n in choice_labels if n in answers)
    if len(foreign) >= MIN_FOREIGN_LABELS and keyed and len(foreign) / keyed >= FOREIGN_LABEL_SHARE:
        reasons.append(f"{len(foreign)} of its {keyed} answers name option labels the sheet does not have ({sorted(set(foreign))})")
    return reasons
