"""Curated work across a new revision of a sheet (issues 27/29, nothing lost silently, a third sweep).

The sheet is replaced at its address by a revision with other bytes: one question added in the middle (every later
question's number, and so its id, moves by one) and one question's stem changed by a word. A curator's correction
follows the question it was made on, found by what extraction read before the correction (text and options), never
stays with the id now naming another question; a correction whose question reads otherwise is dropped with a line
saying so. An accepted figure description follows its figure (the very pixels) to the one record holding it now.
Real generated sheets and keys, real `examcorpus extract` runs, the audit page's real correction store and the review
page's real decision log.
"""
from __future__ import annotations

import io
import json
from pathlib import Path

from PIL import Image, ImageDraw

from pipeline.cli import main as examcorpus
from pipeline.describe import ANNOTATIONS_FILE, AppendLog, Annotation
from pipeline.devkit.sample.pdfgen import ImageBox, PageSpec, TextBox, build_pdf, item_bottom
from pipeline.review import CorrectionStore, ReviewStore
from tests.pipeline.season_sheets import KEY_NAME, SHEET_NAME, SheetQuestion, key_pdf, sheet_pdf
from tests.pipeline.test_season import curated

SHEET = SHEET_NAME.format(q="ele02", year=2023, session="czerwiec")
KEY = KEY_NAME.format(q="ele02", year=2023, session="czerwiec")
TITLE = "EGZAMIN ZAWODOWY · Arkusz ELE.02-X-23.06"

# Stems and options that do not name their number: the same question printed under another number reads the same.
OHM = SheetQuestion("", "Jaka jest jednostka oporu elektrycznego w układzie SI?", ("wolt", "om", "amper", "wat"))
SERIES = SheetQuestion("", "Jak łączy się amperomierz z odbiornikiem w obwodzie?", ("szeregowo", "równolegle", "mieszanie", "wcale"))
FUSE = SheetQuestion("", "Które urządzenie chroni obwód przed skutkami zwarcia?", ("bezpiecznik", "dioda", "kondensator", "cewka"))
LAMP = SheetQuestion("", "Która żarówka zużywa najmniej energii przy tej samej jasności?", ("LED", "halogenowa", "tradycyjna", "sodowa"))
ADDED = SheetQuestion("", "Ile wynosi napięcie w gniazdku domowym w Polsce?", ("12 V", "110 V", "230 V", "400 V"))
SERIES_REWORDED = SheetQuestion("", "Jak łączy się woltomierz z odbiornikiem w obwodzie?", SERIES.options)


def numbered(questions: list[SheetQuestion]) -> list[SheetQuestion]:
    return [SheetQuestion(str(n), q.stem, q.options) for n, q in enumerate(questions, start=1)]


