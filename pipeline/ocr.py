"""OCR for pages without a usable text layer: render with pypdfium2, read with Tesseract, return `Page`s.

Public API:
    ocr_pages(pdf_path, page_numbers, languages, *, dpi=300, workers=2,
              layout=LayoutParams(), option_labels=None) -> dict[int, Page]
    normalize_ocr_line(text, labels=("A", "B", "C", "D", "E")) -> str
    text_layer_usable(text, *, image_coverage=0.0, curved_paths=0) -> bool   # see textlayer_quality
    require_languages(languages) -> None          # raises OcrUnavailable before any work starts
    OcrUnavailable, OcrError

Pages come back as `PageMethod.OCR` pages of `Line`s in reading order with coordinates in PDF points
(top-left origin, like the text path), `ocr_confidence` = mean Tesseract word confidence (0–100), and
`highlighted=True` on lines that sit on a yellow fill (how the Peruvian sheets mark their key). A page
on which Tesseract finds no text comes back as `PageMethod.EMPTY`. Headers/footers are not removed
here: the extract stage cleans OCR pages and text pages the same way.

Why Tesseract runs as we run it:
- one `tesseract` process per page with OMP_THREAD_LIMIT=1, pages in a thread pool: Tesseract's own
  OpenMP threading is several times slower than page-level parallelism on a few shared cores
  (`python -m tests.bench ocr` measures both);
- we call the binary ourselves (the same TSV that pytesseract's `image_to_data` parses) so that the
  thread limit is set for the child only, never in this process's environment;
- `--psm 3` (automatic page segmentation without orientation detection): exam pages mix headings,
  one- and two-column text and option grids, which the single-block modes (4, 6) merge across columns.
  Pages full of one-letter table cells (answer-key tables) get a second `--psm 6` pass for those cells.
- the page goes to Tesseract as an uncompressed PGM (PNG compression of a 300 dpi page costs more than
  the write it saves), cleaned by `prepare_for_tesseract`: fills and tints to white, table rules erased,
  grain smoothed (each step is there for text Tesseract lost on a real sheet).
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
import unicodedata
from collections import Counter, deque
from collections.abc import Iterable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path

import numpy as np
import pypdfium2 as pdfium
from PIL import Image, ImageFilter
from tqdm import tqdm

from pipeline.document import Line, Page, PageMethod
from pipeline.layout import Glyph, LayoutParams, assemble
from pipeline.lexicon import Lexicon, load_lexicon, word_core

TESSERACT_ENV = "EXAMCORPUS_TESSERACT"  # path to the tesseract binary, when it is not on PATH
PAGE_SEGMENTATION_MODE = 3
# A page with this many one-word lines of one or two characters is read a second time as one block.
TABLE_PASS_MIN_ISOLATED = 8
TABLE_PASS_PSM = 6
TABLE_PASS_MIN_CONF = 60.0  # a block-pass word where the first pass saw nothing needs this confidence
TABLE_PASS_TRUST_CONF = 60.0  # a block-pass reading of a cell at least this confident replaces the first
PAGE_TIMEOUT_S = 180.0
DEFAULT_LAYOUT = LayoutParams()
SMOOTHING_RADIUS_PX = 0.8  # Gaussian blur radius at 300 dpi, scaled with the rendering dpi
RULE_MIN_INCHES = 0.4  # a straight dark run this long is a rule or frame, not a letter
WHITE_FROM = 170  # grey levels above this are paper (fills, highlights, scanner tint) and become white
_WHITEN = [value if value <= WHITE_FROM else 255 for value in range(256)]
PT_PER_INCH = 72.0

# A line counts as highlighted when this share of its background (the non-ink pixels) is yellow.
HIGHLIGHT_MIN_SHARE = 0.45
# Words made only of punctuation with confidence below NOISE_PUNCT_MAX_CONF are specks, rules and figure
# edges; small one- or two-character words below NOISE_WORD_MIN_CONF are specks read as letters. Other
# words are kept whatever their confidence: on a CONAREME scan "obstrucción" came back right with
# confidence 0.
# A page needs one legible word (LEGIBLE_MIN_CONF, three letters or digits) to count as text: a blank
# page with scanner noise gives only low-confidence fragments.
NOISE_PUNCT_MAX_CONF = 60.0
# A word of one or two characters this many times the height of the other words of its line is a
# pictogram unless read with ICON_MAX_CONF (a pictogram beside a CKE task heading came back as "E]" and
# "F)", 1.4 times the heading's words, confidence 14–74; parentheses and accented capitals stay under 1.2).
ICON_MIN_HEIGHT = 1.3
ICON_MAX_CONF = 80.0
NOISE_WORD_MIN_CONF = 20.0
LEGIBLE_MIN_CONF = 60.0
# Condensed type: the median advance per character of confidently read words (CONDENSED_MIN_CONF, five
# letters or more, at least CONDENSED_MIN_WORDS of them) under CONDENSED_BELOW font sizes. Measured:
# CONAREME's narrow sans 0.37; CKE, NÚCEM and the generated sheets 0.44–0.48. Such a page is widened
# towards NORMAL_CHAR_WIDTH, at most MAX_STRETCH times.
CONDENSED_BELOW = 0.41
CONDENSED_MIN_CONF = 80.0
CONDENSED_MIN_WORDS = 10
NORMAL_CHAR_WIDTH = 0.47
MAX_STRETCH = 1.5
WIDE_MIN_LETTERS = 4
WIDE_MIN_SHARE = 0.8
WIDE_MAX_OTHER = 0.05  # share of a first-pass word other widened words may cover and leave it replaceable
# Ink height of a whole text line (top of accents/ascenders to bottom of descenders), in font sizes.
LINE_HEIGHT_PER_SIZE = 0.95


class OcrUnavailable(RuntimeError):
    """Tesseract or one of the requested language packs is not installed; the message says what to install."""


class OcrError(RuntimeError):
    """Tesseract failed on a page; the message names the file and page."""


# --------------------------------------------------------------------------- engine discovery


def tesseract_command() -> str:
    """The tesseract binary: $EXAMCORPUS_TESSERACT, else `tesseract` on PATH."""
    configured = os.environ.get(TESSERACT_ENV)
    if configured:
        if not (Path(configured).is_file() and os.access(configured, os.X_OK)):
            raise OcrUnavailable(f"${TESSERACT_ENV}={configured} is not an executable file")
        return configured
    found = shutil.which("tesseract")
    if not found:
        raise OcrUnavailable(
            "tesseract is not installed (not on PATH): install the apt package tesseract-ocr "
            f"(`make setup` does), or point ${TESSERACT_ENV} at the binary"
        )
    return found


@lru_cache(maxsize=8)
def _installed_languages(command: str, tessdata_prefix: str | None) -> frozenset[str]:
    try:
        result = subprocess.run([command, "--list-langs"], capture_output=True, text=True, timeout=30, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise OcrUnavailable(f"cannot run {command} --list-langs: {exc}") from exc
    if result.returncode != 0:
        raise OcrUnavailable(f"{command} --list-langs failed: {result.stderr.strip() or result.stdout.strip()}")
    # The first line is a header ("List of available languages in ...").
    lines = (result.stdout + "\n" + result.stderr).splitlines()
    return frozenset(line.strip() for line in lines if line.strip() and " " not in line.strip())


def installed_languages() -> frozenset[str]:
    """Tesseract language codes installed on this machine (cached per binary and $TESSDATA_PREFIX)."""
    return _installed_languages(tesseract_command(), os.environ.get("TESSDATA_PREFIX"))


def require_languages(languages: Sequence[str]) -> None:
    """Raise OcrUnavailable naming every missing language and its apt package; do nothing when all exist."""
    if not languages:
        raise OcrUnavailable("no OCR language given: the source spec's `ocr.languages` must name at least one")
    installed = installed_languages()
    missing = [lang for lang in languages if lang not in installed]
    if missing:
        packages = " ".join(f"tesseract-ocr-{lang}" for lang in missing)
        raise OcrUnavailable(
            f"Tesseract language data missing for {', '.join(missing)}: install the apt package(s) {packages} "
            f"(installed: {', '.join(sorted(installed)) or 'none'})"
        )


# --------------------------------------------------------------------------- one page


@dataclass
class _Word:
    text: str
    conf: float  # -1 when Tesseract gives none
    left: int
    top: int
    right: int
    bottom: int
    line: tuple[int, int, int]  # Tesseract's (block, paragraph, line)


def _parse_tsv(tsv: str) -> list[_Word]:
    """The words (level 5 rows) of Tesseract's TSV, in Tesseract's order."""
    rows = tsv.splitlines()
    if not rows:
        return []
    header = rows[0].split("\t")
    col = {name: i for i, name in enumerate(header)}
    words = []
    for row in rows[1:]:
        cells = row.split("\t")
        if len(cells) <= col["text"] or cells[col["level"]] != "5":
            continue
        text = _clean_text(cells[col["text"]])
        if not text:
            continue
        left, top = int(cells[col["left"]]), int(cells[col["top"]])
        words.append(
            _Word(
                text=text,
                conf=float(cells[col["conf"]]),
                left=left,
                top=top,
                right=left + int(cells[col["width"]]),
                bottom=top + int(cells[col["height"]]),
                line=(int(cells[col["block_num"]]), int(cells[col["par_num"]]), int(cells[col["line_num"]])),
            )
        )
    return words


def _by_line(words: list[_Word]) -> dict[tuple[int, int, int], list[_Word]]:
    """The words of each Tesseract line, in Tesseract's order."""
    lines: dict[tuple[int, int, int], list[_Word]] = {}
    for word in words:
        lines.setdefault(word.line, []).append(word)
    return lines


