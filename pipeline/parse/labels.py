"""Option and question labels: look-alike letters across scripts, case folding, number keys."""
from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from functools import lru_cache

from pipeline.widths import WIDE_FORMS, either_width, fold_width, wide_form

# Letters that print identically in Latin, Greek and Cyrillic; a sheet may use any of them for a label.
_LOOKALIKE_GROUPS = (
    "AΑА", "BΒВ", "CСϹ", "EΕЕ", "HΗН", "IΙІ", "KΚК", "MΜМ", "NΝ", "OΟО", "PΡР", "TΤТ", "XΧХ", "YΥУ", "ZΖ",
    "aаα", "cсϲ", "eеε", "oоο", "pрρ", "xхχ", "yу",
)
_TO_LATIN: dict[str, str] = {}
for group in _LOOKALIKE_GROUPS:
    for ch in group[1:]:
        _TO_LATIN.setdefault(ch, group[0])


def _enclosed_table() -> dict[int, str]:
    """Enclosed letters and digits (Ⓐ, ⓑ, ①, ❶, 🅐, 🅰, ⒜, ⑴): labels printed in a circle, a square or
    brackets, as the plain label they enclose. Unicode decomposes some (NFKC: Ⓐ → A, ⑴ → (1)); the
    negative (white on black) and dingbat forms it leaves alone are numbered runs."""
    table = {}
    for code in range(0x2460, 0x2500):
        plain = unicodedata.normalize("NFKC", chr(code))
        if plain != chr(code):
            table[code] = plain
    runs = (
        (0x24EB, [str(n) for n in range(11, 21)]),  # ⓫–⓴
        (0x24F5, [str(n) for n in range(1, 11)]),  # ⓵–⓾
        (0x24FF, ["0"]),  # ⓿
        (0x2776, [str(n) for n in range(1, 11)]),  # ❶–❿
        (0x2780, [str(n) for n in range(1, 11)]),  # ➀–➉
        (0x278A, [str(n) for n in range(1, 11)]),  # ➊–➓
        (0x1F130, [chr(c) for c in range(65, 91)]),  # 🄰–🅉 squared
        (0x1F150, [chr(c) for c in range(65, 91)]),  # 🅐–🅩 negative circled
        (0x1F170, [chr(c) for c in range(65, 91)]),  # 🅰–🆉 negative squared
    )
    for start, plains in runs:
        table.update({start + i: plain for i, plain in enumerate(plains)})
    return table


_ENCLOSED = _enclosed_table()


def _as_ranges(codes: list[int]) -> str:
    """A regex character class's contents holding exactly `codes`, each run of consecutive ones as a range:
    `re` tests a class that reaches past U+FFFF member by member, so 268 characters cost 268 tests a position
    where their 5 runs cost 5."""
    runs: list[list[int]] = []
    for code in sorted(codes):
        if runs and code == runs[-1][1] + 1:
            runs[-1][1] = code
        else:
            runs.append([code, code])
    return "".join(re.escape(chr(a)) if a == b else f"{re.escape(chr(a))}-{re.escape(chr(b))}" for a, b in runs)


# The enclosed characters as a regex character class's contents.
ENCLOSED_CLASS = _as_ranges(list(_ENCLOSED))
# The span of code points from the first enclosed character to the last: a text with none in it has
# nothing to translate (one C scan; most lines hold no character past U+2460).
_ENCLOSED_SPAN = re.compile(f"[{re.escape(chr(min(_ENCLOSED)))}-{re.escape(chr(max(_ENCLOSED)))}]")


def plain_enclosed(text: str, keep: frozenset[str] = frozenset()) -> str:
    """`text` with each enclosed letter or digit as the plain one ("Ⓑ texto" → "B texto"), except the
    characters in `keep` (a spec's own enclosed labels, which stay as printed)."""
    if text.isascii() or _ENCLOSED_SPAN.search(text) is None:  # ASCII holds none of them (all past U+2460)
        return text
    return text.translate(_enclosed_table_without(keep) if keep else _ENCLOSED)


@lru_cache(maxsize=256)
def _enclosed_table_without(keep: frozenset[str]) -> dict[int, str]:
    """`_ENCLOSED` less the characters in `keep` (made once per spec's labels, not once per line)."""
    return {code: plain for code, plain in _ENCLOSED.items() if chr(code) not in keep}


def is_enclosed(label: str) -> bool:
    """`label` is an enclosed letter or digit (①, Ⓐ, ❶): printed in its circle or square, it needs no
    punctuation to stand apart from the text after it."""
    return len(label) == 1 and ord(label) in _ENCLOSED


def enclosed_labels(labels: list[str] | tuple[str, ...] | None) -> frozenset[str]:
    """The spec's labels that are enclosed characters: the line stream keeps them as printed."""
    return frozenset(label for label in labels or () if is_enclosed(label))


# Labels and numbers are few and asked for again and again (every option line against every label):
# `fold` and `number_key` are pure, so each answer is kept.
@lru_cache(maxsize=65536)
def fold(text: str) -> str:
    """A label or number in one comparable form: enclosed forms as the plain one they enclose (① and 1
    compare equal, so a key printing 3 or ③ answers a label ③), full-width forms as plain ones (`Ａ`, `１`:
    `pipeline.widths`), NFC, look-alikes to Latin, case-folded."""
    text = unicodedata.normalize("NFC", plain_enclosed(fold_width(text).strip()))
    return "".join(_TO_LATIN.get(ch, ch) for ch in text).casefold()


