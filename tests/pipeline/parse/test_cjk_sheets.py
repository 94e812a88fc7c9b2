"""Japanese and Chinese sheets read by a spec alone (issue 26, "any script, any layout").

The sheets are generated as their exams print them (`pipeline.devkit.sample.cjksheets`): a Japanese common-test
sheet (parts `第１問` whose `問１` restart, full-width digits, options ①–④ in a row or one a line, the key a ruled
table per part) and a Chinese gaokao sheet (`一、选择题`, `1．`, options `A．`–`D．` in a 2×2 grid, fill-in questions
after them, the key a list `1．B　2．D`). The specs in `pipeline/devkit/sample/cjkspecs/` were written from the docs alone, with
plain digits and stops (`^第\\s*1\\s*問`, `\\d{1,2}\\.`): full-width forms are folded where text is compared
(`pipeline.widths`), and records keep the text as printed.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from pipeline.cli import main as examcorpus
from pipeline.devkit.sample.cjksheets import CJK_SPECS, KANA, WIDE_CAPITALS, CjkSet, chinese_gaokao, japanese_center
from pipeline.devkit.sample.pdfgen import cjk_font
from pipeline.diagnostics import Severity
from pipeline.languages import all_languages, language
from pipeline.report import FileReport
from pipeline.specs import load_spec
from tests.pipeline.parse.conftest import run_family

pytestmark = pytest.mark.skipif(cjk_font() is None, reason="fonts-noto-cjk is not installed")

SPECS = CJK_SPECS
# Each family: its spec, its sheet, and the labels the sheet prints (the records hold the spec's).
FAMILIES = {
    "ja": ("ja_center_test", japanese_center, {}),  # ①–④ in a row (part 1), one a line (part 2)
    "ja-kana": ("ja_center_kana_test", japanese_center, {"labels": KANA}),  # bare ア–エ in a row, one a line
    "zh": ("zh_gaokao_test", chinese_gaokao, {}),  # A．–D． in a 2×2 grid
    "zh-wide": ("zh_gaokao_test", chinese_gaokao, {"labels": WIDE_CAPITALS}),  # Ａ．–Ｄ．, the key's answers Ｂ, Ｄ…
}


def _parsed(root: Path, family: str, damaged: bool):
    name, build, printing = FAMILIES[family]
    printed: CjkSet = build(root / family / ("damaged" if damaged else "clean") / "2031", damaged=damaged, **printing)
    result = run_family(load_spec(str(SPECS / f"{name}.yaml")), printed.sheet, [printed.key], {"year": "2031"})
    return printed, result


@pytest.fixture(scope="module", params=sorted(FAMILIES))
def clean(request, tmp_path_factory):
    return _parsed(tmp_path_factory.mktemp("cjk"), request.param, damaged=False)


@pytest.fixture(scope="module", params=["ja", "zh"])
def damaged(request, tmp_path_factory):
    return _parsed(tmp_path_factory.mktemp("cjk-damaged"), request.param, damaged=True)


def _same(printed: str, read: str) -> bool:
    """Text compared as the stream gives it: runs of white space (the ideographic space too) are one space."""
    return " ".join(printed.split()) == " ".join(read.split())


def test_the_language_files_load_and_name_their_tesseract_data():
    assert {"ja", "zh"} <= set(all_languages())
    ja, zh = language("ja"), language("zh")
    assert (ja.script, ja.codes.tesseract, ja.spelling) == ("Han", ["jpn"], None)
    assert (zh.script, zh.codes.tesseract, zh.spelling) == ("Han", ["chi_sim"], None)
    assert ja.prompt.answer in ja.answer_words and zh.prompt.answer in zh.answer_words


@pytest.mark.parametrize("name", sorted({name for name, _, _ in FAMILIES.values()}))
def test_specs_check_accepts_a_spec_in_each_language(name, capsys):
    assert examcorpus(["specs", "check", "--skip-ocr-check", str(SPECS / f"{name}.yaml")]) == 0
    assert f"ok ({name})" in capsys.readouterr().out


def test_every_question_its_options_and_its_answer_are_read_exactly(clean):
    printed, result = clean
    found = {q.number: q for q in result.questions}
    assert sorted(found) == sorted(printed.expected()), "every printed question, numbered as the record holds it"
    for number, truth in printed.expected().items():
        question = found[number]
        assert _same(truth.stem, question.question), number
        assert len(question.choices) == len(truth.options), number
        assert all(_same(t, c) for t, c in zip(truth.options, question.choices)), (number, question.choices)
        spec_labels = list(load_spec(str(SPECS / f"{question.source}.yaml")).layout.options.labels)
        if truth.options:
            assert question.choice_labels == spec_labels[:len(truth.options)], number
        assert question.answer == (None if truth.answer is None else spec_labels[printed.labels.index(truth.answer)]), number
        # An info flag says what was set aside (the page number `－ １ －` after the last options): no fault of the record.
        assert [f for f in question.flags if f.severity is not Severity.INFO] == [], (number, question.flags)
    assert result.problems == []


def test_numbers_are_plain_and_the_text_keeps_its_full_width_forms(clean):
    printed, result = clean
    assert all(q.number.isascii() for q in result.questions)
    text = "".join(q.question + "".join(q.choices) for q in result.questions)
    assert any(ch in text for ch in "（）＝，１") and "(" not in text.replace("（", "")


def test_a_question_printed_without_its_header_is_flagged_and_counted_in_the_report(damaged):
    printed, result = damaged
    found = {q.number: q for q in result.questions}
    assert printed.lost
    for number in printed.lost:  # placed by the numbering around it, never silently
        assert number in found and "parse.number_inferred" in found[number].flag_codes, number
    for number, truth in printed.expected().items():
        assert found[number].answer == truth.answer, number
        assert [f for f in found[number].flags if f.severity is not Severity.INFO] == [], number
    report = FileReport(url="sheet.pdf", role="sheet", status="ok", sha256=None)
    report.add_parse(result.questions, [str(p) for p in result.problems])
    assert report.flagged == len(printed.lost)


def _spaces_between_wide_glyphs(texts: list[str]) -> int:
    import unicodedata

    def wide(ch: str) -> bool:
        return unicodedata.east_asian_width(ch) in "WF"
    return sum(1 for t in texts for i in range(1, len(t) - 1) if t[i] == " " and wide(t[i - 1]) and wide(t[i + 1]))


@pytest.mark.slow
def test_a_scanned_japanese_sheet_reads_its_sentences_solid_as_printed(tmp_path):
    """Tesseract's Japanese data sets spaces between pieces of a sentence (`川 の流れが 速く`); Japanese sets none, so
    pieces an em apart are joined (language data `word_spaces: false`, pass `wide-glyph-gaps`). Measured on this sheet
    at 200 dpi: 36 such spaces in the options before, 2 after."""
    from pipeline.devkit.sample.scansetting import ScanSetting
    from pipeline.extract.ocr.engine import installed_languages

    if "jpn" not in installed_languages():
        pytest.skip("Tesseract data jpn is not installed")
    printed = japanese_center(tmp_path / "text" / "2031")
    scanned = tmp_path / "scan" / "2031"
    scanned.mkdir(parents=True)
    for clean in (printed.sheet, printed.key):
        ScanSetting.parse("200/0.6/80").rasterise(clean, scanned / clean.name, seed=0)
    result = run_family(load_spec(str(SPECS / "ja_center_test.yaml")), scanned / "sheet.pdf", [scanned / "key.pdf"], {"year": "2031"})
    options = [c for q in result.questions for c in q.choices]
    assert len(result.questions) == 8 and len(options) >= 24
    assert _spaces_between_wide_glyphs(options) <= 6
