"""Which words a scan misreads, by class: corpus sheets rasterised, read by the OCR path, and each OCR'd
question's stem and options aligned word by word with the same question read by the text path.

    python -m pipeline.devkit.misreads --out /tmp/misreads [--set tuning|checking|all] [--scans 150/0.8/70,200/0.8/70]
    python -m pipeline.devkit.misreads --out /tmp/misreads --disable comma-tails --show

A differing stretch of words is counted in one class (`classify`):
- `glued-short`: two printed words read as one, one of them of one or two letters (`keufemizmom`, `el7`);
- `glued`: two longer printed words read as one;
- `split`: one printed word read as two;
- `lookalike`: a word read with letters or digits of the same shape swapped (I/l/1/|, q/g, O/0, S/5, rn/m, cl/d, ri/n, li/h, vv/w);
- `dropped`: a word read with one letter missing (`mo` for `no` is a lookalike, `tenga` for `tengas` dropped);
- `marks`: a word read with its diacritics lost or changed;
- `other`: anything else (a word missed, one added, a word read otherwise).
Per sheet and scan: the words of the matched questions, the errors per class, question recall, option
texts read exactly, and key answers right (the whole booklet by its text layer, its key by OCR, as
`softscans` measures them). `tuning` sheets are those the misread passes were built on; `checking` sheets
were chosen before any tuning and only report. `--disable` leaves passes out, so that the same scans are
measured with and without them; the OCR cache under `--out` keeps every reading.
"""
from __future__ import annotations

import argparse
import difflib
import functools
import sys
import unicodedata
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from pipeline.devkit import ocrcertainty, punctkinds, scriptscans
from pipeline.devkit.fidelity import normalize_text
from pipeline.devkit.ocrcertainty import CORPUS, _pages_of, _records_of
from pipeline.devkit.sample.scansetting import ScanSetting
from pipeline.devkit.softscans import Score, Sheet, corpus_sheet, _printed, _records_of_key_scan, sheets_in_corpus
from pipeline.extract import ExtractOptions
from pipeline.records import Question
from pipeline.specs import load_spec

CLASSES = ("glued-short", "glued", "split", "lookalike", "dropped", "marks", "other")
# Shapes a scan blurs into one another: single characters, and pairs read as one character.
_SAME_SHAPE = ({"I", "l", "1", "|", "i", "!", "]", "j"}, {"q", "g"}, {"O", "0", "o", "Q", "D"}, {"S", "5", "s"}, {"B", "8"},
               {"Z", "2"}, {"e", "c"}, {"n", "m", "h", "u"}, {"t", "f"}, {"v", "y"})
_JOINED = (("rn", "m"), ("cl", "d"), ("ri", "n"), ("li", "h"), ("vv", "w"), ("in", "m"), ("ni", "m"))
SHORT = 2  # letters of a short word (a preposition or article glued to its neighbour)


TUNING = (
    corpus_sheet("es-inap-2024", (2, 4)),
    corpus_sheet("br-oab-2016", (2, 4)),
    corpus_sheet("sk-nucem-2023", (2, 4)),
    corpus_sheet("pl-informatyka-2017", (7, 8)),
)
# Chosen before any tuning (issue 27's list), and only reported.
CHECKING = (
    corpus_sheet("sk-nucem-2024", (2, 4)),
    corpus_sheet("br-revalida-2023", (2, 4)),
    corpus_sheet("cl-paes-l-2023", (3, 6)),
)
SETS = {"tuning": TUNING, "checking": CHECKING}
# Generated sheets (`ocrcertainty`'s and `scriptscans`' families: words of each language's Tesseract list, printed
# with a text layer, then scanned), to show that a pass harms no other language or script; only reported.
GENERATED = ("es-column", "pl-pairs", "pt-pairs", "sk-column", "tr-row", "vi-column", "el-column")
SCANS = "150/0.8/70,200/0.8/70"


def _bare(text: str) -> str:
    return "".join(ch for ch in unicodedata.normalize("NFD", text) if not unicodedata.combining(ch))


def _same_shape(a: str, b: str) -> bool:
    return any(a in group and b in group for group in _SAME_SHAPE)


def _lookalike(printed: str, read: str) -> bool:
    """`read` is `printed` with characters of the same shape swapped, or a pair blur joins read as one."""
    if len(printed) == len(read):
        return all(p == r or _same_shape(p, r) for p, r in zip(printed, read))
    for pair, one in _JOINED:
        for at in range(len(printed) - 1):
            if printed[at:at + 2] == pair and printed[:at] + one + printed[at + 2:] == read:
                return True
        for at in range(len(read) - 1):
            if read[at:at + 2] == pair and read[:at] + one + read[at + 2:] == printed:
                return True
    return False


def _dropped(printed: str, read: str) -> bool:
    return len(read) == len(printed) - 1 and any(printed[:at] + printed[at + 1:] == read for at in range(len(printed)))


def _letters(token: str) -> int:
    return sum(ch.isalnum() for ch in token)


