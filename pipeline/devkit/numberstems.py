"""Question sheets whose every stem opens with a number (a year, a count, a decimal, an ordinal), in several scripts
and numbering styles ("1.", "1)", "Câu 1.", "문 1", "Soru 1"), read by their text layer and scanned: is any question
lost, and is a number OCR could not read in a header's place flagged?

    python -m pipeline.devkit.numberstems --out W --scans 180/0.8/76/-0.6,160/0.9/70/0.4 [--disable lost-number-digits]

A stem opening with a number is where a header whose digits a scan lost ("1." read as ".") could be taken for, or
lose, the question: the stem's number is no question number, and the question must still be found. Each line is
the family, the path, the questions found of those printed and the numbers flagged as inferred."""
from __future__ import annotations

import argparse
import hashlib
import random
from dataclasses import dataclass
from pathlib import Path

from pipeline.devkit import scriptscans
from pipeline.devkit.sample.pdfgen import CJK_FONT, PageSpec, TextBox, build_pdf
from pipeline.devkit.sample.scansetting import ScanSetting
from pipeline.diagnostics import Code, has_code
from pipeline.extract import ExtractOptions, extract_document
from pipeline.extract.ocr import word_list
from pipeline.parse import parse_sheet
from pipeline.records import Question
from pipeline.specs import SourceSpec

GREEK = ("Α", "Β", "Γ", "Δ")


@dataclass(frozen=True)
class Family:
    name: str
    language: str
    tesseract: str
    header: str  # the question's header, "{n}" standing for its number
    start: str  # the spec's `question_start`
    openings: tuple[str, ...]  # what the stems open with, in turn
    font: str
    seed: int
    questions: int = 8
    labels: tuple[str, ...] = ("A", "B", "C", "D")  # printed "A. …"


TUNING = (
    Family("pl-dot", "pl", "pol", "{n}.", r"^(?P<number>\d{1,3})\.\s+(?=\S)", ("1945", "3", "2,5", "12.", "1410"), "DejaVuSerif", 1),
    Family("el-paren", "el", "ell", "{n})", r"^(?P<number>\d{1,3})\)\s+(?=\S)", ("1821", "4", "0,75", "1940", "7"), "DejaVuSans", 2,
           labels=GREEK),
    Family("vi-cau", "vi", "vie", "Câu {n}.", r"^Câu\s+(?P<number>\d{1,3})\.\s+(?=\S)", ("1945", "3", "2,5", "1975", "10"), "DejaVuSans", 3),
    Family("ko-mun", "ko", "kor", "문 {n}", r"^문\s*(?P<number>\d{1,3})\s+(?=\S)", ("1950년", "3개", "2.5", "19세기", "12"), CJK_FONT, 4),
    Family("tr-soru", "tr", "tur", "Soru {n}", r"^Soru\s+(?P<number>\d{1,3})\s+(?=\S)", ("2.", "1923", "19.", "3", "0,5"), "DejaVuSerif", 5),
)
# Split before any was read: the same styles in the other faces and with other openings.
CHECKING = (
    Family("vi-dot", "vi", "vie", "{n}.", r"^(?P<number>\d{1,3})\.\s+(?=\S)", ("2011", "5", "1,25", "1954", "8"), "DejaVuSerif", 11),
    Family("tr-paren", "tr", "tur", "{n})", r"^(?P<number>\d{1,3})\)\s+(?=\S)", ("1071", "2.", "6", "3,14", "1453"), "DejaVuSans", 12),
    Family("el-dot", "el", "ell", "{n}.", r"^(?P<number>\d{1,3})\.\s+(?=\S)", ("1453", "2", "1,5", "1821", "9"), "DejaVuSerif", 13,
           labels=GREEK),
)
SETS = {"tuning": TUNING, "checking": CHECKING, "all": TUNING + CHECKING}
SIZE = 11


Printed = scriptscans.Printed  # one printed question: number, stem, options, answer


def printed(family: Family) -> list[Printed]:
    """The family's questions: each stem opens with the next of its openings."""
    words = sorted(w for w in word_list(family.tesseract) if w.isalpha() and 2 <= len(w) <= 9 and w == w.lower())
    rng = random.Random(family.seed)
    rng.shuffle(words)
    words = words[:2000]
    result = []
    for n in range(1, family.questions + 1):
        stem = f"{family.openings[(n - 1) % len(family.openings)]} " + " ".join(rng.choice(words) for _ in range(rng.randint(5, 10))) + "?"
        options = tuple(rng.choice(words) for _ in family.labels)
        result.append(Printed(str(n), stem, options, rng.choice(family.labels)))
    return result


