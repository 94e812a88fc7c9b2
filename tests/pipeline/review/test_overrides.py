"""The extraction audit: curators' corrections stored as overrides keyed by question id and sheet
SHA-256, applied to the next extraction, dropped with a report line when the sheet changes."""
from __future__ import annotations

import io
from dataclasses import replace

import pytest
from PIL import Image

from pipeline.records import Region
from pipeline.review import ReviewStore, pages
from pipeline.review.overrides import BROKEN_FLAG, OVERRIDES_FILE, CorrectionStore, OverrideError, apply_overrides, load_overrides
from tests.pipeline.describe.builders import write_curated
from tests.pipeline.review.builders import review_client, write_sheet


def correction_store(root, questions):
    return CorrectionStore.open(root, {q.id: q for q in questions})


def correct(store, q, **changes):
    values = dict(annotator="Celina", version=0, question=q.question, choices=list(q.choices), answer=q.answer, broken=False)
    values.update(changes)
    return store.correct(q.id, **values)


def test_a_correction_is_applied_to_the_next_extraction(review_project):
    root, _, questions = review_project
    store = correction_store(root, questions)
    q = questions[0]
    correct(store, q, question="Oblicz długość boku AB.", choices=["3", "4", "5"], answer="B", note="stem had a page header")

    overrides = load_overrides(root / OVERRIDES_FILE)
    fixed, report = apply_overrides(questions, overrides)
    assert fixed[0].question == "Oblicz długość boku AB." and fixed[0].choices == ["3", "4", "5"]
    assert fixed[0].choice_labels == ["A", "B", "C"] and fixed[0].answer == "B" and fixed[0].answer_index == 1
    assert fixed[1:] == questions[1:]
    assert report == [f"override of {q.id} by Celina ({overrides[q.id].at}) applied"]
    again, _ = apply_overrides(fixed, overrides)
    assert again == fixed  # re-runs keep it, and applying twice changes nothing


def test_marking_broken_flags_the_question(review_project):
    root, _, questions = review_project
    store = correction_store(root, questions)
    correct(store, questions[1], broken=True)
    fixed, _ = apply_overrides(questions, load_overrides(root / OVERRIDES_FILE))
    assert BROKEN_FLAG in fixed[1].flags


def test_a_correction_is_dropped_with_a_report_line_when_the_sheet_changes_and_its_question_reads_otherwise(review_project):
    root, _, questions = review_project
    correct(correction_store(root, questions), questions[0], question="Poprawiona treść.")
    reworded = questions[0].question.replace("trójkąta", "czworokąta")
    assert reworded != questions[0].question
    re_downloaded = [replace(questions[0], source_sha256="cd" * 32, question=reworded), *questions[1:]]
    fixed, report = apply_overrides(re_downloaded, load_overrides(root / OVERRIDES_FILE))
    assert fixed[0].question == reworded
    assert "dropped: the sheet changed" in report[0] and "no record of this run reads as the question corrected" in report[0]

    _, report = apply_overrides(questions[1:], load_overrides(root / OVERRIDES_FILE))
    assert report == [f"override of {questions[0].id} not applied: no such question in this run"]


def test_a_correction_stays_with_its_question_when_the_same_sheet_is_read_again_a_little_otherwise(review_project):
    """Unchanged bytes, the question printed where it was and read again with one letter otherwise (a new OCR pass or
    cleaning rule), no record reading it exactly: still the question corrected, so the correction stays, said.
    Another question under the id (a spec change numbered it so) is printed elsewhere and gets nothing, however alike
    its text (two questions of a series differ by a digit)."""
    root, _, questions = review_project
    first = replace(questions[0], regions=[Region(1, (50.0, 60.0, 400.0, 200.0))])
    below = replace(questions[1], regions=[Region(1, (50.0, 220.0, 400.0, 360.0))])
    correct(correction_store(root, [first, below, *questions[2:]]), first, question="Poprawiona treść.", answer="A")
    overrides = load_overrides(root / OVERRIDES_FILE)
    one_letter = first.question.replace("trójkąta", "tr0jkąta")
    assert one_letter != first.question
    reread = replace(first, question=one_letter, regions=[Region(1, (50.0, 61.5, 401.0, 198.0))])
    fixed, report = apply_overrides([reread, below, *questions[2:]], overrides)
    assert fixed[0].question == "Poprawiona treść." and fixed[0].answer == "A"
    assert report == [f"override of {first.id} by Celina ({overrides[first.id].at}) applied: the sheet is unchanged and "
                      "this record reads the question corrected a little otherwise now (read again by a changed stage)"]

    renumbered = replace(below, id=first.id, number=first.number)  # the next question, now under the first's number
    fixed, report = apply_overrides([renumbered, *questions[2:]], overrides)
    assert fixed[0].question == below.question and fixed[0].answer == below.answer
    assert "dropped: the sheet is unchanged" in report[0]


def test_a_correction_is_carried_to_a_new_revision_of_its_sheet_that_reads_its_question_as_it_was_read(review_project):
    """Other bytes (a reissued sheet), the question read exactly as when it was corrected: the same question."""
    root, _, questions = review_project
    correct(correction_store(root, questions), questions[0], question="Poprawiona treść.")
    reissued = [replace(questions[0], source_sha256="cd" * 32), *questions[1:]]
    fixed, report = apply_overrides(reissued, load_overrides(root / OVERRIDES_FILE))
    assert fixed[0].question == "Poprawiona treść." and fixed[1:] == questions[1:]
    [line] = report
    assert line.startswith(f"override of {questions[0].id} by Celina") and f"carried to {questions[0].id}: the sheet changed" in line


