"""Does this answer key belong to this sheet? Judged from what the key itself prints.

A key paired by file name alone can still be the wrong one (last year's key saved under this year's
name, a site serving the wrong file). Applying it silently gives confident wrong answers, so before a
key is applied its own text is compared with the sheet's facts. Only evidence the key prints counts:
a key that prints no sheet code or year is not rejected for lacking one. The checks are generic and
use the spec's own rules (`layout.sheet_code`, `key.variant_pattern`, `layout.options.labels`). A year the
key prints is weak evidence when the sheet prints no year at all (a key citing "Orden PJC/64/2024" for a
2023 sheet): the key is applied and the report names the line; so is a year read by OCR one look-alike
digit from the sheet's own (a blurred 2031 read as 2051), which may be the sheet's year misread. `key.checks` lets a curator leave a check
out; its evidence is then reported, never acted on.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from pipeline.diagnostics import Code, Diagnostic, diagnose
from pipeline.extract import ExtractedDocument, PageMethod
from pipeline.parse.stream import document_text
from pipeline.patterns import spec_pattern
from pipeline.specs import SourceSpec
from pipeline.widths import fold_width

YEAR = re.compile(r"\b(19[5-9]\d|20\d\d)\b")
# Labels outside the sheet's count only when they are a clear share of the keyed questions: one OCR
# misreading of a key letter is a per-question flag, not evidence of the wrong key.
MIN_FOREIGN_LABELS = 2
FOREIGN_LABEL_SHARE = 0.25
# Digits whose printed shapes OCR takes for one another (a blurred 3 read as 5 or 8, 1 as 7). A year that
# differs from the sheet's by a digit outside these (2030 for 2031) is read as printed.
DIGIT_LOOKALIKE_PAIRS = frozenset(frozenset(pair) for pair in ("35", "38", "58", "56", "68", "89", "08", "06", "09", "17"))


@dataclass(frozen=True)
class SheetFacts:
    """What the sheet says about itself, as the parser found it."""

    year: int
    sheet_code: str | None
    variant: str | None
    text: str  # every page's text, dropped cover pages included (they carry codes and years)


def _normal(code: str) -> str:
    """A sheet code or variant as sheet and key compare it: no spaces, full-width forms folded, upper case."""
    return re.sub(r"\s+", "", fold_width(code)).upper()


@dataclass(frozen=True)
class Evidence:
    """One reason, from what the key prints or lists, that it is another sheet's key. `check` names it
    for `key.checks`; weak evidence (a year the sheet itself never prints) is reported, not acted on."""

    check: str
    reason: str
    weak: bool = False


def _year_lines(key: ExtractedDocument, years: set[int]) -> list[str]:
    """The key's lines that print one of `years`, as the report names them."""
    lines = [line.text.strip() for page in key.pages for line in page.lines if {int(y) for y in YEAR.findall(line.text)} & years]
    return [repr(text if len(text) <= 80 else text[:79] + "…") for text in lines[:3]]


def _ocr_only_years(key: ExtractedDocument) -> set[int]:
    """The years the key prints only on lines OCR read (none on its text layer)."""
    by_ocr: set[int] = set()
    by_text: set[int] = set()
    for page in key.pages:
        for line in page.lines:
            years = {int(y) for y in YEAR.findall(line.text)}
            (by_ocr if page.method is PageMethod.OCR or line.ocr else by_text).update(years)
    return by_ocr - by_text


def _lookalike_of(year: int, sheet_year: int) -> bool:
    """True when `year` is `sheet_year` with one digit read as a look-alike."""
    pairs = [frozenset((a, b)) for a, b in zip(str(year), str(sheet_year)) if a != b]
    return len(str(year)) == len(str(sheet_year)) and len(pairs) == 1 and pairs[0] in DIGIT_LOOKALIKE_PAIRS


