"""Repairs of words and accents, guided by Tesseract's own word list (`lexicon`) and by the page
image: words split or glued where the image shows otherwise, a capital's accent outside the word's
box, a capital read as a digit, dashes told apart by width, three dots read for an ellipsis.
"""
from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np

from pipeline.extract.ocr.lexicon import Lexicon, word_core
from pipeline.extract.ocr.words import Word, glued_pair, letter_gaps, line_sizes, same_row, word_spaces, words_by_line

GLUED_MIN_GAP = 0.3  # word heights of white beside a glued one-letter word
GLUED_GAP_RATIO = 2.5  # times the word's median letter gap
# A blurred scan's ink spreads a few pixels into every white: a word space and a letter gap lose alike, and the
# narrowest spaces (after a capital A or V, whose foot reaches to its advance) fall under GLUED_GAP_RATIO. At
# 165 dpi, blur 0.65, "Alos" held a white of 10 px between letter gaps of 4-5 px and word spaces of 12-13 px on
# its line (2.2 letter gaps, 0.8 of the line's space). Such a white is a word space where it is most of its own
# line's word space, but only where the spelling dictionaries judge the word (`NarrowSpaces`): measured alone,
# the same test split "face" and "acesso" on Portuguese scans, whose round letters' bearings widen a letter gap.
LINE_SPACE_SHARE = 0.6  # of the median white between the line's words
GLUED_SPACE_RATIO = 1.5  # times the word's median letter gap, where the white is its line's word space
GLUED_WORD_MIN_GAP = 0.2  # word heights of white between two glued longer words
GLUED_WORD_MIN_PART = 3  # letters in each part of a split; a two-letter part still counts as a rival reading
# A word Tesseract's list knows ("Enel", a company in the Spanish list, for "En el") is split only where
# the ink parts every character and one white is this many word heights: the widest white inside
# correctly read known words on the Spanish, Peruvian, Chilean, Slovak and Polish scans was 0.36.
KNOWN_WORD_SPACE = 0.4
# A sign or unit symbol glued to its number ("64,15%", "-1,93") where the print has a space: the white
# is a word space (0.47-0.54 of the height on the Spanish scan) and wider than every gap between the
# number's own glyphs (whose side bearings leave up to 0.34 of the height beside a "1").
SYMBOL_MIN_GAP = 0.4  # word heights
SYMBOL_GAP_OVER_WIDEST = 1.3  # times the widest other gap in the token
NUMBER_WITH_SYMBOLS = re.compile(r"^(?P<sign>[-−–+]?)(?P<number>\d[\d.,]*\d|\d)(?P<unit>[%‰]?)(?P<trail>[.,;:)]?)$")
PIECE_MIN_OVERLAP = 0.25  # font sizes
ACCENT_WINDOW = 0.45  # font sizes above a word's box searched for its capital's accent
ACCENT_MAX_SIZE = 0.3  # font sizes: an accent is no taller or wider


def stray_inverted_marks(words: list[Word]) -> list[Word]:
    """"¡" glued to an i or j, with no "!" after it on the line, is the letter's dot read twice
    ("Cardiopatía ¡isquémica", "Campylobacter ¡jejuni"): it goes."""
    per_line = words_by_line(words)
    fixed: dict[int, Word] = {}
    for members in per_line.values():
        for at, word in enumerate(members):
            if word.text[:2] in ("¡i", "¡j") and not any("!" in w.text for w in members[at:]):
                fixed[id(word)] = replace(word, text=word.text[1:])
    return [fixed.get(id(w), w) for w in words]


@dataclass(frozen=True)
class NarrowSpaces:
    """What lets a one-letter word's narrow space on a blurred scan count as a space (`split_glued_words`): the
    language data's one-letter words (`glued_words.one_letter`), the words that read as such a pair but are words
    (`glued_words.words`), and the spelling dictionaries, which must know the rest and not the glued whole
    (Tesseract's own list knows "Alos" and "Aun"; hunspell knows "aun", "face", "acesso", not "alos")."""

    one_letter: frozenset[str]
    whole_words: frozenset[str]
    spelled: Callable[[str], bool]

    def allow(self, letter: str, rest: str, whole: str) -> bool:
        return (letter.casefold() in self.one_letter and whole.casefold() not in self.whole_words
                and self.spelled(rest) and not self.spelled(whole))


