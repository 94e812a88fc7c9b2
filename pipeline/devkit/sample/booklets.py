"""Page layouts of the two sample exam styles: the CKE vocational written exam and the Panhellenic exams.

Each renderer turns a `SampleSheet` into the booklet's pages and its key's pages, and reports the page
on which every question was printed (for truth.json).
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from pipeline.devkit.sample.content import SampleQuestion, SampleSheet
from pipeline.devkit.sample.pdfgen import (
    Line,
    Margins,
    PageItem,
    PageSpec,
    Paragraph,
    QuestionBlock,
    Rect,
    TextBox,
    item_bottom,
    paginate,
    room_left,
    with_running_text,
)

ARKUSZE_STAMP = "Więcej arkuszy znajdziesz na stronie: arkusze.pl"
GREEK_COUNTS = {1: "ΜΙΑ", 2: "ΔΥΟ", 3: "ΤΡΕΙΣ", 4: "ΤΕΣΣΕΡΙΣ", 5: "ΠΕΝΤΕ", 6: "ΕΞΙ", 7: "ΕΠΤΑ", 8: "ΟΚΤΩ",
                9: "ΕΝΝΕΑ", 10: "ΔΕΚΑ", 11: "ΕΝΤΕΚΑ", 12: "ΔΩΔΕΚΑ", 13: "ΔΕΚΑΤΡΙΑ", 14: "ΔΕΚΑΤΕΣΣΕΡΑ",
                15: "ΔΕΚΑΠΕΝΤΕ", 16: "ΔΕΚΑΕΞΙ", 17: "ΔΕΚΑΕΠΤΑ", 18: "ΔΕΚΑΟΚΤΩ", 19: "ΔΕΚΑΕΝΝΕΑ"}
GREEK_TENS = {20: "ΕΙΚΟΣΙ", 30: "ΤΡΙΑΝΤΑ", 40: "ΣΑΡΑΝΤΑ", 50: "ΠΕΝΗΝΤΑ", 60: "ΕΞΗΝΤΑ", 70: "ΕΒΔΟΜΗΝΤΑ",
              80: "ΟΓΔΟΝΤΑ", 90: "ΕΝΕΝΗΝΤΑ"}


def greek_count(number: int) -> str:
    """A page count in words as a Panhellenic cover prints it (1–99): a booklet of real length runs past
    the fourteen pages the small samples had, and the full-size archive has one of every length."""
    if number in GREEK_COUNTS:
        return GREEK_COUNTS[number]
    tens, units = divmod(number, 10)
    if not 2 <= tens <= 9:
        raise ValueError(f"no Greek page count for {number}")
    return GREEK_TENS[tens * 10] + (f" {GREEK_COUNTS[units]}" if units else "")


@dataclass(frozen=True)
class RenderedSheet:
    sheet_pages: list[PageSpec]
    key_pages: list[PageSpec]
    question_pages: dict[str, int]  # question number -> 1-based page in the sheet


def render(sheet: SampleSheet) -> RenderedSheet:
    if sheet.language == "pl":
        return _render_cke_vocational(sheet)
    if sheet.language == "el":
        return _render_panhellenic(sheet)
    raise ValueError(f"no booklet style for language {sheet.language!r} (sheet {sheet.sheet_file})")


def _stamp(pages: list[PageSpec], text: str) -> list[PageSpec]:
    """The mirror's watermark line at the very bottom of every page, as arkusze.pl copies carry it."""
    return [
        PageSpec(tuple(p.items) + (TextBox(text, 20, p.height - 8.5, p.width - 40, size=7, align="C"),), p.size)
        for p in pages
    ]


# --------------------------------------------------------------------------- CKE vocational, written part


CKE_MARGINS = Margins(top=24)


def _with_answer_space(block: QuestionBlock, wanted: float) -> QuestionBlock:
    """The block followed by up to `wanted` mm of room for working, never more than one page holds."""
    if wanted <= 0:
        return block
    return replace(block, space_after=block.space_after + max(0.0, min(wanted, room_left(block, margins=CKE_MARGINS))))


def _cke_question(q: SampleQuestion) -> QuestionBlock:
    options = tuple(f"{label}. {text}" for label, text in zip(q.choice_labels, q.choices))
    block = QuestionBlock(f"Zadanie {q.number}.", q.question, options, grid=q.grid, figure=q.figure, figure_width=85)
    return _with_answer_space(block, q.answer_space)


