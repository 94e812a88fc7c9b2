"""Ring labels (①–⑤, Noto Sans CJK, Hangul words) read at confidence 0, and what reads them again.

- `lone-rereads` finds a ring label's ring by its shape around the word's box and reads its digit inside it: a ring
  label every reading reads alike is lifted out of unsure. On scriptscans' ko-column sheet at 300 dpi, blur 0.8, four
  option labels `⑤` reach it at 0: rings `label-rings` found but its stacked reading left unread, each labelled by its
  place in the sequence at 0 (`ringsequence.by_sequence`); without the pass each stays unsure on the page.
- `list-cells` reads a list key's ringed answers by the ring found by its shape on the page before its light greys
  were whitened (`labelrings.read_ring_cells`). Before it did (main `ad67599`), Tesseract boxed this key's thin rings
  short of the ring, by the digit alone, the ring digit was read at 0, and `lone-rereads` was what lifted them: the
  key's fault is shown by the shape reading withheld (`cellreads.read_ring_cells` finding no ring), and none is left
  to `lone-rereads` with it.

Generated sheets and keys, scanned, read as a season run reads them. (The scans that show a fault depend on the
grain's seed.)"""
from __future__ import annotations

import hashlib
from dataclasses import replace
from pathlib import Path

import pytest

import pipeline.extract.ocr.cellreads as cellreads
import pipeline.extract.ocr.wordpasses as wordpasses
from pipeline.devkit import scriptscans
from pipeline.devkit.keyscans import same_answer
from pipeline.devkit.sample.scansetting import ScanSetting
from pipeline.extract import ExtractOptions, extract_document
from pipeline.parse import read_list
from pipeline.parse.certainty import unsure_key_entries
from pipeline.specs.model import OcrPassesSpec
from tests.pipeline.extract.ocr.builders import needs_tesseract

CIRCLED = scriptscans.CIRCLED
# `①` the most often: its thin digit is the one Tesseract boxed alone (an 8 px box in a 42 px ring).
ANSWERS = ("①", "②", "①", "③", "①", "④", "①", "⑤", "①", "②", "①", "③", "①", "④", "①", "⑤")


def _read(scan: Path, spec, disable: tuple[str, ...], shapes: bool) -> tuple[list[tuple[str, float]], object]:
    """The ring labels handed to `lone-rereads` under its `unsure_below` (text, confidence), and the document read
    with the passes `disable` names turned off in the spec (`shapes` False: no ring of a key's cell found by shape)."""
    handed: list[tuple[str, float]] = []
    reread = wordpasses.reread_short_words

    def watched(words, grey, labels, unsure_below, read, **kwargs):
        handed.extend((w.text, w.conf) for w in words if 0 <= w.conf < unsure_below and w.text in CIRCLED)
        return reread(words, grey, labels, unsure_below, read, **kwargs)

    if disable:
        spec = spec.model_copy(update={"ocr": spec.ocr.model_copy(update={"passes": OcrPassesSpec(disable=list(disable))})})
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(wordpasses, "reread_short_words", watched)
        if not shapes:
            patch.setattr(cellreads, "read_ring_cells", lambda grey, boxes, *args: [None] * len(boxes))
        document = extract_document(scan, hashlib.sha256(scan.read_bytes()).hexdigest(), ExtractOptions.from_spec(spec))
    return handed, document


def _unsure_rings_of(line) -> list[str]:
    return [w for w in line.unsure_words if any(c in w for c in CIRCLED)]


def _unsure_rings(document) -> list[str]:
    return [w for page in document.pages for line in page.lines for w in _unsure_rings_of(line)]


def ring_key(folder: Path, setting: ScanSetting, seed: int, *, shapes: bool = True) -> tuple[dict[str, str], list[tuple[str, float]],
                                                                                             dict[str, str], list[str], dict[str, list[str]]]:
    """The key's printed answers; the ring labels handed to `lone-rereads` unsure; the answers read; the ring labels
    left unsure on the page; the unsure key entries."""
    family = replace(next(f for f in scriptscans.TUNING if f.name == "ko-column"), questions=len(ANSWERS), seed=seed)
    vocabulary = scriptscans._vocabulary(family)
    questions = [replace(q, answer=answer) for q, answer in zip(scriptscans.printed_questions(family, vocabulary), ANSWERS)]
    key = setting.rasterise(scriptscans.key_pdf(folder / "key.pdf", family, questions, vocabulary), folder / "scan.pdf", seed=seed)
    spec = scriptscans.family_spec(family)
    handed, document = _read(key, spec, (), shapes)
    return ({q.number: q.answer for q in questions}, handed, read_list(document, spec.key, key.name).answers, _unsure_rings(document),
            unsure_key_entries([document], spec.key.entry))


