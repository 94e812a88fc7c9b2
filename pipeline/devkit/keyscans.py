"""How well keys on scans are read: generated key pages (`sample.keysheets`) scanned at several
resolutions, blurs and JPEG qualities, extracted by OCR and read by the spec's key format, each entry
compared with the answer printed.

    python -m pipeline.devkit.keyscans [--families list,grid] [--dpi 150,200,300] [--blur 0.4,0.8] [--jpeg 70,90] [--tilt -2,0,2] [--disable list-cells]
    python -m pipeline.devkit.keyscans --scans 170/0.65/78,150/0.75/72/0/s0.002   # named scans instead of the product
    python -m pipeline.devkit.keyscans --cache /tmp/kc ...   # page readings kept: a change after OCR reads no page again

A share of entries right per family and scan, the entries wrong, missing and reported; never a shift
passes unseen: an answer given to the wrong question counts as wrong.
"""
from __future__ import annotations

import argparse
import hashlib
import itertools
import sys
import tempfile
import time
import unicodedata
from dataclasses import dataclass, replace
from pathlib import Path

from pipeline.devkit.sample.keysheets import CHECKING, TUNING, KeySheet
from pipeline.devkit.sample.layoutkeysheets import LAYOUT_CHECKING, LAYOUT_TUNING
from pipeline.devkit.sample.scriptkeysheets import SCRIPT_CHECKING, SCRIPT_TUNING
from pipeline.devkit.sample.shortkeysheets import SHORT_CHECKING, SHORT_TUNING
from pipeline.devkit.sample.pdfgen import build_pdf
from pipeline.devkit.sample.scansetting import SYNTAX, ScanSetting
from pipeline.extract import ExtractedDocument, ExtractOptions, PageMethod, extract_document
from pipeline.extract.ocr import OcrSettings, spelled_for
from pipeline.languages import language_for_tesseract
from pipeline.parse import (KeyTable, Recovery, flagged_key_entries, inferred_numbers, mend_short_entries, read_grid, read_list,
                            read_variant_table, place_lines, split_booklet, unaccounted_line, unsure_key_entries, unsure_short_entries)
from pipeline.specs import KeySpec


@dataclass(frozen=True)
class KeyScore:
    family: str
    scan: str
    right: int
    wrong: int
    missing: int
    reported: int  # problem lines the key reader gave, and answer cells it reports unread
    total: int
    seconds: float
    unaccounted: int = 0  # missing entries no line of the reader named: one `key.entries_unaccounted` line now
    wrong_flagged: int = 0  # of the wrong short-answer entries, those judged unsure (`shortentries`): their question is flagged
    flagged: int = 0  # short-answer entries judged unsure, right or wrong

    @property
    def share(self) -> float:
        return self.right / self.total if self.total else 0.0


def read_key(pdf: Path, sheet: KeySheet, dpi: int = 300, disabled: tuple[str, ...] = (), ocr_cache: Path | None = None) -> KeyTable:
    """The key table the spec's key format reads from `pdf` (OCR'd where it has no text layer), with the
    OCR passes named in `disabled` left out (to measure what a pass does); `ocr_cache`: where page readings are
    cached (`key_options`), none by default."""
    return read_key_document(pdf, sheet, dpi, disabled, ocr_cache)[0]


def read_key_document(pdf: Path, sheet: KeySheet, dpi: int = 300, disabled: tuple[str, ...] = (),
                      ocr_cache: Path | None = None) -> tuple[KeyTable, ExtractedDocument]:
    """`read_key`'s table and the document it was read from (the key's region of it, for a key in its booklet)."""
    spec = KeySpec(**sheet.key)
    options = key_options(sheet, dpi, disabled, ocr_cache)
    sha = hashlib.sha256(pdf.read_bytes()).hexdigest()
    document = extract_document(pdf, sha, options)
    if spec.in_sheet:  # a key printed at the end of the question booklet: the lines from its heading on
        found = split_booklet(document, [], spec.in_sheet, None)[1]
        if found is None:
            return KeyTable(pdf.name, problems=[f"no line matches the key's start {spec.in_sheet!r}"]), document
        document = found
    if spec.kind == "list":
        table = read_list(document, spec, pdf.name)
    else:
        tables = read_grid(document, spec, pdf.name, sheet.labels) if spec.kind == "grid" else read_variant_table(document, spec, pdf.name)
        wanted = spec.variant if spec.variant_header else ""
        table = tables.get(wanted or "") or KeyTable(pdf.name, problems=[f"no table for variant {wanted!r} (found {sorted(tables)})"])
    if spec.kind != "grid":  # as `read_sheet_keys` does
        mend_short_entries(table, sheet.labels, spelled_for(sheet.languages), all(p.method is PageMethod.OCR for p in document.pages),
                           Recovery.without(disabled))
    table.inferred |= inferred_numbers(document) & set(table.answers)  # as `read_sheet_keys` does: numbers the OCR put in
    return table, document


