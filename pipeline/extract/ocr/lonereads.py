"""A short word read unsure, read again from its own box by readings constrained to what can stand there.

Tesseract's word confidence on a box of one to four glyphs says little: with no word around them to weigh, its Korean
model gave a clear lone `6` in a stem 26.8 and a year `2026` 32.2, its Greek model a clear key letter `Δ` 0, while the
same glyphs cut out and read as a single glyph or line come back at 90 and more. A misread short word is caught by that
same confidence (`certainty`: "low confidence"), so the threshold cannot simply be lowered; a second look can tell the
two apart. Each word that

- is one to `MAX_GLYPHS` glyphs of one kind: digits (a closing `.` `)` `,` `:` allowed), or one of the spec's option
  labels (`A`, `Δ`, `①`, a closing mark allowed), and
- was read under the shipped policy's `unsure_below` (a number a pass put there from its neighbours' count, and a word
  whose mark was unclear, are left as they are: they are unsure by design),

is cut from the prepared page with a margin (`MARGIN` of its height; other words' boxes inside the margin whitened),
set on white, and read four times by Tesseract (`readings`), each as one block (`PSM`):

- digits: with a whitelist of digits (and its closing mark), at the scan's resolution and at 2×, then with no
  whitelist at 1× and 2× (the free readings by the page's own languages: a companion script would read a Greek `Β`
  as a Latin `B`);
- a label: the same with a whitelist of the spec's labels (and its closing mark);
- a label that is a digit in a ring (`①`): the digit with its ring whitened. Tesseract's box of such a label may hold
  the digit alone and part of the ring (a thin Noto CJK ring: a `①` boxed 8 px wide in a ring 42 px wide), so the ring
  is looked for by its shape (`ringshapes.find_rings`: a closed thin outline around ink, the one ring holding the box,
  within `RING_REACH` text heights of it, other words' boxes whitened) on the page before its light greys were
  whitened (a thin ring at 150 dpi is grey). Its box with the ring whitened (`ringshapes.ring_inside`) is read as
  digits are (a whitelist of digits and none, at 1× and 2×). A ring not found so (broken open, run into a rule or a
  neighbour) is not read: its label stays as it was.

The word is lifted out of unsure (its confidence becomes the lowest of the readings') only where `MIN_READINGS` of
them or more read something, a constrained and a free one among them, and every one that read something read the word
as it was read at `LIFT_FROM` or more (a whitelist may leave a clear glyph unread: no evidence either way). Otherwise it
stays as it was; where the readings that read something (two or more, a constrained one among them) agree surely on
another text, a page note says so (the word is not rewritten: which reading is right is for a reader to see).

A page's lone labels read unsure are lifted all or none: parse judges a key's unsure lone labels together
(`parse.certainty.labels_vouch`: where more than a quarter are unsure the recogniser's confidence says nothing on that
key; where few are, they stand out and stay unsure), so lifting all but a few would make those few stand out. Digits
are lifted one by one.
"""
from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import numpy as np
from PIL import Image

from pipeline.extract.ocr.ringshapes import Ring, find_rings, on_white, ring_inside
from pipeline.extract.ocr.words import Word

MAX_GLYPHS = 4  # glyphs of a word read again: a lone digit, a year, a key's entry
LIFT_FROM = 80.0  # each reading's confidence needed to lift a word (clean lone glyphs read 90-97 cut out)
MARGIN = 0.2  # of the word's box height, around its box: a glyph Tesseract's box clipped is read whole
PAD = 0.6  # of the box height, white around the crop (Tesseract reads a glyph touching its image's edge badly)
MAX_WORDS = 40  # words read again on one page (a key page of unsure labels): each costs three small readings
CLOSING = ".):,"
DIGITS = "0123456789"
_DIGITS = re.compile(rf"^(\d{{1,{MAX_GLYPHS}}})([{re.escape(CLOSING)}]?)$")