def _line_openers(words: list[_Word]) -> list[_Word]:
    """The first word of each Tesseract line."""
    return [members[0] for members in _by_line(words).values()]


def _is_noise(word: _Word, typical_height: float) -> bool:
    """Specks, rules, figure edges and scanner noise that Tesseract reads as text.

    Confidence alone is not enough: real question numbers ("25.", "34") came back with confidence under
    20 on a CONAREME scan. A low-confidence one- or two-character word is noise only when it is also
    small next to the page's typical word height.
    """
    alnum = sum(ch.isalnum() for ch in word.text)
    height = word.bottom - word.top
    if 0 <= word.conf < NOISE_WORD_MIN_CONF and alnum <= 2 and height < 0.5 * typical_height:
        return True
    if typical_height and height > 2.5 * typical_height and word.conf < NOISE_PUNCT_MAX_CONF:
        return True  # a "word" several lines tall: a column of cells or a figure read as one token
    return alnum == 0 and word.conf < NOISE_PUNCT_MAX_CONF


def _without_icons(words: list[_Word]) -> list[_Word]:
    """The words less pictograms that Tesseract read as a letter or two beside a line of text."""
    per_line = _by_line(words)
    icons = set()
    for members in per_line.values():
        for word in members:
            others = sorted(w.bottom - w.top for w in members if w is not word)
            if (
                len(others) >= 2
                and word.conf < ICON_MAX_CONF
                and sum(ch.isalnum() for ch in word.text) <= 2
                and word.bottom - word.top > ICON_MIN_HEIGHT * others[len(others) // 2]
            ):
                icons.add(id(word))
    return [w for w in words if id(w) not in icons]


def _legible(word: _Word) -> bool:
    return word.conf >= LEGIBLE_MIN_CONF and sum(ch.isalnum() for ch in word.text) >= 3


def _label_case_cells(words: list[_Word], labels: Sequence[str]) -> list[_Word]:
    """A one-letter word whose two cases look alike ("c" in a key-table cell) takes the labels' case,
    and so does a label letter read twice, once in each case ("Cc" for a marking scheme's lone "C":
    sized by its lower-case half, it passed for margin small print)."""
    by_fold = {label.casefold(): label for label in labels}

    def label_of(text: str) -> str | None:
        if len(text) == 1 and text in _SAME_SHAPE:
            return by_fold.get(text.casefold())
        if len(text) == 2 and text[0] != text[1] and text[0].casefold() == text[1].casefold():
            return by_fold.get(text.casefold()[0])
        return None

    return [replace(w, text=label) if (label := label_of(w.text)) else w for w in words]


NUMBER_COLUMN_MIN = 1  # line-opening numbers a page needs before others are mended after them
NUMBER_DOT_MIN = 3  # and with a dot, before a number without one gets it


def _restore_label_marks(words: list[_Word], labels: Sequence[str]) -> list[_Word]:
    """A bare label letter opening a line of text ("B  jest protokołem…") lost its dot or bracket to the
    scan; it gets the mark the page's other labels carry ("A.", "C." → "B."). Lone letters with nothing
    after them (key-table cells) are left alone."""
    lines = _by_line(words)
    marks = Counter(
        members[0].text[1]
        for members in lines.values()
        if len(members[0].text) == 2 and members[0].text[0] in labels and members[0].text[1] in ".)"
    )
    if not marks:
        return words
    mark = marks.most_common(1)[0][0]
    bare = {id(m[0]) for m in lines.values() if len(m) > 1 and len(m[0].text) == 1 and m[0].text in labels}
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


_NUMBER_TOKEN = re.compile(r"^(?P<n>\d{1,3})(?P<mark>[.,:;]?)$")
_LOOKALIKE_NUMBER = re.compile(r"^(?P<n>[\dsSoOlIzZbBgq]{1,3})(?P<mark>[.,:;]?)$")
_DIGIT_LOOKALIKES = str.maketrans("sSoOlIzZbBgq", "550011226899")


def _restore_question_numbers(words: list[_Word]) -> list[_Word]:
    """Question numbers at the left edge where the page's other numbers stand, mended: a dot lost or read
    as a comma or colon ("32," or "32" among "31." and "33.") and digits read as look-alike letters ("so" for 50
    between 49 and 51, "s9" after 58 — bold digits in a grey box), when the mended number is missing
    from the page and one of its neighbours is there. A number inside a wrapped sentence starts at
    the text's indent, not at that edge, and is left alone."""
    firsts = _line_openers(words)
    numbered = [(w, m) for w in firsts if (m := _NUMBER_TOKEN.match(w.text))]
    if len(numbered) < NUMBER_COLUMN_MIN:
        return words
    column = sorted(w.left for w, _ in numbered)[len(numbered) // 2]
    values = {int(m.group("n")) for _, m in numbered}
    marks = Counter(m.group("mark") for _, m in numbered).most_common(1)[0]
    dot = marks[0] == "." and marks[1] >= NUMBER_DOT_MIN
    fixed: dict[int, _Word] = {}
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
                fixed[id(word)] = replace(word, text=f"{value}{mark}")
    mended = [fixed.get(id(w), w) for w in words]
    return _fit_number_sequence(mended, column)


# Digits Tesseract confuses in bold or boxed numbers, by what it read.
_DIGIT_CONFUSIONS = {"9": "53", "3": "85", "8": "360", "5": "96", "6": "58", "0": "86", "7": "1", "1": "7"}


def _fit_number_sequence(words: list[_Word], column: int) -> list[_Word]:
    """A number at the number column that breaks the rising sequence of its neighbours above and below
    ("52", "93", "57" down a key table) takes the one reading, a single confused digit away, that fits
    between them and is not on the page yet ("53")."""
    firsts = _line_openers(words)
    column_numbers = sorted(
        ((w, m) for w in firsts if (m := _NUMBER_TOKEN.match(w.text)) and abs(w.left - column) <= 0.5 * (w.bottom - w.top)),
        key=lambda pair: pair[0].top,
    )
    values = [int(m.group("n")) for _, m in column_numbers]
    fixed: dict[int, _Word] = {}
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
        if len(fits) == 1:
            fixed[id(word)] = replace(word, text=str(fits.pop()) + match.group("mark"))
    return [fixed.get(id(w), w) for w in words]


INK_BELOW = 128  # grey level: darker is ink where word shapes are measured (spaces, accents, stems, dropped words)
GLUED_MIN_GAP = 0.3  # word heights of white beside a glued one-letter word
GLUED_GAP_RATIO = 2.5  # times the word's median letter gap
GLUED_WORD_MIN_GAP = 0.2  # word heights of white between two glued longer words
GLUED_WORD_MIN_PART = 3  # letters in each part of a split; a two-letter part still counts as a rival reading
PIECE_MIN_OVERLAP = 0.25  # font sizes
ACCENT_WINDOW = 0.45  # font sizes above a word's box searched for its capital's accent
ACCENT_MAX_SIZE = 0.3  # font sizes: an accent is no taller or wider
_ROMAN_LOOKALIKE = re.compile(r"^(?=.*[lI])[lI|]{1,3}$")


def _stray_inverted_marks(words: list[_Word]) -> list[_Word]:
    """"¡" glued to an i or j, with no "!" after it on the line, is the letter's dot read twice
    ("Cardiopatía ¡isquémica", "Campylobacter ¡jejuni"): it goes."""
    per_line = _by_line(words)
    fixed: dict[int, _Word] = {}
    for members in per_line.values():
        for at, word in enumerate(members):
            if word.text[:2] in ("¡i", "¡j") and not any("!" in w.text for w in members[at:]):
                fixed[id(word)] = replace(word, text=word.text[1:])
    return [fixed.get(id(w), w) for w in words]


def _letter_gaps(ink: np.ndarray, word: _Word) -> tuple[np.ndarray, np.ndarray]:
    """(white widths, their first columns) between the runs of ink columns in `word`'s box."""
    runs = _runs(ink[word.top : word.bottom, word.left : word.right].any(axis=0), 0)
    ends = np.array([end for _, end in runs[:-1]], dtype=int)
    starts = np.array([start for start, _ in runs[1:]], dtype=int)
    return starts - ends, ends


def _split_glued_words(words: list[_Word], ink: np.ndarray, lexicon: Lexicon) -> list[_Word]:
    """Words Tesseract read as one where the image shows a space between them, split there.

    A one-letter word at either end ("ato", "Vdruhom.", "Jev" for "a to", "V druhom.", "Je v" on a
    Slovak scan): the white between that letter and the rest is at least GLUED_MIN_GAP of the word's
    height and GLUED_GAP_RATIO times the word's other letter gaps, the letter is a one-letter word of the
    language and the rest a known word. Tesseract merged them because the space is narrow; it is still
    far wider than a letter gap (0.41–0.55 of the height against at most 0.2 on the NÚCEM scans).

    Two longer words ("Menorsecreción", "Mayorliberación" in CONAREME's narrow type, where a space is
    0.24 of the height): the whole is no known word, both parts are, and the white where the text splits
    (placed by letter count, give or take a letter) is at least GLUED_WORD_MIN_GAP of the height and
    GLUED_GAP_RATIO times the median letter gap."""
    result: list[_Word] = []
    for word in words:
        core = word_core(word.text)[1]
        split = _split_at_space(word, ink, lexicon) if len(core) >= 3 and core.isalpha() and word.bottom > word.top else None
        result.extend(split or (word,))
    return result


def _split_at_space(word: _Word, ink: np.ndarray, lexicon: Lexicon) -> tuple[_Word, _Word] | None:
    lead, core, trail = word_core(word.text)
    height = word.bottom - word.top
    gaps, gap_starts = _letter_gaps(ink, word)
    if gaps.size < 2:
        return None

    def cut_at(at: int, left_text: str, right_text: str) -> tuple[_Word, _Word]:
        cut = word.left + int(gap_starts[at]) + int(gaps[at]) // 2
        return replace(word, text=left_text, right=cut), replace(word, text=right_text, left=cut)

    def wide(at: int, min_gap: float) -> bool:
        others = np.delete(gaps, at)
        return bool(gaps[at] >= min_gap * height and gaps[at] >= GLUED_GAP_RATIO * max(float(np.median(others)), 1.0))

    # (gap index, text left of the space, text right of it, the one letter, the rest)
    for at, left_text, right_text, letter, rest in (
        (0, lead + core[0], core[1:] + trail, core[0], core[1:]),
        (len(gaps) - 1, lead + core[:-1], core[-1] + trail, core[-1], core[:-1]),
    ):
        if wide(at, GLUED_MIN_GAP) and letter.casefold() in lexicon.one_letter_words and len(rest) >= 2 and lexicon.knows(rest):
            return cut_at(at, left_text, right_text)
    if core in lexicon or len(core) < 2 * GLUED_WORD_MIN_PART:
        return None
    span = max(word.right - word.left, 1)
    for at in np.argsort(-gaps):
        if not wide(int(at), GLUED_WORD_MIN_GAP):
            break
        estimate = round(len(core) * (int(gap_starts[at]) + int(gaps[at]) / 2) / span)
        parts = [
            k for k in (estimate - 1, estimate, estimate + 1)
            if 2 <= k <= len(core) - 2 and core[:k] in lexicon and core[k:] in lexicon
        ]
        # Two readings ("Na vypracovanie" or "Navy pracovanie") leave the word as it is; so does a short
        # part ("zná te" for "znáte", whose letter gaps were uneven).
        if len(parts) == 1 and min(parts[0], len(core) - parts[0]) >= GLUED_WORD_MIN_PART:
            k = parts[0]
            return cut_at(int(at), lead + core[:k], core[k:] + trail)
    return None


def _join_overlapping_pieces(words: list[_Word], lexicon: Lexicon) -> list[_Word]:
    """Two pieces of one word whose boxes overlap by more than PIECE_MIN_OVERLAP font sizes, where the
    left piece is no known word, become that word: Tesseract cut "Coledocoduodenostomía" into
    "Coledocoduodenos" + "tomía" with the first box reaching over the second. Overlap alone is no sign:
    the caron of "rozhodnosť" reached into the "a" after it, and "rozhodnosť" is a known word."""
    sizes = _line_sizes(words)
    pieces: dict[int, _Word | None] = {}
    for members in _by_line(words).values():
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
                joined = replace(_glued(left, right), left=min(left.left, right.left))
                pieces[id(left)] = joined
                pieces[id(right)] = None
                ordered[at + 1] = joined
            at += 1
    mended = [pieces.get(id(w), w) for w in words]
    return [w for w in mended if w is not None]


def _capital_accents(words: list[_Word], ink: np.ndarray, lexicon: Lexicon) -> list[_Word]:
    """A capital whose accent Tesseract left out of the word ("Ulcera", "Acido" for "Úlcera", "Ácido":
    the mark stood 0.1–0.2 font sizes above the box, outside it) gets the accent back when the image
    shows a mark there and exactly one accented form of the word is known.

    The mark is the lowest band of ink within ACCENT_WINDOW font sizes above the word's top: above the
    first letter only, no taller or wider than ACCENT_MAX_SIZE, and clear of the window's upper edge
    and of the ink above it (the descenders of the line above come down from there)."""
    sizes = _line_sizes(words)
    mended: dict[int, _Word] = {}
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


def _mark_above_first_letter(ink: np.ndarray, word: _Word, size: float) -> bool:
    gaps, gap_starts = _letter_gaps(ink, word)
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


_DIGIT_CAPITAL = re.compile(r"^(?P<digit>[0458])(?P<rest>[^\W\d_A-Z]{2,})$")
_CAPITAL_LOOKALIKES = {"0": "O", "4": "A", "5": "S", "8": "B"}


def _capitals_read_as_digits(words: list[_Word], lexicon: Lexicon) -> list[_Word]:
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


def _roman_numerals(words: list[_Word]) -> list[_Word]:
    """A word of one to three strokes read as l, I or | ("ll", "Il", "|") is the Roman numeral of that
    many I's: no word of the languages we read is spelt so."""
    return [replace(w, text="I" * len(w.text)) if _ROMAN_LOOKALIKE.match(w.text) and w.text != "I" else w for w in words]


def _split_glued_labels(words: list[_Word], labels: Sequence[str]) -> list[_Word]:
    """Split a line-initial "A.2" / "E:5" into the label and its answer, each with its share of the box.

    Tesseract drops the space after a label before a short answer; split, the answer gets its own
    highlight verdict (the key marking covers "2", not "A.").
    """
    result: list[_Word] = []
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


def _isolated_short_words(words: list[_Word]) -> list[_Word]:
    """Words of up to three characters that stand alone in a Tesseract line, or sit in a "line" that is
    really a column (its height is several word heights): the cells of a key table."""
    per_line = _by_line(words)
    found = []
    for members in per_line.values():
        heights = sorted(w.bottom - w.top for w in members)
        extent = max(w.bottom for w in members) - min(w.top for w in members)
        column = extent > 2.5 * heights[len(heights) // 2]
        if len(members) == 1 or column:
            found += [w for w in members if len(w.text) <= 3]
    return found


def _overlap(a: _Word, b: _Word) -> float:
    """Intersection over the smaller box."""
    w = min(a.right, b.right) - max(a.left, b.left)
    h = min(a.bottom, b.bottom) - max(a.top, b.top)
    if w <= 0 or h <= 0:
        return 0.0
    smaller = min((a.right - a.left) * (a.bottom - a.top), (b.right - b.left) * (b.bottom - b.top))
    return w * h / max(smaller, 1)


def _merge_table_pass(page_pass: list[_Word], block_pass: list[_Word]) -> list[_Word]:
    """Re-read table cells: Tesseract's automatic layout isolates each cell letter and misreads it
    ("A" as ">", "D" as "U" in the NÚCEM key table); reading the page as one block (psm 6) gets them
    right. An isolated short word takes the block reading at its place when that one is a letter or
    digit read with more confidence; confident block-pass words where the first pass found nothing
    (letters on a coloured column) are added, each as its own line."""
    isolated = {id(w) for w in _isolated_short_words(page_pass)}
    merged = []
    for word in page_pass:
        if id(word) in isolated:
            rivals = [
                b for b in block_pass
                if _overlap(word, b) > 0.5 and b.text.isalnum() and (b.conf > word.conf or b.conf >= TABLE_PASS_TRUST_CONF)
            ]
            if rivals:
                best = max(rivals, key=lambda b: b.conf)
                word = replace(word, text=best.text, conf=best.conf, left=best.left, top=best.top, right=best.right, bottom=best.bottom)
        merged.append(word)
    extra_line = 10_000
    for b in block_pass:
        if b.text.isalnum() and b.conf >= TABLE_PASS_MIN_CONF and not any(_overlap(b, w) > 0 for w in page_pass):
            extra_line += 1
            merged.append(replace(b, line=(extra_line, 0, 0)))
    return merged


_CELL_NUMBER = re.compile(r"^\d{1,3}\.?$")
KEY_CELL_MIN_ROWS = 5  # a key table has at least this many numbered rows
KEY_CELL_MIN_COLUMN = 3  # a key column has at least this many label cells read by the page passes
KEY_CELL_PSM = 7
KEY_CELL_MAX_JUNK = 4  # a cell reading this short that is no label is a misread letter
KEY_CELL_MIN_INK = 0.01  # share of dark pixels a cell crop needs to hold a letter at all
KEY_CELL_MIN_CONF = 15.0  # the whitelist leaves only labels; "C" comes back at 23–53 when right


def _clusters(values: list[float], tolerance: float) -> list[list[float]]:
    groups: list[list[float]] = []
    for value in sorted(values):
        if groups and value - groups[-1][-1] <= tolerance:
            groups[-1].append(value)
        else:
            groups.append([value])
    return groups


STRIP_INK_BELOW = 140  # grey level: strips are binarised; Tesseract's own threshold on a small, mostly
# white strip of soft grey digits returned nothing ("58 59 60" of a NÚCEM page)


def _read_strip(
    grey: Image.Image,
    boxes: list[tuple[int, int, int, int]],
    gap: int,
    languages: Sequence[str],
    dpi: int,
    omp_thread_limit: int | None,
    path: Path,
    whitelist: str | None = None,
    binarise: bool = True,
    stretch: float = 1.0,
) -> tuple[list[int], list[_Word]]:
    """Crops of `grey` side by side in one strip, read as one text line (psm 7): the x offset of each
    crop in the strip (its top sits at `gap`) and the words read. Lone letters read against a whitelist
    come out better grey (`binarise=False`): binarised, most "C"s of a generated key were lost."""
    strip_height = max(d - u for _, u, _, d in boxes) + 2 * gap
    offsets, x = [], gap
    for left, up, right, down in boxes:
        offsets.append(x)
        x += (right - left) + gap
    strip = Image.new("L", (x, strip_height), 255)
    for (left, up, right, down), offset in zip(boxes, offsets):
        strip.paste(grey.crop((left, up, right, down)), (offset, gap))
    if binarise:
        strip = strip.point(lambda v: 0 if v < STRIP_INK_BELOW else 255)
    read = _read_widened(strip, stretch, path, languages, dpi, omp_thread_limit, psm=KEY_CELL_PSM, whitelist=whitelist)
    return offsets, read


def _read_widened(
    image: Image.Image,
    stretch: float,
    path: Path,
    languages: Sequence[str],
    dpi: int,
    omp_thread_limit: int | None,
    **tesseract_options,
) -> list[_Word]:
    """Tesseract's words for `image` widened `stretch` times (saved to `path`), boxes mapped back."""
    if stretch != 1:
        image = image.resize((round(image.width * stretch), image.height), Image.LANCZOS)
    image.save(path, format="PPM")
    words = _parse_tsv(_run_tesseract(path, languages, dpi, omp_thread_limit=omp_thread_limit, **tesseract_options))
    if stretch == 1:
        return words
    return [replace(w, left=round(w.left / stretch), right=round(w.right / stretch)) for w in words]


def _key_grid(words: list[_Word], labels: Sequence[str]) -> tuple[list[_Word], list[float], float] | None:
    """(row numbers, answer column centres, cell height) of an answer-key table on the page, or None.

    Rows are the numbers of a left-aligned column of isolated numbers ("01", "02", …); answer columns are
    x positions where several isolated label letters stand, right of the numbers."""
    isolated = _isolated_short_words(words)
    numbers = [w for w in isolated if _CELL_NUMBER.match(w.text)]
    if len(numbers) < KEY_CELL_MIN_ROWS:
        return None
    height = sorted(w.bottom - w.top for w in numbers)[len(numbers) // 2]
    # Right edges: a speck glued to a number's left widens its box there ("01" from x=108, not 128).
    rights = max(_clusters([w.right for w in numbers], height), key=len)
    if len(rights) < KEY_CELL_MIN_ROWS:
        return None
    # A speck on both sides ("61" from x=107 to 161, the others 128–141) still spans the common edge.
    edge = rights[len(rights) // 2]
    rows = [w for w in numbers if rights[0] <= w.right <= rights[-1] or w.left < edge < w.right]
    right_of_numbers = max(rights)
    centres = [(w.left + w.right) / 2 for w in isolated if len(w.text) == 1 and w.text in labels and w.left > right_of_numbers]
    columns = [sum(c) / len(c) for c in _clusters(centres, height) if len(c) >= KEY_CELL_MIN_COLUMN]
    return (rows, columns, float(height)) if columns else None


def _read_cell_strip(
    grey: Image.Image,
    crops: list[tuple[int, int, int, int]],
    labels: Sequence[str],
    whitelist: str,
    gap: int,
    languages: Sequence[str],
    dpi: int,
    omp_thread_limit: int | None,
    path: Path,
) -> dict[int, tuple[str, float]]:
    """{crop index: (label, confidence)} for the cell crops read side by side against the labels
    whitelist; ("", 0) for a crop two readings claimed."""
    offsets, read = _read_strip(grey, crops, gap, languages, dpi, omp_thread_limit, path, whitelist, binarise=False)

    def crop_at(x: float) -> int | None:
        return next((i for i, ((left, _, right, _), offset) in enumerate(zip(crops, offsets)) if offset <= x < offset + right - left), None)

    # Tesseract may join neighbouring cells into one word ("CCBD…"): a word of as many letters as the
    # crops its box spans gives one letter to each; any other word is placed letter by letter from
    # Tesseract's character boxes (a cell read as nothing shifted a 27-letter word off its crops).
    readings: dict[int, tuple[str, float]] = {}
    misaligned: list[_Word] = []
    for r in read:
        if (r.conf < KEY_CELL_MIN_CONF and len(r.text) == 1) or not all(ch in labels for ch in r.text):
            continue
        spanned = [
            i for i, ((left, _, right, _), offset) in enumerate(zip(crops, offsets))
            if r.left < offset + (right - left) and r.right > offset
        ]
        if len(spanned) != len(r.text):
            misaligned.append(r)
            continue
        for i, ch in zip(spanned, r.text):
            readings[i] = (ch, r.conf) if i not in readings else ("", 0.0)  # read twice: trust neither
    if misaligned:
        boxes = _run_tesseract(path, languages, dpi, omp_thread_limit=omp_thread_limit, psm=KEY_CELL_PSM, whitelist=whitelist, output="makebox")
        for row in boxes.splitlines():
            fields = row.split()
            if len(fields) < 5 or fields[0] not in labels:
                continue
            centre = (int(fields[1]) + int(fields[3])) / 2
            owner = next((r for r in misaligned if r.left <= centre <= r.right), None)
            at = crop_at(centre)
            if owner is not None and at is not None:
                readings[at] = (fields[0], owner.conf) if at not in readings else ("", 0.0)
    return readings


def _read_key_cells(
    grey: Image.Image,
    words: list[_Word],
    labels: Sequence[str],
    languages: Sequence[str],
    dpi: int,
    omp_thread_limit: int | None,
    folder: Path,
) -> list[_Word]:
    """Re-read the answer cells of a key table one letter at a time, allowing only the option labels.

    Tesseract's page passes drop lone letters in table cells or read them as look-alikes ("A" as ">",
    "D" as "0"). Where a row's number is read, each answer column's cell that holds no label letter is
    cropped; the crops are stacked in one strip and read once with `tessedit_char_whitelist` set to the
    labels, so every reading is a label or nothing. A cell crop without ink (an empty cell) is never read.
    """
    grid = _key_grid(words, labels)
    if grid is None:
        return words
    rows, columns, height = grid
    ink = np.asarray(grey) < INK_BELOW
    crops: list[tuple[int, int, int, int]] = []
    replaced: set[int] = set()
    for row in rows:
        top, bottom = row.top - 0.35 * height, row.bottom + 0.35 * height
        for centre in columns:
            inside = [
                w for w in words
                if abs((w.left + w.right) / 2 - centre) < 1.2 * height and w.top < bottom and w.bottom > top
            ]
            if any(w.text in labels for w in inside):
                continue
            if any(len(w.text) > KEY_CELL_MAX_JUNK for w in inside):
                continue  # a word, not a misread cell letter ("ej", "E46"): leave it to the page passes
            box = (round(centre - 1.2 * height), round(top), round(centre + 1.2 * height), round(bottom))
            left, up, right, down = max(box[0], 0), max(box[1], 0), min(box[2], grey.width), min(box[3], grey.height)
            if right <= left or down <= up or ink[up:down, left:right].mean() < KEY_CELL_MIN_INK:
                continue
            crops.append((left, up, right, down))
            replaced.update(id(w) for w in inside)
    if not crops:
        return words
    whitelist = "".join(sorted(set("".join(labels))))
    strip = (labels, whitelist, round(height), languages, dpi, omp_thread_limit, folder / "key-cells.pgm")
    readings = _read_cell_strip(grey, crops, *strip)
    # Cells left unread get one more strip of their own: in company, Tesseract skipped a clear "A".
    missing = [i for i in range(len(crops)) if not readings.get(i, ("", 0.0))[0]]
    if missing and len(missing) < len(crops):
        again = _read_cell_strip(grey, [crops[i] for i in missing], *strip)
        readings.update({missing[j]: reading for j, reading in again.items() if reading[0]})
    result = [w for w in words if id(w) not in replaced]
    line = 20_000
    for i, (left, up, right, down) in enumerate(crops):
        text, conf = readings.get(i, ("", 0.0))
        if not text:
            continue
        line += 1
        result.append(_Word(text=text, conf=conf, left=left, top=up, right=right, bottom=down, line=(line, 0, 0)))
    return result


ORPHAN_MAX_WIDTH = 4.0  # typical word heights: wider uncovered ink is a figure, not a dropped word
ORPHAN_MIN_CONF = 60.0
ORPHAN_MIN_LABEL_CONF = 40.0  # a letter with its mark ("c." at 51 for a dropped "C.") is read less surely
_ORPHAN_LABEL = re.compile(r"^[(\[]?[^\W\d_][.)]$")
# Typical word heights of white between patches in the strip: at 1.5 Tesseract read two dropped labels
# one above the other ("B.", "C.") as one word "BC.".
ORPHAN_GAP = 3.0
ORPHAN_MAX_CHARS = 4
_ORPHAN_TEXT = re.compile(r"^[(\[]?\w{1,3}[.)\]:]?$")


def _runs(profile: np.ndarray, max_gap: int) -> list[tuple[int, int]]:
    """[start, end) runs where `profile` is non-zero, bridging gaps up to `max_gap`."""
    idx = np.flatnonzero(profile)
    if idx.size == 0:
        return []
    breaks = np.flatnonzero(np.diff(idx) > max_gap + 1)
    starts = np.concatenate(([idx[0]], idx[breaks + 1]))
    ends = np.concatenate((idx[breaks], [idx[-1]])) + 1
    return list(zip(starts.tolist(), ends.tolist()))


def _orphan_boxes(grey: Image.Image, covered: list[_Word], typical_height: float) -> list[tuple[int, int, int, int]]:
    """Small patches of ink, of a text line's height, that no word Tesseract returned covers.

    Tesseract's page layout analysis now and then drops a short word standing apart, such as a
    question number in its own box beside the stem ("05" of a NÚCEM sheet)."""
    ink = np.asarray(grey) < INK_BELOW
    pad = max(2, round(0.15 * typical_height))
    for w in covered:
        ink[max(w.top - pad, 0) : w.bottom + pad, max(w.left - pad, 0) : w.right + pad] = False
    boxes = []
    for top, bottom in _runs(ink.sum(axis=1) > 1, round(0.1 * typical_height)):
        if not 0.6 * typical_height <= bottom - top <= 1.8 * typical_height:
            continue
        band = ink[top:bottom]
        for left, right in _runs(band.sum(axis=0), round(0.5 * typical_height)):
            if not 0.3 * typical_height <= right - left <= ORPHAN_MAX_WIDTH * typical_height:
                continue
            if band[:, left:right].sum() < 0.08 * (bottom - top) * (right - left):
                continue  # specks
            boxes.append((left, top, right, bottom))
    return boxes


def _read_orphans(
    grey: Image.Image,
    words: list[_Word],
    covered: list[_Word],
    typical_height: float,
    languages: Sequence[str],
    dpi: int,
    omp_thread_limit: int | None,
    folder: Path,
    stretch: float = 1.0,
) -> list[_Word]:
    """Words Tesseract's layout pass dropped, read again: the uncovered patches side by side in one strip,
    read as one text line (psm 7), widened like the page when its type is condensed ("34" read as "4"
    otherwise). Only confident short tokens (numbers, labels) are taken."""
    if not typical_height:
        return words
    # A short word read with little confidence is read again too ("[e" for a marking scheme's lone "C").
    suspects = {id(w) for w in covered if len(w.text) <= ORPHAN_MAX_CHARS - 1 and 0 <= w.conf < ORPHAN_MIN_CONF}
    boxes = _orphan_boxes(grey, [w for w in covered if id(w) not in suspects], typical_height)
    if not boxes:
        return words
    gap = round(ORPHAN_GAP * typical_height)
    offsets, read = _read_strip(grey, boxes, gap, languages, dpi, omp_thread_limit, folder / "orphans.pgm", stretch=stretch)
    added = list(words)
    line = 30_000
    replaced: set[int] = set()
    for (left, up, right, down), offset in zip(boxes, offsets):
        inside = [r for r in read if offset <= (r.left + r.right) / 2 <= offset + (right - left)]
        if len(inside) != 1:
            continue
        r = inside[0]
        least = ORPHAN_MIN_LABEL_CONF if _ORPHAN_LABEL.match(r.text) else ORPHAN_MIN_CONF
        if r.conf < least or len(r.text) > ORPHAN_MAX_CHARS or not _ORPHAN_TEXT.match(r.text):
            continue
        line += 1
        reread = _Word(
            text=r.text, conf=r.conf, left=left + r.left - offset, top=up + r.top - gap,
            right=left + r.right - offset, bottom=up + r.bottom - gap, line=(line, 0, 0),
        )
        replaced.update(id(w) for w in words if id(w) in suspects and _overlap(w, reread) > 0.3)
        added.append(reread)
    return [w for w in added if id(w) not in replaced]


EM_DASH_MIN_WIDTH = 0.75  # font sizes: an em dash is about 1 em wide, an en dash about 0.5,
EN_DASH_MIN_WIDTH = 0.36  # ink widths: a spaced DejaVu en dash 0.39–0.41, a hyphen under 0.3


_CLOSING_PUNCTUATION = re.compile(r"^[.,;:!?)\]}»”%]+$")
PUNCTUATION_MAX_GAP = 0.5  # font sizes between a word and a closing mark that belongs to it


def _same_row(a: _Word, b: _Word) -> bool:
    return min(a.bottom, b.bottom) - max(a.top, b.top) > 0.5 * min(a.bottom - a.top, b.bottom - b.top)


def _glued(left: _Word, right: _Word) -> _Word:
    return replace(
        left,
        text=left.text + right.text,
        conf=min(left.conf, right.conf),
        right=max(left.right, right.right),
        top=min(left.top, right.top),
        bottom=max(left.bottom, right.bottom),
    )


def _join_split_words(words: list[_Word]) -> list[_Word]:
    """Glue closing punctuation that Tesseract read as a word of its own, in its line or in a pass of its
    own, to the word before it ("84" + "." loses the question number): typeset text has no space there.
    Overlapping boxes are no sign of one word cut in two: the caron of "rozhodnosť" reached 0.56 font
    sizes into the "a" after it."""
    sizes = _line_sizes(words)
    joined = list(words)
    for mark in [w for w in words if _CLOSING_PUNCTUATION.match(w.text)]:
        hosts = [
            w for w in joined
            if w is not mark
            and not _CLOSING_PUNCTUATION.match(w.text)
            and _same_row(w, mark)
            and w.left < mark.left
            and mark.left - w.right < PUNCTUATION_MAX_GAP * sizes[w.line]
        ]
        if hosts:
            host = min(hosts, key=lambda w: mark.left - w.right)
            at = next(i for i, w in enumerate(joined) if w is host)
            joined[at] = _glued(host, mark)
            joined = [w for w in joined if w is not mark]
    return joined


def _dashes_by_width(words: list[_Word]) -> list[_Word]:
    """A lone dash (a word of its own) takes the dash its width shows: Tesseract's Slovak data read the
    spaced en dash of "smiech – plač" as an em dash (width 0.5 of the font size, not 1), its Polish
    data as a hyphen."""
    sizes = _line_sizes(words)
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


def _line_sizes(words: list[_Word]) -> dict[tuple[int, int, int], float]:
    """Font size (pixels) per Tesseract line: the line's ink height, from its highest to its lowest word.

    Across a line, ascenders, accents and descenders add up to about one font size (Tesseract's own
    hOCR x_size agrees within a pixel); a single word's height depends on its letters ("možnosti" is
    0.75 of it). A stray tall box cannot inflate the estimate beyond 1.6 median word heights.
    """
    by_line = _by_line(words)
    sizes = {}
    for key, members in by_line.items():
        heights = sorted(w.bottom - w.top for w in members)
        extent = max(w.bottom for w in members) - min(w.top for w in members)
        ink = min(extent, 1.6 * heights[len(heights) // 2])
        caps_only = all(_CAP_HEIGHT_CHARS.match(w.text) for w in members)
        sizes[key] = ink / (CAP_HEIGHT_PER_SIZE if caps_only else LINE_HEIGHT_PER_SIZE)
    return sizes


# A line of capitals and digits only ("A", "05", "3.1") has no ascenders or descenders: its ink is the
# cap height, about 0.7 of the font size. Measured as a whole line, a key's lone answer letter came out
# a quarter smaller than the text around it and was dropped as a margin note.
CAP_HEIGHT_PER_SIZE = 0.72
_CAP_HEIGHT_CHARS = re.compile(r"^[A-Z0-9.:]+$")


def _yellow_mask(rgb: np.ndarray) -> np.ndarray:
    r, g, b = (rgb[..., i].astype(np.int16) for i in range(3))
    return (r > 170) & (g > 160) & (b < 150) & (r - b > 70) & (g - b > 60)


def _highlight_share(rgb: np.ndarray | None, box: tuple[int, int, int, int]) -> float:
    """Share of a word box's background pixels that are yellow (0 when the page has no colour)."""
    if rgb is None:
        return 0.0
    left, top, right, bottom = box
    patch = rgb[max(top, 0) : bottom, max(left, 0) : right]
    if patch.size == 0:
        return 0.0
    # Ink (dark pixels) is neither highlight nor paper; judge the background only.
    light = patch.max(axis=2) > 140
    background = int(light.sum())
    if background == 0:
        return 0.0
    return float((_yellow_mask(patch) & light).sum()) / background


def _run_tesseract(
    image_path: Path,
    languages: Sequence[str],
    dpi: int,
    *,
    omp_thread_limit: int | None,
    psm: int = PAGE_SEGMENTATION_MODE,
    whitelist: str | None = None,
    output: str = "tsv",
) -> str:
    """Tesseract's `output` ("tsv" words, or "makebox" character boxes) for one image."""
    command = [
        tesseract_command(),
        str(image_path),
        "stdout",
        "-l",
        "+".join(languages),
        "--psm",
        str(psm),
        "--dpi",
        str(dpi),
        *(["-c", f"tessedit_char_whitelist={whitelist}"] if whitelist else []),
        output,
    ]
    env = dict(os.environ)
    if omp_thread_limit is not None:
        env["OMP_THREAD_LIMIT"] = str(omp_thread_limit)
    else:
        env.pop("OMP_THREAD_LIMIT", None)
    try:
        result = subprocess.run(command, capture_output=True, timeout=PAGE_TIMEOUT_S, env=env, check=False)
    except subprocess.TimeoutExpired as exc:
        raise OcrError(f"tesseract took longer than {PAGE_TIMEOUT_S:.0f}s") from exc
    except OSError as exc:
        raise OcrUnavailable(f"cannot run tesseract: {exc}") from exc
    if result.returncode != 0:
        raise OcrError(f"tesseract exited with {result.returncode}: {result.stderr.decode(errors='replace').strip()}")
    return result.stdout.decode("utf-8", errors="replace")


def _box_mean(mask: np.ndarray, radius: int) -> np.ndarray:
    """Mean of a boolean mask over a (2·radius+1)² window around each pixel (integral image)."""
    padded = np.pad(mask.astype(np.float32), radius + 1, mode="edge")
    integral = padded.cumsum(0).cumsum(1)
    size = 2 * radius + 1
    window = integral[size:, size:] - integral[:-size, size:] - integral[size:, :-size] + integral[:-size, :-size]
    h, w = mask.shape
    return window[:h, :w] / (size * size)


def _long_runs(dark: np.ndarray, length: int, axis: int) -> np.ndarray:
    """Pixels of `dark` that lie on a straight run at least `length` long along `axis`."""
    work = dark if axis == 1 else dark.T
    h, w = work.shape
    if w < length:
        return np.zeros_like(dark)
    sums = np.concatenate([np.zeros((h, 1), np.int32), work.astype(np.int32).cumsum(1)], axis=1)
    starts = (sums[:, length:] - sums[:, :-length]) == length  # a full run starts at column j
    marks = np.concatenate([np.zeros((h, 1), np.int32), starts.astype(np.int32).cumsum(1)], axis=1)
    # pixel j is covered when a run starts anywhere in [j - length + 1, j]
    index = np.arange(w)
    upper = np.minimum(index + 1, starts.shape[1])
    lower = np.maximum(index - length + 1, 0)
    covered = (marks[:, upper] - marks[:, lower]) > 0
    return covered if axis == 1 else covered.T


def prepare_for_tesseract(image: Image.Image, dpi: int, *, smoothing: bool = True) -> Image.Image:
    """The grey page Tesseract reads: colour fills and light tints to white, table rules removed, grain smoothed.

    Each step fixed text Tesseract lost on real sheets (scanned at 200–300 dpi):
    - coloured cell fills (a NÚCEM key column on blue) and yellow key marks become paper: the global
      threshold otherwise blackens the blue cells and their letters;
    - light greys (the NÚCEM question-number boxes) become white (10 → 14 of 14 numbers on three pages);
    - straight dark runs longer than 0.4 in (table rules, frames, answer lines) are erased: single letters
      between the rules of a key table were read as "(U", ">" before;
    - a 0.8 px blur (at 300 dpi) evens out grain (5 of 54 CONAREME question numbers recovered, NÚCEM
      key cells and variant codes read); `smoothing=False` leaves it out for condensed type, whose thin
      strokes it dissolves (see `_read_condensed`).
    """
    if image.mode == "RGB":
        rgb = np.asarray(image).astype(np.int16)
        spread = rgb.max(axis=2) - rgb.min(axis=2)
        saturated = (spread > 60) & (rgb.max(axis=2) > 120)
        # A fill is saturated over an area; coloured text is thin and keeps its white surroundings.
        fill = saturated & (_box_mean(saturated, max(2, round(dpi / 30))) > 0.6)
        grey_array = np.asarray(image.convert("L")).copy()
        grey_array[fill] = 255
    else:
        grey_array = np.asarray(image.convert("L")).copy()
    dark = grey_array < 128
    length = max(20, round(dpi * RULE_MIN_INCHES))
    rules = _long_runs(dark, length, axis=1) | _long_runs(dark, length, axis=0)
    grey_array[rules] = 255
    grey = Image.fromarray(grey_array, mode="L")
    if smoothing:
        grey = grey.filter(ImageFilter.GaussianBlur(SMOOTHING_RADIUS_PX * dpi / 300))
    return grey.point(_WHITEN)


def _char_width(words: list[_Word]) -> float | None:
    """Median advance per character of the page's confidently read words, in font sizes (line ink heights)."""
    sizes = _line_sizes(words)
    widths = sorted(
        (w.right - w.left) / len(w.text) / sizes[w.line]
        for w in words
        if len(w.text) >= 5 and w.text.isalpha() and w.conf >= CONDENSED_MIN_CONF and sizes.get(w.line)
    )
    return widths[len(widths) // 2] if len(widths) >= CONDENSED_MIN_WORDS else None


def _read_condensed(
    image: Image.Image, dpi: int, stretch: float, languages: Sequence[str], omp_thread_limit: int | None, folder: Path
) -> list[_Word]:
    """The page pass again on condensed type: unsmoothed and widened by `stretch`, word boxes mapped back.

    Tesseract's models lose letters inside the tight pairs of a narrow typeface ("Sitaglipina",
    "Infuenza") and glue a question number's dot off ("64 ."); widened to a normal letter width and
    left sharp, a CONAREME sheet read 100 of 100 questions with 94 % of options exact, against 99 and
    83 % as it was."""
    sharp = prepare_for_tesseract(image, dpi, smoothing=False)
    return _read_widened(sharp, stretch, folder / "condensed.pgm", languages, dpi, omp_thread_limit)


def _intersections(boxes: np.ndarray, word: _Word) -> np.ndarray:
    """Area each of `boxes` (left, top, right, bottom rows) shares with `word`'s box."""
    width = np.minimum(boxes[:, 2], word.right) - np.maximum(boxes[:, 0], word.left)
    height = np.minimum(boxes[:, 3], word.bottom) - np.maximum(boxes[:, 1], word.top)
    return np.clip(width, 0, None) * np.clip(height, 0, None)


def _wide_readings(first: list[_Word], wide: list[_Word]) -> list[_Word]:
    """`first` with its words replaced by the widened pass's reading of the same place.

    A widened word of WIDE_MIN_LETTERS letters or more replaces the first-pass words that lie inside it
    (WIDE_MIN_SHARE of their area) when together they fill it (the same share of its area) and none of them is a label or number (fewer than two
    letters): letters lost in tight pairs come back ("Sitaglipina", "Esofagostom ía"). Labels and
    numbers stay as the first pass read them: the widened pass, its layout analysis upset by the new
    proportions, garbled a column of option labels ("1." as "P.", "A." as "<>..")."""
    boxes = np.array([(w.left, w.top, w.right, w.bottom) for w in first], dtype=np.int64).reshape(-1, 4)
    areas = np.maximum((boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1]), 1)
    # How much of each first-pass word the widened words cover in all: a word split across two widened
    # words ("Esofagostomia" read wide as "Esofagostom" + "ía") is no one reading's to replace.
    shared = [_intersections(boxes, reading) for reading in wide]
    covered = np.sum(shared, axis=0) if shared else np.zeros(len(first))
    replaced: dict[int, _Word | None] = {}
    for reading, inter in zip(wide, shared):
        if sum(ch.isalpha() for ch in reading.text) < WIDE_MIN_LETTERS:
            continue
        touched = np.flatnonzero(inter > 0)
        members = [int(i) for i in touched if inter[i] > WIDE_MIN_SHARE * areas[i]]
        area = max((reading.right - reading.left) * (reading.bottom - reading.top), 1)
        if (
            not members
            or len(members) != len(touched)
            or inter[members].sum() < WIDE_MIN_SHARE * area
            or any(covered[i] - inter[i] > WIDE_MAX_OTHER * areas[i] for i in members)
            or any(i in replaced or sum(ch.isalpha() for ch in first[i].text) < 2 for i in members)
        ):
            continue
        head = first[members[0]]
        replaced[members[0]] = replace(
            head,
            text=reading.text,
            conf=reading.conf,
            left=min(first[i].left for i in members),
            right=max(first[i].right for i in members),
            top=min(first[i].top for i in members),
            bottom=max(first[i].bottom for i in members),
        )
        replaced.update({i: None for i in members[1:]})
    mended = [replaced.get(i, word) for i, word in enumerate(first)]
    return [w for w in mended if w is not None]


def ocr_image(
    image: Image.Image,
    languages: Sequence[str],
    *,
    page_number: int,
    width_pt: float,
    height_pt: float,
    dpi: int,
    omp_thread_limit: int | None = 1,
    layout: LayoutParams = DEFAULT_LAYOUT,
    option_labels: Sequence[str] | None = None,
    ellipsis: bool = False,
) -> Page:
    """OCR one rendered page image (RGB or grey) whose size in points is `width_pt` × `height_pt`.
    `ellipsis`: the publisher sets "…", which Tesseract reads as three dots (see `_as_ellipsis`).

    Tesseract's words become positioned glyphs for pipeline.layout, the same assembly the text layer goes
    through, so rows, option grids and two-column bands come out in the same order on both paths.
    """
    rgb = np.asarray(image) if image.mode == "RGB" else None
    grey = prepare_for_tesseract(image, dpi)
    with tempfile.TemporaryDirectory(prefix="examcorpus-ocr-") as folder:
        path = Path(folder) / f"page-{page_number}.pgm"
        grey.save(path, format="PPM")
        parsed = _parse_tsv(_run_tesseract(path, languages, dpi, omp_thread_limit=omp_thread_limit))
        heights = sorted(w.bottom - w.top for w in parsed if sum(ch.isalpha() for ch in w.text) >= 3)
        typical_height = heights[len(heights) // 2] if heights else 0.0
        width = _char_width(parsed)
        stretch = min(MAX_STRETCH, NORMAL_CHAR_WIDTH / width) if width and width < CONDENSED_BELOW else 1.0
        if stretch > 1:
            parsed = _wide_readings(parsed, _read_condensed(image, dpi, stretch, languages, omp_thread_limit, Path(folder)))
        words = _without_icons([w for w in parsed if not _is_noise(w, typical_height)])
        words = _read_orphans(grey, words, parsed, typical_height, languages, dpi, omp_thread_limit, Path(folder), stretch)
        if len(_isolated_short_words(words)) >= TABLE_PASS_MIN_ISOLATED:
            block_tsv = _run_tesseract(path, languages, dpi, omp_thread_limit=omp_thread_limit, psm=TABLE_PASS_PSM)
            block_pass = [w for w in _parse_tsv(block_tsv) if not _is_noise(w, typical_height)]
            words = _merge_table_pass(words, block_pass)
            if option_labels:
                words = _read_key_cells(grey, words, option_labels, languages, dpi, omp_thread_limit, Path(folder))
    words = _stray_inverted_marks(_roman_numerals(_restore_question_numbers(_join_split_words(words))))
    lexicon = load_lexicon(languages)
    ink = np.asarray(grey) < INK_BELOW
    if lexicon is not None:
        words = [replace(w, text=lexicon.repair(w.text)) for w in _join_overlapping_pieces(words, lexicon)]
        words = _capital_accents(_split_glued_words(words, ink, lexicon), ink, lexicon)
        words = _capitals_read_as_digits(words, lexicon)
    if option_labels:
        words = _split_glued_labels(words, option_labels)
        words = _label_case_cells(words, option_labels)
        words = _restore_label_marks(words, option_labels)
    words = _dashes_by_width(words)
    if ellipsis:
        words = _as_ellipsis(words)
    if not any(_legible(w) for w in words):
        return Page(number=page_number, width=width_pt, height=height_pt, method=PageMethod.EMPTY)
    sx = width_pt / grey.width
    sy = height_pt / grey.height
    sizes = _line_sizes(words)
    bold = _bold_words(words, ink, sizes)
    glyphs = []
    for word in words:
        glyph = Glyph(
            word.text,
            word.left * sx,
            word.top * sy,
            word.right * sx,
            word.bottom * sy,
            size=sizes[word.line] * sy,
            highlighted=_highlight_share(rgb, (word.left, word.top, word.right, word.bottom)) >= HIGHLIGHT_MIN_SHARE,
            bold=id(word) in bold,
        )
        glyphs.append(glyph)
    page_lines = []
    for segment in assemble(glyphs, width_pt, layout):
        # Each glyph is a whole word: join with single spaces rather than re-deriving spaces from gaps.
        text = _joined_words(segment.glyphs)
        if option_labels:
            text = normalize_ocr_line(text, option_labels)
        # The key marking covers the answer, not always its label ("A." on white, "24" on yellow).
        body = segment.glyphs[1:] if len(segment.glyphs) > 1 and _LABEL_TOKEN.match(segment.glyphs[0].text) else segment.glyphs
        letters = sum(len(g.text) for g in body)
        marked = sum(len(g.text) for g in body if g.highlighted)
        # Highlight weighted by characters like the text path.
        page_lines.append(segment.to_line(text, highlighted=marked * 2 > letters, font_size=round(segment.size, 1)))
    confs = [w.conf for w in words if w.conf >= 0]
    return Page(
        number=page_number,
        width=width_pt,
        height=height_pt,
        method=PageMethod.OCR,
        lines=page_lines,
        ocr_confidence=round(sum(confs) / len(confs), 2) if confs else None,
    )


# Tesseract has no "…": it reads the glyph as three dots. Whether a sheet means "…" is the publisher's
# typography (NÚCEM sets "…" throughout, CONAREME types "..."), which the dots' spacing does not tell
# apart reliably (0.33 em against 0.28 on CKE pages, but fonts differ), so the spec says it.
_THREE_DOTS = re.compile(r"(?<!\.)\.\.\.(?!\.)")


def _as_ellipsis(words: list[_Word]) -> list[_Word]:
    """Three dots become "…" ("vojak...?", "[...]"); a dotted leader of four or more stays."""
    return [replace(w, text=_THREE_DOTS.sub("…", w.text)) for w in words]


def _stroke_width(ink: np.ndarray, word: _Word, size: float) -> float | None:
    """Mean length of the word's horizontal ink runs no longer than a quarter font size (its stems),
    in font sizes."""
    box = ink[word.top : word.bottom, word.left : word.right]
    edges = np.diff(np.pad(box.astype(np.int8), ((0, 0), (1, 1))), axis=1).ravel()
    runs = np.flatnonzero(edges == -1) - np.flatnonzero(edges == 1)
    stems = runs[runs <= 0.25 * size]
    return float(stems.mean()) / size if stems.size else None


BOLD_MIN_LETTERS = 4
BOLD_MIN_RATIO = 1.35
BOLD_MIN_WORDS = 20


def _bold_words(words: list[_Word], ink: np.ndarray, sizes: dict[tuple[int, int, int], float]) -> set[int]:
    """ids of the words printed bold: stems BOLD_MIN_RATIO times as thick as the page's median word.

    Measured against the text layer's fonts on the NÚCEM scans: regular words 0.99 (median), 1.27 at
    the 99.9th percentile; bold words 1.37–1.39 (median). Words under BOLD_MIN_LETTERS letters are too
    few stems to tell ("tos" came out at 1.4)."""
    widths = {}
    for word in words:
        if sum(ch.isalpha() for ch in word.text) >= 3 and sizes.get(word.line):
            width = _stroke_width(ink, word, sizes[word.line])
            if width:
                widths[id(word)] = (word, width)
    if len(widths) < BOLD_MIN_WORDS:
        return set()
    median = float(np.median([width for _, width in widths.values()]))
    return {
        key for key, (word, width) in widths.items()
        if width >= BOLD_MIN_RATIO * median and sum(ch.isalpha() for ch in word.text) >= BOLD_MIN_LETTERS
    }


def _joined_words(glyphs: list[Glyph]) -> str:
    """The words of a segment joined by spaces, a run of bold words in a line of regular type as
    **run**, as the text path marks it. A line mostly bold is a bold line (a title, a bold paragraph):
    the stems of some of its words measure regular, and marking the rest would break it up."""
    measured = [g for g in glyphs if sum(ch.isalpha() for ch in g.text) >= BOLD_MIN_LETTERS]
    if not any(g.bold for g in glyphs) or 2 * sum(g.bold for g in measured) >= len(measured):
        return " ".join(g.text for g in glyphs)
    parts, at = [], 0
    while at < len(glyphs):
        end = at
        while end < len(glyphs) and glyphs[end].bold == glyphs[at].bold:
            end += 1
        run = " ".join(g.text for g in glyphs[at:end])
        if glyphs[at].bold:
            # Punctuation around a bold word is usually set regular ("**však**,"), as the text path shows.
            lead, core, trail = word_core(run)
            run = f"{lead}**{core}**{trail}" if core else run
        parts.append(run)
        at = end
    return " ".join(parts)


_LABEL_TOKEN = re.compile(r"^[(\[]?\w[.):]$")
_GREEK = re.compile(r"[\u0370-\u03ff\u1f00-\u1fff]")


def _clean_text(text: str) -> str:
    # Tesseract emits decomposed accents now and then; the text path gives NFC.
    text = unicodedata.normalize("NFC", text).strip()
    # Greek data reads μ as the micro sign now and then ("αριθµό"); inside a Greek word it is always μ.
    if "\u00b5" in text and _GREEK.search(text):
        text = text.replace("\u00b5", "\u03bc")
    return text


# --------------------------------------------------------------------------- many pages


def render_page(document: pdfium.PdfDocument, index: int, dpi: int) -> tuple[Image.Image, float, float]:
    """Page `index` (0-based) as an RGB image at `dpi`, with the page size in points."""
    page = document[index]
    try:
        width_pt, height_pt = page.get_size()
        bitmap = page.render(scale=dpi / PT_PER_INCH)
        image = bitmap.to_pil().convert("RGB")
    finally:
        page.close()
    return image, width_pt, height_pt


def ocr_pages(
    pdf_path: Path,
    page_numbers: list[int],
    languages: list[str],
    *,
    dpi: int = 300,
    workers: int = 2,
    omp_thread_limit: int | None = 1,
    layout: LayoutParams = DEFAULT_LAYOUT,
    option_labels: Sequence[str] | None = None,
    ellipsis: bool = False,
    progress: bool | None = None,
) -> dict[int, Page]:
    """OCR the given 1-based pages of `pdf_path`; returns {page number: Page}.

    Rendering stays on this thread (pdfium is not thread-safe); Tesseract runs in `workers` child
    processes at a time, each limited to one OpenMP thread (`omp_thread_limit=None` leaves Tesseract's
    default threading, for benchmarks only). At most 2 × workers rendered pages wait in memory.
    `layout` is the same LayoutParams the text path uses for this source (segment gap, column rules).
    `option_labels` (the spec's option labels) turns on `normalize_ocr_line` for every line; None leaves
    Tesseract's text as it is. `ellipsis` (the spec's `ocr.ellipsis`): the publisher sets "…", so three
    dots become it.
    """
    pdf_path = Path(pdf_path)
    require_languages(languages)
    if workers < 1:
        raise ValueError(f"workers must be at least 1, got {workers}")
    if not page_numbers:
        return {}
    try:
        document = pdfium.PdfDocument(str(pdf_path))
    except Exception as exc:
        raise OcrError(f"{pdf_path}: cannot open as PDF: {exc}") from exc
    results: dict[int, Page] = {}
    try:
        count = len(document)
        bad = [n for n in page_numbers if not 1 <= n <= count]
        if bad:
            raise OcrError(f"{pdf_path}: page(s) {bad} out of range 1–{count}")
        show = sys.stderr.isatty() if progress is None else progress
        pending: deque[tuple[int, Future[Page]]] = deque()
        with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="ocr") as pool, tqdm(
            total=len(page_numbers), desc=f"OCR {pdf_path.name}", unit="page", disable=not show, file=sys.stderr
        ) as bar:

            def collect_one() -> None:
                number, future = pending.popleft()
                try:
                    results[number] = future.result()
                except (OcrError, OcrUnavailable) as exc:
                    raise type(exc)(f"{pdf_path} page {number}: {exc}") from exc
                bar.update(1)

            for number in page_numbers:
                image, width_pt, height_pt = render_page(document, number - 1, dpi)
                future = pool.submit(
                    ocr_image,
                    image,
                    languages,
                    page_number=number,
                    width_pt=width_pt,
                    height_pt=height_pt,
                    dpi=dpi,
                    omp_thread_limit=omp_thread_limit,
                    layout=layout,
                    option_labels=option_labels,
                    ellipsis=ellipsis,
                )
                pending.append((number, future))
                if len(pending) >= 2 * workers:
                    collect_one()
            while pending:
                collect_one()
    finally:
        document.close()
    return results


# --------------------------------------------------------------------------- post-OCR fixes

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
_COPYRIGHT = re.compile(r"^©\s*")
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
    - bracket and spacing slips: "©" → "(C)", "{B)"/"[B]" → "(B)", "B}" → "B)", "A ." / "A:" → "A.",
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


def text_layer_usable(text: str, *, image_coverage: float = 0.0, curved_paths: int = 0) -> bool:
    """True when a page's text layer can be used as it is (see pipeline.textlayer_quality for the rules)."""
    from pipeline.textlayer_quality import assess_text_layer

    return assess_text_layer(text, image_coverage=image_coverage, curved_paths=curved_paths).usable
