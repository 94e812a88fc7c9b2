"""Options printed two or three per row, or all on one row (issue 26, items 3 and 4): circled ①–⑤ on a
Korean maths sheet, Latin A.–D. in two rows of two, Greek α.–δ. and Hangul 가.–라. on one row. Each is a
real PDF extracted through the text layer; options set a few spaces apart stay one layout segment at the
default `segment_gap`, so the parser must find each option from its own label on the line. Every option
text must come out exact, and circled labels must be keyed end to end from a key printing ③ or 3."""
from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium
import pytest

from pipeline.devkit.sample.pdfgen import CJK_FONT, TextBox, cjk_font
from pipeline.extract import ExtractOptions, extract_document
from pipeline.parse import Recovery, find_options, line_stream, option_start_regex
from tests.pipeline.parse.repertoire_sheets import LEFT, OPTION_INDENT, ROW, SIZE, by_number, pdf, run, spec

needs_cjk = pytest.mark.skipif(cjk_font() is None, reason="Hangul sheets need fonts-noto-cjk (make system-packages)")
CIRCLED = ["①", "②", "③", "④", "⑤"]
KO_QUESTION_START = r"^(?P<number>\d{1,2})\.\s+(?=\S)"


def _sheet(path: Path, questions: list[tuple[str, list[list[str] | str]]], font: str = "DejaVuSans") -> Path:
    """Questions 1, 2, … each a stem, then rows of options: a string is one row set as one text run
    (options a few spaces apart: one layout segment), a list is one row of options each at its own
    column (34 mm apart)."""
    boxes, y = [], 20.0
    for number, (stem, rows) in enumerate(questions, start=1):
        boxes.append(TextBox(f"{number}. {stem}", LEFT, y, 170, size=SIZE, font=font))
        y += ROW + 1
        for row in rows:
            cells = [row] if isinstance(row, str) else row
            for column, cell in enumerate(cells):
                boxes.append(TextBox(cell, LEFT + OPTION_INDENT + 34 * column, y, 160 if isinstance(row, str) else 32, size=SIZE, font=font))
            y += ROW
        y += 3
    return pdf(path, boxes)


# --------------------------------------------------------------------------- circled ①–⑤, Korean maths

KOREAN_MATHS = [
    ("함수 f(x)=x²+1 에 대하여 f(2)의 값은? [2점]", ["① 1   ② 3   ③ 5   ④ 7   ⑤ 9"]),
    ("다음 중 가장 큰 수는? [3점]", ["① 2√3   ② 3√2   ③ 4", "④ 5√2   ⑤ 6"]),
    ("방정식 2x−6=0 의 해는?", [["① 1", "② 2", "③ 3", "④ 4", "⑤ 5"]]),
    ("다음 중 옳은 것은? [3점]", [["① 사각형은 변이 넷", "② 삼각형은 변이 넷", "③ 원은 꼭짓점이 셋"], ["④ 오각형은 변이 넷", "⑤ 육각형은 변이 다섯"]]),
    ("수열 1, 3, 5, … 의 제10항은?", ["①15  ②17  ③19  ④21  ⑤23"]),
    ("<보기>에서 옳은 것만을 있는 대로 고른 것은?", ["<보기>", "ㄱ. 1 + 1 = 2", "ㄴ. 2 × 3 = 6", "ㄷ. 3 − 1 = 1",
                                          "① ㄱ   ② ㄷ   ③ ㄱ, ㄴ   ④ ㄴ, ㄷ   ⑤ ㄱ, ㄴ, ㄷ"]),
]
KOREAN_CHOICES = {
    "1": ["1", "3", "5", "7", "9"],
    "2": ["2√3", "3√2", "4", "5√2", "6"],
    "3": ["1", "2", "3", "4", "5"],
    "4": ["사각형은 변이 넷", "삼각형은 변이 넷", "원은 꼭짓점이 셋", "오각형은 변이 넷", "육각형은 변이 다섯"],
    "5": ["15", "17", "19", "21", "23"],
    "6": ["ㄱ", "ㄷ", "ㄱ, ㄴ", "ㄴ, ㄷ", "ㄱ, ㄴ, ㄷ"],
}
KOREAN_KEY = {"1": "③", "2": "⑤", "3": "③", "4": "①", "5": "③", "6": "③"}


def _korean_spec(labels: list[str] | None = None):
    return spec(
        layout={"question_start": KO_QUESTION_START},
        options={"labels": labels or CIRCLED, "styles": ["A."], "min_count": 4},
        key={"entry": r"(?P<number>\d{1,2})\s*번\s*(?P<answer>\S)"},
    )