def sheet_pdf(path: Path, family: Family, questions: list[Printed]) -> Path:
    """Each question's header and stem on one line, its four options "A. …" in a row below."""
    boxes, y = [], 20.0
    for q in questions:
        boxes.append(TextBox(f"{family.header.format(n=q.number)} {q.stem}", 20, y, 170, size=SIZE, font=family.font))
        y += 7.5
        boxes += [TextBox(f"{label}. {text}", 26 + 41 * j, y, 39, size=SIZE, font=family.font) for j, (label, text) in enumerate(zip(family.labels, q.options))]
        y += 11
    return build_pdf(path, [PageSpec(tuple(boxes))])


def key_pdf(path: Path, family: Family, questions: list[Printed]) -> Path:
    boxes = [TextBox(f"{q.number}: {q.answer}", 20, 20 + 7 * i, 40, size=SIZE, font=family.font) for i, q in enumerate(questions)]
    return build_pdf(path, [PageSpec(tuple(boxes))])


def spec(family: Family, disabled: tuple[str, ...] = ()) -> SourceSpec:
    base = scriptscans.generated_spec(f"numberstems_{family.name.replace('-', '_')}", "stems opening with numbers", family.language,
                                      family.tesseract, {"labels": list(family.labels), "min_count": 4, "styles": ["A."]}, "".join(family.labels))
    the_spec = base.model_copy(update={"layout": base.layout.model_copy(update={"question_start": family.start})})
    if disabled:
        passes = the_spec.ocr.passes.model_copy(update={"disable": list(disabled)})
        the_spec = the_spec.model_copy(update={"ocr": the_spec.ocr.model_copy(update={"passes": passes})})
    return the_spec


def read(sheet: Path, key: Path, the_spec: SourceSpec, cache: Path | None = None) -> dict[str, Question]:
    options = ExtractOptions.from_spec(the_spec, ocr_cache_dir=str(cache) if cache else None)
    key_doc = extract_document(key, hashlib.sha256(key.read_bytes()).hexdigest(), options)
    sheet_doc = extract_document(sheet, hashlib.sha256(sheet.read_bytes()).hexdigest(), options)
    result = parse_sheet(sheet_doc, scriptscans.generated_entry(sheet, "sheet", the_spec.name),
                         [(key_doc, scriptscans.generated_entry(key, "key", the_spec.name))], the_spec)
    return {q.number: q for q in result.questions}


def measure(folder: Path, family: Family, scans: list[ScanSetting], disabled: tuple[str, ...] = ()) -> list[str]:
    questions = printed(family)
    text = folder / family.name / "text" / "2031"
    text.mkdir(parents=True, exist_ok=True)
    sheet, key = sheet_pdf(text / "sheet.pdf", family, questions), key_pdf(text / "key.pdf", family, questions)
    lines = []
    for setting in [None, *scans]:
        if setting is None:
            where, paths = "text layer", (sheet, key)
        else:
            scanned = folder / family.name / setting.folder() / "2031"
            scanned.mkdir(parents=True, exist_ok=True)
            paths = (setting.rasterise(sheet, scanned / sheet.name, seed=family.seed), setting.rasterise(key, scanned / key.name, seed=family.seed))
            where = setting.label()
        found = read(paths[0], paths[1], spec(family, disabled), folder / "cache")
        lost = [q.number for q in questions if q.number not in found]
        right = sum(found[q.number].answer == q.answer for q in questions if q.number in found)
        inferred = [n for n, q in found.items() if has_code(q.flags, Code.NUMBER_INFERRED)]
        lines.append(f"{family.name:10} {where:34} found {len(questions) - len(lost)}/{len(questions)} keyed right {right}"
                     f"  lost {lost}  inferred {inferred}")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m pipeline.devkit.numberstems", description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, required=True, help="work folder: sheets, scans and the OCR cache")
    parser.add_argument("--set", choices=list(SETS), default="all")
    parser.add_argument("--scans", default="180/0.8/76/-0.6,160/0.9/70/0.4", help="scan settings, comma-separated")
    parser.add_argument("--families", default="", help="only these families, comma-separated")
    parser.add_argument("--disable", default="", help="passes (OCR or parse) to leave out, comma-separated")
    args = parser.parse_args(argv)
    disabled = tuple(d for d in args.disable.split(",") if d)
    for family in [f for f in SETS[args.set] if not args.families or f.name in args.families.split(",")]:
        for line in measure(args.out, family, ScanSetting.parse_list(args.scans), disabled):
            print(("tuning   " if family in TUNING else "checking ") + line, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
