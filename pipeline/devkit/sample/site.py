"""The embedded sample source: a small exam archive (index.html + PDFs) generated into a folder.

`build_sample_site(dest)` writes the archive that `make extract` runs on when no source is given (a local
HTTP server serves the folder). It also writes `truth.json` (not linked from the index): the questions
the pipeline should curate from every sheet, with their answers. Generation is deterministic: a second
call writes byte-identical files.

    python -m pipeline.devkit.sample.site DEST
"""
from __future__ import annotations

import argparse
import hashlib
import html
import json
import sys
import tempfile
from dataclasses import asdict, dataclass, field
from pathlib import Path

from pipeline.infra import write_bytes_atomic
from pipeline.devkit.sample.booklets import render
from pipeline.devkit.sample.content import SAMPLE_SHEETS, SampleSheet
from pipeline.devkit.sample.pdfgen import (
    PageSpec,
    TextBox,
    build_pdf,
    item_bottom,
    pdf_bytes,
    rasterized_pdf_bytes,
)

TRUTH_FILE = "truth.json"
INDEX_FILE = "index.html"
SCAN_SETTINGS = {"dpi": 200, "noise": 0.02, "blur": 0.0, "rotate_deg": 0.25, "jpeg_quality": 75}


@dataclass(frozen=True)
class TruthQuestion:
    number: str  # as printed: "3", "Α1", "Α5.β"
    type: str  # a pipeline.records.QuestionType value
    question: str
    choices: list[str]
    choice_labels: list[str]
    answer: str | None
    answer_index: int | None
    context: str | None
    page: int  # 1-based page of the sheet where the question starts
    has_figure: bool
    points: int | None


@dataclass(frozen=True)
class SheetTruth:
    spec: str
    sheet: str  # path relative to the site root (and the href in index.html)
    key: str
    language: str
    year: int
    session: str | None
    sheet_code: str
    scanned: bool
    page_count: int
    questions: list[TruthQuestion]

    @property
    def closed_questions(self) -> list[TruthQuestion]:
        return [q for q in self.questions if q.type in ("single_choice", "true_false", "matching")]


@dataclass(frozen=True)
class SampleSite:
    dest: Path
    index: Path
    truth: dict[str, SheetTruth]  # by sheet path
    unrelated: list[str]  # hrefs on the index page that no spec may pick
    files: dict[str, str] = field(default_factory=dict)  # every written file (relative path) -> SHA-256

    def sheets_for(self, spec: str) -> list[SheetTruth]:
        return [t for t in self.truth.values() if t.spec == spec]


@dataclass(frozen=True)
class _Link:
    href: str
    text: str


@dataclass(frozen=True)
class _Section:
    title: str
    lang: str
    links: list[_Link]


# Pages linked from the index that are not exam sheets or keys: a practical-part task, an informator,
# a commentary and an HTML page. Each is a real file, so a spec that wrongly picks one gets a real PDF.
_UNRELATED_PDFS: dict[str, list[str]] = {
    "zawodowy/ele02-2023-czerwiec-egzamin-zawodowy-praktyczny.pdf": [
        "ELE.02-01-23.06-SG",
        "Zadanie egzaminacyjne",
        ("Wykonaj montaż instalacji oświetleniowej według schematu. Po zakończeniu montażu sprawdź "
        "poprawność połączeń i zgłoś przewodniczącemu ZN gotowość do uruchomienia instalacji."),
        "Czas przeznaczony na wykonanie zadania wynosi 150 minut.",
    ],
    "informatory/informator-ele02.pdf": [
        "Informator o egzaminie zawodowym",
        "Kwalifikacja ELE.02. Montaż, uruchamianie i konserwacja instalacji, maszyn i urządzeń elektrycznych",
        "Informator zawiera opis formy egzaminu oraz przykładowe zadania z rozwiązaniami.",
    ],
    "panellinies/2023/GEL/pliroforiki/sxol_plir_gel_2023.pdf": [
        "ΣΧΟΛΙΑΣΜΟΣ ΘΕΜΑΤΩΝ ΠΛΗΡΟΦΟΡΙΚΗΣ 2023",
        "Τα θέματα κρίνονται βατά και καλύπτουν το μεγαλύτερο μέρος της εξεταστέας ύλης.",
    ],
}
_UNRELATED_OTHER = ["regulamin.html", "https://cke.gov.pl/egzamin-zawodowy/", "mailto:kontakt@example.org"]
_PL_MONTHS = {"styczen": "styczeń", "czerwiec": "czerwiec"}


