"""Repairs of option labels and question numbers: the marks and look-alike letters Tesseract gets
wrong at the start of a line (`c.` for `C.`, `{B)` for `(B)`, `so` for `50`), the rising sequence of
question numbers, Roman numerals, and `normalize_ocr_line` for a whole line.
"""
from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import replace

from pipeline.diagnostics import Code, Diagnostic, diagnose
from pipeline.extract.document import Line
from pipeline.extract.ocr.numbering import anchored_mends
from pipeline.extract.ocr.words import Word, line_openers, words_by_line
from pipeline.languages import language_for_tesseract

def script_label_shapes(languages: Sequence[str]) -> tuple[str, dict[str, str]]:
    """The same-shape small letters and the lone-label look-alikes of the languages' data (`label_shapes`), merged."""
    same_shape, lookalikes = "", {}
    for name in languages:
        found = language_for_tesseract(name)
        if found is not None:
            same_shape += found.label_shapes.same_shape
            lookalikes.update(found.label_shapes.lookalikes)
    return same_shape, lookalikes


def label_case_cells(words: list[Word], labels: Sequence[str], shapes: tuple[str, dict[str, str]] = ("", {})) -> list[Word]:
    """A one-letter cell whose two cases look alike ("c" alone in a key-table cell) takes the labels'
    case, and so does a label letter read twice, once in each case ("Cc" for a marking scheme's lone
    "C": sized by its lower-case half, it passed for margin small print). `shapes`, from the languages'
    data (`script_label_shapes`), adds its script's same-shape letters (Cyrillic "г" for "Г") and the
    characters a lone label is misread as (Greek "ὃ" for "δ"). Not in running text, where
    a word of two or more letters stands beside it on its line: the letter is a word as printed there
    ("opción c de", "vitamina C"), while a key's "15. c" is a cell."""
    by_fold = {label.casefold(): label for label in labels}
    in_text: set[int] = set()
    for members in words_by_line(words).values():
        for at, word in enumerate(members):
            beside = members[max(at - 1, 0) : at] + members[at + 1 : at + 2]
            if any(sum(ch.isalpha() for ch in other.text) >= 2 for other in beside):
                in_text.add(id(word))

    def label_of(text: str) -> str | None:
        if len(text) == 1 and (text in _SAME_SHAPE or text.casefold() in shapes[0]):
            return by_fold.get(text.casefold())
        if len(text) == 1 and text in shapes[1]:
            return by_fold.get(shapes[1][text].casefold())
        if len(text) == 2 and text[0] != text[1] and text[0].casefold() == text[1].casefold():
            return by_fold.get(text.casefold()[0])
        return None

    return [replace(w, text=label) if id(w) not in in_text and (label := label_of(w.text)) else w for w in words]


MARKS_SHOWN = 8  # words a marks-restored note shows before "…"


def restored_marks_note(before: list[Word], after: list[Word], what: str) -> tuple[Diagnostic, ...]:
    """The page's `ocr.marks_restored` note (info) for a pass that put back lost marks (`.`, `)`) on labels or numbers it
    read (`before` and `after` word for word): the count and the words as given their mark; () when none. A mark on a
    read label or number changes no question's identity or answer, only where a line is cut: one counted note a page,
    not a line a question. A number put in from the count (`inferred_from`) is no mark: `numbering.inferred_notes`."""
    given = [b.text for a, b in zip(before, after) if a.text != b.text and b.inferred_from is None]
    if not given:
        return ()
    shown = ", ".join(given[:MARKS_SHOWN]) + (", …" if len(given) > MARKS_SHOWN else "")
    return (diagnose(Code.OCR_MARKS_RESTORED, count=len(given), what=what, words=shown),)


NUMBER_COLUMN_MIN = 1  # line-opening numbers a page needs before others are mended after them
NUMBER_DOT_MIN = 3  # and with a dot, before a number without one gets it


