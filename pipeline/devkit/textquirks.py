"""Question sheets whose text layers are written the way other producers write them, read by the text path and
compared with what was printed, strictly: every record string must be the printed text in NFC, character for
character (no NFKC, no folding of quotes), with its options and key matched.

    python -m pipeline.devkit.textquirks --out /tmp/quirks [--set tuning|checking|all] [--families vi-nfd,...] [--show]

Each family is a sheet of numbered multiple-choice questions of its language's words (`scriptscans`' vocabulary),
options one per line, with a list key, its text layer written glyph by glyph (`sample.rawtext`) with one quirk:

- `nfd`: letters written as a base glyph and combining-mark glyphs (`a` + U+0301 + U+0323), every other question,
  so one sheet holds precomposed and decomposed text;
- `nfd-map`: precomposed glyphs whose ToUnicode map gives their decomposition;
- `jamo`: Hangul written as conjoining jamo (U+1100…) through fpdf2 with a CJK font, every other question;
- `spacing-accents`: an accent drawn as its own spacing glyph (`´` U+00B4, `΄` U+0384, `ˆ`, `¨` …) centred over
  its base letter and emitted before it, as TeX's `\\accent` writes it;
- `ligatures`: `fi`, `fl`, `ff`, `ffi`, `ffl` drawn as one ligature glyph mapped to its presentation form (`ﬁ`);
- `reverse`: each line's glyphs emitted right to left;
- `columns`: a page's glyphs emitted column by column (sorted by x, then y).

Per family: recall, stems exact, options exact, answers, and records with a string not in NFC. `tuning` families
are the ones mechanisms may be built on; `checking` ones only report.
"""
from __future__ import annotations

import argparse
import sys
import unicodedata
from dataclasses import dataclass, replace
from pathlib import Path

from pipeline.devkit.sample.pdfgen import CJK_FONT, FONT_FILES, cjk_font, font_dir
from pipeline.devkit.sample.rawtext import Placed, has_glyph, line_width, set_line, write_pdf
from pipeline.devkit.scriptscans import Family, Printed, _vocabulary, key_pdf, printed_questions, read_records, sheet_pdf
from pipeline.extract.ocr import LexiconUnavailable, installed_languages
from pipeline.records import Question

SIZE = 10.5
LEADING = SIZE * 1.45
LEFT, WIDTH, TOP, BOTTOM = 57.0, 480.0, 60.0, 780.0
# An accent's spacing form (a glyph of its own, drawn over the letter), by the combining mark it stands for.
SPACING = {"\u0301": "\u00b4", "\u0300": "`", "\u0302": "\u02c6", "\u0303": "\u02dc", "\u0308": "\u00a8", "\u030c": "\u02c7",
           "\u0306": "\u02d8", "\u030a": "\u02da", "\u0304": "\u00af"}
GREEK_TONOS = "\u0384"
# `key_pdf`'s "<word> 12: B", or a word in the answer's place (`İPTAL`).
KEY_ENTRY_OR_WORD = r"(?<![\d.])(?P<number>\d{{1,3}}):\s*(?P<answer>[{labels}]|\w{{3,}})(?!\w)"
LIGATURES = (("ffi", "\ufb03"), ("ffl", "\ufb04"), ("ff", "\ufb00"), ("fi", "\ufb01"), ("fl", "\ufb02"))


@dataclass(frozen=True)
class QuirkFamily(Family):
    quirk: str = "plain"  # one quirk or several joined by "+" (`nfd+columns`)
    voided: str = ""  # a word the key prints for question 3 instead of its answer (`İPTAL`): the question is annulled

    def has(self, quirk: str) -> bool:
        return quirk in self.quirk.split("+")


