"""The word spaces of a row, which tell a justified line's stretched spaces from the gaps that cut a row
into segments (`layout._segment_rows` asks them only for a gap wide enough to cut).

- `WordSpaces`: one row's, line by line (a text layer's content-stream runs, or OCR's lines): the reference.
- `StreamSpaces`: the same answers for all the rows of a text-layer page at once, as arrays (a page without
  OCR words and with no two glyphs of a row at one place in the content stream; else None, and the rows'
  `WordSpaces` serve).
"""
from __future__ import annotations

import re
import statistics
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from pipeline.extract.glypharrays import NO_RUN, GlyphArrays

__all__ = ["JUSTIFIED_MAX_GAP", "JUSTIFIED_MIN_SPACE", "SPACE_SPREAD", "StreamSpaces", "WordSpaces", "justified_space"]

JUSTIFIED_MAX_GAP = 4.0  # font sizes: the widest space of a justified line; wider is a gutter or a tab stop
SPACE_SPREAD = 1.5  # a justified line stretches all its spaces alike: none is wider than this × their median
JUSTIFIED_MIN_SPACE = 0.8  # font sizes: a stretched line's median space (a plain one is 0.25-0.35)
_OPENS_AN_ITEM = re.compile(r"^[(\[]?(?:\w|\d{1,3})[.):\]]$|^\d+$")


@dataclass
class WordSpaces:
    """The word spaces of one row, line by line: on the text layer a line is a run of glyphs that follow
    each other in the content stream, a space where the stream has one; on a scan it is the words
    Tesseract read as one line, each gap between them a space. Per line, the median space, and per
    space the word it opens."""

    median: dict[object, float] = field(default_factory=dict)
    # (glyph before, glyph after) -> (the line of the space, the word it opens)
    spaces: dict[tuple[int, int], tuple[object, str]] = field(default_factory=dict)

    @classmethod
    def of(cls, source: GlyphArrays, glyphs: list[int]) -> WordSpaces:
        """From a row's glyphs (indices into `source`), sorted by x."""
        spaces = cls()
        gaps: dict[object, list[float]] = {}
        last: dict[int, int] = {}
        text, runs, seqs, space_after = source.text, source.run_list, source.seq_list, source.space_after_list
        x0s, x1s = source.x0s, source.x1s

        def add(line: object, before: int, after: int, word: str) -> None:
            gaps.setdefault(line, []).append(x0s[after] - x1s[before])
            spaces.spaces[(before, after)] = (line, word)

        for glyph in glyphs:  # OCR: every neighbour in one Tesseract line is a space away
            run = runs[glyph]
            if run == NO_RUN:
                continue
            if run in last:
                add(("ocr", run), last[run], glyph, text[glyph])
            last[run] = glyph
        stream = sorted((g for g in glyphs if runs[g] == NO_RUN), key=seqs.__getitem__)
        chain_number = 0
        for at, glyph in enumerate(stream):
            follows = at and seqs[glyph] == seqs[stream[at - 1]] + 1
            if at and not follows:
                chain_number += 1
            if follows and space_after[stream[at - 1]]:
                word = ""
                for following in stream[at:]:
                    word += text[following]
                    if space_after[following]:
                        break
                add(("stream", chain_number), stream[at - 1], glyph, word)
        spaces.median = {line: statistics.median(values) for line, values in gaps.items()}
        return spaces

    @staticmethod
    def may_be_justified(source: GlyphArrays, previous: int, glyph: int, gap: float, size: float) -> bool:
        """False where `justified` is False whatever the row's spaces (most wide gaps: a gutter, a tab
        stop), so the row's spaces need not be read: too wide, or no space of one line lies there (glyphs
        of one OCR line, or neighbours in the content stream with a space between them)."""
        if gap > JUSTIFIED_MAX_GAP * size:
            return False
        runs = source.run_list
        if runs[previous] == NO_RUN and runs[glyph] == NO_RUN:
            return source.seq_list[glyph] == source.seq_list[previous] + 1 and source.space_after_list[previous]
        return runs[previous] == runs[glyph]

    def justified(self, previous: int, glyph: int, gap: float, size: float) -> bool:
        """Whether a wide gap is a space of a justified line, stretched like all its others: a short
        justified line spreads its words across the column ("denúncia   do   locador,   a   qualquer"),
        and its median space is wide too. Not a gap much wider than the line's other spaces (a column
        gutter read across), nor one before a label or a number ("B)", "12.", a bare "B"), which opens a
        grid's next cell, nor one wider than a justified line ever spaces its words."""
        space = self.spaces.get((previous, glyph))
        if space is None:
            return False
        line, word = space
        return justified_space(gap, size, self.median[line], word)