def classify(printed: list[str], read: list[str]) -> Counter[str]:
    """The errors of the `read` words against the `printed` words, by class (see the module's docstring)."""
    errors: Counter[str] = Counter()
    matcher = difflib.SequenceMatcher(None, printed, read, autojunk=False)
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal":
            continue
        errors.update(_stretch(printed[i1:i2], read[j1:j2]))
    return errors


def _stretch(printed: list[str], read: list[str]) -> Counter[str]:
    errors: Counter[str] = Counter()
    i = j = 0
    while i < len(printed) and j < len(read):
        p, r = printed[i], read[j]
        if i + 1 < len(printed) and p + printed[i + 1] == r:
            errors["glued-short" if min(_letters(p), _letters(printed[i + 1])) <= SHORT else "glued"] += 1
            i, j = i + 2, j + 1
        elif j + 1 < len(read) and r + read[j + 1] == p:
            errors["split"] += 1
            i, j = i + 1, j + 2
        else:
            if _lookalike(p, r):
                errors["lookalike"] += 1
            elif _dropped(p, r):
                errors["dropped"] += 1
            elif _bare(p) == _bare(r):
                errors["marks"] += 1
            else:
                errors["other"] += 1
            i, j = i + 1, j + 1
    errors["other"] += max(len(printed) - i, len(read) - j)
    return errors


@dataclass
class Tally(Score):
    """A soft scan's score (`softscans.Score`) and the words compared in it."""

    words: int = 0


def _words(question: Question) -> list[str]:
    return " ".join(normalize_text(t) for t in (question.question, *question.choices)).replace("**", "").split()


def compare(printed: dict[str, Question], read: dict[str, Question]) -> tuple[Tally, Counter[str], list[tuple[str, str]]]:
    tally, errors = Tally(), Counter[str]()
    shown: list[tuple[str, str]] = []
    for number, truth in printed.items():
        tally.questions += 1
        tally.options += len(truth.choices)
        record = read.get(number)
        if record is None:
            continue
        tally.found += 1
        tally.options_exact += sum(normalize_text(a) == normalize_text(b) for a, b in zip(truth.choices, record.choices))
        printed_words, read_words = _words(truth), _words(record)
        tally.words += len(printed_words)
        errors.update(classify(printed_words, read_words))
        matcher = difflib.SequenceMatcher(None, printed_words, read_words, autojunk=False)
        shown.extend((" ".join(printed_words[i1:i2]), " ".join(read_words[j1:j2]))
                     for op, i1, i2, j1, j2 in matcher.get_opcodes() if op != "equal")
    return tally, errors, shown


def measure(out: Path, sheet: Sheet, scan: ScanSetting, disabled: tuple[str, ...]
            ) -> tuple[Tally, Counter[str], list[tuple[str, str]]]:
    the_spec = load_spec(sheet.spec)
    source = CORPUS / sheet.folder
    facts = dict(sheet.facts)
    stretch = _pages_of(source / sheet.booklet, out / sheet.name / "text" / sheet.booklet, sheet.pages)
    scans = out / sheet.name / scan.folder()
    scans.mkdir(parents=True, exist_ok=True)
    for clean in (stretch, source / sheet.key):
        if not (scans / clean.name).is_file():
            scan.rasterise(clean, scans / clean.name)
    plain = ExtractOptions.from_spec(the_spec)
    options = ExtractOptions.from_spec(the_spec, ocr_cache_dir=str(out / "cache"))
    options = replace(options, ocr=replace(options.ocr, disabled_passes=tuple(options.ocr.disabled_passes) + disabled))
    printed = {n: q for n, q in _printed(stretch, None, sheet.spec, sheet.facts).items() if q.choices}
    tally, errors, shown = compare(printed, _records_of(scans / stretch.name, None, the_spec, facts, options))
    whole = source / sheet.booklet
    keyed = _printed(whole, source / sheet.key, sheet.spec, sheet.facts)
    read = _records_of_key_scan(whole, scans / sheet.key, the_spec, facts, plain, options)
    for number, truth in keyed.items():
        if truth.answer:
            tally.answers += 1
            tally.answers_right += number in read and read[number].answer == truth.answer
    return tally, errors, shown