def split_glued_words(words: list[Word], ink: np.ndarray, lexicon: Lexicon, narrow: NarrowSpaces | None = None) -> list[Word]:
    """Words Tesseract read as one where the image shows a space between them, split there.

    A one-letter word at either end ("ato", "Vdruhom.", "Jev" for "a to", "V druhom.", "Je v" on a
    Slovak scan): the white between that letter and the rest is at least GLUED_MIN_GAP of the word's
    height and GLUED_GAP_RATIO times the word's other letter gaps, the letter is a one-letter word of the
    language and the rest a known word. Tesseract merged them because the space is narrow; it is still
    far wider than a letter gap (0.41–0.55 of the height against at most 0.2 on the NÚCEM scans). On a
    blurred scan a white after a leading one-letter word at least LINE_SPACE_SHARE of its own line's word
    space (`words.word_spaces`) needs only GLUED_SPACE_RATIO letter gaps, where `narrow` allows it: the letter is one of the language data's
    one-letter words, the spelling dictionaries know the rest and not the glued whole. `narrow` also lets a
    white wide by the first test split where the dictionaries know a rest Tesseract's list lacks.

    Two words ("Menorsecreción", "Mayorliberación" in CONAREME's narrow type, where a space is 0.24 of
    the height; "Enlas", "Esuna" on the Spanish scan): the whole is no known word, both parts are, and
    the white where the text splits (the gap's own index when the ink parts every letter, else placed by
    letter count, give or take a letter) is at least GLUED_WORD_MIN_GAP of the height (GLUED_MIN_GAP
    when a part has one or two letters) and GLUED_GAP_RATIO times the median letter gap.

    A known word splits into two known words only where the ink parts every character and the white
    is a full word space (KNOWN_WORD_SPACE): the lexicon holds names and rare words that glued pairs
    spell ("Enel" for "En el")."""
    result: list[Word] = []
    spaces = word_spaces(words) if narrow is not None else {}
    for word in words:
        core = word_core(word.text)[1]
        line_space = spaces.get(word.line) if narrow is not None else None
        split = _split_at_space(word, ink, lexicon, narrow, line_space) if len(core) >= 3 and core.isalpha() and word.bottom > word.top else None
        if split is None and word.bottom > word.top and NUMBER_WITH_SYMBOLS.match(word.text):
            split = _number_apart_from_symbols(word, ink)
        if split is None and word.bottom > word.top and _WORD_THEN_NUMBER.match(word.text):
            split = _number_apart_from_word(word, ink)
        result.extend(split or (word,))
    return result


def _number_apart_from_symbols(word: Word, ink: np.ndarray) -> list[Word] | None:
    """"64,15%" as "64,15 %" and "-1,93" as "- 1,93" where the image shows a word space between the
    number and its sign or unit (typographies differ: "50%" printed tight stays one word)."""
    found = NUMBER_WITH_SYMBOLS.match(word.text)
    sign, unit = found.group("sign"), found.group("unit")
    if not sign and not unit:
        return None
    gaps, gap_starts = letter_gaps(ink, word)
    height = word.bottom - word.top

    def spaced(at: int) -> bool:
        others = np.delete(gaps, at)
        widest = float(others.max()) if others.size else 0.0
        return bool(gaps[at] >= SYMBOL_MIN_GAP * height and gaps[at] >= SYMBOL_GAP_OVER_WIDEST * widest)

    # Glyphs parted by white: a sign is the first, a unit the last.
    cuts = []
    if sign and gaps.size >= 1 and spaced(0):
        cuts.append((0, len(sign)))
    unit_gap = gaps.size - 1 - (1 if found.group("trail") else 0)  # a closing mark is a glyph of its own
    if unit and unit_gap >= 0 and spaced(unit_gap):
        cuts.append((unit_gap, len(sign) + len(found.group("number"))))
    if not cuts or len({at for at, _ in cuts}) < len(cuts):
        return None
    # Each piece's box ends at its ink: a sign's width is what tells a hyphen from a dash later.
    pieces, left, text_from = [], word.left, 0
    for at, text_at in cuts:
        ink_end = word.left + int(gap_starts[at])
        pieces.append(replace(word, text=word.text[text_from:text_at], left=left, right=ink_end))
        left, text_from = ink_end + int(gaps[at]), text_at
    pieces.append(replace(word, text=word.text[text_from:], left=left))
    return pieces


