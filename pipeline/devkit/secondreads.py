"""Could the second recogniser mend the words a scan misreads? Corpus scans of the flag's sets read, each
differing word run found among the page's words, and its Tesseract line read again by RapidOCR.

    python -m pipeline.devkit.secondreads --out /tmp/certainty [--set corpus|corpus-checking] [--show]

Run it on an `ocrcertainty` folder after `ocrcertainty --set corpus` (and `corpus-checking`) has read the
scans: the readings come from its OCR cache. Each OCR'd question's stem and options are compared with the
text path's as the flag's measure does (`misreadkinds.text_kinds`); a run of one kind (letter, accent,
punctuation, digit, glued/split, …) is looked up among the page's words (its read words in a row, the first
occurrence not used yet). Per kind it counts:
- `runs`: differing runs, and `found` of them located among the page's words;
- `asked`: runs of which the `second-reader` pass read a word again on this reading (`ReadWord.second`);
- `R right`: runs whose words RapidOCR, reading the whole Tesseract line of the run from the page as scanned
  (`--image prepared`: as prepared for Tesseract), reads as printed (`as_read`, the flag's comparison); `R core
  right`: the same on letters and digits only; `R differs`: runs whose letters and digits RapidOCR reads otherwise
  than Tesseract (evidence the flag can use);
- `T known` / `R known` / `P known`: runs whose every word of letters the language's spelling dictionary knows,
  as Tesseract read it, as RapidOCR read it, and as printed (a run of a word both engines read with the
  dictionary's approval is one the dictionary cannot settle);
- `picked`: runs with a word the pass's rule counts unsure (`would_read_again`: under 80 % confidence, or unknown
  to the dictionary), and `line asked`: runs on a Tesseract line holding such a word (read again whole, each
  would be asked).
The figures say where a second reading would pay, and which rule (dictionary, confidence) would find the run.
"""
from __future__ import annotations

import argparse
import hashlib
import re
import sys
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pypdfium2 as pdfium

from pipeline.devkit.misreadkinds import KINDS, OPTION_BOUNDARY, ANSWER, as_read, text_kinds
from pipeline.devkit.ocrcertainty import CORPUS, CORPUS_SETS, CorpusSheet, _pages_of, _records_of
from pipeline.extract import ExtractOptions
from pipeline.extract.ocr import (
    RECOGNISERS,
    ReadingCache,
    ReadWord,
    prepare_for_tesseract,
    reading_key,
    render_page,
    second_readings,
    spelling_for,
    word_core,
    would_read_again,
)
from pipeline.specs import load_spec

COUNTS = ("runs", "found", "asked", "picked", "line asked", "R right", "R core right", "R differs", "T known", "R known",
          "P known")
_PIECE = re.compile(r"\w+")
PAD = 0.3  # line heights of white round a line crop, as the pass pads its windows


@dataclass
class Located:
    page: int
    words: list[int]  # indexes into the page's words


def _core(token: str) -> str:
    return word_core(as_read(token))[1]


def _page_words(cache: ReadingCache, scan: Path, options: ExtractOptions) -> dict[int, list[ReadWord]]:
    sha = hashlib.sha256(scan.read_bytes()).hexdigest()
    document = pdfium.PdfDocument(str(scan))
    count = len(document)
    document.close()
    pages = {}
    for number in range(1, count + 1):
        reading = cache.get(reading_key(sha, number, options.ocr))
        if reading is not None:
            pages[number] = list(reading.words)
    return pages


def _pieces(text: str) -> list[str]:
    """The runs of letters and digits of a text (the comparison leaves out a space beside a mark, so a read run
    `título,¿cuál` stands for the page's words `título,` and `¿cuál`)."""
    return _PIECE.findall(as_read(text))


