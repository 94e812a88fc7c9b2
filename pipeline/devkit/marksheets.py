"""Words for generated sheets that measure the `mark-checks` pass of the OCR uncertainty flag (issue 27, bar 2).

    python -m pipeline.devkit.ocrcertainty --out /tmp/certainty --set marks

A `marks` family of `ocrcertainty` prints words of its language (Tesseract's word list, kept where the spelling
dictionaries know them) of three kinds, a third each: words with a letter its print may write bare, or bare where it
may carry the mark, whose other spelling is a word too (language data `text_quality.optional_marks`: Russian `всё` and
`все`, `весёлые` and `веселые`: a misread of one reads as the other, and a right reading must not be flagged); words
with a marked letter (a tonos, a dialytika, a caron); words with a doubled letter (`γράμμα`, `ссылка`). A language with
no optional marks takes marked words for that third. Rasterised at the issue's range, so that OCR misreads some.
Nothing in it names a word: the words are drawn by the seed.
"""
from __future__ import annotations

import random
import unicodedata

from pipeline.devkit.sample.scansetting import ScanSetting
from pipeline.extract.ocr import SpellingUnavailable, mark_facts, optional_twins, spelling_for, word_list

BATCH = 2000  # words asked of the dictionaries at a time
# The `marks` set's families (`ocrcertainty.Family`'s fields, in order): tuning, Russian and Greek at 150-300 dpi, and
# Polish, whose doubled and marked letters the letter-twice rule must not flag where read right.
FAMILIES = (
    ("ru-marks-150", "ru", "rus", ("А", "Б", "В", "Г"), "pairs", "DejaVuSerif", ScanSetting(150, 0.8, 70, noise=0.0), 71),
    ("ru-marks-column", "ru", "rus", ("А", "Б", "В", "Г"), "column", "DejaVuSans", ScanSetting(200, 0.6, 80, noise=0.02), 72),
    ("ru-marks-300", "ru", "rus", ("А", "Б", "В", "Г"), "row", "DejaVuSerif", ScanSetting(300, 0.5, 85, noise=0.0), 73),
    ("el-marks-150", "el", "ell", ("α", "β", "γ", "δ"), "column", "DejaVuSerif", ScanSetting(150, 0.7, 75, noise=0.0), 74),
    ("el-marks-pairs", "el", "ell", ("Α", "Β", "Γ", "Δ"), "pairs", "DejaVuSans", ScanSetting(200, 0.8, 70, noise=0.02), 75),
    ("pl-marks-150", "pl", "pol", ("A", "B", "C", "D"), "pairs", "DejaVuSans", ScanSetting(150, 0.7, 75, noise=0.0), 76),
)


def _marked(word: str) -> bool:
    return any(unicodedata.combining(part) for part in unicodedata.normalize("NFD", word))


def _doubled(word: str) -> bool:
    return any(a == b for a, b in zip(word, word[1:]))


def vocabulary(tesseract: str, rng: random.Random, count: int) -> list[str]:
    """`count` words of the language (see the module's doc), the three kinds interleaved in a random order; fewer where
    the list holds fewer. A language with no dictionary gets none."""
    try:
        spelling = spelling_for((tesseract,))
    except SpellingUnavailable:
        return []
    facts = mark_facts((tesseract,))
    words = [w for w in word_list(tesseract) if w.isalpha() and 3 <= len(w) <= 12 and w == w.lower()]
    rng.shuffle(words)
    third = count // 3
    kinds: dict[str, list[str]] = {"twins": [], "marked": [], "doubled": []}
    for start in range(0, len(words), BATCH):
        batch = words[start:start + BATCH]
        known = [w for w, ok in zip(batch, spelling.knows(batch)) if ok]
        twins = {w: [t for _, t in optional_twins(w, facts)] for w in known} if facts.optional else {}
        asked = sorted({t for ts in twins.values() for t in ts})
        answers = dict(zip(asked, spelling.knows(asked)))
        for w in known:
            if any(answers.get(t) for t in twins.get(w, ())):
                kinds["twins"].append(w)
            elif _doubled(w):
                kinds["doubled"].append(w)
            elif _marked(w):
                kinds["marked"].append(w)
        if all(len(found) >= third for found in kinds.values()):
            break
    marked_share = third if kinds["twins"] else 2 * third
    chosen = kinds["twins"][:third] + kinds["marked"][:marked_share] + kinds["doubled"][:third]
    rng.shuffle(chosen)
    return chosen