@lru_cache(maxsize=4096)
def label_variants(label: str) -> frozenset[str]:
    """Every way `label` may be printed: both cases and every look-alike of each (kept per label: option
    splitting asks it of the next label on every option line, and each answer walks every look-alike)."""
    variants = {label, label.upper(), label.lower()}
    target = fold(label)
    for group in _LOOKALIKE_GROUPS:
        for ch in group:
            if fold(ch) == target and len(label) == 1:
                variants.add(ch)
    variants |= {wide_form(v) for v in variants} | {fold_width(v) for v in variants}  # printed full-width (`Ａ`) or plain (`D` for a spec's `Ｄ`)
    return frozenset(v for v in variants if v)


def canonical_label(printed: str, labels: list[str] | tuple[str, ...]) -> str | None:
    folded = fold(printed)
    for label in labels:
        if fold(label) == folded:
            return label
    return None


def option_start_regex(labels: list[str], styles: list[str]) -> re.Pattern:
    """Matches a segment that opens with a printed option label; group `label`, then `text`."""
    letters = sorted({v for label in labels for v in label_variants(label)}, key=len, reverse=True)
    label_re: str | None = "(?P<label>" + "|".join(re.escape(v) for v in letters) + ")"
    alternatives = []
    enclosed = [v for v in letters if is_enclosed(v)]
    if enclosed:
        # An enclosed label (①, Ⓐ) is its own style: the circle sets it apart, whatever follows ("①1").
        alternatives.append("(?P<label>" + "|".join(re.escape(v) for v in enclosed) + ")")
        letters = [v for v in letters if not is_enclosed(v)]
        label_re = "(?P<label>" + "|".join(re.escape(v) for v in letters) + ")" if letters else None
    for style in styles if label_re is not None else ():
        before, after = style.split("A")
        if not before and not after:
            # A bare label ("A", a letter in a filled circle) is told apart from a word that starts
            # with it only by standing alone: its own segment, or a wide gap before the text.
            alternatives.append(label_re + r"(?=\s*$|\s{2,}|\t)")
            continue
        # Printed labels often carry stray spaces inside brackets: "( D )"; their marks plain or full-width ("Ａ．", "（A）").
        alternatives.append(r"\s*".join([either_width(before), label_re, either_width(after)]) if before else label_re + r"\s*" + either_width(after))
    pattern = "|".join(f"(?:{alt.replace('(?P<label>', f'(?P<label{i}>')})" for i, alt in enumerate(alternatives))
    # OCR drops the space after a label ("C.FTP"): a letter may follow directly, a digit or dot not ("1.5" is a
    # number), but after a closing bracket a digit may ("1)46", "(3)67": no number is written so).
    # An enclosed label may be followed by anything ("①1"), and so may a full-width mark, which holds its own space
    # ("A．8", "（2）{1}": CJK type sets no space after it).
    return re.compile(rf"^\s*(?:{pattern})(?:\s+|$|(?=[^\W\d_])|(?<=[)\]])(?=\d)|(?<=[{ENCLOSED_CLASS}{_WIDE_MARKS}]))(?P<text>.*)$",
                      re.DOTALL)


# The full-width forms of the marks a label style prints after its label (`．`, `）`, `：`, `，`, `、`-like).
_WIDE_MARKS = re.escape("".join(WIDE_FORMS[ch] for ch in ".):]," if ch in WIDE_FORMS))


OPENING_LABELS_KEPT = 16384  # `opening_label` answers kept for one labels and regex: a long sheet's lines, a few times over
LABEL_OPENERS_KEPT = 8  # labels and regexes whose answers are kept: a sheet's option styles, a few specs'


def opening_label(text: str, labels: list[str] | tuple[str, ...], option_re: re.Pattern) -> str | None:
    """The spec's label a line opens with (`option_re`), or None. Kept per text, labels and regex: option
    splitting asks it of each line of a block in every step (`find_options`), and the answer is pure. A loop
    over many lines takes `label_opener(labels, option_re)` once instead."""
    return _label_opener(tuple(labels), option_re)(text)


def label_opener(labels: list[str] | tuple[str, ...], option_re: re.Pattern) -> Callable[[str], str | None]:
    """`opening_label` with `labels` and `option_re` bound: a compiled pattern's hash reads its whole program
    each time it is asked, so a loop over a block's lines finds the kept answers once, not at every line."""
    return _label_opener(tuple(labels), option_re)


@lru_cache(maxsize=LABEL_OPENERS_KEPT)
def _label_opener(labels: tuple[str, ...], option_re: re.Pattern) -> Callable[[str], str | None]:
    """`opening_label` for one labels and regex, its answers kept per text alone."""

    @lru_cache(maxsize=OPENING_LABELS_KEPT)
    def opening(text: str) -> str | None:
        match = option_re.match(text)
        return canonical_label(matched_label(match), labels) if match else None

    return opening


def matched_label(match: re.Match) -> str:
    for name, value in match.groupdict().items():
        if name.startswith("label") and value is not None:
            return value
    raise ValueError("option regex matched without a label group")


@lru_cache(maxsize=65536)
def number_key(number: str) -> str:
    """Question numbers compared across sheet and key: 'Α1.' == 'A1', '03' == '3', 'Zadanie 3.1.' parts."""
    folded = fold(number).strip(" .")
    parts = re.split(r"[.\s]+", folded)
    return ".".join(p.lstrip("0") or "0" if p.isdigit() else p for p in parts if p)