@pytest.fixture(scope="module")
def korean(tmp_path_factory) -> tuple[Path, Path]:
    root = tmp_path_factory.mktemp("ko") / "2031"
    sheet = _sheet(root / "sheet.pdf", KOREAN_MATHS, font=CJK_FONT)
    # The key prints circled answers for some questions and plain digits for others.
    entries = [f"{n}번 {a if int(n) % 2 else str(CIRCLED.index(a) + 1)}" for n, a in KOREAN_KEY.items()]
    key = pdf(root / "key.pdf", [TextBox("정답", LEFT, 20, 80, size=SIZE, font=CJK_FONT)] + [
        TextBox(e, LEFT, 28 + ROW * i, 80, size=SIZE, font=CJK_FONT) for i, e in enumerate(entries)
    ])
    return sheet, key


@needs_cjk
def test_circled_options_in_one_row_and_in_rows_of_two_and_three_are_read_exactly(korean):
    result = run(_korean_spec(), *korean)
    found = by_number(result)
    assert {n: q.choices for n, q in found.items()} == KOREAN_CHOICES
    assert all(q.choice_labels == CIRCLED for q in found.values()), "records hold the labels as the spec declares them"
    assert found["2"].question == "다음 중 가장 큰 수는? [3점]"
    assert found["6"].question.endswith("ㄷ. 3 − 1 = 1"), "the <보기> box's ㄱ. ㄴ. ㄷ. lines stay in the stem"
    assert all(q.type == "single_choice" for q in found.values())


@needs_cjk
def test_circled_labels_are_keyed_from_a_key_printing_circled_or_plain_digits(korean):
    result = run(_korean_spec(), *korean)
    assert {q.number: q.answer for q in result.questions} == KOREAN_KEY
    assert all(q.flags == [] for q in result.questions), [q.flags for q in result.questions]
    assert result.problems == []


# --------------------------------------------------------------------------- A.–D. two by two, α–δ, 가–라


def test_latin_options_in_two_rows_of_two_are_read_exactly(tmp_path):
    sheet = _sheet(tmp_path / "2031" / "sheet.pdf", [
        ("¿Cuánto mide la hipotenusa de un triángulo de catetos 3 y 4?", ["A. 5 cm   B. 7 cm", "C. 12 cm   D. 25 cm"]),
        ("¿Qué protocolo envía correo?", [["A. SMTP", "B. FTP"], ["C. DNS", "D. DHCP"]]),
        ("¿Capital de Portugal?", ["A. Lisboa   B. Oporto   C. Braga   D. Faro"]),
    ])
    found = by_number(run(spec(options={"styles": ["A."]}), sheet))
    assert found["1"].choices == ["5 cm", "7 cm", "12 cm", "25 cm"]
    assert found["2"].choices == ["SMTP", "FTP", "DNS", "DHCP"]
    assert found["3"].choices == ["Lisboa", "Oporto", "Braga", "Faro"]
    assert found["1"].question == "¿Cuánto mide la hipotenusa de un triángulo de catetos 3 y 4?"
    assert all(q.choice_labels == ["A", "B", "C", "D"] for q in found.values())


def test_greek_options_in_one_row_are_read_exactly(tmp_path):
    sheet = _sheet(tmp_path / "2031" / "sheet.pdf", [
        ("Ποια είναι η τιμή του 2 + 3;", ["α. 4   β. 5   γ. 6   δ. 7"]),
        ("Ποιο είναι ευγενές αέριο;", ["α. οξυγόνο   β. ήλιο   γ. άζωτο   δ. υδρογόνο"]),
    ])
    found = by_number(run(spec(options={"labels": ["α", "β", "γ", "δ"], "styles": ["A."]}), sheet))
    assert found["1"].choices == ["4", "5", "6", "7"]
    assert found["2"].choices == ["οξυγόνο", "ήλιο", "άζωτο", "υδρογόνο"]
    assert found["2"].choice_labels == ["α", "β", "γ", "δ"]


@needs_cjk
def test_hangul_labels_in_one_row_and_two_by_two_are_read_exactly(tmp_path):
    sheet = _sheet(tmp_path / "2031" / "sheet.pdf", [
        ("다음 중 과일은?", ["가. 사과   나. 의자   다. 연필   라. 책상"]),
        ("다음 중 동물은?", ["가. 고양이   나. 바위", "다. 구름   라. 나무"]),
    ], font=CJK_FONT)
    the_spec = spec(layout={"question_start": KO_QUESTION_START}, options={"labels": ["가", "나", "다", "라"], "styles": ["A."]})
    found = by_number(run(the_spec, sheet))
    assert found["1"].choices == ["사과", "의자", "연필", "책상"]
    assert found["2"].choices == ["고양이", "바위", "구름", "나무"]
    assert found["1"].choice_labels == ["가", "나", "다", "라"]