def locate(run: str, before: str | None, pages: dict[int, list[ReadWord]], used: set[tuple[int, int]]) -> Located | None:
    """Where the read run stands among the pages' words: its pieces of letters and digits in a row (the piece
    before it too when there is one), the first such place not used yet; the words holding those pieces."""
    want = _pieces(run)
    if not want:
        return None
    before_pieces = _pieces(before) if before else []
    last_before = before_pieces[-1] if before_pieces else None
    for with_before in (True, False):
        for number, words in pages.items():
            pieces = [(i, piece) for i, w in enumerate(words) for piece in _pieces(w.text)]
            cores = [piece for _, piece in pieces]
            for at in range(len(cores) - len(want) + 1):
                if cores[at : at + len(want)] != want or (number, at) in used:
                    continue
                if with_before and last_before is not None and (at == 0 or cores[at - 1] != last_before):
                    continue
                used.add((number, at))
                return Located(number, sorted({pieces[k][0] for k in range(at, at + len(want))}))
    return None


def _known(spelling: Any, text: str) -> bool:
    cores = [c for c in (_core(t) for t in text.split()) if c.isalpha()]
    return all(spelling.knows(cores)) if cores else True


def _line_crop(pixels: np.ndarray, members: list[ReadWord]) -> np.ndarray:
    top, bottom = min(w.top for w in members), max(w.bottom for w in members)
    pad = max(2, int(PAD * (bottom - top)))
    left, right = max(0, min(w.left for w in members) - pad), min(pixels.shape[1], max(w.right for w in members) + pad)
    return pixels[max(0, top - pad) : min(pixels.shape[0], bottom + pad), left:right]


def measure(folder: Path, sheet: CorpusSheet, show: bool, image: str = "scanned") -> dict[str, Counter[str]]:
    the_spec = load_spec(sheet.spec)
    facts = dict(sheet.facts)
    booklet = _pages_of(CORPUS / sheet.folder / sheet.sheet, folder / sheet.name / "text" / sheet.sheet, sheet.pages)
    scan = folder / sheet.name / booklet.name
    if not scan.is_file():
        raise SystemExit(f"{scan}: not scanned yet; run `ocrcertainty --out {folder}` on this set first")
    options = ExtractOptions.from_spec(the_spec, ocr_cache_dir=str(folder / "cache"))
    printed = _records_of(booklet, None, the_spec, facts, ExtractOptions.from_spec(the_spec))
    read = _records_of(scan, None, the_spec, facts, options)
    pages = _page_words(ReadingCache(folder / "cache"), scan, options)
    spelling = spelling_for(tuple(options.ocr.languages))
    rapid = RECOGNISERS["rapidocr"]
    document = pdfium.PdfDocument(str(scan))
    images: dict[int, np.ndarray] = {}
    line_readings: dict[tuple[int, tuple[int, int, int] | None], dict[int, str | None]] = {}
    counts: dict[str, Counter[str]] = defaultdict(Counter)
    used: set[tuple[int, int]] = set()
    for number, truth in printed.items():
        record = read.get(number)
        if record is None:
            continue
        parts = [(truth.question or "", record.question or "")]
        if len(truth.choices) == len(record.choices):
            parts += list(zip(truth.choices, record.choices))
        for ours, theirs in parts:
            if as_read(ours) == as_read(theirs):
                continue
            read_words = as_read(theirs).split()
            for kind, printed_run, read_run in text_kinds(as_read(ours), as_read(theirs)):
                if kind in (OPTION_BOUNDARY, ANSWER):
                    continue
                tally = counts[kind]
                tally["runs"] += 1
                start = _index_of(read_words, read_run.split())
                located = locate(read_run, read_words[start - 1] if start else None, pages, used)
                if located is None:
                    if show:
                        print(f"    {kind:12} {printed_run!r} → {read_run!r}  (not found on the page)")
                    continue
                tally["found"] += 1
                words = pages[located.page]
                members = [words[i] for i in located.words]
                line = [w for w in words if w.line is not None and w.line in {m.line for m in members}]
                tally["asked"] += any(w.second is not None for w in members)
                tally["line asked"] += any(would_read_again([(w.text, w.conf if w.conf is not None else -1.0) for w in line], spelling))
                tally["picked"] += any(would_read_again([(w.text, w.conf if w.conf is not None else -1.0) for w in members], spelling))
                rapid_run = " ".join(r for r in _rapid_of(located, words, document, images, line_readings, options, rapid, image)
                                     if r)
                tesseract_run = " ".join(w.text for w in members)
                tally["R right"] += as_read(rapid_run) == as_read(printed_run)
                tally["R core right"] += _pieces(rapid_run) == _pieces(printed_run)
                tally["R differs"] += _pieces(rapid_run) != _pieces(tesseract_run)
                tally["T known"] += _known(spelling, read_run)
                tally["R known"] += _known(spelling, rapid_run)
                tally["P known"] += _known(spelling, printed_run)
                if show:
                    second = [w.second for w in members]
                    print(f"    {kind:12} {printed_run!r} → T {read_run!r} R {rapid_run!r} pass {second} "
                          f"conf {[w.conf for w in members]} known T/R/P {_known(spelling, read_run):d}"
                          f"{_known(spelling, rapid_run):d}{_known(spelling, printed_run):d}")
    document.close()
    return counts


