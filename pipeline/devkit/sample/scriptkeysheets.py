"""Key pages in the scripts of the hidden sheets that `keysheets` generated few of: Korean keys answering with circled
digits (①–⑤), Greek keys with capital letters (Α–Δ), Turkish and Vietnamese keys with A–E, each as a list key
("n. X" down unruled columns, or "Câu n: X") and as a ruled table (number/answer pairs, or a grid of numbers over
answers), under headings in the key's own script.

Each is a `keysheets.KeySheet`; deterministic for a family and seed. The tuning and checking families were split
before any of them was read: each script has a family on each side, the checking one in another layout.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence

from pipeline.devkit.sample.keysheets import CIRCLED, KeySheet, _answers, grid_key, pairs_table, worded_list
from pipeline.devkit.sample.pdfgen import CJK_FONT, PageItem, PageSpec, TextBox

GREEK = ("Α", "Β", "Γ", "Δ")
FIVE = ("A", "B", "C", "D", "E")


def _key_characters(labels: Sequence[str]) -> str:
    """The characters an answer may be read as: the labels, and a circled label's plain digit (keys print ④, a scan
    may read 4)."""
    return "".join(labels) + "".join(str("①②③④⑤".index(label) + 1) for label in labels if label in "①②③④⑤")


def script_list(seed: int = 0, *, labels: Sequence[str], languages: tuple[str, ...], title: str, font: str = "DejaVuSans",
                count: int = 40, columns: int = 4, size: float = 11, name: str) -> KeySheet:
    """Entries "n. X" down `columns` unruled columns under a heading, in `font`."""
    answers = _answers(count, labels, seed)
    per_column = -(-count // columns)
    items: list[PageItem] = [TextBox(title, 20, 18, 170, size=14, bold=True, font=font)]
    for index, answer in enumerate(answers):
        column, row = divmod(index, per_column)
        items.append(TextBox(f"{index + 1}. {answer}", 25 + column * 42, 35 + row * 8.5, 30, size=size, font=font))
    entry = rf"(?<![\w.])(?P<number>\d{{1,3}})\.\s*(?P<answer>[{_key_characters(labels)}])(?!\w)"
    return KeySheet(name, [PageSpec(items)], {str(n + 1): a for n, a in enumerate(answers)}, {"kind": "list", "entry": entry},
                    tuple(labels), languages, fonts=(CJK_FONT,) if font == CJK_FONT else ())


def _with_key_characters(sheet: KeySheet) -> KeySheet:
    """The sheet whose list entry also takes a circled answer's plain digit."""
    entry = sheet.key["entry"].replace(f"[{''.join(sheet.labels)}]", f"[{_key_characters(sheet.labels)}]")
    return KeySheet(sheet.name, sheet.pages, sheet.truth, {**sheet.key, "entry": entry}, sheet.labels, sheet.languages, sheet.notes, sheet.fonts)


# --------------------------------------------------------------------------- tuning


def korean_circled_list(seed: int = 0) -> KeySheet:
    """"n. ③" in four columns under a Hangul heading (a Korean list key)."""
    return script_list(seed, labels=CIRCLED, languages=("kor",), title="정답 및 해설", font=CJK_FONT, name="list-ko-circled")


def greek_pairs(seed: int = 0) -> KeySheet:
    """Four number/answer pairs a row under Greek headers, answers Α–Δ."""
    return pairs_table(seed, count=40, pairs=4, header=("Ερ.", "Απ."), labels=GREEK, languages=("ell",), title="Απαντήσεις",
                       name="pairs-el")


def turkish_grid(seed: int = 0) -> KeySheet:
    """Ruled grids under Turkish row labels ("Soru", "Cevap"), answers A–E."""
    return grid_key(seed, count=40, per_row=20, labels=FIVE, row_labels=("Soru", "Cevap"), languages=("tur",), name="grid-tr")


def vietnamese_worded(seed: int = 0) -> KeySheet:
    """"Câu n: X" down two columns, answers A–E."""
    sheet = worded_list(seed, count=30, columns=2, labels=FIVE, word="Câu", language="vie")
    return KeySheet("list-vi-worded", sheet.pages, sheet.truth, sheet.key, sheet.labels, sheet.languages)


# --------------------------------------------------------------------------- checking


def korean_circled_pairs(seed: int = 0) -> KeySheet:
    """Five number/answer pairs a row under Hangul headers, answers ①–⑤."""
    return _with_key_characters(pairs_table(seed, count=50, pairs=5, header=("번호", "정답"), labels=CIRCLED, languages=("kor",),
                                            title="정답표", font=CJK_FONT, name="pairs-ko-circled"))


def greek_list(seed: int = 0) -> KeySheet:
    """"n. Γ" in four serif columns under a Greek heading."""
    return script_list(seed, labels=GREEK, languages=("ell",), title="Απαντήσεις θεμάτων", font="DejaVuSerif", name="list-el")


def turkish_list(seed: int = 0) -> KeySheet:
    """"n. D" in five columns, 50 entries, under a Turkish heading."""
    return script_list(seed, labels=FIVE, languages=("tur",), title="Cevap Anahtarı", count=50, columns=5, size=10, name="list-tr")


def vietnamese_pairs(seed: int = 0) -> KeySheet:
    """Four number/answer pairs a row under Vietnamese headers ("Câu", "ĐA": "Đáp án" wraps in its 14 mm cell and the
    text layer lost the first row), answers A–E, serif."""
    return pairs_table(seed, count=40, pairs=4, header=("Câu", "ĐA"), labels=FIVE, languages=("vie",), title="Đáp án đề thi",
                       font="DejaVuSerif", name="pairs-vi")


# Small letters of plain list keys read on degraded scans (a sure letter read for another, unflagged: list-tr's 4 at
# 180 dpi), split before any was read: the tuning families below, list-tr and list-el checking.
def polish_list_small(seed: int = 0) -> KeySheet:
    """"n. D" in five columns, 50 entries, size 9, serif, under a Polish heading."""
    return script_list(seed, labels=FIVE, languages=("pol",), title="Odpowiedzi", count=50, columns=5, size=9, font="DejaVuSerif",
                       name="list-pl-small")


def vietnamese_list_small(seed: int = 0) -> KeySheet:
    """"n. B" in five columns, 50 entries, size 10, sans, under a Vietnamese heading."""
    return script_list(seed, labels=FIVE, languages=("vie",), title="Đáp án", count=50, columns=5, size=10, name="list-vi-small")


def spanish_list_four(seed: int = 0) -> KeySheet:
    """"n. C" (A–D) in four columns, 48 entries, size 9, sans."""
    return script_list(seed, labels=("A", "B", "C", "D"), languages=("spa",), title="Clave de respuestas", count=48, columns=4,
                       size=9, name="list-es-four")


SCRIPT_TUNING: dict[str, Callable[[int], KeySheet]] = {"list-ko-circled": korean_circled_list, "pairs-el": greek_pairs,
                                                       "grid-tr": turkish_grid, "list-vi-worded": vietnamese_worded,
                                                       "list-pl-small": polish_list_small, "list-vi-small": vietnamese_list_small,
                                                       "list-es-four": spanish_list_four}
SCRIPT_CHECKING: dict[str, Callable[[int], KeySheet]] = {"pairs-ko-circled": korean_circled_pairs, "list-el": greek_list,
                                                         "list-tr": turkish_list, "pairs-vi": vietnamese_pairs}