def justified_space(gap: float, size: float, median: float, word: str) -> bool:
    """`WordSpaces.justified` for a space `gap` wide on a row of this `size`, whose line's median space is
    `median`, before `word`."""
    return (
        gap <= JUSTIFIED_MAX_GAP * size and median >= JUSTIFIED_MIN_SPACE * size and gap <= SPACE_SPREAD * median
        and not _OPENS_AN_ITEM.match(word) and not (len(word) == 1 and word.isupper())
    )


@dataclass(eq=False)
class StreamSpaces:
    """`WordSpaces.of` of every row of a text-layer page at once. The rows' glyphs (`flat`, each row's
    after the one before, `row_of` each glyph's row) sorted by row and then by place in the content stream
    (`order`): a line is a run of glyphs of one row that follow each other in the stream, a space lies
    between two of them where the stream has one after the first, and a line's median space is the median
    of its spaces' widths (as `statistics.median` gives it)."""

    source: GlyphArrays
    glyphs: np.ndarray  # the rows' glyphs in (row, stream) order
    rows: np.ndarray  # the row of each
    place: np.ndarray  # where each glyph of `flat` stands in `glyphs`
    line: np.ndarray  # the line of each glyph of `glyphs`
    median: np.ndarray  # each line's median space (NaN where it has none)

    @cached_property
    def glyph_list(self) -> list[int]:
        return self.glyphs.tolist()

    @cached_property
    def row_list(self) -> list[int]:
        return self.rows.tolist()

    @classmethod
    def of(cls, source: GlyphArrays, flat: np.ndarray, row_of: np.ndarray) -> StreamSpaces | None:
        """None where `WordSpaces` must serve: a glyph OCR read, two glyphs of a row at one place in the
        stream, or a space whose width is NaN (`statistics.median` orders a NaN by position)."""
        if source.runs or not len(flat):
            return None
        seq = source.seq[flat]
        order = np.lexsort((seq, row_of))  # stable: `sorted` by seq of each row's glyphs
        glyphs, rows, seqs = flat[order], row_of[order], seq[order]
        same_row = rows[1:] == rows[:-1]
        if (same_row & (seqs[1:] == seqs[:-1])).any():
            return None
        follows = same_row & (seqs[1:] == seqs[:-1] + 1)
        opens = np.ones(len(glyphs), dtype=bool)
        opens[1:] = ~follows
        line = np.cumsum(opens) - 1
        before = np.flatnonzero(follows & source.space_after[glyphs[:-1]])  # a space between glyphs[k] and glyphs[k + 1]
        gaps = source.x0[glyphs[before + 1]] - source.x1[glyphs[before]]
        if np.isnan(gaps).any():
            return None
        line_of_space = line[before + 1]
        lines = int(line[-1]) + 1
        ordered = gaps[np.lexsort((gaps, line_of_space))]
        counts = np.bincount(line_of_space, minlength=lines)
        first = np.concatenate(([0], np.cumsum(counts)[:-1]))
        middle = np.minimum(first + counts // 2, max(len(ordered) - 1, 0))
        median = np.full(lines, np.nan)
        if len(ordered):
            odd, even = ordered[middle], (ordered[np.maximum(middle - 1, 0)] + ordered[middle]) / 2
            median = np.where(counts == 0, np.nan, np.where(counts % 2 == 1, odd, even))
        place = np.empty(len(flat), dtype=np.int64)
        place[order] = np.arange(len(flat))
        return cls(source, glyphs, rows, place, line, median)

    def justified(self, position: int, previous: int, glyph: int, gap: float, size: float) -> bool:
        """`WordSpaces.of(row).justified(previous, glyph, gap, size)` for `glyph`, `flat[position]` (its row's
        glyph after `previous`)."""
        at = int(self.place[position])
        if at == 0 or int(self.glyphs[at - 1]) != previous or int(self.line[at - 1]) != int(self.line[at]):
            return False
        source = self.source
        if not source.space_after_list[previous]:
            return False
        # The word the space opens: the row's glyphs in stream order from `glyph` to the first with a space after it.
        text, space_after, glyphs, rows = source.text, source.space_after_list, self.glyph_list, self.row_list
        word = ""
        for k in range(at, len(glyphs)):
            if rows[k] != rows[at]:
                break
            word += text[glyphs[k]]
            if space_after[glyphs[k]]:
                break
        return justified_space(gap, size, float(self.median[self.line[at]]), word)