def _index_of(words: list[str], run: list[str]) -> int:
    for at in range(len(words) - len(run) + 1):
        if words[at : at + len(run)] == run:
            return at
    return 0


def _rapid_of(located: Located, words: list[ReadWord], document: pdfium.PdfDocument, images: dict[int, np.ndarray],
              line_readings: dict, options: ExtractOptions, rapid, which: str) -> list[str | None]:
    """RapidOCR's reading at each located word, its whole Tesseract line read at once (once a line), on the page
    as scanned or as prepared for Tesseract (`which`)."""
    found = []
    for i in located.words:
        line = words[i].line
        key = (located.page, line)
        if key not in line_readings:
            if located.page not in images:
                image, _, _ = render_page(document, located.page - 1, options.ocr.dpi)
                grey = prepare_for_tesseract(image, options.ocr.dpi) if which == "prepared" else image.convert("L")
                images[located.page] = np.asarray(grey)
            members = [j for j, w in enumerate(words) if w.line == line and line is not None] or [i]
            crop = _line_crop(images[located.page], [words[j] for j in members])
            reading = rapid.read([crop], options.ocr.languages)[0]
            aligned = second_readings([words[j].text for j in members], [t for t, *_ in reading.words] or reading.text.split())
            line_readings[key] = dict(zip(members, aligned))
        found.append(line_readings[key].get(i))
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m pipeline.devkit.secondreads", description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, required=True, help="an ocrcertainty --out folder whose scans are read")
    parser.add_argument("--set", choices=list(CORPUS_SETS), default="corpus")
    parser.add_argument("--sheets", default="")
    parser.add_argument("--show", action="store_true")
    parser.add_argument("--image", choices=("scanned", "prepared"), default="scanned",
                        help="the page RapidOCR reads: as scanned, or as prepared for Tesseract (what the pass reads)")
    args = parser.parse_args(argv)
    chosen = {s for s in args.sheets.split(",") if s}
    total: dict[str, Counter[str]] = defaultdict(Counter)
    for sheet in CORPUS_SETS[args.set]:
        if chosen and sheet.name not in chosen:
            continue
        if not (CORPUS / sheet.folder / sheet.sheet).is_file():
            print(f"{sheet.name:22} skipped: not in the development corpus")
            continue
        counts = measure(args.out, sheet, args.show, args.image)
        for kind, tally in counts.items():
            total[kind].update(tally)
            print(f"{sheet.name:22} {kind:12} " + "  ".join(f"{c} {tally[c]:3d}" for c in COUNTS), flush=True)
    for kind in KINDS:
        if kind in total:
            print(f"{'all':22} {kind:12} " + "  ".join(f"{c} {total[kind][c]:3d}" for c in COUNTS))
    everything = sum(total.values(), Counter())
    print(f"{'all':22} {'every kind':12} " + "  ".join(f"{c} {everything[c]:3d}" for c in COUNTS))
    return 0


if __name__ == "__main__":
    sys.exit(main())
