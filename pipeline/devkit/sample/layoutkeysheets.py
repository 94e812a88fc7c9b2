"""Key layouts exam boards print that `keysheets` did not generate: a hundred entries in ten narrow number/answer
column pairs, rows on alternating shading, booklet types named by colour, booklet headers in Hangul over circled-digit
answers, a landscape key page scanned on its side, and a key table carried over onto a second page.

Each is a `keysheets.KeySheet` (pages, truth, the spec's `key:` section); deterministic for a family and seed. The
checking families (`LAYOUT_CHECKING`) were chosen before any of them was measured.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence

from pipeline.devkit.sample.keysheets import CIRCLED, KeySheet, _answers, _grid_block
from pipeline.devkit.sample.pdfgen import CJK_FONT, PageItem, PageSpec, Rect, TextBox

RGB = tuple[int, int, int]


def _pair_rows(answers: Sequence[str], pairs: int, header: tuple[str, str], first: int = 1) -> list[list[str]]:
    """Rows of `pairs` number/answer pairs, numbers from `first` counting down each pair, under a header row."""
    per_column = -(-len(answers) // pairs)
    rows = [[text for _ in range(pairs) for text in header]]
    for r in range(per_column):
        row: list[str] = []
        for p in range(pairs):
            n = p * per_column + r
            row += [str(first + n), answers[n]] if n < len(answers) else ["", ""]
        rows.append(row)
    return rows


def _table(x: float, y: float, widths: Sequence[float], rows: Sequence[Sequence[str]], *, size: float, height: float,
           font: str = "DejaVuSans", stripe: RGB | None = None) -> list[PageItem]:
    """A ruled table, its header row bold; with `stripe`, every other body row on that fill."""
    items: list[PageItem] = []
    for r, row in enumerate(rows):
        left = x
        fill = stripe if stripe is not None and r > 0 and r % 2 == 0 else None
        for text, width in zip(row, widths):
            items.append(Rect(left, y + r * height, width, height, fill=fill, line_width=0.25))
            items.append(TextBox(text, left, y + r * height + height * 0.2, width, size=size, font=font, align="C", bold=r == 0))
            left += width
    return items


def _pairs_key(labels: Sequence[str]) -> dict:
    letters = "".join(labels)
    return {"kind": "list", "entry": rf"(?<![\w.])(?P<number>\d{{1,3}})\s+(?P<answer>[{letters}])(?!\w)"}


def ten_pairs(seed: int = 0) -> KeySheet:
    """Questions 1–100 in ten narrow number/answer column pairs (8 mm cells, small type) across the page."""
    labels = ("A", "B", "C", "D")
    answers = _answers(100, labels, seed)
    items: list[PageItem] = [TextBox("Answer key", 20, 14, 170, size=13, bold=True)]
    items += _table(25, 26, [8.0] * 20, _pair_rows(answers, 10, ("No", "Ans")), size=8, height=5.5)
    return KeySheet("pairs-ten", [PageSpec(items)], {str(n + 1): a for n, a in enumerate(answers)}, _pairs_key(labels), labels, ("eng",))


def striped_pairs(seed: int = 0) -> KeySheet:
    """Four number/answer pairs whose body rows alternate white and grey (Spanish headers), answers A–E."""
    labels = ("A", "B", "C", "D", "E")
    answers = _answers(60, labels, seed)
    items: list[PageItem] = [TextBox("Hoja de respuestas correctas", 20, 14, 170, size=13, bold=True)]
    items += _table(20, 28, [18.0, 22.0] * 4, _pair_rows(answers, 4, ("Pregunta", "Respuesta")), size=9, height=6.5, stripe=(205, 205, 205))
    return KeySheet("striped", [PageSpec(items)], {str(n + 1): a for n, a in enumerate(answers)}, _pairs_key(labels), labels, ("spa",))


def _variant_table(name: str, title: str, number_title: str, header: str, booklets: Sequence[str], chosen: int, count: int,
                   labels: Sequence[str], languages: tuple[str, ...], font: str, widths: tuple[float, float], seed: int) -> KeySheet:
    columns = [_answers(count, labels, seed + b) for b in range(len(booklets))]
    rows = [[number_title, *[header.format(booklet=b) for b in booklets]]]
    rows += [[str(n + 1), *[column[n] for column in columns]] for n in range(count)]
    items: list[PageItem] = [TextBox(title, 25, 14, 160, size=13, bold=True, font=font)]
    items += _table(25, 26, [widths[0], *[widths[1]] * len(booklets)], rows, size=10, height=6.6, font=font)
    variant_header = header.replace(" ", r"\s*").replace("{booklet}", r"(?P<variant>\w+)")
    key = {"kind": "variant_table", "variant_header": variant_header, "variant": booklets[chosen]}
    return KeySheet(name, [PageSpec(items)], {str(n + 1): columns[chosen][n] for n in range(count)}, key, tuple(labels), languages,
                    fonts=(CJK_FONT,) if font == CJK_FONT else ())


def colour_booklets(seed: int = 0) -> KeySheet:
    """One answer column per booklet named by its colour ("Caderno AMARELO", as ENEM prints), the spec choosing yellow."""
    return _variant_table("booklets-colour", "GABARITO DAS PROVAS", "Questão", "Caderno {booklet}", ("AZUL", "AMARELO", "BRANCO", "ROSA"),
                          1, 40, ("A", "B", "C", "D", "E"), ("por",), "DejaVuSans", (22.0, 42.0), seed)


def hangul_booklets(seed: int = 0) -> KeySheet:
    """One circled-digit answer column per booklet type under Hangul headers ("유형 A"), a Korean key table."""
    return _variant_table("booklets-hangul", "정답표", "문항", "유형 {booklet}", ("A", "B"), 1, 30, CIRCLED, ("kor",), CJK_FONT,
                          (22.0, 30.0), seed)


def turned_grid(seed: int = 0) -> KeySheet:
    """A landscape key page (two grid blocks of 30 questions, Czech row labels) printed on its side on a portrait page."""
    labels = ("A", "B", "C", "D", "E")
    answers = _answers(60, labels, seed)
    items: list[PageItem] = [TextBox("Klíč správných odpovědí", 20, 15, 250, size=14, bold=True)]
    y = 32.0
    for start in (0, 30):
        block, y = _grid_block(12, y, list(range(start + 1, start + 31)), answers[start:start + 30], first=("Otázka", "Odpověď"),
                               cell=8.2, head=24, size=12)
        items += block
        y += 10
    return KeySheet("landscape", [PageSpec(items, turned=True)], {str(n + 1): a for n, a in enumerate(answers)}, {"kind": "grid"}, labels,
                    ("ces",))


def turned_pairs(seed: int = 0) -> KeySheet:
    """Eight number/answer pairs across a landscape page (Polish headers), printed on its side on a portrait page."""
    labels = ("A", "B", "C", "D")
    answers = _answers(80, labels, seed)
    items: list[PageItem] = [TextBox("Klucz odpowiedzi", 20, 14, 250, size=13, bold=True)]
    items += _table(20, 28, [14.0, 16.0] * 8, _pair_rows(answers, 8, ("Nr", "Odp.")), size=10, height=6.8)
    return KeySheet("turned-pairs", [PageSpec(items, turned=True)], {str(n + 1): a for n, a in enumerate(answers)}, _pairs_key(labels),
                    labels, ("pol",))


def two_page_pairs(seed: int = 0) -> KeySheet:
    """A number/answer table of 90 questions carried over: 1–60 on the first page, 61–90 on the second under the
    header repeated (Turkish headers)."""
    labels = ("A", "B", "C", "D", "E")
    answers = _answers(90, labels, seed)
    header = ("Soru", "Cevap")
    first: list[PageItem] = [TextBox("Cevap Anahtarı", 20, 14, 170, size=13, bold=True)]
    first += _table(20, 28, [16.0, 16.0] * 3, _pair_rows(answers[:60], 3, header), size=10, height=6.5)
    second: list[PageItem] = [TextBox("Cevap Anahtarı (devamı)", 20, 14, 170, size=13, bold=True)]
    second += _table(20, 28, [16.0, 16.0] * 3, _pair_rows(answers[60:], 3, header, first=61), size=10, height=6.5)
    return KeySheet("two-pages", [PageSpec(first), PageSpec(second)], {str(n + 1): a for n, a in enumerate(answers)}, _pairs_key(labels),
                    labels, ("tur",))


LAYOUT_TUNING: dict[str, Callable[[int], KeySheet]] = {"pairs-ten": ten_pairs, "striped": striped_pairs, "booklets-colour": colour_booklets,
                                                       "turned-pairs": turned_pairs}  # turned-pairs: added after the first measurement
LAYOUT_CHECKING: dict[str, Callable[[int], KeySheet]] = {"booklets-hangul": hangul_booklets, "landscape": turned_grid,
                                                         "two-pages": two_page_pairs}
