"""A devkit tool run with a last page pass, `seen-marks` (or `--after NAME`: `second-letters`, `mark-checks`), applied to cached
readings made without it (issue 27).

    python -m pipeline.devkit.aftercache pipeline.devkit.ocrcertainty --out DIR/SET --set SET --kinds --show
    python -m pipeline.devkit.aftercache pipeline.devkit.accentscans --out DIR --scans 150/0.8/70
    python -m pipeline.devkit.aftercache --after second-letters pipeline.devkit.ocrcertainty --out DIR/SET --set SET --kinds --show

`seen-marks` is the last pass of `PAGE_PASSES` and looks at nothing but the words' text and what the second reader read
at their place (`ReadWord.second`), both kept in a page's cached reading: applied to a reading cached without it, it
gives what the pipeline with it gives. So the flag's sets, whose every page the new pass's version would otherwise
send to Tesseract again (6–8 s a page), are measured from the base's cache: the reading key leaves `seen-marks` out
(a page not in the cache is read with every pass, the new one too, and cached under that key), and each page's reading
goes through the pass's step before it is laid out (where the pass ran already it changes nothing more: a mended word
reads as the second reader read it). Measuring only; the season run keys and runs the pass as any other.

`second-letters`, after `seen-marks`, looks likewise at nothing but the words' text, Tesseract's confidence, their
boxes, their lines' sizes and `ReadWord.second`: `--after second-letters` measures it the same way from a cache made
with every pass before it (the base's, with `seen-marks` applied already).

`--after mark-checks` (`markchecks`) reads the page's ink as well: the step renders the page again from the PDF being
read (`ocr_pages` is wrapped to know it), makes it the image the passes read (`border`, `deskew`, `despeckle`, as its
reading did), and runs the pass on the cached words.
"""
from __future__ import annotations

import importlib
import runpy
import sys
from dataclasses import replace

from collections.abc import Callable

from pipeline.extract.ocr import (
    LetterBox,
    OcrSettings,
    PageReading,
    load_lexicon,
    mend_words,
    seen_marks,
    seen_marks_evidence,
    seen_marks_note,
    spelled_for,
    take_second_letters,
)

PASS = "seen-marks"


def with_seen_marks(reading: PageReading, settings: OcrSettings) -> PageReading:
    """`reading` as the `seen-marks` pass leaves it (see the module's doc)."""
    if PASS in settings.disabled_passes or not any(w.second for w in reading.words):
        return reading
    evidence = seen_marks_evidence(settings.languages, spelled_for(tuple(settings.languages)))
    if evidence is None:
        return reading
    changes, words = [], []
    for word in reading.words:
        mended = seen_marks(word.text, word.second, evidence)
        if mended is not None:
            changes.append((word.text, mended.text))
        words.append(word if mended is None else replace(word, text=mended.text, unsure_mark=word.unsure_mark or not mended.known))
    if not changes:
        return reading
    return replace(reading, words=tuple(words), notes=reading.notes + (seen_marks_note(changes),))


def with_second_letters(reading: PageReading, settings: OcrSettings) -> PageReading:
    """`reading` as the `second-letters` pass leaves it (`secondletters`)."""
    spelled = spelled_for(tuple(settings.languages))
    if "second-letters" in settings.disabled_passes or spelled is None or not any(w.second for w in reading.words):
        return reading
    boxes = [LetterBox(w.text, w.conf, w.right - w.left, w.size, w.second) for w in reading.words]
    found = take_second_letters(boxes, load_lexicon(tuple(settings.languages)), spelled)
    if not found:
        return reading
    words, note = mend_words(reading.words, found)
    return replace(reading, words=tuple(words), notes=reading.notes + (note,))


# The PDF `ocr_pages` reads now (`install` wraps it), for a step that reads a page's ink (`mark-checks`).
_READING: dict[str, object] = {}
# The passes that make the image the page's later passes read (`PageWork.image`): a page's words are in its pixels.
_IMAGE_PASSES = ("_border", "_deskew", "_despeckle")


