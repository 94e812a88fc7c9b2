"""A devkit tool run with a last page pass, `seen-marks` (or `--after NAME`: `second-letters`), applied to cached
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


STEPS: dict[str, Callable[[PageReading, OcrSettings], PageReading]] = {PASS: with_seen_marks, "second-letters": with_second_letters}


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
        return lay_out(step(reading, settings), settings, **kwargs)

    cache_module.pass_versions = keyed_without  # type: ignore[attr-defined]
    page_module.lay_out_page = laid_out  # type: ignore[attr-defined]


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
