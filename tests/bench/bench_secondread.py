"""The second recogniser (`pipeline.extract.ocr.secondread`): word errors and CPU per scanned page with
and without it, on the same pages in one run (the pass disabled, then enabled, page by page).

Pages: generated sheets in several languages (`--generated`, the default), each rasterised at
150/200/300 dpi, blur 0.8/0.6/0.4, JPEG 70/80/90; with ../shared/corpus present, `--corpus` also
takes the first pages of each family's first sheet, rasterised at 200 dpi, and scores them against the
same page's text layer. Languages tuned on: es, pl; the others are checking sheets. Word errors: words
of the truth not matched in order (difflib over the word sequences), over the truth's words. CPU: the
process's CPU time for `read_page`, after one warm-up page (models and dictionaries loaded once per
process; the warm-up's cost is printed apart).

    python -m tests.bench secondread [--corpus] [--pages N] [--full]   # --full: 9 and 11 pt sheets (else 10 pt)
    python -m tests.bench secondread --pass sharpen                    # another pass measured the same way
"""
from __future__ import annotations

import difflib
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import pypdfium2 as pdfium

from pipeline.devkit.sample.pdfgen import PageSpec, TextBox, build_pdf, rasterize_pdf
from pipeline.extract.ocr import OcrSettings, installed_languages, read_page
from pipeline.extract.ocr.engine import render_page

CORPUS = Path(__file__).resolve().parents[3] / "shared" / "corpus"
DPI = 300
TUNED = {"spa", "pol"}
DEGRADATIONS = ((150, 0.8, 70), (200, 0.6, 80), (300, 0.4, 90))
TEXTS = {
    "spa": ("El 7 de marzo la Administración General del Estado publicó la convocatoria. Según el artículo 14 de la "
            "Constitución, los españoles son iguales ante la ley, sin que pueda prevalecer discriminación alguna por "
            "razón de nacimiento, raza, sexo, religión u opinión. a) El Gobierno dirige la política interior y exterior. "
            "b) Las Cortes Generales ejercen la potestad legislativa. c) No tenga en cuenta la respuesta anterior."),
    "pol": ("Zadanie 7. W tekście opisano, w jaki sposób autor odnosi się do eufemizmów i z jakim skutkiem używa ich "
            "w rozmowie. Który z wymienionych protokołów służy do przesyłania poczty elektronicznej między serwerami? "
            "Źródłem danych jest plik tekstowy, w którym każdy wiersz zawiera nazwę miejscowości oraz liczbę ludności. "
            "A. Należy wyznaczyć największą gęstość zaludnienia. B. Porównaj ją z wynikiem z roku 2019."),
    "por": ("Questão 12. A respeito da ação de despejo, assinale a opção correta. O locador poderá retomar o imóvel "
            "quando houver infração contratual, e o juiz decidirá em audiência. A) A petição inicial deve ser instruída "
            "com a prova da propriedade. B) É vedada a cumulação do pedido com a cobrança de aluguéis e acessórios."),
    "slk": ("Úloha 5. V ktorej z nasledujúcich viet je chyba v písaní veľkých písmen? Autor sa k tomu vyjadril "
            "v úvode a s ľútosťou konštatoval, že ťažkosti pretrvávajú. A) Ľudia sa zišli na námestí. B) Deti išli "
            "k starej mame a o tri dni sa vrátili domov. C) Kniha leží na stole v izbe."),
    "ces": ("Úloha 3. Který z následujících výroků je pravdivý? Autor se k věci vyjádřil v úvodu a s lítostí "
            "konstatoval, že potíže přetrvávají. A) Lidé se sešli na náměstí u radnice. B) Děti šly k babičce a za tři "
            "dny se vrátily domů. C) Kniha leží na stole v pokoji."),
    "tur": ("Soru 4. Aşağıdaki cümlelerin hangisinde yazım yanlışı vardır? Öğrenciler sınavdan önce kütüphanede "
            "çalıştılar ve öğretmenlerine teşekkür ettiler. A) Güneş doğudan doğar. B) İstanbul Boğazı iki kıtayı "
            "birbirinden ayırır. C) Çocuklar bahçede oynuyor."),
    "vie": ("Câu 6. Trong các câu sau đây, câu nào đúng về ngữ pháp? Học sinh đã chuẩn bị bài rất kỹ trước khi đến "
            "lớp và cảm ơn thầy giáo. A) Mặt trời mọc ở phía đông. B) Hà Nội là thủ đô của Việt Nam. C) Trẻ em chơi "
            "trong vườn."),
    "ell": ("Θέμα Α1. Να γράψετε στο τετράδιό σας τον αριθμό της πρότασης και δίπλα το γράμμα που αντιστοιχεί στη "
            "σωστή απάντηση. Η ταχύτητα ενός σώματος που εκτελεί ομαλή κυκλική κίνηση έχει σταθερό μέτρο. α. μηδέν "
            "β. σταθερή γ. αυξανόμενη δ. μειούμενη"),
}


@dataclass
class Tally:
    truth_words: int = 0
    errors_without: int = 0
    errors_with: int = 0
    cpu_without: float = 0.0
    cpu_with: float = 0.0
    pages: int = 0
    notes: str = ""

    def add(self, truth: str, without: str, with_: str, cpu: tuple[float, float], note: str | None) -> None:
        words = truth.split()
        self.truth_words += len(words)
        self.errors_without += word_errors(words, without.split())
        self.errors_with += word_errors(words, with_.split())
        self.cpu_without += cpu[0]
        self.cpu_with += cpu[1]
        self.pages += 1
        self.notes = note or ""