def _cke_cover(sheet: SampleSheet, page_count: int) -> PageSpec:
    facts = sheet.extra
    items: list[PageItem] = [
        TextBox("Arkusz zawiera informacje prawnie chronione do momentu rozpoczęcia egzaminu", 20, 12, 170, size=9, bold=True, align="C"),
        Rect(20, 22, 80, 28, line_width=0.3),
        TextBox("Miejsce na naklejkę z numerem PESEL", 22, 33, 76, size=8, align="C", color=(90, 90, 90)),
        TextBox(f"Układ graficzny © CKE {sheet.year}", 130, 24, 60, size=8, align="R"),
        TextBox(f"Nazwa kwalifikacji: {sheet.title}", 20, 58, 170, size=11),
        TextBox(f"Oznaczenie kwalifikacji: {facts['qualification']}", 20, 72, 170, size=11),
        TextBox("Wersja arkusza: X", 20, 79, 170, size=11),
        TextBox(sheet.sheet_code, 20, 90, 170, size=20, bold=True, align="C"),
        TextBox(f"Czas trwania egzaminu: {facts['duration']}", 20, 102, 170, size=11, align="C"),
        TextBox("EGZAMIN ZAWODOWY", 20, 114, 170, size=16, bold=True, align="C"),
        TextBox(f"Rok {sheet.year}", 20, 122, 170, size=12, align="C"),
        TextBox("CZĘŚĆ PISEMNA", 20, 129, 170, size=12, bold=True, align="C"),
        TextBox(facts["basis"], 20, 136, 170, size=10, align="C"),
        TextBox("Instrukcja dla zdającego", 24, 150, 162, size=11, bold=True),
    ]
    instructions = [
        (f"Sprawdź, czy arkusz egzaminacyjny zawiera {page_count} stron. Ewentualny brak stron lub inne usterki "
        "zgłoś przewodniczącemu zespołu nadzorującego."),
        "Do arkusza dołączona jest KARTA ODPOWIEDZI, na której w oznaczonych miejscach wpisz swój numer PESEL.",
        "Arkusz egzaminacyjny zawiera test składający się z zadań wyboru wielokrotnego.",
        "Za każde poprawnie rozwiązane zadanie możesz uzyskać 1 punkt.",
        ("Czytaj uważnie wszystkie zadania. Spośród zaproponowanych odpowiedzi wybierz jedną i zaznacz ją na "
        "KARCIE ODPOWIEDZI, zamalowując pole A, B, C lub D."),
        "Jako brudnopisu możesz użyć ostatniej strony arkusza; zapisy w brudnopisie nie będą oceniane.",
    ]
    y = 158.0
    for number, text in enumerate(instructions, start=1):
        box = TextBox(f"{number}. {text}", 26, y, 158, size=9.5)
        items.append(box)
        y = item_bottom(box) + 1.5
    items.append(Rect(20, 146, 170, y - 146 + 2, line_width=0.3))
    items.append(TextBox("Powodzenia!", 20, y + 8, 170, size=12, bold=True, align="C"))
    return PageSpec(tuple(items))


def _cke_scratch_page() -> PageSpec:
    return PageSpec((TextBox("BRUDNOPIS", 20, 24, 170, size=12, bold=True, align="C"),))


def _cke_rules_page(rules: tuple[str, ...]) -> PageSpec:
    """The page after the cover: the exam's rules as paragraphs under a heading, no question numbering."""
    items: list[PageItem] = [TextBox("Informacje dla zdającego", 20, 26, 170, size=12, bold=True, align="C")]
    y = 36.0
    for text in rules:
        box = TextBox(text, 20, y, 170, size=10, align="J")
        items.append(box)
        y = item_bottom(box) + 3.0
    return PageSpec(tuple(items))


def _render_cke_vocational(sheet: SampleSheet) -> RenderedSheet:
    flow = paginate([_cke_question(q) for q in sheet.questions], margins=CKE_MARGINS)
    front = [_cke_cover(sheet, 0)] + ([_cke_rules_page(sheet.rules)] if sheet.rules else [])
    pages = front + flow.pages + [_cke_scratch_page()] * sheet.scratch_pages
    pages[0] = _cke_cover(sheet, len(pages))
    pages = with_running_text(pages, header=sheet.sheet_code, footer="Strona {page} z {pages}", skip=[0])
    question_pages = {q.number: flow.block_pages[i] + 1 + len(front) for i, q in enumerate(sheet.questions)}

    key_items: list[PageItem] = [
        TextBox("Odpowiedzi", 20, 22, 170, size=16, bold=True, align="C"),
        TextBox(f"{sheet.sheet_code} · {sheet.title}", 20, 32, 170, size=10, align="C"),
        Line(20, 44, 190, 44, width=0.3),
    ]
    y = 50.0
    for q in sheet.questions:
        box = TextBox(f"{q.number}. {q.answer}", 30, y, 60, size=11)
        key_items.append(box)
        y = item_bottom(box) + 1.5
    return RenderedSheet(
        sheet_pages=_stamp(pages, ARKUSZE_STAMP),
        key_pages=_stamp([PageSpec(tuple(key_items))], ARKUSZE_STAMP),
        question_pages=question_pages,
    )


# --------------------------------------------------------------------------- Panhellenic exams