def restore_label_marks(words: list[Word], labels: Sequence[str]) -> list[Word]:
    """A bare label letter opening a line of text ("B  jest protokołem…") lost its dot or bracket to the
    scan; it gets the mark the page's other labels carry ("A.", "C." → "B."). Lone letters with nothing
    after them (key-table cells), and a letter just after a marked label (the option's first word), are
    left alone."""
    lines = words_by_line(words)
    marks = Counter(
        members[0].text[1]
        for members in lines.values()
        if len(members[0].text) == 2 and members[0].text[0] in labels and members[0].text[1] in ".)"
    )
    if not marks:
        return words
    mark = marks.most_common(1)[0][0]
    marked = [w for w in words if len(w.text) == 2 and w.text[0] in labels and w.text[1] in ".)"]
    bare = {
        id(m[0]) for m in lines.values()
        if len(m) > 1 and len(m[0].text) == 1 and m[0].text in labels and not _follows_a_label(m[0], marked)
        and not _word_spaced(m)
    }
    # A label Tesseract put in a line of its own, with its option's text beside it on the same row.
    for members in lines.values():
        label = members[0]
        if len(members) != 1 or len(label.text) != 1 or label.text not in labels:
            continue
        height = label.bottom - label.top
        if any(
            w.left > label.right
            and w.left - label.right < 5 * height  # a label column: "D." then a wide indent
            and min(w.bottom, label.bottom) - max(w.top, label.top) > 0.5 * height
            and sum(ch.isalpha() for ch in w.text) >= 2
            for w in words
        ):
            bare.add(id(label))
    return [replace(w, text=w.text + mark) if id(w) in bare else w for w in words]


MARK_GAP_RATIO = 1.3  # the white after a bare label, over the line's median word space, that still holds its mark


