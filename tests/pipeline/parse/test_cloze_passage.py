"""`layout.cloze_marker`: a passage with numbered blanks, and under it one item per blank printing only
its options on one row (issue 26, item 10). Each record keeps the passage as its context and gets, as
its stem, the passage's sentence that holds its blank; an item whose blank the passage lacks is flagged.

Real generated PDFs (pdfgen, DejaVu), the real extraction and parser; an English and a Russian sheet,
a Hangul sheet with circled labels, and a Vietnamese sheet (stacked diacritics) kept aside as the
checking sheet."""
from __future__ import annotations

import hashlib
import textwrap
from pathlib import Path

import pytest
import yaml

from pipeline.acquire import ManifestEntry
from pipeline.devkit.sample.pdfgen import CJK_FONT, PageSpec, TextBox, build_pdf, item_bottom
from pipeline.extract import ExtractOptions, extract_document
from pipeline.parse import parse_sheet
from pipeline.specs import parse_spec

SPEC = textwrap.dedent(
    r"""
    name: cloze_family
    description: A generated family of cloze passages.
    metadata: {country: XX, language: en, exam: test, subject: test}
    ocr: {languages: [eng]}
    local: {files: [{role: sheet, pattern: '(?P<year>\d{4})\.pdf$'}]}
    pairing: {'on': [year], key_required: false}
    layout:
      question_start: '^(?P<number>\d{1,2})\.\s'
      context_start: '^(Read|Прочитайте|Đọc|다음)'
      cloze_marker: '\((?P<number>\d{1,2})\)\s*_+'
      options: {labels: [A, B, C, D], styles: ['A.']}
    key: {kind: highlight}
    """
)

ENGLISH = (
    "Read the text and choose the word that fits each gap.",
    ["Last summer my family (21) ____ to the sea. We stayed in a small hotel near the beach. "
     "Every morning we (22) ____ in the warm water, and in the evening we walked along the shore. "
     "It was the best holiday we (23) ____ ever had."],
    [("21", ["go", "went", "gone", "going"]), ("22", ["swim", "swam", "swum", "swims"]),
     ("23", ["has", "have", "had", "having"])],
)
RUSSIAN = (
    "Прочитайте текст и выберите слово для каждого пропуска.",
    ["Прошлым летом моя семья (21) ____ на море. Мы жили в маленькой гостинице у пляжа. "
     "Каждое утро мы (22) ____ в тёплой воде, а вечером гуляли по берегу."],
    [("21", ["ездила", "ездил", "ездили", "ездит"]), ("22", ["плавали", "плавал", "плавала", "плавает"])],
)
VIETNAMESE = (
    "Đọc đoạn văn và chọn từ phù hợp cho mỗi chỗ trống.",
    ["Mùa hè năm ngoái gia đình tôi (21) ____ ra biển. Chúng tôi ở một khách sạn nhỏ gần bãi biển. "
     "Mỗi buổi sáng chúng tôi (22) ____ trong làn nước ấm."],
    [("21", ["đi", "đã đi", "sẽ đi", "đang đi"]), ("22", ["bơi", "đã bơi", "sẽ bơi", "đang bơi"])],
)


KOREAN = (
    "다음 글을 읽고 빈칸에 들어갈 말로 가장 적절한 것을 고르시오.",
    ["지난 여름 우리 가족은 바다에 (21) ____ 갔다. 우리는 해변 근처의 작은 호텔에 머물렀다. "
     "매일 아침 우리는 따뜻한 물에서 (22) ____ 수영했다."],
    [("21", ["함께", "혼자", "다시", "아직"]), ("22", ["오래", "잠깐", "전혀", "거의"])],
)
CIRCLED = ["①", "②", "③", "④"]


def sheet(path: Path, instruction: str, passage: list[str], items, labels=("A.", "B.", "C.", "D."),
          font: str = "DejaVuSans") -> Path:
    boxes, y = [], 20.0
    for text in [instruction, *passage]:
        box = TextBox(text, 20, y, 170, size=11, font=font)
        boxes.append(box)
        y = item_bottom(box) + 3
    for number, options in items:
        row = "    ".join(f"{label} {text}" for label, text in zip(labels, options))
        box = TextBox(f"{number}. {row}", 20, y, 170, size=11, font=font)
        boxes.append(box)
        y = item_bottom(box) + 3
    return build_pdf(path, [PageSpec(tuple(boxes))])


def read(path: Path, language: str, marker: bool = True, labels: list[str] | None = None) -> list:
    data = yaml.safe_load(SPEC)
    data["metadata"]["language"] = language
    if labels:
        data["layout"]["options"] = {"labels": labels}
    if not marker:
        del data["layout"]["cloze_marker"]
    the_spec = parse_spec(data, "cloze_family.yaml")
    sha = hashlib.sha256(path.read_bytes()).hexdigest()
    document = extract_document(path, sha, ExtractOptions.from_spec(the_spec))
    entry = ManifestEntry(url=path.as_uri(), final_url=path.as_uri(), spec=the_spec.name, role="sheet",
                          facts={"year": "2031"}, status="local", sha256=sha, path=str(path))
    return parse_sheet(document, entry, [], the_spec).questions


def sentence_with(passage: str, number: str) -> str:
    return next(s for s in passage.replace(". ", ".\n").split("\n") if f"({number})" in s)


@pytest.mark.parametrize("material, language", [(ENGLISH, "en"), (RUSSIAN, "en")], ids=["english", "russian"])
def test_each_item_gets_the_sentence_of_its_blank_as_stem_and_the_passage_as_context(tmp_path, material, language):
    instruction, passage, items = material
    found = read(sheet(tmp_path / "2031.pdf", instruction, passage, items), language)
    assert [q.number for q in found] == [n for n, _ in items]
    assert [list(q.choices) for q in found] == [options for _, options in items]
    assert [q.question for q in found] == [sentence_with(passage[0], n) for n, _ in items]
    assert all(q.context and f"({n})" in q.context for q, (n, _) in zip(found, items))


def test_without_the_marker_the_items_have_no_stem(tmp_path):
    found = read(sheet(tmp_path / "2031.pdf", *ENGLISH), "en", marker=False)
    assert [q.question for q in found] == ["", "", ""]


def test_an_item_whose_blank_the_passage_lacks_is_flagged_not_guessed(tmp_path):
    instruction, passage, items = ENGLISH
    found = read(sheet(tmp_path / "2031.pdf", instruction, passage, [*items, ("24", ["a", "b", "c", "d"])]), "en")
    last = found[-1]
    assert last.number == "24" and last.question == ""
    assert "parse.cloze_marker_not_found" in last.flag_codes


def test_checking_sheet_vietnamese(tmp_path):
    instruction, passage, items = VIETNAMESE
    found = read(sheet(tmp_path / "2031.pdf", instruction, passage, items), "vi")
    assert [q.question for q in found] == [sentence_with(passage[0], n) for n, _ in items]
    assert [list(q.choices) for q in found] == [options for _, options in items]


def test_a_hangul_passage_with_circled_labels(tmp_path):
    instruction, passage, items = KOREAN
    path = sheet(tmp_path / "2031.pdf", instruction, passage, items, labels=CIRCLED, font=CJK_FONT)
    found = read(path, "ko", labels=CIRCLED)
    assert [q.question for q in found] == [sentence_with(passage[0], n) for n, _ in items]
    assert [list(q.choices) for q in found] == [options for _, options in items]
    assert [list(q.choice_labels) for q in found] == [CIRCLED, CIRCLED]
