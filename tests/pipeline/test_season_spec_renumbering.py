"""A spec change that moves numbers on an unchanged sheet (issues 25/29: nothing lost silently, nothing misattached).

The sheet prints each question's number in its part and its running number (`Zadanie 1 (3).`). The first spec reads
the part's number as the question's; the corrected spec reads the running one. The sheet's bytes do not change, yet
every id names another question: `…:3` was the third question and is now the first. A curator's correction made under
the first spec follows the question it was made on (found by what extraction read before the correction), never stays
with the id that now names another question; one whose question is read by no record now is dropped with a line.
Real generated sheets and keys, real `examcorpus extract` runs with the two specs, the audit page's correction store.
"""
from __future__ import annotations

import json
from pathlib import Path

from pipeline.devkit.sample.pdfgen import ImageBox, PageSpec, TextBox, build_pdf, item_bottom
from pipeline.review import CorrectionStore
from pipeline.specs import spec_path
from tests.pipeline.season_sheets import KEY_NAME, SHEET_NAME, SheetQuestion, key_pdf, sheet_pdf
from tests.pipeline.test_season import curated
from tests.pipeline.test_season_revisions import (FUSE, LAMP, OHM, SERIES, TITLE, accept_a_description, circuit_png,
                                                 overrides_said)

SHEET = SHEET_NAME.format(q="ele02", year=2023, session="czerwiec")
KEY = KEY_NAME.format(q="ele02", year=2023, session="czerwiec")
PART_NUMBER = r"^Zadanie\s+(?P<number>\d{1,3})\s+\(\d{1,3}\)\.?\s*$"
RUNNING_NUMBER = r"^Zadanie\s+\d{1,3}\s+\((?P<number>\d{1,3})\)\.?\s*$"


def spec_reading(folder: Path, question_start: str) -> Path:
    """The shipped sample spec with `layout.question_start` replaced: the same family (`sample_pl`), another reading."""
    text = spec_path("sample_pl").read_text(encoding="utf-8")
    line = next(line for line in text.splitlines() if line.strip().startswith("question_start:"))
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "sample_pl.yaml"
    path.write_text(text.replace(line, f"  question_start: '{question_start}'"), encoding="utf-8")
    return path


def extract(root: Path, spec: Path, folder: Path) -> int:
    from pipeline.cli import main as examcorpus

    return examcorpus(["extract", "--source", str(spec), "--from", str(folder), "--root", str(root), "--no-progress",
                       "--workers", "1"])


def test_corrections_follow_their_questions_when_a_spec_change_renumbers_an_unchanged_sheet(project_root, tmp_path):
    folder = tmp_path / "season"
    folder.mkdir()
    questions = [SheetQuestion(f"{n} ({n + 2})", q.stem, q.options) for n, q in enumerate([OHM, SERIES, FUSE, LAMP], 1)]
    sheet_pdf(folder / SHEET, TITLE, questions)
    key_pdf(folder / KEY, [(str(n), "ABCD"[n % 4]) for n in range(1, 7)])  # both numberings' entries
    sheet_bytes = (folder / SHEET).read_bytes()

    assert extract(project_root, spec_reading(tmp_path / "v1", PART_NUMBER), folder) == 0
    first = {q.number: q for q in curated(project_root)}
    assert {n: q.question for n, q in first.items()} == {"1": OHM.stem, "2": SERIES.stem, "3": FUSE.stem, "4": LAMP.stem}
    store = CorrectionStore.open(project_root, {q.id: q for q in first.values()})
    store.correct(first["3"].id, annotator="Ola", version=0, question="Co chroni obwód przed zwarciem?",
                  choices=list(FUSE.options), answer="A", broken=False, note="the key's D is wrong")
    store.correct(first["4"].id, annotator="Ola", version=0, question="Która żarówka jest najoszczędniejsza?",
                  choices=list(LAMP.options), answer="A", broken=False)

    # The corrected spec reads the running numbers: the sheet is byte for byte the same, every id moves by two.
    assert extract(project_root, spec_reading(tmp_path / "v2", RUNNING_NUMBER), folder) == 0
    assert (folder / SHEET).read_bytes() == sheet_bytes
    now = {q.number: q for q in curated(project_root)}
    assert now["3"].source_sha256 == first["3"].source_sha256
    # …:3 and …:4 name the ohm and ammeter questions now: they keep what they read, not the fuse and lamp corrections.
    assert (now["3"].question, now["4"].question) == (OHM.stem, SERIES.stem)
    assert (now["5"].question, now["5"].answer) == ("Co chroni obwód przed zwarciem?", "A")
    assert (now["6"].question, now["6"].answer) == ("Która żarówka jest najoszczędniejsza?", "A")
    lines = overrides_said(project_root)
    assert any(line.startswith(f"override of {first['3'].id} by Ola (") and f"carried to {now['5'].id}: the sheet is "
               "unchanged but its question is read as" in line for line in lines), lines
    assert not any(f"override of {now['3'].id} " in line and "applied" in line for line in lines), lines

    # A spec reading that no record reads as the corrected question (the stems cut short): dropped, and said, never
    # applied to the question under the old number.
    cut = spec_reading(tmp_path / "v3", PART_NUMBER).read_text(encoding="utf-8").replace(
        "  drop_lines:\n", "  drop_lines:\n    - '^Które urządzenie chroni obwód przed skutkami zwarcia\\?$'\n")
    (tmp_path / "v3" / "sample_pl.yaml").write_text(cut, encoding="utf-8")
    assert extract(project_root, tmp_path / "v3" / "sample_pl.yaml", folder) == 0
    third = {q.number: q for q in curated(project_root)}
    assert third["3"].question != "Co chroni obwód przed zwarciem?"  # the fuse question, read without its stem
    [dropped] = [line for line in overrides_said(project_root) if line.startswith(f"override of {first['3'].id} ")]
    assert "dropped: the sheet is unchanged" in dropped and "no record of this run reads as the question corrected" in dropped
    assert third["4"].question == "Która żarówka jest najoszczędniejsza?"  # its own question again, where it was made


