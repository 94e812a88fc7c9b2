"""A scanned list key of circled numbers (`<word> 7: ①`, Hangul heading, Noto Sans CJK) whose thin rings Tesseract
boxed short of the ring, by the digit alone, and read at confidence 0: `lone-rereads` finds each such entry's ring by
its shape around the box and reads its digit inside it, so a ring read right is no longer unsure. Generated keys,
scanned at two settings (the fault shows at each: ring labels read under 40 before the pass), read as a season run
reads them; the key's entries are then each read right and none is left unsure on the page. (The scans that show the
fault depend on the grain's seed: at 200 dpi, blur 0.6, this key's rings were all read sure.)"""
from __future__ import annotations

import hashlib
from dataclasses import replace
from pathlib import Path

import pytest

import pipeline.extract.ocr.wordpasses as wordpasses
from pipeline.devkit import scriptscans
from pipeline.devkit.keyscans import same_answer
from pipeline.devkit.sample.scansetting import ScanSetting
from pipeline.extract import ExtractOptions, extract_document
from pipeline.parse import read_list
from pipeline.parse.certainty import unsure_key_entries
from tests.pipeline.extract.ocr.builders import needs_tesseract

CIRCLED = scriptscans.CIRCLED
# `①` the most often: its thin digit is the one Tesseract boxed alone (an 8 px box in a 42 px ring).
ANSWERS = ("①", "②", "①", "③", "①", "④", "①", "⑤", "①", "②", "①", "③", "①", "④", "①", "⑤")


def ring_key(folder: Path, setting: ScanSetting, seed: int = 91) -> tuple[dict[str, str], list[tuple[str, float]], dict[str, str],
                                                                          list[str], dict[str, list[str]]]:
    """The key's printed answers; the ring labels Tesseract read under `unsure_below` as `lone-rereads` was handed them
    (text, confidence); the answers read; the ring labels left unsure on the page; the unsure key entries."""
    family = replace(next(f for f in scriptscans.TUNING if f.name == "ko-column"), questions=len(ANSWERS), seed=seed)
    vocabulary = scriptscans._vocabulary(family)
    questions = [replace(q, answer=answer) for q, answer in zip(scriptscans.printed_questions(family, vocabulary), ANSWERS)]
    clean = scriptscans.key_pdf(folder / "key.pdf", family, questions, vocabulary)
    key = setting.rasterise(clean, folder / "scan.pdf", seed=seed)
    spec = scriptscans.family_spec(family)
    handed: list[tuple[str, float]] = []
    reread = wordpasses.reread_short_words

    def watched(words, grey, labels, unsure_below, read, **kwargs):
        handed.extend((w.text, w.conf) for w in words if 0 <= w.conf < unsure_below and w.text in CIRCLED)
        return reread(words, grey, labels, unsure_below, read, **kwargs)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(wordpasses, "reread_short_words", watched)
        document = extract_document(key, hashlib.sha256(key.read_bytes()).hexdigest(), ExtractOptions.from_spec(spec))
    unsure_rings = [w for page in document.pages for line in page.lines for w in line.unsure_words if any(c in w for c in CIRCLED)]
    return ({q.number: q.answer for q in questions}, handed, read_list(document, spec.key, key.name).answers, unsure_rings,
            unsure_key_entries([document], spec.key.entry))


@needs_tesseract("kor")
@pytest.mark.parametrize(("setting", "seed"), [(ScanSetting(300, 0.8, 85), 91), (ScanSetting(150, 0.8, 75), 93)],
                         ids=["300-0.8-85", "150-0.8-75"])
def test_ring_entries_boxed_by_their_digit_are_read_inside_their_ring_and_not_left_unsure(tmp_path, setting, seed):
    # Before the pass, Tesseract read six `①` and a `⑤` of this key at 0 at 300 dpi, blur 0.8, and a `①` at 150 dpi,
    # blur 0.8 (main `a843eba` left each of them unsure: its crop of the digit's box held arcs of the ring).
    printed, handed, read, unsure_rings, unsure_entries = ring_key(tmp_path, setting, seed)
    assert handed, "no ring label read unsure: the scan does not show the fault"
    assert all(same_answer(read.get(n, ""), answer) for n, answer in printed.items()), read
    assert unsure_rings == [] and unsure_entries == {}, (handed, unsure_rings, unsure_entries)
