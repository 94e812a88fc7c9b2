"""Generated CKE-style vocational sheets and keys (text layer) for season-run tests: any number of
questions, any numbering, and keys with any entries, named as the sample_pl spec's file rules name them."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pipeline.devkit.sample.pdfgen import PageSpec, TextBox, build_pdf, item_bottom

SHEET_NAME = "{q}-{year}-{session}-egzamin-zawodowy-pisemny.pdf"
KEY_NAME = "{q}-{year}-{session}-egzamin-zawodowy-pisemny-odpowiedzi.pdf"
PAGE_BOTTOM = 265.0  # mm: a question that would start below this goes to the next page
LABELS = "ABCD"


@dataclass(frozen=True)
class SheetQuestion:
    number: str
    stem: str
    options: tuple[str, str, str, str]


def questions_about(topic: str, numbers: list[str]) -> list[SheetQuestion]:
    """One question per number, each with its own stem and options, so no two sheets read alike."""
    return [
        SheetQuestion(n, f"Pytanie {n} o temacie {topic}: która odpowiedź jest poprawna w przypadku {n}?",
                      tuple(f"{topic} wariant {n}{label.lower()}" for label in LABELS))
        for n in numbers
    ]


def sheet_pdf(path: Path, title: str, questions: list[SheetQuestion], header: str = "Zadanie {n}.") -> Path:
    """The booklet: a title line, then per question its header line, its stem and four labelled options."""
    pages, items = [], [TextBox(title, 20, 15, 170, size=12, bold=True)]
    y = 30.0
    for question in questions:
        if y > PAGE_BOTTOM:
            pages.append(PageSpec(tuple(items)))
            items, y = [], 20.0
        lines = [header.format(n=question.number), question.stem] + [
            f"{label}. {text}" for label, text in zip(LABELS, question.options)
        ]
        for text in lines:
            box = TextBox(text, 20, y, 170, size=11)
            items.append(box)
            y = item_bottom(box) + 1.5
        y += 4
    pages.append(PageSpec(tuple(items)))
    return build_pdf(path, pages)


def key_pdf(path: Path, entries: list[tuple[str, str]]) -> Path:
    """The answer key: 'Odpowiedzi', then five 'N. X' entries a row."""
    cells = [f"{number}. {answer}" for number, answer in entries]
    rows = ["   ".join(cells[i:i + 5]) for i in range(0, len(cells), 5)]
    items, y = [], 20.0
    for text in ["Odpowiedzi", *rows]:
        box = TextBox(text, 20, y, 170, size=11)
        items.append(box)
        y = item_bottom(box) + 2
    return build_pdf(path, [PageSpec(tuple(items))])