def test_a_label_letter_inside_an_option_text_does_not_split_it(tmp_path):
    """Only a later label of the sequence, standing where a label stands, opens an option: 'B' or 'A.'
    inside a text stays in it."""
    sheet = _sheet(tmp_path / "2031" / "sheet.pdf", [
        ("¿Qué vitamina falta?", ["A. vitamina B   B. vitamina A. C   C. hierro   D. zinc"]),
    ])
    found = by_number(run(spec(options={"styles": ["A."]}), sheet))
    assert found["1"].choices == ["vitamina B", "vitamina A. C", "hierro", "zinc"]


@pytest.mark.parametrize(("style", "printed"), [("A:", "{}: "), ("[A]", "[{}] "), ("A -", "{} - ")])
def test_options_in_a_row_are_split_in_any_declared_style(tmp_path, style, printed):
    labels = ["А", "Б", "В", "Г"]  # Cyrillic
    row = "   ".join(printed.format(label) + text for label, text in zip(labels, ["Москва", "Киев", "Минск", "Рига"]))
    sheet = _sheet(tmp_path / "2031" / "sheet.pdf", [("Столица России?", [row])])
    found = by_number(run(spec(options={"labels": labels, "styles": [style]}), sheet))
    assert found["1"].choices == ["Москва", "Киев", "Минск", "Рига"]
    assert found["1"].choice_labels == labels


def test_bare_labels_along_one_row_are_split_at_each_label(tmp_path):
    """Bare labels ('A' style: a letter in a filled circle) read as words along a row: the row opens with
    A and goes on B, C, D, each followed by its own text; a stem line naming points "A B C" is no row."""
    sheet = _sheet(tmp_path / "2031" / "sheet.pdf", [
        ("Los puntos A B C forman un triángulo de lados 3 y 4: ¿la hipotenusa?", ["A 5 cm   B 7 cm   C 12 cm   D 25 cm"]),
    ])
    found = by_number(run(spec(options={"styles": ["A"]}), sheet))
    assert found["1"].choices == ["5 cm", "7 cm", "12 cm", "25 cm"]
    assert found["1"].question == "Los puntos A B C forman un triángulo de lados 3 y 4: ¿la hipotenusa?"


@pytest.mark.parametrize(("row", "labels", "font"), [
    ("A. 5 cm   B. 7 cm   C. Lisboa y Oporto   D. 25 cm", ["A", "B", "C", "D"], "DejaVuSans"),
    ("① 사각형은 변이 넷  ② 삼각형  ③ 원은 꼭짓점이 셋  ④ 넷  ⑤ 다섯", CIRCLED, CJK_FONT),
])
def test_each_option_of_a_row_stands_where_its_label_is_printed(tmp_path, row, labels, font):
    """The pieces of a split row are placed at their labels' own glyphs (the extraction records where
    words start after a wide gap), not at a share of the line's width by character count."""
    if font == CJK_FONT and cjk_font() is None:
        pytest.skip("Hangul sheets need fonts-noto-cjk (make system-packages)")
    sheet = pdf(tmp_path / "sheet.pdf", [TextBox(row, LEFT + OPTION_INDENT, 27, 170, size=SIZE, font=font)])
    document = extract_document(sheet, "0" * 64, ExtractOptions())
    [line] = document.pages[0].lines
    found = find_options(line_stream(document, labels=labels, reader=Recovery.every().line_reader(labels)), labels, option_start_regex(labels, ["A."]))
    textpage = pdfium.PdfDocument(str(sheet))[0].get_textpage()
    printed = [textpage.get_charbox(i, loose=True)[0] for i in range(textpage.count_chars()) if textpage.get_text_range(i, 1) in labels]
    assert [o.label for o in found.options] == labels
    assert [round(o.first.line.x0, 1) for o in found.options] == pytest.approx([round(x, 1) for x in printed], abs=0.15)


def test_a_justified_paragraph_records_no_wide_gaps(tmp_path):
    """Only gaps wider than the line's own word spaces are recorded: a justified line stretches all its
    spaces alike, so the extraction keeps nothing for it (and the extracted JSON does not grow)."""
    text = " ".join(["La prueba consta de dos partes y cada una tiene sus propias preguntas de reserva."] * 4)
    sheet = pdf(tmp_path / "sheet.pdf", [TextBox(text, LEFT, 27, 120, size=SIZE, align="J")])
    lines = extract_document(sheet, "0" * 64, ExtractOptions()).pages[0].lines
    assert len(lines) >= 3
    assert all(line.wide_gap_starts == [] for line in lines)