def with_mark_checks(reading: PageReading, settings: OcrSettings, page_number: int | None = None) -> PageReading:
    """`reading` as the `mark-checks` pass leaves it (`markchecks`): the page is rendered again from the PDF being read and
    made the image the passes read (border, tilt and specks out, as its reading was), and the pass run on its words."""
    if "mark-checks" in settings.disabled_passes or page_number is None or reading.rotation or "pdf" not in _READING:
        return reading
    import pypdfium2 as pdfium
    from pathlib import Path
    from tempfile import TemporaryDirectory

    ocr = importlib.import_module("pipeline.extract.ocr")
    readingpasses = importlib.import_module("pipeline.extract.ocr.readingpasses")
    wordpasses = importlib.import_module("pipeline.extract.ocr.wordpasses")
    words_module = importlib.import_module("pipeline.extract.ocr.words")
    document = pdfium.PdfDocument(str(_READING["pdf"]))
    try:
        image = ocr.render_page(document, page_number - 1, settings.dpi)[0]
    finally:
        document.close()
    if image.size != (reading.image_width, reading.image_height):
        return reading
    words = [words_module.Word(w.text, w.conf, w.left, w.top, w.right, w.bottom, w.line, w.second, w.unsure_mark)
             for w in reading.words]
    with TemporaryDirectory() as folder:
        work = ocr.PageWork(settings, page_number, 1, False, Path(folder), image, image, lexicon=load_lexicon(tuple(settings.languages)),
                            words=words)
        for name in _IMAGE_PASSES:
            step = getattr(readingpasses, name)
            if step.name not in settings.disabled_passes and step.applies(work):
                work = step.run(work)
        if not wordpasses._mark_checks.applies(work):
            return reading
        after = wordpasses._mark_checks.run(work)
    if after.notes == work.notes:
        return reading
    marked = [replace(r, unsure_mark=w.unsure_mark) for r, w in zip(reading.words, after.words)]
    return replace(reading, words=tuple(marked), notes=reading.notes + after.notes[len(work.notes):])


STEPS: dict[str, Callable[..., PageReading]] = {PASS: with_seen_marks, "second-letters": with_second_letters,
                                                "mark-checks": with_mark_checks}


def install(after: str = PASS) -> None:
    """The cache key without the pass `after` (`seen-marks` unless named), and the pass's step before each page is laid
    out: two internals of the OCR package replaced for this measuring process alone (the season run never imports this
    module)."""
    cache_module = importlib.import_module("pipeline.extract.ocr.cache")
    page_module = importlib.import_module("pipeline.extract.ocr.page")
    versions = cache_module.pass_versions
    lay_out = page_module.lay_out_page
    step = STEPS[after]

    def keyed_without(settings: OcrSettings) -> list[tuple[str, str]]:
        return [(name, version) for name, version in versions(settings) if name != after]

    def laid_out(reading: PageReading, settings: OcrSettings, **kwargs: object) -> object:
        if after == "mark-checks":
            return lay_out(step(reading, settings, kwargs.get("page_number")), settings, **kwargs)
        return lay_out(step(reading, settings), settings, **kwargs)

    reading_pages = page_module.ocr_pages

    def ocr_pages(pdf_path: object, *args: object, **kwargs: object) -> object:
        _READING["pdf"] = pdf_path
        return reading_pages(pdf_path, *args, **kwargs)

    cache_module.pass_versions = keyed_without  # type: ignore[attr-defined]
    page_module.lay_out_page = laid_out  # type: ignore[attr-defined]
    page_module.ocr_pages = ocr_pages  # type: ignore[attr-defined]
    importlib.import_module("pipeline.extract.stage").ocr_pages = ocr_pages  # imported by name there


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if not args:
        print(__doc__)
        return 2
    after = PASS
    if args[0] == "--after" and len(args) > 2 and args[1] in STEPS:
        after, args = args[1], args[2:]
    install(after)
    sys.argv = [args[0], *args[1:]]
    runpy.run_module(args[0], run_name="__main__")
    return 0


if __name__ == "__main__":
    sys.exit(main())
