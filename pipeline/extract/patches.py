"""Text pages whose text layer leaves some of their text out: the missing parts read by OCR in place and
spliced into the page's lines, every glyph of the text layer kept as it is.

    find_patch(page, glyphs, number) -> PagePatch | None   what a page needs read (`inked`)
    apply_patches(path, sha256, pages, patches, options, lines_of) -> [Diagnostic]

Two kinds of missing text (`pipeline.extract.inked`): **drawn text**, ink the text layer does not
explain that looks like lines of text (a key table drawn as glyph outlines), and **unmapped glyphs**,
spans of glyphs whose font gives no Unicode (a math font without a ToUnicode map). Both are read by
`ocr.read_masked` (the page with everything else painted white), and the words read become glyphs of
the page (`Glyph.run` set: one Tesseract line's words stay one line), laid out with the text layer's,
so reading order, rows and columns come from the same assembly. The lines holding them are marked
`Line.ocr`, and the report says per page what was read and what could not be
(`Code.DRAWN_TEXT_READ`, `DRAWN_TEXT_UNREAD`, `UNMAPPED_READ`, `UNMAPPED_UNREAD`).

A drawn region at one place on most pages (a logo, a running head set as outlines) is page furniture
and is not read.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

from pipeline.diagnostics import Code, Diagnostic, diagnose
from pipeline.extract import inked
from pipeline.extract.document import Line, Page
from pipeline.extract.layout import Glyph, GlyphArrays
from pipeline.extract.ocr import KEEP_PAD_PT, MaskedRequest, PlacedWord, read_masked

Box = inked.Box
FURNITURE_GRID_PT = 3.0  # drawn regions of one size at one left edge, within this, on many pages are furniture
DRAWN_PAD_PT = 3.0  # around a region of drawn text: the marks above and below its lines
SPAN_LANGUAGE = "eng"  # read with the page's languages in unmapped spans (Tesseract's own default language)
DRAWN_SURE_CONF = 80.0  # a page's drawn text is read as text when one word of it reads this surely


@dataclass
class PagePatch:
    number: int
    glyphs: GlyphArrays  # the page's glyphs as read: kept as arrays, never made objects glyph by glyph
    spans: list[Box] = field(default_factory=list)  # runs of unmapped glyphs
    drawn: list[Box] = field(default_factory=list)  # pieces of drawn text

    def requests(self, languages: tuple[str, ...]) -> list[MaskedRequest]:
        glyphs = self.glyphs
        mapped = np.flatnonzero(~glyphs.unmapped)
        erase = tuple(zip(glyphs.x0[mapped].tolist(), glyphs.top[mapped].tolist(), glyphs.x1[mapped].tolist(), glyphs.bottom[mapped].tolist()))
        asked = []
        if self.spans:
            # A font without a Unicode map is mostly a math font, whose letters are Latin in any script's
            # sheet ("2x + 3y" read with Cyrillic alone came back "2х + зу").
            asked.append(MaskedRequest(self.number, tuple(self.spans), erase, tuple(dict.fromkeys((*languages, SPAN_LANGUAGE)))))
        if self.drawn:
            # Drawn text is read by whole regions: a diacritic or a dot above its line is a piece of its own.
            drawn = tuple((x0 - DRAWN_PAD_PT, top - DRAWN_PAD_PT, x1 + DRAWN_PAD_PT, bottom + DRAWN_PAD_PT)
                          for x0, top, x1, bottom in inked.regions(self.drawn))
            asked.append(MaskedRequest(self.number, drawn, erase))
        return asked


def find_patch(page, glyphs: GlyphArrays, number: int) -> PagePatch | None:
    """What of a (pypdfium2) text page its text layer leaves out, or None."""
    # Glyph objects only for a page with unmapped glyphs, whose spans are found row by row.
    spans = inked.unmapped_spans(glyphs.to_glyphs()) if glyphs.unmapped.any() else []
    drawn = inked.drawn_text_boxes(page)
    return PagePatch(number, glyphs, spans, drawn) if spans or drawn else None


def _furniture(patches: list[PagePatch], page_count: int) -> set[tuple[int, ...]]:
    """Drawn regions (rounded) found at one place on most pages, like `stage._repeated_furniture`."""
    seen: Counter = Counter()
    for patch in patches:
        seen.update({_place(region) for region in inked.regions(patch.drawn)})
    threshold = 2 if page_count <= 4 else max(3, int(0.4 * page_count))
    return {place for place, count in seen.items() if count >= threshold}


def _place(box: Box) -> tuple[int, ...]:
    """Where a region stands across pages: its left edge and size (a logo's height on the page may shift)."""
    x0, top, x1, bottom = box
    return tuple(round(v / FURNITURE_GRID_PT) for v in (x0, x1 - x0, bottom - top))


def apply_patches(
    path: Path,
    sha256: str,
    pages: list[Page],
    patches: list[PagePatch],
    options,
    lines_of: Callable[[GlyphArrays, float, float], list[Line]],
    document=None,
) -> list[Diagnostic]:
    """Read what each patch asks for, splice the words into its page's glyphs and lay the page out
    again (`lines_of`); the report's lines. `document`: the file as the stage holds it open (pypdfium2),
    read from without opening it again; None: opened by the read. OcrUnavailable and OcrError go to
    the caller."""
    furniture = _furniture(patches, len(pages))
    for patch in patches:
        kept = [region for region in inked.regions(patch.drawn) if _place(region) not in furniture]
        patch.drawn = [box for box in patch.drawn if any(_inside(box, region) for region in kept)]
    patches = [p for p in patches if p.spans or p.drawn]
    cache = {"cache_dir": options.ocr_cache_dir, "sha256": sha256} if options.ocr_cache_dir else {}
    requests = [request for p in patches for request in p.requests(options.ocr.languages)]
    words = read_masked(path, requests, options.ocr, workers=options.ocr_workers, document=document, **cache)
    notes: list[Diagnostic] = []
    for patch in patches:
        page = pages[patch.number - 1]
        glyphs, page_notes = _splice(patch, words.get(patch.number, []))
        page.lines = lines_of(glyphs, page.width, page.height)
        notes += page_notes
    return notes


def _inside(box: Box, region: Box, pad: float = 0.0) -> bool:
    return box[0] >= region[0] - pad and box[1] >= region[1] - pad and box[2] <= region[2] + pad and box[3] <= region[3] + pad


def _centre_in(word: PlacedWord, box: Box) -> bool:
    x, y = (word.x0 + word.x1) / 2, (word.top + word.bottom) / 2
    return box[0] - KEEP_PAD_PT <= x <= box[2] + KEEP_PAD_PT and box[1] - KEEP_PAD_PT <= y <= box[3] + KEEP_PAD_PT


def _splice(patch: PagePatch, words: list[PlacedWord]) -> tuple[GlyphArrays, list[Diagnostic]]:
    """The page's glyphs with the words read in place: unmapped glyphs of a span that read give way to
    its words; a span that read nothing keeps its stand-ins (U+FFFD, or the private-use point). The
    page's glyphs stay arrays: a mask drops the stand-ins, the words are added after them."""
    source = patch.glyphs
    keep = np.ones(len(source), dtype=bool)
    notes: list[Diagnostic] = []
    placed: list[PlacedWord] = []
    unread_spans: list[Box] = []
    for span in patch.spans:
        inside = sorted((w for w in words if _centre_in(w, span)), key=lambda w: w.x0)
        if inside:
            candidates = np.flatnonzero(keep & source.unmapped).tolist()
            stand_ins = [i for i in candidates
                         if _inside((float(source.x0[i]), float(source.top[i]), float(source.x1[i]), float(source.bottom[i])), span, 0.5)]
            keep[stand_ins] = False
            placed += _in_span(inside, span, [float(source.size[i]) for i in stand_ins])
        else:
            unread_spans.append(span)
    read_spans = len(patch.spans) - len(unread_spans)
    if read_spans:
        notes.append(diagnose(Code.UNMAPPED_READ, page=patch.number, count=read_spans))
    if unread_spans:
        where = ", ".join(f"({x0:.0f}, {top:.0f})" for x0, top, _, _ in unread_spans[:6]) + (" …" if len(unread_spans) > 6 else "")
        notes.append(diagnose(Code.UNMAPPED_UNREAD, page=patch.number, count=len(unread_spans), where=where))
    regions = [(x0 - DRAWN_PAD_PT, top - DRAWN_PAD_PT, x1 + DRAWN_PAD_PT, bottom + DRAWN_PAD_PT)
               for x0, top, x1, bottom in inked.regions(patch.drawn)]
    drawn_words = [w for w in words if w not in placed and any(_centre_in(w, box) for box in regions)]
    # Ink that only looked like text (arrowheads, icons) reads unsurely: kept out, and said so. Sureness
    # is the page's: one drawn cell of a key may read at 13 ("10." and "C") where its neighbours read at 90.
    sure = any(_sure(w) for w in drawn_words)
    read_regions = [r for r in regions if sure and any(_centre_in(w, r) for w in drawn_words)]
    drawn_words = drawn_words if sure else []
    if read_regions:
        notes.append(diagnose(Code.DRAWN_TEXT_READ, page=patch.number, count=len(read_regions)))
    if len(read_regions) < len(regions):
        unread = [r for r in regions if r not in read_regions]
        where = ", ".join("(" + ", ".join(f"{v:.0f}" for v in r) + ")" for r in unread[:6]) + (" …" if len(unread) > 6 else "")
        notes.append(diagnose(Code.DRAWN_TEXT_UNREAD, page=patch.number, count=len(unread), where=where))
    placed += drawn_words
    added = [
        Glyph(w.text, w.x0, w.top, w.x1, w.bottom, size=max(w.size, 1.0), bold=w.bold, seq=-1, run=("masked", w.line))
        for w in placed
    ]
    return source.kept_and_added(keep, added), notes


def _in_span(words: list[PlacedWord], span: Box, stand_in_sizes: list[float]) -> list[PlacedWord]:
    """The words read in a span, set in the span's own box: from its first glyph's left edge to its last
    one's advance, at its glyphs' height and size, so they sit in their row and touch their neighbours
    as the glyphs they replace did (an OCR box is the ink's, narrower than the glyphs' advances)."""
    size = sorted(stand_in_sizes)[len(stand_in_sizes) // 2] if stand_in_sizes else words[0].size
    placed = [replace(w, top=span[1], bottom=span[3], size=size) for w in words]
    placed[0] = replace(placed[0], x0=min(span[0], placed[0].x0))
    placed[-1] = replace(placed[-1], x1=max(span[2], placed[-1].x1))
    return placed


def _sure(word: PlacedWord) -> bool:
    """A word read surely as text: Tesseract's confidence at least `DRAWN_SURE_CONF` and two letters or
    digits (drawn keys and notes read at 80-97, arrowheads and icons at 0-62)."""
    return word.conf is not None and word.conf >= DRAWN_SURE_CONF and sum(ch.isalnum() for ch in word.text) >= 2