_WORD_THEN_NUMBER = re.compile(r"^(?P<word>[^\W\d_]{3,})(?P<number>\d{1,4}[.,:;)]?)$")
SPLIT_AT_SHARE = 0.25  # how far (share of the token's width) the white may lie from where the text splits


def _number_apart_from_word(word: Word, ink: np.ndarray) -> list[Word] | None:
    """"QUESTÃO77" as "QUESTÃO 77" where the image shows a word space before the number: the token's
    widest white is a space (GLUED_WORD_MIN_GAP of the height, GLUED_GAP_RATIO times any other: 0.38
    and 2.8 on a scanned bold heading) and lies where the letters end, by their share of the
    characters. A code printed tight ("ADAMTS13") has no such white and stays one word."""
    found = _WORD_THEN_NUMBER.match(word.text)
    gaps, gap_starts = letter_gaps(ink, word)
    if gaps.size < 2:
        return None
    at = int(gaps.argmax())
    others = np.delete(gaps, at)
    height, width = word.bottom - word.top, word.right - word.left
    if gaps[at] < GLUED_WORD_MIN_GAP * height or gaps[at] < GLUED_GAP_RATIO * float(others.max()):
        return None
    split_share = len(found.group("word")) / len(word.text)
    if abs((gap_starts[at] + gaps[at] / 2) / width - split_share) > SPLIT_AT_SHARE:
        return None
    ink_end = word.left + int(gap_starts[at])
    return [
        replace(word, text=found.group("word"), right=ink_end),
        replace(word, text=found.group("number"), left=ink_end + int(gaps[at])),
    ]


def _split_at_space(word: Word, ink: np.ndarray, lexicon: Lexicon, narrow: NarrowSpaces | None = None,
                    line_space: float | None = None) -> tuple[Word, Word] | None:
    lead, core, trail = word_core(word.text)
    height = word.bottom - word.top
    gaps, gap_starts = letter_gaps(ink, word)
    if gaps.size < 2:
        return None

    def cut_at(at: int, left_text: str, right_text: str) -> tuple[Word, Word]:
        cut = word.left + int(gap_starts[at]) + int(gaps[at]) // 2
        return replace(word, text=left_text, right=cut), replace(word, text=right_text, left=cut)

    def wide(at: int, min_gap: float) -> bool:
        others = np.delete(gaps, at)
        return bool(gaps[at] >= min_gap * height and gaps[at] >= GLUED_GAP_RATIO * max(float(np.median(others)), 1.0))

    def line_space_wide(at: int) -> bool:
        """a white of a blurred scan's word space: most of its line's, a few letter gaps (LINE_SPACE_SHARE)"""
        others = np.delete(gaps, at)
        return bool(line_space and gaps[at] >= GLUED_MIN_GAP * height and gaps[at] >= LINE_SPACE_SHARE * line_space
                    and gaps[at] >= GLUED_SPACE_RATIO * max(float(np.median(others)), 1.0))

    # (gap index, text left of the space, text right of it, the one letter, the rest)
    for at, left_text, right_text, letter, rest in (
        (0, lead + core[0], core[1:] + trail, core[0], core[1:]),
        (len(gaps) - 1, lead + core[:-1], core[-1] + trail, core[-1], core[:-1]),
    ):
        if len(rest) < 2:
            continue
        if wide(at, GLUED_MIN_GAP) and letter.casefold() in lexicon.one_letter_words and lexicon.knows(rest):
            return cut_at(at, left_text, right_text)
        # The dictionaries judge where Tesseract's list cannot: it lacks inflected forms ("keufemizmom" for "k
        # eufemizmom", Slovak) and holds glued pairs as words ("Alos"). Only a leading letter: the words no dictionary
        # knows that end in a one-letter word's letter are many and real (Latin names, "aeruginosa", "influenzae",
        # "duodenale" on the corpus's scans), and a round letter's bearing widens the white before it ("face").
        if narrow is not None and at == 0 and (wide(at, GLUED_MIN_GAP) or line_space_wide(at)) and narrow.allow(letter, rest, core):
            return cut_at(at, left_text, right_text)
    def known(part: str) -> bool:
        return part.casefold() in lexicon.one_letter_words if len(part) == 1 else part in lexicon

    if core in lexicon:
        if gaps.size != len(word.text) - 1:
            return None  # letters touch somewhere: a gap's place in the text is a guess
        at = int(np.argmax(gaps))
        k = at + 1 - len(lead)
        if 1 <= k <= len(core) - 1 and wide(at, KNOWN_WORD_SPACE) and known(core[:k]) and known(core[k:]):
            return cut_at(at, lead + core[:k], core[k:] + trail)
        return None
    span = max(word.right - word.left, 1)

    for at in np.argsort(-gaps):
        at = int(at)
        if not wide(at, GLUED_WORD_MIN_GAP):
            break
        if gaps.size == len(core) - 1:
            candidates = [at + 1]  # the ink parts every letter: the gap's index is the split
        else:
            estimate = round(len(core) * (int(gap_starts[at]) + int(gaps[at]) / 2) / span)
            candidates = [estimate - 1, estimate, estimate + 1]
        parts = [k for k in candidates if 1 <= k <= len(core) - 1 and known(core[:k]) and known(core[k:])]
        # Two readings ("Na vypracovanie" or "Navy pracovanie") leave the word as it is. A part of one or
        # two letters ("Enlas", "Esuna", "ElRey.") needs the white of a space between words (GLUED_MIN_GAP):
        # "zná te" for "znáte" had uneven letter gaps of 0.2 heights or less, glued words 0.37 and more.
        if len(parts) == 1:
            k = parts[0]
            if min(k, len(core) - k) >= GLUED_WORD_MIN_PART or wide(at, GLUED_MIN_GAP):
                return cut_at(at, lead + core[:k], core[k:] + trail)
    return None


