"""Japanese and Chinese sheets (`sample.cjksheets`) read by their specs, on the text layer and scanned.

    python -m pipeline.devkit.cjkscans --out /tmp/cjk [--families ja,ja-kana,zh,zh-wide] [--scans 200/0.6/80] [--show]

Each family's sheet and key are generated with a text layer, read by the family's spec (`sample/cjkspecs/`), then
scanned at each setting (sheet and key alike) and read again through OCR. Per sheet and path: questions found (of
those printed), options read exactly (every option's text, white space aside, of the questions with options) and
answers right (of the questions keyed), as counts and percentages; options also "up to width": exact once full-width
forms are folded on both sides (Tesseract reads `７１０年` as `710年`: the form is lost, the text is not).
"""
from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path

from pipeline.devkit.sample.cjksheets import CJK_SPECS, KANA, WIDE_CAPITALS, CjkSet, chinese_gaokao, japanese_center
from pipeline.devkit.sample.scansetting import ScanSetting
from pipeline.devkit.scriptscans import read_records
from pipeline.records import Question
from pipeline.specs import load_spec
from pipeline.widths import fold_width

FAMILIES = {
    "ja": ("ja_center_test", japanese_center, {}),
    "ja-kana": ("ja_center_kana_test", japanese_center, {"labels": KANA}),
    "zh": ("zh_gaokao_test", chinese_gaokao, {}),
    "zh-wide": ("zh_gaokao_test", chinese_gaokao, {"labels": WIDE_CAPITALS}),
}


@dataclass
class Score:
    questions: int = 0
    found: int = 0
    with_options: int = 0
    options_exact: int = 0
    options_folded: int = 0  # exact once full-width forms are folded (OCR reads `７１０年` as `710年`)
    keyed: int = 0
    answers: int = 0

    def text(self) -> str:
        def part(n: int, d: int) -> str:
            return f"{n:2}/{d:<2} {100 * n / d if d else 0:5.1f} %"
        return (f"questions {part(self.found, self.questions)}   options exact {part(self.options_exact, self.with_options)}   "
                f"up to width {part(self.options_folded, self.with_options)}   answers {part(self.answers, self.keyed)}")


def _plain(text: str) -> str:
    return " ".join(text.split())


def score(printed: CjkSet, spec_labels: list[str], records: dict[str, Question], show: bool, where: str) -> Score:
    result = Score()
    for number, truth in printed.expected().items():
        result.questions += 1
        found = records.get(number)
        result.found += found is not None
        if truth.options:
            result.with_options += 1
            exact = found is not None and [_plain(c) for c in found.choices] == [_plain(o) for o in truth.options]
            result.options_exact += exact
            result.options_folded += found is not None and [fold_width(_plain(c)) for c in found.choices] == [
                fold_width(_plain(o)) for o in truth.options]
            if show and not exact:
                print(f"  {where} {number} options: {found.choices if found else None} (printed {list(truth.options)})")
        if truth.answer is not None:
            result.keyed += 1
            want = spec_labels[printed.labels.index(truth.answer)]
            right = found is not None and found.answer == want
            result.answers += right
            if show and not right:
                print(f"  {where} {number} answer: {found.answer if found else None} (key {want})")
    return result


def measure(out: Path, family: str, scans: list[ScanSetting], show: bool) -> list[str]:
    name, build, printing = FAMILIES[family]
    spec = load_spec(str(CJK_SPECS / f"{name}.yaml"))
    labels = list(spec.layout.options.labels)
    printed = build(out / family / "text" / "2031", **printing)
    lines = [f"{family:8} {'text layer':18} {score(printed, labels, read_records(printed.sheet, printed.key, None, the_spec=spec), show, 'text').text()}"]
    for setting in scans:
        folder = out / family / setting.folder() / "2031"
        folder.mkdir(parents=True, exist_ok=True)
        for clean in (printed.sheet, printed.key):
            setting.rasterise(clean, folder / clean.name, seed=0)
        records = read_records(folder / "sheet.pdf", folder / "key.pdf", None, cache=out / "cache", the_spec=spec)
        lines.append(f"{family:8} {setting.label():18} {score(printed, labels, records, show, setting.label()).text()}")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m pipeline.devkit.cjkscans", description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--out", type=Path, required=True, help="work folder: generated sheets, scans and the OCR cache")
    parser.add_argument("--families", default=",".join(FAMILIES), help="comma-separated, of " + ", ".join(FAMILIES))
    parser.add_argument("--scans", default="200/0.6/80", help="scan settings (dpi/blur/jpeg[/tilt…]), comma-separated; '' for none")
    parser.add_argument("--show", action="store_true", help="print every option and answer read wrong")
    args = parser.parse_args(argv)
    scans = ScanSetting.parse_list(args.scans) if args.scans else []
    for family in filter(None, args.families.split(",")):
        for line in measure(args.out, family, scans, args.show):
            print(line, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
