"""Question sheets in other scripts laid out as their exams print them, scanned: `scriptscans`' measure on layouts
and typography its families lack.

    python -m pipeline.devkit.scriptlayouts --out /tmp/layouts [--set tuning|checking|all] [--families ko-2col,...]
        [--scans 150/0.8/70,200/0.6/80,300/0.4/90,200/0.6/80/1.5/0.03] [--seeds 0,1] [--disable PASS,...] [--show]

Each family is a sheet of numbered multiple-choice questions of its language's words (as in `scriptscans`), with what
its exams print around them:

- `columns=2`: the page set in two columns with a rule between them (Korean CSAT pages);
- `subitems`: words of the stem marked by enclosed Hangul (`㉠`, `㉡`), the marks an option's ring resembles;
- `bogi`: a boxed passage under the stem (`<보기>`) listing statements `ㄱ. ㄴ. ㄷ.`, the options naming them
  (`① ㄱ  ② ㄴ  ③ ㄱ, ㄷ …`);
- `capitals`: words of the stem set in capitals as the language writes them (accented Greek capitals, Turkish
  dotted `İ` and dotless `I`), `upper` mapping a letter Python's `str.upper` capitalises otherwise;
- lowercase labels in a row or in pairs (`α) β) γ) δ)`, `а) б) в) г)`);
- the key a ruled table of number/answer column pairs under the script's own headings (`번호 | 정답`).

Scores as `scriptscans`: recall, options read exactly, key answers, each scan beside the same sheet's text path.
`tuning` families are the ones mechanisms may be built on; `checking` ones only report.
"""
from __future__ import annotations

import random
import sys
from dataclasses import dataclass
from pathlib import Path

from pipeline.devkit.sample.keysheets import ruled_rows
from pipeline.devkit.sample.pdfgen import CJK_FONT, Line, PageItem, PageSpec, Rect, TextBox, build_pdf, text_height
from pipeline.devkit.sample.scansetting import ScanSetting
from pipeline.devkit.scriptscans import CIRCLED, ROW_MM, SIZE, Family, Printed, _phrase, _vocabulary, family_arguments, measure, run_families

TABLE_ENTRY = r"(?<![\w.])(?P<number>\d{{1,3}})\s+(?P<answer>[{labels}])(?!\w)"  # a table's "12 | B" pair of cells
JAMO = ("ㄱ", "ㄴ", "ㄷ")
SUBITEMS = ("㉠", "㉡", "㉢")


@dataclass(frozen=True)
class LayoutFamily(Family):
    columns: int = 1
    subitems: bool = False
    bogi: bool = False
    capitals: bool = False
    upper: tuple[tuple[str, str], ...] = ()  # letters whose capital is not Python's (`i` → `İ` in Turkish)
    key_header: tuple[str, str] = ("No", "Ans")
    key_title: str = "Key"


TUNING = (
    LayoutFamily("ko-2col", "ko", "kor", CIRCLED, "", "column", CJK_FONT, 81, columns=2, subitems=True,
                 key_header=("번호", "정답"), key_title="정답표"),
    LayoutFamily("el-row-lower", "el", "ell", ("α", "β", "γ", "δ"), "A)", "row", "DejaVuSerif", 82, capitals=True,
                 key_header=("Ερ.", "Απ."), key_title="Απαντήσεις"),
    LayoutFamily("ru-pairs-lower", "ru", "rus", ("а", "б", "в", "г"), "A)", "pairs", "DejaVuSans", 83, capitals=True,
                 key_header=("№", "Ответ"), key_title="Ответы"),
)
CHECKING = (
    LayoutFamily("ko-bogi", "ko", "kor", CIRCLED, "", "row", CJK_FONT, 91, bogi=True, key_header=("번호", "정답"), key_title="정답표"),
    LayoutFamily("tr-row", "tr", "tur", ("A", "B", "C", "D", "E"), "A)", "row", "DejaVuSans", 92, capitals=True,
                 upper=(("i", "İ"), ("ı", "I")), key_header=("Soru", "Cevap"), key_title="Cevap anahtarı"),
    LayoutFamily("vi-pairs-2col", "vi", "vie", ("A", "B", "C", "D"), "A.", "pairs", "DejaVuSerif", 93, questions=16, columns=2,
                 key_header=("Câu", "Đáp án"), key_title="Đáp án"),
    # Added with `label-rings` v7 (rings ordered column by column, stem marks kept out of the sequence), which was built
    # on ko-2col: two columns again, options two a row and 12 questions, never looked at while building it.
    LayoutFamily("ko-2col-pairs", "ko", "kor", CIRCLED, "", "pairs", CJK_FONT, 94, questions=12, columns=2, subitems=True,
                 key_header=("번호", "정답"), key_title="정답표"),
    # Added before the jamo options' work, which was done on `ko-bogi`: the same boxed `<보기>` with its options in a
    # grid (three then two), Korean again, never looked at while working.
    LayoutFamily("ko-bogi-grid", "ko", "kor", CIRCLED, "", "grid", CJK_FONT, 96, bogi=True, key_header=("번호", "정답"),
                 key_title="정답표"),
)
SETS = {"tuning": TUNING, "checking": CHECKING}


