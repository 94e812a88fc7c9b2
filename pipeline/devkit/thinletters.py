"""What the `second-letters` pass changes on generated low-resolution scans of specialist prose (issue 27).

    python -m pipeline.devkit.thinletters [--scans 150/1.0/70,150/0.7/80] [--languages spa,por,...] [--show]
    python -m pipeline.devkit.thinletters --cost /work/meas/SET-FOLDER [--languages spa,por]

A paragraph in each of seven Latin-script languages (Spanish, Portuguese, Polish, Czech, Slovak, Turkish,
Vietnamese), dense in the words the pass is for: drug, bacterium and syndrome names no spelling dictionary knows,
full of thin letters (`permetrina`, `ivermectina`, `Neisseria`, `trisomía`) and blur-joined groups (`rn`, `ri`, `cl`,
`li`), set at 9 pt in four Debian faces (Liberation Serif and Sans, DejaVu Serif, Liberation Sans Narrow), blurred,
saved as JPEG at the quality given and read with every page pass but `second-letters`; the pass's step is then applied
to that reading (`aftercache.with_second_letters`, what the pass does, the page's last). For each scan: the words read
otherwise than printed before and after, every word the pass changed, and whether the change made it the printed
word. The tuning material of the pass; the flag's sets (`ocrcertainty`) are its check.

`--cost DIR`: the pass's step timed instead (CPU seconds) on every page reading cached in a flag set's work folder, read
as pages of each language given.
"""
from __future__ import annotations

import argparse
import difflib
import io
import textwrap
import time
from dataclasses import replace
from pathlib import Path

from PIL import Image, ImageDraw, ImageFilter, ImageFont

FACES = ["liberation/LiberationSerif-Regular.ttf", "liberation/LiberationSans-Regular.ttf", "dejavu/DejaVuSerif.ttf",
         "liberation/LiberationSansNarrow-Regular.ttf"]
PROSE = {
    "spa": "La permetrina y la ivermectina tratan la escabiosis; la clindamicina, la rifampicina y la nitrofurantoína se "
           "indican en infecciones por Listeria, Clostridium difficile y Neisseria meningitidis. La trisomía del par "
           "veintiuno, la retracción supraesternal y la fibrilación auricular exigen un control clínico estricto del "
           "lactato sérico, la creatinina y la filtración glomerular en el servicio de medicina interna del hospital.",
    "por": "A limitação da permetrina e da ivermectina no tratamento da escabiose levou ao uso de trimetoprima, "
           "sulfametoxazol e clindamicina. A infecção por Treponema pallidum, Listeria monocytogenes e Neisseria "
           "gonorrhoeae exige a notificação compulsória; a trissomia do cromossomo vinte e um e a fibrilação atrial "
           "requerem o controle da creatinina sérica e da filtração glomerular no serviço de clínica médica.",
    "pol": "Permetryna i iwermektyna leczą świerzb, a klindamycyna, ryfampicyna i nitrofurantoina działają przeciw "
           "bakteriom Listeria, Clostridium i Neisseria. Trisomia chromosomu dwudziestego pierwszego, migotanie "
           "przedsionków i filtracja kłębuszkowa wymagają kontroli kreatyniny w surowicy oraz stałej opieki lekarza "
           "rodzinnego w przychodni i szpitalu powiatowym.",
    "ces": "Permethrin a ivermektin léčí svrab, klindamycin, rifampicin a nitrofurantoin působí proti bakteriím "
           "Listeria, Clostridium a Neisseria. Trizomie jednadvacátého chromozomu, fibrilace síní a glomerulární "
           "filtrace vyžadují kontrolu kreatininu v séru a pravidelné vyšetření u praktického lékaře v nemocnici "
           "i v ordinaci na venkově.",
    "slk": "Permetrín a ivermektín liečia svrab, klindamycín, rifampicín a nitrofurantoín pôsobia proti baktériám "
           "Listeria, Clostridium a Neisseria. Trizómia dvadsiateho prvého chromozómu, fibrilácia predsiení a "
           "glomerulárna filtrácia vyžadujú kontrolu kreatinínu v sére a pravidelné vyšetrenie u praktického lekára "
           "v nemocnici aj v ambulancii na vidieku.",
    "tur": "Permetrin ve ivermektin uyuzu tedavi eder; klindamisin, rifampisin ve nitrofurantoin Listeria, Clostridium "
           "ve Neisseria bakterilerine karşı etkilidir. Yirmi birinci kromozomun trizomisi, atriyal fibrilasyon ve "
           "glomerüler filtrasyon serum kreatininin izlenmesini ve iç hastalıkları kliniğinde düzenli bir muayeneyi "
           "gerektirir.",
    "vie": "Permethrin và ivermectin điều trị bệnh ghẻ; clindamycin, rifampicin và nitrofurantoin có tác dụng với vi "
           "khuẩn Listeria, Clostridium và Neisseria. Hội chứng trisomy nhiễm sắc thể hai mươi mốt, rung nhĩ và lọc "
           "cầu thận đòi hỏi theo dõi creatinin huyết thanh tại khoa nội của bệnh viện tỉnh.",
}
POINTS = 9
SIMILAR_FROM = 0.6  # a read word's likeness to a printed word of its stretch to stand for it


