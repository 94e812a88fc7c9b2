"""A key printed with one column per booklet type names each in its header; on a scan the name may come back as a
look-alike (the Korean model reads the Latin `A` of "유형 A" as `4`). The header is the booklet type the spec
declares that its look-alikes spell (`bookletlabels`), and a header no declared type matches is reported, its
column's answers given to no booklet type."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from pipeline.devkit.keyscans import read_key, same_answer
from pipeline.devkit.sample.keysheets import CIRCLED, KeySheet
from pipeline.devkit.sample.layoutkeysheets import _variant_table
from pipeline.devkit.sample.pdfgen import CJK_FONT, build_pdf, cjk_font, rasterize_pdf
from pipeline.parse.bookletlabels import BookletLabels
from pipeline.specs import KeySpec
from tests.pipeline.extract.ocr.builders import needs_tesseract

needs_cjk = pytest.mark.skipif(cjk_font() is None, reason="fonts-noto-cjk is not installed")


def _scan(sheet: KeySheet, folder: Path, dpi: int) -> Path:
    source = build_pdf(folder / f"{sheet.name}.pdf", sheet.pages)
    return rasterize_pdf(source, folder / f"{sheet.name}-{dpi}.pdf", dpi=dpi, blur=0.6, jpeg_quality=80, seed=0)


def _right(sheet: KeySheet, answers: dict[str, str]) -> int:
    return sum(same_answer(answers.get(n, ""), a) for n, a in sheet.truth.items())


def _right_or_reported(sheet: KeySheet, table) -> bool:
    """Every entry read right, or its cell reported unread (none wrong, none lost), most of them read."""
    unread = set(table.unread)
    right = _right(sheet, table.answers)
    return right + len(unread - set(table.answers)) == len(sheet.truth) and right >= 0.9 * len(sheet.truth)


def _hangul_key(chosen: int, booklets: tuple[str, ...] = ("A", "B"), declared: tuple[str, ...] = ()) -> KeySheet:
    sheet = _variant_table("booklets-hangul", "정답표", "문항", "유형 {booklet}", booklets, chosen, 30, CIRCLED, ("kor",), CJK_FONT,
                           (22.0, 30.0), 0)
    return replace(sheet, key={**sheet.key, "variants": list(declared)}) if declared else sheet


@needs_cjk
@needs_tesseract("kor")
@pytest.mark.parametrize("chosen, declared, columns", [(1, (), ["4", "B"]), (0, ("A", "B"), ["A", "B"])])
def test_latin_booklet_letters_beside_hangul_read_as_digits_are_the_booklets_they_look_like(tmp_path, chosen, declared, columns):
    # At 200 dpi the Korean model reads the header "유형 A" as "유형 4" and "유형 B" as "유형 8". Booklet B is the sheet's
    # own (no booklet types declared: 8 is B's look-alike, and 4 stands as read); booklet A, with both declared (4 is A's).
    sheet = _hangul_key(chosen, declared=declared)
    table = read_key(_scan(sheet, tmp_path, 200), sheet)
    assert _right_or_reported(sheet, table), (table.answers, table.unread, table.problems)
    assert table.variants == columns and table.problems == []


@needs_tesseract("ell")
def test_greek_booklet_letters_on_a_greek_key_are_read_as_the_declared_booklets(tmp_path):
    sheet = _variant_table("greek-typos", "ΑΠΑΝΤΗΣΕΙΣ", "Ερώτηση", "ΤΥΠΟΣ {booklet}", ("Α", "Β"), 1, 20, ("Α", "Β", "Γ", "Δ"), ("ell",),
                           "DejaVuSans", (26.0, 32.0), 3)
    sheet = replace(sheet, key={**sheet.key, "variants": ["Α", "Β"]})
    table = read_key(_scan(sheet, tmp_path, 200), sheet)
    assert _right_or_reported(sheet, table), (table.answers, table.unread, table.problems)
    assert table.variants == ["Α", "Β"] and table.problems == []


@needs_cjk
def test_a_header_no_declared_booklet_matches_is_reported_and_its_answers_go_to_no_booklet(tmp_path):
    # The key prints booklets A, B and C; the spec declares A and B only.
    sheet = _hangul_key(1, booklets=("A", "B", "C"), declared=("A", "B"))
    table = read_key(build_pdf(tmp_path / "key.pdf", sheet.pages), sheet)
    assert _right(sheet, table.answers) == len(sheet.truth)
    assert table.variants == ["A", "B", "C"]  # C's column stands as read: no declared booklet takes its answers
    assert [p for p in table.problems if "'C'" in str(p) and "none of the declared ['A', 'B']" in str(p)], table.problems
    other = _hangul_key(0, booklets=("A", "B", "C"), declared=("A", "B"))
    assert _right(other, read_key(build_pdf(tmp_path / "key-a.pdf", other.pages), other).answers) == len(other.truth)


def test_a_look_alike_two_headers_of_a_row_give_is_given_to_neither():
    labels = BookletLabels.of(KeySpec(kind="variant_table", variant_header=r"Tipo\s*(?P<variant>\w)", variant="B", variants=["A", "B"]))
    assert labels.name_row(["4", "8"]) == (["A", "B"], [])
    named, problems = labels.name_row(["8", "6"])  # both read like B: neither is
    assert named == ["8", "6"] and len(problems) == 2
    named, problems = labels.name_row(["B", "8"])  # one reads B itself: it keeps B, the look-alike gets none
    assert named == ["B", "8"] and len(problems) == 1 and "'8'" in problems[0]
    named, problems = labels.name_row(["4"], ocr=False)  # a text layer is taken as printed
    assert named == ["4"] and len(problems) == 1


def test_without_declared_booklets_only_the_sheets_own_is_matched_and_nothing_else_is_reported():
    labels = BookletLabels.of(KeySpec(kind="variant_table", variant_header=r"Tipo\s*(?P<variant>\w)", variant_pattern=r"(?P<variant>\w)"),
                              variant="B")
    assert labels.name_row(["4", "8"]) == (["4", "B"], [])  # 4 may be a booklet type the spec does not name


def test_declared_booklets_need_a_header_and_hold_the_fixed_one():
    with pytest.raises(ValueError, match="variant_header"):
        KeySpec(kind="list", entry=r"(?P<number>\d+)\s+(?P<answer>\w)", variants=["A", "B"])
    with pytest.raises(ValueError, match="none of variants"):
        KeySpec(kind="variant_table", variant_header=r"Tipo\s*(?P<variant>\w)", variant="C", variants=["A", "B"])
