"""Scanned keys of every corpus family with a key PDF: each key rasterised, read by OCR with the whole
booklet by its text layer, and every answer compared with the same sheet read by its text layer.

    python -m pipeline.devkit.corpuskeys --out /tmp/ck [--set tuning|checking|all] [--scans 200/0.8/80,...] [--show]

Per sheet and scan: the keyed questions of the text path, the answers the scan's key gave (`read`), right
and wrong among them, the questions left without an answer that carry a key report line (`reported`: a
`key.*` flag on the question other than `key.no_entry`, which every unkeyed question carries, or a problem line naming it) and those left without any (`silent`, which must
stay 0). `wrong (text N, flagged M)`: of the wrong, the short-answer entries (text, not an option label), and those whose
question carries `ocr.uncertain` naming its key entry; `text entries flagged`: of the short-answer entries read, those flagged. `tuning` sheets are those the key readers may be fitted on; `checking` sheets (whole families,
chosen before any change of this round) only report.
"""
from __future__ import annotations

import argparse
import hashlib
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from pipeline.acquire import ManifestEntry
from pipeline.devkit.counts import Counts
from pipeline.devkit.ocrcertainty import CORPUS
from pipeline.devkit.sample.scansetting import ScanSetting
from pipeline.devkit.softscans import Sheet, corpus_sheet, _printed, _text_document, sheets_in_corpus
from pipeline.diagnostics import Code, Diagnostic
from pipeline.extract import ExtractOptions, extract_document
from pipeline.parse import KEY_ENTRY, parse_sheet
from pipeline.specs import load_spec

_PL = "pl_cke_matura_informatyka"
TUNING = (
    corpus_sheet("br-oab-2016", (2, 3)),
    corpus_sheet("br-oab-2017", (2, 3)),
    corpus_sheet("es-inap-2024", (2, 3)),
    corpus_sheet("sk-nucem-2023", (2, 3)),
    corpus_sheet("sk-nucem-2024", (2, 3)),
    corpus_sheet("pl-informatyka-2017", (2, 3)),
)
# Chosen before any key change of this round, and only reported: the Revalida family (a grid key whose rows are
# known weak at 200 dpi blur 0.8) and the PAES family (a three-column-pair table), both forms.
CHECKING = (
    corpus_sheet("br-revalida-2023", (2, 3)),
    corpus_sheet("cl-paes-l-2023", (2, 3)),
    corpus_sheet("cl-paes-m1-2023", (2, 3)),
)
SETS = {"tuning": TUNING, "checking": CHECKING}
SCANS = "200/0.8/80,200/0.6/90,150/0.8/70"


@dataclass
class KeyTally(Counts):
    keyed: int = 0
    read: int = 0
    right: int = 0
    wrong: int = 0
    wrong_text: int = 0  # of `wrong`: short-answer keys (text, not an option label) read otherwise
    wrong_flagged: int = 0  # of `wrong`: those whose question carries `ocr.uncertain` naming its key entry
    text_read: int = 0  # short-answer entries read
    text_flagged: int = 0  # of `text_read`: those whose question carries `ocr.uncertain` naming its key entry
    reported: int = 0
    silent: int = 0
    notes: list[str] = field(default_factory=list)

    def line(self) -> str:
        share = f"{self.right / self.keyed:6.1%}" if self.keyed else "     –"
        return (f"keyed {self.keyed:3}  read {self.read:3}  right {self.right:3} ({share})  wrong {self.wrong:2}"
                f" (text {self.wrong_text:2}, flagged {self.wrong_flagged:2})  reported {self.reported:3}  silent {self.silent:2}"
                f"  text entries flagged {self.text_flagged}/{self.text_read}")


_NOT_QUESTIONS = re.compile(r"\((?:pages?\s+[\d–-]+|\+\d+|\d+ of the sheet's)\)|\bpages?\s+[\d–-]+|^\d+\s+question|\.pdf")


def _names(text: str, number: str) -> bool:
    """Whether a report line names question `number` (alone or inside a span `a–b`); a page, a count of
    questions and a list's "(+65)" name none. A number with its part's prefix (`2.11`, `1.R3`) is named as written
    (the key reader writes `1.r3`)."""
    if not number.isdecimal():
        return re.search(rf"(?<![\w.]){re.escape(number.casefold())}(?![\w])", text.casefold()) is not None
    for first, last in re.findall(r"(\d+)(?:\s*[–-]\s*(\d+))?", _NOT_QUESTIONS.sub(" ", text)):
        if first == number or (last and number.isdecimal() and int(first) <= int(number) <= int(last)):
            return True
    return False


