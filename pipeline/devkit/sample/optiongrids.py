"""Question pages whose options are set as grids in small type: two by two or one by four, each option in
a box of its own or in the cells of a ruled table, in several scripts, with their truth. Tesseract's page
reading drops such grids on blurred scans at 150–200 dpi; these pages measure what a pass brings back.

Each family is an `OptionSheet`: its pages, every option text printed (the truth), the Tesseract
languages to read it with, and whether it is a tuning or a checking family (kept aside: report apart).
`chart_page()` is a page of a bar chart and hatching beside one line of text, on which nothing may be
added. Deterministic: a family and a seed give the same pages.
"""
from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from pipeline.devkit.sample.pdfgen import Line, PageItem, PageSpec, Rect, TextBox

WORDS = {
    "pol": "ma kot dom rzeka miasto szkoła droga prawo rynek woda ogień ziemia powietrze światło czas praca książka".split(),
    "spa": "casa perro ciudad río escuela camino derecho mercado agua fuego tierra aire luz tiempo trabajo libro".split(),
    "tur": "ev kedi şehir nehir okul yol hukuk pazar su ateş toprak hava ışık zaman çalışma kitap".split(),
    "vie": "nhà mèo thành phố sông trường đường luật chợ nước lửa đất không khí ánh sáng thời gian sách".split(),
    "ell": "σπίτι γάτα πόλη ποτάμι σχολείο δρόμος νόμος αγορά νερό φωτιά γη αέρας φως χρόνος εργασία βιβλίο".split(),
}
STEM = {
    "pol": "Które zdanie jest prawdziwe?", "spa": "¿Cuál de las afirmaciones es correcta?", "tur": "Hangisi doğrudur?",
    "vie": "Khẳng định nào sau đây là đúng?", "ell": "Ποια πρόταση είναι σωστή;",
}
LABELS = {"ell": ("Α", "Β", "Γ", "Δ")}


@dataclass(frozen=True)
class OptionSheet:
    name: str
    pages: list[PageSpec]
    options: list[str]  # every option's text as printed, its label left out
    languages: tuple[str, ...]
    labels: tuple[str, ...]


def _option_texts(rng: random.Random, language: str, short: bool) -> list[str]:
    words = WORDS[language]
    if short:  # a value and a word: "3,5 woda"
        return [f"{rng.randint(1, 99)},{rng.randint(1, 9)} {rng.choice(words)}" for _ in range(4)]
    return [" ".join(rng.sample(words, rng.choice((2, 3)))) + f" {rng.randint(2, 99)}" for _ in range(4)]


def option_grid_sheet(seed: int = 0, *, language: str = "pol", layout: str = "boxes", rows: int = 2, size: float = 7.5,
                      questions: int = 6, short: bool = False, name: str = "") -> OptionSheet:
    """`questions` stems, each followed by its four options in `rows` rows (2: two by two, 1: one by four),
    each option in a box of its own (`layout="boxes"`) or in a ruled table's cells (`"table"`); `short`
    options are a value and a word, set far apart."""
    rng = random.Random(seed)
    labels = LABELS.get(language, ("A", "B", "C", "D"))
    items: list[PageItem] = []
    truth: list[str] = []
    y = 18.0
    per_row = 4 // rows
    cell_w = 170 / per_row
    cell_h = size * 0.55
    for q in range(questions):
        items.append(TextBox(f"{q + 1}. {STEM[language]}", 20, y, 170, size=10))
        y += 8
        texts = _option_texts(rng, language, short)
        truth += texts
        for i, text in enumerate(texts):
            r, c = divmod(i, per_row)
            x, top = 20 + c * cell_w, y + r * (cell_h + (1.5 if layout == "boxes" else 0))
            if layout == "boxes":
                items.append(Rect(x + 1, top, cell_w - 2, cell_h, line_width=0.3))
            else:
                items.append(Rect(x, top, cell_w, cell_h, line_width=0.3))
            items.append(TextBox(f"{labels[i]}) {text}", x + 2.5, top + cell_h * 0.22, cell_w - 5, size=size))
        y += rows * (cell_h + 1.5) + 8
    return OptionSheet(name or f"{layout}-{rows}x{per_row}-{language}", [PageSpec(items)], truth, (language,), labels)


def chart_page() -> PageSpec:
    """A bar chart, a hatched box and a grid of dots beside one line of text: ink that is no text."""
    items: list[PageItem] = [TextBox("Wykres 1. Liczba uczniów w latach", 20, 20, 170, size=10)]
    for i, height in enumerate((30, 45, 20, 55, 38, 25)):
        items.append(Rect(30 + i * 14, 90 - height, 9, height, line_width=0.3, fill=(60, 60, 60)))
    items.append(Line(25, 90, 120, 90, width=0.4))
    items.append(Line(25, 30, 25, 90, width=0.4))
    for k in range(24):  # hatching: slanted strokes in a box
        items.append(Line(130 + k * 2.5, 90, 140 + k * 2.5, 40, width=0.3))
    for r in range(8):  # a grid of dots
        for c in range(12):
            items.append(Rect(30 + c * 6, 110 + r * 6, 0.8, 0.8, line_width=0.1, fill=(0, 0, 0)))
    return PageSpec(items)


TUNING: dict[str, Callable[[int], OptionSheet]] = {
    "boxes-2x2-pol": lambda seed: option_grid_sheet(seed, language="pol", layout="boxes", rows=2),
    "table-1x4-spa": lambda seed: option_grid_sheet(seed, language="spa", layout="table", rows=1),
}
CHECKING: dict[str, Callable[[int], OptionSheet]] = {
    "table-2x2-tur": lambda seed: option_grid_sheet(seed, language="tur", layout="table", rows=2, size=7),
    "boxes-1x4-vie": lambda seed: option_grid_sheet(seed, language="vie", layout="boxes", rows=1, size=7),
    "boxes-2x2-ell": lambda seed: option_grid_sheet(seed, language="ell", layout="boxes", rows=2),
}
