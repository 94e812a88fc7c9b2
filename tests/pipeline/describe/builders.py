"""Curated questions with real PNG figures written under a temporary project root, for the describe
and review tests and the describe bench."""
from __future__ import annotations

import hashlib
import io
from pathlib import Path

import pyarrow.parquet as pq
from PIL import Image, ImageDraw

from pipeline.records import ImageRef, Question, question_id, questions_to_table

LABELS = ["A", "B", "C", "D"]


def write_png(path: Path, seed: int, size: tuple[int, int] = (120, 80)) -> str:
    """A small distinct figure (a triangle and the seed drawn in); returns its SHA-256."""
    image = Image.new("RGB", size, "white")
    draw = ImageDraw.Draw(image)
    draw.polygon([(10, size[1] - 10), (size[0] - 10, size[1] - 10), (10 + seed % 50, 10)], outline="black", width=2)
    draw.text((size[0] // 2, 8), str(seed), fill="black")
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    data = buffer.getvalue()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return hashlib.sha256(data).hexdigest()


def figure_question(root: Path, i: int, *, language: str = "pl", exam: str = "matura", year: int = 2023, figures: int = 1,
                    question: str | None = None, choices: list[str] | None = None, source: str = "pl_test") -> Question:
    """Question i with `figures` PNGs under root/raw/figures; its text carries the token [Fii]."""
    images = []
    for k in range(figures):
        rel = f"raw/figures/{source}-{i:04d}-{k}.png"
        sha = write_png(root / rel, seed=i * 10 + k)
        images.append(ImageRef(path=rel, page=1 + k, bbox=(50.0, 100.0, 300.0, 260.0), sha256=sha))
    number = str(i)
    return Question(
        id=question_id(source, year, "maj", "T-1", number), source=source, country="PL", language=language, exam=exam,
        level="podstawowy", subject="matematyka", year=year, session="maj", sheet_code="T-1", number=number,
        type="single_choice", question=question or f"[F{i:02d}] Oblicz długość przeciwprostokątnej trójkąta z rysunku.",
        context=None, choices=choices or [f"{n} cm" for n in (3, 4, 5, 6)], choice_labels=LABELS, answer="C", answer_index=2,
        points=1.0, images=images, source_url=f"https://example.org/{source}/{year}.pdf", source_sha256="ab" * 32,
        pages=[1], pipeline_version="test",
    )


def text_question(i: int, source: str = "pl_test", year: int = 2023) -> Question:
    """A question without figures: the describe stage must leave it alone."""
    return figure_question(Path("/nonexistent"), i, figures=0, source=source, year=year)


def write_curated(root: Path, questions: list[Question], name: str = "pl_test") -> Path:
    path = root / "curated" / f"{name}.parquet"
    path.parent.mkdir(parents=True, exist_ok=True)
    pq.write_table(questions_to_table(questions), path)
    return path