def key_options(sheet: KeySheet, dpi: int = 300, disabled: tuple[str, ...] = (), ocr_cache: Path | None = None) -> ExtractOptions:
    """How `read_key` extracts a key sheet's scan: OCR at `dpi` with the sheet's languages and option labels."""
    settings = OcrSettings(languages=sheet.languages, dpi=dpi, option_labels=sheet.labels, disabled_passes=disabled)
    return ExtractOptions(ocr=settings, ocr_workers=1, layout=settings.layout, ocr_cache_dir=str(ocr_cache) if ocr_cache else None)


def same_answer(read: str, printed: str) -> bool:
    """Whether a key entry is the answer printed: compatibility forms folded (the key's "4" for ④)."""
    return unicodedata.normalize("NFKC", read.strip()).casefold() == unicodedata.normalize("NFKC", printed).casefold()


def score(sheet: KeySheet, table: KeyTable, scan: str, seconds: float) -> KeyScore:
    """The table against the answers printed; the questions of the sheet no line accounts for are first
    named in one `key.entries_unaccounted` line, as `read_sheet_keys` does with the sheet's questions."""
    before = len(table.named)
    table.problems += place_lines(sheet.truth, table)  # as `read_sheet_keys` does: first the questions a row's run places
    placed = len(table.named) - before
    line = unaccounted_line(sheet.truth, table, table.name)
    if line is not None:
        table.problems.append(line)
    right = sum(same_answer(table.answers.get(n, ""), a) for n, a in sheet.truth.items())
    missing = sum(n not in table.answers for n in sheet.truth)
    return KeyScore(sheet.name, scan, right, len(sheet.truth) - right - missing, missing, len(table.problems) + len(table.unread), len(sheet.truth), seconds,
                    len(table.named) - before - placed)


def measure(sheet: KeySheet, folder: Path, setting: ScanSetting, *, seed: int = 0,
            disabled: tuple[str, ...] = (), ocr_cache: Path | None = None) -> tuple[KeyScore, KeyTable, ExtractedDocument]:
    source = folder / f"{sheet.name}.pdf"
    if not source.exists():
        build_pdf(source, sheet.pages)
    scan = setting.rasterise(source, folder / f"{sheet.name}-{setting.folder()}.pdf", seed=seed)
    started = time.monotonic()
    table, document = read_key_document(scan, sheet, disabled=disabled, ocr_cache=ocr_cache)
    result = score(sheet, table, setting.label(), time.monotonic() - started)
    unsure = set(unsure_entries(sheet, table, document))
    wrong = [n for n, a in sheet.truth.items() if n in table.answers and not same_answer(table.answers[n], a)]
    return replace(result, wrong_flagged=sum(n in unsure for n in wrong), flagged=len(unsure)), table, document


def unsure_entries(sheet: KeySheet, table: KeyTable, document: ExtractedDocument) -> dict[str, list[str]]:
    """{number key: why} of the entries whose question a sheet's parse flags for its key entry (`ocr.uncertain`): a
    short answer judged unsure (`unsure_short_entries`), an entry read from unsure words on the key's page
    (`unsure_key_entries`, less what the labels settle: `flagged_key_entries`), or keyed by inference."""
    found = unsure_short_entries(table.answers, table.sources, sheet.labels, spelled_for(sheet.languages), True, table.repaired,
                                 table.number_lines, _numerals(sheet))
    entry = sheet.key.get("entry") if sheet.key.get("kind", "list") == "list" else None
    read = unsure_key_entries([document], entry, table.answers) if any(p.method is PageMethod.OCR for p in document.pages) else {}
    for number, words in flagged_key_entries(read, table.answers).items():
        found[number] = list(dict.fromkeys([*found.get(number, []), *words]))
    for number in table.inferred:
        found.setdefault(number, []).append("keyed by inference (its number put in from the count: ocr.number_inferred)")
    return found