# Tesseract's page segmentation for every reading: one block. As one line (7) or one glyph (10), whitelisted, its Greek
# model read a clear 2x key `Δ` as nothing; as one block, 93.
PSM = 6
# A ring label's ring is looked for this many of the page's text heights past Tesseract's box of it, which may hold only
# the digit (a thin Noto CJK ring: a `①` boxed 8 px wide in a ring 42 px wide, 200 dpi); a ring is at most 1.9 text
# heights tall (`ringshapes.RING_HEIGHTS`), so a window of the box and one text height each side holds it whole.
RING_REACH = 1.0
RING_SLACK = 0.15  # of the ring's height: how far Tesseract's box of the label may reach past the ring that holds it
MIN_READINGS = 3  # of a word's four readings (constrained and free, 1x and 2x), that read something
# (crop, whitelist or None, psm) -> [(text, confidence)]: one Tesseract reading of a crop, its words; None: free
Reader = Callable[[Image.Image, str | None, int], list[tuple[str, float]]]


@dataclass(frozen=True)
class Plan:
    """How a word is read again: what it must read as (`expected`), the whitelist of the constrained readings, and
    whether it is a digit in a ring (read with its ring whitened)."""

    expected: str
    whitelist: str
    ring_digit: str | None = None


def ring_digit(label: str) -> str | None:
    """The digit of a label that is a digit in a ring or box (`①` → `1`), else None."""
    if len(label) != 1 or label.isascii():
        return None
    digit = unicodedata.digit(label, None)
    return str(digit) if digit is not None else None


def plan_for(text: str, labels: Sequence[str]) -> Plan | None:
    """How `text` is read again (module docstring), or None for a word of no such kind."""
    found = _DIGITS.match(text)
    if found:
        return Plan(text, DIGITS + found.group(2))
    core = text[:-1] if len(text) > 1 and text[-1] in CLOSING else text
    mark = text[len(core):]
    if core in labels and 0 < len(core) <= MAX_GLYPHS:
        digit = ring_digit(core)
        if digit is not None:
            return Plan(digit, DIGITS, ring_digit=digit) if not mark else None
        return Plan(text, "".join(sorted(set("".join(labels)))) + mark)
    return None


def crop_of(grey: Image.Image, word: Word, others: Sequence[Word]) -> Image.Image:
    """The word's box with a margin (`MARGIN`), other words' boxes in it whitened, set on white (`PAD`)."""
    height = max(1, word.bottom - word.top)
    margin = max(2, round(MARGIN * height))
    left, top = max(0, word.left - margin), max(0, word.top - margin)
    right, bottom = min(grey.width, word.right + margin), min(grey.height, word.bottom + margin)
    crop = np.asarray(grey.crop((left, top, right, bottom))).copy()
    _whiten_others(crop, (left, top, right, bottom), word, others)
    return _padded(Image.fromarray(crop), _pad_for(height))


def _whiten_others(crop: np.ndarray, box: tuple[int, int, int, int], word: Word, others: Sequence[Word]) -> None:
    """Other words' boxes whitened in `crop` (the page at `box`), only the part outside the word's own box: a
    neighbour's box overlapping the word does not erase its ink."""
    left, top, right, bottom = box
    for other in others:
        if other is word or other.right <= left or other.left >= right or other.bottom <= top or other.top >= bottom:
            continue
        x0, y0, x1, y1 = max(other.left, left) - left, max(other.top, top) - top, min(other.right, right) - left, min(other.bottom, bottom) - top
        region = np.zeros(crop.shape, dtype=bool)
        region[y0:y1, x0:x1] = True
        region[max(0, word.top - top):max(0, word.bottom - top), max(0, word.left - left):max(0, word.right - left)] = False
        crop[region] = 255


def ring_around(page: np.ndarray, word: Word, others: Sequence[Word], text_height: float) -> Ring | None:
    """The one ring found by its shape (`ringshapes.find_rings`: a closed thin outline around ink) that holds `word`'s
    box, looked for within `RING_REACH` text heights of the box, the other words' boxes whitened first (a ring whose ink
    runs into a neighbour's box or a rule is not found); in page pixels. None where no ring or more than one holds it."""
    if text_height < 1:
        return None
    reach = max(2, round(RING_REACH * text_height))
    left, top = max(0, word.left - reach), max(0, word.top - reach)
    right, bottom = min(page.shape[1], word.right + reach), min(page.shape[0], word.bottom + reach)
    if right <= left or bottom <= top:
        return None
    window = np.array(page[top:bottom, left:right], dtype=np.uint8)
    _whiten_others(window, (left, top, right, bottom), word, others)
    holding = []
    for ring in find_rings(window, text_height):
        slack = RING_SLACK * (ring.bottom - ring.top)
        if (ring.left - slack <= word.left - left and word.right - left <= ring.right + slack
                and ring.top - slack <= word.top - top and word.bottom - top <= ring.bottom + slack):
            holding.append(Ring(ring.left + left, ring.top + top, ring.right + left, ring.bottom + top))
    return holding[0] if len(holding) == 1 else None