TUNING = (
    QuirkFamily("vi-plain", "vi", "vie", ("A", "B", "C", "D"), "A.", "column", "DejaVuSans", 200),
    QuirkFamily("vi-nfd", "vi", "vie", ("A", "B", "C", "D"), "A.", "column", "DejaVuSans", 201, quirk="nfd"),
    QuirkFamily("el-spacing-accents", "el", "ell", ("Α", "Β", "Γ", "Δ"), "A.", "column", "DejaVuSans", 202, quirk="spacing-accents"),
    QuirkFamily("es-ligatures", "es", "spa", ("a", "b", "c", "d"), "A)", "column", "DejaVuSerif", 203, quirk="ligatures"),
    QuirkFamily("ru-reverse", "ru", "rus", ("А", "Б", "В", "Г"), "A)", "column", "DejaVuSans", 204, quirk="reverse"),
    QuirkFamily("ko-jamo", "ko", "kor", ("①", "②", "③", "④", "⑤"), "", "column", CJK_FONT, 205, quirk="jamo"),
    QuirkFamily("tr-voided-capitals", "tr", "tur", ("A", "B", "C", "D", "E"), "A)", "column", "DejaVuSans", 206, voided="İPTAL"),
)
CHECKING = (
    QuirkFamily("el-nfd", "el", "ell", ("Α", "Β", "Γ", "Δ"), "A.", "column", "DejaVuSerif", 211, quirk="nfd"),
    QuirkFamily("vi-nfd-map", "vi", "vie", ("A", "B", "C", "D"), "A.", "column", "DejaVuSerif", 212, quirk="nfd-map"),
    QuirkFamily("tr-spacing-accents", "tr", "tur", ("A", "B", "C", "D", "E"), "A)", "column", "DejaVuSerif", 213, quirk="spacing-accents"),
    QuirkFamily("pt-ligatures", "pt", "por", ("A", "B", "C", "D"), "(A)", "column", "DejaVuSans", 214, quirk="ligatures"),
    QuirkFamily("tr-columns", "tr", "tur", ("A", "B", "C", "D", "E"), "A)", "column", "DejaVuSans", 215, quirk="columns"),
    QuirkFamily("vi-reverse", "vi", "vie", ("A", "B", "C", "D"), "A.", "column", "DejaVuSerif", 216, quirk="reverse"),
    # Quirks together, never looked at while building: marks of glyphs emitted column by column or right to left.
    QuirkFamily("vi-nfd-columns", "vi", "vie", ("A", "B", "C", "D"), "A.", "column", "DejaVuSans", 217, quirk="nfd+columns"),
    QuirkFamily("el-accents-reverse", "el", "ell", ("α", "β", "γ", "δ"), "A)", "column", "DejaVuSerif", 218, quirk="spacing-accents+reverse"),
    QuirkFamily("pl-spacing-accents", "pl", "pol", ("A", "B", "C", "D"), "A.", "column", "DejaVuSerif", 219, quirk="spacing-accents"),
    # Added after `vi-nfd-columns` had shown a combining mark over a narrow letter, emitted out of stream order, left
    # beside it (the pen-position rule of `extract.accents` came then): another script and emission order, never looked at.
    QuirkFamily("ru-nfd-columns", "ru", "rus", ("А", "Б", "В", "Г"), "A)", "column", "DejaVuSerif", 221, quirk="nfd+columns"),
    QuirkFamily("el-nfd-reverse", "el", "ell", ("Α", "Β", "Γ", "Δ"), "A.", "column", "DejaVuSans", 222, quirk="nfd+reverse"),
    QuirkFamily("tr-voided-title", "tr", "tur", ("A", "B", "C", "D", "E"), "A)", "column", "DejaVuSerif", 220, quirk="nfd", voided="İptal"),
)
SETS = {"tuning": TUNING, "checking": CHECKING}


# --------------------------------------------------------------------------- the quirks


def _decomposed(font: Path, line: list[Placed]) -> list[Placed]:
    """Each letter with marks as its base glyph and a glyph per combining mark, zero advance, at the base's end."""
    out = []
    for g in line:
        parts = unicodedata.normalize("NFD", g.glyph)
        if len(parts) == 1 or not all(has_glyph(font, ch) for ch in parts):
            out.append(g)
            continue
        out.append(replace(g, glyph=parts[0], text=parts[0]))
        end = g.x + line_width(font, parts[0], g.size)
        out += [Placed(mark, mark, end, g.y, g.size) for mark in parts[1:]]
    return out


def _mapped_decomposed(line: list[Placed]) -> list[Placed]:
    return [replace(g, text=unicodedata.normalize("NFD", g.text)) for g in line]


