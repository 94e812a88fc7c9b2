"""Checking sheets for text read in place on text pages (`pipeline.extract.patches`), kept apart from
the unit tests' sheets: drawn lines and unmapped spans in scripts and sizes the tests do not use
(Cyrillic, Turkish, Vietnamese, Greek math letters; 9 and 16 pt). Prints, per sheet, how much of the
drawn text came back (characters alike, spaces ignored) and whether the mapped text stayed exact.

    python -m tests.bench.drawn_check
"""
from __future__ import annotations

import sys
import tempfile
from difflib import SequenceMatcher
from pathlib import Path

from pipeline.extract import ExtractOptions, extract_document
from pipeline.extract.ocr import OcrSettings, installed_languages
from tests.fixtures import drawn_sheets as ds

DRAWN = {
    "rus": ["Ответы к заданиям: 1 А 2 Б 3 В 4 Г", "Тексты отрывков сокращены и адаптированы."],
    "tur": ["Cevap anahtarı: 1 A 2 C 3 D 4 B", "Sınav süresi yüz yirmi dakikadır. Başarılar dileriz."],
    "ell": ["Σημείωση: τα κείμενα διασκευάστηκαν για τις ανάγκες της εξέτασης."],
    "pol": ["Klucz odpowiedzi: 1 C 2 A 3 D 4 B", "Zadania zamknięte oceniane są zero-jedynkowo."],
}
UNMAPPED = {
    "rus": [[("Найдите значение выражения ", False), ("2x + 3y", True), (" при x = 1.", False)]],
    "tur": [[("Aşağıdaki ifadenin değeri ", False), ("4a - b", True), (" kaçtır?", False)]],
    "vie": [[("Giá trị của biểu thức ", False), ("3m + 2n", True), (" bằng bao nhiêu?", False)]],
    "ell": [[("Να βρείτε την τιμή της παράστασης ", False), ("5k + 1", True), (" όταν k = 2.", False)]],
}


def _alike(read: str, truth: str) -> float:
    return SequenceMatcher(None, "".join(read.split()), "".join(truth.split())).ratio()


def main(argv: list[str] | None = None) -> int:
    have = installed_languages()
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder)
        print("drawn lines (language, size): characters alike, lines read, report line")
        for language, lines in DRAWN.items():
            if language not in have:
                print(f"  {language}: skipped (no Tesseract data)")
                continue
            for size in (9, 16):
                pdf = ds._pdf()
                ds._text(pdf, "1", 60, 60, ds.dejavu())
                ds.drawn_paragraph(pdf, lines, 60, 120, ds.dejavu(), size=size)
                path = out / f"drawn-{language}-{size}.pdf"
                pdf.output(str(path))
                document = extract_document(path, "0" * 64, ExtractOptions(ocr=OcrSettings(languages=(language,))))
                read = [line.text for line in document.pages[0].lines if line.ocr]
                score = sum(_alike(r, t) for r, t in zip(read, lines)) / len(lines)
                reported = any(w.code.code == "extract.drawn_text_read" for w in document.warnings)
                print(f"  {language} {size:>2} pt: {score:.3f}  {len(read)}/{len(lines)}  {reported}  {read}")
        print("unmapped spans (language): mapped text exact, span read exactly, line")
        for language, rows in UNMAPPED.items():
            path = ds.mixed_fonts(out / f"unmapped-{language}.pdf", rows, face=ds.dejavu(), unmapped_face=ds.dejavu(ds.SERIF))
            languages = (language,) if language in have else ("eng",)
            document = extract_document(path, "0" * 64, ExtractOptions(ocr=OcrSettings(languages=languages)))
            text = document.pages[0].lines[0].text
            mapped = all(piece in text for piece, unmapped in rows[0] if not unmapped)
            span = "".join(piece for piece, unmapped in rows[0] if unmapped)
            print(f"  {language} ({'+'.join(languages)}): {mapped}  {''.join(span.split()) in ''.join(text.split())}  {text!r}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