def _panhellenic_blocks(sheet: SampleSheet, page_count: int) -> tuple[list, dict[int, str]]:
    """The flow of blocks, and the printed question number ("Α1", "Α5") of each question block, by index."""
    facts = sheet.extra
    blocks: list = [
        Paragraph("ΠΑΝΕΛΛΑΔΙΚΕΣ ΕΞΕΤΑΣΕΙΣ", size=12, bold=True, align="C", space_after=1),
        Paragraph(facts["school"], size=11, bold=True, align="C", space_after=1),
        Paragraph(facts["date"], size=11, bold=True, align="C", space_after=1),
        Paragraph(f"ΕΞΕΤΑΖΟΜΕΝΟ ΜΑΘΗΜΑ: {sheet.title}", size=11, bold=True, align="C", space_after=1),
        Paragraph(f"ΣΥΝΟΛΟ ΣΕΛΙΔΩΝ: {greek_count(page_count)} ({page_count})", size=11, bold=True, align="C", space_after=6),
    ]
    numbers: dict[int, str] = {}
    section = None
    seen_contexts: set[str] = set()
    groups: dict[str, list[SampleQuestion]] = {}
    order: list[str] = []
    for q in sheet.questions:
        parent = q.number.split(".")[0]
        if parent not in groups:
            groups[parent] = []
            order.append(parent)
        groups[parent].append(q)
    for parent in order:
        members = groups[parent]
        first = members[0]
        if parent[0] != section:
            section = parent[0]
            blocks.append(Paragraph(f"ΘΕΜΑ {section}", size=12, bold=True, align="C", space_after=4))
        trailer = f"Μονάδες {sum(m.points or 0 for m in members)}"
        if first.type == "true_false":
            # a statement block: the instruction is the stem, the statements print like options
            statements = tuple(f"{m.number.split('.')[1]}. {m.question}" for m in members)
            block = QuestionBlock(f"{parent}.", first.context or "", statements, number_inline=True, trailer=trailer)
        else:
            if first.context and first.context not in seen_contexts:
                seen_contexts.add(first.context)
                blocks.append(Paragraph(first.context, space_after=4))
            options = tuple(f"{label}. {text}" for label, text in zip(first.choice_labels, first.choices))
            block = QuestionBlock(f"{parent}.", first.question, options, number_inline=True, trailer=trailer)
            block = _with_answer_space(block, first.answer_space)
        numbers[len(blocks)] = parent
        blocks.append(block)
    blocks.append(Paragraph("ΚΑΛΗ ΕΠΙΤΥΧΙΑ", size=11, bold=True, align="C", space_after=0))
    return blocks, numbers


def _render_panhellenic(sheet: SampleSheet) -> RenderedSheet:
    # Page 1 states the page count, so lay out once to count pages, then again with the count.
    blocks, _ = _panhellenic_blocks(sheet, 1)
    page_count = len(paginate(blocks, margins=Margins(top=24)).pages)
    blocks, parents = _panhellenic_blocks(sheet, page_count)
    flow = paginate(blocks, margins=Margins(top=24))
    if len(flow.pages) != page_count:
        raise RuntimeError(f"{sheet.sheet_file}: page count changed between layout passes")
    pages = with_running_text(
        flow.pages,
        header="ΑΡΧΗ {page}ΗΣ ΣΕΛΙΔΑΣ",
        footer="ΤΕΛΟΣ {page}ΗΣ ΑΠΟ {pages} ΣΕΛΙΔΕΣ",
        header_align="C",
        bold=True,
        rule=False,
        size=10,
    )
    parent_page = {parents[i]: flow.block_pages[i] + 1 for i in parents}
    question_pages = {q.number: parent_page[q.number.split(".")[0]] for q in sheet.questions}

    key_lines: list[tuple[str, bool]] = [
        (f"ΠΑΝΕΛΛΑΔΙΚΕΣ ΕΞΕΤΑΣΕΙΣ {sheet.year}", True),
        (f"ΑΠΑΝΤΗΣΕΙΣ ΣΤΟ ΜΑΘΗΜΑ: {sheet.title}", True),
    ]
    section = None
    for q in sheet.questions:
        parent, _, part = q.number.partition(".")
        if parent[0] != section:
            section = parent[0]
            key_lines.append((f"ΘΕΜΑ {section}", True))
        if q.type == "true_false":
            if part == "α":
                key_lines.append((parent, False))
            key_lines.append((f"{part}. {q.choices[q.answer_index]}", False))
        elif q.type == "single_choice":
            key_lines.append((f"{q.number} → {q.answer}", False))
        else:
            key_lines.append((f"{q.number}. {q.model_answer}", False))
    items: list[PageItem] = []
    y = 22.0
    for text, bold in key_lines:
        box = TextBox(text, 25, y + (3 if bold else 0), 160, size=11, bold=bold, align="L")
        items.append(box)
        y = item_bottom(box) + 2
    return RenderedSheet(sheet_pages=pages, key_pages=[PageSpec(tuple(items))], question_pages=question_pages)
