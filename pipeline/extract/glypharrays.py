"""A page's positioned glyphs, one array per property: what the layout works on.

    glyphs = GlyphArrays.from_glyphs([Glyph(...), ...])   # OCR words, or a text page with words spliced in
    glyphs = GlyphArrays(text=[...], x0=..., ...)          # a text page read by `glyphs.page_glyphs`
    glyphs.glyphs([3, 4])                                  # Glyph objects, made only when asked for

Layout sorts, groups and measures a page's 1,000-5,000 glyphs with numpy over these arrays; a Glyph
object per character costs more than the geometry done this way. Glyph objects are made only where a
caller needs them (a patched page, OCR's segments), and arrays made from objects hand back those same
objects, so what the layout marks (`set_bold`) is seen on them too.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

import numpy as np


@dataclass(slots=True)
class Glyph:
    text: str
    x0: float
    top: float
    x1: float
    bottom: float
    size: float
    highlighted: bool = False
    seq: int = 0  # position in the content stream
    space_after: bool = False  # the content stream has a space (real or generated) after this glyph
    bold: bool = False  # a bold font, or the same glyph printed twice (simulated bold)
    run: object = None  # OCR: the Tesseract line that read this word (None on the text layer)
    # Text layer: the font gives no Unicode for this glyph (or only a private-use point); its text is a
    # stand-in until OCR reads the span it stands in (`pipeline.extract.inked.unmapped_spans`).
    unmapped: bool = False
    conf: float | None = None  # OCR: Tesseract's confidence in the word, 0–100 (None on the text layer)
    second: str | None = None  # OCR: what the second recogniser read there (None: not read again; `ocr.agreement`)

    @property
    def center_y(self) -> float:
        return (self.top + self.bottom) / 2


NO_RUN = -1


@dataclass(eq=False)
class GlyphArrays:
    """Per glyph: `text`, the box (`x0`, `top`, `x1`, `bottom`; float64) and `size`, flags, `seq`, and
    `run` (an index into `runs`, the OCR lines; `NO_RUN` on the text layer)."""

    text: list[str]
    x0: np.ndarray
    top: np.ndarray
    x1: np.ndarray
    bottom: np.ndarray
    size: np.ndarray
    highlighted: np.ndarray
    seq: np.ndarray
    space_after: np.ndarray
    bold: np.ndarray
    unmapped: np.ndarray
    run: np.ndarray
    runs: list[object] = field(default_factory=list)
    conf: list[float | None] | None = None
    objects: list[Glyph] | None = None  # the Glyph objects these arrays stand for, made once asked for
    # The code point of each glyph's one-character text, where the reader has them at hand (a text layer):
    # `text_ids` and `codes` are then these, not read back from the texts one by one.
    code_points: np.ndarray | None = None

    def __len__(self) -> int:
        return len(self.text)

    @classmethod
    def from_glyphs(cls, glyphs: list[Glyph]) -> GlyphArrays:
        run_ids: dict[object, int] = {}
        runs: list[object] = []
        run = []
        for glyph in glyphs:
            if glyph.run is None:
                run.append(NO_RUN)
                continue
            if glyph.run not in run_ids:
                run_ids[glyph.run] = len(runs)
                runs.append(glyph.run)
            run.append(run_ids[glyph.run])

        def floats(name: str) -> np.ndarray:
            return np.array([getattr(g, name) for g in glyphs], dtype=np.float64)

        def flags(name: str) -> np.ndarray:
            return np.array([bool(getattr(g, name)) for g in glyphs], dtype=bool)

        return cls(
            text=[g.text for g in glyphs], x0=floats("x0"), top=floats("top"), x1=floats("x1"), bottom=floats("bottom"),
            size=floats("size"), highlighted=flags("highlighted"), seq=np.array([g.seq for g in glyphs], dtype=np.int64),
            space_after=flags("space_after"), bold=flags("bold"), unmapped=flags("unmapped"), run=np.array(run, dtype=np.int64),
            runs=runs, conf=[g.conf for g in glyphs], objects=list(glyphs),
        )

    def kept_and_added(self, keep: np.ndarray, added: list[Glyph]) -> GlyphArrays:
        """The glyphs `keep` marks, in their order, then `added`: the arrays `from_glyphs` makes of those
        glyphs' objects (the same values and dtypes, `code_points` and `objects` left to be made when
        asked for), without making an object per kept glyph. A text page with OCR's words spliced in
        (`patches`) keeps its thousands of glyphs and adds a few words."""
        if self.runs:  # OCR lines to number again with the added ones': rare, made as `from_glyphs` makes them
            return GlyphArrays.from_glyphs([g for g, kept in zip(self.to_glyphs(), keep.tolist()) if kept] + added)
        extra = GlyphArrays.from_glyphs(added)
        at = np.flatnonzero(keep)

        def joined(name: str, dtype) -> np.ndarray:
            return np.concatenate((getattr(self, name)[at].astype(dtype), getattr(extra, name).astype(dtype)))

        conf = self.conf or [None] * len(self)
        return GlyphArrays(
            text=[self.text[i] for i in at.tolist()] + extra.text,
            x0=joined("x0", np.float64), top=joined("top", np.float64), x1=joined("x1", np.float64),
            bottom=joined("bottom", np.float64), size=joined("size", np.float64), highlighted=joined("highlighted", bool),
            seq=joined("seq", np.int64), space_after=joined("space_after", bool), bold=joined("bold", bool),
            unmapped=joined("unmapped", bool), run=joined("run", np.int64), runs=extra.runs,
            conf=[conf[i] for i in at.tolist()] + list(extra.conf or []),
        )

    # Python lists of the arrays, for the loops over a few glyphs at a time (a row, a segment).
    @cached_property
    def x0s(self) -> list[float]:
        return self.x0.tolist()

    @cached_property
    def x1s(self) -> list[float]:
        return self.x1.tolist()

    @cached_property
    def text_ids(self) -> np.ndarray:
        """Per glyph, a number that two glyphs share exactly when their texts are equal: the code point
        where every text is one character (a text layer), else numbered by first appearance (OCR words)."""
        if self.code_points is not None:
            return self.code_points.astype(np.int64)
        try:
            return np.fromiter(map(ord, self.text), dtype=np.int64, count=len(self.text))
        except TypeError:  # a text of other than one character
            ids: dict[str, int] = {}
            return np.fromiter((ids.setdefault(text, len(ids)) for text in self.text), dtype=np.int64, count=len(self.text))

    @cached_property
    def codes(self) -> np.ndarray | None:
        """Per glyph, the code point of its text where every text is one character (a text layer), else None."""
        if self.code_points is not None:
            return self.code_points.astype(np.uint32)
        try:
            return np.fromiter(map(ord, self.text), dtype=np.uint32, count=len(self.text))
        except TypeError:  # a text of other than one character
            return None

    @cached_property
    def tops(self) -> list[float]:
        return self.top.tolist()

    @cached_property
    def bottoms(self) -> list[float]:
        return self.bottom.tolist()

    @cached_property
    def run_list(self) -> list[int]:
        return self.run.tolist()

    @cached_property
    def seq_list(self) -> list[int]:
        return self.seq.tolist()

    @cached_property
    def space_after_list(self) -> list[bool]:
        return self.space_after.tolist()

    def to_glyphs(self) -> list[Glyph]:
        """A Glyph per glyph (the same objects on every call)."""
        if self.objects is None:
            runs = self.runs
            conf = self.conf or [None] * len(self)
            self.objects = [
                Glyph(text, x0, top, x1, bottom, size, high, seq, space, bold, runs[run] if run != NO_RUN else None, stand_in, c)
                for text, x0, top, x1, bottom, size, high, seq, space, bold, run, stand_in, c in zip(
                    self.text, self.x0s, self.top.tolist(), self.x1s, self.bottom.tolist(), self.size.tolist(),
                    self.highlighted.tolist(), self.seq.tolist(), self.space_after.tolist(), self.bold.tolist(),
                    self.run.tolist(), self.unmapped.tolist(), conf,
                )
            ]
        return self.objects

    def glyphs(self, indices) -> list[Glyph]:
        everything = self.to_glyphs()
        return [everything[i] for i in np.asarray(indices).tolist()]

    def set_bold(self, index: int) -> None:
        """Mark one glyph bold, on its object too when there is one."""
        self.bold[index] = True
        if self.objects is not None:
            self.objects[index].bold = True