def write_revision(folder: Path, questions: list[SheetQuestion]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    sheet_pdf(folder / SHEET, TITLE, numbered(questions))
    key_pdf(folder / KEY, [(str(n), "ABCD"[n % 4]) for n in range(1, len(questions) + 1)])


def extract(root: Path, folder: Path) -> int:
    return examcorpus(["extract", "--source", "sample_pl", "--from", str(folder), "--root", str(root), "--no-progress",
                       "--workers", "1", "--strict"])


def by_stem(root: Path) -> dict[str, object]:
    return {q.question.split("\n")[0]: q for q in curated(root)}


def overrides_said(root: Path) -> list[str]:
    return json.loads((root / "curated" / "reports" / "sample_pl.json").read_text(encoding="utf-8"))["overrides"]


def test_a_correction_follows_its_question_to_a_new_revision_where_a_question_was_added_before_it(project_root, tmp_path):
    folder = tmp_path / "season"
    write_revision(folder, [OHM, SERIES, FUSE, LAMP])
    assert extract(project_root, folder) == 0
    first = {q.number: q for q in curated(project_root)}
    assert [first[n].question for n in "1234"] == [OHM.stem, SERIES.stem, FUSE.stem, LAMP.stem]
    store = CorrectionStore.open(project_root, {q.id: q for q in first.values()})
    store.correct(first["3"].id, annotator="Ola", version=0, question="Które urządzenie chroni obwód przed zwarciem?",
                  choices=list(FUSE.options), answer="A", broken=False, note="the key's C is wrong")
    store.correct(first["2"].id, annotator="Ola", version=0, question="Jak włącza się amperomierz w obwód?",
                  choices=list(SERIES.options), answer="A", broken=False)

    # The revision at the same address: a question added before the fuse one, and the ammeter question reworded.
    write_revision(folder, [OHM, SERIES_REWORDED, ADDED, FUSE, LAMP])
    assert extract(project_root, folder) == 0
    now = {q.number: q for q in curated(project_root)}
    assert now["3"].source_sha256 != first["3"].source_sha256
    # The fuse question, now number 4, carries its correction; number 3 (another question now) keeps what it reads.
    assert (now["4"].question, now["4"].answer) == ("Które urządzenie chroni obwód przed zwarciem?", "A")
    assert now["3"].question == ADDED.stem and now["3"].answer == "D"
    # The reworded question is not the one corrected: its correction is not applied, and the line says why.
    assert now["2"].question == SERIES_REWORDED.stem
    lines = overrides_said(project_root)
    assert any(line.startswith(f"override of {first['3'].id} by Ola (") and f"carried to {now['4'].id}: the sheet changed" in line
               and "this record reads as the question corrected" in line for line in lines), lines
    [dropped] = [line for line in lines if line.startswith(f"override of {first['2'].id} ")]
    assert "dropped: the sheet changed" in dropped and "no record of this run reads as the question corrected" in dropped
    assert not any(line.startswith(f"override of {now['3'].id} ") and "applied" in line for line in lines)

    assert extract(project_root, folder) == 0  # and again, with nothing new: the same
    assert {q.number: q for q in curated(project_root)}["4"].question == "Które urządzenie chroni obwód przed zwarciem?"


def test_corrections_follow_their_questions_when_a_question_before_them_is_removed_and_the_last_id_is_gone(project_root,
                                                                                                           tmp_path):
    """Removing question 2 moves 3 to 2 and 4 to 3: the last id (…:4) names no record now, yet its question is there."""
    folder = tmp_path / "season"
    write_revision(folder, [OHM, SERIES, FUSE, LAMP])
    assert extract(project_root, folder) == 0
    first = {q.number: q for q in curated(project_root)}
    store = CorrectionStore.open(project_root, {q.id: q for q in first.values()})
    for number, text in (("3", "Co chroni obwód przed zwarciem?"), ("4", "Która żarówka jest najoszczędniejsza?")):
        store.correct(first[number].id, annotator="Ola", version=0, question=text, choices=list(first[number].choices),
                      answer="A", broken=False)

    write_revision(folder, [OHM, FUSE, LAMP])
    assert extract(project_root, folder) == 0
    now = {q.number: q for q in curated(project_root)}
    assert {n: q.question for n, q in now.items()} == {"1": OHM.stem, "2": "Co chroni obwód przed zwarciem?",
                                                       "3": "Która żarówka jest najoszczędniejsza?"}
    report = json.loads((project_root / "curated" / "reports" / "sample_pl.json").read_text(encoding="utf-8"))
    [to_two, to_three] = report["overrides"]
    assert to_two.startswith(f"override of {first['3'].id} by Ola (") and f"carried to {now['2'].id}: " in to_two
    assert to_three.startswith(f"override of {first['4'].id} by Ola (") and f"carried to {now['3'].id}: " in to_three
    assert report["notes"] == []  # no line saying the last one matches no record


# ------------------------------------------------------------------------------------------ accepted figure descriptions

def circuit_png() -> bytes:
    """A small drawn figure: a source, two resistors and their wires."""
    image = Image.new("RGB", (360, 200), "white")
    draw = ImageDraw.Draw(image)
    draw.rectangle((20, 20, 340, 180), outline="black", width=4)
    draw.ellipse((5, 80, 45, 120), outline="black", width=4, fill="white")
    for left in (110, 220):
        draw.rectangle((left, 8, left + 50, 32), outline="black", width=4, fill="white")
    draw.line((60, 60, 300, 140), fill="black", width=3)
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    return buffer.getvalue()


def figured_revision(folder: Path, before: list[SheetQuestion], figured: SheetQuestion) -> None:
    """Page 1: the title and the questions `before`; page 2: the figured question alone, laid out the same in every
    revision (its figure crops to the same pixels whatever its number)."""
    numbers = numbered([*before, figured])
    items, y = [TextBox(TITLE, 20, 15, 170, size=12, bold=True)], 30.0
    for question in numbers[:-1]:
        for text in [f"Zadanie {question.number}.", question.stem, *(f"{l}. {o}" for l, o in zip("ABCD", question.options))]:
            box = TextBox(text, 20, y, 170, size=11)
            items.append(box)
            y = item_bottom(box) + 1.5
        y += 4
    last = numbers[-1]
    page_two = [TextBox(f"Zadanie {last.number}.", 20, 20, 170, size=11), TextBox(last.stem, 20, 27, 170, size=11),
                ImageBox(60, 40, 90, circuit_png()),
                *(TextBox(f"{l}. {o}", 20, 100 + 7 * i, 170, size=11) for i, (l, o) in enumerate(zip("ABCD", last.options)))]
    folder.mkdir(parents=True, exist_ok=True)
    build_pdf(folder / SHEET, [PageSpec(tuple(items)), PageSpec(tuple(page_two))])
    key_pdf(folder / KEY, [(str(n), "ABCD"[n % 4]) for n in range(1, len(numbers) + 1)])


def accept_a_description(root: Path, question, text: str):
    """A described figure of `question` (its one image), accepted by Ala with `text` on the review page's store, as an
    annotator does; returns the image and its review item."""
    [image] = question.images
    annotation = Annotation(record_id=question.id, image_sha256=image.sha256, image_path=image.path, model="gemini-test",
                            prompt_version="v1", status="pending", description="Obwód z dwoma opornikami.",
                            transcription="", created_at="2026-12-01T09:00:00Z")
    AppendLog(root / ANNOTATIONS_FILE).append(annotation.to_dict())
    store = ReviewStore.open(root, [root / "curated" / "sample_pl.parquet"])
    store.decide(annotation.item_id, action="accept", annotator="Ala", version=0, description=text)
    return image, annotation.item_id


def test_an_accepted_description_follows_its_figure_to_the_question_it_stands_on_in_a_new_revision(project_root, tmp_path):
    folder = tmp_path / "season"
    figured_revision(folder, [OHM, SERIES, FUSE], LAMP)
    assert extract(project_root, folder) == 0
    first = {q.number: q for q in curated(project_root)}
    assert [bool(first[n].images) for n in "1234"] == [False, False, False, True]
    image, item_id = accept_a_description(project_root, first["4"], "Obwód: źródło i dwa oporniki.")
    assert extract(project_root, folder) == 0
    assert {q.number: q for q in curated(project_root)}["4"].image_description == "Obwód: źródło i dwa oporniki."

    figured_revision(folder, [OHM, ADDED, SERIES, FUSE], LAMP)  # a question added before: the figured one is number 5
    assert extract(project_root, folder) == 0
    now = {q.number: q for q in curated(project_root)}
    assert [img.sha256 for img in now["5"].images] == [image.sha256]
    assert now["5"].image_description == "Obwód: źródło i dwa oporniki." and now["5"].reviewed_by == "Ala"
    assert now["4"].image_description is None
    descriptions = json.loads((project_root / "curated" / "reports" / "sample_pl.json").read_text(encoding="utf-8"))["descriptions"]
    assert f"{first['4'].id}: accepted description of figure {image.sha256[:12]}… carried to {now['5'].id}, the one record " \
           "holding that figure now" in descriptions
    reopened = ReviewStore.open(project_root, [project_root / "curated" / "sample_pl.parquet"])
    assert reopened.get(item_id).question.id == now["5"].id  # the review page shows it on its question too