def printed_mismatches(key: ExtractedDocument, sheet: SheetFacts, spec: SourceSpec) -> list[Evidence]:
    """Reasons, from the key's printed identity (sheet code, year, variant), that it is another sheet's key."""
    text = document_text(key)
    reasons = []
    if sheet.sheet_code and spec.layout.sheet_code:
        # A spec pattern, so bounded in time and matched with full-width forms folded (`pipeline.patterns`).
        codes = {_normal(m.group("code")) for m in spec_pattern(spec.layout.sheet_code, re.MULTILINE).finditer(text)}
        if codes and _normal(sheet.sheet_code) not in codes:
            reasons.append(Evidence("sheet_code", f"it prints sheet code {', '.join(sorted(codes))}, the sheet is {sheet.sheet_code}"))
    if sheet.year:
        key_years = {int(y) for y in YEAR.findall(text)}
        printed = {int(y) for y in YEAR.findall(sheet.text)}
        sheet_years = printed | {sheet.year}
        # A year both print (a copyright line) says nothing; a year only the key prints, with the
        # sheet's own year absent from the key, says it is another year's key, unless the sheet prints
        # no year at all (its year is the file's fact): then the key's year may be a regulation's. Nor
        # when every such year was read by OCR one look-alike digit from the sheet's: it may be the sheet's.
        foreign = key_years - sheet_years
        if key_years and sheet.year not in key_years and foreign:
            lines = ", ".join(_year_lines(key, foreign))
            misread = foreign <= _ocr_only_years(key) and all(_lookalike_of(y, sheet.year) for y in foreign)
            reasons.append(Evidence(
                "year", f"it prints year {', '.join(map(str, sorted(key_years)))} (key line {lines}), the sheet is {sheet.year}"
                + (" (read by OCR, one look-alike digit from the sheet's year)" if misread else ""),
                weak=not printed or misread,
            ))
    if sheet.variant and spec.key.variant_pattern and spec.key.kind != "variant_table":
        pattern = spec_pattern(spec.key.variant_pattern, re.MULTILINE)
        variants = {m.group("variant") for m in pattern.finditer(text)}
        if variants and fold_width(sheet.variant) not in {fold_width(v) for v in variants}:
            reasons.append(Evidence("variant", f"it prints variant {', '.join(sorted(variants))}, the sheet is variant {sheet.variant}"))
    return reasons


def weigh(evidence: list[Evidence], spec: SourceSpec, name: str) -> tuple[list[str], list[Diagnostic]]:
    """(the reasons that refuse the key, the report lines of evidence that does not): evidence of a check
    the spec leaves out of `key.checks`, and weak evidence, leave the key applied and say so."""
    refusing = [e.reason for e in evidence if e.check in spec.key.checks and not e.weak]
    notes = []
    unchecked = [e.reason for e in evidence if e.check not in spec.key.checks]
    if unchecked:
        notes.append(diagnose(Code.KEY_EVIDENCE_UNCHECKED, name=name, reasons="; ".join(unchecked), checks=list(spec.key.checks)))
    weak = [e.reason for e in evidence if e.check in spec.key.checks and e.weak]
    if weak:
        notes.append(diagnose(Code.KEY_WEAK_EVIDENCE, name=name, reasons="; ".join(weak)))
    return refusing, notes


def content_mismatches(
    answers: dict[str, str], closed_numbers: set[str], choice_labels: dict[str, list[str]], spec: SourceSpec
) -> list[Evidence]:
    """Reasons, from the key's entries, that it is another sheet's key: far more entries than the sheet
    has questions, or answers naming option labels the sheet does not have.

    `closed_numbers`: number keys of the sheet's closed questions (and their blocks);
    `choice_labels`: number key -> option labels, for single-choice questions."""
    reasons = []
    if spec.key.kind != "marking_scheme":  # marking schemes also key other parts' open tasks
        unused = [n for n in answers if n not in closed_numbers]
        if closed_numbers and len(unused) > len(closed_numbers):
            reasons.append(Evidence(
                "count", f"it lists {len(answers)} answers for a sheet of {len(closed_numbers)} closed question numbers "
                f"({len(unused)} with no question)"
            ))
    foreign = []
    for number, labels in choice_labels.items():
        entry = answers.get(number, "").strip()
        token = re.match(r"\w+", entry)
        # Full-width forms folded (`pipeline.widths`): a key's `Ｂ` is the label `B`, and `B` the label `Ｂ`.
        if token and len(token.group()) == 1 and token.group().isalpha() and fold_width(token.group()).upper() not in {
            fold_width(label).upper() for label in labels
        }:
            foreign.append(token.group())
    keyed = sum(1 for n in choice_labels if n in answers)
    if len(foreign) >= MIN_FOREIGN_LABELS and keyed and len(foreign) / keyed >= FOREIGN_LABEL_SHARE:
        reasons.append(Evidence("labels", f"{len(foreign)} of its {keyed} answers name option labels the sheet does not have ({sorted(set(foreign))})"))
    return reasons
