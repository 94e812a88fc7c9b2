"""Answer keys printed as horizontal grids: a row of question numbers over a row of answers, paired by
position. Sheets are generated PDFs read by the real extractor; a column with no answer is reported,
never filled from its neighbour; other tables on the key are not read as answers."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from pipeline.devkit.sample.pdfgen import PageSpec, TextBox, build_pdf
from pipeline.diagnostics import Code
from pipeline.extract import ExtractedDocument, ExtractOptions, extract_document
from pipeline.parse.gridkeys import read_grid
from pipeline.parse.keys import is_voided
from pipeline.parse.keys import KeyTable
from pipeline.specs import KeySpec
from tests.fixtures.corpus import CORPUS

PITCH = 8.0  # mm between grid columns: two-digit numbers then merge into one extracted line
SIZE = 10


def grid(first: int, answers: list[str | None], y: float, *, labels: tuple[str, str] | None = None,
         pilot: tuple[int, ...] = ()) -> list[TextBox]:
    """Numbers first… over `answers` (None: an empty cell), each centred in its column."""
    x0 = 28.0 if labels else 18.0
    items = [TextBox(labels[0], 6, y, 22, size=SIZE), TextBox(labels[1], 6, y + 6, 22, size=SIZE)] if labels else []
    for i, answer in enumerate(answers):
        x = x0 + PITCH * i
        number = first + i
        items.append(TextBox(f"{number}*" if number in pilot else str(number), x, y, PITCH, size=SIZE, align="C"))
        if answer is not None:
            wide = len(answer) > 2  # a word ("Anulada") set smaller in a wider box, centred on the column
            items.append(TextBox(answer, x - 4 if wide else x, y + 6, PITCH + 8 if wide else PITCH,
                                 size=7 if wide else SIZE, align="C"))
    return items


def title(text: str, y: float) -> TextBox:
    return TextBox(text, 18, y, 170, size=12, bold=True)


def extract(tmp_path: Path, pages: list[list[TextBox]]) -> ExtractedDocument:
    path = build_pdf(tmp_path / "key.pdf", [PageSpec(tuple(items)) for items in pages])
    return extract_document(path, "1" * 64, ExtractOptions())


def read(document: ExtractedDocument, **fields) -> dict[str, KeyTable]:
    return read_grid(document, KeySpec(kind="grid", **fields), "key.pdf")


def keyed(first: int, letters: str) -> dict[str, str]:
    return {str(first + i): letter for i, letter in enumerate(letters)}


def test_two_grids_of_twenty_without_labels_pair_merged_numbers_by_position(tmp_path):
    first, second = "DABDBABCBDADCDCBABBD", "DACDADBCCACDADACADDA"
    document = extract(tmp_path, [[title("GABARITO", 30), *grid(1, list(first), 50), *grid(21, list(second), 64)]])
    # The premise: the extractor merges the close two-digit numbers into one line.
    assert any("10 11 12" in line.text for line in document.pages[0].lines)
    tables = read(document)
    assert sorted(tables) == [""]
    assert tables[""].answers == keyed(1, first) | keyed(21, second)
    assert tables[""].problems == []


def test_grids_of_ten_with_row_labels_and_a_lower_case_key(tmp_path):
    rows = ["abcdeedcba", "cadbebadce"]
    labels = ("Questão", "Gabarito")
    items = [*grid(1, list(rows[0]), 50, labels=labels), *grid(11, list(rows[1]), 66, labels=labels)]
    document = extract(tmp_path, [items])
    table = read(document)[""]
    assert table.answers == keyed(1, rows[0]) | keyed(11, rows[1])
    assert table.problems == [] and table.voided == set()


def test_voided_cells_and_pilot_items_are_recorded(tmp_path):
    answers = ["A", "B", "-", "D", "Anulada", "C", "B", "A", "D", "C"]
    document = extract(tmp_path, [[*grid(1, answers, 50, labels=("Questão", "Resposta"), pilot=(7,))]])
    table = read(document, pilot_mark="*")[""]
    assert table.answers == {str(i + 1): a for i, a in enumerate(answers)}
    assert table.voided == {"3", "5"}
    assert table.pilot == {"7"}
    assert table.problems == []


def test_a_number_with_an_empty_answer_cell_is_reported_not_shifted(tmp_path):
    answers = ["A", "B", "C", "D", None, "B", "C", "D", "A", "B"]
    table = read(extract(tmp_path, [[*grid(1, answers, 50)]]))[""]
    assert table.answers == {str(i + 1): a for i, a in enumerate(answers) if a is not None}
    assert table.problems == ["page 1: questions 1–10: no answer under question(s) 5"]


def test_a_number_row_with_no_answers_under_it_is_reported(tmp_path):
    numbers_only = [TextBox(str(i + 1), 18 + PITCH * i, 50, PITCH, size=SIZE, align="C") for i in range(10)]
    note = TextBox("Observações gerais sobre a prova", 18, 58, 170, size=SIZE)
    items = [*numbers_only, note, *grid(11, list("ABCDABCDAB"), 70)]
    table = read(extract(tmp_path, [items]))[""]
    assert table.answers == keyed(11, "ABCDABCDAB")
    assert table.problems == ["page 1: questions 1–10: no row of answers under the numbers"]


def test_answers_that_fit_no_column_and_differ_in_count_are_reported(tmp_path):
    # A stray mark beyond the last column: eleven answers under ten numbers, nothing guessed.
    items = [*grid(1, list("ABCDABCDAB"), 50), TextBox("C", 18 + PITCH * 12, 56, PITCH, size=SIZE, align="C")]
    table = read(extract(tmp_path, [items]))[""]
    assert table.answers == {}
    assert table.problems == ["page 1: questions 1–10: 11 answers cannot be paired with 10 numbers"]


def numbers_over_answers(numbers: list[int | None], answers: str, y: float) -> list[TextBox]:
    """A grid whose number row holds `numbers` column by column (None: a cell whose number the scan lost)."""
    items = [TextBox(str(n), 18 + PITCH * i, y, PITCH, size=SIZE, align="C") for i, n in enumerate(numbers) if n is not None]
    return items + [TextBox(a, 18 + PITCH * i, y + 6, PITCH, size=SIZE, align="C") for i, a in enumerate(answers)]


def test_numbers_lost_from_a_row_are_put_back_where_the_pitch_says_they_stood(tmp_path):
    # A tilted scan read 88 and 89 as nothing: 87 and 90 stand three pitches apart, and the answer row holds
    # one answer for each column, so the two columns are 88 and 89.
    numbers = [81, 82, 83, 84, 85, 86, 87, None, None, 90, 91, 92]
    table = read(extract(tmp_path, [numbers_over_answers(numbers, "ABCDABCDABCD", 50)]))[""]
    assert table.answers == keyed(81, "ABCDABCDABCD")
    # Each number put back is a line on its question, and its entry rests on the inference.
    assert [p.code for p in table.problems] == [Code.KEY_NUMBER_RESTORED] * 2
    assert [p.concerns.question for p in table.problems] == ["88", "89"]
    assert table.problems[0] == ("key key.pdf: page 1: questions 81–92: question 88's number was not read; put back where the "
                                 "row's pitch places it, and keyed with the answer under that place")
    assert table.inferred == {"88", "89"}


def test_a_skip_in_the_numbers_the_white_does_not_match_is_reported_not_filled(tmp_path):
    # 87 then 90 one pitch apart: nothing stood between them, and nine answers under eight numbers stay unpaired.
    numbers = [81, 82, 83, 84, 85, 86, 87, 90]
    table = read(extract(tmp_path, [numbers_over_answers(numbers, "ABCDABCDA", 50)]))[""]
    assert table.answers == {}
    assert table.problems == ["page 1: questions 81–90: 9 answers cannot be paired with 8 numbers"]


def test_numbers_lost_over_an_answer_row_one_short_are_reported(tmp_path):
    # Two numbers lost and one answer lost too: the restored row (12) and the answers (11) disagree; nothing keyed.
    numbers = [81, 82, 83, 84, 85, 86, 87, None, None, 90, 91, 92]
    items = [item for item in numbers_over_answers(numbers, "ABCDABCDABCD", 50) if not (item.text == "B" and item.x > 18 + PITCH * 8)]
    table = read(extract(tmp_path, [items]))[""]
    assert len(table.answers) == 0
    assert table.problems == ["page 1: questions 81–92: 11 answers cannot be paired with 10 numbers"]


def correspondence_page(variants: list[str] | None) -> list[TextBox]:
    """A table of which question of booklet 1 is which of the others: numbers in rows, no letters (its
    third row happens to increase along the row, like a grid's numbers)."""
    items = [title("TABELA DE CORRESPONDÊNCIA DE QUESTÕES", 30)]
    if variants:
        items += [TextBox(f"TIPO {v}", 40 + 25 * i, 45, 22, size=SIZE) for i, v in enumerate(variants)]
    table = [(1, 7, 12, 3), (2, 8, 1, 4), (3, 9, 13, 20), (4, 1, 2, 5), (5, 2, 4, 1)]
    for r, numbers in enumerate(table):
        items += [TextBox(str(n), 45 + 25 * i, 52 + 6 * r, 10, size=SIZE) for i, n in enumerate(numbers)]
    return items


def test_four_booklet_types_each_get_their_block(tmp_path):
    keys = {"1": "DABDBABCBD", "2": "BABCBDDABD", "3": "ADBDABDADC", "4": "DADBBBCDCC"}
    colours = {"1": "BRANCO", "2": "VERDE", "3": "AMARELO", "4": "AZUL"}
    pages = []
    for pair in (("1", "2"), ("3", "4")):
        items = []
        for block, variant in enumerate(pair):
            y = 40 + 90 * block
            items += [title(f"EXAME DE ORDEM – TIPO {variant} – {colours[variant]}", y),
                      *grid(1, list(keys[variant][:5]), y + 15), *grid(6, list(keys[variant][5:]), y + 30)]
        pages.append(items)
    pages.append(correspondence_page(list(keys)))
    tables = read(extract(tmp_path, pages), variant_header=r"TIPO (?P<variant>\d)", variant="1")
    assert sorted(tables) == ["1", "2", "3", "4"]
    for variant, letters in keys.items():
        assert tables[variant].answers == keyed(1, letters), variant
        assert tables[variant].problems == []
        assert tables[variant].variants == ["1", "2", "3", "4"]


def test_a_table_of_number_pairs_on_a_later_page_is_not_read_as_answers(tmp_path):
    pages = [[*grid(1, list("ABCDEABCDE"), 50)], correspondence_page(None)]
    table = read(extract(tmp_path, pages))[""]
    assert table.answers == keyed(1, "ABCDEABCDE")
    assert table.problems == []


def test_grid_before_any_variant_header_is_reported(tmp_path):
    items = [*grid(1, list("ABCDA"), 40), title("PROVA – TIPO 2", 70), *grid(1, list("DCBAD"), 85)]
    tables = read(extract(tmp_path, [items]), variant_header=r"TIPO (?P<variant>\d)", variant="2")
    assert tables["2"].answers == keyed(1, "DCBAD")
    assert tables["2"].problems == [
        "page 1: questions 1–5 come before any variant header (key.variant_header); not read"
    ]


def test_stop_at_ends_the_key(tmp_path):
    items = [*grid(1, list("ABCDABCDAB"), 50), TextBox("Gabarito da prova discursiva", 18, 70, 170, size=SIZE),
             *grid(1, list("DDDDDDDDDD"), 85)]
    document = extract(tmp_path, [items])
    assert read(document, stop_at=["^Gabarito da prova discursiva"])[""].answers == keyed(1, "ABCDABCDAB")
    # Without stop_at the second grid repeats the numbers with other answers: reported, and left unkeyed.
    unstopped = read(document)[""]
    assert unstopped.answers == {"4": "D", "8": "D"}  # the same answer in both grids
    assert len(unstopped.problems) == 8  # every number but 4 and 8
    assert unstopped.problems[0] == "key key.pdf: question 1 keyed twice (A, D); left unkeyed, as the key gives no one answer"


def test_voided_entries_compare_whole_and_ignoring_case():
    assert is_voided("ANULADA", ["anulada", "-"]) and is_voided(" - ", ["anulada", "-"])
    assert not is_voided("A", ["anulada", "-"]) and not is_voided("Anulada em parte", ["anulada"])


def _truth(folder: Path) -> list[dict]:
    lines = (folder / "truth.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def _reproduced(table: KeyTable, truth: list[dict]) -> int:
    """Truth entries the table gives: the same answer, or voided where the truth says voided."""
    def given(row: dict) -> bool:
        number = row["number"]
        if row.get("voided"):
            return number in table.voided
        return table.answers.get(number) == row["answer"] and number not in table.voided

    return sum(given(row) for row in truth)


@pytest.mark.corpus
@pytest.mark.parametrize(
    "key_pdf, fields, variant, voided",
    [
        ("br_fgv_oab/2017-22/2017-22-as.pdf", {"variant_header": r"TIPO (?P<variant>\d)", "variant": "1"}, "1", 0),
        ("br_inep_revalida/2023-1/revalida_2023_1_gabarito.pdf", {}, "", 7),
    ],
)
def test_real_grid_keys_reproduce_their_truth(key_pdf, fields, variant, voided):
    path = CORPUS / key_pdf
    if not path.is_file():
        pytest.skip(f"{path} is not in the development corpus")
    tables = read(extract_document(path, "1" * 64, ExtractOptions()), **fields)
    truth = _truth(path.parent)
    table = tables[variant]
    assert _reproduced(table, truth) == len(truth)
    assert len(table.voided) == voided
    assert all(not t.problems for t in tables.values())


def test_a_row_label_in_the_answer_line_takes_no_answer_from_its_question(tmp_path):
    # OCR's reading of a key: a short label ("ee" for "정답") set close before the answers, in their line;
    # places estimated along the line drift, and without the labels answers moved to their neighbours.
    answers = ["4", "4", "1", "3", "5", "4", "4", "3", "4", "3", "5", "2"]
    items = [TextBox("No", 4, 40, 10, size=SIZE), TextBox("ee " + "   ".join(answers), 9, 46, 190, size=SIZE)]
    items += [TextBox(str(n + 1), 18.0 + PITCH * n, 40, PITCH, size=SIZE, align="C") for n in range(len(answers))]
    document = extract(tmp_path, [items])
    table = read_grid(document, KeySpec(kind="grid"), "key.pdf", labels=["①", "②", "③", "④", "⑤"])[""]
    assert table.answers == {str(n + 1): a for n, a in enumerate(answers)}, table.problems


def test_an_unread_cell_of_a_booklet_table_is_reported_for_its_question_and_shifts_no_answer(tmp_path):
    from pipeline.devkit.sample.pdfgen import table_items
    from pipeline.parse.keys import read_variant_table

    rows = [("Nr", "Typ A", "Typ B", "Typ C"), ("1", "A", "B", "C"), ("2", "D", "?", "A"), ("3", "B", "C", "D")]
    items, _ = table_items(30, 30, (20, 30, 30, 30), rows, size=11)
    document = extract(tmp_path, [items])
    tables = read_variant_table(document, KeySpec(kind="variant_table", variant_header=r"Typ\s*(?P<variant>\w)", variant="B"), "key.pdf")
    assert tables["B"].answers == {"1": "B", "3": "C"} and tables["B"].unread == ["2"]
    assert tables["C"].answers == {"1": "C", "2": "A", "3": "D"} and tables["C"].unread == []


def test_a_row_label_read_as_a_smaller_number_opens_no_column(tmp_path):
    # OCR's reading of a Hangul row label ("문항") with no model for its script: "2", in the label's own
    # column before 21, 22, …; taken as a question, it keyed question 2 with the answer row's label "ae".
    answers = ["A", "C", "B", "D", "A", "B", "C", "D", "B", "A"]
    items = [TextBox("2", 6, 40, 22, size=SIZE), TextBox("ae", 6, 46, 22, size=SIZE)]
    for i, answer in enumerate(answers):
        items += [TextBox(str(21 + i), 28.0 + PITCH * i, 40, PITCH, size=SIZE, align="C"),
                  TextBox(answer, 28.0 + PITCH * i, 46, PITCH, size=SIZE, align="C")]
    table = read(extract(tmp_path, [items]))[""]
    assert table.answers == keyed(21, "".join(answers)), table.problems
    # a first number that continues the row is a question, however wide its column
    items = [TextBox("20", 6, 40, 22, size=SIZE), TextBox("B", 6, 46, 22, size=SIZE)] + items[2:]
    assert read(extract(tmp_path, [items]))[""].answers == keyed(20, "B" + "".join(answers))
