"""`layout.options.under_words`: items whose options are underlined parts of their own sentence, each
marked by a label printed under it ("find the part that is wrong"), three items under one shared
instruction (issue 26, item 10). Each record keeps the whole sentence as its stem, the instruction as
its context, and the labelled parts as its options.

Real PDFs drawn with fpdf2 (DejaVu Sans): the sentence, a rule under each part, and its label centred
under the part in a smaller size; the real extraction and parser. English and Russian sheets; a Greek
sheet kept aside as the checking sheet."""
from __future__ import annotations

import hashlib
import shutil
import textwrap
from pathlib import Path

import pytest
import yaml
from fpdf import FPDF

from pipeline.acquire import ManifestEntry
from pipeline.devkit.sample.pdfgen import rasterize_pdf
from pipeline.extract import ExtractOptions, extract_document
from pipeline.parse import parse_sheet
from pipeline.specs import parse_spec

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
SPEC = textwrap.dedent(
    r"""
    name: cloze_family
    description: A generated family of find-the-wrong-part items.
    metadata: {country: XX, language: en, exam: test, subject: test}
    ocr: {languages: [eng]}
    local: {files: [{role: sheet, pattern: '(?P<year>\d{4})\.pdf$'}]}
    pairing: {'on': [year], key_required: false}
    layout:
      question_start: '^(?P<number>\d{1,2})\.\s'
      context_start: '^(Mark|Укажите|Σημειώστε|다음)'
      options: {labels: [A, B, C, D], styles: [A], under_words: true}
    key: {kind: highlight}
    """
)

# Each item: the sentence as words, and the indexes of the parts its labels stand under (a tuple of
# two indexes is a part of two words).
ENGLISH = ("Mark the letter of the underlined part that needs correction in each of the following sentences.", [
    ("The boys has gone to the old school yesterday with their parents".split(), [2, 3, (5, 6), 8]),
    ("She do not like the cold weather of the northern mountains at all".split(), [1, 4, 5, 9]),
    ("My father often go fishing in the river near our small village".split(), [2, 3, 6, 9]),
])
RUSSIAN = ("Укажите подчёркнутую часть предложения, в которой есть ошибка.", [
    ("Вчера мальчики пошёл в старую школу вместе с родителями".split(), [1, 2, 4, 8]),
    ("Она не любят холодную погоду северных гор зимой".split(), [0, 2, (3, 4), 7]),
    ("Мой отец часто ходят на рыбалку к реке у деревни".split(), [1, 3, 5, 9]),
])
GREEK = ("Σημειώστε το υπογραμμισμένο μέρος της πρότασης που είναι λάθος.", [
    ("Τα παιδιά πήγε χθες στο παλιό σχολείο με τους γονείς τους".split(), [1, 2, 5, 9]),
    ("Η μητέρα μου αγαπούν πολύ τα λουλούδια του κήπου".split(), [1, 3, 6, 8]),
    ("Ο πατέρας μου ψαρεύουν συχνά στο ποτάμι του χωριού".split(), [1, 3, (4, 5), 8]),
])


KOREAN = ("다음 문장에서 어법상 틀린 부분을 고르시오.", [
    ("나는 어제 친구들과 함께 도서관에 갔습니다 그리고 책을 읽었다".split(), [1, 3, 5, 8]),
    ("그 학생은 매일 아침 일찍 학교에 가요 그리고 공부를 합니다".split(), [0, (2, 3), 5, 8]),
    ("우리 가족은 주말마다 공원에서 산책을 했었다 하지만 오늘은 비가 온다".split(), [1, 2, 4, 8]),
])


def sheet(path: Path, instruction: str, items, size: float = 11, font: tuple[str, int] | None = None) -> Path:
    pdf = FPDF(unit="pt", format="A4")
    pdf.add_page()
    if font is None:
        pdf.add_font("DejaVu", "", FONT)
    else:  # a font collection (Noto Sans CJK) and the face in it
        pdf.add_font("DejaVu", "", font[0], collection_font_number=font[1])
    pdf.set_font("DejaVu", size=size)
    pdf.text(57, 60, instruction[:90])
    y = 100.0
    for number, (words, parts) in enumerate(items, start=1):
        x = 57.0
        line = [f"{number}."] + words
        at = []  # (left, right) of each word of the sentence
        for word in line:
            at.append((x, x + pdf.get_string_width(word)))
            x += pdf.get_string_width(word + " ")
        pdf.text(57, y, " ".join(line))
        pdf.set_font("DejaVu", size=size * 0.75)
        for label, part in zip("ABCD", parts):
            first, last = (part, part) if isinstance(part, int) else part
            left, right = at[first + 1][0], at[last + 1][1]
            pdf.line(left, y + 2, right, y + 2)
            pdf.text((left + right) / 2 - pdf.get_string_width(label) / 2, y + 11, label)
        pdf.set_font("DejaVu", size=size)
        y += 45
    pdf.output(str(path))
    return path


def expected(items) -> list[list[str]]:
    return [[" ".join(words[i] for i in ((p,) if isinstance(p, int) else p)) for p in parts] for words, parts in items]


def read(path: Path, language: str = "en", under_words: bool = True) -> list:
    data = yaml.safe_load(SPEC)
    data["metadata"]["language"] = language
    data["layout"]["options"]["under_words"] = under_words
    the_spec = parse_spec(data, "cloze_family.yaml")
    sha = hashlib.sha256(path.read_bytes()).hexdigest()
    document = extract_document(path, sha, ExtractOptions.from_spec(the_spec))
    entry = ManifestEntry(url=path.as_uri(), final_url=path.as_uri(), spec=the_spec.name, role="sheet",
                          facts={"year": "2031"}, status="local", sha256=sha, path=str(path))
    return parse_sheet(document, entry, [], the_spec).questions