@dataclass(frozen=True)
class PrintedQuestion(Printed):
    statements: tuple[str, ...] = ()  # the boxed passage's `ㄱ. ㄴ. ㄷ.` lines


def _capital(word: str, family: LayoutFamily) -> str:
    upper = dict(family.upper)
    return "".join(upper.get(c, c.upper()) for c in word)


def _stem(rng: random.Random, vocabulary: list[str], family: LayoutFamily) -> str:
    words = _phrase(rng, vocabulary, rng.randint(5, 11) if family.columns == 1 else rng.randint(4, 8)).split()
    if family.capitals:  # one word in capitals, as a name or a heading's word is
        at = rng.randrange(len(words))
        words[at] = _capital(words[at], family)
    if family.subitems:  # two words marked ㉠ and ㉡, as a passage marks what the question asks about
        for mark, at in zip(SUBITEMS, sorted(rng.sample(range(len(words)), 2))):
            words[at] = f"{mark} {words[at]}"
    words[0] = _capital(words[0][:1], family) + words[0][1:]
    return " ".join(words) + "?"


def printed_questions(family: LayoutFamily, vocabulary: list[str]) -> list[PrintedQuestion]:
    rng = random.Random(family.seed)
    widths = {"column": (1, 4), "pairs": (1, 2), "row": (1, 1), "grid": (1, 2)}[family.layout]
    questions = []
    for n in range(1, family.questions + 1):
        stem = _stem(rng, vocabulary, family)
        statements: tuple[str, ...] = ()
        if family.bogi:  # the options name the statements true: combinations of ㄱ ㄴ ㄷ
            statements = tuple(f"{j}. {_phrase(rng, vocabulary, rng.randint(3, 6))}." for j in JAMO)
            combos = ["ㄱ", "ㄴ", "ㄷ", "ㄱ, ㄴ", "ㄱ, ㄷ", "ㄴ, ㄷ", "ㄱ, ㄴ, ㄷ"]
            options = tuple(sorted(rng.sample(combos, len(family.labels)), key=lambda c: (len(c), c)))
        else:
            options = tuple(_phrase(rng, vocabulary, rng.randint(*widths)) for _ in family.labels)
        questions.append(PrintedQuestion(str(n), stem, options, rng.choice(family.labels), statements))
    return questions


def _cell(family: LayoutFamily, label: str, text: str) -> str:
    return f"{family.style.replace('A', label) if family.style else label} {text}"