def ring_inside_crop(grey: Image.Image, ring: Ring) -> Image.Image:
    """The ring's box of the page with the ring whitened (`ringshapes.ring_inside`: its digit kept), set on white."""
    box = np.asarray(grey.crop((ring.left, ring.top, ring.right, ring.bottom)))
    return _padded(Image.fromarray(ring_inside(box)), _pad_for(ring.bottom - ring.top))


def _doubled(image: Image.Image) -> Image.Image:
    return image.resize((image.width * 2, image.height * 2), Image.Resampling.LANCZOS)


def _pad_for(height: int) -> int:
    """White around a crop of a word `height` pixels tall (`PAD`)."""
    return max(4, round(PAD * height))


def _padded(image: Image.Image, pad: int) -> Image.Image:
    """`image` set on white, `pad` pixels on every side."""
    page = Image.new("L", (image.width + 2 * pad, image.height + 2 * pad), 255)
    page.paste(image, (pad, pad))
    return page


def readings(crop: Image.Image, plan: Plan, read: Reader, height: int, inside: Image.Image | None = None) -> list[tuple[str, float, bool]]:
    """The readings of a word's crop, each (text, confidence, whether constrained); ("", 0) where nothing was read.
    A ring label's are of `inside`, its ring found by its shape and whitened (`ring_inside_crop`): its digit read as a
    digit is; none where its ring was not found."""
    def one(image: Image.Image, whitelist: str | None, psm: int) -> tuple[str, float, bool]:
        words = read(image, whitelist, psm)
        if not words:
            return "", 0.0, whitelist is not None
        return "".join(text for text, _ in words), min(conf for _, conf in words), whitelist is not None

    psm = PSM
    if plan.ring_digit is not None:
        if inside is None:
            return []  # a ring label whose ring was not found by its shape: no evidence it is one
        doubled = _doubled(inside)
        return [one(inside, plan.whitelist, psm), one(doubled, plan.whitelist, psm), one(inside, None, psm), one(doubled, None, psm)]
    doubled = _doubled(crop)
    return [one(crop, plan.whitelist, psm), one(doubled, plan.whitelist, psm), one(crop, None, psm), one(doubled, None, psm)]


def lifts(plan: Plan, read: Sequence[tuple[str, float, bool]]) -> bool:
    """Whether the readings lift the word: `MIN_READINGS` of them or more read something, a constrained and a free one
    among them, and every one that read something read the word as it was read at `LIFT_FROM` or more (a reading that
    read nothing is no evidence either way: a whitelist may leave a clear glyph unread)."""
    some = [r for r in read if r[0]]
    return (len(some) >= MIN_READINGS
            and any(r[2] for r in some) and not all(r[2] for r in some)
            and all(text == plan.expected and conf >= LIFT_FROM for text, conf, _ in some))


def against(plan: Plan, read: Sequence[tuple[str, float, bool]]) -> str | None:
    """The text the readings agree on against the word as it was read: every one that read something (two or more, a
    constrained one among them) read it at `LIFT_FROM` or more; None otherwise."""
    some = [r for r in read if r[0]]
    texts = {text for text, _, _ in some}
    if len(some) < 2 or len(texts) != 1 or plan.expected in texts or not any(r[2] for r in some):
        return None
    return texts.pop() if all(conf >= LIFT_FROM for _, conf, _ in some) else None