def _spacing_accents(font: Path, line: list[Placed]) -> list[Placed]:
    """A letter whose last mark has a spacing form: the letter without that mark, and the spacing accent centred over
    it, emitted first."""
    out = []
    for g in line:
        parts = unicodedata.normalize("NFD", g.glyph)
        last = parts[-1]
        accent = GREEK_TONOS if last == "\u0301" and "GREEK" in unicodedata.name(parts[0], "") else SPACING.get(last)
        rest = unicodedata.normalize("NFC", parts[:-1])
        if len(parts) == 1 or accent is None or len(rest) != 1 or not has_glyph(font, rest) or not has_glyph(font, accent):
            out.append(g)
            continue
        middle = g.x + line_width(font, rest, g.size) / 2
        out.append(Placed(accent, accent, middle - line_width(font, accent, g.size) / 2, g.y, g.size))
        out.append(replace(g, glyph=rest, text=rest))
    return out


def _ligatures(font: Path, text: str, x: float, y: float) -> list[Placed]:
    out: list[Placed] = []
    i = 0
    while i < len(text):
        for letters, ligature in LIGATURES:
            if text.startswith(letters, i) and has_glyph(font, ligature):
                out.append(Placed(ligature, ligature, x, y, SIZE))
                x += line_width(font, ligature, SIZE)
                i += len(letters)
                break
        else:
            out += set_line(font, text[i], x, y, SIZE)
            x += line_width(font, text[i], SIZE)
            i += 1
    return out


def _wrapped(font: Path, text: str, width: float) -> list[str]:
    lines, current = [], ""
    for word in text.split():
        trial = f"{current} {word}" if current else word
        if current and line_width(font, trial, SIZE) > width:
            lines.append(current)
            current = word
        else:
            current = trial
    return [*lines, current]


def _label(family: Family, label: str) -> str:
    return family.style.replace("A", label) if family.style else label


def _font_path(family: Family) -> Path:
    return font_dir() / FONT_FILES[(family.font, False)]


def quirk_sheet(path: Path, family: QuirkFamily, questions: list[Printed]) -> Path:
    """The sheet written glyph by glyph with the family's quirk (every other question for `nfd`)."""
    font = _font_path(family)
    pages: list[list[list[Placed]]] = [[]]
    y = TOP

    def put(text: str, x: float, width: float, number: int) -> None:
        nonlocal y
        for part in _wrapped(font, text, width):
            line = _ligatures(font, part, x, y) if family.has("ligatures") else set_line(font, part, x, y, SIZE)
            if family.has("nfd") and number % 2:
                line = _decomposed(font, line)
            if family.has("nfd-map") and number % 2:
                line = _mapped_decomposed(line)
            if family.has("spacing-accents"):
                line = _spacing_accents(font, line)
            if family.has("reverse"):
                line = line[::-1]
            pages[-1].append(line)
            y += LEADING

    for q in questions:
        need = (len(_wrapped(font, q.stem, WIDTH)) + len(q.options)) * LEADING + 8
        if y + need > BOTTOM:
            pages.append([])
            y = TOP
        put(f"{q.number}. {q.stem}", LEFT, WIDTH, int(q.number))
        for label, option in zip(family.labels, q.options):
            put(f"{_label(family, label)} {option}", LEFT + 17, WIDTH - 17, int(q.number))
        y += 8
    glyph_pages = []
    for lines in pages:
        glyphs = [g for line in lines for g in line]
        if family.has("columns"):
            glyphs.sort(key=lambda g: (round(g.x, 1), g.y))
        glyph_pages.append(glyphs)
    return write_pdf(path, glyph_pages, font)


def _jamo(text: str) -> str:
    """Hangul syllables as conjoining jamo (NFD)."""
    return "".join(unicodedata.normalize("NFD", ch) if "\uac00" <= ch <= "\ud7a3" else ch for ch in text)


def write_quirk_sheet(folder: Path, family: QuirkFamily) -> tuple[list[Printed], Path, Path]:
    vocabulary = _vocabulary(family)
    questions = printed_questions(family, vocabulary)
    if family.voided:
        questions[2] = replace(questions[2], answer=family.voided)
    if family.has("jamo"):
        # Stems as jamo (the sheet measures their wrapped height) and each option's first word (an option's row is one
        # line high: jamo drawn one by one are wider than their syllables).
        printed = [replace(q, stem=_jamo(q.stem), options=tuple(_jamo(o.split(" ", 1)[0]) + o[len(o.split(" ", 1)[0]):] for o in q.options))
                   if int(q.number) % 2 else q for q in questions]
        sheet = sheet_pdf(folder / "sheet.pdf", family, printed)
    else:
        sheet = quirk_sheet(folder / "sheet.pdf", family, questions)
    return questions, sheet, key_pdf(folder / "key.pdf", family, questions, vocabulary)


