"""Curated figure questions with generated annotations (real records written through the describe
stage's own log), and real sheet PDFs in raw/, for the review tests and bench."""
from __future__ import annotations

import hashlib
from datetime import datetime, timezone
from pathlib import Path

from fpdf import FPDF

from pipeline.describe import Annotation, AppendLog
from pipeline.review import ReviewStore, create_app
from tests.pipeline.describe.builders import figure_question, write_curated
from pipeline.devkit.gemini_standin import HTML_PAYLOAD

MODEL = "gemini-2.5-pro"


def annotation_for(question, image_index: int = 0, *, status: str = "pending", description: str | None = None,
                   transcription: str | None = None, model: str = MODEL) -> Annotation:
    image = question.images[image_index]
    generated = status == "pending"
    return Annotation(
        record_id=question.id, image_sha256=image.sha256, image_path=image.path, model=model, prompt_version="v1", status=status,
        description=(description or f"Trójkąt prostokątny do zadania {question.number}.") if generated else None,
        transcription=(transcription if transcription is not None else "A B C\n3 cm 4 cm") if generated else None,
        created_at=datetime(2026, 1, 1, tzinfo=timezone.utc).isoformat(timespec="seconds"), latency_s=0.5,
        usage={"prompt_tokens": 300, "completion_tokens": 80, "total_tokens": 380},
    )


def build_review_project(root: Path) -> tuple[Path, list]:
    """Six questions over two exams, two years and two languages; question 3 carries an HTML/script
    payload in its text and its description; question 5 has two figures; question 6 was blocked."""
    questions = [
        figure_question(root, 1),
        figure_question(root, 2, year=2022),
        figure_question(root, 3, question=f"[F03] {HTML_PAYLOAD} Który bok jest najdłuższy?", choices=[HTML_PAYLOAD, "AC", "BC", "AB"]),
        figure_question(root, 4, language="el", exam="panellinies", source="gr_test"),
        figure_question(root, 5, figures=2),
        figure_question(root, 6),
    ]
    curated = write_curated(root, questions)
    annotations = [annotation_for(q) for q in questions[:2]]
    annotations.append(annotation_for(questions[2], description=f"Rysunek: {HTML_PAYLOAD}", transcription=HTML_PAYLOAD))
    annotations += [annotation_for(questions[3]), annotation_for(questions[4], 0), annotation_for(questions[4], 1),
                    annotation_for(questions[5], status="blocked")]
    AppendLog(root / "annotations" / "descriptions.jsonl").append([a.to_dict() for a in annotations])
    return curated, questions


def write_sheet(root, pages: int = 2) -> str:
    """A real PDF in raw/ under its SHA-256, as the acquire stage stores sheets."""
    pdf = FPDF()
    for n in range(pages):
        pdf.add_page()
        pdf.set_font("helvetica", size=14)
        pdf.cell(0, 10, f"Zadanie {n + 1}. Oblicz.")
    data = bytes(pdf.output())
    sha = hashlib.sha256(data).hexdigest()
    (root / "raw").mkdir(parents=True, exist_ok=True)
    (root / "raw" / f"{sha}.pdf").write_bytes(data)
    return sha


def review_client(store: ReviewStore, **app_options):
    """Flask's test client for the review app, sending the Origin the app's own page sends: every
    write must carry one (pipeline.review.guard)."""
    client = create_app(store, **app_options).test_client()
    client.environ_base["HTTP_ORIGIN"] = "http://localhost"
    return client