def _numerals(sheet: KeySheet) -> dict[int, list[str]]:
    """The numeral words of the sheet's language (`shortentries.numeral_disagreements`)."""
    found = language_for_tesseract(sheet.languages[0]) if sheet.languages else None
    return dict(found.numerals) if found else {}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m pipeline.devkit.keyscans", description=__doc__.split("\n\n")[0])
    parser.add_argument("--families", default=",".join([*TUNING, *SHORT_TUNING, *LAYOUT_TUNING, *SCRIPT_TUNING, *CHECKING, *SHORT_CHECKING,
                                                      *LAYOUT_CHECKING, *SCRIPT_CHECKING]))
    parser.add_argument("--dpi", default="200")
    parser.add_argument("--blur", default="0.6")
    parser.add_argument("--jpeg", default="80")
    parser.add_argument("--tilt", default="0", help="degrees the page is turned by on the scan, comma-separated")
    parser.add_argument("--scans", default="", help=f"scans to read ({SYNTAX}), comma-separated: these instead of --dpi/--blur/--jpeg/--tilt")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--show", action="store_true", help="print each wrong entry and every problem line")
    parser.add_argument("--disable", default="", help="OCR passes to leave out, comma-separated (what a pass adds: with and without)")
    parser.add_argument("--cache", type=Path, default=None,
                        help="folder of the scans' page readings (kept per pass version): a change after OCR re-reads nothing")
    args = parser.parse_args(argv)
    families = {**TUNING, **SHORT_TUNING, **LAYOUT_TUNING, **SCRIPT_TUNING, **CHECKING, **SHORT_CHECKING, **LAYOUT_CHECKING, **SCRIPT_CHECKING}
    disabled = tuple(name for name in args.disable.split(",") if name)
    scans = ScanSetting.parse_list(args.scans) if args.scans else [ScanSetting(dpi, blur, jpeg, tilt) for dpi, blur, jpeg, tilt in itertools.product(
        [int(v) for v in args.dpi.split(",")], [float(v) for v in args.blur.split(",")], [int(v) for v in args.jpeg.split(",")],
        [float(v) for v in args.tilt.split(",")])]
    with tempfile.TemporaryDirectory(prefix="keyscans-") as tmp:
        for name in args.families.split(","):
            sheet = families[name](args.seed)
            kind = "tuning" if any(name in s for s in (TUNING, SHORT_TUNING, LAYOUT_TUNING, SCRIPT_TUNING)) else "checking"
            source = build_pdf(Path(tmp) / f"{sheet.name}.pdf", sheet.pages)
            started = time.monotonic()
            text = score(sheet, read_key(source, sheet), "text layer", time.monotonic() - started)
            print(f"{kind:8} {name:15} {text.scan:22} right {text.right:3}/{text.total} ({text.share:.0%})", flush=True)
            for setting in scans:
                result, table, document = measure(sheet, Path(tmp), setting, seed=args.seed, disabled=disabled, ocr_cache=args.cache)
                print(f"{kind:8} {name:15} {result.scan:32} right {result.right:3}/{result.total} ({result.share:.0%}) "
                      f"wrong {result.wrong} missing {result.missing} reported {result.reported} "
                      f"(unaccounted {result.unaccounted}) flagged {result.flagged} (of the wrong {result.wrong_flagged}) "
                      f"{result.seconds:.1f}s", flush=True)
                if args.show:
                    for n, a in sheet.truth.items():
                        if table.answers.get(n) != a:
                            print(f"    {n}: read {table.answers.get(n)!r}, printed {a!r}")
                    for n, words in unsure_entries(sheet, table, document).items():
                        print(f"    {n}: unsure {words}")
                    for problem in table.problems + [f"answer cell of question {n} unread (OCR)" for n in table.unread]:
                        print(f"    problem: {problem}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