def join_overlapping_pieces(words: list[Word], lexicon: Lexicon) -> list[Word]:
    """Two pieces of one word whose boxes overlap by more than PIECE_MIN_OVERLAP font sizes, where the
    left piece is no known word, become that word: Tesseract cut "Coledocoduodenostomía" into
    "Coledocoduodenos" + "tomía" with the first box reaching over the second. Overlap alone is no sign:
    the caron of "rozhodnosť" reached into the "a" after it, and "rozhodnosť" is a known word."""
    sizes = line_sizes(words)
    pieces: dict[int, Word | None] = {}
    for members in words_by_line(words).values():
        ordered = sorted(members, key=lambda w: w.left)
        at = 0
        while at < len(ordered) - 1:
            left, right = ordered[at], ordered[at + 1]
            _, left_core, left_trail = word_core(left.text)
            right_lead, right_core, _ = word_core(right.text)
            if (
                left.right - right.left > PIECE_MIN_OVERLAP * sizes[left.line]
                and right.right >= left.right  # the word's end, not a speck inside the left box
                and len(left_core) >= 3 and left_core.isalpha() and not left_trail
                and right_core[:1].isalpha() and right_core[:1].islower() and not right_lead
                and left_core not in lexicon
            ):
                joined = replace(glued_pair(left, right), left=min(left.left, right.left))
                pieces[id(left)] = joined
                pieces[id(right)] = None
                ordered[at + 1] = joined
            at += 1
    mended = [pieces.get(id(w), w) for w in words]
    return [w for w in mended if w is not None]


def capital_accents(words: list[Word], ink: np.ndarray, lexicon: Lexicon) -> list[Word]:
    """A capital whose accent Tesseract left out of the word ("Ulcera", "Acido" for "Úlcera", "Ácido":
    the mark stood 0.1–0.2 font sizes above the box, outside it) gets the accent back when the image
    shows a mark there and exactly one accented form of the word is known.

    The mark is the lowest band of ink within ACCENT_WINDOW font sizes above the word's top: above the
    first letter only, no taller or wider than ACCENT_MAX_SIZE, and clear of the window's upper edge
    and of the ink above it (the descenders of the line above come down from there)."""
    sizes = line_sizes(words)
    mended: dict[int, Word] = {}
    for word in words:
        lead, core, trail = word_core(word.text)
        if len(core) < 3 or not core.isalpha() or not core[0].isupper() or _base_letter(core[0]) != core[0].casefold():
            continue
        base = core[0].casefold()
        rest = core[1:].casefold()
        accented = [ch for ch in lexicon.initials if ch != base and _base_letter(ch) == base and ch + rest in lexicon]
        if len(accented) != 1 or not _mark_above_first_letter(ink, word, sizes[word.line]):
            continue
        mended[id(word)] = replace(word, text=lead + accented[0].upper() + core[1:] + trail)
    return [mended.get(id(w), w) for w in words]