@needs_tesseract("kor")
def test_ring_labels_read_at_zero_are_read_inside_their_ring_and_not_left_unsure(tmp_path):
    family = next(f for f in scriptscans.TUNING if f.name == "ko-column")
    questions, sheet, _ = scriptscans.write_sheet(tmp_path, family)
    scan = ScanSetting(300, 0.8, 85).rasterise(sheet, tmp_path / "scan.pdf", seed=family.seed)
    spec = scriptscans.family_spec(family)
    # The fault: without the pass, ring labels read at 0 stay unsure on the page (four `⑤` on this sheet).
    _, document = _read(scan, spec, ("lone-rereads",), True)
    unsure_lines = [line.text for page in document.pages for line in page.lines if _unsure_rings_of(line)]
    assert unsure_lines, "no ring label left unsure without lone-rereads: the scan does not show the fault"
    # As shipped, each of them is handed to the pass, read inside its ring found by shape, and lifted; each is the label
    # printed before the option its line holds.
    handed, document = _read(scan, spec, (), True)
    assert len(handed) >= len(unsure_lines), (handed, unsure_lines)
    assert _unsure_rings(document) == [], _unsure_rings(document)
    lines = [line.text for page in document.pages for line in page.lines]
    for text in unsure_lines:
        assert text in lines, (text, lines)
        printed = {label for q in questions for label, option in zip(family.labels, q.options) if text.split()[-1] in option.split()}
        assert text[0] in printed, (text, printed)


@needs_tesseract("kor")
@pytest.mark.parametrize(("setting", "seed"), [(ScanSetting(300, 0.8, 85), 91), (ScanSetting(150, 0.8, 75), 93)],
                         ids=["300-0.8-85", "150-0.8-75"])
def test_a_list_keys_rings_boxed_by_their_digit_are_read_by_their_shape_and_none_is_left_unsure(tmp_path, setting, seed):
    # The fault: with no ring found by its shape (main `ad67599`: list-cells looked for none), Tesseract's box of the
    # digit alone left six `①` and a `⑤` of this key at 0 at 300 dpi, blur 0.8, and a `①` at 150 dpi, blur 0.8.
    _, handed, _, _, _ = ring_key(tmp_path / "digits", setting, seed, shapes=False)
    assert handed, "no ring label read unsure without the rings' shapes: the scan does not show the fault"
    # As shipped, `list-cells` reads each ring by its shape: every entry right and sure, none left to `lone-rereads`.
    printed, handed, read, unsure_rings, unsure_entries = ring_key(tmp_path / "shapes", setting, seed)
    assert handed == [], handed
    assert all(same_answer(read.get(n, ""), answer) for n, answer in printed.items()), read
    assert unsure_rings == [] and unsure_entries == {}, (unsure_rings, unsure_entries)


GREY_PAPER = ScanSetting.parse_list("240/0.65/86/0/p205")[0]  # the paper at 205: every pixel darker than the ring level on white


@needs_tesseract("kor")
def test_a_list_keys_rings_on_grey_paper_are_found_by_their_shape_as_on_white(tmp_path):
    # Before the page was lifted to white for them (`ringshapes.on_white` in `read_ring_cells`), the ring search on paper
    # at 205 saw one piece of ink: no ring was found, and seven `①` of this key were read at 0 and left unsure.
    printed, handed, read, unsure_rings, unsure_entries = ring_key(tmp_path, GREY_PAPER, 91)
    assert handed == [], handed
    assert all(same_answer(read.get(n, ""), answer) for n, answer in printed.items()), read
    assert unsure_rings == [] and unsure_entries == {}, (unsure_rings, unsure_entries)


@needs_tesseract("kor")
def test_lone_rereads_finds_a_ring_on_grey_paper_and_lifts_its_label(tmp_path):
    # The key's rings not read by shape (withheld), seven `①` reach `lone-rereads` at 0; before its ring search looked on
    # the page lifted to white, on paper at 205 it found no ring and every one of them stayed unsure.
    printed, handed, read, unsure_rings, unsure_entries = ring_key(tmp_path, GREY_PAPER, 91, shapes=False)
    assert handed, "no ring label read unsure without the rings' shapes: the scan does not show the fault"
    assert all(same_answer(read.get(n, ""), answer) for n, answer in printed.items()), read
    assert unsure_rings == [] and unsure_entries == {}, (unsure_rings, unsure_entries)