def _text_page(lines: list[str]) -> PageSpec:
    items, y = [], 24.0
    for number, text in enumerate(lines):
        box = TextBox(text, 20, y, 170, size=13 if number == 0 else 11, bold=number == 0)
        items.append(box)
        y = item_bottom(box) + 4
    return PageSpec(tuple(items))


def _sections(sheets: tuple[SampleSheet, ...]) -> list[_Section]:
    polish, greek = [], []
    for sheet in sheets:
        if sheet.language == "pl":
            month = _PL_MONTHS.get(sheet.session or "", sheet.session)
            label = f"{sheet.extra['qualification']} – {month} {sheet.year}"
            polish += [_Link(sheet.sheet_file, f"{label} – arkusz (część pisemna)"), _Link(sheet.key_file, f"{label} – odpowiedzi")]
        else:
            greek += [_Link(sheet.sheet_file, f"{sheet.title} {sheet.year} – Θέματα"), _Link(sheet.key_file, f"{sheet.title} {sheet.year} – Απαντήσεις")]
    polish += [
        _Link("zawodowy/ele02-2023-czerwiec-egzamin-zawodowy-praktyczny.pdf", "ELE.02 – czerwiec 2023 – część praktyczna"),
        _Link("informatory/informator-ele02.pdf", "Informator ELE.02 (CKE)"),
    ]
    greek.append(_Link("panellinies/2023/GEL/pliroforiki/sxol_plir_gel_2023.pdf", "Πληροφορική 2023 – Σχολιασμός θεμάτων"))
    return [
        _Section("Egzamin zawodowy – arkusze i odpowiedzi", "pl", polish),
        _Section("Πανελλαδικές εξετάσεις – Θέματα και απαντήσεις", "el", greek),
    ]


def _index_html(sections: list[_Section]) -> str:
    parts = [
        "<!DOCTYPE html>",
        '<html lang="pl">',
        "<head>",
        '<meta charset="utf-8">',
        "<title>Archiwum arkuszy egzaminacyjnych</title>",
        '<link rel="stylesheet" href="style.css">',
        "</head>",
        "<body>",
        ('<nav><a href="index.html">Strona główna</a> | <a href="regulamin.html">Regulamin</a> | '
        '<a href="https://cke.gov.pl/egzamin-zawodowy/">CKE – egzamin zawodowy</a></nav>'),
        "<h1>Archiwum arkuszy egzaminacyjnych</h1>",
        "<p>Arkusze i odpowiedzi udostępniamy w formacie PDF. Niektóre starsze arkusze są skanami.</p>",
    ]
    for section in sections:
        parts.append(f'<section lang="{section.lang}">')
        parts.append(f"<h2>{html.escape(section.title)}</h2>")
        parts.append("<ul>")
        for link in section.links:
            parts.append(f'  <li><a href="{html.escape(link.href)}">{html.escape(link.text)}</a></li>')
        parts.append("</ul>")
        parts.append("</section>")
    parts += [
        '<footer><p>Kontakt: <a href="mailto:kontakt@example.org">kontakt@example.org</a></p></footer>',
        "</body>",
        "</html>",
        "",
    ]
    return "\n".join(parts)


_REGULAMIN_HTML = """<!DOCTYPE html>
<html lang="pl"><head><meta charset="utf-8"><title>Regulamin</title></head>
<body><h1>Regulamin serwisu</h1><p>Materiały pochodzą z publicznych archiwów egzaminacyjnych.</p>
<p><a href="index.html">Powrót</a></p></body></html>
"""


def _truth(sheet: SampleSheet, question_pages: dict[str, int], page_count: int) -> SheetTruth:
    questions = [
        TruthQuestion(
            number=q.number,
            type=q.type,
            question=q.question,
            choices=list(q.choices),
            choice_labels=list(q.choice_labels),
            answer=q.answer,
            answer_index=q.answer_index,
            context=q.context,
            page=question_pages[q.number],
            has_figure=q.figure is not None,
            points=q.points,
        )
        for q in sheet.questions
    ]
    return SheetTruth(
        spec=sheet.spec,
        sheet=sheet.sheet_file,
        key=sheet.key_file,
        language=sheet.language,
        year=sheet.year,
        session=sheet.session,
        sheet_code=sheet.sheet_code,
        scanned=sheet.scanned,
        page_count=page_count,
        questions=questions,
    )