def _word_spaced(line: list[Word]) -> bool:
    """Whether the line's first word is followed by a plain word space: the article "A" opening a
    Portuguese or Spanish sentence ("A Agência Nacional…": 0.8–1.0 of the line's median space on OAB
    scans), not a label whose unread mark still stands in a wider white ("B  jest protokołem…"). A line
    of under three gaps has no median to go by."""
    gaps = [b.left - a.right for a, b in zip(line, line[1:])]
    if len(gaps) < 3:
        return False
    spaces = sorted(gaps[1:])
    return gaps[0] < MARK_GAP_RATIO * spaces[len(spaces) // 2]


def _follows_a_label(word: Word, marked_labels: list[Word]) -> bool:
    """Whether a marked label ("D)") stands just left of `word` on its row: the word then opens the
    option's text ("D) A despeito…", Tesseract putting the label in a line of its own), and a label
    never follows a label."""
    height = word.bottom - word.top
    return any(
        label.right <= word.left and word.left - label.right < 3 * height
        and min(label.bottom, word.bottom) - max(label.top, word.top) > 0.5 * min(height, label.bottom - label.top)
        for label in marked_labels
    )


_NUMBER_TOKEN = re.compile(r"^(?P<n>\d{1,3})(?P<mark>[.,:;]?)$")
_LOOKALIKE_NUMBER = re.compile(r"^(?P<n>[\dsSoOlIzZbBgq]{1,3})(?P<mark>[.,:;]?)$")
_DIGIT_LOOKALIKES = str.maketrans("sSoOlIzZbBgq", "550011226899")


def restore_question_numbers(words: list[Word]) -> list[Word]:
    """Question numbers at the left edge where the page's other numbers stand, mended: a dot lost or read
    as a comma or colon ("32," or "32" among "31." and "33.") and digits read as look-alike letters ("so" for 50
    between 49 and 51, "s9" after 58 — bold digits in a grey box), when the mended number is missing
    from the page and one of its neighbours is there. A number inside a wrapped sentence starts at
    the text's indent, not at that edge, and is left alone."""
    firsts = line_openers(words)
    numbered = [(w, m) for w in firsts if (m := _NUMBER_TOKEN.match(w.text))]
    if len(numbered) < NUMBER_COLUMN_MIN:
        return words
    column = sorted(w.left for w, _ in numbered)[len(numbered) // 2]
    values = {int(m.group("n")) for _, m in numbered}
    marks = Counter(m.group("mark") for _, m in numbered).most_common(1)[0]
    dot = marks[0] == "." and marks[1] >= NUMBER_DOT_MIN
    fixed: dict[int, Word] = {}
    for word in firsts:
        if abs(word.left - column) > 0.5 * (word.bottom - word.top):
            continue
        match = _NUMBER_TOKEN.match(word.text)
        if match:
            if dot and match.group("mark") != ".":
                fixed[id(word)] = replace(word, text=match.group("n") + ".")
            continue
        lookalike = _LOOKALIKE_NUMBER.match(word.text)
        if lookalike and any(ch.isalpha() for ch in lookalike.group("n")):
            value = int(lookalike.group("n").translate(_DIGIT_LOOKALIKES))
            if value not in values and (value - 1 in values or value + 1 in values):
                mark = "." if dot and lookalike.group("mark") else lookalike.group("mark")
                fixed[id(word)] = replace(word, text=f"{value}{mark}", inferred_from=word.text)  # no digit was read
    mended = [fixed.get(id(w), w) for w in words]
    return _anchored(_fit_number_sequence(mended, column), column, {id(w) for w in words})


def _anchored(words: list[Word], column: int, given: set[int]) -> list[Word]:
    """The numbers mended here (not among the `given` words' ids) that stand between the column's numbers above and
    below read as one less and one more (`numbering.anchored_mends`: nothing mended beside them) marked anchored."""
    column_numbers = sorted(
        ((w, m) for w in line_openers(words) if (m := _NUMBER_TOKEN.match(w.text)) and abs(w.left - column) <= 0.5 * (w.bottom - w.top)),
        key=lambda pair: pair[0].top,
    )
    read = [w.inferred_from if w.inferred_from is not None else m.group("n") for w, m in column_numbers]
    anchored: set[int] = set()
    for i, (word, match) in enumerate(column_numbers):
        value = int(match.group("n"))
        if id(word) not in given and word.inferred_from is not None and 1 in anchored_mends(read[i - 1:i + 2] if i else [],
                                                                                             [value - 1, value, value + 1]):
            anchored.add(id(word))
    return [replace(w, inferred_anchored=True) if id(w) in anchored else w for w in words]


# Digits Tesseract confuses in bold or boxed numbers, by what it read.
_DIGIT_CONFUSIONS = {"9": "53", "3": "85", "8": "360", "5": "96", "6": "58", "0": "86", "7": "1", "1": "7"}


def _fit_number_sequence(words: list[Word], column: int) -> list[Word]:
    """A number at the number column that breaks the rising sequence of its neighbours above and below
    ("52", "93", "57" down a key table) takes the one reading, a single confused digit away, that fits
    between them and is not on the page yet ("53")."""
    firsts = line_openers(words)
    column_numbers = sorted(
        ((w, m) for w in firsts if (m := _NUMBER_TOKEN.match(w.text)) and abs(w.left - column) <= 0.5 * (w.bottom - w.top)),
        key=lambda pair: pair[0].top,
    )
    values = [int(m.group("n")) for _, m in column_numbers]
    fixed: dict[int, Word] = {}
    for i in range(1, len(column_numbers) - 1):
        before, value, after = values[i - 1], values[i], values[i + 1]
        if not before < after or before < value < after:
            continue
        word, match = column_numbers[i]
        digits = match.group("n")
        fits = {
            int(digits[:at] + other + digits[at + 1 :])
            for at, digit in enumerate(digits)
            for other in _DIGIT_CONFUSIONS.get(digit, "")
        }
        fits = {v for v in fits if before < v < after and v not in values}
        if len(fits) == 1:  # a digit read otherwise: the number is the count's, not the reading's
            fixed[id(word)] = replace(word, text=str(fits.pop()) + match.group("mark"), inferred_from=word.text)
    return [fixed.get(id(w), w) for w in words]
_ROMAN_LOOKALIKE = re.compile(r"^(?=.*[lI])[lI|]{1,3}$")


def roman_numerals(words: list[Word]) -> list[Word]:
    """A word of one to three strokes read as l, I or | ("ll", "Il", "|") is the Roman numeral of that
    many I's: no word of the languages we read is spelt so."""
    return [replace(w, text="I" * len(w.text)) if _ROMAN_LOOKALIKE.match(w.text) and w.text != "I" else w for w in words]


def split_glued_labels(words: list[Word], labels: Sequence[str]) -> list[Word]:
    """Split a line-initial "A.2" / "E:5" into the label and its answer, each with its share of the box.

    Tesseract drops the space after a label before a short answer; split, the answer gets its own
    highlight verdict (the key marking covers "2", not "A.").
    """
    result: list[Word] = []
    previous_line = None
    for word in words:
        first_in_line = word.line != previous_line
        previous_line = word.line
        match = _GLUED.match(word.text) if first_in_line else None
        rest = word.text[match.end() :] if match else ""
        label = normalize_ocr_line(word.text[: match.end()] + " x", labels)[:-2] if match else ""
        if not match or not rest or not label or label[0] not in labels:
            result.append(word)
            continue
        cut = word.left + round((word.right - word.left) * match.end() / len(word.text))
        result.append(replace(word, text=label, right=cut))
        result.append(replace(word, text=rest, left=cut))
    return result


LABEL_TOKEN = re.compile(r"^[(\[]?\w[.):]$")


# Letters whose capital and small forms have the same shape, so Tesseract guesses the case.
_SAME_SHAPE = set("cosuvwxzCOSUVWXZ")
# Look-alikes across scripts: Tesseract with Latin and Greek data loaded picks either for a lone label,
# and Greek data alone reads γ as Υ or Y now and then.
_LOOKALIKES: dict[str, tuple[str, ...]] = {
    "a": ("α",), "B": ("β", "Β"), "y": ("γ",), "Y": ("γ", "Υ"), "Υ": ("γ", "Y"), "d": ("δ",), "e": ("ε",),
    **{latin: (greek,) for latin, greek in zip("AEZHIKMNOPTX", "ΑΕΖΗΙΚΜΝΟΡΤΧ")},
    **{greek: (latin,) for latin, greek in zip("ABEZHIKMNOPTX", "ΑΒΕΖΗΙΚΜΝΟΡΤΧ")},
}

# "(c)" read as a copyright sign, an opening bracket read as "{" or "[", a closing one as "}" or "]".
# The circled C of a copyright sign for a label "(C)". Not with a mark after it ("©)"): a ring and a bracket
# are no "(C)", and which label it is only its place says (parse's `label-column`); read as "(C)" it became
# "(C) )", and the option's text kept the stray ")".
_COPYRIGHT = re.compile(r"^©(?![.)])\s*")
_BRACKETED = re.compile(r"^[\(\[\{|](?P<label>\w)\s?[\)\]\}|](?=\s|$)")
_CLOSED = re.compile(r"^(?P<label>\w)\s?[\)\]\}](?=\s|$)")
_DOTTED = re.compile(r"^(?P<label>\w)\s?[.:](?=\s|$)")
# A label glued to a short answer ("E.20", "A:2", "B.Metformina"); a small letter after the dot ("c.d.")
# is an abbreviation, not a label.
_GLUED = re.compile(r"^(?P<label>\w)[.:](?=[\dA-ZÀ-ÖØ-ÞĀ-ſΑ-Ω])")
# The label read twice, once in each script ("Υγ." for "γ."): a look-alike in front of the real label.
_DOUBLED = re.compile(r"^(?P<ghost>\w)(?P<label>\w)(?P<mark>[.)])(?=\s|$)")
_EURO_C = re.compile(r"^€(?=[.)]\s)")


def normalize_ocr_line(text: str, labels: Sequence[str] = ("A", "B", "C", "D", "E")) -> str:
    """Fix Tesseract's frequent misreadings of an option label at the start of a line.

    `labels` are the option labels the document uses (the source spec's `layout.option_labels`).
    Only confusions that cannot be a true reading are fixed:
    - the case of a label whose capital and small forms look alike ("c." → "C." when the labels are
      upper-case A–E; "C)" → "c)" when they are a–d), never the case of other letters;
    - look-alikes from the other script ("a." → "α.", Greek "Α." → Latin "A.") when the labels are in one;
    - bracket and spacing slips: "©" → "(C)" (not "©)": its place says which label), "{B)"/"[B]" → "(B)", "B}" → "B)", "A ." / "A:" → "A.",
      "€." → "C.", a label glued to its answer "E.20" / "E:5" → "E. 20" / "E. 5";
    - a label read twice, as a look-alike and as itself: "Υγ." → "γ.".
    Anything else, including lines that do not start with a label, is returned unchanged.
    """
    if not text:
        return text
    wanted = {label for label in labels}
    folded = {label.casefold(): label for label in labels}

    def canonical(label: str) -> str | None:
        if label in wanted:
            return label
        if label in _SAME_SHAPE and label.casefold() in folded:
            return folded[label.casefold()]
        for other in _LOOKALIKES.get(label, ()):
            if other in wanted:
                return other
        return None

    stripped = text.lstrip()
    indent = text[: len(text) - len(stripped)]
    if _EURO_C.match(stripped) and canonical("C"):
        stripped = canonical("C") + stripped[1:]
    copyright_sign = _COPYRIGHT.match(stripped)
    if copyright_sign and canonical("c"):
        return f"{indent}({canonical('c')}) {stripped[copyright_sign.end():]}".rstrip()
    for pattern, template in ((_BRACKETED, "({})"), (_CLOSED, "{})")):
        match = pattern.match(stripped)
        if match:
            label = canonical(match.group("label"))
            if label is None:
                return text
            return indent + template.format(label) + stripped[match.end():]
    doubled = _DOUBLED.match(stripped)
    if doubled:
        label = canonical(doubled.group("label"))
        if label is not None and canonical(doubled.group("ghost")) == label:
            stripped = label + stripped[doubled.start("mark") :]
            text = indent + stripped
    match = _DOTTED.match(stripped)
    if match:
        label = canonical(match.group("label"))
        if label is None:
            return text
        return f"{indent}{label}." + stripped[match.end():]
    match = _GLUED.match(stripped)
    if match:
        label = canonical(match.group("label"))
        if label is None:
            return text
        return f"{indent}{label}. " + stripped[match.end():]
    return text


def normalize_ocr_lines(lines: Iterable[Line], labels: Sequence[str] = ("A", "B", "C", "D", "E")) -> list[Line]:
    """`normalize_ocr_line` over a page's lines (new Line objects; the input is left as it is)."""
    return [replace(line, text=normalize_ocr_line(line.text, labels)) for line in lines]


def drop_label_ghosts(words: list[Word], labels: Sequence[str]) -> list[Word]:
    """A label inside a row of options (`A) … B) … C) …`) that Tesseract read with a ghost in front ("OB)",
    "oC)", "(oC)"), or a ghost word ("(o") read in the white just before it: the label read alone, the ghost
    word dropped.

    Tesseract guesses a round letter into the blurred space before a mid-line label; glued, the label is
    no label to parse (a capital before it is an acronym's letter, `HB.`), and a ghost word ends the option
    before it (`84 ornekler (o`). The letters never decide; the evidence is that the ghost has no ink:
    - the second recogniser (`secondread`, `Word.second`) read the label alone at the word, or nothing at
      the ghost word;
    - or the word's box is no wider than the page's other readings of that label alone (GHOST_WIDTH_SLACK;
      at least two of them): the ghost took no room of its own.
    A word with more than one letter or digit in front of the label, or with its own width, stays as read.
    """
    widths: dict[str, list[int]] = {}
    for word in words:
        if _marked_label(word.text, labels):
            widths.setdefault(word.text, []).append(word.right - word.left)
    result: list[Word] = []
    for word in words:
        label = _ghosted_label(word.text, labels)
        if label is not None:
            seen = sorted(widths.get(label, []))
            inkless = len(seen) >= 2 and word.right - word.left <= GHOST_WIDTH_SLACK * seen[len(seen) // 2]
            if word.second == label or inkless:
                word = replace(word, text=label)
        result.append(word)
    kept: list[Word] = []
    for i, word in enumerate(result):
        after = result[i + 1] if i + 1 < len(result) else None
        if (word.second == "" and _ghost(word.text) and after is not None and after.line == word.line
                and after.left >= word.right and _marked_label(after.text, labels)):
            continue
        kept.append(word)
    return kept


GHOST_WIDTH_SLACK = 1.1  # a ghosted label's box over the median box of the label read alone


def _ghost(text: str) -> bool:
    """One letter, with at most one mark beside it (`o`, `(o`): what Tesseract guesses into a blurred space."""
    return 0 < len(text) <= 2 and sum(c.isalpha() for c in text) == 1 and not any(c.isdigit() for c in text)


def _ghosted_label(text: str, labels: Sequence[str]) -> str | None:
    """The marked label that `text` ends with, behind a ghost (`OB)` → `B)`); None otherwise."""
    for cut in (1, 2):
        if len(text) > cut and _ghost(text[:cut]) and _marked_label(text[cut:], labels):
            return text[cut:]
    return None


def _marked_label(token: str, labels: Sequence[str]) -> bool:
    """Whether `token` is one of the labels with its mark (`B)`, `C.`, `(D)`), as the line's start would read it."""
    if not LABEL_TOKEN.match(token) and not _BRACKETED.match(token):
        return False
    normal = normalize_ocr_line(token + " x", labels)
    label = normal.lstrip("([")[:1]
    return label in labels and normal.startswith((f"{label})", f"{label}.", f"({label})"))