# --------------------------------------------------------------------------- measuring


@dataclass
class StrictScore:
    printed: int = 0
    found: int = 0
    stems_exact: int = 0
    options: int = 0
    options_exact: int = 0
    answers: int = 0
    not_nfc: int = 0

    def cells(self) -> list[str]:
        def pct(a: int, b: int) -> str:
            return f"{100 * a / b:5.1f}" if b else "  -  "
        return [pct(self.found, self.printed), pct(self.stems_exact, self.printed), pct(self.options_exact, self.options),
                pct(self.answers, self.printed), str(self.not_nfc)]


def _same(read: str, printed: str) -> bool:
    return " ".join(read.replace("**", "").split()) == unicodedata.normalize("NFC", " ".join(printed.split()))


def strict_score(printed: list[Printed], records: dict[str, Question], family: Family, show: bool = False) -> StrictScore:
    result = StrictScore()
    for q in printed:
        result.printed += 1
        result.options += len(q.options)
        record = records.get(q.number)
        if record is None:
            if show:
                print(f"  {family.name} lost {q.number}: {q.stem!r}", file=sys.stderr)
            continue
        result.found += 1
        strings = [record.question, *record.choices]
        result.not_nfc += not all(unicodedata.is_normalized("NFC", s) for s in strings)
        stem = _same(record.question, q.stem)
        result.stems_exact += stem
        if show and not stem:
            print(f"  {family.name} {q.number} stem: {record.question!r} for {q.stem!r}", file=sys.stderr)
        for at, option in enumerate(q.options):
            exact = at < len(record.choices) and _same(record.choices[at], option)
            result.options_exact += exact
            if show and not exact:
                print(f"  {family.name} {q.number}{family.labels[at]}: {record.choices[at] if at < len(record.choices) else None!r} "
                      f"for {option!r}", file=sys.stderr)
        right = record.voided and record.answer is None if q.answer == getattr(family, "voided", None) else record.answer == q.answer
        result.answers += right
        if show and not right:
            print(f"  {family.name} {q.number}: answer {record.answer!r} for {q.answer!r}", file=sys.stderr)
    return result


def measure_quirk(folder: Path, family: QuirkFamily, show: bool = False) -> StrictScore:
    where = folder / family.name / "2031"
    where.mkdir(parents=True, exist_ok=True)
    questions, sheet, key = write_quirk_sheet(where, family)
    return strict_score(questions, read_records(sheet, key, family, key_entry=KEY_ENTRY_OR_WORD), family, show)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m pipeline.devkit.textquirks", description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--out", type=Path, required=True, help="work folder for the generated sheets")
    parser.add_argument("--set", choices=[*SETS, "all"], default="all")
    parser.add_argument("--families", default="", help="only these families, comma-separated")
    parser.add_argument("--show", action="store_true", help="print every stem, option and answer read otherwise than printed")
    args = parser.parse_args(argv)
    chosen = set(filter(None, args.families.split(",")))
    installed = installed_languages()
    print(f"{'family':22} {'quirk':24} {'recall':>6} {'stems':>6} {'options':>7} {'answers':>7} {'not NFC':>7}")
    for name in (SETS if args.set == "all" else {args.set: SETS[args.set]}):
        print(f"# {name}", flush=True)
        for family in SETS[name]:
            if chosen and family.name not in chosen:
                continue
            if family.tesseract not in installed or (family.font == CJK_FONT and cjk_font() is None):
                print(f"{family.name:22} skipped: word list or font not installed", flush=True)
                continue
            try:
                cells = measure_quirk(args.out, family, args.show).cells()
            except LexiconUnavailable as exc:
                print(f"{family.name:22} skipped: {exc}", flush=True)
                continue
            print(f"{family.name:22} {family.quirk:24} {cells[0]:>6} {cells[1]:>6} {cells[2]:>7} {cells[3]:>7} {cells[4]:>7}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