def measure_generated(out: Path, name: str, scan: ScanSetting, disabled: tuple[str, ...]
                      ) -> tuple[Tally, Counter[str], list[tuple[str, str]]]:
    """A generated family's sheet and key, scanned at `scan`, against what was printed."""
    folder = out / f"generated-{name}" / scan.folder()
    family = next((f for f in (*scriptscans.TUNING, *scriptscans.CHECKING) if f.name == name), None)
    questions: Any
    if family is not None:
        vocabulary = scriptscans._vocabulary(family)
        questions = scriptscans.printed_questions(family, vocabulary)
        the_spec, seed = scriptscans.family_spec(family), family.seed
        clean = [lambda path: scriptscans.sheet_pdf(path, family, questions), lambda path: scriptscans.key_pdf(path, family, questions, vocabulary)]
    else:
        generated = next(f for f in (*ocrcertainty.CALIBRATION, *ocrcertainty.HELD_OUT) if f.name == name)
        words = ocrcertainty._vocabulary(generated.tesseract, ocrcertainty.random.Random(generated.seed))
        questions = ocrcertainty.printed_questions(generated, words)
        the_spec, seed = ocrcertainty._spec(generated), generated.seed
        clean = [lambda path: ocrcertainty._sheet_pdf(path, generated, questions), lambda path: ocrcertainty._key_pdf(path, generated, questions, words)]
    sheet, key = folder / "sheet.pdf", folder / "key.pdf"
    if not key.is_file():
        folder.mkdir(parents=True, exist_ok=True)
        for target, make in zip((sheet, key), clean):
            scan.rasterise(make(target.with_suffix(".text.pdf")), target, seed=seed)
    options = ExtractOptions.from_spec(the_spec, ocr_cache_dir=str(out / "cache"))
    options = replace(options, ocr=replace(options.ocr, disabled_passes=tuple(options.ocr.disabled_passes) + disabled))
    read = _records_of(sheet, key, the_spec, {"year": "2031"}, options)
    printed = {q.number: replace(next(iter(read.values()), None) or _blank(), number=q.number, question=q.stem, choices=list(q.options),
                                 answer=q.answer) for q in questions} if read else {}
    tally, errors, shown = compare(printed, read)
    tally.questions = len(questions)
    tally.options = sum(len(q.options) for q in questions)
    for q in questions:
        tally.answers += 1
        tally.answers_right += q.number in read and read[q.number].answer == q.answer
    return tally, errors, shown


def _blank() -> Question:
    raise LookupError("no question read")


def line(tally: Tally, errors: Counter[str]) -> str:
    def share(a: int, b: int) -> str:
        return f"{a / b:6.1%}" if b else "     –"
    classes = " ".join(f"{name} {errors[name]:3d}" for name in CLASSES)
    return (f"words {tally.words:5d} errors {sum(errors.values()):4d} ({share(sum(errors.values()), tally.words)})  {classes}"
            f"  recall {share(tally.found, tally.questions)} options {share(tally.options_exact, tally.options)}"
            f" answers {share(tally.answers_right, tally.answers)}")


def _report(label: str, measured: list[tuple[str, Callable[..., tuple[Tally, Counter[str], list]]]], scans: list[ScanSetting],
            disabled: tuple[str, ...], show: bool, punct: bool = False) -> None:
    """One line per sheet and scan, then the set's total; with `show`, each differing stretch under its line; with
    `punct`, the punctuation differences of the stretches by class (`punctkinds`) under it."""
    total, total_errors, total_marks = Tally(), Counter[str](), Counter[str]()
    for name, measure_one in measured:
        for scan in scans:
            tally, errors, shown = measure_one(scan, disabled)
            total.add(tally)
            total_errors.update(errors)
            print(f"{label}{name:20} {scan}  {line(tally, errors)}", flush=True)
            if punct:
                marks = sum((punctkinds.classify(printed, read) for printed, read in shown), Counter[str]())
                total_marks.update(marks)
                print(f"    punctuation {sum(marks.values())}: {punctkinds.table_row(marks)}", flush=True)
            for printed, read in shown if show else ():
                print(f"    {printed!r} → {read!r}")
    print(f"{label}{'all':20} {'':11}  {line(total, total_errors)}", flush=True)
    if punct:
        print(f"    punctuation {sum(total_marks.values())}: {punctkinds.table_row(total_marks)}", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m pipeline.devkit.misreads", description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--set", choices=[*SETS, "generated", "all"], default="all")
    parser.add_argument("--sheets", default="", help="sheet names, comma-separated (default: every sheet of the set)")
    parser.add_argument("--scans", default=SCANS, help="dpi/blur/jpeg, comma-separated")
    parser.add_argument("--disable", default="", help="passes left out, comma-separated")
    parser.add_argument("--show", action="store_true", help="every differing stretch: printed → read")
    parser.add_argument("--punct", action="store_true", help="under each line, its punctuation differences by class (`punctkinds`)")
    args = parser.parse_args(argv)
    scans = ScanSetting.parse_list(args.scans)
    disabled = tuple(p for p in args.disable.split(",") if p)
    chosen = {s for s in args.sheets.split(",") if s}
    for set_name in SETS if args.set == "all" else [args.set] if args.set in SETS else []:
        present = sheets_in_corpus(set_name, SETS[set_name], args.sheets)
        _report(f"{set_name:8} ", [(sheet.name, functools.partial(measure, args.out, sheet)) for sheet in present], scans, disabled, args.show, args.punct)
    if args.set in ("generated", "all"):
        generated = [name for name in GENERATED if not chosen or name in chosen]
        _report(f"{'generated':9}", [(name, functools.partial(measure_generated, args.out, name)) for name in generated], scans, disabled, args.show, args.punct)
    return 0


if __name__ == "__main__":
    sys.exit(main())