def sheet_pdf(path: Path, family: LayoutFamily, questions: list[PrintedQuestion]) -> Path:
    """The question sheet with a text layer, in `family.columns` columns; pages as many as it takes."""
    gutter = 8.0
    width = (170 - gutter * (family.columns - 1)) / family.columns
    pages: list[PageSpec] = []
    boxes: list[PageItem] = []
    column, y = 0, 20.0

    def box(text: str, x: float, w: float) -> TextBox:
        return TextBox(text, x, y, w, size=SIZE, font=family.font)

    def new_page() -> None:
        nonlocal boxes
        if family.columns > 1:
            boxes.append(Line(105, 18, 105, 278, width=0.3))
        pages.append(PageSpec(tuple(boxes)))
        boxes = []

    for q in questions:
        left = 20 + column * (width + gutter)
        cells = [_cell(family, label, text) for label, text in zip(family.labels, q.options)]
        per_row = {"column": 1, "pairs": 2, "row": len(cells), "grid": 3}[family.layout]
        rows = -(-len(cells) // per_row)
        stem_height = text_height(box(f"{q.number}. {q.stem}", left, width))
        passage = [text_height(box(line, left + 10, width - 14)) for line in q.statements]
        passage_height = sum(passage) + 9 if passage else 0.0
        if y + stem_height + passage_height + rows * 2 * ROW_MM + 6 > 275:
            column, y = column + 1, 20.0
            if column == family.columns:
                new_page()
                column = 0
            left = 20 + column * (width + gutter)
        boxes.append(box(f"{q.number}. {q.stem}", left, width))
        y += stem_height + 1.5
        if passage:  # the boxed passage, its title on the box's top rule
            boxes.append(Rect(left + 6, y + 1.5, width - 8, passage_height - 2, line_width=0.3))
            boxes.append(TextBox("<보기>", left + width / 2 - 8, y, 16, size=SIZE - 1, font=family.font, align="C", highlight=(255, 255, 255)))
            y += 5
            for line, height in zip(q.statements, passage):
                boxes.append(box(line, left + 10, width - 14))
                y += height
            y += 4.5
        cell_width = (width - 6) / per_row
        for i in range(0, len(cells), per_row):
            row = [box(cell, left + 6 + cell_width * j, cell_width - 3) for j, cell in enumerate(cells[i:i + per_row])]
            boxes += row
            y += max(ROW_MM, *(text_height(b) for b in row))  # a cell the font wraps pushes the next row down
        y += 4
    new_page()
    return build_pdf(path, pages)


def key_pdf(path: Path, family: LayoutFamily, questions: list[PrintedQuestion]) -> Path:
    """The key as a ruled table of five number/answer column pairs under the script's headings, numbers running down
    each pair, under a title with the year."""
    pairs = 5
    per_column = -(-len(questions) // pairs)
    rows = [[text for _ in range(pairs) for text in family.key_header]]
    for r in range(per_column):
        row: list[str] = []
        for p in range(pairs):
            n = p * per_column + r
            row += [questions[n].number, questions[n].answer] if n < len(questions) else ["", ""]
        rows.append(row)
    items: list[PageItem] = [TextBox(f"{family.key_title} 2031", 20, 16, 170, size=14, bold=True, font=family.font)]
    items += ruled_rows(20, 30, [w for _ in range(pairs) for w in (14.0, 18.0)], rows, size=11, font=family.font, height=11 * 0.62)
    return build_pdf(path, [PageSpec(tuple(items))])


def write_sheet(folder: Path, family: Family) -> tuple[list[Printed], Path, Path]:
    assert isinstance(family, LayoutFamily)
    questions = printed_questions(family, _vocabulary(family))
    return list(questions), sheet_pdf(folder / "sheet.pdf", family, questions), key_pdf(folder / "key.pdf", family, questions)


def measure_layout(folder: Path, family: LayoutFamily, scans: list[ScanSetting], disabled: tuple[str, ...] = (), show: bool = False) -> list[str]:
    """`scriptscans.measure` on the family's sheet and table key."""
    return measure(folder, family, scans, disabled, show, write=write_sheet, key_entry=TABLE_ENTRY)


def main(argv: list[str] | None = None) -> int:
    parser = family_arguments("python -m pipeline.devkit.scriptlayouts", __doc__ or "", [*SETS, "all"], "150/0.8/70,200/0.6/80,300/0.4/90,200/0.6/80/1.5/0.03")
    args = parser.parse_args(argv)
    return run_families(args, SETS, list(SETS) if args.set == "all" else [args.set], measure_layout)


if __name__ == "__main__":
    sys.exit(main())