def test_corrections_through_the_page_api_keep_an_audit_trail_and_detect_conflicts(review_project):
    root, curated, questions = review_project
    flagged = replace(questions[3], flags=["no_key_entry"])
    write_curated(root, [*questions[:3], flagged, *questions[4:]])
    client = review_client(ReviewStore.open(root, [curated]))
    queue = client.get("/api/audit/queue").json["ids"]
    assert queue == [flagged.id]  # flagged questions are the default queue
    assert len(client.get("/api/audit/queue?all=1").json["ids"]) == len(questions)

    detail = client.get(f"/api/audit/questions/{flagged.id}").json
    assert detail["extracted"]["answer"] == "C" and detail["version"] == 0
    body = {"annotator": "Celina", "version": 0, "question": detail["current"]["question"], "choices": detail["current"]["choices"],
            "answer": "D", "broken": False, "note": "key misread"}
    saved = client.post(f"/api/audit/questions/{flagged.id}", json=body)
    assert saved.status_code == 200 and saved.json["question"]["current"]["answer"] == "D"
    stale = client.post(f"/api/audit/questions/{flagged.id}", json={**body, "annotator": "Dorota", "answer": "A"})
    assert stale.status_code == 409 and "Celina" in stale.json["message"]

    [entry] = (root / OVERRIDES_FILE).read_text(encoding="utf-8").splitlines()
    override = load_overrides(root / OVERRIDES_FILE)[flagged.id]
    assert override.before["answer"] == "C" and override.answer == "D" and override.annotator == "Celina"
    assert override.sheet_sha256 == flagged.source_sha256 and '"note":"key misread"' in entry
    assert client.post(f"/api/audit/questions/{flagged.id}", json={**body, "version": 1, "annotator": ""}).status_code == 400
    assert client.get("/api/audit/questions/pl_test:1999:nope").status_code == 404
    assert client.post("/api/audit/questions/pl_test:1999:nope", json=body).status_code == 404


def test_the_sheet_pages_are_rendered_for_the_curator(review_project):
    root, curated, questions = review_project
    sha = write_sheet(root)
    client = review_client(ReviewStore.open(root, [curated]))
    page = client.get(f"/page/{sha}/2.png")
    assert page.status_code == 200 and page.data.startswith(b"\x89PNG")
    assert "has no page 3" in client.get(f"/page/{sha}/3.png").json["error"]
    assert "is not in raw/" in client.get(f"/page/{'e' * 64}/1.png").json["error"]
    assert client.get("/page/not-a-sha/1.png").status_code == 400


def test_the_question_region_is_outlined_on_its_page(review_project):
    root, curated, questions = review_project
    sha = write_sheet(root)
    boxed = replace(questions[0], source_sha256=sha, pages=[2], regions=[Region(2, (60.0, 100.0, 300.0, 180.0))])
    write_curated(root, [boxed, *questions[1:]])
    client = review_client(ReviewStore.open(root, [curated]))
    detail = client.get(f"/api/audit/questions/{boxed.id}").json
    assert detail["regions"] == [{"page": 2, "bbox": [60.0, 100.0, 300.0, 180.0]}]
    [url] = detail["page_urls"]
    assert url == f"/page/{sha}/2.png?box=60,100,300,180"
    outlined = Image.open(io.BytesIO(client.get(url).data)).convert("RGB")
    plain = Image.open(io.BytesIO(client.get(f"/page/{sha}/2.png").data)).convert("RGB")
    scale = 1.5  # the audit's rendering scale
    edge = (round((60 - 4) * scale) + 1, round(140 * scale))  # on the outline's left side, 4 pt out
    assert outlined.getpixel(edge) == (220, 30, 30) and plain.getpixel(edge) != (220, 30, 30)
    assert client.get(f"/page/{sha}/2.png?box=1,2,oops").status_code == 400



def test_page_renders_beyond_the_render_slots_are_told_to_retry_while_the_api_stays_served(review_project, monkeypatch):
    root, curated, _ = review_project
    sha = write_sheet(root)
    client = review_client(ReviewStore.open(root, [curated]))
    monkeypatch.setattr(pages, "RENDER_WAIT_S", 0.05)
    held = [pages.render_slots.acquire(blocking=False) for _ in range(pages.RENDER_SLOTS)]  # slow renders in flight
    try:
        assert all(held)
        busy = client.get(f"/page/{sha}/1.png")
        assert busy.status_code == 503 and busy.headers["Retry-After"] and "rendered already" in busy.json["error"]
        assert client.get("/api/queue").status_code == 200
    finally:
        for _ in held:
            pages.render_slots.release()
    for _ in range(pages.RENDER_SLOTS + 1):  # a failed render gives its slot back
        assert client.get(f"/page/{sha}/3.png").status_code == 400
    assert client.get(f"/page/{sha}/1.png").status_code == 200


def test_more_options_than_can_be_labelled_are_refused_and_nothing_is_stored(review_project):
    root, _, questions = review_project
    store = correction_store(root, questions)
    q = questions[0]  # labelled A-D
    with pytest.raises(OverrideError, match="11 options: at most 10") as refused:
        correct(store, q, choices=[f"opcja {n}" for n in range(11)])
    assert refused.value.field == "choices" and not (root / OVERRIDES_FILE).exists()
    assert correct(store, q, choices=[f"opcja {n}" for n in range(10)] + ["  "]).choices[-1] == "opcja 9"