def figured_sheet(folder: Path) -> None:
    """Page 1: three questions; page 2: the fourth with a drawn circuit, each header printing both numbers."""
    items, y = [TextBox(TITLE, 20, 15, 170, size=12, bold=True)], 30.0
    for n, question in enumerate([OHM, SERIES, FUSE], 1):
        for text in [f"Zadanie {n} ({n + 2}).", question.stem, *(f"{l}. {o}" for l, o in zip("ABCD", question.options))]:
            box = TextBox(text, 20, y, 170, size=11)
            items.append(box)
            y = item_bottom(box) + 1.5
        y += 4
    page_two = [TextBox("Zadanie 4 (6).", 20, 20, 170, size=11), TextBox(LAMP.stem, 20, 27, 170, size=11),
                ImageBox(60, 40, 90, circuit_png()),
                *(TextBox(f"{l}. {o}", 20, 100 + 7 * i, 170, size=11) for i, (l, o) in enumerate(zip("ABCD", LAMP.options)))]
    folder.mkdir(parents=True, exist_ok=True)
    build_pdf(folder / SHEET, [PageSpec(tuple(items)), PageSpec(tuple(page_two))])
    key_pdf(folder / KEY, [(str(n), "ABCD"[n % 4]) for n in range(1, 7)])


def test_an_accepted_description_follows_its_figure_when_a_spec_change_renumbers_an_unchanged_sheet(project_root, tmp_path):
    folder = tmp_path / "season"
    figured_sheet(folder)
    assert extract(project_root, spec_reading(tmp_path / "v1", PART_NUMBER), folder) == 0
    first = {q.number: q for q in curated(project_root)}
    image, _ = accept_a_description(project_root, first["4"], "Obwód: źródło i dwa oporniki.")

    assert extract(project_root, spec_reading(tmp_path / "v2", RUNNING_NUMBER), folder) == 0
    now = {q.number: q for q in curated(project_root)}
    assert [img.sha256 for img in now["6"].images] == [image.sha256]
    assert now["6"].image_description == "Obwód: źródło i dwa oporniki." and now["6"].reviewed_by == "Ala"
    assert now["4"].question == SERIES.stem and now["4"].image_description is None  # …:4 names the ammeter question now
    descriptions = json.loads((project_root / "curated" / "reports" / "sample_pl.json").read_text(encoding="utf-8"))["descriptions"]
    assert f"{first['4'].id}: accepted description of figure {image.sha256[:12]}… carried to {now['6'].id}, the one record " \
           "holding that figure now" in descriptions
