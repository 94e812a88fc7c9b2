"""Measure lines Tesseract drops whole: options of one short word a line (`são`, `Nie`, `2`), scanned low.

    python -m pipeline.devkit.shortlines --out /tmp/shortlines [--show]

A short word alone on its line is the ink Tesseract's layout analysis most often returns no line for; `loose-ink`
cannot see it (no line is there to stand beside) and `dropped-ink` asks a piece for three glyph blobs. Each family
here is `ocrcertainty`'s sheet (its questions, key and scan) with every stem's last word, and one option's, a short word
of its language (two or three letters from Tesseract's word list, or a number of one or two digits) alone on a line of
its own, the other options one short word each. Printed and read are compared word by word: a lone word no record
holds is a dropped line; the question is counted as `ocrcertainty` counts it (wrong, flagged, caught). These are tuning families: the
checking sets stay `ocrcertainty`'s held-out and corpus-checking sets.
"""
from __future__ import annotations

import argparse
import hashlib
import random
import sys
from dataclasses import dataclass, replace
from pathlib import Path

from pipeline.devkit import ocrcertainty, scriptscans
from pipeline.devkit.ocrcertainty import Family, Printed, Tally, tally_of
from pipeline.devkit.sample.pdfgen import PageSpec, TextBox, build_pdf
from pipeline.devkit.sample.scansetting import ScanSetting
from pipeline.extract import ExtractOptions, extract_document
from pipeline.extract.ocr import CertaintyPolicy, installed_languages, word_list
from pipeline.parse import parse_sheet

FAMILIES = (
    Family("pt-short-150", "pt", "por", ("A", "B", "C", "D", "E"), "column", "DejaVuSans", ScanSetting(150, 0.7, 75, noise=0.0), 61),
    Family("pl-short-200", "pl", "pol", ("A", "B", "C", "D"), "column", "DejaVuSerif", ScanSetting(200, 0.8, 70, noise=0.02), 62),
    Family("es-short-150", "es", "spa", ("a", "b", "c", "d"), "column", "DejaVuSerif", ScanSetting(150, 0.6, 80, noise=0.0), 63),
    Family("ru-short-200", "ru", "rus", ("А", "Б", "В", "Г"), "column", "DejaVuSans", ScanSetting(200, 0.7, 70, noise=0.0), 64),
    Family("el-short-150", "el", "ell", ("α", "β", "γ", "δ"), "column", "DejaVuSans", ScanSetting(150, 0.6, 80, noise=0.0), 65),
)


@dataclass
class Dropped:
    printed: int = 0  # lone words printed
    lost: int = 0  # of them, not the last word of the stem or option they end


@dataclass(frozen=True)
class Sheet:
    questions: list[Printed]
    wrapped: list[int]  # each question's option that ends in a lone word on its own line


def short_sheet(family: Family) -> Sheet:
    """`ocrcertainty`'s questions of the family, each stem ending in a short word, one option a phrase ending in one,
    the other options one short word each."""
    rng = random.Random(family.seed)
    vocabulary = ocrcertainty._vocabulary(family.tesseract, rng)
    short = [w for w in word_list(family.tesseract) if w.isalpha() and 2 <= len(w) <= 3 and w == w.lower()] or vocabulary

    def lone() -> str:
        return str(rng.randint(1, 99)) if rng.random() < 0.3 else rng.choice(short)

    questions, wrapped = [], []
    for printed in ocrcertainty.printed_questions(family, vocabulary):
        options = [lone() for _ in family.labels]
        chosen = rng.randrange(len(options))
        options[chosen] = ocrcertainty._phrase(rng, vocabulary, 3) + " " + lone()
        questions.append(replace(printed, stem=printed.stem.rstrip(".") + " " + lone() + ".", options=tuple(options)))
        wrapped.append(chosen)
    return Sheet(questions, wrapped)