def scan(text: str, face: str, dpi: int, blur: float, quality: int) -> Image.Image:
    """`text` set in `face` on a page strip twice (two places, two samplings of the blur), blurred and JPEG-saved."""
    font = ImageFont.truetype(f"/usr/share/fonts/truetype/{face}", round(POINTS / 72 * dpi))
    lines = textwrap.wrap(text, 90) * 2
    image = Image.new("L", (int(8.27 * dpi), int((0.8 + 1.5 * POINTS / 72 * len(lines)) * dpi)), 255)
    draw = ImageDraw.Draw(image)
    for at, line in enumerate(lines):
        draw.text((int(0.8 * dpi), int(0.4 * dpi) + at * round(1.5 * font.size)), line, font=font, fill=0)
    image = image.filter(ImageFilter.GaussianBlur(blur))
    buffer = io.BytesIO()
    image.save(buffer, "JPEG", quality=quality)
    return Image.open(io.BytesIO(buffer.getvalue())).convert("L")


def printed_at(printed: list[str], read: list[str]) -> dict[int, str]:
    """The printed word each read word (by index) stands for: those aligned alike, those of a stretch read as as many
    words otherwise, and in a stretch read as more or fewer words the printed word of the stretch it spells most like
    (`SIMILAR_FROM`)."""
    aligned = difflib.SequenceMatcher(None, printed, read, autojunk=False)
    truth: dict[int, str] = {}
    for op, i1, i2, j1, j2 in aligned.get_opcodes():
        if op == "equal" or (op == "replace" and i2 - i1 == j2 - j1):
            truth.update({j: printed[i] for i, j in zip(range(i1, i2), range(j1, j2))})
        elif op == "replace":
            for j in range(j1, j2):
                ratio, word = max((difflib.SequenceMatcher(None, read[j], printed[i]).ratio(), printed[i]) for i in range(i1, i2))
                if ratio >= SIMILAR_FROM:
                    truth[j] = word
    return truth


def wrong_words(printed: list[str], read: list[str]) -> dict[int, str]:
    """The read words (by index) that align with a printed word they do not spell, with that printed word."""
    return {j: word for j, word in printed_at(printed, read).items() if read[j] != word}


def cost(folder: Path, languages: list[str]) -> None:
    """CPU of the pass's step on each page reading cached under `folder` (`--cost`)."""
    from pipeline.extract.ocr import LetterBox, PageReading, load_lexicon, spelled_for, take_second_letters

    pages = [PageReading.from_json(path.read_text(encoding="utf-8")) for path in sorted(folder.glob("cache/ocr/*/*.json"))]
    for language in languages:
        spelled, lexicon = spelled_for((language,)), load_lexicon((language,))
        if spelled is None or not pages:
            print(f"{language}: no spelling dictionary or no cached page")
            continue
        start, mended = time.process_time(), 0
        for page in pages:
            mended += len(take_second_letters([LetterBox(w.text, w.conf, w.right - w.left, w.size, w.second) for w in page.words],
                                              lexicon, spelled))
        seconds = time.process_time() - start
        print(f"{language}: {len(pages)} pages, {seconds:.2f} s CPU, {1000 * seconds / len(pages):.1f} ms a page, {mended} words mended")


def main(argv: list[str] | None = None) -> int:
    from pipeline.devkit.aftercache import with_second_letters
    from pipeline.extract.ocr import OcrSettings, read_page

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scans", default="150/1.0/70,150/0.7/80", help="dpi/blur/JPEG quality, comma-separated")
    parser.add_argument("--languages", default=",".join(PROSE))
    parser.add_argument("--show", action="store_true", help="print each word left wrong as well")
    parser.add_argument("--cost", type=Path, help="a flag set's work folder: time the pass's step on its cached readings")
    args = parser.parse_args(argv)
    if args.cost:
        cost(args.cost, args.languages.split(","))
        return 0
    totals = [0, 0, 0, 0]  # wrong before, wrong after, changed to the printed word, changed otherwise
    for setting in args.scans.split(","):
        dpi, blur, quality = setting.split("/")
        for language in args.languages.split(","):
            printed = PROSE[language].split() * 2
            for face in FACES:
                image = scan(PROSE[language], face, int(dpi), float(blur), int(quality))
                settings = OcrSettings(languages=(language,), dpi=int(dpi))
                without = read_page(image, replace(settings, disabled_passes=("second-letters",)), page_number=1)
                mended = with_second_letters(without, settings)
                before, after = [w.text for w in without.words], [w.text for w in mended.words]
                wrong_before, wrong_after = wrong_words(printed, before), wrong_words(printed, after)
                truth = printed_at(printed, before)  # the word a change is judged against: where it stood as read
                totals[0] += len(wrong_before)
                totals[1] += len(wrong_after)
                name = face.split("/")[-1].removesuffix(".ttf")
                for j, (a, b) in enumerate(zip(before, after)):
                    if a != b:
                        good = truth.get(j) == b
                        totals[2 if good else 3] += 1
                        print(f"{setting} {language} {name}: {a} -> {b} ({'printed' if good else 'printed ' + repr(truth.get(j))})")
                if args.show:
                    for j, word in sorted(wrong_after.items()):
                        print(f"    {setting} {language} {name}: left {after[j]!r} for {word!r} (second: {mended.words[j].second!r})")
    print(f"words read wrong: {totals[0]} before, {totals[1]} after; changes: {totals[2]} to the printed word, {totals[3]} otherwise")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
