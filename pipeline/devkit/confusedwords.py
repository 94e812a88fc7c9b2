"""What the `confused-letters` pass would rewrite in text printed right: the words of the corpus's text layers.

    python -m pipeline.devkit.confusedwords [--corpus ../shared/corpus] [--show]
    python -m pipeline.devkit.confusedwords --scans 150/1.0,150/1.4,200/1.4

`--scans`: instead, a paragraph of Spanish prose rich in the joined groups, set at 10 pt in four Debian faces
(Liberation Serif and Sans, DejaVu Serif, Liberation Sans Narrow), scanned at each dpi/blur and read with the pass and
without it: every word the pass changed, and whether the change made it the printed word.

Every distinct word of letters of each booklet's text layer (what the publisher printed, no OCR) is put to the
pass's rule without its ink check (`confusions`: a word of `MIN_LETTERS` or more that neither the spelling
dictionaries nor Tesseract's word list know, with one confused letter group of its language put back at one place,
made into exactly one known word). Each word it would rewrite is a right word the pass would spoil wherever a scan
read it as printed; the ink check, which needs the scan, can only refuse more. Tuning sheets and checking sheets
are listed apart (`softscans.corpus_sheet`'s split is the issue's: the checking sheets were never tuned on).
"""
from __future__ import annotations

import argparse
import difflib
import re
import textwrap
from pathlib import Path

import pypdfium2 as pdfium

from pipeline.extract.ocr import confused_letters_candidate, load_lexicon, spelled_for

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
FACES = ["liberation/LiberationSerif-Regular.ttf", "liberation/LiberationSans-Regular.ttf", "dejavu/DejaVuSerif.ttf",
         "liberation/LiberationSansNarrow-Regular.ttf"]
PROSE = ("El gobierno aprobó el régimen interno de la materia para el cliente con claridad y criterio moderno. "
         "La empresa externa presentó un informe superior sobre el turno de noche, la cláusula del contrato, "
         "el proceso clínico, la eficiencia del sistema eléctrico y la historia del barrio. "
         "Los periodos anteriores fueron comprobados por el ministerio y el auditor externo; "
         "el alumno eligió la carrera de ingeniería en un instituto moderno, con horario nocturno.")
_WORD = re.compile(r"[^\W\d_]+")
MIN_LETTERS = 5  # the words counted (`confusions.MIN_LETTERS`: the pass judges none shorter)


def text_words(path: Path) -> set[str]:
    document = pdfium.PdfDocument(str(path))
    try:
        return {w for page in document for w in _WORD.findall(page.get_textpage().get_text_range())}
    finally:
        document.close()


def scan_sweep(scans: list[tuple[int, float]]) -> None:
    """The prose scanned at each (dpi, blur) in each face, read with and without the pass (the module's doc)."""
    from dataclasses import replace

    from PIL import Image, ImageDraw, ImageFilter, ImageFont

    from pipeline.extract.ocr import OcrSettings, read_page

    printed = PROSE.split()
    right = wrong = 0
    for dpi, blur in scans:
        for face in FACES:
            font = ImageFont.truetype(f"/usr/share/fonts/truetype/{face}", round(10 / 72 * dpi))
            image = Image.new("L", (int(8.27 * dpi), 3 * dpi), 255)
            draw = ImageDraw.Draw(image)
            for at, line in enumerate(textwrap.wrap(PROSE, 85)):
                draw.text((int(0.8 * dpi), int(0.5 * dpi) + at * round(1.5 * font.size)), line, font=font, fill=0)
            image = image.filter(ImageFilter.GaussianBlur(blur))
            settings = OcrSettings(languages=("spa",), dpi=dpi)
            without = [w.text for w in read_page(image, replace(settings, disabled_passes=("confused-letters",)), page_number=1).words]
            mended = [w.text for w in read_page(image, settings, page_number=1).words]
            aligned = difflib.SequenceMatcher(None, printed, without, autojunk=False)
            truth = {j: printed[i] for block in aligned.get_matching_blocks() for i, j in zip(range(block.a, block.a + block.size), range(block.b, block.b + block.size))}
            for op, i1, i2, j1, j2 in aligned.get_opcodes():
                if op == "replace" and i2 - i1 == j2 - j1:
                    truth.update({j: printed[i] for i, j in zip(range(i1, i2), range(j1, j2))})
            changes = [(j, a, b) for j, (a, b) in enumerate(zip(without, mended)) if a != b] if len(without) == len(mended) else []
            for j, before, after in changes:
                good = truth.get(j) == after
                right, wrong = right + good, wrong + (not good)
                print(f"{dpi}/{blur} {face.split('/')[-1]}: {before} -> {after} ({'printed' if good else 'printed ' + repr(truth.get(j))})")
    print(f"changes {right + wrong}: {right} to the printed word, {wrong} otherwise")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=Path("../shared/corpus"))
    parser.add_argument("--show", action="store_true", help="print each word the rule would rewrite")
    parser.add_argument("--scans", help="dpi/blur,...: read the generated prose scans instead (the module's doc)")
    args = parser.parse_args(argv)
    if args.scans:
        scan_sweep([(int(dpi), float(blur)) for dpi, blur in (scan.split("/") for scan in args.scans.split(","))])
        return 0
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
        rewritten = [(word, chosen) for word in unknown if (chosen := confused_letters_candidate(word, lexicon, spelled))]
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