def _put(path: Path, data: bytes) -> None:
    """Write unless the file already holds these bytes: an unchanged file keeps its mtime, so the
    local server's ETag stays the same and a second run's download gets 304 Not Modified."""
    try:
        if path.read_bytes() == data:
            return
    except FileNotFoundError:
        pass
    write_bytes_atomic(path, data)


def _write_sheet(dest: Path, sheet: SampleSheet, seed: int, scratch: Path) -> SheetTruth:
    rendered = render(sheet)
    if sheet.scanned:
        printed = build_pdf(scratch / f"{seed}.pdf", rendered.sheet_pages, title=sheet.sheet_code)
        _put(dest / sheet.sheet_file, rasterized_pdf_bytes(printed, seed=seed, **SCAN_SETTINGS))
    else:
        _put(dest / sheet.sheet_file, pdf_bytes(rendered.sheet_pages, title=sheet.sheet_code))
    _put(dest / sheet.key_file, pdf_bytes(rendered.key_pages, title=f"{sheet.sheet_code} – odpowiedzi"))
    return _truth(sheet, rendered.question_pages, len(rendered.sheet_pages))


def build_sample_site(dest: Path | str, sheets: tuple[SampleSheet, ...] = SAMPLE_SHEETS, *, workers: int = 1) -> SampleSite:
    """Write the sample archive into `dest` (created if missing) and return what it holds. `workers` > 1
    renders sheets in that many processes (an archive of thousands); the files are the same."""
    dest = Path(dest)
    dest.mkdir(parents=True, exist_ok=True)
    truth: dict[str, SheetTruth] = {}
    with tempfile.TemporaryDirectory(prefix="examcorpus-sample-") as scratch:
        jobs = [(dest, sheet, seed, Path(scratch)) for seed, sheet in enumerate(sheets, start=1)]
        if workers > 1 and len(jobs) > 1:
            from concurrent.futures import ProcessPoolExecutor

            with ProcessPoolExecutor(max_workers=workers) as pool:
                written = list(pool.map(_write_sheet, *zip(*jobs), chunksize=8))
        else:
            written = [_write_sheet(*job) for job in jobs]
        for sheet, sheet_truth in zip(sheets, written):
            truth[sheet.sheet_file] = sheet_truth
    for path, lines in _UNRELATED_PDFS.items():
        _put(dest / path, pdf_bytes([_text_page(lines)]))
    _put(dest / "regulamin.html", _REGULAMIN_HTML.encode("utf-8"))
    _put(dest / INDEX_FILE, _index_html(_sections(sheets)).encode("utf-8"))
    payload = {"sheets": [asdict(t) for t in truth.values()], "unrelated": list(_UNRELATED_PDFS) + _UNRELATED_OTHER}
    _put(dest / TRUTH_FILE, (json.dumps(payload, ensure_ascii=False, indent=2) + "\n").encode("utf-8"))
    written = [s.sheet_file for s in sheets] + [s.key_file for s in sheets] + list(_UNRELATED_PDFS)
    written += ["regulamin.html", INDEX_FILE, TRUTH_FILE]
    files = {rel: hashlib.sha256((dest / rel).read_bytes()).hexdigest() for rel in sorted(written)}
    return SampleSite(
        dest=dest,
        index=dest / INDEX_FILE,
        truth=truth,
        unrelated=list(_UNRELATED_PDFS) + _UNRELATED_OTHER,
        files=files,
    )


def load_truth(path: Path | str) -> dict[str, SheetTruth]:
    """Read a truth.json written by build_sample_site, keyed by sheet path."""
    path = Path(path)
    try:
        payload = json.loads(path.read_text(encoding="utf-8"))
        sheets = payload["sheets"]
        return {
            s["sheet"]: SheetTruth(**{**s, "questions": [TruthQuestion(**q) for q in s["questions"]]})
            for s in sheets
        }
    except FileNotFoundError:
        raise FileNotFoundError(f"{path}: no truth file (build the sample site first)") from None
    except (ValueError, KeyError, TypeError) as exc:
        raise ValueError(f"{path}: not a sample-site truth file: {exc}") from exc


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m pipeline.devkit.sample.site", description=__doc__.splitlines()[0])
    parser.add_argument("dest", type=Path, help="folder to write the archive into")
    args = parser.parse_args(argv)
    site = build_sample_site(args.dest)
    for truth in site.truth.values():
        kind = "scan" if truth.scanned else "text"
        print(f"{truth.sheet}: {truth.page_count} pages ({kind}), {len(truth.questions)} questions")
    print(f"index: {site.index}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

