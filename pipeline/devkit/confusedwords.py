"""What the `confused-letters` pass would rewrite in text printed right: the words of the corpus's text layers.

    python -m pipeline.devkit.confusedwords [--corpus ../shared/corpus] [--show]

Every distinct word of letters of each booklet's text layer (what the publisher printed, no OCR) is put to the
pass's rule without its ink check (`confusions`: a word of `MIN_LETTERS` or more that neither the spelling
dictionaries nor Tesseract's word list know, with one confused letter group of its language put back at one place,
made into exactly one known word). Each word it would rewrite is a right word the pass would spoil wherever a scan
read it as printed; the ink check, which needs the scan, can only refuse more. Tuning sheets and checking sheets
are listed apart (`softscans.corpus_sheet`'s split is the issue's: the checking sheets were never tuned on).
"""
from __future__ import annotations

import argparse
import re
from pathlib import Path

import pypdfium2 as pdfium

from pipeline.extract.ocr.certainty import spelled_for
from pipeline.extract.ocr.confusions import MIN_LETTERS, group_candidates
from pipeline.extract.ocr.lexicon import load_lexicon

# (set, booklet under the corpus folder, Tesseract language)
BOOKLETS = [
    ("tuning", "es_inap_auxiliar_administrativo/2024/CuestionarioAUX-LMODELOAFINAL_TBKCWSFLJK_154AB89SD658.pdf", "spa"),
    ("tuning", "br_fgv_oab/2016-19/2016-19.pdf", "por"),
    ("tuning", "pe_conareme_residentado_medico/Year2018/PRUEBA A.pdf", "spa"),
    ("tuning", "sk_nucem_maturita_sjl/test_2023.pdf", "slk"),
    ("tuning", "pl_cke_matura_informatyka/2016-05_PP_F2007/Arkusz_cz1.pdf", "pol"),
    ("checking", "br_fgv_oab/2017-22/2017-22.pdf", "por"),
    ("checking", "br_inep_revalida/2023-1/revalida_2023_1_prova.pdf", "por"),
    ("checking", "pe_conareme_residentado_medico/Year2022/Especialidad Prueba A.pdf", "spa"),
    ("checking", "sk_nucem_maturita_sjl/test_2024.pdf", "slk"),
    ("checking", "cl_demre_paes/L-2023-1/L-2023-1.pdf", "spa"),
]
_WORD = re.compile(r"[^\W\d_]+")


def text_words(path: Path) -> set[str]:
    document = pdfium.PdfDocument(str(path))
    try:
        return {w for page in document for w in _WORD.findall(page.get_textpage().get_text_range())}
    finally:
        document.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=Path("../shared/corpus"))
    parser.add_argument("--show", action="store_true", help="print each word the rule would rewrite")
    args = parser.parse_args(argv)
    totals: dict[str, list[int]] = {}
    for split, name, language in BOOKLETS:
        path = args.corpus / name
        if not path.is_file():
            print(f"{split:9} {name}: not found")
            continue
        lexicon, spelled = load_lexicon([language]), spelled_for((language,))
        if lexicon is None or spelled is None:
            print(f"{split:9} {name}: no word list or dictionary for {language}")
            continue
        words = sorted(w for w in text_words(path) if len(w) >= MIN_LETTERS)
        unknown = [w for w in words if w not in lexicon and not spelled(w)]
        rewritten = []
        for word in unknown:
            known = {c.casefold(): c for c in group_candidates(word, lexicon.misread_letters) if spelled(c)}
            if len(known) == 1:
                rewritten.append((word, next(iter(known.values()))))
        print(f"{split:9} {name}: {len(words)} words of {MIN_LETTERS}+ letters, {len(unknown)} unknown, {len(rewritten)} would be rewritten")
        if args.show:
            for before, after in rewritten:
                print(f"    {before} -> {after}")
        total = totals.setdefault(split, [0, 0, 0])
        total[0] += len(words)
        total[1] += len(unknown)
        total[2] += len(rewritten)
    for split, (words_, unknown_, rewritten_) in totals.items():
        print(f"{split:9} all: {words_} words, {unknown_} unknown, {rewritten_} would be rewritten")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
