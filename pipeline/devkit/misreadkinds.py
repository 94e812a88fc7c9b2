"""What kind of difference lies between a question as printed and as OCR read it (`ocrcertainty --kinds`).

The uncertainty flag's bar counts a question as misread when its text differs at all from the printed
sheet's. Which differences those are decides what a flag could catch, and whether a difference is the
comparison's own (both texts say the same to a reader). Each differing word run (`difflib` over the
whitespace-split words of one part, the stem or an option) is given the first kind that explains it:

- `whitespace`: the same characters, spaced otherwise within the run (`el7 de` / `el 7 de` is not this:
  a letter or digit differs there too);
- `glued/split`: the same characters once spaces are left out (`Alos` for `A los`, `ob jeto`);
- `hyphenation`: the same once a hyphen at a line's end is joined (`adminis- tración`);
- `normalisation`: the same after NFKC and one class per quotation mark and per dash (`ﬁ`, `–` / `-`);
- `case`: the same ignoring case (`Órgãos` / `órgãos`);
- `accent`: the same once diacritics are left out (`Sindrome` / `Síndrome`);
- `punctuation`: the same once punctuation is left out (`Dos.` / `Dos,`, `(STF)` / `(STF),`);
- `digit`: a digit differs (`19787` / `1978`, `15.90%`);
- `letter`: anything else, a letter misread, lost or added (`supenores`, `contínua` / `continua` is `accent`).

A part whose option count differs is `option boundary`; an answer that differs, `answer`. A question's
kinds are the set of its runs' kinds.

`as_read` is the measure's own notion of the same text (decided before its effect on the bar was measured,
the same for every language and script): what a reader of the page could not tell apart is not a misreading.
"""
from __future__ import annotations

import difflib
import re
import unicodedata

WHITESPACE, GLUED, HYPHENATION, NORMALISATION = "whitespace", "glued/split", "hyphenation", "normalisation"
CASE, ACCENT, PUNCTUATION, DIGIT, LETTER = "case", "accent", "punctuation", "digit", "letter"
OPTION_BOUNDARY, ANSWER = "option boundary", "answer"
KINDS = (WHITESPACE, GLUED, HYPHENATION, NORMALISATION, CASE, ACCENT, PUNCTUATION, DIGIT, LETTER, OPTION_BOUNDARY, ANSWER)

_QUOTE_CLASS = str.maketrans({c: '"' for c in "“”„‟«»″'‘’‚‛′´`"})
_DASH_CLASS = str.maketrans({c: "-" for c in "‐‑‒–—―−﹘﹣－\u00ad"})
_LINE_END_HYPHEN = re.compile(r"(?<=[^\W\d_])- (?=[^\W\d_])")


_SPACE_BESIDE_MARK = re.compile(r"(?<=[^\w\s]) | (?=[^\w\s])")


def as_read(text: str) -> str:
    """`text` as the flag's measure compares it: bold marks (`**`) out (how a word is printed, not what it reads);
    NFKC (a ligature `ﬁ`, a full-width or compatibility form is its plain letter); a soft hyphen out; every quotation
    mark, apostrophe and prime one `"` (with the spacing accents `´` and `` ` `` typed for them), every dash, hyphen and
    minus one `-`; whitespace collapsed, and a space beside a punctuation mark or symbol left out (`12,50 %` /
    `12,50%`, `6 - 8` / `6-8`, `(RDC) .`): only a space between two letters or digits parts words, and one lost or
    added there (`A los` / `Alos`) still differs."""
    text = text.replace("**", "").replace("\u00ad", "").translate(_QUOTE_CLASS)  # before NFKC, which spaces `´` out
    text = " ".join(unicodedata.normalize("NFKC", text).translate(_QUOTE_CLASS).translate(_DASH_CLASS).split())
    return _SPACE_BESIDE_MARK.sub("", text)


def _nfkc(text: str) -> str:
    return unicodedata.normalize("NFKC", text).translate(_QUOTE_CLASS).translate(_DASH_CLASS)


def _bare(text: str) -> str:
    return "".join(ch for ch in unicodedata.normalize("NFD", text) if not unicodedata.combining(ch))


def _unpunctuated(text: str) -> str:
    """Punctuation as a space (`as_read` leaves out the space beside a mark: `Civil,tendo` is `Civil tendo`)."""
    return "".join(ch if ch.isalnum() or ch.isspace() else " " for ch in text)


def run_kind(printed: str, read: str) -> str:
    """The kind (`KINDS`) of one differing run of words: `printed` as the sheet has it, `read` as OCR did."""
    if printed.split() == read.split():
        return WHITESPACE
    if printed.replace(" ", "") == read.replace(" ", ""):
        return GLUED
    if _LINE_END_HYPHEN.sub("", printed) == _LINE_END_HYPHEN.sub("", read):
        return HYPHENATION
    a, b = _nfkc(printed), _nfkc(read)
    if a == b or a.replace(" ", "") == b.replace(" ", ""):
        return NORMALISATION
    if a.casefold() == b.casefold():
        return CASE
    if _bare(a).casefold() == _bare(b).casefold():
        return ACCENT
    if _unpunctuated(_bare(a)).casefold().split() == _unpunctuated(_bare(b)).casefold().split():
        return PUNCTUATION
    digits_a, digits_b = [ch for ch in a if ch.isdigit()], [ch for ch in b if ch.isdigit()]
    if digits_a != digits_b:
        return DIGIT
    return LETTER


def text_kinds(printed: str, read: str) -> list[tuple[str, str, str]]:
    """(kind, printed run, read run) for each run of words where `read` differs from `printed`."""
    a, b = printed.split(), read.split()
    found = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag != "equal":
            # A run's neighbours in, so a space lost or added at its edge shows as glued, not as a letter.
            lo, hi = max(0, i1 - 1), min(len(a), i2 + 1)
            lo_b, hi_b = max(0, j1 - 1), min(len(b), j2 + 1)
            p, r = " ".join(a[lo:hi]), " ".join(b[lo_b:hi_b])
            found.append((run_kind(p, r), " ".join(a[i1:i2]), " ".join(b[j1:j2])))
    return found


def question_kinds(printed: tuple[str, tuple[str, ...], str | None], read: tuple[str, tuple[str, ...], str | None],
                   same) -> list[tuple[str, str, str]]:
    """The differing runs of a question, (stem, options, answer) as printed and as read; `same(a, b)`: whether two
    texts count as one in the measure (its normalisation), so what it already forgives is no run here."""
    found: list[tuple[str, str, str]] = []
    if not same(printed[0], read[0]):
        found += text_kinds(printed[0], read[0])
    if len(printed[1]) != len(read[1]):
        found.append((OPTION_BOUNDARY, f"{len(printed[1])} options", f"{len(read[1])} options"))
    else:
        for a, b in zip(printed[1], read[1]):
            if not same(a, b):
                found += text_kinds(a, b)
    if printed[2] != read[2]:
        found.append((ANSWER, str(printed[2]), str(read[2])))
    return found
