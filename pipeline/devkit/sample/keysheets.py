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


def wide_grid(seed: int = 0) -> KeySheet:
    """One row of 40 narrow cells across the page: a key table Tesseract must not read as one strip."""
    return grid_key(seed, count=80, per_row=40, labels=("A", "B", "C", "D"), size=9, cell=4.0, name="wide",
                    row_labels=("Nr", "Odp"), languages=("pol",))


# Tuning families and checking families (kept aside: report on them separately).
TUNING: dict[str, Callable[[int], KeySheet]] = {"list": list_key, "grid": grid_key, "booklets": booklet_table}
CHECKING: dict[str, Callable[[int], KeySheet]] = {"circled": circled_grid, "greek-booklets": greek_booklets, "wide": wide_grid,
                                                  "list-dash": dash_list, "list-paren": paren_list,
                                                  "cyrillic-booklets": cyrillic_booklets}