def reread_short_words(words: list[Word], grey: Image.Image, labels: Sequence[str], unsure_below: float,
                       read: Reader, *, text_height: float = 0.0, ring_page: np.ndarray | None = None) -> tuple[list[Word], list[str]]:
    """`words` with each short word read unsure lifted where every reading of it agrees (module docstring); the notes.
    `text_height`: the page's (0: measured here); `ring_page`: the page rings are looked for on, in `grey`'s pixels (the
    prepared page before its light greys were whitened: a thin ring at 150 dpi is grey); None: `grey`."""
    chosen = [(i, w, plan) for i, w in enumerate(words)
              if 0 <= w.conf < unsure_below and w.inferred_from is None and not w.unsure_mark
              for plan in (plan_for(w.text, labels),) if plan is not None][:MAX_WORDS]
    if not chosen:
        return words, []
    out = list(words)
    lifted: list[str] = []
    notes: list[str] = []
    rings = ring_page if ring_page is not None and ring_page.shape == (grey.height, grey.width) else None
    # Rings are found by a level on white paper: grey paper is lifted to white first (`ringshapes.on_white`), once a page.
    ring_grey = on_white(np.asarray(grey) if rings is None else rings) if any(plan.ring_digit is not None for _, _, plan in chosen) else None
    height = text_height or _letters_height(words)
    for i, word, plan in chosen:
        crop = crop_of(grey, word, words)
        ring = ring_around(ring_grey, word, words, height) if plan.ring_digit is not None and ring_grey is not None else None
        inside = ring_inside_crop(grey, ring) if ring is not None else None
        every = readings(crop, plan, read, max(1, word.bottom - word.top), inside)
        if lifts(plan, every):
            out[i] = replace(word, conf=round(min(conf for text, conf, _ in every if text), 1))
            lifted.append(word.text)
            continue
        other = against(plan, every)
        if other is not None:
            shown = next((label for label in labels if ring_digit(label) == other), other) if plan.ring_digit is not None else other
            notes.append(f"lone rereads: {word.text!r} (confidence {word.conf:.0f}) read {shown!r} cut out at 1x and 2x; "
                         "kept as read, unsure")
    # A page's lone labels read unsure are judged together by parse (`parse.certainty.labels_vouch`: where more than a
    # quarter of a key's entries are unsure by their lone label, the recogniser's confidence says nothing on that key and
    # they are settled; where few are, those few stand out and stay unsure). Lifting some of them and not the others would
    # make the others stand out: label lifts stand only where every label read unsure on the page is lifted.
    label_words = [i for i, _, plan in chosen if not plan.expected.rstrip(CLOSING).isdigit() or plan.ring_digit is not None]
    if any(out[i] is words[i] for i in label_words):
        kept = [i for i in label_words if out[i] is not words[i]]
        for i in kept:
            out[i] = words[i]
            lifted.remove(words[i].text)
        if kept:
            notes.append(f"lone rereads: {len(kept)} labels read alike cut out not lifted: other labels of the page stay unsure")
    if lifted:
        notes.insert(0, f"lone rereads: {len(lifted)} short words read unsure read alike cut out, lifted "
                        f"({' '.join(lifted[:12])}{' …' if len(lifted) > 12 else ''})")
    return out, notes


def _letters_height(words: Sequence[Word]) -> float:
    """The page's text height where none was measured: the median height of its words holding a letter, or of all its
    words where none does (a key of numbers and rings); 0 for no words."""
    heights = sorted(w.bottom - w.top for w in words if any(ch.isalpha() for ch in w.text)) or sorted(w.bottom - w.top for w in words)
    return float(heights[len(heights) // 2]) if heights else 0.0


def tesseract_reader(languages: Sequence[str], dpi: int, omp_thread_limit: int | None, free: Sequence[str] | None = None) -> Reader:
    """A `Reader` by Tesseract (psm and whitelist per call): constrained on `languages`, free (no whitelist) on `free`
    (the page's own languages: a companion script would read a Greek `Β` as a Latin `B`); `free` None: `languages`."""
    from pipeline.extract.ocr.engine import parse_tsv, run_tesseract

    def read(image: Image.Image, whitelist: str | None, psm: int) -> list[tuple[str, float]]:
        models = languages if whitelist is not None or free is None else free
        found = parse_tsv(run_tesseract(image, models, dpi, omp_thread_limit=omp_thread_limit, psm=psm, whitelist=whitelist))
        return [(w.text, max(w.conf, 0.0)) for w in found if w.text.strip()]
    return read