def _base_letter(letter: str) -> str:
    return unicodedata.normalize("NFD", letter.casefold())[0]


def _mark_above_first_letter(ink: np.ndarray, word: Word, size: float) -> bool:
    gaps, gap_starts = letter_gaps(ink, word)
    if gaps.size == 0:
        return False
    first_end = int(gap_starts[0])  # the first letter ends where the first white gap begins
    window = ink[max(0, word.top - int(round(ACCENT_WINDOW * size))) : word.top, word.left : word.right]
    rows = np.flatnonzero(window.any(axis=1))
    if rows.size == 0:
        return False
    # The lowest band of ink rows in the window, apart from what is above it (the line above's descenders)
    gaps = np.flatnonzero(np.diff(rows) > 1)
    band_top = int(rows[gaps[-1] + 1]) if gaps.size else int(rows[0])
    if band_top == 0:
        return False
    marked = np.flatnonzero(window[band_top:].any(axis=0))
    return bool(
        marked[-1] < first_end
        and rows[-1] - band_top < ACCENT_MAX_SIZE * size
        and marked[-1] - marked[0] < ACCENT_MAX_SIZE * size
    )


# Letters whose capital is the small letter enlarged: only the height tells "Os" from "os".
_SAME_SHAPE_CAPITALS = "COSVWXZ"
_X_HEIGHT_LETTERS = set("acemnorsuvwxz")  # small letters with nothing above the x-height
CAPITAL_OVER_X_HEIGHT = 0.12  # word heights a capital's top stands above the x-height letters' at least


def small_same_shape_capitals(words: list[Word], ink: np.ndarray) -> list[Word]:
    """A same-shape capital mid-sentence whose ink is no taller than the small letters beside it ("para
    Os cargos" read for "para os cargos") becomes small. Only where the word's other letters reach no
    higher than the x-height (an "l" or an accent would hide the comparison) and the word before it on its
    line ends in a small letter or a comma; a capital printed as one stands a cap height tall and stays."""
    mended: dict[int, Word] = {}
    for members in words_by_line(words).values():
        for before, word in zip(members, members[1:]):
            lead, core, trail = word_core(word.text)
            if lead or len(core) < 2 or core[0] not in _SAME_SHAPE_CAPITALS or not set(core[1:]) <= _X_HEIGHT_LETTERS:
                continue
            if not before.text or not (before.text[-1].islower() or before.text[-1] == ","):
                continue
            if not _first_letter_taller(ink, word):
                mended[id(word)] = replace(word, text=core[0].lower() + core[1:] + trail)
    return [mended.get(id(w), w) for w in words]


def _first_letter_taller(ink: np.ndarray, word: Word) -> bool:
    """Whether the ink of `word`'s first letter reaches higher than the ink of its other letters; True
    (no evidence to change anything) when the letters cannot be told apart."""
    gaps, gap_starts = letter_gaps(ink, word)
    if gaps.size == 0:
        return True
    box = ink[word.top : word.bottom, word.left : word.right]
    first, rest = box[:, : gap_starts[0]], box[:, gap_starts[0] :]
    first_rows, rest_rows = np.flatnonzero(first.any(axis=1)), np.flatnonzero(rest.any(axis=1))
    if first_rows.size == 0 or rest_rows.size == 0:
        return True
    return rest_rows[0] - first_rows[0] >= CAPITAL_OVER_X_HEIGHT * (word.bottom - word.top)


_DIGIT_CAPITAL = re.compile(r"^(?P<digit>[0458])(?P<rest>[^\W\d_A-Z]{2,})$")
_CAPITAL_LOOKALIKES = {"0": "O", "4": "A", "5": "S", "8": "B"}