def sheet_pdf(path: Path, family: Family, sheet: Sheet) -> Path:
    """One option a line; the stem's last word and the wrapped option's last word each alone on the line under."""
    row = ocrcertainty.SIZE * 1.35 * 0.3528  # mm
    pages: list[PageSpec] = []
    boxes: list[TextBox] = []
    y = 20.0
    for q, chosen in zip(sheet.questions, sheet.wrapped):
        head, last = q.stem.rsplit(" ", 1)
        if y + (len(q.options) + 5) * row > 275:
            pages.append(PageSpec(tuple(boxes)))
            boxes, y = [], 20.0
        stem_text = f"{q.number}. {head}"
        boxes.append(TextBox(f"{stem_text}\n{last}", 20, y, 170, size=ocrcertainty.SIZE, font=family.font))
        y += row * (2 + len(stem_text) // 85) + 1.5
        for index, (label, text) in enumerate(zip(family.labels, q.options)):
            cell = f"{label}) " + ("\n".join(text.rsplit(" ", 1)) if index == chosen else text)
            boxes.append(TextBox(cell, 26, y, 160, size=ocrcertainty.SIZE, font=family.font))
            y += row * (2 if index == chosen else 1)
        y += 4
    pages.append(PageSpec(tuple(boxes)))
    return build_pdf(path, pages)


def measure(folder: Path, family: Family, show: bool, disabled: tuple[str, ...] = ()) -> tuple[Tally, Dropped]:
    the_spec = ocrcertainty._spec(family)
    printed_sheet = short_sheet(family)
    questions = printed_sheet.questions
    vocabulary = ocrcertainty._vocabulary(family.tesseract, random.Random(family.seed))
    sheet, key = folder / family.name / "2031" / "sheet.pdf", folder / family.name / "2031" / "key.pdf"
    if not sheet.is_file():
        sheet.parent.mkdir(parents=True, exist_ok=True)
        for target, clean in ((sheet, sheet_pdf(sheet.with_suffix(".text.pdf"), family, printed_sheet)),
                              (key, ocrcertainty._key_pdf(key.with_suffix(".text.pdf"), family, questions, vocabulary))):
            family.scan.rasterise(clean, target, seed=family.seed)
    options = ExtractOptions.from_spec(the_spec, ocr_cache_dir=str(folder / "cache"))
    options = replace(options, ocr=replace(options.ocr, certainty=CertaintyPolicy(), disabled_passes=disabled))
    key_doc = extract_document(key, hashlib.sha256(key.read_bytes()).hexdigest(), options)
    sheet_doc = extract_document(sheet, hashlib.sha256(sheet.read_bytes()).hexdigest(), options)
    result = parse_sheet(sheet_doc, scriptscans.generated_entry(sheet, "sheet", the_spec.name),
                         [(key_doc, scriptscans.generated_entry(key, "key", the_spec.name))], the_spec)
    records = {q.number: q for q in result.questions}
    dropped = Dropped()
    for printed, chosen in zip(questions, printed_sheet.wrapped):
        record = records.get(printed.number)
        read_stem = (record.question or "").split() if record is not None else []
        read_option = (record.choices[chosen].split() if record is not None and len(record.choices) > chosen else [])
        for printed_words, read in ((printed.stem.split(), read_stem), (printed.options[chosen].split(), read_option)):
            dropped.printed += 1
            # The lone word is lost when what was read ends with the word before it (the line under it read as nothing).
            lost = len(read) < len(printed_words) or (len(read) > 1 and read[-1] == printed_words[-2])
            dropped.lost += lost
            if lost and show:
                print(f"  lone word lost {family.name} {printed.number}: {printed_words[-1]!r} ({' '.join(read[-3:])!r})", file=sys.stderr)
    if show:
        for note in (n for page in sheet_doc.pages for n in page.ocr_notes):
            print(f"  note {family.name} p{note}", file=sys.stderr)
    return tally_of(questions, records, family.name, show), dropped


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m pipeline.devkit.shortlines", description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, required=True, help="work folder: generated sheets, scans and the OCR cache")
    parser.add_argument("--show", action="store_true", help="print each wrong question and the pages' notes")
    parser.add_argument("--disable", default="", help="OCR passes to disable, comma-separated (what Tesseract alone drops)")
    args = parser.parse_args(argv)
    installed = installed_languages()
    total, all_dropped = Tally(), Dropped()
    for family in FAMILIES:
        if family.tesseract not in installed:
            print(f"{family.name:<16} skipped: Tesseract data {family.tesseract} not installed")
            continue
        tally, dropped = measure(args.out, family, args.show, tuple(filter(None, args.disable.split(","))))
        total.add(tally)
        all_dropped.printed += dropped.printed
        all_dropped.lost += dropped.lost
        print(f"{tally.line(family.name)}  options lost {dropped.lost}/{dropped.printed}", flush=True)
    print(f"{total.line('all')}  options lost {all_dropped.lost}/{all_dropped.printed}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
