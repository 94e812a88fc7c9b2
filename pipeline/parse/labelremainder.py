"""What is left of an option's label inside its text: a closing bracket or a full stop standing alone
between the option's words (`③ 밭은 ) 없어지면`, `④ 87 ) 피겨`, `⑤ 신이나 . 지대지`).

OCR reads a label's ring or bracket as a look-alike (`(3)`, `4)`, `9.`), and when the label is then
read again by shape, what of the look-alike lies past the label's ink is kept as text and put in by
where its box stands: after the option's first word. No script prints a closing bracket with a space
on both sides and no opening bracket before it, nor a full stop between two words as a word of its
own, so such a token in an OCR'd option is no printed text: it is taken out, and the option is
flagged (`parse.label_remainder`, an unsure reading the audit queue opens with). A bracket that closes
an opening one, a mark at the option's end, a dot in a run of dots (an ellipsis) and a text-layer
option are left as they are.
"""
from __future__ import annotations

from dataclasses import replace

from pipeline.diagnostics import Code, diagnose
from pipeline.parse.options import Option

CLOSING = ")]}"  # a closing bracket with nothing it closes
STOPS = "."  # a full stop between two words


def _stray(tokens: list[str], at: int) -> bool:
    token = tokens[at]
    if len(token) != 1 or at == len(tokens) - 1:  # a mark ending the option may be the printed one, spaced by OCR
        return False
    if token in CLOSING:
        opening = "([{"[CLOSING.index(token)]
        return not any(opening in t for t in tokens[:at])
    if token in STOPS:
        dots = [t for t in tokens[max(0, at - 1):at + 2] if t == token]
        return at > 0 and len(dots) == 1
    return False


def drop_label_remainders(options: list[Option]) -> tuple[list[Option], list[str]]:
    """`options` with each OCR'd option's first part rid of the stray marks a label left in it, and a
    flag line per option mended."""
    mended: list[Option] = []
    flags: list[str] = []
    for option in options:
        if not option.first.ocr or not option.parts:
            mended.append(option)
            continue
        tokens = option.parts[0].split()
        stray = [at for at in range(len(tokens)) if _stray(tokens, at)]
        if not stray:
            mended.append(option)
            continue
        kept = " ".join(t for at, t in enumerate(tokens) if at not in stray)
        mended.append(replace(option, parts=[kept, *option.parts[1:]]))
        flags.append(diagnose(Code.LABEL_REMAINDER, label=option.label, marks=" ".join(tokens[at] for at in stray),
                              read=option.parts[0][:60]))
    return mended, flags
