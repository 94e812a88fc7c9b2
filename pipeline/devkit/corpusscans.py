"""Question numbering on corpus scans: each scanned corpus sheet against its text-layer twin, by cause.

    python -m pipeline.devkit.corpusscans --out /tmp/cs [--set tuning|checking|all] [--scans 200/0.8/90,...] [--show]

A stretch of each booklet (its cover and a few pages) is read once by its text layer and once rasterised
(dpi/blur/JPEG quality, with grain) by the OCR path, both without the key. Per sheet and scan the line
counts the text path's questions that the scan found under the same number, those it found under another
number (`misnumbered`: the stem is there, the number is not the printed one), those whose text ended up
inside another question (`merged`), those lost outright (`lost`), scan questions the text path does not
have (`extra`), option texts read exactly, and the parse report lines that name a number recovered from
the sequence. With `--keys`, also the key scanned, read with the whole booklet's text layer: answers
right against the text path (what the key's reading alone gives, its booklet-type header included). `tuning` sheets are those the numbering repairs were built on; `checking` sheets (a whole
family, chosen before any tuning) only report.
"""
from __future__ import annotations

import argparse
import difflib
import sys
from dataclasses import dataclass, field
from pathlib import Path

from pipeline.devkit.fidelity import normalize_text
from pipeline.devkit.ocrcertainty import CORPUS, _pages_of
from pipeline.devkit.sample.scansetting import ScanSetting
from pipeline.devkit.softscans import Sheet, _printed, _records_of_key_scan, corpus_sheet, sheets_in_corpus
from pipeline.extract import ExtractOptions
from pipeline.records import Question
from pipeline.specs import load_spec
from pipeline.devkit.counts import Counts

TUNING = (
    corpus_sheet("br-oab-2016", (2, 6)),
    corpus_sheet("br-oab-2017", (2, 6)),
    corpus_sheet("es-inap-2024", (2, 5)),
)
# Chosen before any tuning, and only reported: the whole Revalida family (its "QUESTÃO N" banners and bare
# option letters were looked at by no numbering repair of this round).
CHECKING = (
    corpus_sheet("br-revalida-2023", (2, 7)),
)
SETS = {"tuning": TUNING, "checking": CHECKING}
SCANS = "200/0.8/90,150/0.8/70,300/0.4/90"


@dataclass
class Tally(Counts):
    questions: int = 0
    found: int = 0
    misnumbered: int = 0
    merged: int = 0
    lost: int = 0
    extra: int = 0
    options: int = 0
    options_exact: int = 0
    recovered: int = 0
    answers: int = 0
    answers_right: int = 0
    notes: list[str] = field(default_factory=list)

    def line(self) -> str:
        share = f"{self.options_exact / self.options:6.1%}" if self.options else "     –"
        keyed = f"{self.answers_right / self.answers:6.1%}" if self.answers else "     –"
        return (f"questions {self.questions:3}  found {self.found:3}  misnumbered {self.misnumbered:2}  merged {self.merged:2}"
                f"  lost {self.lost:2}  extra {self.extra:2}  options {share}  renumbered {self.recovered:2}  answers {keyed}")


def _stem(question: Question) -> str:
    return normalize_text(question.question)


def _similar(a: str, b: str) -> float:
    return difflib.SequenceMatcher(None, a, b, autojunk=False).ratio() if a and b else 0.0


def compare(printed: dict[str, Question], read: dict[str, Question]) -> Tally:
    """How the scan's questions `read` stand to the text path's `printed`, question by question."""
    tally = Tally()
    claimed: set[str] = set()
    for number, truth in printed.items():
        tally.questions += 1
        tally.options += len(truth.choices)
        record = read.get(number)
        if record is not None and _similar(_stem(truth)[:200], _stem(record)[:200]) >= 0.6:
            tally.found += 1
            claimed.add(number)
            tally.options_exact += sum(normalize_text(a) == normalize_text(b) for a, b in zip(truth.choices, record.choices))
            continue
        head = _stem(truth)[:200]
        other = max(((n, _similar(head, _stem(q)[:200])) for n, q in read.items() if n != number), key=lambda p: p[1], default=None)
        if other is not None and other[1] >= 0.6:
            tally.misnumbered += 1
            claimed.add(other[0])
            tally.notes.append(f"{number}: read as {other[0]!r}")
            continue
        probe = head[:60]
        inside = next((n for n, q in read.items() if probe and probe[:40] in normalize_text(" ".join([q.question, *q.choices]))), None)
        if inside is not None:
            tally.merged += 1
            tally.notes.append(f"{number}: merged into {inside!r}")
        else:
            tally.lost += 1
            tally.notes.append(f"{number}: lost" + (f" (a record {number!r} holds other text)" if record is not None else ""))
    tally.extra = len(set(read) - claimed - set(printed))
    for n in sorted(set(read) - claimed - set(printed)):
        tally.notes.append(f"extra {n!r}: {_stem(read[n])[:60]!r}")
    return tally