def word_errors(truth: list[str], read: list[str]) -> int:
    """Words of `truth` not matched in order in `read`, plus words read that match nothing (insertions)."""
    matcher = difflib.SequenceMatcher(None, truth, read, autojunk=False)
    matched = sum(block.size for block in matcher.get_matching_blocks())
    return max(len(truth), len(read)) - matched


def _read_text(image, language: str, disabled: tuple[str, ...]) -> tuple[str, float, str | None]:
    settings = OcrSettings(languages=(language,), dpi=DPI, disabled_passes=disabled)
    started = time.process_time()
    reading = read_page(image, settings, page_number=1)
    cpu = time.process_time() - started
    return " ".join(w.text for w in reading.words), cpu, reading.second_reading


MEASURED = ["second-reader"]  # the pass left out for the baseline (`--pass`)


def _measure(image, truth: str, language: str, tally: Tally) -> None:
    without, cpu_without, _ = _read_text(image, language, (MEASURED[0],))
    with_, cpu_with, note = _read_text(image, language, ())
    tally.add(truth, without, with_, (cpu_without, cpu_with), note)


def _generated(folder: Path, tallies: dict[str, Tally], full: bool) -> None:
    for language, text in TEXTS.items():
        if language not in installed_languages():
            print(f"{language}: no Tesseract data, skipped")
            continue
        for size in (9, 11) if full else (10,):
            pdf = build_pdf(folder / f"{language}-{size}.pdf", [PageSpec([TextBox(text, 20, 30, 170, size=size)])])
            for dpi, blur, quality in DEGRADATIONS:
                scan = rasterize_pdf(pdf, folder / f"{language}-{size}-{dpi}.pdf", dpi=dpi, blur=blur, noise=0.02,
                                     jpeg_quality=quality, seed=dpi + size)
                with pdfium.PdfDocument(str(scan)) as document:
                    image = render_page(document, 0, DPI)[0]
                _measure(image, text, language, tallies.setdefault(language, Tally()))


def _corpus(folder: Path, tallies: dict[str, Tally], pages: int) -> None:
    from pipeline.specs import available_specs, load_spec  # the family's OCR language comes from its spec

    # Corpus folders and shipped specs both start with the country's code: es_inap…, pl_cke…, br_fgv…
    languages = {load_spec(name).name.split("_")[0]: load_spec(name).ocr.languages[0] for name in available_specs()}
    for family in sorted(p for p in CORPUS.iterdir() if p.is_dir()):
        language = languages.get(family.name.split("_")[0])
        sheets = sorted(family.rglob("*.pdf"))
        if language is None or not sheets or language not in installed_languages():
            continue
        sheet = sheets[0]
        scan = rasterize_pdf(sheet, folder / f"{family.name}.pdf", dpi=200, blur=0.6, noise=0.02, jpeg_quality=80, seed=1)
        with pdfium.PdfDocument(str(sheet)) as original, pdfium.PdfDocument(str(scan)) as scanned:
            for index in range(min(pages, len(original))):
                page = original[index]
                truth = page.get_textpage().get_text_range()
                page.close()
                if len(truth.split()) < 30:
                    continue
                image = render_page(scanned, index, DPI)[0]
                _measure(image, truth, language, tallies.setdefault(f"{family.name} ({language})", Tally()))


def main(options: list[str] | None = None) -> None:
    options = options or []
    pages = int(options[options.index("--pages") + 1]) if "--pages" in options else 2
    if "--pass" in options:
        MEASURED[0] = options[options.index("--pass") + 1]
    with tempfile.TemporaryDirectory(prefix="bench-secondread-") as tmp:
        folder = Path(tmp)
        warm = build_pdf(folder / "warm.pdf", [PageSpec([TextBox(TEXTS["spa"], 20, 30, 170, size=11)])])
        with pdfium.PdfDocument(str(rasterize_pdf(warm, folder / "warm-scan.pdf", dpi=200, blur=0.6, seed=1))) as document:
            image = render_page(document, 0, DPI)[0]
        started = time.process_time()
        _read_text(image, "spa", ())
        print(f"warm-up (RapidOCR session, dictionaries, Tesseract data): {time.process_time() - started:.2f} s CPU")
        tallies: dict[str, Tally] = {}
        if "--corpus" not in options or "--generated" in options:
            _generated(folder, tallies, "--full" in options)
        if "--corpus" in options and CORPUS.is_dir():
            _corpus(folder, tallies, pages)
    print(f"{'sheets':44s} {'pages':>5s} {'words':>6s} {'WER without':>11s} {'WER with':>9s} {'CPU/page':>14s} {'ratio':>6s}  second reader")
    print(f"(without: the `{MEASURED[0]}` pass left out; with: every pass)")
    total_without = total_with = 0.0
    for name, t in tallies.items():
        role = "tuned" if name in TUNED else "checking"
        ratio = t.cpu_with / t.cpu_without if t.cpu_without else 0.0
        total_without += t.cpu_without
        total_with += t.cpu_with
        print(f"{name + ' (' + role + ')':44s} {t.pages:5d} {t.truth_words:6d} {100 * t.errors_without / t.truth_words:10.2f}% "
              f"{100 * t.errors_with / t.truth_words:8.2f}% {t.cpu_without / t.pages:6.2f}→{t.cpu_with / t.pages:5.2f} s {ratio:5.2f}x  "
              f"{t.notes[:70]}")
    if total_without:
        print(f"CPU per scanned page, all pages: {total_with / total_without:.2f}x without `{MEASURED[0]}` (bar: at most 1.5x)")


if __name__ == "__main__":
    main()
