"""Words for generated sheets that measure the confusable-variant rule of the OCR uncertainty flag (issue 27, bar 2).

    python -m pipeline.devkit.ocrcertainty --out /tmp/certainty --set confusables [--off confusable,confusable-marks]

A `confusables` family of `ocrcertainty` prints words of its language (Tesseract's word list, kept where the spelling
dictionaries know them: `ocrcertainty.spelled_words`) that hold a run its script confuses (`pipeline/languages/scripts.yaml`:
`i`/`l`, `rn`/`m`, `e`/`c`, a diacritic), half of them words one swap of which is another known word (`calman`/`caiman`
for es_ES, `ból`/`bol`: a misread of them lands on a word, which no dictionary can see, and a right reading must not
be flagged), half words whose swaps are none (a misread lands on a non-word the rule should flag). Rasterised at the
issue's poor end, so that OCR misreads some. Nothing in it names a word: the words are drawn by the seed.
"""
from __future__ import annotations

import random

from pipeline.extract.ocr import SpellingUnavailable, load_lexicon, marked_variants, spelling_for, swapped_variants, word_list

BATCH = 2000  # words asked of the dictionaries at a time


def vocabulary(tesseract: str, rng: random.Random, count: int) -> list[str]:
    """`count` words of the language (see the module's doc): alternately one with a known confusable variant and one
    without, in a random order; fewer where the list holds fewer. A language with no dictionary or no data for its script
    gets none."""
    lexicon = load_lexicon((tesseract,))
    try:
        spelling = spelling_for((tesseract,))
    except SpellingUnavailable:
        return []
    if lexicon is None or not (lexicon.confusable or lexicon.confusable_marks):
        return []
    words = [w for w in word_list(tesseract) if w.isalpha() and 4 <= len(w) <= 12 and w == w.lower()]
    rng.shuffle(words)
    twins: list[str] = []  # a variant is a word too
    lone: list[str] = []  # no variant is a word
    for start in range(0, len(words), BATCH):
        batch = words[start:start + BATCH]
        known = [w for w, ok in zip(batch, spelling.knows(batch)) if ok]
        variants = {w: swapped_variants(w, lexicon.confusable) + (marked_variants(w, lexicon.marked_letters) if lexicon.confusable_marks else [])
                    for w in known}
        asked = sorted({v for vs in variants.values() for v in vs})
        answers = dict(zip(asked, spelling.knows(asked)))
        for w, vs in variants.items():
            if vs:
                (twins if any(answers[v] for v in vs) else lone).append(w)
        if len(twins) >= count // 2 and len(lone) >= count // 2:
            break
    half = count // 2
    chosen = [w for pair in zip(twins[:half], lone[:half]) for w in pair]
    rng.shuffle(chosen)
    return chosen