def _records(path: Path, the_spec, facts: dict[str, str], options: ExtractOptions) -> tuple[dict[str, Question], list[str]]:
    import hashlib

    from pipeline.acquire import ManifestEntry
    from pipeline.extract import extract_document
    from pipeline.parse import parse_sheet
    entry = ManifestEntry(url=path.as_uri(), final_url=path.as_uri(), spec=the_spec.name, role="sheet", facts=dict(facts),
                          status="local", sha256="0" * 64, path=str(path))
    document = extract_document(path, hashlib.sha256(path.read_bytes()).hexdigest(), options)
    result = parse_sheet(document, entry, [], the_spec)
    # Every renumbering is a flag on its record (`parse.number_inferred`): "question number read as 21, taken as 2 …".
    lines = [f"{q.number}: {flag}" for q in result.questions for flag in q.flags if flag.startswith("question number") and "taken as" in flag]
    return {q.number: q for q in result.questions}, lines


def measure(out: Path, sheet: Sheet, scan: ScanSetting, scan_keys: bool = False) -> tuple[Tally, list[str]]:
    the_spec = load_spec(sheet.spec)
    facts = dict(sheet.facts)
    stretch = _pages_of(CORPUS / sheet.folder / sheet.booklet, out / sheet.name / "text" / sheet.booklet, sheet.pages)
    scans = out / sheet.name / scan.folder()
    scans.mkdir(parents=True, exist_ok=True)
    if not (scans / stretch.name).is_file():
        scan.rasterise(stretch, scans / stretch.name)
    printed, _ = _records(stretch, the_spec, facts, ExtractOptions.from_spec(the_spec))
    read, lines = _records(scans / stretch.name, the_spec, facts, ExtractOptions.from_spec(the_spec, ocr_cache_dir=str(out / "cache")))
    tally = compare(printed, read)
    renumbered = [f"renumbered {line}" for line in lines]
    tally.recovered = len(renumbered)
    if scan_keys:
        # The whole booklet by its text layer, its key scanned: the key's reading alone (its booklet-type header included).
        if not (scans / sheet.key).is_file():
            scan.rasterise(CORPUS / sheet.folder / sheet.key, scans / sheet.key)
        whole = CORPUS / sheet.folder / sheet.booklet
        truth = _printed(whole, CORPUS / sheet.folder / sheet.key, sheet.spec, sheet.facts)
        keyed = _records_of_key_scan(whole, scans / sheet.key, the_spec, facts, ExtractOptions.from_spec(the_spec),
                                     ExtractOptions.from_spec(the_spec, ocr_cache_dir=str(out / "cache")))
        for number, question in truth.items():
            if question.answer:
                tally.answers += 1
                tally.answers_right += number in keyed and keyed[number].answer == question.answer
    return tally, [*tally.notes, *renumbered]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m pipeline.devkit.corpusscans", description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--set", choices=[*SETS, "all"], default="all")
    parser.add_argument("--sheets", default="", help="sheet names, comma-separated (default: every sheet of the set)")
    parser.add_argument("--scans", default=SCANS, help="dpi/blur/jpeg, comma-separated")
    parser.add_argument("--keys", action="store_true", help="also the key scanned (the booklet by its text layer): answers right")
    parser.add_argument("--show", action="store_true", help="each question not found under its number, and each renumbering")
    args = parser.parse_args(argv)
    scans = ScanSetting.parse_list(args.scans)
    for set_name in SETS if args.set == "all" else [args.set]:
        total = Tally()
        for sheet in sheets_in_corpus(set_name, SETS[set_name], args.sheets):
            for scan in scans:
                tally, notes = measure(args.out, sheet, scan, args.keys)
                total.add(tally)
                print(f"{set_name:8} {sheet.name:18} {scan.dpi}dpi blur {scan.blur} q{scan.jpeg:<3} {tally.line()}", flush=True)
                for note in notes if args.show else ():
                    print(f"    {note}")
        print(f"{set_name:8} {'all':18} {'':21} {total.line()}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