@pytest.mark.parametrize("instruction, items, language", [(*ENGLISH, "en"), (*RUSSIAN, "en")], ids=["english", "russian"])
def test_labels_under_words_make_the_parts_the_options_and_the_sentence_the_stem(tmp_path, instruction, items, language):
    found = read(sheet(tmp_path / "2031.pdf", instruction, items), language)
    assert [q.number for q in found] == ["1", "2", "3"]
    assert [list(q.choices) for q in found] == expected(items)
    assert all(q.type == "single_choice" and list(q.choice_labels) == ["A", "B", "C", "D"] for q in found)
    assert [q.question for q in found] == [" ".join(words) for words, _ in items]
    assert all(q.context and q.context.startswith(instruction[:20]) for q in found)


def test_without_the_switch_the_label_row_is_not_read_as_options(tmp_path):
    found = read(sheet(tmp_path / "2031.pdf", *ENGLISH), under_words=False)
    assert not any(list(q.choices) == parts for q, parts in zip(found, expected(ENGLISH[1])))


def test_checking_sheet_greek(tmp_path):
    found = read(sheet(tmp_path / "2031.pdf", *GREEK), "el")
    assert [list(q.choices) for q in found] == expected(GREEK[1])


def test_hangul_sentences_with_labels_under_their_words(tmp_path):
    from pipeline.devkit.sample.pdfgen import CJK_COLLECTION_KOREAN, cjk_font

    collection = cjk_font()
    if collection is None:
        pytest.skip("needs fonts-noto-cjk")
    found = read(sheet(tmp_path / "2031.pdf", *KOREAN, font=(str(collection), CJK_COLLECTION_KOREAN)), "ko")
    assert [list(q.choices) for q in found] == expected(KOREAN[1])
    assert [q.question for q in found] == [" ".join(words) for words, _ in KOREAN[1]]


def test_inspect_shows_each_label_under_its_word(tmp_path):
    from pipeline.devkit import inspect_sheet

    data = yaml.safe_load(SPEC)
    inspection = inspect_sheet(sheet(tmp_path / "2031.pdf", *ENGLISH), parse_spec(data, "cloze_family.yaml"),
                               ocr_cache_dir=tmp_path / "ocr")
    rules = [line.rule for line in inspection.lines if line.text in ("A", "B", "C", "D")]
    assert rules[:4] == ["option label A (under the word(s) 'has')", "option label B (under the word(s) 'gone')",
                         "option label C (under the word(s) 'the old')", "option label D (under the word(s) 'yesterday')"]


@pytest.mark.skipif(shutil.which("tesseract") is None, reason="needs Tesseract with English data")
@pytest.mark.parametrize("dpi, blur, quality", [(300, 0.4, 90), (150, 0.8, 70)])
def test_a_scan_reads_the_same_parts_and_a_label_the_scan_lost_is_flagged(tmp_path, dpi, blur, quality):
    source = sheet(tmp_path / "source.pdf", *ENGLISH)
    found = read(rasterize_pdf(source, tmp_path / "2031.pdf", dpi=dpi, blur=blur, jpeg_quality=quality))
    assert [q.number for q in found] == ["1", "2", "3"]
    for question, parts in zip(found, expected(ENGLISH[1])):
        by_label = dict(zip("ABCD", parts))
        read_parts = dict(zip(question.choice_labels, question.choices))
        if len(read_parts) < 4:  # a label the scan lost: said on the record, never silent
            said = {"parse.label_skipped", "parse.too_few_options", "parse.lost_labels"}  # whichever names the loss
            assert said & set(question.flag_codes), question.flag_codes
        matching = sum(text == by_label[label] for label, text in read_parts.items())
        assert matching >= len(read_parts) - 1, (question.number, read_parts)  # a speck may stick to one word
    if dpi == 300:
        assert [list(q.choices) for q in found] == expected(ENGLISH[1])


def wrapped_sheet(path: Path, lines: list[list[str]], parts: list[tuple[int, int]], size: float = 11) -> Path:
    """One item whose sentence wraps over `lines`; `parts` are (line, word) places, labelled A, B, C, D."""
    pdf = FPDF(unit="pt", format="A4")
    pdf.add_page()
    pdf.add_font("DejaVu", "", FONT)
    pdf.set_font("DejaVu", size=size)
    pdf.text(57, 60, ENGLISH[0][:90])
    places = {}
    for row, words in enumerate(lines):
        y = 100.0 + row * 24
        words = (["1."] if row == 0 else []) + words
        x = 57.0 if row == 0 else 57.0 + pdf.get_string_width("1. ")
        for index, word in enumerate(words):
            places[(row, index - (1 if row == 0 else 0))] = (x, x + pdf.get_string_width(word), y)
            x += pdf.get_string_width(word + " ")
        pdf.text(57.0 if row == 0 else 57.0 + pdf.get_string_width("1. "), y, " ".join(words))
    pdf.set_font("DejaVu", size=size * 0.75)
    for label, place in zip("ABCD", parts):
        left, right, y = places[place]
        pdf.line(left, y + 2, right, y + 2)
        pdf.text((left + right) / 2 - pdf.get_string_width(label) / 2, y + 11, label)
    pdf.output(str(path))
    return path


def test_a_sentence_wrapped_over_two_lines_has_a_label_row_under_each(tmp_path):
    lines = ["The children has been playing football in".split(), "the park since they was very young".split()]
    found = read(wrapped_sheet(tmp_path / "2031.pdf", lines, [(0, 2), (0, 5), (1, 1), (1, 4)]))
    assert [list(q.choices) for q in found] == [["has", "football", "park", "was"]]
    assert " ".join(found[0].question.split()) == " ".join(lines[0] + lines[1])
