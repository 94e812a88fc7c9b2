"""Answer-key pages of the layouts publishers print, generated with their truth, for measuring how keys
on scans are read: list keys ("1. A  2. C …" in columns), ruled grids (a row of question numbers over a
row of answers), tables with one column per booklet type, grids of circled digits (①–⑤) under headers
in another script, and tables too wide for one Tesseract line.

Each family is a `KeySheet`: its pages, the answers printed (the truth), the `key:` section and option
labels a spec would declare for it, and the Tesseract languages to read it with. Deterministic: the
same family and seed give the same pages.
"""
from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from pipeline.devkit.sample.pdfgen import CJK_FONT, PageItem, PageSpec, Rect, TextBox, table_items


@dataclass(frozen=True)
class KeySheet:
    """One generated key: pages, truth ({question number: answer}), and what a spec says about it."""

    name: str
    pages: list[PageSpec]
    truth: dict[str, str]
    key: dict  # the spec's `key:` section
    labels: tuple[str, ...]
    languages: tuple[str, ...]
    notes: str = ""
    fonts: tuple[str, ...] = field(default=())  # fonts beyond DejaVu it needs (CJK)


def _answers(count: int, labels: Sequence[str], seed: int) -> list[str]:
    rng = random.Random(seed)
    return [rng.choice(labels) for _ in range(count)]


