"""`extract.accents` knows a code point's kind (combining mark, spacing accent), its combining mark and whether it is
a letter by working out the code points a page holds, once each, not the whole BMP up front: the answers are Unicode's,
the same for every code point as the plane worked out whole."""
from __future__ import annotations

import unicodedata

import numpy as np

from pipeline.extract import accents


def _whole_plane() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(kind, mark, letter) over the BMP, every code point worked out up front (the tables as they were built)."""
    kind = np.zeros(0x10000, dtype=np.int8)
    mark = np.zeros(0x10000, dtype=np.int64)
    for code in range(0x10000):
        ch = chr(code)
        if unicodedata.category(ch) == "Mn" and unicodedata.combining(ch):
            kind[code] = 1
            continue
        decomposed = unicodedata.normalize("NFKD", ch)
        if len(decomposed) == 2 and decomposed[0] == " " and unicodedata.combining(decomposed[1]):
            kind[code], mark[code] = 2, ord(decomposed[1])
    for ch, combining in {"\u02c6": "\u0302", "\u02c7": "\u030c", "\u02ca": "\u0301", "\u02cb": "\u0300", "`": "\u0300",
                          "^": "\u0302", "~": "\u0303", "\u02c9": "\u0304"}.items():
        kind[ord(ch)], mark[ord(ch)] = 2, ord(combining)
    letter = np.array([unicodedata.category(chr(c))[0] == "L" for c in range(0x10000)])
    return kind, mark, letter


def test_every_code_point_answers_as_the_whole_plane_worked_out_up_front():
    kind, mark, letter = _whole_plane()
    fresh = (accents._CodeTable(lambda code: accents._kind_and_mark(code)[0], np.int8),
             accents._CodeTable(lambda code: accents._kind_and_mark(code)[1], np.int64),
             accents._CodeTable(lambda code: int(unicodedata.category(chr(code))[0] == "L"), np.int8))
    rng = np.random.default_rng(7)
    # asked page by page, in pieces and repeats, as pages ask: then the whole plane at once
    for codes in [rng.integers(0, 0x10000, 500) for _ in range(20)] + [np.arange(0x10000)]:
        assert np.array_equal(fresh[0][codes], kind[codes])
        assert np.array_equal(fresh[1][codes], mark[codes])
        assert np.array_equal(fresh[2][codes] == 1, letter[codes])
    assert fresh[0][np.arange(0x10000)].dtype == np.int8 and (kind == 2).sum() > 30 and (kind == 1).sum() > 500


def test_past_the_plane_no_code_is_a_mark_or_a_letter():
    codes = np.array([0x1D400, 0x10FFFF, 0x301, ord("a")])  # a mathematical bold A, the last code point, a mark, a letter
    assert accents.mark_kinds(codes).tolist() == [0, 0, 1, 0]
    assert accents._LETTERS[codes].tolist() == [0, 0, 0, 1]


def test_a_page_asks_only_about_the_code_points_it_holds():
    table = accents._CodeTable(lambda code: accents._kind_and_mark(code)[0], np.int8)
    page = np.array([ord(c) for c in "Żółć gęślą jaźń\u00b4"])
    assert table[page].tolist()[-1] == 2  # the spacing acute
    assert int((table.values >= 0).sum()) == len(set(page.tolist()))
    assert table[np.zeros(0, dtype=np.int64)].tolist() == []
