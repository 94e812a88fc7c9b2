"""Extraction fidelity on the real sheets of ../shared/corpus, by the text-layer path and again by the
OCR path (the same sheets and keys rasterised to image-only PDFs at 200 dpi with noise and blur):
question recall and precision, option text exact match and answer accuracy per sheet, and the gap
between the two paths. Skipped when the corpus is absent."""
from __future__ import annotations

import tempfile
import time
from pathlib import Path

from pipeline.devkit.fidelity import read_truth, score_sheet
from pipeline.season import RunOptions, run_source
from pipeline.specs import load_spec
from tests.bench.rasterize_corpus import rasterize_folder
from tests.fixtures.corpus import CORPUS, FAMILIES, truth_paths


def _scores(family, folder: Path, scratch: Path):
    root = scratch / "root"
    result = run_source(load_spec(family.spec), RunOptions(root=root, from_dir=folder, show_progress=False))
    truths = [t for path in truth_paths(family, folder, scratch) for t in read_truth(path)]
    return [score_sheet(truth, result.questions) for truth in truths], result.report.totals()


def _pooled(scores, attr_num: str, attr_den: str) -> float:
    den = sum(getattr(s, attr_den) for s in scores)
    return sum(getattr(s, attr_num) for s in scores) / den if den else 1.0


def main() -> None:
    if not CORPUS.is_dir():
        print(f"skipped: no corpus at {CORPUS}")
        return
    header = f"{'sheet':<44}{'path':<6}{'truth':>6}{'found':>6}{'recall':>8}{'precis.':>8}{'options':>9}{'answers':>9}"
    print(header)
    pooled: dict[str, list] = {"text": [], "ocr": []}
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        for family in FAMILIES:
            source = CORPUS / family.folder
            scanned = tmp / "scans" / family.folder
            rasterize_folder(source, scanned)
            for path_name, folder in (("text", source), ("ocr", scanned)):
                started = time.perf_counter()
                scores, totals = _scores(family, folder, tmp / path_name / family.spec)
                seconds = time.perf_counter() - started
                pooled[path_name] += scores
                for s in scores:
                    print(f"{s.name[-43:]:<44}{path_name:<6}{s.truth:>6}{s.extracted:>6}{s.recall:>8.1%}"
                          f"{s.precision:>8.1%}{s.option_exact:>9.1%}{s.answer_accuracy:>9.1%}")
                print(f"{'':<44}{path_name:<6}  {totals['pages']} pages ({totals['ocr_pages']} OCR) in {seconds:.1f}s")
    print()
    print(f"{'pooled over all sheets':<44}{'path':<6}{'recall':>8}{'options':>9}{'answers':>9}")
    figures = {}
    for path_name, scores in pooled.items():
        figures[path_name] = (
            _pooled(scores, "matched", "truth"),
            _pooled(scores, "options_exact", "options_total"),
            _pooled(scores, "answers_right", "answers_total"),
        )
        recall, options, answers = figures[path_name]
        print(f"{'':<44}{path_name:<6}{recall:>8.1%}{options:>9.1%}{answers:>9.1%}")
    gaps = [100 * (t - o) for t, o in zip(figures["text"], figures["ocr"])]
    print(f"OCR path behind the text path by {gaps[0]:.1f} / {gaps[1]:.1f} / {gaps[2]:.1f} points "
          f"(recall / options / answers); goal ≤ 3 points")