def list_key(seed: int = 0, *, count: int = 60, columns: int = 4, labels: Sequence[str] = ("A", "B", "C", "D")) -> KeySheet:
    """Entries "n. X" down `columns` unruled columns, numbers counting down each column."""
    answers = _answers(count, labels, seed)
    per_column = -(-count // columns)
    items: list[PageItem] = [TextBox("Klucz odpowiedzi", 20, 18, 170, size=14, bold=True)]
    for index, answer in enumerate(answers):
        column, row = divmod(index, per_column)
        items.append(TextBox(f"{index + 1}. {answer}", 25 + column * 42, 35 + row * 8.5, 30, size=11))
    letters = "".join(labels)
    return KeySheet(
        "list", [PageSpec(items)], {str(n + 1): a for n, a in enumerate(answers)},
        {"kind": "list", "entry": rf"(?<![\w.])(?P<number>\d{{1,3}})\.\s*(?P<answer>[{letters}])\b"}, tuple(labels), ("pol",),
    )


def _grid_block(x: float, y: float, numbers: list[int], answers: list[str], *, first: tuple[str, str], cell: float,
                head: float, size: float, font: str = "DejaVuSans", answer_font: str = "DejaVuSans") -> tuple[list[PageItem], float]:
    """A ruled grid block: a row label cell and one cell per question, numbers over answers."""
    items: list[PageItem] = []
    height = size * 0.6
    for r, (label, texts, face) in enumerate(((first[0], [str(n) for n in numbers], font), (first[1], answers, answer_font))):
        top = y + r * height
        items.append(Rect(x, top, head, height, line_width=0.25))
        items.append(TextBox(label, x + 1, top + height * 0.2, head - 2, size=size * 0.8, font=font, align="C"))
        for i, text in enumerate(texts):
            left = x + head + i * cell
            items.append(Rect(left, top, cell, height, line_width=0.25))
            items.append(TextBox(text, left, top + height * 0.2, cell, size=size * 0.8, font=face, align="C"))
    return items, y + 2 * height


def grid_key(seed: int = 0, *, count: int = 60, per_row: int = 20, labels: Sequence[str] = ("A", "B", "C", "D", "E"),
             booklets: Sequence[str] = ("1",), header: str = "TIPO {booklet}", row_labels: tuple[str, str] = ("Questão", "Resposta"),
             languages: tuple[str, ...] = ("por",), font: str = "DejaVuSans", size: float = 12, cell: float = 8.0,
             page_size: str = "A4", name: str = "grid") -> KeySheet:
    """Ruled grids of `per_row` questions per block; with several `booklets`, one titled group of blocks
    per booklet type (its answers shuffled), the spec choosing the first."""
    items: list[PageItem] = [TextBox("GABARITO DEFINITIVO", 20, 15, 170, size=14, bold=True, font=font)]
    y = 30.0
    truth: dict[str, str] = {}
    for b, booklet in enumerate(booklets):
        answers = _answers(count, labels, seed + b)
        if b == 0:
            truth = {str(n + 1): a for n, a in enumerate(answers)}
        if len(booklets) > 1 or "{booklet}" not in header:
            items.append(TextBox(header.format(booklet=booklet), 15, y, 120, size=size, bold=True, font=font))
            y += 9
        for start in range(0, count, per_row):
            numbers = list(range(start + 1, min(count, start + per_row) + 1))
            block, y = _grid_block(15, y, numbers, answers[start:start + per_row], first=row_labels, cell=cell, head=24,
                                   size=size, font=font, answer_font=font)
            items += block
            y += 6
        y += 4
    key: dict = {"kind": "grid"}
    if len(booklets) > 1:
        key.update(variant_header=header.replace("{booklet}", "(?P<variant>\\w)").replace(" ", r"\s*"), variant=booklets[0])
    return KeySheet(name, [PageSpec(items, size=page_size)], truth, key, tuple(labels), languages,
                    fonts=(CJK_FONT,) if CJK_FONT in (font,) else ())


def booklet_table(seed: int = 0, *, count: int = 30, booklets: Sequence[str] = ("A", "B", "C", "D"),
                  header: str = "Typ {booklet}", labels: Sequence[str] = ("A", "B", "C", "D"), languages: tuple[str, ...] = ("pol",),
                  chosen: int = 2, name: str = "booklets") -> KeySheet:
    """A ruled table: a number column and one answer column per booklet type, under a header row."""
    columns = [_answers(count, labels, seed + b) for b in range(len(booklets))]
    rows = [("Nr", *[header.format(booklet=b) for b in booklets])]
    rows += [(str(n + 1), *[column[n] for column in columns]) for n in range(count)]
    items, _ = table_items(30, 30, (20, *[30] * len(booklets)), rows, size=11)
    page = PageSpec([TextBox("Odpowiedzi", 30, 16, 150, size=14, bold=True), *items])
    variant = booklets[chosen]
    key = {"kind": "variant_table", "variant_header": header.replace("{booklet}", "(?P<variant>\\w)").replace(" ", r"\s*"),
           "variant": variant}
    return KeySheet(name, [page], {str(n + 1): columns[chosen][n] for n in range(count)}, key, tuple(labels), languages)


def dash_list(seed: int = 0, *, count: int = 45, columns: int = 3, labels: Sequence[str] = ("А", "Б", "В", "Г")) -> KeySheet:
    """Entries "n – X" (a dash between number and answer) down unruled columns, Cyrillic answers."""
    answers = _answers(count, labels, seed)
    per_column = -(-count // columns)
    items: list[PageItem] = [TextBox("Ключи ответов", 20, 18, 170, size=14, bold=True)]
    for index, answer in enumerate(answers):
        column, row = divmod(index, per_column)
        items.append(TextBox(f"{index + 1} – {answer}", 30 + column * 55, 35 + row * 9, 40, size=12))
    letters = "".join(labels)
    return KeySheet(
        "list-dash", [PageSpec(items)], {str(n + 1): a for n, a in enumerate(answers)},
        {"kind": "list", "entry": rf"(?<![\w.])(?P<number>\d{{1,3}})\s*[-–]\s*(?P<answer>[{letters}])(?!\w)"}, tuple(labels), ("rus",),
    )


def paren_list(seed: int = 0, *, count: int = 50, columns: int = 5, labels: Sequence[str] = ("a", "b", "c", "d", "e")) -> KeySheet:
    """Numbers set flush right with a parenthesis ("9)", "10)"), small-letter answers in a box of their
    own, five tight unruled columns in small type, under a Vietnamese title."""
    answers = _answers(count, labels, seed)
    per_column = -(-count // columns)
    items: list[PageItem] = [TextBox("Đáp án đề thi", 20, 18, 170, size=13, bold=True)]
    for index, answer in enumerate(answers):
        column, row = divmod(index, per_column)
        x, y = 18 + column * 36, 32 + row * 7
        items.append(TextBox(f"{index + 1})", x, y, 10, size=9.5, align="R"))
        items.append(TextBox(answer, x + 11.5, y, 6, size=9.5))
    letters = "".join(labels)
    return KeySheet(
        "list-paren", [PageSpec(items)], {str(n + 1): a for n, a in enumerate(answers)},
        {"kind": "list", "entry": rf"(?<![\w.])(?P<number>\d{{1,3}})\)\s*(?P<answer>[{letters}])(?!\w)"}, tuple(labels), ("vie",),
    )


def worded_list(seed: int = 0, *, count: int = 30, columns: int = 2, labels: Sequence[str] = ("A", "B", "C", "D", "E"),
                word: str = "Soru", language: str = "tur") -> KeySheet:
    """Entries "<word> n: X" (a word before each number, as keys print "Question 12: D") down unruled columns."""
    answers = _answers(count, labels, seed)
    per_column = -(-count // columns)
    items: list[PageItem] = [TextBox(f"{word} 2031", 20, 12, 170, size=12, bold=True)]
    for index, answer in enumerate(answers):
        column, row = divmod(index, per_column)
        items.append(TextBox(f"{word} {index + 1}: {answer}", 20 + column * 60, 24 + row * 7, 55, size=11))
    letters = "".join(labels)
    return KeySheet(
        "list-worded", [PageSpec(items)], {str(n + 1): a for n, a in enumerate(answers)},
        {"kind": "list", "entry": rf"(?<![\d.])(?P<number>\d{{1,3}}):\s*(?P<answer>[{letters}])(?!\w)"}, tuple(labels), (language,),
    )


def tab_list(seed: int = 0, *, count: int = 60, columns: int = 2, labels: Sequence[str] = ("a", "b", "c", "d"),
             tab: float = 9.0, leaders: bool = False, size: float = 10, pitch: float = 4.4, title: str = "Plantilla de respuestas",
             languages: tuple[str, ...] = ("spa",), name: str = "list-tab") -> KeySheet:
    """Entries "n." with their answer at a tab stop `tab` mm right of the number's start ("1.      a"), far wider
    than a word space, down `columns` unruled columns; with `leaders`, a dotted leader runs from the number's mark
    to the answer ("7. ........ c")."""
    answers = _answers(count, labels, seed)
    per_column = -(-count // columns)
    width = (180 - 20) / columns
    items: list[PageItem] = [TextBox(title, 20, 16, 170, size=13, bold=True)]
    for index, answer in enumerate(answers):
        column, row = divmod(index, per_column)
        x, y = 20 + column * width, 32 + row * pitch
        items.append(TextBox(f"{index + 1}.", x, y, tab - 0.5, size=size))
        if leaders:  # dots from just past "60." to just before the answer, in a box they fill without wrapping
            items.append(TextBox("." * int((tab - 8) / 1.2), x + 6.5, y, tab - 7, size=size))
        items.append(TextBox(answer, x + tab, y, 6, size=size))
    letters = "".join(labels)
    return KeySheet(
        name, [PageSpec(items)], {str(n + 1): a for n, a in enumerate(answers)},
        {"kind": "list", "entry": rf"(?<![\w.])(?P<number>\d{{1,3}})\.[\s.…]*(?P<answer>[{letters}])(?!\w)"}, tuple(labels), languages,
    )


def tab_list_leaders(seed: int = 0) -> KeySheet:
    """Three columns of "n. ........ б": dotted leaders to Cyrillic small-letter answers."""
    return tab_list(seed, count=60, columns=3, labels=("а", "б", "в", "г"), tab=16.0, leaders=True, title="Ключи ответов",
                    languages=("rus",), name="list-leaders")


def tab_list_greek(seed: int = 0) -> KeySheet:
    """Four columns of "n.     β": Greek small-letter answers at a tab stop, in smaller type."""
    return tab_list(seed, count=80, columns=4, labels=("α", "β", "γ", "δ"), tab=8.0, size=9, pitch=4.0, title="Απαντήσεις",
                    languages=("ell",), name="list-tab-greek")


def tab_list_five(seed: int = 0) -> KeySheet:
    """Five tight columns of "n.    C": Latin capital answers at a tab stop, 100 entries."""
    return tab_list(seed, count=100, columns=5, labels=("A", "B", "C", "D", "E"), tab=8.5, size=9, pitch=4.0, title="Klucz odpowiedzi",
                    languages=("pol",), name="list-tab-five")


CIRCLED = ("①", "②", "③", "④", "⑤")


def circled_grid(seed: int = 0) -> KeySheet:
    """Hangul row labels over numbers and circled-digit answers (a Korean key)."""
    sheet = grid_key(seed, count=40, per_row=20, labels=CIRCLED, row_labels=("문항", "정답"), languages=("eng",),
                     font=CJK_FONT, name="circled")
    return sheet


def greek_booklets(seed: int = 0) -> KeySheet:
    """Grid blocks per booklet type under Greek headers ("ΤΥΠΟΣ Α"), Greek capital labels."""
    return grid_key(seed, count=40, per_row=20, labels=("Α", "Β", "Γ", "Δ"), booklets=("Α", "Β"), header="ΤΥΠΟΣ {booklet}",
                    row_labels=("Ερώτηση", "Απάντηση"), languages=("ell",), name="greek-booklets")


def cyrillic_booklets(seed: int = 0) -> KeySheet:
    """Grid blocks per booklet type under Cyrillic headers ("ВАРИАНТ Б"), Cyrillic capital labels."""
    return grid_key(seed, count=40, per_row=20, labels=("А", "Б", "В", "Г"), booklets=("А", "Б"), header="ВАРИАНТ {booklet}",
                    row_labels=("Вопрос", "Ответ"), languages=("rus",), name="cyrillic-booklets")


def serif_cyrillic_booklets(seed: int = 0) -> KeySheet:
    """Grid blocks per booklet type under Russian headers in a serif face ("ТИП В"): booklet types that are Cyrillic
    letters drawn like Latin ones (`А`, `В`), Cyrillic capital labels. A tuning family of `greek-booklets`' kind."""
    return grid_key(seed, count=40, per_row=20, labels=("А", "Б", "В", "Г"), booklets=("А", "В"), header="ТИП {booklet}",
                    row_labels=("№", "Ответ"), languages=("rus",), font="DejaVuSerif", name="booklets-serif-ru")


def wide_grid(seed: int = 0) -> KeySheet:
    """One row of 40 narrow cells across the page: a key table Tesseract must not read as one strip."""
    return grid_key(seed, count=80, per_row=40, labels=("A", "B", "C", "D"), size=9, cell=4.0, name="wide",
                    row_labels=("Nr", "Odp"), languages=("pol",))


def ruled_rows(x: float, y: float, widths: Sequence[float], rows: Sequence[Sequence[str]], *, size: float, font: str,
                height: float) -> list[PageItem]:
    """A ruled table of `rows` (the first a header) in `font`, every cell ruled and its text centred."""
    items: list[PageItem] = []
    for r, row in enumerate(rows):
        left = x
        for text, width in zip(row, widths):
            items.append(Rect(left, y + r * height, width, height, line_width=0.25))
            items.append(TextBox(text, left, y + r * height + height * 0.2, width, size=size, font=font, align="C", bold=r == 0))
            left += width
    return items


def pairs_table(seed: int = 0, *, count: int = 60, pairs: int = 5, header: tuple[str, str] = ("Nr", "Odp."),
                labels: Sequence[str] = ("A", "B", "C", "D"), languages: tuple[str, ...] = ("pol",), title: str = "Klucz odpowiedzi",
                font: str = "DejaVuSans", size: float = 11, name: str = "pairs") -> KeySheet:
    """A ruled table of `pairs` number/answer column pairs side by side, numbers counting down each pair
    ("1 | B | 13 | D | 25 | A …"), under a header row repeating the pair's titles."""
    answers = _answers(count, labels, seed)
    per_column = -(-count // pairs)
    rows = [[text for _ in range(pairs) for text in header]]
    for r in range(per_column):
        row: list[str] = []
        for p in range(pairs):
            n = p * per_column + r
            row += [str(n + 1), answers[n]] if n < count else ["", ""]
        rows.append(row)
    widths = [w for _ in range(pairs) for w in (14.0, 14.0)]
    items: list[PageItem] = [TextBox(title, 20, 16, 170, size=14, bold=True, font=font)]
    items += ruled_rows(20, 30, widths, rows, size=size, font=font, height=size * 0.62)
    letters = "".join(labels)
    key = {"kind": "list", "entry": rf"(?<![\w.])(?P<number>\d{{1,3}})\s+(?P<answer>[{letters}])(?!\w)"}
    return KeySheet(name, [PageSpec(items)], {str(n + 1): a for n, a in enumerate(answers)}, key, tuple(labels), languages,
                    fonts=(CJK_FONT,) if font == CJK_FONT else ())


HANGUL_LABELS = ("가", "나", "다", "라")


def hangul_pairs(seed: int = 0) -> KeySheet:
    """Four number/answer pairs a row under Hangul headers, answers 가나다라 (a Korean key table)."""
    return pairs_table(seed, count=40, pairs=4, header=("번호", "정답"), labels=HANGUL_LABELS, languages=("kor",), title="정답표",
                       font=CJK_FONT, name="pairs-hangul")


def turkish_booklets(seed: int = 0) -> KeySheet:
    """One answer column per booklet type under Turkish headers ("A Kitapçığı"), five labels."""
    sheet = booklet_table(seed, count=30, booklets=("A", "B", "C", "D"), header="{booklet} Kitapçığı", labels=("A", "B", "C", "D", "E"),
                          languages=("tur",), chosen=1, name="booklets-tr")
    return sheet


def booklet_last_page(seed: int = 0, *, count: int = 40, per_row: int = 20) -> KeySheet:
    """The key printed on the last page of the question booklet, below the last questions' text: a
    heading, then ruled grids of numbers over answers (Portuguese)."""
    answers = _answers(count, ("A", "B", "C", "D", "E"), seed)
    items: list[PageItem] = []
    y = 20.0
    for number in (count - 1, count):
        items.append(TextBox(f"QUESTÃO {number}", 20, y, 170, size=11, bold=True))
        items.append(TextBox("Assinale a alternativa que completa corretamente a afirmação sobre o tema apresentado no texto "
                             "de apoio, considerando as informações do enunciado.", 20, y + 6, 170, size=10))
        for i, label in enumerate("ABCDE"):
            items.append(TextBox(f"({label}) alternativa {label.lower()} da questão {number}", 24, y + 20 + 5.5 * i, 160, size=10))
        y += 52
    items.append(TextBox("GABARITO", 20, y + 4, 170, size=13, bold=True, align="C"))
    y += 16
    for start in range(0, count, per_row):
        numbers = list(range(start + 1, min(count, start + per_row) + 1))
        block, y = _grid_block(15, y, numbers, answers[start:start + per_row], first=("Questão", "Resposta"), cell=8.0, head=24, size=12)
        items += block
        y += 6
    first_page = PageSpec([TextBox("CADERNO DE QUESTÕES", 20, 20, 170, size=14, bold=True),
                           TextBox("Leia atentamente as instruções antes de começar a prova.", 20, 32, 170, size=10)])
    return KeySheet("in-booklet", [first_page, PageSpec(items)], {str(n + 1): a for n, a in enumerate(answers)},
                    {"kind": "grid", "in_sheet": "^GABARITO"}, ("A", "B", "C", "D", "E"), ("por",))


def vietnamese_grid(seed: int = 0) -> KeySheet:
    """Ruled grids under Vietnamese row labels ("Câu", "Đáp án"), answers A–D."""
    sheet = grid_key(seed, count=40, per_row=20, labels=("A", "B", "C", "D"), row_labels=("Câu", "Đáp án"), languages=("vie",),
                     name="grid-vi")
    return sheet


def shaded_blocks(seed: int = 0, *, variants: Sequence[str] = ("1403", "9777"), chosen: int = 1, blocks: Sequence[int] = (1, 9, 17, 25),
                  block: int = 5, shade: tuple[int, int, int] = (160, 160, 160), name: str = "shaded-blocks",
                  header: tuple[str, str] = ("Číslo", "Test 24 {variant}"), title: str = "Kľúč správnych odpovedí",
                  languages: tuple[str, ...] = ("slk",), number_font: str = "DejaVuSans",
                  size: float = 11, height: float = 7.0) -> KeySheet:
    """A key of a test's closed questions only (numbered in blocks: 01–05, 09–13, …), one answer column per test
    variant under "Test 24 NNNN", every column but the first on a mid-grey fill (the NÚCEM layout). `header`: the
    number column's title and the variant columns' (`{variant}` for the code), in the sheet's language; `number_font`: the number column's face (bold)."""
    numbers = [n for start in blocks for n in range(start, start + block)]
    columns = {v: _answers(len(numbers), ("A", "B", "C", "D"), seed + i) for i, v in enumerate(variants)}
    items: list[PageItem] = [TextBox(title, 30, 15, 150, size=13, bold=True)]
    widths = (22.0, *[45.0] * len(variants))
    rows = [(header[0], *[header[1].format(variant=v) for v in variants])]
    rows += [(f"{n:02d}", *[columns[v][i] for v in variants]) for i, n in enumerate(numbers)]
    for r, row in enumerate(rows):
        left = 30.0
        for c, (text, width) in enumerate(zip(row, widths)):
            items.append(Rect(left, 30 + r * height, width, height, fill=shade if c >= 2 and r > 0 else None, line_width=0.3))
            font = number_font if c == 0 and r > 0 else "DejaVuSans"
            items.append(TextBox(text, left, 30 + r * height + height * 3 / 14, width, size=size, align="C", bold=c == 0 or r == 0,
                                 font=font))
            left += width
    variant_header = re.escape(header[1]).replace(r"\ ", r"\s*").replace(r"\{variant\}", "{variant}")
    variant_header = re.sub(r"\d", r"\\d", variant_header).replace("{variant}", r"(?P<variant>\w+)")
    key = {"kind": "variant_table", "variant_header": variant_header, "variant": variants[chosen]}
    return KeySheet(name, [PageSpec(items)], {str(n): columns[variants[chosen]][i] for i, n in enumerate(numbers)}, key, ("A", "B", "C", "D"),
                    languages)


def late_blocks(seed: int = 0) -> KeySheet:
    """`shaded-blocks` numbered past 50 (33–37 … 57–61, as a test's last closed questions are), on a yellow fill, the
    numbers in a bold Arial-like face (`pdfgen.CORE_FONTS`): bold 5s a model may take for 9s all down a block."""
    return shaded_blocks(seed, variants=("1403", "9777"), chosen=0, blocks=(33, 41, 49, 57), shade=(255, 204, 0), name="blocks-late",
                         number_font="Helvetica", size=13)


def late_blocks_spanish(seed: int = 0) -> KeySheet:
    """Blocks of six from 50 to 95 under Spanish headers ("Ítem", "Modelo B"), three forms, light grey fill."""
    return shaded_blocks(seed, variants=("A", "B", "C"), chosen=1, blocks=(50, 59, 68, 77, 86), block=6, shade=(200, 200, 200),
                         name="blocks-es", header=("Ítem", "Modelo {variant}"), title="Claves de respuestas", languages=("spa",),
                         number_font="Helvetica", size=13, height=7.5)


def late_blocks_czech(seed: int = 0) -> KeySheet:
    """Blocks of four from 55 to 98 under Czech headers ("Úloha", "Varianta 25 NN"), no fill past the grey of the scan."""
    return shaded_blocks(seed, variants=("51", "95"), chosen=1, blocks=(55, 61, 67, 73, 79, 85, 91), block=4, shade=(235, 235, 235),
                         name="blocks-cs", header=("Úloha", "Varianta 25 {variant}"), title="Klíč správných odpovědí", languages=("ces",),
                         number_font="Helvetica", size=13)


def filled_grid(seed: int = 0, *, count: int = 100, per_row: int = 20, labels: Sequence[str] = ("A", "B", "C", "D"),
                row_labels: tuple[str, str] = ("Questão", "Gabarito"), fill: tuple[int, int, int] = (0, 90, 40),
                answer_fill: tuple[int, int, int] | None = (185, 200, 225), rules: bool = False, voided: Sequence[int] = (7, 13, 35),
                cell: float = 7.6, head: float = 18.0, height: float = 7.0, gutter: float = 0.7, size: float = 9.5,
                title: str = "GABARITO DEFINITIVO", languages: tuple[str, ...] = ("por",), name: str = "filled-grid") -> KeySheet:
    """Blocks of a number row printed white on a dark fill over an answer row of bold letters on a light fill (or,
    with `answer_fill` None and `rules`, in black-ruled white boxes), each cell its own filled box parted from the next
    by a white `gutter` (the INEP and FGV keys); `voided` questions print a "-" (annulled, no answer in the truth)."""
    answers = _answers(count, labels, seed)
    items: list[PageItem] = [TextBox(title, 15, 40, 170, size=13, bold=True)]
    y = 52.0
    for start in range(0, count, per_row):
        numbers = list(range(start + 1, min(count, start + per_row) + 1))
        rows = ((row_labels[0], [str(n) for n in numbers], fill, (255, 255, 255)),
                (row_labels[1], ["-" if n in voided else answers[n - 1] for n in numbers], answer_fill, (0, 0, 0)))
        for r, (label, texts, ground, ink) in enumerate(rows):
            top = y + r * (height + gutter)
            boxes = [(15.0, head, label), *[(15 + head + gutter + i * (cell + gutter), cell, t) for i, t in enumerate(texts)]]
            for x, width, text in boxes:
                items.append(Rect(x, top, width, height, fill=ground, stroke=(0, 0, 0) if rules or ground is None else None, line_width=0.3))
                items.append(TextBox(text, x, top + (height - size * 0.45) / 2, width, size=size, bold=True, align="C", color=ink))
        y += 2 * (height + gutter) + 6
    truth = {str(n + 1): a for n, a in enumerate(answers) if n + 1 not in voided}
    return KeySheet(name, [PageSpec(items)], truth, {"kind": "grid"}, tuple(labels), languages)


def filled_grid_ruled(seed: int = 0) -> KeySheet:
    """`filled-grid` with its answers in black-ruled white boxes and five labels, the number row on a dark grey fill
    (the FGV key's look), nothing annulled."""
    return filled_grid(seed, count=80, labels=("A", "B", "C", "D", "E"), fill=(60, 60, 60), answer_fill=None, rules=True, voided=(),
                       name="filled-grid-ruled")


def filled_grid_cyrillic(seed: int = 0) -> KeySheet:
    """A different look: 25 narrow cells a row, a dark blue number fill, pale yellow answer cells with Cyrillic labels, Russian
    row labels, larger type."""
    return filled_grid(seed, count=75, per_row=25, labels=("А", "Б", "В", "Г"), row_labels=("№", "Ответ"), fill=(20, 40, 110),
                       answer_fill=(245, 230, 160), voided=(11,), cell=6.2, head=16.0, height=7.5, gutter=0.5, size=10.5,
                       title="ОТВЕТЫ", languages=("rus",), name="filled-grid-cyr")


def with_broken_rules(sheet: KeySheet, seed: int, *, name: str, gaps: tuple[float, float] = (0.1, 0.4), share: float = 0.5) -> KeySheet:
    """`sheet` with about `share` of its horizontal rules broken once by a white gap `gaps` inches long, somewhere along
    them (dust on the glass, a scan's dropout): the rules of a grid no longer close each row on their own."""
    rng = random.Random(seed * 7919 + 1)
    pages = []
    for page in sheet.pages:
        rects = [item for item in page.items if isinstance(item, Rect) and item.fill is None]
        spans: dict[float, tuple[float, float]] = {}
        for rect in rects:
            for y in (round(rect.y, 2), round(rect.y + rect.h, 2)):
                left, right = spans.get(y, (rect.x, rect.x + rect.w))
                spans[y] = (min(left, rect.x), max(right, rect.x + rect.w))
        cuts: list[PageItem] = []
        for y, (left, right) in sorted(spans.items()):
            if rng.random() >= share:
                continue
            width = rng.uniform(*gaps) * 25.4
            x = rng.uniform(left + 2, max(left + 2, right - width - 2))
            cuts.append(Rect(x, y - 0.4, width, 0.8, fill=(255, 255, 255), stroke=None))
        pages.append(PageSpec([*page.items, *cuts], size=page.size, turned=page.turned))
    return KeySheet(name, pages, sheet.truth, sheet.key, sheet.labels, sheet.languages, sheet.notes, sheet.fonts)


def broken_grid(seed: int = 0) -> KeySheet:
    """`grid` with half its horizontal rules broken by gaps of 0.1–0.4 in."""
    return with_broken_rules(grid_key(seed), seed, name="grid-gaps")


def broken_wide_grid(seed: int = 0) -> KeySheet:
    """`wide` (40 narrow cells a row) with half its horizontal rules broken by gaps of 0.1–0.4 in."""
    return with_broken_rules(wide_grid(seed), seed, name="wide-gaps")


# Tuning families and checking families (kept aside: report on them separately).
TUNING: dict[str, Callable[[int], KeySheet]] = {"list": list_key, "grid": grid_key, "booklets": booklet_table, "pairs": pairs_table,
                                                "in-booklet": booklet_last_page, "shaded-blocks": shaded_blocks,
                                                "list-tab": tab_list, "list-leaders": tab_list_leaders, "blocks-late": late_blocks,
                                                "filled-grid": filled_grid, "filled-grid-ruled": filled_grid_ruled, "grid-gaps": broken_grid,
                                                "booklets-serif-ru": serif_cyrillic_booklets}
CHECKING: dict[str, Callable[[int], KeySheet]] = {"circled": circled_grid, "greek-booklets": greek_booklets, "wide": wide_grid,
                                                  "list-dash": dash_list, "list-paren": paren_list,
                                                  "cyrillic-booklets": cyrillic_booklets, "pairs-hangul": hangul_pairs,
                                                  "booklets-tr": turkish_booklets, "grid-vi": vietnamese_grid,
                                                  "list-tab-greek": tab_list_greek, "list-tab-five": tab_list_five,
                                                  "blocks-es": late_blocks_spanish, "blocks-cs": late_blocks_czech,
                                                  "filled-grid-cyr": filled_grid_cyrillic, "wide-gaps": broken_wide_grid}