def _entry_flagged(flags: list) -> bool:
    """Whether a question's flags hold `ocr.uncertain` naming its key entry."""
    return any(isinstance(f, Diagnostic) and f.code is Code.OCR_UNCERTAIN and KEY_ENTRY in str(f) for f in flags)


def measure(out: Path, sheet: Sheet, scan: ScanSetting) -> KeyTally:
    the_spec = load_spec(sheet.spec)
    source = CORPUS / sheet.folder
    scans = out / sheet.name / scan.folder()
    scans.mkdir(parents=True, exist_ok=True)
    if not (scans / sheet.key).is_file():
        scan.rasterise(source / sheet.key, scans / sheet.key)
    plain = ExtractOptions.from_spec(the_spec)
    scanned = ExtractOptions.from_spec(the_spec, ocr_cache_dir=str(out / "cache"))

    def entry(path: Path, role: Literal["sheet", "key"]) -> ManifestEntry:
        return ManifestEntry(url=path.as_uri(), final_url=path.as_uri(), spec=the_spec.name, role=role, facts=dict(sheet.facts),
                             status="local", sha256="0" * 64, path=str(path))

    key = scans / sheet.key
    key_doc = extract_document(key, hashlib.sha256(key.read_bytes()).hexdigest(), scanned)
    booklet = source / sheet.booklet
    result = parse_sheet(_text_document(booklet, plain), entry(booklet, "sheet"), [(key_doc, entry(key, "key"))], the_spec)
    read = {q.number: q for q in result.questions}
    lines = [str(p) for p in [*result.problems, *result.notes]]
    if result.key_unusable:
        lines.append(result.key_unusable)
    tally = KeyTally()
    for number, truth in _printed(booklet, source / sheet.key, sheet.spec, sheet.facts).items():
        if not truth.answer:
            continue
        tally.keyed += 1
        record = read.get(number)
        answer = record.answer if record is not None else None
        if answer:
            flagged_entry = record is not None and _entry_flagged(record.flags)
            tally.read += 1
            tally.right += answer == truth.answer
            tally.wrong += answer != truth.answer
            tally.wrong_text += answer != truth.answer and len(truth.answer) > 1
            tally.wrong_flagged += answer != truth.answer and flagged_entry
            tally.text_read += len(truth.answer) > 1
            tally.text_flagged += len(truth.answer) > 1 and flagged_entry
            if answer != truth.answer:
                tally.notes.append(f"{number}: read {answer!r}, printed {truth.answer!r}{' (flagged)' if flagged_entry else ''}")
            continue
        # `key.no_entry` is on every unkeyed question: the reader's own word about it is another key flag or a line.
        flagged = record is not None and any(isinstance(f, Diagnostic) and f.code.code.startswith("key.") and f.code is not Code.NO_KEY_ENTRY
                                             for f in record.flags)
        if flagged or result.key_unusable or any(_names(line, number) for line in lines):
            tally.reported += 1
        else:
            tally.silent += 1
            tally.notes.append(f"{number}: no answer and no line says why")
    tally.notes += [f"line: {line[:200]}" for line in lines if "key" in line]
    return tally


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m pipeline.devkit.corpuskeys", description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--set", choices=[*SETS, "all"], default="all")
    parser.add_argument("--sheets", default="", help="sheet names, comma-separated (default: every sheet of the set)")
    parser.add_argument("--scans", default=SCANS, help="dpi/blur/jpeg, comma-separated")
    parser.add_argument("--show", action="store_true", help="each wrong or silent entry and the key's report lines")
    args = parser.parse_args(argv)
    scans = ScanSetting.parse_list(args.scans)
    for set_name in SETS if args.set == "all" else [args.set]:
        total = KeyTally()
        for sheet in sheets_in_corpus(set_name, SETS[set_name], args.sheets, file="key"):
            for scan in scans:
                tally = measure(args.out, sheet, scan)
                total.add(tally)
                print(f"{set_name:8} {sheet.name:20} {scan.label():22} {tally.line()}", flush=True)
                for note in tally.notes if args.show else ():
                    print(f"    {note}")
        print(f"{set_name:8} {'all':20} {'':22} {total.line()}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