def capitals_read_as_digits(words: list[Word], lexicon: Lexicon) -> list[Word]:
    """A word's capital read as the digit it resembles ("4le" for "Ale"), where the mended word is known."""
    mended = []
    for word in words:
        lead, core, trail = word_core(word.text)
        match = _DIGIT_CAPITAL.match(core)
        if match:
            fixed = _CAPITAL_LOOKALIKES[match.group("digit")] + match.group("rest")
            if fixed in lexicon:
                word = replace(word, text=lead + fixed + trail)
        mended.append(word)
    return mended


EM_DASH_MIN_WIDTH = 0.75  # font sizes: an em dash is about 1 em wide, an en dash about 0.5,
EN_DASH_MIN_WIDTH = 0.36  # ink widths: a spaced DejaVu en dash 0.39–0.41, a hyphen under 0.3


_CLOSING_PUNCTUATION = re.compile(r"^[.,;:!?)\]}»”%]+$")
PUNCTUATION_MAX_GAP = 0.5  # font sizes between a word and a closing mark that belongs to it


def join_split_words(words: list[Word]) -> list[Word]:
    """Glue closing punctuation that Tesseract read as a word of its own, in its line or in a pass of its
    own, to the word before it ("84" + "." loses the question number): typeset text has no space there.
    Overlapping boxes are no sign of one word cut in two: the caron of "rozhodnosť" reached 0.56 font
    sizes into the "a" after it."""
    sizes = line_sizes(words)
    joined = list(words)
    for mark in [w for w in words if _CLOSING_PUNCTUATION.match(w.text)]:
        hosts = [
            w for w in joined
            if w is not mark
            and not _CLOSING_PUNCTUATION.match(w.text)
            and same_row(w, mark)
            and w.left < mark.left
            and mark.left - w.right < PUNCTUATION_MAX_GAP * sizes[w.line]
        ]
        if hosts:
            host = min(hosts, key=lambda w: mark.left - w.right)
            at = next(i for i, w in enumerate(joined) if w is host)
            joined[at] = glued_pair(host, mark)
            joined = [w for w in joined if w is not mark]
    return joined


def dashes_by_width(words: list[Word]) -> list[Word]:
    """A lone dash (a word of its own) takes the dash its width shows: Tesseract's Slovak data read the
    spaced en dash of "smiech – plač" as an em dash (width 0.5 of the font size, not 1), its Polish
    data as a hyphen."""
    sizes = line_sizes(words)
    fixed = []
    for word in words:
        if word.text in ("—", "–", "-") and sizes.get(word.line):
            width = (word.right - word.left) / sizes[word.line]
            if width >= EM_DASH_MIN_WIDTH:
                word = replace(word, text="—")
            elif width >= EN_DASH_MIN_WIDTH or word.text != "-":
                word = replace(word, text="–")
        fixed.append(word)
    return fixed


# Tesseract has no "…": it reads the glyph as three dots. Whether a sheet means "…" is the publisher's
# typography (NÚCEM sets "…" throughout, CONAREME types "..."), which the dots' spacing does not tell
# apart reliably (0.33 em against 0.28 on CKE pages, but fonts differ), so the spec says it.
_THREE_DOTS = re.compile(r"(?<!\.)\.\.\.(?!\.)")


def as_ellipsis(words: list[Word]) -> list[Word]:
    """Three dots become "…" ("vojak...?", "[...]"); a dotted leader of four or more stays."""
    return [replace(w, text=_THREE_DOTS.sub("…", w.text)) for w in words]


# An acute-accented vowel read twice, as the accented letter and again bare ("Colposcopíia"): Tesseract
# takes the accent's box for a letter of its own. No word of the sheets' languages doubles a vowel that
# way (French "idée", "créer" double é with e, so e is left out).
_BARE_AFTER_ACCENTED = re.compile(r"(?<=í)i|(?<=á)a|(?<=ó)o|(?<=ú)u")


def accents_read_twice(words: list[Word], lexicon: Lexicon | None) -> list[Word]:
    """A word the lexicon does not know, with an accented vowel followed by the same vowel bare, loses
    the bare one ("Colposcopíia" → "Colposcopía")."""
    return [
        replace(w, text=_BARE_AFTER_ACCENTED.sub("", w.text))
        if _BARE_AFTER_ACCENTED.search(w.text) and not (lexicon is not None and lexicon.knows(w.text)) else w
        for w in words
    ]
